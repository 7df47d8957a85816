package clblas

import (
	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// device is the seam between the front end (argument checks, quick
// returns, offload policy, CPU fallback) and the OpenCL engine behind it,
// for elements of type T. It has one method for every routine of
// blas.Float64 and blas.Float32 except the rotg and rotmg pair (which take
// and return only scalars and always run on the CPU): the routine's name
// without its precision letter (Dot for Ddot and Sdot, Iamax for Idamax and
// Isamax), its parameters in T and an extra error result. Rotm takes the
// flag and matrix of blas.DrotmParams or blas.SrotmParams. Dsdot and
// Sdsdot, which blas.Float32 has, accumulate in float64 (the device must do
// the same, or fail so that the CPU does it). Close ends the list.
//
// The contract between the two halves (routines are named as in
// blas.Float64; the float32 ones keep the same contract):
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
//     front end; a device that serves both precisions receives one Close
//     call for each.
type device[T float32 | float64] interface {
	// Level 1.
	Dot(n int, x []T, incX int, y []T, incY int) (T, error)
	Nrm2(n int, x []T, incX int) (T, error)
	Asum(n int, x []T, incX int) (T, error)
	Iamax(n int, x []T, incX int) (int, error)
	Swap(n int, x []T, incX int, y []T, incY int) error
	Copy(n int, x []T, incX int, y []T, incY int) error
	Axpy(n int, alpha T, x []T, incX int, y []T, incY int) error
	Rot(n int, x []T, incX int, y []T, incY int, c T, s T) error
	Rotm(n int, x []T, incX int, y []T, incY int, flag blas.Flag, h [4]T) error
	Scal(n int, alpha T, x []T, incX int) error

	// Accumulated in float64.
	Sdsdot(n int, alpha T, x []T, incX int, y []T, incY int) (T, error)
	Dsdot(n int, x []T, incX int, y []T, incY int) (float64, error)

	// Level 2.
	Gemv(tA blas.Transpose, m, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) error
	Gbmv(tA blas.Transpose, m, n, kL, kU int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) error
	Trmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []T, lda int, x []T, incX int) error
	Tbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []T, lda int, x []T, incX int) error
	Tpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []T, x []T, incX int) error
	Trsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []T, lda int, x []T, incX int) error
	Tbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []T, lda int, x []T, incX int) error
	Tpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []T, x []T, incX int) error
	Symv(ul blas.Uplo, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) error
	Sbmv(ul blas.Uplo, n, k int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) error
	Spmv(ul blas.Uplo, n int, alpha T, ap []T, x []T, incX int, beta T, y []T, incY int) error
	Ger(m, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int) error
	Syr(ul blas.Uplo, n int, alpha T, x []T, incX int, a []T, lda int) error
	Spr(ul blas.Uplo, n int, alpha T, x []T, incX int, ap []T) error
	Syr2(ul blas.Uplo, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int) error
	Spr2(ul blas.Uplo, n int, alpha T, x []T, incX int, y []T, incY int, ap []T) error

	// Level 3.
	Gemm(tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error
	Symm(s blas.Side, ul blas.Uplo, m, n int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error
	Syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, beta T, c []T, ldc int) error
	Syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error
	Trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) error
	Trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) error

	// Close releases the device resources. See the contract above.
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
	// stagedGBps is the rate of a level 2 call's matrix streamed from Go
	// slices (Cost.StagesLevel2), bound by the host's copies.
	stagedGBps float64
}
