//go:build !clblast

package clblast

import "github.com/gocompute/opencl/cl"

// ComplexGemm returns ErrUnavailable.
func ComplexGemm[T complex64 | complex128](q *cl.Queue, tA, tB int, m, n, k int, alpha T, a *cl.Buffer, offA, lda int,
	b *cl.Buffer, offB, ldb int, beta T, c *cl.Buffer, offC, ldc int) error {
	return ErrUnavailable
}
