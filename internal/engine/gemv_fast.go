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

const gemvFile = "gemv.cl"

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

// gemvKernel is kernel k of gemv.cl for c's shape.
func gemvKernel(c *Call, k string, tx, ty int) *cl.Kernel {
	defs := append(l1ShapeOf(c).Defines(), fmt.Sprintf("GT_TX=%d", tx), fmt.Sprintf("GT_TY=%d", ty))
	return c.Kernel(gemvFile, k, defs...)
}

// gemvOnDevice enqueues y = alpha·op(A)·x + beta·y for the dense general
// m×n A of descriptor d (alpha ≠ 0; beta == 0 assigns).
func gemvOnDevice[T Real](c *Call, d L2Mat, a *cl.Buffer, alpha T, x *cl.Buffer, offX, incX int, beta T, y *cl.Buffer, offY, incY int) {
	sh := l1ShapeOf(c)
	es := ElemSize[T]()
	tx, ty := gemvTShape(sh, c.E.Prof.LocalMemBytes, es)
	m, n := d.m, d.n
	if !d.trans {
		ls := sh.Local
		var z T
		c.Run(gemvKernel(c, "gemv_n", tx, ty), []int{m * ls}, []int{ls},
			int32(m), int32(n), alpha, a, int32(d.Lda), x, int32(offX), int32(incX), beta, y, int32(offY), int32(incY), LocalBytes(ls, z))
		return
	}
	gx := L3CeilDiv(n, tx*sh.Vec)
	// Row blocks: enough groups to fill the device, each row slice at
	// least 8 rows long.
	nb := max(min(sh.Groups/max(gx, 1), L3CeilDiv(m, 8*ty)), 1)
	rpb := L3CeilDiv(m, nb)
	nb = max(L3CeilDiv(m, rpb), 1)
	part := Alloc[T](c, nb*n)
	vec := l2bool(d.Lda%sh.Vec == 0)
	c.Run(gemvKernel(c, "gemv_t_part", tx, ty), []int{gx * tx, nb * ty}, []int{tx, ty},
		int32(m), int32(n), int32(rpb), a, int32(d.Lda), x, int32(offX), int32(incX), part, vec)
	c.Run(gemvKernel(c, "gemv_t_fin", tx, ty), []int{Groups(n, 64)}, []int{64},
		int32(m), int32(n), int32(nb), alpha, part, beta, y, int32(offY), int32(incY))
}

// gerOnDevice enqueues A += alpha·x·yᵀ for the dense m×n A (lda), skipping
// the rows whose alpha·x(r) is zero when skipZero: work-groups of
// gemvTShape, a work-item per L1_VW columns, enough row slices to fill the
// device.
func gerOnDevice[T Real](c *Call, m, n int, alpha T, skipZero bool, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int, a *cl.Buffer, lda int) {
	sh := l1ShapeOf(c)
	tx, ty := gemvTShape(sh, c.E.Prof.LocalMemBytes, ElemSize[T]())
	gx := L3CeilDiv(L3CeilDiv(n, sh.Vec), tx)
	rows := max(min(sh.Groups/max(gx, 1), L3CeilDiv(m, ty)), 1)
	c.Run(gemvKernel(c, "ger_rows", tx, ty), []int{gx * tx, rows * ty}, []int{tx, ty},
		int32(m), int32(n), alpha, l2bool(skipZero), x, int32(offX), int32(incX), y, int32(offY), int32(incY),
		a, int32(lda), l2bool(lda%sh.Vec == 0))
}
