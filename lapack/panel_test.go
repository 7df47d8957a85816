package cllapack

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/lapack/gonum"
)

// TestGetrfPanel compares the recursive panel factorization with gonum's
// Dgetf2: factors, pivots and ok, on tall panels wider than the base case,
// with and without exactly zero columns.
func TestGetrfPanel(t *testing.T) {
	rnd := rand.New(rand.NewPCG(29, 30))
	for _, c := range []struct{ m, n, zero int }{{300, 128, -1}, {200, 37, -1}, {37, 37, -1}, {150, 64, 40}, {90, 33, 0}} {
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
