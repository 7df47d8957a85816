package clblas

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	eng "github.com/gocompute/opencl/internal/engine"
)

// TestTriSolveFlowCPU runs a CPU device's dense and packed triangular
// solves spread over work-items (level2.cl's tri_solve_flow: blocks of 64
// rows with A, of 256 to 512 columns with Aᵀ, by ticket, each waiting
// for the x of the blocks before it) against gonum, on 1, 2, 3 and the
// default number of work-items, in the narrow blocks with Aᵀ that
// cpuFlowRun sets, and on tri_solve_seq's single one (the flow off):
// n = 45 (one short block), 130, 200 and 1100 (whole blocks and a short
// last one), every triangle, transpose and diagonal, increments ±1 and
// ±3 (bands stay on tri_solve_seq); and zero diagonals, Inf and NaN past
// the first block.
func TestTriSolveFlowCPU(t *testing.T) {
	impl, e := privateImpl(t, nil)
	if !eng.L2OnCPU(&eng.Call{E: e}) {
		t.Skipf("tri_solve_flow runs on CPU devices only, not on %s", e.Prof.Name)
	}
	cpuFlowRun(t, e, "tri_solve_flow", func(name string, groups int) {
		ran := deviceCalls(t, e, "Strsv", "Stpsv")
		if e.Prof.FP64 {
			ran = deviceCalls(t, e, "Strsv", "Stpsv", "Dtrsv", "Dtpsv")
		}
		for _, n := range []int{45, 130, 200} {
			ks := []int{2, 70}
			if e.Prof.FP64 {
				t.Run(fmt.Sprintf("%s/n=%d/float64", name, n), func(t *testing.T) {
					trsvSplitRun(t, l2ops64(impl), l2ops64(gonum.Implementation{}), 1e-12, n, ks, l2diags)
				})
			}
			t.Run(fmt.Sprintf("%s/n=%d/float32", name, n), func(t *testing.T) {
				trsvSplitRun(t, l2ops32(impl), l2ops32(gonum.Implementation{}), 2e-4, n, ks, l2diags)
			})
		}
		if groups != 1 {
			trsvLargeRun(t, impl, name+"/n=1100")
		}
		t.Run(name+"/nonfinite", func(t *testing.T) { trsvFlowNonFinite(t, impl) })
		ran()
	})
}

// cpuFlowRun runs body once for each setting of a CPU device's flow solves
// (kernel: tri_solve_flow or ztri_solve_flow): off, and on with 1, 2, 3
// and the default number of work-groups (0), and with 2 and the default
// in blocks of 42 and 24 with op(A) = Aᵀ or Aᴴ (Engine.FlowBlockT: the
// default's blocks of 256 columns or more leave solves of that order or
// less to one work-item, and these widths end their blocks in every way
// the kernels' passes of eight and four rows can); after each it
// checks that the flow ran where it should (on, on more than one
// work-group) and only there.
func cpuFlowRun(t *testing.T, e *eng.Engine, kernel string, body func(name string, groups int)) {
	defer func() { e.L2SolveGroups, e.L2SolveFlow, e.FlowBlockT = 0, eng.SolveFlowAuto, 0 }()
	for _, c := range []struct {
		flow          eng.SolveFlow
		groups, block int
	}{
		{eng.SolveFlowOff, 0, 0}, {eng.SolveFlowOn, 1, 0}, {eng.SolveFlowOn, 2, 0}, {eng.SolveFlowOn, 3, 0},
		{eng.SolveFlowOn, 0, 0}, {eng.SolveFlowOn, 2, 42}, {eng.SolveFlowOn, 0, 24},
	} {
		e.L2SolveFlow, e.L2SolveGroups, e.FlowBlockT = c.flow, c.groups, c.block
		name := fmt.Sprintf("flow=%d/groups=%d/blockT=%d", c.flow, c.groups, c.block)
		before := e.L2FlowSolves.Load()
		body(name, c.groups)
		flowed := e.L2FlowSolves.Load() > before
		if want := c.flow == eng.SolveFlowOn && c.groups != 1; flowed != want {
			t.Errorf("%s: %s ran: %v, want %v", name, kernel, flowed, want)
		}
	}
}

// flowNonFiniteCases are the special values trsvFlowNonFinite and
// ztrsvFlowNonFinite plant in blocks after the first: at is the element
// of A set (row ≥ column), or b's at[0] when at[1] < 0.
var flowNonFiniteCases = []struct {
	name string
	at   [2]int
	v    float64
}{
	{"zero diagonal", [2]int{100, 100}, 0},
	{"Inf in A", [2]int{120, 20}, math.Inf(1)},
	{"NaN in A", [2]int{140, 70}, math.NaN()},
	{"Inf in b", [2]int{80, -1}, math.Inf(-1)},
	{"NaN in b", [2]int{130, -1}, math.NaN()},
}

// flowNonFiniteOperands is the order-150 system of trsvFlowNonFinite for
// triangle ul with case c's value planted: A dense (lda = n) and packed,
// and b.
func flowNonFiniteOperands(ul blas.Uplo, at [2]int, v float64) (n int, a, ap, b []float64) {
	n = 150
	a = make([]float64, n*n)
	for i := range n {
		for j := range n {
			if (ul == blas.Upper) != (j >= i) && j != i {
				continue
			}
			e := (float64((i*7+j*3)%11)/22 - 0.25) / 16
			if i == j {
				e = 2 + float64(i%5)/4
			}
			r, col := at[0], at[1]
			if ul == blas.Upper {
				r, col = col, r
			}
			if at[1] >= 0 && i == r && j == col {
				e = v
			}
			a[i*n+j] = e
			ap = append(ap, e)
		}
	}
	b = make([]float64, n)
	for i := range b {
		b[i] = 0.5 + float64(i%7)/7
	}
	if at[1] < 0 {
		b[at[0]] = v
	}
	return n, a, ap, b
}

// trsvFlowNonFinite checks Dtrsv and Dtpsv (Strsv and Stpsv without
// float64) of order 150 against gonum's class of every result (NaN, ±Inf,
// finite) with a zero diagonal, an Inf or a NaN in A or b, in blocks after
// the first.
func trsvFlowNonFinite(t *testing.T, impl *Implementation) {
	for _, c := range flowNonFiniteCases {
		for _, ul := range l2uplos {
			for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				n, a, ap, b := flowNonFiniteOperands(ul, c.at, c.v)
				desc := fmt.Sprintf("%s ul=%c tA=%c", c.name, ul, tA)
				if _, fp64 := openclDevice[float64](impl); !fp64 {
					g, w := f32s(b), f32s(b)
					impl.Strsv(ul, tA, blas.NonUnit, n, f32s(a), n, g, 1)
					gonum.Implementation{}.Strsv(ul, tA, blas.NonUnit, n, f32s(a), n, w, 1)
					sameClass(t, "Strsv "+desc, f64s(g), f64s(w))
					g, w = f32s(b), f32s(b)
					impl.Stpsv(ul, tA, blas.NonUnit, n, f32s(ap), g, 1)
					gonum.Implementation{}.Stpsv(ul, tA, blas.NonUnit, n, f32s(ap), w, 1)
					sameClass(t, "Stpsv "+desc, f64s(g), f64s(w))
					continue
				}
				g, w := append([]float64(nil), b...), append([]float64(nil), b...)
				impl.Dtrsv(ul, tA, blas.NonUnit, n, a, n, g, 1)
				gonum.Implementation{}.Dtrsv(ul, tA, blas.NonUnit, n, a, n, w, 1)
				sameClass(t, "Dtrsv "+desc, g, w)
				g, w = append(g[:0], b...), append(w[:0], b...)
				impl.Dtpsv(ul, tA, blas.NonUnit, n, ap, g, 1)
				gonum.Implementation{}.Dtpsv(ul, tA, blas.NonUnit, n, ap, w, 1)
				sameClass(t, "Dtpsv "+desc, g, w)
			}
		}
	}
}

// ztrsvFlowNonFinite is trsvFlowNonFinite for Ztrsv and Ztpsv (Ctrsv and
// Ctpsv without float64), every transpose: A's elements v become
// v + iv/3 and b's v − iv/2, and the classes of both parts are checked.
func ztrsvFlowNonFinite(t *testing.T, impl *Implementation) {
	_, fp64 := openclDevice[float64](impl)
	solver := cxSolver(impl)
	want := cxSolver(gonum.Implementation{})
	if !fp64 {
		solver, want = c64(impl), c64(gonum.Implementation{})
	}
	cx := func(v []float64, im float64) []complex128 {
		out := make([]complex128, len(v))
		for i, e := range v {
			out[i] = complex(e, e*im)
		}
		return out
	}
	parts := func(v []complex128) (re, im []float64) {
		for _, z := range v {
			re, im = append(re, real(z)), append(im, imag(z))
		}
		return re, im
	}
	same := func(name string, g, w []complex128) {
		t.Helper()
		gr, gi := parts(g)
		wr, wi := parts(w)
		sameClass(t, name+" (real part)", gr, wr)
		sameClass(t, name+" (imaginary part)", gi, wi)
	}
	for _, c := range flowNonFiniteCases {
		for _, ul := range l2uplos {
			for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans} {
				n, a, ap, b := flowNonFiniteOperands(ul, c.at, c.v)
				za, zap, zb := cx(a, 1.0/3), cx(ap, 1.0/3), cx(b, -0.5)
				desc := fmt.Sprintf("%s ul=%c tA=%c", c.name, ul, tA)
				g, w := slices.Clone(zb), slices.Clone(zb)
				solver.Ztrsv(ul, tA, blas.NonUnit, n, za, n, g, 1)
				want.Ztrsv(ul, tA, blas.NonUnit, n, za, n, w, 1)
				same("Ztrsv "+desc, g, w)
				g, w = slices.Clone(zb), slices.Clone(zb)
				solver.Ztpsv(ul, tA, blas.NonUnit, n, zap, g, 1)
				want.Ztpsv(ul, tA, blas.NonUnit, n, zap, w, 1)
				same("Ztpsv "+desc, g, w)
			}
		}
	}
}

// TestZtriSolveCPU runs a CPU device's complex triangular solves against
// gonum: on one work-item walking A's stored rows (complex_level2.cl's
// ztri_solve_seq, the flow off), and dense and packed spread over 1, 2, 3
// and the default number of work-items (ztri_solve_flow: blocks of 32
// rows by ticket; bands stay on one work-item). Ztrsv, Ztbsv and Ztpsv
// and their complex64 twins over every triangle, transpose (ConjTrans
// included) and diagonal, dense, band and packed, increments ±1 and ±3,
// n = 45 (one short block) and 130 (whole blocks and a short last one;
// with Aᵀ and Aᴴ in the narrow blocks cpuFlowRun sets, and at n = 600 in
// the default's); and zero diagonals, Inf and NaN in blocks after the
// first.
func TestZtriSolveCPU(t *testing.T) {
	impl, e := privateImpl(t, nil)
	if !eng.L2OnCPU(&eng.Call{E: e}) {
		t.Skipf("ztri_solve_seq and ztri_solve_flow run on CPU devices only, not on %s", e.Prof.Name)
	}
	incs := []int{1, -1, 3, -3}
	cpuFlowRun(t, e, "ztri_solve_flow", func(name string, groups int) {
		ran := deviceCalls(t, e, "Ctrsv", "Ctbsv", "Ctpsv")
		if e.Prof.FP64 {
			ran = deviceCalls(t, e, "Ztrsv", "Ztbsv", "Ztpsv", "Ctrsv", "Ctbsv", "Ctpsv")
		}
		ns := []int{45, 130}
		if e.L2SolveFlow == eng.SolveFlowOn && groups == 0 && e.FlowBlockT == 0 {
			// Whole blocks of the default width with Aᵀ and Aᴴ, and a
			// short last one.
			ns = append(ns, 600)
		}
		for _, n := range ns {
			if e.Prof.FP64 {
				t.Run(fmt.Sprintf("%s/n=%d/complex128", name, n), func(t *testing.T) {
					trsvCxRunN(t, impl, gonum.Implementation{}, 1e-12, n, incs)
				})
			}
			t.Run(fmt.Sprintf("%s/n=%d/complex64", name, n), func(t *testing.T) {
				trsvCxRunN(t, c64(impl), c64(gonum.Implementation{}), 2e-4, n, incs)
			})
		}
		t.Run(name+"/nonfinite", func(t *testing.T) {
			trsvNonFiniteRun(t, impl, e)
			ztrsvFlowNonFinite(t, impl)
		})
		ran()
	})
}

// TestZtriSolveFlowDefault checks which complex solves a CPU device whose
// level 1 shape sets OneLaunchL2 (PoCL's) spreads over its cores by
// default (cpuSolveFlowGroups) at n = 600, two blocks or more with A and
// with Aᴴ: dense and packed triangles, in both precisions; not bands.
func TestZtriSolveFlowDefault(t *testing.T) {
	impl, e := flowDefaultImpl(t)
	const n, k = 600, 5
	r := rand.New(rand.NewPCG(3, 5))
	a := diagDominant(n, func() complex128 { return complex(r.Float64(), r.Float64()) / n })
	b := make([]complex128, n)
	for i := range b {
		b[i] = complex(r.Float64(), 1)
	}
	z := cxSolver(impl)
	c := c64(impl)
	for _, s := range []struct {
		routine string // as Engine.Launched counts it
		tA      blas.Transpose
		solve   func(tA blas.Transpose, x []complex128)
		flow    bool
	}{
		{"Ztrsv", blas.NoTrans, func(tA blas.Transpose, x []complex128) { z.Ztrsv(blas.Lower, tA, blas.NonUnit, n, a, n, x, 1) }, true},
		{"Ztrsv", blas.ConjTrans, func(tA blas.Transpose, x []complex128) { z.Ztrsv(blas.Lower, tA, blas.NonUnit, n, a, n, x, 1) }, true},
		{"Ztpsv", blas.NoTrans, func(tA blas.Transpose, x []complex128) { z.Ztpsv(blas.Lower, tA, blas.NonUnit, n, a, x, 1) }, true},
		{"Ztpsv", blas.ConjTrans, func(tA blas.Transpose, x []complex128) { z.Ztpsv(blas.Lower, tA, blas.NonUnit, n, a, x, 1) }, true},
		{"Ztbsv", blas.NoTrans, func(tA blas.Transpose, x []complex128) { z.Ztbsv(blas.Lower, tA, blas.NonUnit, n, k, a, k+1, x, 1) }, false},
		{"Ctrsv", blas.NoTrans, func(tA blas.Transpose, x []complex128) { c.Ztrsv(blas.Lower, tA, blas.NonUnit, n, a, n, x, 1) }, true},
		{"Ctrsv", blas.ConjTrans, func(tA blas.Transpose, x []complex128) { c.Ztrsv(blas.Lower, tA, blas.NonUnit, n, a, n, x, 1) }, true},
		{"Ctpsv", blas.ConjTrans, func(tA blas.Transpose, x []complex128) { c.Ztpsv(blas.Lower, tA, blas.NonUnit, n, a, x, 1) }, true},
	} {
		if s.routine[0] == 'Z' && (!e.Prof.FP64 || !e.L1Shape(64).OneLaunchL2) {
			continue
		}
		name := fmt.Sprintf("%s tA=%c", s.routine, s.tA)
		flowDefaultRan(t, e, name, s.routine, s.flow, func() { s.solve(s.tA, slices.Clone(b)) })
	}
}

// TestTriSolveFlowDefault is TestZtriSolveFlowDefault's check for the real
// solves: dense and packed triangles with A and with Aᵀ take the flow by
// default in both precisions at n = 600; bands do not.
func TestTriSolveFlowDefault(t *testing.T) {
	impl, e := flowDefaultImpl(t)
	const n, k = 600, 5
	r := rand.New(rand.NewPCG(3, 6))
	a := diagDominant(n, func() float64 { return r.Float64() / n })
	a32 := make([]float32, len(a))
	for i, v := range a {
		a32[i] = float32(v)
	}
	for _, s := range []struct {
		routine string // as Engine.Launched counts it
		solve   func(x []float64, x32 []float32)
		flow    bool
	}{
		{"Dtrsv", func(x []float64, _ []float32) { impl.Dtrsv(blas.Upper, blas.NoTrans, blas.NonUnit, n, a, n, x, 1) }, true},
		{"Dtrsv", func(x []float64, _ []float32) { impl.Dtrsv(blas.Upper, blas.Trans, blas.NonUnit, n, a, n, x, 1) }, true},
		{"Dtpsv", func(x []float64, _ []float32) { impl.Dtpsv(blas.Lower, blas.Trans, blas.NonUnit, n, a, x, 1) }, true},
		{"Dtbsv", func(x []float64, _ []float32) { impl.Dtbsv(blas.Lower, blas.Trans, blas.NonUnit, n, k, a, k+1, x, 1) }, false},
		{"Strsv", func(_ []float64, x []float32) { impl.Strsv(blas.Lower, blas.Trans, blas.Unit, n, a32, n, x, 1) }, true},
		{"Stpsv", func(_ []float64, x []float32) { impl.Stpsv(blas.Upper, blas.Trans, blas.NonUnit, n, a32, x, 1) }, true},
	} {
		if s.routine[0] == 'D' && (!e.Prof.FP64 || !e.L1Shape(64).OneLaunchL2) {
			continue
		}
		x, x32 := make([]float64, n), make([]float32, n)
		for i := range x {
			x[i], x32[i] = 1, 1
		}
		flowDefaultRan(t, e, s.routine, s.routine, s.flow, func() { s.solve(x, x32) })
	}
}

// diagDominant is an n×n matrix (row-major, lda = n) of elements from
// next, its diagonal 2: next's elements small enough (below 1/n) that
// every triangle of it is well conditioned.
func diagDominant[T float64 | complex128](n int, next func() T) []T {
	a := make([]T, n*n)
	for i := range a {
		a[i] = next()
	}
	for i := range n {
		a[i*n+i] = 2
	}
	return a
}

// flowDefaultImpl returns a private Implementation and its engine for
// the flow-default tests, and skips where the device takes the flow by
// default on no solve (not a CPU device, or its level 1 shape without
// OneLaunchL2).
func flowDefaultImpl(t *testing.T) (*Implementation, *eng.Engine) {
	t.Helper()
	impl, e := privateImpl(t, nil)
	if !eng.L2OnCPU(&eng.Call{E: e}) || !e.L1Shape(32).OneLaunchL2 {
		t.Skipf("%s takes the flow by default on no solve", e.Prof.Name)
	}
	return impl, e
}

// flowDefaultRan runs solve, a call of routine (as Engine.Launched counts
// it), and fails t unless a device call of it succeeded and the flow ran
// exactly when want says.
func flowDefaultRan(t *testing.T, e *eng.Engine, name, routine string, want bool, solve func()) {
	t.Helper()
	calls, flows := e.Launched.Of(routine), e.L2FlowSolves.Load()
	solve()
	if e.Launched.Of(routine) == calls {
		t.Errorf("%s: no device call succeeded", name)
	}
	if got := e.L2FlowSolves.Load() > flows; got != want {
		t.Errorf("%s: the flow ran: %v, want %v", name, got, want)
	}
}

// deviceCalls returns a function that fails t unless each routine named
// had a device call succeed since deviceCalls was called (a call that
// finished on the host after a device failure does not count).
func deviceCalls(t *testing.T, e *eng.Engine, routines ...string) func() {
	before := make([]int64, len(routines))
	for i, r := range routines {
		before[i] = e.Launched.Of(r)
	}
	return func() {
		for i, r := range routines {
			if e.Launched.Of(r) == before[i] {
				t.Errorf("no device call of %s succeeded", r)
			}
		}
	}
}

// TestTriSolveFlowNoTickets fails the creation of the CPU flow solves'
// counters (a fresh engine makes them on its first flow solve), for
// tri_solve_flow (Strsv) and ztri_solve_flow (Ctrsv): the device call
// fails and the solve finishes on the CPU with gonum's answer; the next
// call, with the counters made, runs on the device.
func TestTriSolveFlowNoTickets(t *testing.T) {
	const n = 200
	a := make([]complex128, n*n)
	b := make([]complex128, n)
	for i := range n {
		for j := range i {
			a[i*n+j] = complex(float64((i*7+j*3)%11)/float64(11*n)-0.04/n, float64(j%3)/float64(4*n))
		}
		a[i*n+i] = complex(2+float64(i%3), 0.5)
		b[i] = complex(1+float64(i%5)/5, -0.25)
	}
	for _, routine := range []string{"Strsv", "Ctrsv"} {
		t.Run(routine, func(t *testing.T) {
			impl, e := privateImpl(t, nil)
			if !eng.L2OnCPU(&eng.Call{E: e}) {
				t.Skipf("the flow solves run on CPU devices only, not on %s", e.Prof.Name)
			}
			defer func() { e.L2SolveFlow = eng.SolveFlowAuto }()
			e.L2SolveFlow = eng.SolveFlowOn
			// solve is the routine on impl (on the real parts for Strsv).
			solve := func(impl any, x []complex128) {
				if routine == "Ctrsv" {
					c64(impl.(blas.Complex64)).Ztrsv(blas.Lower, blas.NoTrans, blas.NonUnit, n, a, n, x, 1)
					return
				}
				re := func(v []complex128) []float32 {
					out := make([]float32, len(v))
					for i, z := range v {
						out[i] = float32(real(z))
					}
					return out
				}
				xr := re(x)
				impl.(blas.Float32).Strsv(blas.Lower, blas.NoTrans, blas.NonUnit, n, re(a), n, xr, 1)
				for i, v := range xr {
					x[i] = complex(float64(v), 0)
				}
			}
			want := slices.Clone(b)
			solve(gonum.Implementation{}, want)
			check := func(name string) {
				t.Helper()
				got := slices.Clone(b)
				solve(impl, got)
				for i := range want {
					if cmplx.Abs(got[i]-want[i]) > 1e-5*(1+cmplx.Abs(want[i])) {
						t.Fatalf("%s: x[%d] = %v, gonum %v", name, i, got[i], want[i])
					}
				}
			}
			fail := func(site string) error {
				if site == "tickets" {
					return errL2Injected
				}
				return nil
			}
			failed, flows := impl.Stats()[routine].Failed, e.L2FlowSolves.Load()
			e.Fault.Store(&fail)
			check("no counters")
			e.Fault.Store(nil)
			if got := impl.Stats()[routine].Failed - failed; got != 1 {
				t.Errorf("no counters: %d failed device calls, want 1", got)
			}
			ran := deviceCalls(t, e, routine)
			check("counters made")
			ran()
			if e.L2FlowSolves.Load()-flows != 2 {
				t.Errorf("the flow enqueued %d times, want 2", e.L2FlowSolves.Load()-flows)
			}
		})
	}
}
