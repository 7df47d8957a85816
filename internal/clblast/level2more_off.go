//go:build !clblast

package clblast

import "github.com/gocompute/opencl/cl"

// Trsv returns ErrUnavailable.
func Trsv[T float32 | float64](q *cl.Queue, upper, trans, unit bool, n int, a Mat, x Vec) error {
	return ErrUnavailable
}

// Gbmv returns ErrUnavailable.
func Gbmv[T float32 | float64](q *cl.Queue, trans bool, m, n, kl, ku int, alpha T, a Mat, x Vec, beta T, y Vec) error {
	return ErrUnavailable
}

// Sbmv returns ErrUnavailable.
func Sbmv[T float32 | float64](q *cl.Queue, upper bool, n, k int, alpha T, a Mat, x Vec, beta T, y Vec) error {
	return ErrUnavailable
}
