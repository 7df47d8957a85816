package clblas

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	eng "github.com/gocompute/opencl/internal/engine"
)

// TestTrsvBlockedSplit runs the triangular solves on the split schedule
// (Engine.L2SolveSplit: each launch block solved once, by trsv_sol on a
// GPU or Oclgrind and by trsv_blk on one work-group on a CPU device, then
// trsv_upd's wide update) against gonum, with small
// sub-blocks so that n = 45 takes several launch blocks and a short last
// one: launch blocks of 2 and 3 sub-blocks of 4 and of 2 sub-blocks of 8,
// bands narrower and wider than a launch block, every storage, triangle,
// transpose (ConjTrans for complex) and diagonal, increments ±1 and ±3,
// real and complex; and TestTrsvBlockedNonFinite's zero diagonals, Inf and
// NaN. The engine is private, on the GPUs' kernels.
func TestTrsvBlockedSplit(t *testing.T) {
	impl, e := privateImpl(t, nil)
	gpuKernels(e)
	defer func() { e.L2SolveNB, e.L2SolveSplit = 0, 0 }()
	for _, sh := range [][2]int{{4, 8}, {4, 12}, {8, 16}} {
		e.L2SolveNB, e.L2SolveSplit = sh[0], sh[1]
		name := fmt.Sprintf("ts=%d/nb=%d", sh[0], sh[1])
		trsvScheduleRun(t, impl, e, name, sh[0] == 4 && sh[1] == 8, "split", &e.L2SplitSolves)
	}
}

// TestTrsvSplitLarge runs the split schedule at the device's own sub-block
// order and launch blocks of 256 and 512 positions (the shapes a GPU
// takes) on n = 1100, non-unit diagonals, against gonum: the kernels' builds at those sizes
// (on a GPU: trsv_sol with a work-group of 256 or 512) and their many
// blocks.
func TestTrsvSplitLarge(t *testing.T) {
	impl, e := privateImpl(t, nil)
	gpuKernels(e)
	defer func() { e.L2SolveSplit = 0 }()
	before := e.L2SplitSolves.Load()
	for _, nb := range []int{256, 512} {
		e.L2SolveSplit = nb
		trsvLargeRun(t, impl, fmt.Sprintf("nb=%d", nb))
	}
	if e.L2SplitSolves.Load() == before {
		t.Error("no solve took the split schedule")
	}
}

// trsvLargeRun runs trsvSplitRun on n = 1100, non-unit diagonals, in
// double (where the device has it) and single precision, as subtests
// under name.
func trsvLargeRun(t *testing.T, impl *Implementation, name string) {
	if impl.eng.Prof.FP64 {
		t.Run(name+"/float64", func(t *testing.T) {
			trsvSplitRun(t, l2ops64(impl), l2ops64(gonum.Implementation{}), 1e-11, 1100, []int{3, 700, 1099}, []blas.Diag{blas.NonUnit})
		})
	}
	t.Run(name+"/float32", func(t *testing.T) {
		trsvSplitRun(t, l2ops32(impl), l2ops32(gonum.Implementation{}), 1e-3, 1100, []int{3, 700, 1099}, []blas.Diag{blas.NonUnit})
	})
}

// trsvSplitRun checks trsv, tbsv and tpsv of order n (TestTrsvBlockedSplit:
// 45) over every triangle, transpose and diagonal: dense and packed, and
// the bands of widths ks, each with the next of the increments ±1, ±3;
// the diagonals of diags (a unit one only at small n: with off-diagonal
// entries up to 1 the solution overflows within a few hundred rows).
func trsvSplitRun[T float32 | float64](t *testing.T, got, want l2ops[T], tol float64, n int, ks []int, diags []blas.Diag) {
	c := &l2run[T]{t: t, got: got, want: want, tol: tol,
		r: rand.New(rand.NewPCG(11, 5)), calls: map[string]int{}}
	incs := []int{1, -1, 3, -3}
	for _, ul := range l2uplos {
		for _, tA := range l2trans {
			for _, d := range diags {
				for i, k := range append([]int{n - 1, n - 1}, ks...) {
					s := l2store{upper: ul == blas.Upper, n: n, k: k, lda: n + 3, storage: eng.L2Dense}
					switch {
					case i == 1:
						s.storage, s.lda = eng.L2Packed, 0
					case i > 1:
						s.storage, s.lda = eng.L2Band, k+1+k%2
					}
					a := c.fill(s, d == blas.Unit, true)
					incX := incs[(i+int(tA)+int(ul)+int(d))%len(incs)]
					x := c.strided(n, incX)
					desc := fmt.Sprintf("ul=%c tA=%c d=%c n=%d k=%d storage=%d lda=%d incX=%d", ul, tA, d, n, k, s.storage, s.lda, incX)
					_, sv := c.triOps(s.storage, ul, tA, d, n, k, a, s.lda, incX)
					c.check(sv.name, desc, x, sv.f)
				}
			}
		}
	}
}

// TestParseTrsvShape: BenchmarkTrsvShape's shapes, every schedule, and
// the malformed ones it must refuse.
func TestParseTrsvShape(t *testing.T) {
	for _, c := range []struct {
		in   string
		want trsvShape
	}{
		{"0:0:0", trsvShape{}},
		{"64:4:132", trsvShape{ts: 64, launch: 4, groups: 132}},
		{"s512", trsvShape{split: 512}},
		{"s1024:32:264", trsvShape{split: 1024, ts: 32, groups: 264}},
		{"f", trsvShape{flow: true}},
		{"f:32:264", trsvShape{flow: true, ts: 32, groups: 264}},
	} {
		got, err := parseTrsvShape(c.in)
		if err != nil || got != c.want {
			t.Errorf("parseTrsvShape(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if back, err := parseTrsvShape(got.String()); err != nil || back != got {
			t.Errorf("%q: String %q reads back as %+v, %v", c.in, got.String(), back, err)
		}
	}
	for _, in := range []string{"s0", "s", "512", "x:1:2", "s512:1", "f32", "f:32", "fs512", "w4", "w2:32:133"} {
		if got, err := parseTrsvShape(in); err == nil {
			t.Errorf("parseTrsvShape(%q) = %+v, want an error", in, got)
		}
	}
}
