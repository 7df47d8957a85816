//go:build !clblast

package clblast

import "github.com/gocompute/opencl/cl"

// ComplexAxpy returns ErrUnavailable.
func ComplexAxpy[T complex64 | complex128](q *cl.Queue, n int, alpha T, x, y Vec) error {
	return ErrUnavailable
}

// ComplexScal returns ErrUnavailable.
func ComplexScal[T complex64 | complex128](q *cl.Queue, n int, alpha T, x Vec) error {
	return ErrUnavailable
}

// ComplexCopy returns ErrUnavailable.
func ComplexCopy[T complex64 | complex128](q *cl.Queue, n int, x, y Vec) error { return ErrUnavailable }

// ComplexSwap returns ErrUnavailable.
func ComplexSwap[T complex64 | complex128](q *cl.Queue, n int, x, y Vec) error { return ErrUnavailable }

// ComplexDotu returns ErrUnavailable.
func ComplexDotu[T complex64 | complex128](q *cl.Queue, n int, res *cl.Buffer, offRes int, x, y Vec) error {
	return ErrUnavailable
}

// ComplexDotc returns ErrUnavailable.
func ComplexDotc[T complex64 | complex128](q *cl.Queue, n int, res *cl.Buffer, offRes int, x, y Vec) error {
	return ErrUnavailable
}

// ComplexNrm2 returns ErrUnavailable.
func ComplexNrm2[T complex64 | complex128](q *cl.Queue, n int, res *cl.Buffer, offRes int, x Vec) error {
	return ErrUnavailable
}

// ComplexAsum returns ErrUnavailable.
func ComplexAsum[T complex64 | complex128](q *cl.Queue, n int, res *cl.Buffer, offRes int, x Vec) error {
	return ErrUnavailable
}

// ComplexIamax returns ErrUnavailable.
func ComplexIamax[T complex64 | complex128](q *cl.Queue, n int, res *cl.Buffer, offRes int, x Vec) error {
	return ErrUnavailable
}

// ComplexGemv returns ErrUnavailable.
func ComplexGemv[T complex64 | complex128](q *cl.Queue, trans, m, n int, alpha T, a Mat, x Vec, beta T, y Vec) error {
	return ErrUnavailable
}

// ComplexHemv returns ErrUnavailable.
func ComplexHemv[T complex64 | complex128](q *cl.Queue, upper bool, n int, alpha T, a Mat, x Vec, beta T, y Vec) error {
	return ErrUnavailable
}

// ComplexGeru returns ErrUnavailable.
func ComplexGeru[T complex64 | complex128](q *cl.Queue, m, n int, alpha T, x, y Vec, a Mat) error {
	return ErrUnavailable
}

// ComplexGerc returns ErrUnavailable.
func ComplexGerc[T complex64 | complex128](q *cl.Queue, m, n int, alpha T, x, y Vec, a Mat) error {
	return ErrUnavailable
}

// ComplexHer returns ErrUnavailable.
func ComplexHer[T complex64 | complex128](q *cl.Queue, upper bool, n int, alpha float64, x Vec, a Mat) error {
	return ErrUnavailable
}

// ComplexHer2 returns ErrUnavailable.
func ComplexHer2[T complex64 | complex128](q *cl.Queue, upper bool, n int, alpha T, x, y Vec, a Mat) error {
	return ErrUnavailable
}

// ComplexTrmv returns ErrUnavailable.
func ComplexTrmv[T complex64 | complex128](q *cl.Queue, upper bool, trans int, unit bool, n int, a Mat, x Vec) error {
	return ErrUnavailable
}
