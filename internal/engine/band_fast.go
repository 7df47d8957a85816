package engine

import (
	"fmt"

	"github.com/gocompute/opencl/cl"
)

// The band matrix-vector products on devices other than CPUs
// (kernels/bandmv.cl): band_n reads each row's band in coalesced strides,
// band_t each row's piece of a block of consecutive columns; a symmetric
// band is its stored triangle through band_n, then the triangle without
// its diagonal through band_t.

const bandFile = "bandmv.cl"

// bandNShape is band_n's work-group shape for bands of w columns: bx
// lanes per row (the smallest power of two ≥ w, at most 32) and by rows,
// bx·by ≤ 256 and the device's limit.
func bandNShape(w, maxLocal int) (bx, by int) {
	bx = 32
	for bx > 1 && bx/2 >= w {
		bx /= 2
	}
	return bx, bandRows(bx, maxLocal)
}

// bandRows is the number of rows (band_n) or row slices (band_t) of a
// work-group bx wide.
func bandRows(bx, maxLocal int) int {
	by := max(256/bx, 1)
	for maxLocal > 0 && bx*by > maxLocal && by > 1 {
		by /= 2
	}
	return by
}

// bandMV enqueues y = alpha·op(A)·x + b for the m×n band A with kl sub-
// and ku super-diagonals (lda), b = beta·y, or y with accumulate; the
// diagonal is left out with skipDiag.
func bandMV[T Real](c *Call, trans bool, m, n, kl, ku int, a *cl.Buffer, lda int, alpha T, x *cl.Buffer, offX, incX int,
	beta T, y *cl.Buffer, offY, incY int, skipDiag, accumulate bool) {
	args := []any{int32(m), int32(n), int32(kl), int32(ku), alpha, a, int32(lda), x, int32(offX), int32(incX),
		beta, y, int32(offY), int32(incY), l2bool(skipDiag), l2bool(accumulate)}
	maxLocal := c.E.Prof.MaxWorkGroupSize
	if trans {
		bx := 32
		by := bandRows(bx, maxLocal)
		k := c.Kernel(bandFile, "band_t", fmt.Sprintf("BX=%d", bx), fmt.Sprintf("BY=%d", by))
		c.Run(k, []int{L3CeilDiv(n, bx) * bx, by}, []int{bx, by}, args...)
		return
	}
	bx, by := bandNShape(min(kl+ku+1, n), maxLocal)
	k := c.Kernel(bandFile, "band_n", fmt.Sprintf("BX=%d", bx), fmt.Sprintf("BY=%d", by))
	c.Run(k, []int{bx, L3CeilDiv(m, by) * by}, []int{bx, by}, args...)
}

// bandOnDevice enqueues y = alpha·M·x + beta·y for the general or
// symmetric band descriptor d (alpha ≠ 0; beta == 0 assigns).
func bandOnDevice[T Real](c *Call, d L2Mat, a *cl.Buffer, alpha T, x *cl.Buffer, offX, incX int, beta T, y *cl.Buffer, offY, incY int) {
	if d.kind == l2KindGeneral {
		bandMV(c, d.trans, d.m, d.n, d.kl, d.ku, a, d.Lda, alpha, x, offX, incX, beta, y, offY, incY, false, false)
		return
	}
	// The stored triangle as a general band: upper rows hold A(i, i..i+k),
	// lower rows A(i, i−k..i).
	kl, ku := 0, d.kl
	if !d.upper {
		kl, ku = d.kl, 0
	}
	bandMV(c, false, d.n, d.n, kl, ku, a, d.Lda, alpha, x, offX, incX, beta, y, offY, incY, false, false)
	bandMV(c, true, d.n, d.n, kl, ku, a, d.Lda, alpha, x, offX, incX, beta, y, offY, incY, true, true)
}
