package cllapack

import (
	"bytes"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/lapack/gonum"
)

// TestGeqrfGrid runs Dgeqrf with every panel one geqrf_grid launch on
// square, tall, wide and single-column matrices (row strides past the last
// column), panels narrower than the matrix and as wide as geqrf_grid
// takes, against gonum's factors and tau; then Dorgqr on the result, to
// check the reflectors through gonum's own use of them. One work-group on
// every device (the grid path must have run), several where the grid path
// is the device's default (NVIDIA's GPUs; see TestGetrfGrid); each with
// the sums over the groups added by every group and, split, one total a
// group after a second barrier.
func TestGeqrfGrid(t *testing.T) {
	rnd := rand.New(rand.NewPCG(71, 72))
	shapes := [][2]int{{1, 1}, {7, 7}, {64, 64}, {200, 200}, {257, 130}, {90, 200}, {300, 1}}
	multi := newTestImpl(t, 0).gridQR
	oneBuilt := map[bool]bool{} // geqrf_grid's 16-row builds ran, by split
	defer func() {
		if !oneBuilt[false] || !oneBuilt[true] {
			t.Errorf("geqrf_grid's 16-row builds that ran, by split: %v", oneBuilt)
		}
	}()
	for _, c := range []struct{ nb, groups, rows int }{
		{16, 1, 4}, {40, 1, 16}, {128, 1, 16}, {16, 2, 4}, {40, 3, 8}, {128, 7, 4}, {64, 0, 16},
	} {
		if c.groups != 1 && !multi {
			t.Logf("nb %d, %d groups: not this device's path (gridQR off by default)", c.nb, c.groups)
			continue
		}
		for _, ahead := range []bool{false, true} {
			impl := gridTestImpl(t, c.nb, c.groups, c.rows)
			impl.gridQR, impl.gridQRRows, impl.qrAhead = true, 1, ahead
			for k, sh := range shapes {
				m, n := sh[0], sh[1]
				impl.gridQRSplit = 1 << 30
				if k%2 == 1 {
					impl.gridQRSplit = 1
				}
				impl.gridQROne = k/2%2 == 0
				what := fmt.Sprintf("nb %d, %d groups of ≥ %d rows, %d×%d, split from %d groups, one batch %v, look-ahead %v",
					c.nb, c.groups, c.rows, m, n, impl.gridQRSplit, impl.gridQROne, ahead)
				geqrfGridCase(t, impl, rnd, what, m, n)
			}
			for key := range impl.kerns {
				if key.name == "geqrf_grid" && key.crows == 16 {
					oneBuilt[key.split] = true
				}
			}
			if s := impl.gridState.Load(); s != gridYes {
				t.Errorf("nb %d, %d groups: the grid path did not run (state %d)", c.nb, c.groups, s)
			}
			if ahead && c.nb < 200 && impl.q2 == nil {
				t.Errorf("nb %d, %d groups: no panel ran on the look-ahead queue", c.nb, c.groups)
			}
		}
	}
}

// geqrfGridCase checks impl's Dgeqrf of a random m×n matrix against
// gonum's, and Dorgqr on both results.
func geqrfGridCase(t *testing.T, impl *Implementation, rnd *rand.Rand, what string, m, n int) {
	t.Helper()
	g := gonum.Implementation{}
	lda := n + 3
	a, want, tau, tauWant := dgeqrfAgainstGonum(t, impl, rnd, what, m, n, lda)
	k := min(m, n)
	work := make([]float64, 64*max(m, n))
	if m >= n {
		g.Dorgqr(m, n, k, a, lda, tau, work, len(work))
		g.Dorgqr(m, n, k, want, lda, tauWant, work, len(work))
		compare(t, what+" Q", m, n, a, want, lda, 1e-10)
	}
}

// dgeqrfAgainstGonum factorises a random m×n matrix (row stride lda) with
// impl's Dgeqrf and with gonum's and fails t unless the factors, tau,
// gonum's work[0] and the padding past the last column agree; it returns
// both factorizations.
func dgeqrfAgainstGonum(t *testing.T, impl *Implementation, rnd *rand.Rand, what string, m, n, lda int) (a, want, tau, tauWant []float64) {
	t.Helper()
	a = make([]float64, (m-1)*lda+n)
	for i := range a {
		a[i] = rnd.NormFloat64()
	}
	want = append([]float64(nil), a...)
	k := min(m, n)
	tau, tauWant = make([]float64, k), make([]float64, k)
	g := gonum.Implementation{}
	query := []float64{0}
	g.Dgeqrf(m, n, want, lda, tauWant, query, -1)
	work, workWant := make([]float64, int(query[0])), make([]float64, int(query[0]))
	g.Dgeqrf(m, n, want, lda, tauWant, workWant, len(workWant))
	impl.Dgeqrf(m, n, a, lda, tau, work, len(work))
	compare(t, what+" Dgeqrf", m, n, a, want, lda, 1e-10)
	checkPadding(t, what+" Dgeqrf", m, n, a, want, lda)
	compare(t, what+" tau", 1, k, tau, tauWant, k, 1e-10)
	if work[0] != workWant[0] {
		t.Errorf("%s: work[0] = %v, gonum %v", what, work[0], workWant[0])
	}
	return a, want, tau, tauWant
}

// TestGeqrfGridFailed starts a panel's grid barrier failed, with and
// without look-ahead (the failed panel then runs on the second queue):
// Dgeqrf finishes on the CPU with gonum's answer and says so once, and
// later calls take the leaves.
func TestGeqrfGridFailed(t *testing.T) {
	rnd := rand.New(rand.NewPCG(73, 74))
	for _, ahead := range []bool{false, true} {
		impl := gridTestImpl(t, 16, 1, 4)
		impl.gridQR, impl.gridQRRows, impl.qrAhead = true, 1, ahead
		var log bytes.Buffer
		impl.logger = slog.New(slog.NewTextHandler(&log, nil))
		impl.gridPoison = 2
		dgeqrfAgainstGonum(t, impl, rnd, fmt.Sprintf("second panel's barrier failed, look-ahead %v", ahead), 70, 50, 53)
		if !strings.Contains(log.String(), "geqrf_grid: the work-groups of panel 1 did not run together") {
			t.Errorf("look-ahead %v: no fall-back logged: %q", ahead, log.String())
		}
		if s := impl.gridState.Load(); s != gridNo {
			t.Errorf("look-ahead %v: grid state %d after a failed barrier, want %d", ahead, s, gridNo)
		}
		impl.gridPoison = 0
		launches := impl.counts().launches
		dgeqrfAgainstGonum(t, impl, rnd, "after the failure", 70, 50, 53)
		if impl.counts().launches == launches {
			t.Errorf("look-ahead %v: the next call did not run on the device", ahead)
		}
	}
}

// TestDgeqrfScaled runs Dgeqrf on matrices whose elements' products in
// the panel kernels would overflow (1e200) or underflow (1e-200): they
// are factorised scaled by a power of two on the device, with gonum's
// answer; columns of 1e60 beside columns of 1e-60 need no scaling; columns
// of 1e200 beside columns of 1e-200 go to gonum on the CPU. With the
// device's default panels and with geqrf_grid (one group everywhere, five
// where the grid path is the default). Compared with gonum by column,
// relative to the column's largest element in gonum's factor.
func TestDgeqrfScaled(t *testing.T) {
	rnd := rand.New(rand.NewPCG(73, 74))
	impls := map[string]*Implementation{"default panels": newTestImpl(t, 16)}
	g1 := gridTestImpl(t, 16, 1, 4)
	g1.gridQR, g1.gridQRRows = true, 1
	impls["geqrf_grid, 1 group"] = g1
	if newTestImpl(t, 0).gridQR {
		g5 := gridTestImpl(t, 16, 5, 4)
		g5.gridQR, g5.gridQRRows = true, 1
		impls["geqrf_grid, 5 groups"] = g5
	}
	for name, impl := range impls {
		for _, sc := range []struct {
			name   string
			scale  []float64 // by column, cyclically
			device bool
		}{
			{"1e200", []float64{1e200}, true},
			{"1e-200", []float64{1e-200}, true},
			{"1e60 and 1e-60", []float64{1, 1e60, 1e-60}, true},
			{"1e200 and 1e-200", []float64{1, 1e200, 1e-200}, false},
		} {
			m, n, lda := 90, 40, 43
			a := make([]float64, (m-1)*lda+n)
			for i := range m {
				for j := range n {
					a[i*lda+j] = rnd.NormFloat64() * sc.scale[j%len(sc.scale)]
				}
			}
			want := append([]float64(nil), a...)
			tau, tauWant := make([]float64, n), make([]float64, n)
			work := make([]float64, 64*m)
			gonum.Implementation{}.Dgeqrf(m, n, want, lda, tauWant, work, len(work))
			before := impl.onDevice.Load()
			impl.Dgeqrf(m, n, a, lda, tau, work, len(work))
			what := fmt.Sprintf("%s, columns of %s", name, sc.name)
			if ran := impl.onDevice.Load() > before; ran != sc.device {
				t.Fatalf("%s: on the device %v, want %v", what, ran, sc.device)
			}
			for j := range n {
				big := 0.0
				for i := range m {
					big = math.Max(big, math.Abs(want[i*lda+j]))
				}
				for i := range m {
					if g, w := a[i*lda+j], want[i*lda+j]; !(math.Abs(g-w) <= 1e-10*big) {
						t.Fatalf("%s: [%d,%d] = %v, gonum %v", what, i, j, g, w)
					}
				}
				if !(math.Abs(tau[j]-tauWant[j]) <= 1e-10) {
					t.Fatalf("%s: tau[%d] = %v, gonum %v", what, j, tau[j], tauWant[j])
				}
			}
		}
	}
}
