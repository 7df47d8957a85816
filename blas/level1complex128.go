package clblas

// Zdotu computes the dot product
//
//	xᵀ * y
//
// of the n-vectors x and y.
func (impl *Implementation) Zdotu(n int, x []complex128, incX int, y []complex128, incY int) complex128 {
	r := native.Zdotu(n, x, incX, y, incY)
	impl.complexOnCPU("Zdotu", n > 0)
	return r
}

// Zdotc computes the dot product
//
//	xᴴ * y
//
// of the n-vectors x and y.
func (impl *Implementation) Zdotc(n int, x []complex128, incX int, y []complex128, incY int) complex128 {
	r := native.Zdotc(n, x, incX, y, incY)
	impl.complexOnCPU("Zdotc", n > 0)
	return r
}

// Dznrm2 computes the Euclidean norm of the n-vector x,
//
//	‖x‖_2 = sqrt(Σ x[i] * conj(x[i])),
//
// without overflow or underflow in the intermediate sums. Like gonum's, it
// returns 0 for incX < 0.
func (impl *Implementation) Dznrm2(n int, x []complex128, incX int) float64 {
	r := native.Dznrm2(n, x, incX)
	impl.complexOnCPU("Dznrm2", n > 0 && incX > 0)
	return r
}

// Dzasum returns the sum of the absolute values of the real and imaginary
// parts of the elements of the n-vector x,
//
//	Σ |Re x[i]| + |Im x[i]|.
//
// Like gonum's, it returns 0 for incX < 0.
func (impl *Implementation) Dzasum(n int, x []complex128, incX int) float64 {
	r := native.Dzasum(n, x, incX)
	impl.complexOnCPU("Dzasum", n > 0 && incX > 0)
	return r
}

// Izamax returns the index of the first element of the n-vector x with
// the largest |Re x[i]| + |Im x[i]|. It returns -1 for n == 0 or
// incX < 0, as gonum's does.
func (impl *Implementation) Izamax(n int, x []complex128, incX int) int {
	r := native.Izamax(n, x, incX)
	impl.complexOnCPU("Izamax", n > 0 && incX > 0)
	return r
}

// Zswap exchanges the elements of the n-vectors x and y.
func (impl *Implementation) Zswap(n int, x []complex128, incX int, y []complex128, incY int) {
	native.Zswap(n, x, incX, y, incY)
	impl.complexOnCPU("Zswap", n > 0)
}

// Zcopy copies the n-vector x to the n-vector y.
func (impl *Implementation) Zcopy(n int, x []complex128, incX int, y []complex128, incY int) {
	native.Zcopy(n, x, incX, y, incY)
	impl.complexOnCPU("Zcopy", n > 0)
}

// Zaxpy computes
//
//	y = alpha * x + y
//
// for the n-vectors x and y and the scalar alpha.
func (impl *Implementation) Zaxpy(n int, alpha complex128, x []complex128, incX int, y []complex128, incY int) {
	native.Zaxpy(n, alpha, x, incX, y, incY)
	impl.complexOnCPU("Zaxpy", n > 0 && alpha != 0)
}

// Zscal computes
//
//	x = alpha * x
//
// for the n-vector x and the complex scalar alpha. Like gonum's, it does
// nothing for incX < 0.
func (impl *Implementation) Zscal(n int, alpha complex128, x []complex128, incX int) {
	native.Zscal(n, alpha, x, incX)
	impl.complexOnCPU("Zscal", n > 0 && incX > 0)
}

// Zdscal computes
//
//	x = alpha * x
//
// for the n-vector x and the real scalar alpha. Like gonum's, it does
// nothing for incX < 0.
func (impl *Implementation) Zdscal(n int, alpha float64, x []complex128, incX int) {
	native.Zdscal(n, alpha, x, incX)
	impl.complexOnCPU("Zdscal", n > 0 && incX > 0)
}
