package clblas

import eng "github.com/gocompute/opencl/internal/engine"

// Zdotu computes the dot product
//
//	xᵀ * y
//
// of the n-vectors x and y.
func (impl *Implementation) Zdotu(n int, x []complex128, incX int, y []complex128, incY int) complex128 {
	if n < impl.cxLim.Zdotu {
		if n == 1 && incX == 1 && incY == 1 && len(x) > 0 && len(y) > 0 {
			// gonum's one product (parts multiplied and rounded one by one),
			// without the call into gonum, which is most of a call this short.
			xr, xi, yr, yi := real(x[0]), imag(x[0]), real(y[0]), imag(y[0])
			return complex(float64(xr*yr)-float64(xi*yi), float64(xr*yi)+float64(xi*yr))
		}
		return native.Zdotu(n, x, incX, y, incY)
	}
	return impl.zdotuGated(n, x, incX, y, incY)
}

// zdotuGated is Zdotu for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) zdotuGated(n int, x []complex128, incX int, y []complex128, incY int) complex128 {
	if !cxCheckXY(n, x, incX, y, incY) {
		return 0
	}
	if impl.offloadCx("Zdotu", work(prec64, 8*fl(n), 4*fl(n)), nil) {
		r, err := eng.CxDot[complex128, float64](impl.eng, "Zdotu", false, n, x, incX, y, incY)
		if err == nil {
			return r
		}
		impl.deviceFailed("Zdotu", err)
	}
	return native.Zdotu(n, x, incX, y, incY)
}

// Zdotc computes the dot product
//
//	xᴴ * y
//
// of the n-vectors x and y.
func (impl *Implementation) Zdotc(n int, x []complex128, incX int, y []complex128, incY int) complex128 {
	if n < impl.cxLim.Zdotc {
		if n == 1 && incX == 1 && incY == 1 && len(x) > 0 && len(y) > 0 {
			// gonum's one product (parts multiplied and rounded one by one),
			// without the call into gonum, which is most of a call this short.
			xr, xi, yr, yi := real(x[0]), imag(x[0]), real(y[0]), imag(y[0])
			return complex(float64(xr*yr)+float64(xi*yi), float64(xr*yi)-float64(xi*yr))
		}
		return native.Zdotc(n, x, incX, y, incY)
	}
	return impl.zdotcGated(n, x, incX, y, incY)
}

// zdotcGated is Zdotc for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) zdotcGated(n int, x []complex128, incX int, y []complex128, incY int) complex128 {
	if !cxCheckXY(n, x, incX, y, incY) {
		return 0
	}
	if impl.offloadCx("Zdotc", work(prec64, 8*fl(n), 4*fl(n)), nil) {
		r, err := eng.CxDot[complex128, float64](impl.eng, "Zdotc", true, n, x, incX, y, incY)
		if err == nil {
			return r
		}
		impl.deviceFailed("Zdotc", err)
	}
	return native.Zdotc(n, x, incX, y, incY)
}

// Dznrm2 computes the Euclidean norm of the n-vector x,
//
//	‖x‖_2 = sqrt(Σ x[i] * conj(x[i])),
//
// without overflow or underflow in the intermediate sums. Like gonum's, it
// returns 0 for incX < 0.
func (impl *Implementation) Dznrm2(n int, x []complex128, incX int) float64 {
	if n < impl.cxLim.Dznrm2 {
		return native.Dznrm2(n, x, incX)
	}
	return impl.dznrm2Gated(n, x, incX)
}

// dznrm2Gated is Dznrm2 for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) dznrm2Gated(n int, x []complex128, incX int) float64 {
	if incX < 1 {
		if incX == 0 {
			panic(msgZeroIncX)
		}
		return 0
	}
	if n < 1 {
		if n == 0 {
			return 0
		}
		panic(msgNLT0)
	}
	if (n-1)*incX >= len(x) {
		panic(msgShortX)
	}
	if impl.offloadCx("Dznrm2", work(prec64, 4*fl(n), 2*fl(n)), nil) {
		r, err := eng.CxNrm2[complex128, float64](impl.eng, "Dznrm2", n, x, incX)
		if err == nil {
			return r
		}
		impl.deviceFailed("Dznrm2", err)
	}
	return native.Dznrm2(n, x, incX)
}

// Dzasum returns the sum of the absolute values of the real and imaginary
// parts of the elements of the n-vector x,
//
//	Σ |Re x[i]| + |Im x[i]|.
//
// Like gonum's, it returns 0 for incX < 0.
func (impl *Implementation) Dzasum(n int, x []complex128, incX int) float64 {
	if n < impl.cxLim.Dzasum {
		return native.Dzasum(n, x, incX)
	}
	return impl.dzasumGated(n, x, incX)
}

// dzasumGated is Dzasum for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) dzasumGated(n int, x []complex128, incX int) float64 {
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
	if impl.offloadCx("Dzasum", work(prec64, 2*fl(n), 2*fl(n)), nil) {
		r, err := eng.CxAsum[complex128, float64](impl.eng, "Dzasum", n, x, incX)
		if err == nil {
			return r
		}
		impl.deviceFailed("Dzasum", err)
	}
	return native.Dzasum(n, x, incX)
}

// Izamax returns the index of the first element of the n-vector x with
// the largest |Re x[i]| + |Im x[i]|. It returns -1 for n == 0 or
// incX < 0, as gonum's does.
func (impl *Implementation) Izamax(n int, x []complex128, incX int) int {
	if n < impl.cxLim.Izamax {
		return native.Izamax(n, x, incX)
	}
	return impl.izamaxGated(n, x, incX)
}

// izamaxGated is Izamax for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) izamaxGated(n int, x []complex128, incX int) int {
	if incX < 1 {
		if incX == 0 {
			panic(msgZeroIncX)
		}
		return -1
	}
	if n < 1 {
		if n == 0 {
			return -1
		}
		panic(msgNLT0)
	}
	if len(x) <= (n-1)*incX {
		panic(msgShortX)
	}
	if n == 1 {
		return 0
	}
	if impl.offloadCx("Izamax", work(prec64, 2*fl(n), 2*fl(n)), nil) {
		r, err := eng.CxIamax[complex128, float64](impl.eng, "Izamax", n, x, incX)
		if err == nil {
			return r
		}
		impl.deviceFailed("Izamax", err)
	}
	return native.Izamax(n, x, incX)
}

// Zswap exchanges the elements of the n-vectors x and y.
func (impl *Implementation) Zswap(n int, x []complex128, incX int, y []complex128, incY int) {
	if n < impl.cxLim.Zswap {
		native.Zswap(n, x, incX, y, incY)
		return
	}
	impl.zswapGated(n, x, incX, y, incY)
}

// zswapGated is Zswap for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) zswapGated(n int, x []complex128, incX int, y []complex128, incY int) {
	if !cxCheckXY(n, x, incX, y, incY) {
		return
	}
	if impl.offloadCx("Zswap", work(prec64, 0, 8*fl(n)), nil) {
		err := eng.CxSwap[complex128, float64](impl.eng, "Zswap", n, x, incX, y, incY)
		if err == nil {
			return
		}
		impl.deviceFailed("Zswap", err)
	}
	native.Zswap(n, x, incX, y, incY)
}

// Zcopy copies the n-vector x to the n-vector y.
func (impl *Implementation) Zcopy(n int, x []complex128, incX int, y []complex128, incY int) {
	if n < impl.cxLim.Zcopy {
		native.Zcopy(n, x, incX, y, incY)
		return
	}
	impl.zcopyGated(n, x, incX, y, incY)
}

// zcopyGated is Zcopy for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) zcopyGated(n int, x []complex128, incX int, y []complex128, incY int) {
	if !cxCheckXY(n, x, incX, y, incY) {
		return
	}
	if impl.offloadCx("Zcopy", work(prec64, 0, 4*fl(n)), nil) {
		err := eng.CxCopy[complex128, float64](impl.eng, "Zcopy", n, x, incX, y, incY)
		if err == nil {
			return
		}
		impl.deviceFailed("Zcopy", err)
	}
	native.Zcopy(n, x, incX, y, incY)
}

// Zaxpy computes
//
//	y = alpha * x + y
//
// for the n-vectors x and y and the scalar alpha.
func (impl *Implementation) Zaxpy(n int, alpha complex128, x []complex128, incX int, y []complex128, incY int) {
	if n < impl.cxLim.Zaxpy {
		native.Zaxpy(n, alpha, x, incX, y, incY)
		return
	}
	impl.zaxpyGated(n, alpha, x, incX, y, incY)
}

// zaxpyGated is Zaxpy for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) zaxpyGated(n int, alpha complex128, x []complex128, incX int, y []complex128, incY int) {
	if !cxCheckXY(n, x, incX, y, incY) || alpha == 0 {
		return
	}
	if impl.offloadCx("Zaxpy", work(prec64, 8*fl(n), 6*fl(n)), nil) {
		err := eng.CxAxpy[complex128, float64](impl.eng, "Zaxpy", n, alpha, x, incX, y, incY)
		if err == nil {
			return
		}
		impl.deviceFailed("Zaxpy", err)
	}
	native.Zaxpy(n, alpha, x, incX, y, incY)
}

// Zscal computes
//
//	x = alpha * x
//
// for the n-vector x and the complex scalar alpha. Like gonum's, it does
// nothing for incX < 0.
func (impl *Implementation) Zscal(n int, alpha complex128, x []complex128, incX int) {
	if n < impl.cxLim.Zscal {
		native.Zscal(n, alpha, x, incX)
		return
	}
	impl.zscalGated(n, alpha, x, incX)
}

// zscalGated is Zscal for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) zscalGated(n int, alpha complex128, x []complex128, incX int) {
	if !cxCheckScal(n, x, incX) {
		return
	}
	if impl.offloadCx("Zscal", work(prec64, 6*fl(n), 4*fl(n)), nil) {
		err := eng.CxScal[complex128, float64](impl.eng, "Zscal", n, alpha, false, x, incX)
		if err == nil {
			return
		}
		impl.deviceFailed("Zscal", err)
	}
	native.Zscal(n, alpha, x, incX)
}

// Zdscal computes
//
//	x = alpha * x
//
// for the n-vector x and the real scalar alpha. Like gonum's, it does
// nothing for incX < 0.
func (impl *Implementation) Zdscal(n int, alpha float64, x []complex128, incX int) {
	if n < impl.cxLim.Zdscal {
		native.Zdscal(n, alpha, x, incX)
		return
	}
	impl.zdscalGated(n, alpha, x, incX)
}

// zdscalGated is Zdscal for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) zdscalGated(n int, alpha float64, x []complex128, incX int) {
	if !cxCheckScal(n, x, incX) {
		return
	}
	if impl.offloadCx("Zdscal", work(prec64, 2*fl(n), 4*fl(n)), nil) {
		err := eng.CxScal[complex128, float64](impl.eng, "Zdscal", n, complex(alpha, 0), true, x, incX)
		if err == nil {
			return
		}
		impl.deviceFailed("Zdscal", err)
	}
	native.Zdscal(n, alpha, x, incX)
}
