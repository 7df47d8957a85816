package cllapack

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/lapack/gonum"
)

// TestGetrfPanel compares the recursive panel factorization with gonum's
// Dgetf2: factors, pivots and ok, on tall panels up to and wider than the
// base case (one and two levels of recursion), with and without exactly
// zero columns.
func TestGetrfPanel(t *testing.T) {
	rnd := rand.New(rand.NewPCG(29, 30))
	for _, c := range []struct{ m, n, zero int }{{300, 128, -1}, {400, 200, -1}, {200, 37, -1}, {37, 37, -1}, {150, 64, 40}, {300, 130, 100}, {90, 33, 0}} {
		lda := c.n + 1
		a := make([]float64, (c.m-1)*lda+c.n)
		for i := range a {
			a[i] = rnd.NormFloat64()
		}
		if c.zero >= 0 {
			for i := range c.m {
				a[i*lda+c.zero] = 0
			}
		}
		want := append([]float64(nil), a...)
		ipiv, ipivWant := make([]int, c.n), make([]int, c.n)
		ok := getrfPanel(c.m, c.n, a, lda, ipiv)
		okWant := gonum.Implementation{}.Dgetf2(c.m, c.n, want, lda, ipivWant)
		if ok != okWant {
			t.Errorf("%v: ok=%v, Dgetf2 %v", c, ok, okWant)
		}
		for i := range ipiv {
			if ipiv[i] != ipivWant[i] {
				t.Fatalf("%v: ipiv[%d] = %d, Dgetf2 %d", c, i, ipiv[i], ipivWant[i])
			}
		}
		compare(t, "getrfPanel", c.m, c.n, a, want, lda, 1e-11)
		checkPadding(t, "getrfPanel", c.m, c.n, a, want, lda)
	}
}

// TestGeqrfPanel compares the sub-blocked panel QR with gonum's Dgeqr2.
func TestGeqrfPanel(t *testing.T) {
	rnd := rand.New(rand.NewPCG(31, 32))
	for _, c := range [][2]int{{300, 128}, {200, 37}, {37, 37}, {20, 70}, {500, 33}} {
		m, n := c[0], c[1]
		lda := n + 1
		a := make([]float64, (m-1)*lda+n)
		for i := range a {
			a[i] = rnd.NormFloat64()
		}
		want := append([]float64(nil), a...)
		k := min(m, n)
		tau, tauWant := make([]float64, k), make([]float64, k)
		geqrfPanel(m, n, a, lda, tau)
		gonum.Implementation{}.Dgeqr2(m, n, want, lda, tauWant, make([]float64, n))
		compare(t, "geqrfPanel", m, n, a, want, lda, 1e-11)
		checkPadding(t, "geqrfPanel", m, n, a, want, lda)
		compare(t, "geqrfPanel tau", 1, k, tau, tauWant, k, 1e-11)
	}
}
