package engine

import (
	"fmt"

	"github.com/gocompute/opencl/cl"
)

// The blocked triangular solves (kernels/trsv.cl): M·x = b in ⌈n/nb⌉
// launches of trsv_step, each the GEMV-shaped update of the rows a solved
// block reaches (all the rows below it; the band's k rows for tbsv) and
// the solve of the next diagonal block in one work-group's local memory.
// Every storage (dense, band, packed) and orientation takes it, except
// dense and packed on a CPU device, whose single work-item walk
// (tri_solve_seq) meets no barriers.

const trsvFile = "trsv.cl"

// L2SolveBlock is the block order nb of the blocked solves for elements of
// es bytes on e's device: e.L2SolveNB if set (tests), else 64, halved
// until a work-group of nb fits the device and the kernel's local memory
// (an nb×(nb+1) tile and nb elements of x) fits three quarters of it.
func L2SolveBlock(e *Engine, es int) int {
	if e.L2SolveNB > 0 {
		return e.L2SolveNB
	}
	nb := 64
	fits := func() bool {
		mem := e.Prof.LocalMemBytes
		return mem <= 0 || int64(nb*(nb+2)*es) <= mem*3/4
	}
	for nb > 4 && ((e.Prof.MaxWorkGroupSize > 0 && nb > e.Prof.MaxWorkGroupSize) || !fits()) {
		nb /= 2
	}
	return nb
}

// trsvBlockedOnDevice enqueues the in-place solve M·x = b for the n×n
// triangular descriptor d stored in a (the caller checked the sizes fit
// 32 bits).
func trsvBlockedOnDevice[T Real](c *Call, d L2Mat, a *cl.Buffer, n int, x *cl.Buffer, offX, incX int) {
	nb := L2SolveBlock(c.E, ElemSize[T]())
	k := c.Kernel(trsvFile, "trsv_step", fmt.Sprintf("TS=%d", nb))
	band := d.kl
	for q1 := 0; q1 < n; q1 += nb {
		q0, pend := q1, q1
		if q1 > 0 {
			// The rows the block [q1−nb, q1) reaches: up to k past its
			// last row.
			q0, pend = q1-nb, min(n, q1-1+band+1)
		}
		groups := 1 + max(0, L3CeilDiv(pend-q1-nb, nb))
		c.Run(k, []int{groups * nb}, []int{nb},
			int32(d.storage), l2bool(d.upper), l2bool(d.trans), l2bool(d.unit), int32(n), int32(band), a, int32(d.Lda),
			x, int32(offX), int32(incX), int32(q0), int32(q1), int32(pend))
	}
}
