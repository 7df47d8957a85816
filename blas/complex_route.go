package clblas

import (
	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// The routing of the complex level 1 and 2 routines: argument checks shared
// by both precisions, the offload decision, and the scans that keep a call
// whose operands hold NaN or ±Inf on gonum's code where the device's
// kernels would sum in another order (see complex_finite.go).
//
// Every complex routine starts at its gate (gate.go), on a workload no
// smaller than the call's (vectors at their longest, a triangular or
// Hermitian operand at the larger order): a call below it goes straight
// to gonum's routine, which makes the argument checks, with gonum's
// messages in gonum's order, since it is gonum's. The front ends make that
// test in integer comparisons only: level 1 and the level 2 routines of
// order n alone compare n with a limit (cxLim, cxLim2), the others each
// dimension with a square limit (cxSq); the rest of a routine, from its
// own workload's gate on, is a function of its own (zgemvGated and the
// like), so that a call that stays on the CPU pays for no larger frame.

// cplx is the element type of a complex routine.
type cplx = eng.Complex

// offloadCx is offloadIf for a complex routine (ok may be nil: always
// allowed). Without an OpenCL engine (fake devices in tests) complex calls
// stay on the CPU.
func (impl *Implementation) offloadCx(routine string, w workload, ok func() bool) bool {
	if impl.eng == nil {
		impl.counted(routine).cpu.Add(1)
		return false
	}
	if ok == nil {
		ok = func() bool { return true }
	}
	return impl.offloadIf(routine, w, ok)
}

// cxCheckXY does gonum's argument checks of the two-vector complex level 1
// routines (Zdotu, Zdotc, Zswap, Zcopy, Zaxpy and their twins), in gonum's
// order, and reports whether there is work to do (n > 0).
func cxCheckXY[C cplx](n int, x []C, incX int, y []C, incY int) bool {
	if incX == 0 {
		panic(msgZeroIncX)
	}
	if incY == 0 {
		panic(msgZeroIncY)
	}
	if n < 1 {
		if n == 0 {
			return false
		}
		panic(msgNLT0)
	}
	if vecShort(len(x), n, incX) {
		panic(msgShortX)
	}
	if vecShort(len(y), n, incY) {
		panic(msgShortY)
	}
	return true
}

// cxCheckScal does gonum's argument checks of Zscal and Zdscal (and their
// twins) and reports whether there is work to do (n > 0 and incX > 0).
func cxCheckScal[C cplx](n int, x []C, incX int) bool {
	if incX < 1 {
		if incX == 0 {
			panic(msgZeroIncX)
		}
		return false
	}
	if (n-1)*incX >= len(x) {
		panic(msgShortX)
	}
	if n < 1 {
		if n == 0 {
			return false
		}
		panic(msgNLT0)
	}
	return true
}

// cxCheckTri does gonum's argument checks of the complex triangular
// matrix-vector routines (Ztrmv, Ztbmv, Ztpmv, Ztrsv, Ztbsv, Ztpsv and
// their twins), in gonum's order (the packed ones check uplo before
// trans), for A in storage eng.L2Dense (lda), eng.L2Band (k, lda) or eng.L2Packed. It
// reports whether there is work to do (n > 0).
func cxCheckTri[C cplx](storage int, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []C, lda int, x []C, incX int) bool {
	if storage == eng.L2Packed && badUplo(ul) {
		panic(msgBadUplo)
	}
	if badTrans(tA) {
		panic(msgBadTranspose)
	}
	if badUplo(ul) {
		panic(msgBadUplo)
	}
	if badDiag(d) {
		panic(msgBadDiag)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	switch storage {
	case eng.L2Band:
		if k < 0 {
			panic(msgKLT0)
		}
		if lda < k+1 {
			panic(msgBadLdA)
		}
	case eng.L2Dense:
		if lda < max(1, n) {
			panic(msgBadLdA)
		}
	}
	if incX == 0 {
		panic(msgZeroIncX)
	}
	if n == 0 {
		return false
	}
	switch storage {
	case eng.L2Band:
		if len(a) < lda*(n-1)+k+1 {
			panic(msgShortA)
		}
	case eng.L2Dense:
		if len(a) < lda*(n-1)+n {
			panic(msgShortA)
		}
	default:
		if len(a) < n*(n+1)/2 {
			panic(msgShortAP)
		}
	}
	if vecShort(len(x), n, incX) {
		panic(msgShortX)
	}
	return true
}
