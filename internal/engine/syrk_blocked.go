package engine

import "github.com/gocompute/opencl/cl"

// syrkBlockMin is the smallest block of SyrkBlocked: below it the GEMMs
// are too small to fill a device and the launches dominate.
const syrkBlockMin = 256

// syrkBlock is SyrkBlocked's block order for an n×n result: about an
// eighth of n, so that the diagonal blocks, computed whole, add at most
// about 1/8 to the work, in multiples of 128 (the large GEMM tiles).
func syrkBlock(n int) int {
	w := (n + 7) / 8
	w = (w + 127) / 128 * 128
	return max(w, syrkBlockMin)
}

// SyrkBlocked enqueues the upper or lower triangle of C = alpha·op(A)·op(A)ᵀ
// + beta·C, op(A) = A (n×k) or Aᵀ (A k×n when trans), with A and C starting
// at elements offA and offC of their buffers. It works in block rows of C:
// the blocks off the diagonal are GEMMs straight into C (beta applied by the
// GEMM), and each diagonal block is a GEMM into scratch whose triangle is
// merged into C. So a view inside a larger matrix is updated in place, and
// no more than one diagonal block's extra triangle is computed per row.
//
// It reports false, and enqueues nothing, where SyrkOnDevice's own routes
// fit better: with alpha == 0 or k == 0, below the GEMM route's size, and
// where gonum's lower-triangle transposed SYRK multiplies C by beta == 0
// (NaN in C survives there, and a GEMM with beta == 0 assigns).
func SyrkBlocked[T Real](c *Call, upper, trans bool, n, k int, alpha T, a *cl.Buffer, offA, lda int, beta T, cb *cl.Buffer, offC, ldc int) bool {
	if c.Err != nil || alpha == 0 || k == 0 || (beta == 0 && syrkReadsC(alpha, upper, trans)) || !c.E.viaGemm(n, n, k) {
		return false
	}
	// rowOf is the offset of row i of op(A).
	rowOf := func(i int) int {
		if trans {
			return offA + i
		}
		return offA + i*lda
	}
	w := min(syrkBlock(n), n)
	g := NewGemmLauncher[T](c)
	t := Alloc[T](c, w*w)
	for i := 0; i < n; i += w {
		ib := min(w, n-i)
		GemmOnDevice(c, trans, !trans, ib, ib, k, alpha, a, rowOf(i), lda, a, rowOf(i), lda, 0, t, 0, ib)
		triMergeAt(g, upper, ib, t, ib, beta, cb, offC+i*ldc+i, ldc)
		switch {
		case upper && i+ib < n:
			GemmOnDevice(c, trans, !trans, ib, n-i-ib, k, alpha, a, rowOf(i), lda, a, rowOf(i+ib), lda, beta, cb, offC+i*ldc+i+ib, ldc)
		case !upper && i > 0:
			GemmOnDevice(c, trans, !trans, ib, i, k, alpha, a, rowOf(i), lda, a, rowOf(0), lda, beta, cb, offC+i*ldc, ldc)
		}
	}
	return true
}

// triMergeAt enqueues level3.cl's l3_tri_merge for the n×n triangle of C
// starting at element offC: C = T + beta·C, T with leading dimension ldt.
func triMergeAt[T Real](g *GemmLauncher[T], upper bool, n int, t *cl.Buffer, ldt int, beta T, cb *cl.Buffer, offC, ldc int) {
	c := g.c
	kern := g.kernel("level3.cl", "l3_tri_merge")
	global, local := l3Work(n, n)
	c.Run(kern, global, local, l3Int(c, n), int32(l3Bool(upper)), int32(0), t, l3Int(c, ldt),
		beta, cb, l3Int(c, offC), l3Int(c, ldc), int32(0))
}
