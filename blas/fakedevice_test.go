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
	_ deviceFloat64 = refDevice64{}
	_ deviceFloat32 = refDevice32{}
	_ deviceFloat64 = failDevice64{}
	_ deviceFloat32 = failDevice32{}
)

func (refDevice64) Close() error  { return nil }
func (refDevice32) Close() error  { return nil }
func (failDevice64) Close() error { return nil }
func (failDevice32) Close() error { return nil }

func (dev refDevice64) Ddot(n int, x []float64, incX int, y []float64, incY int) (float64, error) {
	dev.calls.Add(1)
	return native.Ddot(n, x, incX, y, incY), nil
}

func (dev failDevice64) Ddot(n int, x []float64, incX int, y []float64, incY int) (float64, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice64) Dnrm2(n int, x []float64, incX int) (float64, error) {
	dev.calls.Add(1)
	return native.Dnrm2(n, x, incX), nil
}

func (dev failDevice64) Dnrm2(n int, x []float64, incX int) (float64, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice64) Dasum(n int, x []float64, incX int) (float64, error) {
	dev.calls.Add(1)
	return native.Dasum(n, x, incX), nil
}

func (dev failDevice64) Dasum(n int, x []float64, incX int) (float64, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice64) Idamax(n int, x []float64, incX int) (int, error) {
	dev.calls.Add(1)
	return native.Idamax(n, x, incX), nil
}

func (dev failDevice64) Idamax(n int, x []float64, incX int) (int, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice64) Dswap(n int, x []float64, incX int, y []float64, incY int) error {
	dev.calls.Add(1)
	native.Dswap(n, x, incX, y, incY)
	return nil
}

func (dev failDevice64) Dswap(n int, x []float64, incX int, y []float64, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dcopy(n int, x []float64, incX int, y []float64, incY int) error {
	dev.calls.Add(1)
	native.Dcopy(n, x, incX, y, incY)
	return nil
}

func (dev failDevice64) Dcopy(n int, x []float64, incX int, y []float64, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Daxpy(n int, alpha float64, x []float64, incX int, y []float64, incY int) error {
	dev.calls.Add(1)
	native.Daxpy(n, alpha, x, incX, y, incY)
	return nil
}

func (dev failDevice64) Daxpy(n int, alpha float64, x []float64, incX int, y []float64, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Drot(n int, x []float64, incX int, y []float64, incY int, c float64, s float64) error {
	dev.calls.Add(1)
	native.Drot(n, x, incX, y, incY, c, s)
	return nil
}

func (dev failDevice64) Drot(n int, x []float64, incX int, y []float64, incY int, c float64, s float64) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Drotm(n int, x []float64, incX int, y []float64, incY int, p blas.DrotmParams) error {
	dev.calls.Add(1)
	native.Drotm(n, x, incX, y, incY, p)
	return nil
}

func (dev failDevice64) Drotm(n int, x []float64, incX int, y []float64, incY int, p blas.DrotmParams) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dscal(n int, alpha float64, x []float64, incX int) error {
	dev.calls.Add(1)
	native.Dscal(n, alpha, x, incX)
	return nil
}

func (dev failDevice64) Dscal(n int, alpha float64, x []float64, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dgemv(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	native.Dgemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice64) Dgemv(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dgbmv(tA blas.Transpose, m, n, kL, kU int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	native.Dgbmv(tA, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice64) Dgbmv(tA blas.Transpose, m, n, kL, kU int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dtrmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) error {
	dev.calls.Add(1)
	native.Dtrmv(ul, tA, d, n, a, lda, x, incX)
	return nil
}

func (dev failDevice64) Dtrmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dtbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) error {
	dev.calls.Add(1)
	native.Dtbmv(ul, tA, d, n, k, a, lda, x, incX)
	return nil
}

func (dev failDevice64) Dtbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dtpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) error {
	dev.calls.Add(1)
	native.Dtpmv(ul, tA, d, n, ap, x, incX)
	return nil
}

func (dev failDevice64) Dtpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dtrsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) error {
	dev.calls.Add(1)
	native.Dtrsv(ul, tA, d, n, a, lda, x, incX)
	return nil
}

func (dev failDevice64) Dtrsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dtbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) error {
	dev.calls.Add(1)
	native.Dtbsv(ul, tA, d, n, k, a, lda, x, incX)
	return nil
}

func (dev failDevice64) Dtbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dtpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) error {
	dev.calls.Add(1)
	native.Dtpsv(ul, tA, d, n, ap, x, incX)
	return nil
}

func (dev failDevice64) Dtpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dsymv(ul blas.Uplo, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	native.Dsymv(ul, n, alpha, a, lda, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice64) Dsymv(ul blas.Uplo, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dsbmv(ul blas.Uplo, n, k int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	native.Dsbmv(ul, n, k, alpha, a, lda, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice64) Dsbmv(ul blas.Uplo, n, k int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dspmv(ul blas.Uplo, n int, alpha float64, ap []float64, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	native.Dspmv(ul, n, alpha, ap, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice64) Dspmv(ul blas.Uplo, n int, alpha float64, ap []float64, x []float64, incX int, beta float64, y []float64, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) error {
	dev.calls.Add(1)
	if incX < 0 || incY < 0 {
		gerNegInc64(m, n, alpha, x, incX, y, incY, a, lda) // gonum/gonum#2105
		return nil
	}
	native.Dger(m, n, alpha, x, incX, y, incY, a, lda)
	return nil
}

func (dev failDevice64) Dger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dsyr(ul blas.Uplo, n int, alpha float64, x []float64, incX int, a []float64, lda int) error {
	dev.calls.Add(1)
	native.Dsyr(ul, n, alpha, x, incX, a, lda)
	return nil
}

func (dev failDevice64) Dsyr(ul blas.Uplo, n int, alpha float64, x []float64, incX int, a []float64, lda int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dspr(ul blas.Uplo, n int, alpha float64, x []float64, incX int, ap []float64) error {
	dev.calls.Add(1)
	native.Dspr(ul, n, alpha, x, incX, ap)
	return nil
}

func (dev failDevice64) Dspr(ul blas.Uplo, n int, alpha float64, x []float64, incX int, ap []float64) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dsyr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) error {
	dev.calls.Add(1)
	native.Dsyr2(ul, n, alpha, x, incX, y, incY, a, lda)
	return nil
}

func (dev failDevice64) Dsyr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dspr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, ap []float64) error {
	dev.calls.Add(1)
	native.Dspr2(ul, n, alpha, x, incX, y, incY, ap)
	return nil
}

func (dev failDevice64) Dspr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, ap []float64) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	dev.calls.Add(1)
	native.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}

func (dev failDevice64) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dsymm(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	dev.calls.Add(1)
	native.Dsymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}

func (dev failDevice64) Dsymm(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dsyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) error {
	dev.calls.Add(1)
	native.Dsyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
	return nil
}

func (dev failDevice64) Dsyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dsyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	dev.calls.Add(1)
	native.Dsyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}

func (dev failDevice64) Dsyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dtrmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error {
	dev.calls.Add(1)
	native.Dtrmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
	return nil
}

func (dev failDevice64) Dtrmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice64) Dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error {
	dev.calls.Add(1)
	native.Dtrsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
	return nil
}

func (dev failDevice64) Dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error {
	dev.calls.Add(1)
	return errFake
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

func (dev refDevice32) Sdot(n int, x []float32, incX int, y []float32, incY int) (float32, error) {
	dev.calls.Add(1)
	return native.Sdot(n, x, incX, y, incY), nil
}

func (dev failDevice32) Sdot(n int, x []float32, incX int, y []float32, incY int) (float32, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice32) Snrm2(n int, x []float32, incX int) (float32, error) {
	dev.calls.Add(1)
	return native.Snrm2(n, x, incX), nil
}

func (dev failDevice32) Snrm2(n int, x []float32, incX int) (float32, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice32) Sasum(n int, x []float32, incX int) (float32, error) {
	dev.calls.Add(1)
	return native.Sasum(n, x, incX), nil
}

func (dev failDevice32) Sasum(n int, x []float32, incX int) (float32, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice32) Isamax(n int, x []float32, incX int) (int, error) {
	dev.calls.Add(1)
	return native.Isamax(n, x, incX), nil
}

func (dev failDevice32) Isamax(n int, x []float32, incX int) (int, error) {
	dev.calls.Add(1)
	return 0, errFake
}

func (dev refDevice32) Sswap(n int, x []float32, incX int, y []float32, incY int) error {
	dev.calls.Add(1)
	native.Sswap(n, x, incX, y, incY)
	return nil
}

func (dev failDevice32) Sswap(n int, x []float32, incX int, y []float32, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Scopy(n int, x []float32, incX int, y []float32, incY int) error {
	dev.calls.Add(1)
	native.Scopy(n, x, incX, y, incY)
	return nil
}

func (dev failDevice32) Scopy(n int, x []float32, incX int, y []float32, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Saxpy(n int, alpha float32, x []float32, incX int, y []float32, incY int) error {
	dev.calls.Add(1)
	native.Saxpy(n, alpha, x, incX, y, incY)
	return nil
}

func (dev failDevice32) Saxpy(n int, alpha float32, x []float32, incX int, y []float32, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Srot(n int, x []float32, incX int, y []float32, incY int, c float32, s float32) error {
	dev.calls.Add(1)
	native.Srot(n, x, incX, y, incY, c, s)
	return nil
}

func (dev failDevice32) Srot(n int, x []float32, incX int, y []float32, incY int, c float32, s float32) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Srotm(n int, x []float32, incX int, y []float32, incY int, p blas.SrotmParams) error {
	dev.calls.Add(1)
	native.Srotm(n, x, incX, y, incY, p)
	return nil
}

func (dev failDevice32) Srotm(n int, x []float32, incX int, y []float32, incY int, p blas.SrotmParams) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Sscal(n int, alpha float32, x []float32, incX int) error {
	dev.calls.Add(1)
	native.Sscal(n, alpha, x, incX)
	return nil
}

func (dev failDevice32) Sscal(n int, alpha float32, x []float32, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Sgemv(tA blas.Transpose, m, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	native.Sgemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice32) Sgemv(tA blas.Transpose, m, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Sgbmv(tA blas.Transpose, m, n, kL, kU int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	native.Sgbmv(tA, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice32) Sgbmv(tA blas.Transpose, m, n, kL, kU int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Strmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float32, lda int, x []float32, incX int) error {
	dev.calls.Add(1)
	native.Strmv(ul, tA, d, n, a, lda, x, incX)
	return nil
}

func (dev failDevice32) Strmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float32, lda int, x []float32, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Stbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float32, lda int, x []float32, incX int) error {
	dev.calls.Add(1)
	native.Stbmv(ul, tA, d, n, k, a, lda, x, incX)
	return nil
}

func (dev failDevice32) Stbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float32, lda int, x []float32, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Stpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float32, x []float32, incX int) error {
	dev.calls.Add(1)
	native.Stpmv(ul, tA, d, n, ap, x, incX)
	return nil
}

func (dev failDevice32) Stpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float32, x []float32, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Strsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float32, lda int, x []float32, incX int) error {
	dev.calls.Add(1)
	native.Strsv(ul, tA, d, n, a, lda, x, incX)
	return nil
}

func (dev failDevice32) Strsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float32, lda int, x []float32, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Stbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float32, lda int, x []float32, incX int) error {
	dev.calls.Add(1)
	native.Stbsv(ul, tA, d, n, k, a, lda, x, incX)
	return nil
}

func (dev failDevice32) Stbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float32, lda int, x []float32, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Stpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float32, x []float32, incX int) error {
	dev.calls.Add(1)
	native.Stpsv(ul, tA, d, n, ap, x, incX)
	return nil
}

func (dev failDevice32) Stpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float32, x []float32, incX int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Ssymv(ul blas.Uplo, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	native.Ssymv(ul, n, alpha, a, lda, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice32) Ssymv(ul blas.Uplo, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Ssbmv(ul blas.Uplo, n, k int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	native.Ssbmv(ul, n, k, alpha, a, lda, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice32) Ssbmv(ul blas.Uplo, n, k int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Sspmv(ul blas.Uplo, n int, alpha float32, ap []float32, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	native.Sspmv(ul, n, alpha, ap, x, incX, beta, y, incY)
	return nil
}

func (dev failDevice32) Sspmv(ul blas.Uplo, n int, alpha float32, ap []float32, x []float32, incX int, beta float32, y []float32, incY int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Sger(m, n int, alpha float32, x []float32, incX int, y []float32, incY int, a []float32, lda int) error {
	dev.calls.Add(1)
	if incX < 0 || incY < 0 {
		gerNegInc32(m, n, alpha, x, incX, y, incY, a, lda) // gonum/gonum#2105
		return nil
	}
	native.Sger(m, n, alpha, x, incX, y, incY, a, lda)
	return nil
}

func (dev failDevice32) Sger(m, n int, alpha float32, x []float32, incX int, y []float32, incY int, a []float32, lda int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Ssyr(ul blas.Uplo, n int, alpha float32, x []float32, incX int, a []float32, lda int) error {
	dev.calls.Add(1)
	native.Ssyr(ul, n, alpha, x, incX, a, lda)
	return nil
}

func (dev failDevice32) Ssyr(ul blas.Uplo, n int, alpha float32, x []float32, incX int, a []float32, lda int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Sspr(ul blas.Uplo, n int, alpha float32, x []float32, incX int, ap []float32) error {
	dev.calls.Add(1)
	native.Sspr(ul, n, alpha, x, incX, ap)
	return nil
}

func (dev failDevice32) Sspr(ul blas.Uplo, n int, alpha float32, x []float32, incX int, ap []float32) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Ssyr2(ul blas.Uplo, n int, alpha float32, x []float32, incX int, y []float32, incY int, a []float32, lda int) error {
	dev.calls.Add(1)
	native.Ssyr2(ul, n, alpha, x, incX, y, incY, a, lda)
	return nil
}

func (dev failDevice32) Ssyr2(ul blas.Uplo, n int, alpha float32, x []float32, incX int, y []float32, incY int, a []float32, lda int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Sspr2(ul blas.Uplo, n int, alpha float32, x []float32, incX int, y []float32, incY int, ap []float32) error {
	dev.calls.Add(1)
	native.Sspr2(ul, n, alpha, x, incX, y, incY, ap)
	return nil
}

func (dev failDevice32) Sspr2(ul blas.Uplo, n int, alpha float32, x []float32, incX int, y []float32, incY int, ap []float32) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	dev.calls.Add(1)
	native.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}

func (dev failDevice32) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Ssymm(s blas.Side, ul blas.Uplo, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	dev.calls.Add(1)
	native.Ssymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}

func (dev failDevice32) Ssymm(s blas.Side, ul blas.Uplo, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Ssyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int) error {
	dev.calls.Add(1)
	native.Ssyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
	return nil
}

func (dev failDevice32) Ssyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Ssyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	dev.calls.Add(1)
	native.Ssyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}

func (dev failDevice32) Ssyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Strmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error {
	dev.calls.Add(1)
	native.Strmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
	return nil
}

func (dev failDevice32) Strmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error {
	dev.calls.Add(1)
	return errFake
}

func (dev refDevice32) Strsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error {
	dev.calls.Add(1)
	native.Strsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
	return nil
}

func (dev failDevice32) Strsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error {
	dev.calls.Add(1)
	return errFake
}
