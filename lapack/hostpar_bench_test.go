package cllapack

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	gonumblas "gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
)

var benchHostSizes = flag.String("lapack.hostsizes", "4096",
	"comma-separated orders of BenchmarkHostNorms and BenchmarkCondSolves")

// alternate times ours and gonum's, one after the other in every
// iteration (which goes first alternating, so that both see the same
// load on a shared machine), and reports each one's mean time per call,
// x-gonum (gonum's mean over ours) and x-gonum-best (gonum's fastest call
// over our fastest). prep, if not nil, runs untimed before each call.
func alternate(b *testing.B, prep, ours, theirs func()) {
	fs := [2]func(){ours, theirs}
	var tot, best [2]time.Duration
	for i := range b.N {
		for k := range 2 {
			w := (i + k) % 2
			if prep != nil {
				prep()
			}
			t0 := time.Now()
			fs[w]()
			dt := time.Since(t0)
			tot[w] += dt
			if best[w] == 0 || dt < best[w] {
				best[w] = dt
			}
		}
	}
	b.ReportMetric(float64(tot[0].Nanoseconds())/float64(b.N), "ours-ns/op")
	b.ReportMetric(float64(tot[1].Nanoseconds())/float64(b.N), "gonum-ns/op")
	b.ReportMetric(float64(tot[1])/float64(tot[0]), "x-gonum")
	b.ReportMetric(float64(best[1])/float64(best[0]), "x-gonum-best")
}

// BenchmarkHostNorms times Dlange, Dlansy and Dlantr, in the norms mat's
// factorizations ask for and the others, against gonum's on the same
// random n×n matrix (alternate). Orders: -lapack.hostsizes.
func BenchmarkHostNorms(b *testing.B) {
	impl, g := &Implementation{}, gonum.Implementation{}
	for _, n := range parseOrders(b, "lapack.hostsizes", *benchHostSizes) {
		a := normMatrix(rand.New(rand.NewPCG(5, uint64(n))), n, n, n, "none")
		work := make([]float64, n)
		for _, norm := range []lapack.MatrixNorm{lapack.MaxAbs, lapack.MaxColumnSum, lapack.MaxRowSum} {
			b.Run(fmt.Sprintf("Dlange/%c/n=%d", norm, n), func(b *testing.B) {
				alternate(b, nil, func() { impl.Dlange(norm, n, n, a, n, work) },
					func() { g.Dlange(norm, n, n, a, n, work) })
			})
			for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
				b.Run(fmt.Sprintf("Dlansy/%c/%c/n=%d", norm, ul, n), func(b *testing.B) {
					alternate(b, nil, func() { impl.Dlansy(norm, ul, n, a, n, work) },
						func() { g.Dlansy(norm, ul, n, a, n, work) })
				})
				b.Run(fmt.Sprintf("Dlantr/%c/%c/n=%d", norm, ul, n), func(b *testing.B) {
					alternate(b, nil, func() { impl.Dlantr(norm, ul, blas.NonUnit, n, n, a, n, work) },
						func() { g.Dlantr(norm, ul, blas.NonUnit, n, n, a, n, work) })
				})
			}
		}
	}
}

// BenchmarkCondSolves times, on a well-conditioned n×n triangle, the
// substitution of the condition estimates (solveTri's: trsvBlocked from
// parSolveMin on) against gonum's Dtrsv, for every triangle and
// transpose, and then Dpocon, Dtrcon and Dgecon whole against gonum's.
// Orders: -lapack.hostsizes.
func BenchmarkCondSolves(b *testing.B) {
	impl, g := &Implementation{}, gonum.Implementation{}
	for _, n := range parseOrders(b, "lapack.hostsizes", *benchHostSizes) {
		rnd := rand.New(rand.NewPCG(6, uint64(n)))
		x, cnorm := make([]float64, n), make([]float64, n)
		prep := func() {
			for i := range x {
				x[i] = 1
			}
		}
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			a := wellTri(rnd, ul, blas.NonUnit, n, n)
			for _, t := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				b.Run(fmt.Sprintf("solve/%c/%c/n=%d", ul, t, n), func(b *testing.B) {
					alternate(b, prep, func() { impl.solveTri(nil, ul, t, blas.NonUnit, n, a, n, x, cnorm) },
						func() { gonumblas.Implementation{}.Dtrsv(ul, t, blas.NonUnit, n, a, n, x, 1) })
				})
			}
		}
		u := wellTri(rnd, blas.Upper, blas.NonUnit, n, n)
		for k, v := range wellTri(rnd, blas.Lower, blas.Unit, n, n) {
			if v == v { // the strict lower triangle: u holds an LU factorization
				u[k] = v
			}
		}
		work, iwork := make([]float64, 4*n), make([]int, n)
		for _, c := range []struct {
			name        string
			ours, gonum func()
		}{
			{"Dpocon", func() { impl.Dpocon(blas.Upper, n, u, n, 1, work, iwork) },
				func() { g.Dpocon(blas.Upper, n, u, n, 1, work, iwork) }},
			{"Dtrcon", func() { impl.Dtrcon(lapack.MaxRowSum, blas.Upper, blas.NonUnit, n, u, n, work, iwork) },
				func() { g.Dtrcon(lapack.MaxRowSum, blas.Upper, blas.NonUnit, n, u, n, work, iwork) }},
			{"Dgecon", func() { impl.Dgecon(lapack.MaxRowSum, n, u, n, 1, work, iwork) },
				func() { g.Dgecon(lapack.MaxRowSum, n, u, n, 1, work, iwork) }},
		} {
			b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) { alternate(b, nil, c.ours, c.gonum) })
		}
	}
}
