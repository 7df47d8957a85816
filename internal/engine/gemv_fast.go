package engine

import (
	"fmt"

	"github.com/gocompute/opencl/cl"
)

// The dense general matrix-vector products on devices other than CPUs
// (kernels/gemv.cl): gemv_n, a work-group per row reading it in vector
// loads; gemv_t_part and gemv_t_fin, row blocks of column pieces summed
// into partials and then into y. Both take level 1's shape (vector width,
// work-group size, groups to fill the device).

const (
	gemvFile = "gemv.cl"
	symvFile = "symv.cl"
)

// gemvTShape is gemv_t_part's work-group shape (tx columns of vectors by
// ty row slices) for level 1 shape sh and elements of es bytes: groups of
// sh.Local, 64 wide, shrunk until the group's vectors fit half the local
// memory.
func gemvTShape(sh L1Shape, localMem int64, es int) (tx, ty int) {
	tx = min(64, sh.Local)
	ty = max(sh.Local/tx, 1)
	fits := func() bool { return localMem <= 0 || int64(tx*ty*sh.Vec*es) <= localMem/2 }
	for !fits() && ty > 1 {
		ty /= 2
	}
	for !fits() && tx > 1 {
		tx /= 2
	}
	return tx, ty
}

// gemv_t_fin's work-groups: 32 columns by 8 slices of the partials
// (GF_TX, GF_TY in kernels/gemv.cl).
var gemvFinLocal = []int{32, 8}

// gemvFinGrid is gemv_t_fin's grid over n columns.
func gemvFinGrid(n int) []int { return []int{Groups(n, 32), 8} }

// gemvTerms is gemv_t_fin's terms: the columns of an m-row matrix whose
// sums have terms, the first cols of n (none without rows).
func gemvTerms(m, n, cols int) int {
	if m <= 0 {
		return 0
	}
	return min(n, cols)
}

// gemvKernel is kernel k of gemv.cl for c's shape (and more defines).
func gemvKernel(c *Call, k string, tx, ty int, more ...string) *cl.Kernel {
	defs := append(l1ShapeOf(c).Defines(), fmt.Sprintf("GT_TX=%d", tx), fmt.Sprintf("GT_TY=%d", ty))
	return c.Kernel(gemvFile, k, append(defs, more...)...)
}

// GemvTShape, where its fields are set (measurements), replaces
// gemv_t_part's work-group shape (TX, TY), its rows in flight per
// work-item (Unroll, GT_U), its number of row blocks and its number of
// launches (1: gemv_t_part and gbmv_t_part add up the partial sums
// themselves, 2: gemv_t_fin does); as the Engine's Ger, those of
// ger_rows (row slices) and syr_rows (rows a work-item).
type GemvTShape struct{ TX, TY, Unroll, RowBlocks, Launches int }

// gemvTOne reports whether call c's transposed product with launch o runs
// as one launch (gemv.cl's GT_ONE): o's Launches where set, else
// gemvTOneDefault. Only calls on the engine's queue do, since they use
// its piece tickets.
func gemvTOne(c *Call, o GemvTShape) bool {
	if c.q != nil {
		return false
	}
	switch o.Launches {
	case 1:
		return true
	case 2:
		return false
	}
	return gemvTOneDefault(c)
}

// gemvTOneDefault is the engine's choice of one launch for the transposed
// products: the level 1 shape's OneLaunchL2, set in the tuning database
// where it was measured faster (kernels/l12_tuning.json). Derived shapes
// keep two launches: one launch saves a launch's fixed cost, which
// varies by driver and has been measured on the H200 and PoCL. CPU
// devices run GEMV T and the band and symmetric products on kernels of
// their own (gemv_t_rows, band_t_rows, sym_rows), which take the same
// choice (l2OneLaunch).
func gemvTOneDefault(c *Call) bool { return l1ShapeOf(c).OneLaunchL2 }

// gemvTLaunch enqueues the transposed product's part kernel k (grid gx·tx
// by nb·ty) with args, which write the partial sums to part, then their
// sums into y = alpha·(Σ + unit·x) + beta·y: in the same launch where one
// says so, else by gemv_t_fin.
func gemvTLaunch[T Real](c *Call, k string, one bool, tx, ty, gx, nb int, more []string, args []any, part *cl.Buffer,
	terms, n int, alpha, beta T, y *cl.Buffer, offY, incY int, unit bool, x *cl.Buffer, offX, incX int) {
	if one {
		more = append(more, "GT_ONE")
		args = append(args, c.E.pieceTickets(c, gx), int32(terms), alpha, beta, y, int32(offY), int32(incY), l2bool(unit))
	}
	c.Run(gemvKernel(c, k, tx, ty, more...), []int{gx * tx, nb * ty}, []int{tx, ty}, args...)
	if one {
		return
	}
	c.Run(gemvKernel(c, "gemv_t_fin", tx, ty), gemvFinGrid(n), gemvFinLocal,
		int32(terms), int32(n), int32(nb), alpha, part, beta, y, int32(offY), int32(incY), l2bool(unit), x, int32(offX), int32(incX))
}

// launch returns the work-group shape tx×ty, o's where o sets both
// sides, and the kernel's extra defines: unrollMacro=o.Unroll where o
// sets an unroll.
func (o GemvTShape) launch(tx, ty int, unrollMacro string) (int, int, []string) {
	if o.TX > 0 && o.TY > 0 {
		tx, ty = o.TX, o.TY
	}
	var more []string
	if o.Unroll > 0 {
		more = append(more, fmt.Sprintf("%s=%d", unrollMacro, o.Unroll))
	}
	return tx, ty, more
}

// gemvTri selects a triangle of a square A for gemvPass: tri (else all
// of A), its stored half (upper: A(i,j) for j ≥ i), the diagonal left out
// (skipDiag) or taken as 1 (unit).
type gemvTri struct{ tri, upper, unit, skipDiag bool }

// gemvOnDevice enqueues y = alpha·op(A)·x + beta·y for the dense general
// m×n A of descriptor d (alpha ≠ 0; beta == 0 assigns).
func gemvOnDevice[T Real](c *Call, d L2Mat, a *cl.Buffer, alpha T, x *cl.Buffer, offX, incX int, beta T, y *cl.Buffer, offY, incY int) {
	gemvPass(c, d.trans, d.m, d.n, d.Lda, gemvTri{}, a, alpha, x, offX, incX, beta, y, offY, incY)
}

// symvOnDevice enqueues y = alpha·A·x + beta·y for the dense symmetric n×n
// A stored in the triangle d.upper says (alpha ≠ 0; beta == 0 assigns),
// reading the triangle once: symv_part (kernels/symv.cl) takes a tile of
// it per work-group and uses each element for both its row and its column,
// leaving nt partial sums per element of y, which gemv_t_fin adds up.
func symvOnDevice[T Real](c *Call, d L2Mat, a *cl.Buffer, alpha T, x *cl.Buffer, offX, incX int, beta T, y *cl.Buffer, offY, incY int) {
	n := d.n
	if o, ld, off, ok := streamOpOf(d); ok && symvKernelFor(c) == SymvStream {
		streamMV(c, o, a, ld, off, alpha, 0, x, offX, incX, beta, 0, y, offY, incY) // symv_stream.go
		return
	}
	sh := l1ShapeOf(c)
	tb, ty := symvShape(symvLocal(sh.Local, c.E.Prof.MaxWorkGroupSize), c.E.Prof.LocalMemBytes, ElemSize[T]())
	if t := c.E.SymvTile; t[0] > 0 {
		tb, ty = t[0], t[1]
	}
	nt := L3CeilDiv(n, tb)
	part := Alloc[T](c, nt*n)
	tiles := nt * (nt + 1) / 2 // the stored triangle's
	c.Run(c.Kernel(symvFile, "symv_part", fmt.Sprintf("SY_TB=%d", tb), fmt.Sprintf("SY_TY=%d", ty)), []int{tiles * tb, ty}, []int{tb, ty},
		int32(n), l2bool(d.upper), a, int32(d.Lda), x, int32(offX), int32(incX), part)
	tx, gty := gemvTShape(sh, c.E.Prof.LocalMemBytes, ElemSize[T]())
	c.Run(gemvKernel(c, "gemv_t_fin", tx, gty), gemvFinGrid(n), gemvFinLocal,
		int32(n), int32(n), int32(nt), alpha, part, beta, y, int32(offY), int32(incY), int32(0), x, int32(offX), int32(incX))
}

// symvLocal is symv_part's work-group size: 256 work-items where the
// device allows them, whatever level 1's own size (on the H200 a 64×64
// tile read by 128 work-items was much slower than by 256: BENCHMARKS.md,
// "Figures behind the code's choices"), else local.
func symvLocal(local, max int) int {
	if max <= 0 || max >= 256 {
		return 256
	}
	return local
}

// symvShape is symv_part's tile side tb (its work-group's width) and
// work-group height ty for work-groups of at most local work-items and
// elements of es bytes: the largest tile up to 64 whose local memory
// (the padded tile and two pieces of x) fits three quarters of localMem,
// and ty ≤ tb/2 rows (the kernel reduces in 2·ty of the tile's rows).
func symvShape(local int, localMem int64, es int) (tb, ty int) {
	tb = 64
	fits := func() bool { return localMem <= 0 || int64(tb*(tb+3)*es) <= localMem*3/4 }
	for tb > 2 && (tb > local || !fits()) {
		tb /= 2
	}
	ty = max(min(local/tb, tb/2), 1)
	return tb, ty
}

// trmvOnDevice enqueues out = op(A)·x for the dense (or, on the stream,
// packed) triangular n×n A of descriptor d; out must not alias x.
func trmvOnDevice[T Real](c *Call, d L2Mat, a *cl.Buffer, x *cl.Buffer, offX, incX int, out *cl.Buffer, offO, incO int) {
	if o, ld, off, ok := streamOpOf(d); ok && trmvKernelFor(c) == TrmvStream {
		streamMV(c, o, a, ld, off, T(1), 0, x, offX, incX, T(0), 0, out, offO, incO) // symv_stream.go
		return
	}
	n := d.n
	gemvPass(c, d.trans, n, n, d.Lda, gemvTri{tri: true, upper: d.upper, unit: d.unit}, a, T(1), x, offX, incX, T(0), out, offO, incO)
}

// gemvPass enqueues y = alpha·op(M)·x + beta·y, M the m×n A (lda) or the
// triangle tr of it.
func gemvPass[T Real](c *Call, trans bool, m, n, lda int, tr gemvTri, a *cl.Buffer, alpha T, x *cl.Buffer, offX, incX int, beta T, y *cl.Buffer, offY, incY int) {
	sh := l1ShapeOf(c)
	es := ElemSize[T]()
	tx, ty := gemvTShape(sh, c.E.Prof.LocalMemBytes, es)
	if !trans {
		ls := sh.Local
		var z T
		groups := m
		if tr.tri {
			groups = (m + 1) / 2 // rows g and m-1-g each (gemv_n)
		}
		c.Run(gemvKernel(c, "gemv_n", tx, ty), []int{groups * ls}, []int{ls},
			int32(m), int32(n), alpha, a, int32(lda), x, int32(offX), int32(incX), beta, y, int32(offY), int32(incY),
			l2bool(tr.tri), l2bool(tr.upper), l2bool(tr.unit), l2bool(tr.skipDiag), LocalBytes(ls, z))
		return
	}
	o := c.E.GemvT
	tx, ty, more := o.launch(tx, ty, "GT_U")
	gx := L3CeilDiv(n, tx*sh.Vec)
	nb, rpb := gemvTBlocks(sh, o, gx, m, ty)
	part := Alloc[T](c, nb*n)
	vec := l2bool(lda%sh.Vec == 0)
	args := []any{int32(m), int32(n), int32(rpb), a, int32(lda), x, int32(offX), int32(incX), part, vec,
		l2bool(tr.tri), l2bool(tr.upper), l2bool(tr.skipDiag || tr.unit)}
	unit := tr.tri && tr.unit && !tr.skipDiag
	gemvTLaunch(c, "gemv_t_part", gemvTOne(c, o), tx, ty, gx, nb, more, args, part,
		gemvTerms(m, n, n), n, alpha, beta, y, offY, incY, unit, x, offX, incX)
}

// gemvTBlocks is how many row blocks (nb) of rpb rows gemv_t_part and
// zgemv_t_part take of an m-row matrix, with gx work-groups across and ty
// row slices a group: enough groups to fill the device, each row slice
// at least 8 rows long, or o's RowBlocks where that is set.
func gemvTBlocks(sh L1Shape, o GemvTShape, gx, m, ty int) (nb, rpb int) {
	nb = max(min(sh.Groups/max(gx, 1), L3CeilDiv(m, 8*ty)), 1)
	if o.RowBlocks > 0 {
		nb = min(o.RowBlocks, max(m, 1))
	}
	rpb = L3CeilDiv(m, nb)
	return max(L3CeilDiv(m, rpb), 1), rpb
}

// zgemvTOnDevice enqueues the complex y = alpha·Aᵀ·x + beta·y (Aᴴ with
// conj) for the dense m×n A (lda, in complex elements; alpha ≠ 0, beta
// == 0 assigns): zgemv_t_part on gemv_t_part's launch, a work-item per
// max(L1_VW, 2)/2 columns, then zgemv_t_fin, or in one launch where
// gemvTOne says so.
func zgemvTOnDevice[R Real](c *Call, conj bool, m, n, lda int, a *cl.Buffer, are, aim R, x *cl.Buffer, offX, incX int, bre, bim R, y *cl.Buffer, offY, incY int) {
	sh := l1ShapeOf(c)
	per := max(sh.Vec, 2) / 2
	tx, ty := gemvTShape(sh, c.E.Prof.LocalMemBytes, ElemSize[R]()*2*per/sh.Vec)
	o := c.E.GemvT
	tx, ty, more := o.launch(tx, ty, "GT_U")
	gx := L3CeilDiv(n, tx*per)
	nb, rpb := gemvTBlocks(sh, o, gx, m, ty)
	part := Alloc[R](c, 2*nb*n)
	args := []any{int32(m), int32(n), int32(rpb), l2bool(conj), a, int32(2 * lda), x, int32(2 * offX), int32(incX), part, l2bool(lda%per == 0)}
	terms := int32(gemvTerms(m, n, n))
	if gemvTOne(c, o) {
		args = append(args, c.E.pieceTickets(c, gx), terms, are, aim, bre, bim, y, int32(2*offY), int32(incY))
		c.Run(gemvKernel(c, "zgemv_t_part", tx, ty, append(more, "GT_ONE")...), []int{gx * tx, nb * ty}, []int{tx, ty}, args...)
		return
	}
	c.Run(gemvKernel(c, "zgemv_t_part", tx, ty, more...), []int{gx * tx, nb * ty}, []int{tx, ty}, args...)
	c.Run(gemvKernel(c, "zgemv_t_fin", tx, ty), gemvFinGrid(n), gemvFinLocal,
		terms, int32(n), int32(nb), are, aim, part, bre, bim, y, int32(2*offY), int32(incY))
}

// rankShape is ger_rows' and syr_rows' launch over n columns: c's level 1
// shape sh, work-groups of gemvTShape (or the Engine's Ger), gx of them
// across, and the kernel's extra defines.
func rankShape[T Real](c *Call, n int) (sh L1Shape, tx, ty, gx int, more []string) {
	sh = l1ShapeOf(c)
	tx, ty = gemvTShape(sh, c.E.Prof.LocalMemBytes, ElemSize[T]())
	tx, ty, more = c.E.Ger.launch(tx, ty, "GR_U")
	return sh, tx, ty, L3CeilDiv(L3CeilDiv(n, sh.Vec), tx), more
}

// syrRowsPerItem is how many rows of a column piece each of syr_rows'
// work-items takes: a work-group's block of rows is ty times as high.
const syrRowsPerItem = 16

// syrOnDevice enqueues the update of the stored triangle of the symmetric
// n×n A, dense (lda) or packed, by alpha·(x·yᵀ + y·xᵀ) (two) or alpha·x·xᵀ
// (rows whose alpha·x(r) is zero skipped when skipZero; y is not read):
// ger_rows' launch shape over the square, each work-group a block of rows
// of its columns, those outside the triangle returning at once.
func syrOnDevice[T Real](c *Call, upper, two, skipZero, packed bool, n int, alpha T, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int, a *cl.Buffer, lda int) {
	sh, tx, ty, gx, more := rankShape[T](c, n)
	h := ty * syrRowsPerItem
	if c.E.Ger.RowBlocks > 0 {
		h = ty * c.E.Ger.RowBlocks
	}
	vec := lda%sh.Vec == 0
	if packed {
		more = append(more, "RK_PACKED")
		lda, vec = 0, true
	}
	c.Run(gemvKernel(c, "syr_rows", tx, ty, more...), []int{gx * tx, L3CeilDiv(n, h) * ty}, []int{tx, ty},
		l2bool(upper), l2bool(two), l2bool(skipZero), int32(n), alpha, x, int32(offX), int32(incX),
		y, int32(offY), int32(incY), a, int32(lda), l2bool(vec), int32(h))
}

// rankRows is how many slices of ty rows ger_rows and zger_rows stride
// over for an m-row matrix and gx work-groups across: enough to fill the
// device, or the Engine's Ger.RowBlocks where that is set.
func rankRows(c *Call, sh L1Shape, gx, m, ty int) int {
	if c.E.Ger.RowBlocks > 0 {
		return max(min(c.E.Ger.RowBlocks, L3CeilDiv(m, ty)), 1)
	}
	return max(min(sh.Groups/max(gx, 1), L3CeilDiv(m, ty)), 1)
}

// gerOnDevice enqueues A += alpha·x·yᵀ for the dense m×n A (lda), skipping
// the rows whose alpha·x(r) is zero when skipZero: work-groups of
// gemvTShape, a work-item per L1_VW columns, enough row slices to fill the
// device.
func gerOnDevice[T Real](c *Call, m, n int, alpha T, skipZero bool, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int, a *cl.Buffer, lda int) {
	sh, tx, ty, gx, more := rankShape[T](c, n)
	rows := rankRows(c, sh, gx, m, ty)
	c.Run(gemvKernel(c, "ger_rows", tx, ty, more...), []int{gx * tx, rows * ty}, []int{tx, ty},
		int32(m), int32(n), alpha, l2bool(skipZero), x, int32(offX), int32(incX), y, int32(offY), int32(incY),
		a, int32(lda), l2bool(lda%sh.Vec == 0))
}

// zgerOnDevice enqueues the complex A += alpha·x·yᵀ (geru) or alpha·x·yᴴ
// (gerc, conj) for the dense m×n A (lda, in complex elements), as
// gerOnDevice does the real update: zger_rows on ger_rows' launch shape
// (the Engine's Ger unroll sets its ZGR_U), a work-item per
// max(L1_VW, 2)/2 columns.
func zgerOnDevice[R Real](c *Call, conj bool, m, n int, are, aim R, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int, a *cl.Buffer, lda int) {
	sh := l1ShapeOf(c)
	tx, ty := gemvTShape(sh, c.E.Prof.LocalMemBytes, ElemSize[R]())
	tx, ty, more := c.E.Ger.launch(tx, ty, "ZGR_U")
	per := max(sh.Vec, 2) / 2
	gx := L3CeilDiv(L3CeilDiv(n, per), tx)
	rows := rankRows(c, sh, gx, m, ty)
	c.Run(gemvKernel(c, "zger_rows", tx, ty, more...), []int{gx * tx, rows * ty}, []int{tx, ty},
		int32(m), int32(n), are, aim, l2bool(conj), x, int32(2*offX), int32(incX), y, int32(2*offY), int32(incY),
		a, int32(2*lda), l2bool(lda%per == 0))
}

// zherOnDevice enqueues the update of the stored triangle of the
// Hermitian n×n A, dense (lda, in complex elements) or packed, by
// alpha·x·xᴴ (alpha real: are) or, with two, alpha·x·yᴴ + conj(alpha)·y·xᴴ,
// gonum's diagonal rule included (packed: with Zhpr's arithmetic):
// zher_rows on syrOnDevice's launch, a work-item per max(L1_VW, 2)/2
// columns.
func zherOnDevice[R Real](c *Call, upper, two, packed bool, n int, are, aim R, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int, a *cl.Buffer, lda int) {
	sh, tx, ty, _, more := rankShape[R](c, n)
	per := max(sh.Vec, 2) / 2
	gx := L3CeilDiv(L3CeilDiv(n, per), tx)
	h := ty * syrRowsPerItem
	if c.E.Ger.RowBlocks > 0 {
		h = ty * c.E.Ger.RowBlocks
	}
	vec := lda%per == 0
	if packed {
		more = append(more, "ZH_PACKED")
		lda, vec = 0, true
	}
	c.Run(gemvKernel(c, "zher_rows", tx, ty, more...), []int{gx * tx, L3CeilDiv(n, h) * ty}, []int{tx, ty},
		l2bool(upper), l2bool(two), int32(n), are, aim, x, int32(2*offX), int32(incX),
		y, int32(2*offY), int32(incY), a, int32(2*lda), l2bool(vec), int32(h))
}

// zgemvNOnDevice enqueues the complex y = alpha·A·x + beta·y for the dense
// m×n A (lda, in complex elements; alpha ≠ 0, beta == 0 assigns): zgemv_n,
// a work-group of the level 1 shape's size per row.
func zgemvNOnDevice[R Real](c *Call, m, n, lda int, a *cl.Buffer, are, aim R, x *cl.Buffer, offX, incX int, bre, bim R, y *cl.Buffer, offY, incY int) {
	sh := l1ShapeOf(c)
	// zgemv_n ignores GT_TX and GT_TY; gemv_n's values keep it in the
	// program gemv_n is built in, not in one compiled for it alone.
	tx, ty := gemvTShape(sh, c.E.Prof.LocalMemBytes, ElemSize[R]())
	ls := sh.Local
	c.Run(gemvKernel(c, "zgemv_n", tx, ty), []int{m * ls}, []int{ls},
		int32(m), int32(n), are, aim, a, int32(2*lda), x, int32(2*offX), int32(incX),
		bre, bim, y, int32(2*offY), int32(incY), cl.Local(2*ElemSize[R]()*ls))
}
