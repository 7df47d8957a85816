package engine

import (
	"fmt"

	"github.com/gocompute/opencl/cl"
)

// The band matrix-vector products on devices other than CPUs
// (kernels/bandmv.cl): band_n reads each row's band in coalesced strides,
// band_t each row's piece of a block of consecutive columns; a symmetric
// band is read once, in tiles whose elements serve both their row and
// their column (sbmv_tile), then summed (sbmv_fin).

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

// bandMV enqueues y = alpha·op(A)·x + beta·y for the m×n band A with kl
// sub- and ku super-diagonals (lda), its diagonal taken as ones if unit
// (a triangular band; band_t then, whatever the width, since
// gbmv_t_part reads every stored element).
func bandMV[T Real](c *Call, trans, unit bool, m, n, kl, ku int, a *cl.Buffer, lda int, alpha T, x *cl.Buffer, offX, incX int,
	beta T, y *cl.Buffer, offY, incY int) {
	args := []any{int32(m), int32(n), int32(kl), int32(ku), alpha, a, int32(lda), x, int32(offX), int32(incX),
		beta, y, int32(offY), int32(incY)}
	maxLocal := c.E.Prof.MaxWorkGroupSize
	if trans && !unit && gbmvTKernelFor(c, n, kl, ku, ElemSize[T]()) == GbmvTPart {
		gbmvTOnDevice(c, m, n, kl, ku, a, lda, alpha, x, offX, incX, beta, y, offY, incY)
		return
	}
	defs := []string{fmt.Sprintf("BAND_UNIT=%d", l2bool(unit))}
	if trans {
		bx := 32
		by := bandRows(bx, maxLocal)
		k := c.Kernel(bandFile, "band_t", append(defs, fmt.Sprintf("BX=%d", bx), fmt.Sprintf("BY=%d", by))...)
		c.Run(k, []int{L3CeilDiv(n, bx) * bx, by}, []int{bx, by}, args...)
		return
	}
	bx, by := bandNShape(min(kl+ku+1, n), maxLocal)
	k := c.Kernel(bandFile, "band_n", append(defs, fmt.Sprintf("BX=%d", bx), fmt.Sprintf("BY=%d", by))...)
	c.Run(k, []int{bx, L3CeilDiv(m, by) * by}, []int{bx, by}, args...)
}

// bandOnDevice enqueues y = alpha·M·x + beta·y for the general,
// triangular or symmetric band descriptor d (alpha ≠ 0; beta == 0
// assigns). A triangular band is the general band of its stored diagonals.
func bandOnDevice[T Real](c *Call, d L2Mat, a *cl.Buffer, alpha T, x *cl.Buffer, offX, incX int, beta T, y *cl.Buffer, offY, incY int) {
	switch d.kind {
	case l2KindGeneral:
		bandMV(c, d.trans, false, d.m, d.n, d.kl, d.ku, a, d.Lda, alpha, x, offX, incX, beta, y, offY, incY)
	case l2KindTriangular:
		t := d.storedBand()
		bandMV(c, d.trans, d.unit, t.m, t.n, t.kl, t.ku, a, d.Lda, alpha, x, offX, incX, beta, y, offY, incY)
	default:
		sbmvOnDevice(c, d, a, alpha, x, offX, incX, beta, y, offY, incY)
	}
}

// sbmvShape is sbmv_tile's tile order st and work-group height sy for
// elements of es bytes: 64×4 where its local memory (the tile, the
// row-sum slices and two pieces of x) fits three quarters of the
// device's, else 32×8.
func sbmvShape(localMem int64, maxLocal, es int) (st, sy int) {
	st, sy = 64, 4
	if (localMem > 0 && int64((st*(st+1)+sy*(st+1)+2*st)*es) > localMem*3/4) || (maxLocal > 0 && st*sy > maxLocal) {
		st, sy = 32, bandRows(32, maxLocal)
	}
	return st, sy
}

// sbmvOnDevice enqueues y = alpha·A·x + beta·y for the symmetric band
// descriptor d, reading the stored triangle once: sbmv_tile's row and
// column sums per tile, then sbmv_fin.
func sbmvOnDevice[T Real](c *Call, d L2Mat, a *cl.Buffer, alpha T, x *cl.Buffer, offX, incX int, beta T, y *cl.Buffer, offY, incY int) {
	n, k := d.n, d.kl
	if o, ld, off, ok := streamOpOf(d); ok && symvKernelFor(c) == SymvStream {
		streamMV(c, o, a, ld, off, alpha, 0, x, offX, incX, beta, 0, y, offY, incY) // symv_stream.go
		return
	}
	st, sy := sbmvShape(c.E.Prof.LocalMemBytes, c.E.Prof.MaxWorkGroupSize, ElemSize[T]())
	nb := L3CeilDiv(n, st)
	nd := min(1+L3CeilDiv(k, st), nb)
	rowpart := Alloc[T](c, nb*nd*st)
	colpart := Alloc[T](c, nb*nd*st)
	defs := []string{fmt.Sprintf("ST=%d", st), fmt.Sprintf("SY=%d", sy)}
	c.Run(c.Kernel(bandFile, "sbmv_tile", defs...), []int{nd * st, nb * sy}, []int{st, sy},
		int32(n), int32(k), l2bool(d.upper), int32(nd), a, int32(d.Lda), x, int32(offX), int32(incX), rowpart, colpart)
	c.Run(c.Kernel(bandFile, "sbmv_fin", defs...), []int{Groups(n, 64)}, []int{64},
		int32(n), l2bool(d.upper), int32(nd), int32(nb), alpha, rowpart, colpart, beta, y, int32(offY), int32(incY))
}

// GbmvTKernel chooses the transposed band product's kernel.
type GbmvTKernel int

const (
	GbmvTAuto GbmvTKernel = iota // the engine's choice (gbmvTKernelFor)
	GbmvTCols                    // band_t: a work-item per column
	GbmvTPart                    // gbmv_t_part and gemv_t_fin
)

// gbmvTPartMinBand is the least kl + ku + 1 for which GPUs take
// gbmv_t_part. Below it a column of the band is short enough for band_t's
// work-items to walk whole, with no partial sums to write and add up;
// gbmv_t_part's row blocks pay for themselves only on long columns
// (BENCHMARKS.md, "Figures behind the code's choices").
const gbmvTPartMinBand = 2048

// gbmvTColsMinN is the least n for which GPUs take band_t for a double
// band of any width. band_t has a work-item for each column (and each of
// a few row slices), and with as many columns as this its walks, each
// load twice a float's bytes, kept ahead of gbmv_t_part even on bands of
// thousands of diagonals; on fewer columns, and in float, the wide bands
// go to gbmv_t_part (BENCHMARKS.md, "Figures behind the code's choices").
const gbmvTColsMinN = 8192

// gbmvTKernelFor is call c's kernel for the transposed product of an m×n
// band of kl sub- and ku super-diagonals, elements of es bytes: the
// setting when one is made, else band_t on CPU devices, for narrow bands
// and for double bands of many columns, gbmv_t_part for the others.
func gbmvTKernelFor(c *Call, n, kl, ku, es int) GbmvTKernel {
	if k := c.E.GbmvTKernel; k != GbmvTAuto {
		return k
	}
	if c.E.Prof.IsCPU() || kl+ku+1 < gbmvTPartMinBand || es >= 8 && n >= gbmvTColsMinN {
		return GbmvTCols
	}
	return GbmvTPart
}

// gbmvTPart is gbmv_t_part's launch: work-groups tx×ty over column
// pieces of tx·vec columns (gx of them), nb row blocks of rpb rows each,
// and the build's defines.
type gbmvTPart struct {
	tx, ty, gx, nb, rpb int
	more                []string
}

// gbmvTFloatRowBlocks is the most row blocks a float gbmv_t_part takes
// by default.
const gbmvTFloatRowBlocks = 16

// gbmvTPartShape is gbmv_t_part's launch for an m×n band (kl, ku) of
// elements of es bytes on level 1 shape sh: GEMV T's work-group and
// launch setting o, and row blocks enough to fill the device. In float,
// unless o sets the shape, the column pieces are half as wide, each
// work-item has 8 rows in flight and there are at most
// gbmvTFloatRowBlocks row blocks: a narrower piece wastes less of the
// band's edges under it, and longer walks write fewer partial sums
// (BENCHMARKS.md, "Figures behind the code's choices").
func gbmvTPartShape(sh L1Shape, localMem int64, es int, o GemvTShape, m, n, kl, ku int) gbmvTPart {
	tx, ty := gemvTShape(sh, localMem, es)
	tx, ty, more := o.launch(tx, ty, "GT_U")
	floatDefault := es == 4 && o.TX == 0 && o.Unroll == 0 && o.RowBlocks == 0
	if floatDefault {
		tx = max(tx/2, 1)
		more = append(more, "GT_U=8")
	}
	gx := L3CeilDiv(n, tx*sh.Vec)
	span := max(min(m, kl+ku+tx*sh.Vec), 1)
	nb := max(min(sh.Groups/max(gx, 1), L3CeilDiv(span, 8*ty)), 1)
	if floatDefault {
		nb = min(nb, gbmvTFloatRowBlocks)
	}
	if o.RowBlocks > 0 {
		nb = min(o.RowBlocks, span)
	}
	rpb := L3CeilDiv(span, nb)
	return gbmvTPart{tx: tx, ty: ty, gx: gx, nb: L3CeilDiv(span, rpb), rpb: rpb, more: more}
}

// gbmvTOnDevice enqueues y = alpha·Aᵀ·x + beta·y for the m×n band A
// (kl, ku, lda): gbmv_t_part over column pieces and slices of the rows
// the band reaches under them (gbmvTPartShape), then gemv_t_fin.
func gbmvTOnDevice[T Real](c *Call, m, n, kl, ku int, a *cl.Buffer, lda int, alpha T, x *cl.Buffer, offX, incX int, beta T, y *cl.Buffer, offY, incY int) {
	sh := l1ShapeOf(c)
	o := c.E.GemvT // GEMV T's launch setting, where set
	p := gbmvTPartShape(sh, c.E.Prof.LocalMemBytes, ElemSize[T](), o, m, n, kl, ku)
	part := Alloc[T](c, p.nb*n)
	vec := l2bool((lda-1)%sh.Vec == 0 && kl%sh.Vec == 0)
	args := []any{int32(m), int32(n), int32(kl), int32(ku), int32(p.rpb), a, int32(lda), x, int32(offX), int32(incX), part, vec}
	gemvTLaunch(c, "gbmv_t_part", gemvTOne(c, o), p.tx, p.ty, p.gx, p.nb, p.more, args, part,
		gemvTerms(m, n, m+ku), n, alpha, beta, y, offY, incY, false, x, offX, incX)
}
