package cllapack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
)

// TestDormqrNonFiniteReflectors applies Q and Qᵀ with a NaN or an Inf in
// one reflector, C finite: gonum's Dlarfb keeps finite the rows that the
// reflector's column does not reach, where the device's products with V
// and T whole, zeros included, would put NaN; Dormqr must give gonum's
// answer (allFinite).
func TestDormqrNonFiniteReflectors(t *testing.T) {
	impl := newTestImpl(t, 8)
	rnd := rand.New(rand.NewPCG(7, 8))
	const m, n, k = 20, 5, 16
	for _, tr := range []blas.Transpose{blas.NoTrans, blas.Trans} {
		for _, bad := range []float64{math.NaN(), math.Inf(1)} {
			for _, at := range [][2]int{{10, 3}, {5, 1}, {19, 7}} {
				a := make([]float64, m*k)
				for i := range a {
					a[i] = rnd.NormFloat64()
				}
				tau := make([]float64, k)
				gonum.Implementation{}.Dgeqrf(m, k, a, k, tau, make([]float64, k*64), k*64)
				a[at[0]*k+at[1]] = bad
				c := make([]float64, m*n)
				for i := range c {
					c[i] = rnd.NormFloat64()
				}
				got, want := clone(c), clone(c)
				impl.Dormqr(blas.Left, tr, m, n, k, a, k, tau, got, n, make([]float64, n*64), n*64)
				gonum.Implementation{}.Dormqr(blas.Left, tr, m, n, k, a, k, tau, want, n, make([]float64, n*64), n*64)
				sameFloats(t, fmt.Sprintf("Dormqr %c, %v at %v", tr, bad, at), got, want, false)
			}
		}
	}
}
