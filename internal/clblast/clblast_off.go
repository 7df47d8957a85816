//go:build !clblast

// Package clblast calls CLBlast beside our kernels for benchmarks; this
// build has no CLBlast (build with -tags clblast and libclblast-dev).
package clblast

import (
	"errors"

	"github.com/gocompute/opencl/cl"
)

// Available reports whether CLBlast was linked in.
const Available = false

// ErrUnavailable is returned by every call in a build without CLBlast.
var ErrUnavailable = errors.New("clblast: not linked in (build with -tags clblast; needs libclblast-dev)")

// Gemm returns ErrUnavailable.
func Gemm[T float32 | float64](q *cl.Queue, tA, tB bool, m, n, k int, alpha T, a *cl.Buffer, offA, lda int,
	b *cl.Buffer, offB, ldb int, beta T, c *cl.Buffer, offC, ldc int) error {
	return ErrUnavailable
}
