package clblas

// Dsdot computes the dot product of the n-vectors x and y, accumulating in
// float64.
func (impl *Implementation) Dsdot(n int, x []float32, incX int, y []float32, incY int) float64 {
	if n < impl.lim.Dsdot {
		return native.Dsdot(n, x, incX, y, incY)
	}
	if !impl.checkDot32(n, x, incX, y, incY) {
		return 0
	}
	if impl.offload("Dsdot", fp64Work(work(prec32, 2*fl(n), 2*fl(n)))) {
		r, err := impl.dev32.Dsdot(n, x, incX, y, incY)
		if err == nil {
			return r
		}
		impl.deviceFailed("Dsdot", err)
	}
	return native.Dsdot(n, x, incX, y, incY)
}

// Sdsdot computes alpha plus the dot product of the n-vectors x and y,
// accumulating in float64. Like gonum's, it returns 0 (not alpha) for
// n == 0.
func (impl *Implementation) Sdsdot(n int, alpha float32, x []float32, incX int, y []float32, incY int) float32 {
	if n < impl.lim.Sdsdot {
		return native.Sdsdot(n, alpha, x, incX, y, incY)
	}
	if !impl.checkDot32(n, x, incX, y, incY) {
		return 0
	}
	if impl.offload("Sdsdot", fp64Work(work(prec32, 2*fl(n), 2*fl(n)))) {
		r, err := impl.dev32.Sdsdot(n, alpha, x, incX, y, incY)
		if err == nil {
			return r
		}
		impl.deviceFailed("Sdsdot", err)
	}
	return native.Sdsdot(n, alpha, x, incX, y, incY)
}

// checkDot32 does the argument checks of Dsdot and Sdsdot in gonum's order
// and reports whether there is work to do (n > 0).
func (impl *Implementation) checkDot32(n int, x []float32, incX int, y []float32, incY int) bool {
	if incX == 0 {
		panic(msgZeroIncX)
	}
	if incY == 0 {
		panic(msgZeroIncY)
	}
	if n <= 0 {
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

// fp64Work is w for a routine that computes in float64 on float32 data
// (Dsdot, Sdsdot): at the float64 rate, and kept on the CPU by policy on a
// device without fp64 (where the kernel could not accumulate in double).
func fp64Work(w workload) workload {
	w.prec = prec64
	return w
}
