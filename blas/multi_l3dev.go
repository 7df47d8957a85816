package clblas

import (
	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// l3Dev is the level 3 routines of one precision on one device (a
// device[T] is one) or on the CPU (cpu64, cpu32), for the split calls
// (multi_gemm.go): device[T]'s parameters, the device's error (nil on the
// CPU).
type l3Dev[T eng.Real] interface {
	Gemm(tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error
	Symm(s blas.Side, ul blas.Uplo, m, n int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error
	Syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, beta T, c []T, ldc int) error
	Syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error
	Trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) error
	Trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) error
}

// l3For returns member mb's level 3 routines of precision T, gonum's for
// nil.
func l3For[T float32 | float64](mb *member) l3Dev[T] {
	if mb != nil {
		return deviceOf[T](mb)
	}
	var c any = cpu32{}
	if eng.ElemSize[T]() == 8 {
		c = cpu64{}
	}
	return c.(l3Dev[T])
}

// cpu64 and cpu32 are gonum's level 3 routines as an l3Dev.
type cpu64 struct{}
type cpu32 struct{}

func (cpu64) Gemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	native.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}
func (cpu64) Symm(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	native.Dsymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}
func (cpu64) Syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) error {
	native.Dsyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
	return nil
}
func (cpu64) Syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	native.Dsyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}
func (cpu64) Trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, dg blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error {
	native.Dtrmm(s, ul, tA, dg, m, n, alpha, a, lda, b, ldb)
	return nil
}
func (cpu64) Trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, dg blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error {
	native.Dtrsm(s, ul, tA, dg, m, n, alpha, a, lda, b, ldb)
	return nil
}

func (cpu32) Gemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	native.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}
func (cpu32) Symm(s blas.Side, ul blas.Uplo, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	native.Ssymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}
func (cpu32) Syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int) error {
	native.Ssyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
	return nil
}
func (cpu32) Syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	native.Ssyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}
func (cpu32) Trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, dg blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error {
	native.Strmm(s, ul, tA, dg, m, n, alpha, a, lda, b, ldb)
	return nil
}
func (cpu32) Trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, dg blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error {
	native.Strsm(s, ul, tA, dg, m, n, alpha, a, lda, b, ldb)
	return nil
}
