package engine

import "gonum.org/v1/gonum/blas"

// Device is the engine as one precision's BLAS on host slices: the device
// the front end (package clblas) calls after its argument checks, quick
// returns and offload decision. Each method is gonum's routine without its
// precision letter, with an extra error result, and runs one generic
// routine of device_level1.go, device_level2.go or device_level3.go; the
// front end's device interface states the contract they keep.
type Device[T Real] struct{ E *Engine }

// Close drops the precision's hold on the engine; the last one closes it.
func (dev Device[T]) Close() error { return dev.E.release() }

// name is a routine's name in T's precision: the float64 one or the
// float32 one (launch counts and error messages use it).
func name[T Real](d, s string) string {
	if ElemSize[T]() == 8 {
		return d
	}
	return s
}

// Level 1.

func (dev Device[T]) Dot(n int, x []T, incX int, y []T, incY int) (T, error) {
	return dot(dev.E, name[T]("Ddot", "Sdot"), n, x, incX, y, incY)
}

func (dev Device[T]) Nrm2(n int, x []T, incX int) (T, error) {
	return nrm2(dev.E, name[T]("Dnrm2", "Snrm2"), n, x, incX)
}

func (dev Device[T]) Asum(n int, x []T, incX int) (T, error) {
	return asum(dev.E, name[T]("Dasum", "Sasum"), n, x, incX)
}

func (dev Device[T]) Iamax(n int, x []T, incX int) (int, error) {
	return iamax(dev.E, name[T]("Idamax", "Isamax"), n, x, incX)
}

func (dev Device[T]) Swap(n int, x []T, incX int, y []T, incY int) error {
	return swap(dev.E, name[T]("Dswap", "Sswap"), n, x, incX, y, incY)
}

func (dev Device[T]) Copy(n int, x []T, incX int, y []T, incY int) error {
	return copyVec(dev.E, name[T]("Dcopy", "Scopy"), n, x, incX, y, incY)
}

func (dev Device[T]) Axpy(n int, alpha T, x []T, incX int, y []T, incY int) error {
	return axpy(dev.E, name[T]("Daxpy", "Saxpy"), n, alpha, x, incX, y, incY)
}

func (dev Device[T]) Rot(n int, x []T, incX int, y []T, incY int, c T, s T) error {
	return rot(dev.E, name[T]("Drot", "Srot"), n, x, incX, y, incY, c, s)
}

func (dev Device[T]) Rotm(n int, x []T, incX int, y []T, incY int, flag blas.Flag, h [4]T) error {
	return rotm(dev.E, name[T]("Drotm", "Srotm"), n, x, incX, y, incY, flag, h)
}

func (dev Device[T]) Scal(n int, alpha T, x []T, incX int) error {
	return scal(dev.E, name[T]("Dscal", "Sscal"), n, alpha, x, incX)
}

// The float32 routines that accumulate in float64 (on T = float64 they are
// dot products, which accumulate in float64 anyway).

func (dev Device[T]) Sdsdot(n int, alpha T, x []T, incX int, y []T, incY int) (T, error) {
	r, err := dsdot(dev.E, "Sdsdot", n, x, incX, y, incY)
	if err != nil {
		return 0, err
	}
	return alpha + T(r), nil
}

func (dev Device[T]) Dsdot(n int, x []T, incX int, y []T, incY int) (float64, error) {
	return dsdot(dev.E, "Dsdot", n, x, incX, y, incY)
}

// Level 2.

func (dev Device[T]) Gemv(tA blas.Transpose, m, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) error {
	return gemv(dev.E, name[T]("Dgemv", "Sgemv"), tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
}

func (dev Device[T]) Gbmv(tA blas.Transpose, m, n, kL, kU int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) error {
	return gbmv(dev.E, name[T]("Dgbmv", "Sgbmv"), tA, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
}

func (dev Device[T]) Trmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []T, lda int, x []T, incX int) error {
	return trmv(dev.E, name[T]("Dtrmv", "Strmv"), ul, tA, d, n, a, lda, x, incX)
}

func (dev Device[T]) Tbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []T, lda int, x []T, incX int) error {
	return tbmv(dev.E, name[T]("Dtbmv", "Stbmv"), ul, tA, d, n, k, a, lda, x, incX)
}

func (dev Device[T]) Tpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []T, x []T, incX int) error {
	return tpmv(dev.E, name[T]("Dtpmv", "Stpmv"), ul, tA, d, n, ap, x, incX)
}

func (dev Device[T]) Trsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []T, lda int, x []T, incX int) error {
	return trsv(dev.E, name[T]("Dtrsv", "Strsv"), ul, tA, d, n, a, lda, x, incX)
}

func (dev Device[T]) Tbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []T, lda int, x []T, incX int) error {
	return tbsv(dev.E, name[T]("Dtbsv", "Stbsv"), ul, tA, d, n, k, a, lda, x, incX)
}

func (dev Device[T]) Tpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []T, x []T, incX int) error {
	return tpsv(dev.E, name[T]("Dtpsv", "Stpsv"), ul, tA, d, n, ap, x, incX)
}

func (dev Device[T]) Symv(ul blas.Uplo, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) error {
	return symv(dev.E, name[T]("Dsymv", "Ssymv"), ul, n, alpha, a, lda, x, incX, beta, y, incY)
}

func (dev Device[T]) Sbmv(ul blas.Uplo, n, k int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) error {
	return sbmv(dev.E, name[T]("Dsbmv", "Ssbmv"), ul, n, k, alpha, a, lda, x, incX, beta, y, incY)
}

func (dev Device[T]) Spmv(ul blas.Uplo, n int, alpha T, ap []T, x []T, incX int, beta T, y []T, incY int) error {
	return spmv(dev.E, name[T]("Dspmv", "Sspmv"), ul, n, alpha, ap, x, incX, beta, y, incY)
}

func (dev Device[T]) Ger(m, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int) error {
	return ger(dev.E, name[T]("Dger", "Sger"), m, n, alpha, x, incX, y, incY, a, lda)
}

func (dev Device[T]) Syr(ul blas.Uplo, n int, alpha T, x []T, incX int, a []T, lda int) error {
	return syr(dev.E, name[T]("Dsyr", "Ssyr"), ul, n, alpha, x, incX, a, lda)
}

func (dev Device[T]) Spr(ul blas.Uplo, n int, alpha T, x []T, incX int, ap []T) error {
	return spr(dev.E, name[T]("Dspr", "Sspr"), ul, n, alpha, x, incX, ap)
}

func (dev Device[T]) Syr2(ul blas.Uplo, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int) error {
	return syr2(dev.E, name[T]("Dsyr2", "Ssyr2"), ul, n, alpha, x, incX, y, incY, a, lda)
}

func (dev Device[T]) Spr2(ul blas.Uplo, n int, alpha T, x []T, incX int, y []T, incY int, ap []T) error {
	return spr2(dev.E, name[T]("Dspr2", "Sspr2"), ul, n, alpha, x, incX, y, incY, ap)
}

// Level 3.

func (dev Device[T]) Gemm(tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error {
	return gemmSlices(dev.E, name[T]("Dgemm", "Sgemm"), tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func (dev Device[T]) Symm(s blas.Side, ul blas.Uplo, m, n int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error {
	return symm(dev.E, name[T]("Dsymm", "Ssymm"), s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
}

func (dev Device[T]) Syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, beta T, c []T, ldc int) error {
	return syrk(dev.E, name[T]("Dsyrk", "Ssyrk"), ul, t, n, k, alpha, a, lda, beta, c, ldc)
}

func (dev Device[T]) Syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error {
	return syr2k(dev.E, name[T]("Dsyr2k", "Ssyr2k"), ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func (dev Device[T]) Trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) error {
	return trmm(dev.E, name[T]("Dtrmm", "Strmm"), s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

func (dev Device[T]) Trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) error {
	return Trsm(dev.E, name[T]("Dtrsm", "Strsm"), s, ul, tA, d, m, n, alpha, a, lda, b, ldb, TrsmBlock(dev.E))
}
