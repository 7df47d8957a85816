package clblas

import "gonum.org/v1/gonum/blas"

// Ddot computes the dot product of the n-vectors x and y.
func (impl *Implementation) Ddot(n int, x []float64, incX int, y []float64, incY int) float64 {
	if n < impl.lim.Ddot {
		return native.Ddot(n, x, incX, y, incY)
	}
	if incX == 0 {
		panic(msgZeroIncX)
	}
	if incY == 0 {
		panic(msgZeroIncY)
	}
	if n <= 0 {
		if n == 0 {
			return 0
		}
		panic(msgNLT0)
	}
	if vecShort(len(x), n, incX) {
		panic(msgShortX)
	}
	if vecShort(len(y), n, incY) {
		panic(msgShortY)
	}
	if impl.offload("Ddot", work(prec64, 2*fl(n), 2*fl(n))) {
		r, err := impl.dev64.Dot(n, x, incX, y, incY)
		if err == nil {
			return r
		}
		impl.deviceFailed("Ddot", err)
	}
	return native.Ddot(n, x, incX, y, incY)
}

// Dnrm2 computes the Euclidean norm of the n-vector x. It returns 0 for a
// negative incX.
func (impl *Implementation) Dnrm2(n int, x []float64, incX int) float64 {
	if n < impl.lim.Dnrm2 {
		return native.Dnrm2(n, x, incX)
	}
	return impl.nrm2Gated64(n, x, incX)
}

// nrm2Gated64 is Dnrm2 for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) nrm2Gated64(n int, x []float64, incX int) float64 {
	if incX < 1 {
		if incX == 0 {
			panic(msgZeroIncX)
		}
		return 0
	}
	if len(x) <= (n-1)*incX {
		panic(msgShortX)
	}
	if n < 2 {
		if n == 1 {
			return native.Dnrm2(n, x, incX)
		}
		if n == 0 {
			return 0
		}
		panic(msgNLT0)
	}
	if impl.offload("Dnrm2", work(prec64, 2*fl(n), fl(n))) {
		r, err := impl.dev64.Nrm2(n, x, incX)
		if err == nil {
			return r
		}
		impl.deviceFailed("Dnrm2", err)
	}
	return native.Dnrm2(n, x, incX)
}

// Dasum computes the sum of the absolute values of the elements of the
// n-vector x. It returns 0 for a negative incX.
func (impl *Implementation) Dasum(n int, x []float64, incX int) float64 {
	if n < impl.lim.Dasum {
		return native.Dasum(n, x, incX)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	if incX < 1 {
		if incX == 0 {
			panic(msgZeroIncX)
		}
		return 0
	}
	if len(x) <= (n-1)*incX {
		panic(msgShortX)
	}
	if n == 0 {
		return 0
	}
	if impl.offload("Dasum", work(prec64, fl(n), fl(n))) {
		r, err := impl.dev64.Asum(n, x, incX)
		if err == nil {
			return r
		}
		impl.deviceFailed("Dasum", err)
	}
	return native.Dasum(n, x, incX)
}

// Idamax returns the index of the first element of the n-vector x with the
// largest absolute value, or -1 when n == 0 or incX < 0.
func (impl *Implementation) Idamax(n int, x []float64, incX int) int {
	if n < impl.lim.Idamax {
		return native.Idamax(n, x, incX)
	}
	if incX < 1 {
		if incX == 0 {
			panic(msgZeroIncX)
		}
		return -1
	}
	if len(x) <= (n-1)*incX {
		panic(msgShortX)
	}
	if n < 2 {
		if n == 1 {
			return 0
		}
		if n == 0 {
			return -1
		}
		panic(msgNLT0)
	}
	if impl.offload("Idamax", work(prec64, fl(n), fl(n))) {
		r, err := impl.dev64.Iamax(n, x, incX)
		if err == nil {
			return r
		}
		impl.deviceFailed("Idamax", err)
	}
	return native.Idamax(n, x, incX)
}

// Dswap exchanges the elements of the n-vectors x and y.
func (impl *Implementation) Dswap(n int, x []float64, incX int, y []float64, incY int) {
	if n < impl.lim.Dswap {
		native.Dswap(n, x, incX, y, incY)
		return
	}
	if !impl.checkXY64(n, x, incX, y, incY) {
		return
	}
	if impl.offload("Dswap", work(prec64, 0, 4*fl(n))) {
		err := impl.dev64.Swap(n, x, incX, y, incY)
		if err == nil {
			return
		}
		impl.deviceFailed("Dswap", err)
	}
	native.Dswap(n, x, incX, y, incY)
}

// Dcopy copies the n-vector x into y.
func (impl *Implementation) Dcopy(n int, x []float64, incX int, y []float64, incY int) {
	if n < impl.lim.Dcopy {
		native.Dcopy(n, x, incX, y, incY)
		return
	}
	if !impl.checkXY64(n, x, incX, y, incY) {
		return
	}
	if impl.offload("Dcopy", work(prec64, 0, 2*fl(n))) {
		err := impl.dev64.Copy(n, x, incX, y, incY)
		if err == nil {
			return
		}
		impl.deviceFailed("Dcopy", err)
	}
	native.Dcopy(n, x, incX, y, incY)
}

// Daxpy computes y = alpha*x + y for n-vectors x and y.
func (impl *Implementation) Daxpy(n int, alpha float64, x []float64, incX int, y []float64, incY int) {
	if n < impl.lim.Daxpy {
		native.Daxpy(n, alpha, x, incX, y, incY)
		return
	}
	impl.axpyGated64(n, alpha, x, incX, y, incY)
}

// axpyGated64 is Daxpy for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) axpyGated64(n int, alpha float64, x []float64, incX int, y []float64, incY int) {
	if !impl.checkXY64(n, x, incX, y, incY) {
		return
	}
	if alpha == 0 {
		return
	}
	if impl.offloadIf("Daxpy", work(prec64, 2*fl(n), 3*fl(n)), func() bool { return finite(alpha) }) {
		err := impl.dev64.Axpy(n, alpha, x, incX, y, incY)
		if err == nil {
			return
		}
		impl.deviceFailed("Daxpy", err)
	}
	native.Daxpy(n, alpha, x, incX, y, incY)
}

// Drotg computes a plane rotation. It always runs on the CPU.
func (impl *Implementation) Drotg(a, b float64) (c, s, r, z float64) {
	return native.Drotg(a, b)
}

// Drotmg computes a modified Givens rotation. It always runs on the CPU.
func (impl *Implementation) Drotmg(d1, d2, x1, y1 float64) (p blas.DrotmParams, rd1, rd2, rx1 float64) {
	return native.Drotmg(d1, d2, x1, y1)
}

// Drot applies the plane rotation (c, s) to the points in the n-vectors x
// and y.
func (impl *Implementation) Drot(n int, x []float64, incX int, y []float64, incY int, c float64, s float64) {
	if n < impl.lim.Drot {
		native.Drot(n, x, incX, y, incY, c, s)
		return
	}
	if !impl.checkXY64(n, x, incX, y, incY) {
		return
	}
	if impl.offloadIf("Drot", work(prec64, 6*fl(n), 4*fl(n)), func() bool { return finite(c, s) }) {
		err := impl.dev64.Rot(n, x, incX, y, incY, c, s)
		if err == nil {
			return
		}
		impl.deviceFailed("Drot", err)
	}
	native.Drot(n, x, incX, y, incY, c, s)
}

// Drotm applies the modified Givens rotation p to the n-vectors x and y.
func (impl *Implementation) Drotm(n int, x []float64, incX int, y []float64, incY int, p blas.DrotmParams) {
	if n < impl.lim.Drotm {
		native.Drotm(n, x, incX, y, incY, p)
		return
	}
	if !impl.checkXY64(n, x, incX, y, incY) {
		return
	}
	switch p.Flag {
	case blas.Rescaling, blas.OffDiagonal, blas.Diagonal:
	default:
		// blas.Identity, and flags gonum ignores: x and y stay as they are.
		return
	}
	if impl.offloadIf("Drotm", work(prec64, 6*fl(n), 4*fl(n)), func() bool { return finite(p.H[:]...) }) {
		err := impl.dev64.Rotm(n, x, incX, y, incY, p.Flag, p.H)
		if err == nil {
			return
		}
		impl.deviceFailed("Drotm", err)
	}
	native.Drotm(n, x, incX, y, incY, p)
}

// Dscal computes x = alpha*x for the n-vector x. It does nothing for a
// negative incX.
func (impl *Implementation) Dscal(n int, alpha float64, x []float64, incX int) {
	if n < impl.lim.Dscal {
		native.Dscal(n, alpha, x, incX)
		return
	}
	impl.scalGated64(n, alpha, x, incX)
}

// scalGated64 is Dscal for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) scalGated64(n int, alpha float64, x []float64, incX int) {
	if incX < 1 {
		if incX == 0 {
			panic(msgZeroIncX)
		}
		return
	}
	if n < 1 {
		if n == 0 {
			return
		}
		panic(msgNLT0)
	}
	if (n-1)*incX >= len(x) {
		panic(msgShortX)
	}
	if impl.offloadIf("Dscal", work(prec64, fl(n), 2*fl(n)), func() bool { return finite(alpha) }) {
		err := impl.dev64.Scal(n, alpha, x, incX)
		if err == nil {
			return
		}
		impl.deviceFailed("Dscal", err)
	}
	native.Dscal(n, alpha, x, incX)
}

// checkXY64 does the argument checks shared by the two-vector routines that
// return nothing (Dswap, Dcopy, Daxpy, Drot, Drotm), in gonum's order. It
// reports whether there is work to do (n > 0).
func (impl *Implementation) checkXY64(n int, x []float64, incX int, y []float64, incY int) bool {
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
