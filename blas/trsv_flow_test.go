package clblas

import (
	"fmt"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/blas/gonum"

	eng "github.com/gocompute/opencl/internal/engine"
)

// TestTrsvBlockedFlow runs the triangular solves on the flow schedule
// (Engine.L2SolveFlow forced on: trsv_flow's work-groups take the
// sub-blocks by ticket and wait for the ones before) against gonum, with
// sub-blocks of 4 and 8 so that n = 45 takes several and a short last
// one, on 1, 2, 3 and many work-groups (one per sub-block): every storage,
// triangle, transpose (ConjTrans for complex) and diagonal, bands
// narrower and wider than a sub-block, increments ±1 and ±3, real and
// complex; and TestTrsvBlockedNonFinite's zero diagonals, Inf and NaN.
func TestTrsvBlockedFlow(t *testing.T) {
	impl, e := privateImpl(t, nil)
	gpuKernels(e)
	e.L2SolveFlow = eng.SolveFlowOn
	defer func() { e.L2SolveNB, e.L2SolveGroups, e.L2SolveFlow = 0, 0, eng.SolveFlowAuto }()
	for _, sh := range [][2]int{{4, 1}, {4, 2}, {4, 3}, {4, 64}, {8, 1}, {8, 3}, {8, 64}} {
		e.L2SolveNB, e.L2SolveGroups = sh[0], sh[1]
		name := fmt.Sprintf("ts=%d/groups=%d", sh[0], sh[1])
		trsvScheduleRun(t, impl, e, name, sh[0] == 4 && sh[1] == 3, "flow", &e.L2FlowSolves)
	}
}

// TestTrsvFlowRescue makes the flow launch fail and checks that the
// rescue launch after it gives gonum's answers: at the first sub-block
// (the flow solves nothing, the rescue everything), at the fourth (some
// sub-blocks published first, later ones waiting on a group that stopped),
// and with waits of one poll on many groups (they give up or not, as the
// groups happen to run).
func TestTrsvFlowRescue(t *testing.T) {
	impl, e := privateImpl(t, nil)
	gpuKernels(e)
	e.L2SolveFlow, e.L2SolveNB = eng.SolveFlowOn, 4
	defer func() {
		e.L2SolveNB, e.L2SolveGroups, e.L2SolveFlow, e.L2SolveFlowPoison, e.L2SolveFlowSpin = 0, 0, eng.SolveFlowAuto, 0, 0
	}()
	for _, c := range []struct{ groups, poison, spin int }{{1, 1, 0}, {3, 1, 0}, {1, 4, 0}, {3, 4, 0}, {64, 0, 1}} {
		e.L2SolveGroups, e.L2SolveFlowPoison, e.L2SolveFlowSpin = c.groups, c.poison, c.spin
		name := fmt.Sprintf("groups=%d/poison=%d/spin=%d", c.groups, c.poison, c.spin)
		trsvScheduleRun(t, impl, e, name, c.poison == 1, "flow", &e.L2FlowSolves)
	}
}

// TestTrsvFlowLarge runs the flow schedule at the device's own
// sub-block order on n = 1100, non-unit diagonals, against gonum: on the
// default number of work-groups (a group per sub-block, as a GPU takes
// it) and on 3, which wait for each other far more.
func TestTrsvFlowLarge(t *testing.T) {
	impl, e := privateImpl(t, nil)
	gpuKernels(e)
	e.L2SolveFlow = eng.SolveFlowOn
	defer func() { e.L2SolveGroups, e.L2SolveFlow = 0, eng.SolveFlowAuto }()
	before := e.L2FlowSolves.Load()
	for _, groups := range []int{0, 3} {
		e.L2SolveGroups = groups
		trsvLargeRun(t, impl, fmt.Sprintf("groups=%d", groups))
	}
	if e.L2FlowSolves.Load() == before {
		t.Error("no solve took the flow schedule")
	}
}

// trsvScheduleRun runs the solves of TestTrsvBlockedSplit on e's
// current schedule (and the non-finite cases too if nonFinite) as
// subtests under name, and checks that they took the schedule whose
// solves solves counts.
func trsvScheduleRun(t *testing.T, impl *Implementation, e *eng.Engine, name string, nonFinite bool, schedule string, solves *atomic.Int64) {
	before := solves.Load()
	ran := false
	run := func(sub string, f func(t *testing.T)) {
		t.Run(name+"/"+sub, func(t *testing.T) {
			ran = true
			f(t)
		})
	}
	if e.Prof.FP64 {
		run("float64", func(t *testing.T) {
			trsvSplitRun(t, l2ops64(impl), l2ops64(gonum.Implementation{}), 1e-12, 45, []int{2, 5, 17, 44}, l2diags)
		})
		run("complex128", func(t *testing.T) {
			trsvCxRun(t, impl, gonum.Implementation{}, 1e-12, []int{1, -1, 3, -3})
		})
	}
	run("float32", func(t *testing.T) {
		trsvSplitRun(t, l2ops32(impl), l2ops32(gonum.Implementation{}), 2e-4, 45, []int{2, 5, 17, 44}, l2diags)
	})
	run("complex64", func(t *testing.T) {
		trsvCxRun(t, c64(impl), c64(gonum.Implementation{}), 2e-4, []int{1, -1, 3, -3})
	})
	if nonFinite {
		run("nonfinite", func(t *testing.T) { trsvNonFiniteRun(t, impl, e) })
	}
	if ran && solves.Load() == before {
		t.Errorf("%s: no solve took the %s schedule", name, schedule)
	}
}
