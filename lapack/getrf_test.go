package cllapack

import (
	"fmt"
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
	impl := newTestImpl(t, 16)
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
