package cllapack

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/lapack/gonum"
)

// gridTestImpl returns an Implementation whose LU panels take getrf_grid
// with at most groups work-groups of at least rows rows, polling its
// barriers a short while (a device that does not run the groups together
// then fails the probe quickly).
func gridTestImpl(t *testing.T, nb, groups, rows int) *Implementation {
	impl := gpuPathsOnCPU(newTestImpl(t, nb))
	impl.gridLU, impl.hostLU, impl.hostPanel = true, false, false
	impl.gridMax, impl.gridRows, impl.gridSpin = groups, rows, 1<<16
	return impl
}

// dgetrfAgainstGonum factorises a random m×n matrix (row stride n+1, NaN
// at (nanAt, nanAt) when nanAt ≥ 0) with impl and with gonum and marks t
// failed unless ok, the pivots and (without NaN) the factors agree.
func dgetrfAgainstGonum(t *testing.T, impl *Implementation, rnd *rand.Rand, what string, m, n, nanAt int) {
	t.Helper()
	getrfModAgainstGonum(t, impl, rnd, what, m, n, func(a []float64, lda int) {
		if nanAt >= 0 {
			a[nanAt*lda+nanAt] = math.NaN()
		}
	}, nanAt < 0)
}

// TestGetrfGrid runs Dgetrf with every panel one getrf_grid launch on
// square, tall, wide and single-column matrices, panels narrower than the
// matrix and as wide as getrf_grid takes, groups of a few rows and of
// many, against gonum's factors and pivots: in one work-group on every
// device (the grid path must have run), and in several where the grid
// path is the device's default (NVIDIA's GPUs; on PoCL two groups met at
// the barrier but chose wrong pivots at times, so other devices keep
// panelLU and run only the one-group cases).
func TestGetrfGrid(t *testing.T) {
	rnd := rand.New(rand.NewPCG(51, 52))
	shapes := [][2]int{{70, 70}, {97, 45}, {45, 97}, {37, 20}, {1, 1}, {3, 1}, {1, 3}, {300, 130}}
	multi := newTestImpl(t, 0).gridLU
	for _, c := range []struct{ nb, groups, rows int }{
		{16, 1, 4}, {40, 1, 16}, {128, 1, 16}, {16, 2, 4}, {40, 3, 8}, {128, 7, 4}, {64, 0, 16},
	} {
		if c.groups != 1 && !multi {
			t.Logf("nb %d, %d groups: not this device's path (gridLU off by default)", c.nb, c.groups)
			continue
		}
		for _, ahead := range []bool{false, true} {
			impl := gridTestImpl(t, c.nb, c.groups, c.rows)
			impl.luAhead = ahead
			what := fmt.Sprintf("nb %d, %d groups of ≥ %d rows, look-ahead %v", c.nb, c.groups, c.rows, ahead)
			for _, sh := range shapes {
				dgetrfAgainstGonum(t, impl, rnd, what, sh[0], sh[1], -1)
			}
			if state := impl.gridState.Load(); state != gridYes {
				t.Errorf("%s: the grid path did not run (state %d)", what, state)
			}
			if ahead && c.nb < 70 && impl.q2 == nil {
				t.Errorf("%s: no panel ran on the look-ahead queue", what)
			}
		}
	}
}

// TestGetrfGridShuffles runs getrf_grid with its candidates reduced by
// warp shuffles (GRID_SHFL, the default on NVIDIA's GPUs) and by the
// local-memory tree, with one group and with several, against gonum.
// The shuffles are PTX, so elsewhere only the tree runs (TestGetrfGrid).
func TestGetrfGridShuffles(t *testing.T) {
	if !newTestImpl(t, 0).gridLU {
		t.Log("GRID_SHFL is built on NVIDIA's GPUs only; TestGetrfGrid runs the tree here")
		return
	}
	rnd := rand.New(rand.NewPCG(59, 60))
	for _, shfl := range []bool{true, false} {
		for _, groups := range []int{1, 7} {
			impl := gridTestImpl(t, 40, groups, 4)
			impl.gridShfl = shfl
			what := fmt.Sprintf("GRID_SHFL %v, %d groups", shfl, groups)
			for _, sh := range [][2]int{{300, 130}, {97, 45}, {45, 97}} {
				dgetrfAgainstGonum(t, impl, rnd, what, sh[0], sh[1], -1)
			}
			if state := impl.gridState.Load(); state != gridYes {
				t.Errorf("%s: the grid path did not run (state %d)", what, state)
			}
		}
	}
}

// TestGetrfGridNaN: a NaN on the diagonal, in the first panel and in a
// later one, gives gonum's pivots (the NaN column's own row) and ok.
func TestGetrfGridNaN(t *testing.T) {
	rnd := rand.New(rand.NewPCG(53, 54))
	impl := gridTestImpl(t, 16, 1, 4)
	for _, at := range []int{0, 5, 20} {
		dgetrfAgainstGonum(t, impl, rnd, fmt.Sprintf("NaN at %d", at), 60, 40, at)
	}
}

// TestGetrfGridFailed starts a panel's grid barrier failed: every group
// leaves the launch, Dgetrf finishes on the CPU with gonum's answer and
// says so once, and later calls take panelLU.
func TestGetrfGridFailed(t *testing.T) {
	rnd := rand.New(rand.NewPCG(55, 56))
	for _, ahead := range []bool{false, true} {
		impl := gridTestImpl(t, 16, 1, 4)
		impl.luAhead = ahead
		var log bytes.Buffer
		impl.logger = slog.New(slog.NewTextHandler(&log, nil))
		impl.gridPoison = 2
		dgetrfAgainstGonum(t, impl, rnd, fmt.Sprintf("second panel's barrier failed, look-ahead %v", ahead), 70, 70, -1)
		if !strings.Contains(log.String(), "did not run together") {
			t.Errorf("look-ahead %v: no fall-back logged: %q", ahead, log.String())
		}
		if s := impl.gridState.Load(); s != gridNo {
			t.Errorf("look-ahead %v: grid state %d after a failed barrier, want %d", ahead, s, gridNo)
		}
		impl.gridPoison = 0
		launches := impl.counts().launches
		dgetrfAgainstGonum(t, impl, rnd, "after the failure", 70, 70, -1)
		if impl.counts().launches == launches {
			t.Errorf("look-ahead %v: the next call did not run on the device", ahead)
		}
	}
}

// TestGridProbeFailed: when the probe cannot run (its kernel fails to
// build here), the LU panels take panelLU with gonum's answers, the grid
// path is off for later calls, and that is logged once.
func TestGridProbeFailed(t *testing.T) {
	rnd := rand.New(rand.NewPCG(57, 58))
	impl := gridTestImpl(t, 16, 1, 4)
	var log bytes.Buffer
	impl.logger = slog.New(slog.NewTextHandler(&log, nil))
	impl.kernErr[kernelKey{name: "grid_probe", pi: precIndex[float64]()}] = errors.New("injected: no probe")
	for range 2 {
		dgetrfAgainstGonum(t, impl, rnd, "probe failed", 70, 70, -1)
	}
	if s := impl.gridState.Load(); s != gridNo {
		t.Errorf("grid state %d after the probe failed, want %d", s, gridNo)
	}
	if c := strings.Count(log.String(), "LU panels in one launch are off"); c != 1 {
		t.Errorf("the probe's failure was logged %d times, want once: %q", c, log.String())
	}
	if impl.onDevice.Load() != 2 {
		t.Errorf("%d calls ran on the device, want 2", impl.onDevice.Load())
	}
}

// TestGetrfOuter runs Dgetrf with the trailing updates deferred to column
// blocks of several panels (luOuter: on the device each panel's columns
// updated left-looking by the block's earlier panels, with the host's
// panels right-looking inside the block; the rest once a block) on
// square, tall, wide and single-column matrices, with blocks of two and of
// three panels and a width that is not a multiple of the panels', on the
// grid panels, on panelLU's recursive ones and on the host's, with NaN on
// the diagonal, against gonum's factors and pivots.
func TestGetrfOuter(t *testing.T) {
	rnd := rand.New(rand.NewPCG(61, 62))
	shapes := [][2]int{{70, 70}, {97, 45}, {45, 97}, {37, 20}, {1, 1}, {1, 3}, {300, 130}, {40, 120}}
	for _, panels := range []string{"grid", "device", "host"} {
		for _, outer := range []int{32, 48, 40} {
			impl := gridTestImpl(t, 16, 1, 4)
			impl.gridLU, impl.hostLU, impl.luOuter = panels == "grid", panels == "host", outer
			what := fmt.Sprintf("%s panels, blocks of %d", panels, outer)
			for _, sh := range shapes {
				dgetrfAgainstGonum(t, impl, rnd, what, sh[0], sh[1], -1)
			}
			dgetrfAgainstGonum(t, impl, rnd, what+", NaN at 20", 60, 40, 20)
			if state := impl.gridState.Load(); panels == "grid" && state != gridYes {
				t.Errorf("%s: the grid path did not run (state %d)", what, state)
			}
		}
	}
}

// TestGetrfGridSpecial runs getrf_grid on matrices with a zero column or
// row and with a column of subnormal values (gonum's division rule for a
// pivot below the safe minimum), against gonum's factors, pivots and ok:
// in one work-group everywhere, in several where the grid path is the
// device's default. (The published rows take the update their columns
// past c+1 get only after the barrier, getrf_grid_elem: a wrong copy
// changes later pivots.)
func TestGetrfGridSpecial(t *testing.T) {
	rnd := rand.New(rand.NewPCG(61, 62))
	multi := newTestImpl(t, 0).gridLU
	for _, c := range []struct{ nb, groups, rows int }{{16, 1, 4}, {128, 1, 16}, {40, 3, 8}, {128, 7, 4}} {
		if c.groups != 1 && !multi {
			t.Logf("nb %d, %d groups: not this device's path (gridLU off by default)", c.nb, c.groups)
			continue
		}
		impl := gridTestImpl(t, c.nb, c.groups, c.rows)
		what := fmt.Sprintf("nb %d, %d groups of ≥ %d rows", c.nb, c.groups, c.rows)
		for _, mod := range []struct {
			name string
			f    func(a []float64, lda int)
		}{
			{"zero column 3", func(a []float64, lda int) {
				for i := 0; i < len(a)/lda; i++ {
					a[i*lda+3] = 0
				}
			}},
			{"zero row 30", func(a []float64, lda int) { clear(a[30*lda : 31*lda]) }},
			{"subnormal column 5", func(a []float64, lda int) {
				for i := 0; i < len(a)/lda; i++ {
					a[i*lda+5] *= 1e-310
				}
			}},
		} {
			getrfModAgainstGonum(t, impl, rnd, what+", "+mod.name, 50, 40, mod.f, true)
		}
		if state := impl.gridState.Load(); state != gridYes {
			t.Errorf("%s: the grid path did not run (state %d)", what, state)
		}
	}
}

// getrfModAgainstGonum checks impl's Dgetrf of a random m×n matrix (row
// stride n+1) changed by mod against gonum's: ok, the pivots, with
// factors the factors (equal, or both NaN, or within 1e-10 of the largest
// finite element), and the elements between the rows untouched. It marks
// t failed with Errorf, not Fatalf: goroutines call it.
func getrfModAgainstGonum(t *testing.T, impl *Implementation, rnd *rand.Rand, what string, m, n int, mod func(a []float64, lda int), factors bool) {
	t.Helper()
	what = fmt.Sprintf("%s %d×%d", what, m, n)
	lda := n + 1
	a := make([]float64, m*lda)
	for i := range a {
		a[i] = rnd.NormFloat64()
	}
	mod(a, lda)
	want := append([]float64(nil), a...)
	ipivWant := make([]int, min(m, n))
	okWant := gonum.Implementation{}.Dgetrf(m, n, want, lda, ipivWant)
	ipiv := make([]int, min(m, n))
	if ok := impl.Dgetrf(m, n, a, lda, ipiv); ok != okWant {
		t.Errorf("%s: ok=%v, gonum %v", what, ok, okWant)
		return
	}
	if !slices.Equal(ipiv, ipivWant) {
		t.Errorf("%s: pivots %v, gonum's %v", what, ipiv, ipivWant)
		return
	}
	checkPadding(t, what, m, n, a, want, lda)
	if !factors {
		return
	}
	scale := 1.0
	for _, v := range want {
		if !math.IsInf(v, 0) && !math.IsNaN(v) {
			scale = max(scale, math.Abs(v))
		}
	}
	for i := range m {
		for j := range n {
			g, w := a[i*lda+j], want[i*lda+j]
			if g != w && !(math.IsNaN(g) && math.IsNaN(w)) && !(math.Abs(g-w) <= 1e-10*scale) {
				t.Errorf("%s: [%d,%d] = %v, gonum's %v", what, i, j, g, w)
				return
			}
		}
	}
}
