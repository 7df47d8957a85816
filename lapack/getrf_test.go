package cllapack

import (
	"bytes"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/lapack/gonum"
)

// TestGetrfLeaves runs Dgetrf with the device panel split recursively down
// to leaves of several widths (one column, odd, wider than the panel) and
// with the host panel, with work-groups of several sizes and both of
// getf2_leaf's layouts, on square, tall and wide matrices, against
// gonum's factors and pivots.
func TestGetrfLeaves(t *testing.T) {
	impl := gpuPathsOnCPU(newTestImpl(t, 16))
	rnd := rand.New(rand.NewPCG(41, 42))
	type cfg struct {
		nb, leaf, wg int
		host, coal   bool
	}
	for _, c := range []cfg{{40, 1, 256, false, false}, {16, 4, 256, false, false}, {40, 3, 32, false, false},
		{64, 8, 1, false, false}, {16, 64, 256, false, false}, {40, 8, 256, true, false},
		// A row's columns on neighbouring work-items (LU_BW 1 to 32),
		// with groups small enough that the rows take several batches.
		{40, 1, 256, false, true}, {16, 4, 32, false, true}, {40, 3, 64, false, true},
		{64, 8, 256, false, true}, {40, 16, 128, false, true}, {64, 32, 64, false, true}} {
		impl.nb, impl.leaf, impl.luWG, impl.hostPanel, impl.luCoal = c.nb, c.leaf, c.wg, c.host, c.coal
		impl.hostLU = false // the device leaves on CPU devices too
		for _, sh := range [][2]int{{70, 70}, {97, 45}, {45, 97}, {37, 20}} {
			m, n := sh[0], sh[1]
			lda := n + 1
			a := make([]float64, m*lda)
			for i := range a {
				a[i] = rnd.NormFloat64()
			}
			want := append([]float64(nil), a...)
			ipivWant := make([]int, min(m, n))
			okWant := gonum.Implementation{}.Dgetrf(m, n, want, lda, ipivWant)
			ipiv := make([]int, min(m, n))
			ok := impl.Dgetrf(m, n, a, lda, ipiv)
			what := fmt.Sprintf("%+v %d×%d", c, m, n)
			if ok != okWant {
				t.Fatalf("%s: ok=%v, gonum %v", what, ok, okWant)
			}
			for i := range ipiv {
				if ipiv[i] != ipivWant[i] {
					t.Fatalf("%s: ipiv[%d] = %d, gonum's %d", what, i, ipiv[i], ipivWant[i])
				}
			}
			compare(t, what, m, n, a, want, lda, 1e-10)
			checkPadding(t, what, m, n, a, want, lda)
		}
	}
}

// TestGetrfGroupFit asks getf2_leaf for work-groups twice the largest the
// device takes: the kernel is rebuilt for the largest it takes for it
// (fitLUGroup), and the factorization finishes on the device with gonum's
// answer.
func TestGetrfGroupFit(t *testing.T) {
	impl := gpuPathsOnCPU(newTestImpl(t, 16))
	impl.leaf, impl.luWG, impl.hostLU = 8, 1, false
	for impl.luWG <= impl.blas.Runtime().Device().Profile().MaxWorkGroupSize {
		impl.luWG *= 2
	}
	var log bytes.Buffer
	impl.logger = slog.New(slog.NewTextHandler(&log, nil))
	rnd := rand.New(rand.NewPCG(43, 44))
	const m, n = 300, 40
	a := make([]float64, m*n)
	for i := range a {
		a[i] = rnd.NormFloat64()
	}
	want := append([]float64(nil), a...)
	ipivWant, ipiv := make([]int, n), make([]int, n)
	gonum.Implementation{}.Dgetrf(m, n, want, n, ipivWant)
	before := impl.onDevice.Load()
	impl.Dgetrf(m, n, a, n, ipiv)
	if log.Len() > 0 || impl.onDevice.Load() != before+1 {
		t.Fatalf("LU_WG %d: not finished on the device:\n%s", impl.luWG, log.String())
	}
	for i := range ipiv {
		if ipiv[i] != ipivWant[i] {
			t.Fatalf("ipiv[%d] = %d, gonum's %d", i, ipiv[i], ipivWant[i])
		}
	}
	compare(t, "Dgetrf", m, n, a, want, n, 1e-10)
}
