//go:build !clblast

package clblast

import "github.com/gocompute/opencl/cl"

// Axpy returns ErrUnavailable.
func Axpy[T float32 | float64](q *cl.Queue, n int, alpha T, x Vec, y Vec) error {
	return ErrUnavailable
}

// Scal returns ErrUnavailable.
func Scal[T float32 | float64](q *cl.Queue, n int, alpha T, x Vec) error { return ErrUnavailable }

// Copy returns ErrUnavailable.
func Copy[T float32 | float64](q *cl.Queue, n int, x, y Vec) error { return ErrUnavailable }

// Swap returns ErrUnavailable.
func Swap[T float32 | float64](q *cl.Queue, n int, x, y Vec) error { return ErrUnavailable }

// Rot returns ErrUnavailable.
func Rot[T float32 | float64](q *cl.Queue, n int, x, y Vec, c, s T) error { return ErrUnavailable }

// Dot returns ErrUnavailable.
func Dot[T float32 | float64](q *cl.Queue, n int, res *cl.Buffer, offRes int, x, y Vec) error {
	return ErrUnavailable
}

// Nrm2 returns ErrUnavailable.
func Nrm2[T float32 | float64](q *cl.Queue, n int, res *cl.Buffer, offRes int, x Vec) error {
	return ErrUnavailable
}

// Asum returns ErrUnavailable.
func Asum[T float32 | float64](q *cl.Queue, n int, res *cl.Buffer, offRes int, x Vec) error {
	return ErrUnavailable
}

// Iamax returns ErrUnavailable.
func Iamax[T float32 | float64](q *cl.Queue, n int, res *cl.Buffer, offRes int, x Vec) error {
	return ErrUnavailable
}

// Gemv returns ErrUnavailable.
func Gemv[T float32 | float64](q *cl.Queue, trans bool, m, n int, alpha T, a Mat, x Vec, beta T, y Vec) error {
	return ErrUnavailable
}

// Ger returns ErrUnavailable.
func Ger[T float32 | float64](q *cl.Queue, m, n int, alpha T, x, y Vec, a Mat) error {
	return ErrUnavailable
}

// Syr returns ErrUnavailable.
func Syr[T float32 | float64](q *cl.Queue, upper bool, n int, alpha T, x Vec, a Mat) error {
	return ErrUnavailable
}

// Syr2 returns ErrUnavailable.
func Syr2[T float32 | float64](q *cl.Queue, upper bool, n int, alpha T, x, y Vec, a Mat) error {
	return ErrUnavailable
}

// Symv returns ErrUnavailable.
func Symv[T float32 | float64](q *cl.Queue, upper bool, n int, alpha T, a Mat, x Vec, beta T, y Vec) error {
	return ErrUnavailable
}

// Trmv returns ErrUnavailable.
func Trmv[T float32 | float64](q *cl.Queue, upper, trans, unit bool, n int, a Mat, x Vec) error {
	return ErrUnavailable
}
