package engine

import (
	"fmt"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

// The blocked triangular solves (kernels/trsv.cl), real and complex: one
// launch of trsv_inv inverts every diagonal sub-block of order ts (and
// copies x into the workspace's right-hand sides), then one launch of
// trsv_blk per launch block of nb = ts·L2SolveLaunch positions solves
// that block in every work-group's local memory (by the inverses) and
// subtracts its part of M·x from the rows it reaches (all the rows below;
// the band's k rows for tbsv); or, with e.L2SolveSplit set, the split
// schedule (svRunSplit), which solves each block once and updates the
// rows below it in a launch of its own; or the flow schedule
// (svRunFlow), one launch in which persistent work-groups take the
// sub-blocks in order and each waits for the x of the earlier ones it
// needs, published by other groups, instead of a launch boundary per
// block: by default on NVIDIA's GPUs (svFlow). Every storage (dense,
// band, packed) and orientation takes it, except the real ones on a CPU
// device, which meet no barriers: one work-item's walk (tri_solve_seq),
// or for dense and packed triangles blocks of rows by ticket over every
// core (tri_solve_flow, cpuSolveFlowGroups).

const trsvFile = "trsv.cl"

// svDefaultLaunch is the number of sub-blocks per launch block by default:
// more means fewer launches (each waits for the one before) but more of
// the block solved again by every work-group.
const svDefaultLaunch = 2

// L2SolveBlock is the sub-block order ts of the blocked solves for
// elements of es bytes on e's device: e.L2SolveNB if set (tests), else
// 64, halved until a work-group of ts fits the device and the kernels'
// local memory (a ts×(ts+1) tile and a launch block of x) fits three
// quarters of it.
func L2SolveBlock(e *Engine, es int) int {
	if e.L2SolveNB > 0 {
		return e.L2SolveNB
	}
	ts := 64
	fits := func() bool {
		mem := e.Prof.LocalMemBytes
		return mem <= 0 || int64((ts*(ts+1)+ts*svDefaultLaunch)*es) <= mem*3/4
	}
	for ts > 4 && ((e.Prof.MaxWorkGroupSize > 0 && ts > e.Prof.MaxWorkGroupSize) || !fits()) {
		ts /= 2
	}
	return ts
}

// svLaunch is the number of sub-blocks of order ts per launch block:
// e.L2SolveLaunch if set, else svDefaultLaunch, fewer while x's block
// and the tile do not fit three quarters of the local memory.
func svLaunch(e *Engine, ts, es int) int {
	if e.L2SolveLaunch > 0 {
		return e.L2SolveLaunch
	}
	l := svDefaultLaunch
	for l > 1 && e.Prof.LocalMemBytes > 0 && int64((ts*(ts+1)+ts*l)*es) > e.Prof.LocalMemBytes*3/4 {
		l--
	}
	return l
}

// svGroups is the number of work-groups of a trsv_blk launch whose panel
// has tiles row tiles: one per tile, at most e.L2SolveGroups if set, else
// twice the compute units (each also solves the launch block again).
func svGroups(e *Engine, tiles int) int {
	most := e.L2SolveGroups
	if most <= 0 {
		most = 2 * max(1, e.Prof.ComputeUnits)
	}
	return max(1, min(tiles, most))
}

// svSolve is one blocked solve's operands: M = op(A) with A n×n triangular
// of band width k (dense and packed: n−1) in the given storage; trans is
// 0 (A), 1 (Aᵀ) or 2 (Aᴴ); es is the element's size in bytes and cplx
// says the elements are complex.
type svSolve struct {
	storage, trans int
	upper, unit    bool
	n, k, lda      int
	es             int
	cplx           bool
}

// trsvBlockedOnDevice enqueues the in-place solve M·x = b of s (the
// caller checked the sizes fit 32 bits); R is the real type of the
// elements (the call's precision).
func trsvBlockedOnDevice[R Real](c *Call, s svSolve, a *cl.Buffer, x *cl.Buffer, offX, incX int) {
	ts := L2SolveBlock(c.E, s.es)
	nb := svSplit(c.E, ts, s.es)
	split := nb > 0
	flow := !split && svFlow(c.E)
	if flow && c.E.L2SolveNB <= 0 {
		ts = min(ts, svFlowBlock)
	}
	if !split {
		nb = ts * svLaunch(c.E, ts, s.es)
	}
	defs := []string{fmt.Sprintf("TS=%d", ts), fmt.Sprintf("NB=%d", nb)}
	if flow && svPTX(c.E.Prof) {
		defs = append(defs, "SV_PTX")
	}
	parts := 1
	if s.cplx {
		defs = append(defs, "SV_CPLX")
		parts = 2
	}
	n := s.n
	nsb := L3CeilDiv(n, ts)
	w := Alloc[R](c, parts*(nsb*ts+nsb*ts*ts+nsb))
	desc := []any{int32(s.storage), l2bool(s.upper), int32(s.trans), l2bool(s.unit), int32(n), int32(s.k), a, int32(s.lda)}
	// The flow schedule's flags, zeroed by trsv_inv (the others pass w
	// and no flags).
	sync, nsync := w, 0
	if flow {
		nsync = svFlowFlags + nsb
		sync = Alloc[float32](c, nsync) // int32 flags: any 4-byte element
	}
	c.Run(c.Kernel(trsvFile, "trsv_inv", defs...), []int{nsb * ts}, []int{ts},
		append(desc, x, int64(offX), int32(incX), w, sync, int32(nsync), cl.Local(ts*(ts+1)*s.es), cl.Local(4))...)
	switch {
	case split:
		svRunSplit(c, s, defs, ts, nb, desc, x, offX, incX, w)
		return
	case flow:
		svRunFlow(c, s, defs, ts, desc, x, offX, incX, w, Alloc[R](c, parts*nsb*ts), sync)
		return
	}
	k := c.Kernel(trsvFile, "trsv_blk", defs...)
	for q1 := 0; q1 < n; q1 += nb {
		bw := min(nb, n-q1)
		pend := min(n, q1+bw+s.k)
		g := svGroups(c.E, L3CeilDiv(pend-q1-bw, ts))
		c.Run(k, []int{g * ts}, []int{ts}, append(desc, x, int64(offX), int32(incX), w, int32(q1), int32(pend),
			cl.Local(ts*(ts+1)*s.es), cl.Local(nb*s.es), cl.Local(4))...)
	}
}

// svSplit is the launch block of the split schedule for elements of es
// bytes and sub-blocks of order ts, or 0 when e does not ask for it
// (e.L2SolveSplit = 0): e.L2SolveSplit rounded down to a multiple of ts,
// at least ts, and fewer sub-blocks while the tile, x's block and a flag
// do not fit the local memory. Its kernels keep nothing else there, so
// the whole of it is theirs (the other schedule keeps a quarter spare).
func svSplit(e *Engine, ts, es int) int {
	if e.L2SolveSplit <= 0 {
		return 0
	}
	nb := max(ts, e.L2SolveSplit/ts*ts)
	for nb > ts && e.Prof.LocalMemBytes > 0 && int64((ts*(ts+1)+nb)*es+4) > e.Prof.LocalMemBytes {
		nb -= ts
	}
	return nb
}

// svRunSplit enqueues the split schedule's launches after trsv_inv's
// (desc and w as trsvBlockedOnDevice's): per launch block of nb
// positions, svSolveKernel's kernel solves it once and stores its x, then
// trsv_upd subtracts its part of M·x from the rows it reaches, a
// work-group per tile of ts rows (at most e.L2SolveGroups if set): the
// GEMV-shaped bulk of the work, as wide as those rows.
func svRunSplit(c *Call, s svSolve, defs []string, ts, nb int, desc []any, x *cl.Buffer, offX, incX int, w *cl.Buffer) {
	upd := c.Kernel(trsvFile, "trsv_upd", defs...)
	tile, xb := cl.Local(ts*(ts+1)*s.es), cl.Local(nb*s.es)
	c.E.L2SplitSolves.Add(1)
	blk, wide := svSolveKernel(c, defs, nb)
	for q1 := 0; q1 < s.n; q1 += nb {
		bw := min(nb, s.n-q1)
		if wide {
			c.Run(blk, []int{nb}, []int{nb}, append(desc, x, int64(offX), int32(incX), w, int32(q1), xb, cl.Local(4))...)
		} else {
			c.Run(blk, []int{ts}, []int{ts}, append(desc, x, int64(offX), int32(incX), w, int32(q1), int32(q1+bw),
				tile, xb, cl.Local(4))...)
		}
		pend := min(s.n, q1+bw+s.k)
		if pend == q1+bw {
			continue
		}
		g := L3CeilDiv(pend-q1-bw, ts)
		if c.E.L2SolveGroups > 0 {
			g = min(g, c.E.L2SolveGroups)
		}
		c.Run(upd, []int{g * ts}, []int{ts}, append(desc, x, int64(offX), int32(incX), w, int32(q1), int32(pend),
			tile, xb)...)
	}
}

// svWideSolve reports whether the split schedule solves its launch blocks
// of nb positions on trsv_sol (a work-item per position) on e's device:
// its work-groups must hold nb work-items, and it must not be a CPU
// device, whose compiler (PoCL 3.1) gave wrong solves from trsv_sol's
// guarded stores between barriers, which Oclgrind runs right.
func svWideSolve(e *Engine, nb int) bool {
	return !e.Prof.IsCPU() && (e.Prof.MaxWorkGroupSize <= 0 || nb <= e.Prof.MaxWorkGroupSize)
}

// svSolveKernel is the split schedule's solve kernel for launch blocks of
// nb positions: trsv_sol (wide) where svWideSolve allows it and its build
// takes work-groups of nb (its registers permitting), else trsv_blk.
func svSolveKernel(c *Call, defs []string, nb int) (k *cl.Kernel, wide bool) {
	if svWideSolve(c.E, nb) {
		k = c.Kernel(trsvFile, "trsv_sol", defs...)
		if k == nil {
			return nil, true // c.Err is set: nothing runs
		}
		info, err := k.WorkGroupInfo(c.E.RT.Device().CL())
		if err != nil || info.WorkGroupSize <= 0 || info.WorkGroupSize >= nb {
			return k, true
		}
	}
	return c.Kernel(trsvFile, "trsv_blk", defs...), false
}

// solve is the blocked solve of the n×n triangular descriptor d; trans is
// op(A)'s code when d.trans (1: Aᵀ, 2: Aᴴ).
func (d L2Mat) solve(n, trans, es int) svSolve {
	tr := 0
	if d.trans {
		tr = max(trans, 1)
	}
	return svSolve{storage: d.storage, trans: tr, upper: d.upper, unit: d.unit, n: n, k: d.kl, lda: d.Lda, es: es}
}

// SolveFlow is Engine.L2SolveFlow's choice of the flow schedule.
type SolveFlow int

const (
	SolveFlowAuto SolveFlow = iota // on NVIDIA's GPUs (svFlow)
	SolveFlowOn
	SolveFlowOff
)

// svFlowBlock is the largest sub-block order of the flow schedule (unless
// e.L2SolveNB sets it): a sub-block's solve is one step of the chain every
// group waits on, and one of 64 positions, a work-item holding a row of
// its inverse, took longer than two of 32 on the H200 (BENCHMARKS.md,
// "Triangular solves in one launch").
const svFlowBlock = 32

// svFlowFlags is the number of int32 flags of a flow solve before its
// sub-blocks' done flags: the failure flag and the ticket counter
// (SV_FAIL, SV_TICKET in kernels/trsv.cl).
const svFlowFlags = 2

// svFlowSpin is how many times a flow work-group polls a done flag before
// the launch gives up: far longer than a wait for a group that runs takes
// (a few sub-blocks' tiles), and the bound that keeps a device which does
// not run the launch's groups alongside each other from hanging. Then the
// rescue launch solves it again.
const svFlowSpin = 1 << 22

// svFlow reports whether the blocked solves on e's device take the flow
// schedule: as e.L2SolveFlow says, by default only on NVIDIA's GPUs, where
// a work-group's stores were seen to reach the others through the flags
// it sets (getrf_grid's probe and tests in lapack). On PoCL's CPU device
// the LU grid kernel's groups read wrong values from each other now and
// then, unexplained, so CPU devices keep the launch-per-block schedule.
func svFlow(e *Engine) bool {
	switch e.L2SolveFlow {
	case SolveFlowOn:
		return true
	case SolveFlowOff:
		return false
	}
	return e.Prof.IsGPU() && e.Prof.Vendor == platform.VendorNVIDIA
}

// svPTX reports whether trsv_flow's done flags on a device of profile p
// are PTX's acquire loads and release stores (SV_PTX in kernels/trsv.cl):
// on NVIDIA's GPUs of compute capability 7.0 and up, whose PTX has them
// and whose OpenCL compiler takes inline PTX (as gemm_mma.cl's tensor-core
// tiles do). Elsewhere the flags are a volatile load, and a fence and an
// atomic exchange.
func svPTX(p platform.Profile) bool {
	return p.IsGPU() && p.Vendor == platform.VendorNVIDIA && p.ComputeCapability[0] >= 7
}

// svFlowGroups is the number of work-groups of a flow launch of nsb
// sub-blocks: one per sub-block, at most e.L2SolveGroups if set, else
// twice the compute units (a group solves sub-blocks until none is left,
// so any number solves them all).
func svFlowGroups(e *Engine, nsb int) int {
	most := e.L2SolveGroups
	if most <= 0 {
		most = 2 * max(1, e.Prof.ComputeUnits)
	}
	return max(1, min(nsb, most))
}

// svRunFlow enqueues the flow schedule after trsv_inv (desc and w as
// trsvBlockedOnDevice's; xp, nsb·ts elements, receives the solved
// sub-blocks, sync the flags trsv_inv zeroed): trsv_flow on
// svFlowGroups work-groups, each taking the next sub-block, waiting for
// the earlier ones its rows reach to be published, solving it and
// publishing it; then, always, trsv_flow's rescue on one work-group,
// which solves everything again from the untouched right-hand sides if a
// wait gave up, and else does nothing. So a device that does not run the
// groups alongside each other costs time, never a wrong answer, and the
// host waits for nothing.
func svRunFlow(c *Call, s svSolve, defs []string, ts int, desc []any, x *cl.Buffer, offX, incX int, w, xp, sync *cl.Buffer) {
	c.E.L2FlowSolves.Add(1)
	k := c.Kernel(trsvFile, "trsv_flow", defs...)
	spin := svFlowSpin
	if c.E.L2SolveFlowSpin > 0 {
		spin = c.E.L2SolveFlowSpin
	}
	args := func(rescue int32) []any {
		return append(desc, x, int64(offX), int32(incX), w, xp, sync, int32(spin), int32(c.E.L2SolveFlowPoison), rescue,
			cl.Local(ts*(ts+1)*s.es), cl.Local(ts*s.es), cl.Local(3*4))
	}
	g := svFlowGroups(c.E, L3CeilDiv(s.n, ts))
	c.Run(k, []int{g * ts}, []int{ts}, args(0)...)
	c.Run(k, []int{ts}, []int{ts}, args(1)...)
}
