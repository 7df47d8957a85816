package clblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// TestResidentSyrkBlockedViews updates a view inside a larger matrix with
// Syrk large enough for several of SyrkBlocked's block rows, and checks it
// against gonum's Dsyrk on the same view: the triangle is updated, and
// nothing else of the storage (the other triangle, the rows and columns
// around the view) changes.
func TestResidentSyrkBlockedViews(t *testing.T) {
	impl := newTestImpl(t)
	const n, k, pad = 600, 70, 3
	rnd := rand.New(rand.NewPCG(7, 8))
	ld := n + 2*pad
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		for _, tr := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, beta := range []float64{0, 0.5} {
				t.Run(fmt.Sprintf("%c%c/beta=%v", ul, tr, beta), func(t *testing.T) {
					ar, ac := n, k
					if tr == blas.Trans {
						ar, ac = k, n
					}
					aAll := make([]float64, (ar+pad)*(ac+pad))
					cAll := make([]float64, ld*ld)
					for i := range aAll {
						aAll[i] = rnd.NormFloat64()
					}
					for i := range cAll {
						cAll[i] = rnd.NormFloat64()
					}
					am, err := NewMatrixFrom(impl, ar+pad, ac+pad, aAll)
					if err != nil {
						t.Fatal(err)
					}
					defer am.Release()
					cm, err := NewMatrixFrom(impl, ld, ld, cAll)
					if err != nil {
						t.Fatal(err)
					}
					defer cm.Release()
					av, err := am.View(pad, pad, ar, ac)
					if err != nil {
						t.Fatal(err)
					}
					cv, err := cm.View(pad, pad, n, n)
					if err != nil {
						t.Fatal(err)
					}
					ev, err := Syrk(ul, tr, -0.75, av, beta, cv)
					if err == nil {
						err = ev.Wait()
					}
					if err != nil {
						t.Fatal(err)
					}
					got := make([]float64, ld*ld)
					if err := cm.Read(got); err != nil {
						t.Fatal(err)
					}
					want := append([]float64(nil), cAll...)
					gonum.Implementation{}.Dsyrk(ul, tr, n, k, -0.75, aAll[pad*(ac+pad)+pad:], ac+pad, beta, want[pad*ld+pad:], ld)
					for i := range want {
						if d := math.Abs(got[i] - want[i]); d > 1e-12*(1+math.Abs(want[i])) {
							t.Fatalf("element (%d, %d): got %v, want %v", i/ld, i%ld, got[i], want[i])
						}
					}
				})
			}
		}
	}
}
