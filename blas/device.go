package clblas

import (
	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// deviceFloat64 is the seam between the front end (argument checks, quick
// returns, offload policy, CPU fallback) and the OpenCL engine behind it.
// It has one method for every method of blas.Float64 except Drotg and Drotmg
// (which take and return only scalars and always run on the CPU), with the
// same name and parameters and an extra error result, plus Close.
//
// The contract between the two halves:
//
//   - The front end has already checked every argument exactly as gonum does
//     (panicking with gonum's messages in gonum's order) and has taken all of
//     gonum's quick returns. A device method therefore only sees valid,
//     non-empty problems: vector lengths n ≥ 1 (m ≥ 1 as well where there is
//     an m), increments ≠ 0, leading dimensions and slice lengths large
//     enough. Inner dimensions may still be zero (k == 0 in Dgemm, Dsyrk and
//     Dsyr2k), and alpha may be zero where gonum does not return early
//     (Dscal, Dgemv, Dgbmv, Dsymv, Dsbmv, Dspmv, Dgemm, Dsymm, Dsyrk, Dsyr2k,
//     Dtrmm, Dtrsm): the result must then be what gonum computes, in
//     particular beta == 0 (and alpha == 0 in Dscal, Dtrmm and Dtrsm)
//     assigns zeros, so NaN or Inf already in the output do not survive.
//     Drotm is only called with p.Flag one of blas.Rescaling,
//     blas.OffDiagonal or blas.Diagonal.
//   - A method that returns a nil error has written its complete result into
//     the output slice(s) (or returned it).
//   - A method that returns a non-nil error must not have modified any output
//     slice: it stages results in device or scratch memory and copies them
//     out only once everything has succeeded. The front end then computes the
//     same call on the CPU with the original data, and logs the first failure
//     of each routine.
//   - Methods are called concurrently from many goroutines, and may be called
//     concurrently with or after Close, which must then make them return an
//     error rather than crash. Close is called at most once per value by the
//     front end; a value that serves as both the float64 and the float32
//     device receives one Close call for each role.
type deviceFloat64 interface {
	// Level 1.
	Ddot(n int, x []float64, incX int, y []float64, incY int) (float64, error)
	Dnrm2(n int, x []float64, incX int) (float64, error)
	Dasum(n int, x []float64, incX int) (float64, error)
	Idamax(n int, x []float64, incX int) (int, error)
	Dswap(n int, x []float64, incX int, y []float64, incY int) error
	Dcopy(n int, x []float64, incX int, y []float64, incY int) error
	Daxpy(n int, alpha float64, x []float64, incX int, y []float64, incY int) error
	Drot(n int, x []float64, incX int, y []float64, incY int, c float64, s float64) error
	Drotm(n int, x []float64, incX int, y []float64, incY int, p blas.DrotmParams) error
	Dscal(n int, alpha float64, x []float64, incX int) error

	// Level 2.
	Dgemv(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error
	Dgbmv(tA blas.Transpose, m, n, kL, kU int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error
	Dtrmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) error
	Dtbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) error
	Dtpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) error
	Dtrsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) error
	Dtbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) error
	Dtpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) error
	Dsymv(ul blas.Uplo, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error
	Dsbmv(ul blas.Uplo, n, k int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error
	Dspmv(ul blas.Uplo, n int, alpha float64, ap []float64, x []float64, incX int, beta float64, y []float64, incY int) error
	Dger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) error
	Dsyr(ul blas.Uplo, n int, alpha float64, x []float64, incX int, a []float64, lda int) error
	Dspr(ul blas.Uplo, n int, alpha float64, x []float64, incX int, ap []float64) error
	Dsyr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) error
	Dspr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, ap []float64) error

	// Level 3.
	Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error
	Dsymm(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error
	Dsyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) error
	Dsyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error
	Dtrmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error
	Dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error

	// Close releases the device resources. See the contract above.
	Close() error
}

// deviceFloat32 is the single precision twin of deviceFloat64, under the same
// contract: every method of blas.Float32 except Srotg and Srotmg, with an
// extra error result, plus Close. It includes Sdsdot and Dsdot, which
// accumulate in float64 (the device must do the same, or fail so that the CPU
// does it).
type deviceFloat32 interface {
	// Level 1.
	Sdsdot(n int, alpha float32, x []float32, incX int, y []float32, incY int) (float32, error)
	Dsdot(n int, x []float32, incX int, y []float32, incY int) (float64, error)
	Sdot(n int, x []float32, incX int, y []float32, incY int) (float32, error)
	Snrm2(n int, x []float32, incX int) (float32, error)
	Sasum(n int, x []float32, incX int) (float32, error)
	Isamax(n int, x []float32, incX int) (int, error)
	Sswap(n int, x []float32, incX int, y []float32, incY int) error
	Scopy(n int, x []float32, incX int, y []float32, incY int) error
	Saxpy(n int, alpha float32, x []float32, incX int, y []float32, incY int) error
	Srot(n int, x []float32, incX int, y []float32, incY int, c float32, s float32) error
	Srotm(n int, x []float32, incX int, y []float32, incY int, p blas.SrotmParams) error
	Sscal(n int, alpha float32, x []float32, incX int) error

	// Level 2.
	Sgemv(tA blas.Transpose, m, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error
	Sgbmv(tA blas.Transpose, m, n, kL, kU int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error
	Strmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float32, lda int, x []float32, incX int) error
	Stbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float32, lda int, x []float32, incX int) error
	Stpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float32, x []float32, incX int) error
	Strsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float32, lda int, x []float32, incX int) error
	Stbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float32, lda int, x []float32, incX int) error
	Stpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float32, x []float32, incX int) error
	Ssymv(ul blas.Uplo, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error
	Ssbmv(ul blas.Uplo, n, k int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error
	Sspmv(ul blas.Uplo, n int, alpha float32, ap []float32, x []float32, incX int, beta float32, y []float32, incY int) error
	Sger(m, n int, alpha float32, x []float32, incX int, y []float32, incY int, a []float32, lda int) error
	Ssyr(ul blas.Uplo, n int, alpha float32, x []float32, incX int, a []float32, lda int) error
	Sspr(ul blas.Uplo, n int, alpha float32, x []float32, incX int, ap []float32) error
	Ssyr2(ul blas.Uplo, n int, alpha float32, x []float32, incX int, y []float32, incY int, a []float32, lda int) error
	Sspr2(ul blas.Uplo, n int, alpha float32, x []float32, incX int, y []float32, incY int, ap []float32) error

	// Level 3.
	Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error
	Ssymm(s blas.Side, ul blas.Uplo, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error
	Ssyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int) error
	Ssyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error
	Strmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error
	Strsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error

	// Close releases the device resources. See deviceFloat64.
	Close() error
}

// costModel is what the Auto offload policy knows about the device and the
// host. Rates of zero mean "unknown" and keep the work on the CPU.
type costModel struct {
	// present is false for the "none" device: nothing is offloaded then,
	// whatever the policy.
	present bool
	// Cost is the device's side, estimated by the engine.
	eng.Cost

	// cpuGFLOPS32 and cpuGFLOPS64 are the estimated rates of gonum's Go code
	// on this host for level-3 work, in GFLOP/s.
	cpuGFLOPS32, cpuGFLOPS64 float64
	// cpuMemGBps is the host's memory bandwidth, in GB/s, and
	// cpuStreamGBps what one core streams: gonum's level 1 and 2 code runs
	// on one goroutine.
	cpuMemGBps, cpuStreamGBps float64
}

// noDevice64 is the "none" float64 device: every method fails with
// errNoDevice, so every call finishes on the CPU.
type noDevice64 struct{}

// noDevice32 is the "none" float32 device.
type noDevice32 struct{}

var (
	_ deviceFloat64 = noDevice64{}
	_ deviceFloat32 = noDevice32{}
)

func (noDevice64) Ddot(n int, x []float64, incX int, y []float64, incY int) (float64, error) {
	return 0, errNoDevice
}
func (noDevice64) Dnrm2(n int, x []float64, incX int) (float64, error) { return 0, errNoDevice }
func (noDevice64) Dasum(n int, x []float64, incX int) (float64, error) { return 0, errNoDevice }
func (noDevice64) Idamax(n int, x []float64, incX int) (int, error)    { return -1, errNoDevice }
func (noDevice64) Dswap(n int, x []float64, incX int, y []float64, incY int) error {
	return errNoDevice
}
func (noDevice64) Dcopy(n int, x []float64, incX int, y []float64, incY int) error {
	return errNoDevice
}
func (noDevice64) Daxpy(n int, alpha float64, x []float64, incX int, y []float64, incY int) error {
	return errNoDevice
}
func (noDevice64) Drot(n int, x []float64, incX int, y []float64, incY int, c float64, s float64) error {
	return errNoDevice
}
func (noDevice64) Drotm(n int, x []float64, incX int, y []float64, incY int, p blas.DrotmParams) error {
	return errNoDevice
}
func (noDevice64) Dscal(n int, alpha float64, x []float64, incX int) error { return errNoDevice }
func (noDevice64) Dgemv(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	return errNoDevice
}
func (noDevice64) Dgbmv(tA blas.Transpose, m, n, kL, kU int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	return errNoDevice
}
func (noDevice64) Dtrmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) error {
	return errNoDevice
}
func (noDevice64) Dtbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) error {
	return errNoDevice
}
func (noDevice64) Dtpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) error {
	return errNoDevice
}
func (noDevice64) Dtrsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) error {
	return errNoDevice
}
func (noDevice64) Dtbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) error {
	return errNoDevice
}
func (noDevice64) Dtpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) error {
	return errNoDevice
}
func (noDevice64) Dsymv(ul blas.Uplo, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	return errNoDevice
}
func (noDevice64) Dsbmv(ul blas.Uplo, n, k int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	return errNoDevice
}
func (noDevice64) Dspmv(ul blas.Uplo, n int, alpha float64, ap []float64, x []float64, incX int, beta float64, y []float64, incY int) error {
	return errNoDevice
}
func (noDevice64) Dger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) error {
	return errNoDevice
}
func (noDevice64) Dsyr(ul blas.Uplo, n int, alpha float64, x []float64, incX int, a []float64, lda int) error {
	return errNoDevice
}
func (noDevice64) Dspr(ul blas.Uplo, n int, alpha float64, x []float64, incX int, ap []float64) error {
	return errNoDevice
}
func (noDevice64) Dsyr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) error {
	return errNoDevice
}
func (noDevice64) Dspr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, ap []float64) error {
	return errNoDevice
}
func (noDevice64) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	return errNoDevice
}
func (noDevice64) Dsymm(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	return errNoDevice
}
func (noDevice64) Dsyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) error {
	return errNoDevice
}
func (noDevice64) Dsyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	return errNoDevice
}
func (noDevice64) Dtrmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error {
	return errNoDevice
}
func (noDevice64) Dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error {
	return errNoDevice
}

// Close does nothing.
func (noDevice64) Close() error { return nil }

func (noDevice32) Sdsdot(n int, alpha float32, x []float32, incX int, y []float32, incY int) (float32, error) {
	return 0, errNoDevice
}
func (noDevice32) Dsdot(n int, x []float32, incX int, y []float32, incY int) (float64, error) {
	return 0, errNoDevice
}
func (noDevice32) Sdot(n int, x []float32, incX int, y []float32, incY int) (float32, error) {
	return 0, errNoDevice
}
func (noDevice32) Snrm2(n int, x []float32, incX int) (float32, error) { return 0, errNoDevice }
func (noDevice32) Sasum(n int, x []float32, incX int) (float32, error) { return 0, errNoDevice }
func (noDevice32) Isamax(n int, x []float32, incX int) (int, error)    { return -1, errNoDevice }
func (noDevice32) Sswap(n int, x []float32, incX int, y []float32, incY int) error {
	return errNoDevice
}
func (noDevice32) Scopy(n int, x []float32, incX int, y []float32, incY int) error {
	return errNoDevice
}
func (noDevice32) Saxpy(n int, alpha float32, x []float32, incX int, y []float32, incY int) error {
	return errNoDevice
}
func (noDevice32) Srot(n int, x []float32, incX int, y []float32, incY int, c float32, s float32) error {
	return errNoDevice
}
func (noDevice32) Srotm(n int, x []float32, incX int, y []float32, incY int, p blas.SrotmParams) error {
	return errNoDevice
}
func (noDevice32) Sscal(n int, alpha float32, x []float32, incX int) error { return errNoDevice }
func (noDevice32) Sgemv(tA blas.Transpose, m, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	return errNoDevice
}
func (noDevice32) Sgbmv(tA blas.Transpose, m, n, kL, kU int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	return errNoDevice
}
func (noDevice32) Strmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float32, lda int, x []float32, incX int) error {
	return errNoDevice
}
func (noDevice32) Stbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float32, lda int, x []float32, incX int) error {
	return errNoDevice
}
func (noDevice32) Stpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float32, x []float32, incX int) error {
	return errNoDevice
}
func (noDevice32) Strsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float32, lda int, x []float32, incX int) error {
	return errNoDevice
}
func (noDevice32) Stbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float32, lda int, x []float32, incX int) error {
	return errNoDevice
}
func (noDevice32) Stpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float32, x []float32, incX int) error {
	return errNoDevice
}
func (noDevice32) Ssymv(ul blas.Uplo, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	return errNoDevice
}
func (noDevice32) Ssbmv(ul blas.Uplo, n, k int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	return errNoDevice
}
func (noDevice32) Sspmv(ul blas.Uplo, n int, alpha float32, ap []float32, x []float32, incX int, beta float32, y []float32, incY int) error {
	return errNoDevice
}
func (noDevice32) Sger(m, n int, alpha float32, x []float32, incX int, y []float32, incY int, a []float32, lda int) error {
	return errNoDevice
}
func (noDevice32) Ssyr(ul blas.Uplo, n int, alpha float32, x []float32, incX int, a []float32, lda int) error {
	return errNoDevice
}
func (noDevice32) Sspr(ul blas.Uplo, n int, alpha float32, x []float32, incX int, ap []float32) error {
	return errNoDevice
}
func (noDevice32) Ssyr2(ul blas.Uplo, n int, alpha float32, x []float32, incX int, y []float32, incY int, a []float32, lda int) error {
	return errNoDevice
}
func (noDevice32) Sspr2(ul blas.Uplo, n int, alpha float32, x []float32, incX int, y []float32, incY int, ap []float32) error {
	return errNoDevice
}
func (noDevice32) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	return errNoDevice
}
func (noDevice32) Ssymm(s blas.Side, ul blas.Uplo, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	return errNoDevice
}
func (noDevice32) Ssyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int) error {
	return errNoDevice
}
func (noDevice32) Ssyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	return errNoDevice
}
func (noDevice32) Strmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error {
	return errNoDevice
}
func (noDevice32) Strsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error {
	return errNoDevice
}

// Close does nothing.
func (noDevice32) Close() error { return nil }
