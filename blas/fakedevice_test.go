package clblas

import (
	"errors"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
)

// This file holds two fake devices that tests put behind the front end with
// withDevices: refDevice (gonum's Go code dressed as a device, which shows
// that the device path hands the right arguments over and uses the results)
// and failDevice (fails every call, for the fallback path).

// errFake is what failDevice returns.
var errFake = errors.New("fake device failure")

// refDevice64 runs every call with gonum and counts the calls.
type refDevice64 struct{ calls *atomic.Int64 }

// refDevice32 runs every call with gonum and counts the calls.
type refDevice32 struct{ calls *atomic.Int64 }

// failDevice64 fails every call and counts the calls.
type failDevice64 struct{ calls *atomic.Int64 }

// failDevice32 fails every call and counts the calls.
type failDevice32 struct{ calls *atomic.Int64 }

var (
	_ device[float64] = refDevice64{}
	_ device[float32] = refDevice32{}
	_ device[float64] = failDevice64{}
	_ device[float32] = failDevice32{}
)

func (refDevice64) Close() error  { return nil }
func (refDevice32) Close() error  { return nil }
func (failDevice64) Close() error { return nil }
func (failDevice32) Close() error { return nil }

func (dev refDevice64) Dot(n int, x []float64, incX int, y []float64, incY int) (float64, error) {
	dev.calls.Add(1)
	return native.Ddot(n, x, incX, y, incY), nil
}

func (dev failDevice64) Dot(n int, x []float64, incX int, y []float64, incY int) (float64, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice64) Nrm2(n int, x []float64, incX int) (float64, error) {
	dev.calls.Add(1)
	return native.Dnrm2(n, x, incX), nil
}

func (dev failDevice64) Nrm2(n int, x []float64, incX int) (float64, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice64) Asum(n int, x []float64, incX int) (float64, error) {
	dev.calls.Add(1)
	return native.Dasum(n, x, incX), nil
}

func (dev failDevice64) Asum(n int, x []float64, incX int) (float64, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice64) Iamax(n int, x []float64, incX int) (int, error) {
	dev.calls.Add(1)
	return native.Idamax(n, x, incX), nil
}

func (dev failDevice64) Iamax(n int, x []float64, incX int) (int, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice64) Swap(n int, x []float64, incX int, y []float64, incY int) error {
	dev.calls.Add(1)
	native.Dswap(n, x, incX, y, incY)
	return nil
}

func (dev failDevice64) Swap(n int, x []float64, incX int, y []float64, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Copy(n int, x []float64, incX int, y []float64, incY int) error {
	dev.calls.Add(1)
	native.Dcopy(n, x, incX, y, incY)
	return nil
}

func (dev failDevice64) Copy(n int, x []float64, incX int, y []float64, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Axpy(n int, alpha float64, x []float64, incX int, y []float64, incY int) error {
	dev.calls.Add(1)
	native.Daxpy(n, alpha, x, incX, y, incY)
	return nil
}

func (dev failDevice64) Axpy(n int, alpha float64, x []float64, incX int, y []float64, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Rot(n int, x []float64, incX int, y []float64, incY int, c float64, s float64) error {
	dev.calls.Add(1)
	native.Drot(n, x, incX, y, incY, c, s)
	return nil
}

func (dev failDevice64) Rot(n int, x []float64, incX int, y []float64, incY int, c float64, s float64) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Rotm(n int, x []float64, incX int, y []float64, incY int, flag blas.Flag, h [4]float64) error {
	dev.calls.Add(1)
	native.Drotm(n, x, incX, y, incY, blas.DrotmParams{Flag: flag, H: h})
	return nil
}

func (dev failDevice64) Rotm(n int, x []float64, incX int, y []float64, incY int, flag blas.Flag, h [4]float64) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Scal(n int, alpha float64, x []float64, incX int) error {
	dev.calls.Add(1)
	native.Dscal(n, alpha, x, incX)
	return nil
}

func (dev failDevice64) Scal(n int, alpha float64, x []float64, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Gemv(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	native.Dgemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice64) Gemv(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Gbmv(tA blas.Transpose, m, n, kL, kU int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	native.Dgbmv(tA, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice64) Gbmv(tA blas.Transpose, m, n, kL, kU int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Trmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) error {
	dev.calls.Add(1)
	native.Dtrmv(ul, tA, d, n, a, lda, x, incX)
	return nil
}

func (dev failDevice64) Trmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Tbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) error {
	dev.calls.Add(1)
	native.Dtbmv(ul, tA, d, n, k, a, lda, x, incX)
	return nil
}

func (dev failDevice64) Tbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Tpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) error {
	dev.calls.Add(1)
	native.Dtpmv(ul, tA, d, n, ap, x, incX)
	return nil
}

func (dev failDevice64) Tpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Trsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) error {
	dev.calls.Add(1)
	native.Dtrsv(ul, tA, d, n, a, lda, x, incX)
	return nil
}

func (dev failDevice64) Trsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Tbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) error {
	dev.calls.Add(1)
	native.Dtbsv(ul, tA, d, n, k, a, lda, x, incX)
	return nil
}

func (dev failDevice64) Tbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Tpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) error {
	dev.calls.Add(1)
	native.Dtpsv(ul, tA, d, n, ap, x, incX)
	return nil
}

func (dev failDevice64) Tpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Symv(ul blas.Uplo, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	native.Dsymv(ul, n, alpha, a, lda, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice64) Symv(ul blas.Uplo, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Sbmv(ul blas.Uplo, n, k int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	native.Dsbmv(ul, n, k, alpha, a, lda, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice64) Sbmv(ul blas.Uplo, n, k int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Spmv(ul blas.Uplo, n int, alpha float64, ap []float64, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	native.Dspmv(ul, n, alpha, ap, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice64) Spmv(ul blas.Uplo, n int, alpha float64, ap []float64, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Ger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) error {
	dev.calls.Add(1)
	if incX < 0 || incY < 0 {
		gerNegInc64(m, n, alpha, x, incX, y, incY, a, lda) // gonum/gonum#2105
		return nil
	}
	native.Dger(m, n, alpha, x, incX, y, incY, a, lda)
	return nil
}

func (dev failDevice64) Ger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Syr(ul blas.Uplo, n int, alpha float64, x []float64, incX int, a []float64, lda int) error {
	dev.calls.Add(1)
	native.Dsyr(ul, n, alpha, x, incX, a, lda)
	return nil
}

func (dev failDevice64) Syr(ul blas.Uplo, n int, alpha float64, x []float64, incX int, a []float64, lda int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Spr(ul blas.Uplo, n int, alpha float64, x []float64, incX int, ap []float64) error {
	dev.calls.Add(1)
	native.Dspr(ul, n, alpha, x, incX, ap)
	return nil
}

func (dev failDevice64) Spr(ul blas.Uplo, n int, alpha float64, x []float64, incX int, ap []float64) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Syr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) error {
	dev.calls.Add(1)
	native.Dsyr2(ul, n, alpha, x, incX, y, incY, a, lda)
	return nil
}

func (dev failDevice64) Syr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Spr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, ap []float64) error {
	dev.calls.Add(1)
	native.Dspr2(ul, n, alpha, x, incX, y, incY, ap)
	return nil
}

func (dev failDevice64) Spr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, ap []float64) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Gemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	dev.calls.Add(1)
	native.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}

func (dev failDevice64) Gemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Symm(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	dev.calls.Add(1)
	native.Dsymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}

func (dev failDevice64) Symm(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) error {
	dev.calls.Add(1)
	native.Dsyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
	return nil
}

func (dev failDevice64) Syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	dev.calls.Add(1)
	native.Dsyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}

func (dev failDevice64) Syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error {
	dev.calls.Add(1)
	native.Dtrmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
	return nil
}

func (dev failDevice64) Trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error {
	dev.calls.Add(1)
	native.Dtrsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
	return nil
}

func (dev failDevice64) Trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error {
	dev.calls.Add(1)
	return errFake
}

// The float64 devices' float64-accumulated dots are plain dot products.

func (dev refDevice64) Sdsdot(n int, alpha float64, x []float64, incX int, y []float64, incY int) (float64, error) {
	dev.calls.Add(1)
	return alpha + native.Ddot(n, x, incX, y, incY), nil
}

func (dev failDevice64) Sdsdot(n int, alpha float64, x []float64, incX int, y []float64, incY int) (float64, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice64) Dsdot(n int, x []float64, incX int, y []float64, incY int) (float64, error) {
	dev.calls.Add(1)
	return native.Ddot(n, x, incX, y, incY), nil
}

func (dev failDevice64) Dsdot(n int, x []float64, incX int, y []float64, incY int) (float64, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice32) Sdsdot(n int, alpha float32, x []float32, incX int, y []float32, incY int) (float32, error) {
	dev.calls.Add(1)
	return native.Sdsdot(n, alpha, x, incX, y, incY), nil
}

func (dev failDevice32) Sdsdot(n int, alpha float32, x []float32, incX int, y []float32, incY int) (float32, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice32) Dsdot(n int, x []float32, incX int, y []float32, incY int) (float64, error) {
	dev.calls.Add(1)
	return native.Dsdot(n, x, incX, y, incY), nil
}

func (dev failDevice32) Dsdot(n int, x []float32, incX int, y []float32, incY int) (float64, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice32) Dot(n int, x []float32, incX int, y []float32, incY int) (float32, error) {
	dev.calls.Add(1)
	return native.Sdot(n, x, incX, y, incY), nil
}

func (dev failDevice32) Dot(n int, x []float32, incX int, y []float32, incY int) (float32, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice32) Nrm2(n int, x []float32, incX int) (float32, error) {
	dev.calls.Add(1)
	return native.Snrm2(n, x, incX), nil
}

func (dev failDevice32) Nrm2(n int, x []float32, incX int) (float32, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice32) Asum(n int, x []float32, incX int) (float32, error) {
	dev.calls.Add(1)
	return native.Sasum(n, x, incX), nil
}

func (dev failDevice32) Asum(n int, x []float32, incX int) (float32, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice32) Iamax(n int, x []float32, incX int) (int, error) {
	dev.calls.Add(1)
	return native.Isamax(n, x, incX), nil
}

func (dev failDevice32) Iamax(n int, x []float32, incX int) (int, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice32) Swap(n int, x []float32, incX int, y []float32, incY int) error {
	dev.calls.Add(1)
	native.Sswap(n, x, incX, y, incY)
	return nil
}

func (dev failDevice32) Swap(n int, x []float32, incX int, y []float32, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Copy(n int, x []float32, incX int, y []float32, incY int) error {
	dev.calls.Add(1)
	native.Scopy(n, x, incX, y, incY)
	return nil
}

func (dev failDevice32) Copy(n int, x []float32, incX int, y []float32, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Axpy(n int, alpha float32, x []float32, incX int, y []float32, incY int) error {
	dev.calls.Add(1)
	native.Saxpy(n, alpha, x, incX, y, incY)
	return nil
}

func (dev failDevice32) Axpy(n int, alpha float32, x []float32, incX int, y []float32, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Rot(n int, x []float32, incX int, y []float32, incY int, c float32, s float32) error {
	dev.calls.Add(1)
	native.Srot(n, x, incX, y, incY, c, s)
	return nil
}

func (dev failDevice32) Rot(n int, x []float32, incX int, y []float32, incY int, c float32, s float32) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Rotm(n int, x []float32, incX int, y []float32, incY int, flag blas.Flag, h [4]float32) error {
	dev.calls.Add(1)
	native.Srotm(n, x, incX, y, incY, blas.SrotmParams{Flag: flag, H: h})
	return nil
}

func (dev failDevice32) Rotm(n int, x []float32, incX int, y []float32, incY int, flag blas.Flag, h [4]float32) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Scal(n int, alpha float32, x []float32, incX int) error {
	dev.calls.Add(1)
	native.Sscal(n, alpha, x, incX)
	return nil
}

func (dev failDevice32) Scal(n int, alpha float32, x []float32, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Gemv(tA blas.Transpose, m, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	native.Sgemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice32) Gemv(tA blas.Transpose, m, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Gbmv(tA blas.Transpose, m, n, kL, kU int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	native.Sgbmv(tA, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice32) Gbmv(tA blas.Transpose, m, n, kL, kU int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Trmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float32, lda int, x []float32, incX int) error {
	dev.calls.Add(1)
	native.Strmv(ul, tA, d, n, a, lda, x, incX)
	return nil
}

func (dev failDevice32) Trmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float32, lda int, x []float32, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Tbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float32, lda int, x []float32, incX int) error {
	dev.calls.Add(1)
	native.Stbmv(ul, tA, d, n, k, a, lda, x, incX)
	return nil
}

func (dev failDevice32) Tbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float32, lda int, x []float32, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Tpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float32, x []float32, incX int) error {
	dev.calls.Add(1)
	native.Stpmv(ul, tA, d, n, ap, x, incX)
	return nil
}

func (dev failDevice32) Tpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float32, x []float32, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Trsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float32, lda int, x []float32, incX int) error {
	dev.calls.Add(1)
	native.Strsv(ul, tA, d, n, a, lda, x, incX)
	return nil
}

func (dev failDevice32) Trsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float32, lda int, x []float32, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Tbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float32, lda int, x []float32, incX int) error {
	dev.calls.Add(1)
	native.Stbsv(ul, tA, d, n, k, a, lda, x, incX)
	return nil
}

func (dev failDevice32) Tbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float32, lda int, x []float32, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Tpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float32, x []float32, incX int) error {
	dev.calls.Add(1)
	native.Stpsv(ul, tA, d, n, ap, x, incX)
	return nil
}

func (dev failDevice32) Tpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float32, x []float32, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Symv(ul blas.Uplo, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	native.Ssymv(ul, n, alpha, a, lda, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice32) Symv(ul blas.Uplo, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Sbmv(ul blas.Uplo, n, k int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	native.Ssbmv(ul, n, k, alpha, a, lda, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice32) Sbmv(ul blas.Uplo, n, k int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Spmv(ul blas.Uplo, n int, alpha float32, ap []float32, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	native.Sspmv(ul, n, alpha, ap, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice32) Spmv(ul blas.Uplo, n int, alpha float32, ap []float32, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Ger(m, n int, alpha float32, x []float32, incX int, y []float32, incY int, a []float32, lda int) error {
	dev.calls.Add(1)
	if incX < 0 || incY < 0 {
		gerNegInc32(m, n, alpha, x, incX, y, incY, a, lda) // gonum/gonum#2105
		return nil
	}
	native.Sger(m, n, alpha, x, incX, y, incY, a, lda)
	return nil
}

func (dev failDevice32) Ger(m, n int, alpha float32, x []float32, incX int, y []float32, incY int, a []float32, lda int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Syr(ul blas.Uplo, n int, alpha float32, x []float32, incX int, a []float32, lda int) error {
	dev.calls.Add(1)
	native.Ssyr(ul, n, alpha, x, incX, a, lda)
	return nil
}

func (dev failDevice32) Syr(ul blas.Uplo, n int, alpha float32, x []float32, incX int, a []float32, lda int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Spr(ul blas.Uplo, n int, alpha float32, x []float32, incX int, ap []float32) error {
	dev.calls.Add(1)
	native.Sspr(ul, n, alpha, x, incX, ap)
	return nil
}

func (dev failDevice32) Spr(ul blas.Uplo, n int, alpha float32, x []float32, incX int, ap []float32) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Syr2(ul blas.Uplo, n int, alpha float32, x []float32, incX int, y []float32, incY int, a []float32, lda int) error {
	dev.calls.Add(1)
	native.Ssyr2(ul, n, alpha, x, incX, y, incY, a, lda)
	return nil
}

func (dev failDevice32) Syr2(ul blas.Uplo, n int, alpha float32, x []float32, incX int, y []float32, incY int, a []float32, lda int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Spr2(ul blas.Uplo, n int, alpha float32, x []float32, incX int, y []float32, incY int, ap []float32) error {
	dev.calls.Add(1)
	native.Sspr2(ul, n, alpha, x, incX, y, incY, ap)
	return nil
}

func (dev failDevice32) Spr2(ul blas.Uplo, n int, alpha float32, x []float32, incX int, y []float32, incY int, ap []float32) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Gemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	dev.calls.Add(1)
	native.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}

func (dev failDevice32) Gemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Symm(s blas.Side, ul blas.Uplo, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	dev.calls.Add(1)
	native.Ssymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}

func (dev failDevice32) Symm(s blas.Side, ul blas.Uplo, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int) error {
	dev.calls.Add(1)
	native.Ssyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
	return nil
}

func (dev failDevice32) Syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	dev.calls.Add(1)
	native.Ssyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}

func (dev failDevice32) Syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error {
	dev.calls.Add(1)
	native.Strmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
	return nil
}

func (dev failDevice32) Trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error {
	dev.calls.Add(1)
	native.Strsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
	return nil
}

func (dev failDevice32) Trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error {
	dev.calls.Add(1)
	return errFake
}
