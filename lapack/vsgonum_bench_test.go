package cllapack

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
)

// BenchmarkVsGonum times the device's Dpotrf, Dgetrf, Dgeqrf and Dorgqr
// (Q of a square QR) against gonum's on
// the same matrix from a Go slice, alternating the two within every
// iteration so that both see the same load (the machine may be shared).
// It reports each one's mean time per call, x-gonum (gonum's mean over
// ours) and x-gonum-best (gonum's fastest call over our fastest one).
// Orders: -lapack.sizes; the device's settings: the other -lapack flags.
func BenchmarkVsGonum(b *testing.B) {
	impl := benchImpl(b)
	for _, n := range sizes(b) {
		spd := spdBench(n, rand.New(rand.NewPCG(1, uint64(n))))
		rnd := rand.New(rand.NewPCG(2, uint64(n)))
		gen := make([]float64, n*n)
		for k := range gen {
			gen[k] = rnd.NormFloat64()
		}
		ipiv := make([]int, n)
		tau := make([]float64, n)
		work := make([]float64, 1)
		gonum.Implementation{}.Dgeqrf(n, n, gen, n, tau, work, -1)
		lwork := int(work[0])
		gonum.Implementation{}.Dorgqr(n, n, n, gen, n, tau, work, -1)
		work = make([]float64, max(lwork, int(work[0])))
		// The factored matrix Dorgqr forms Q from, and its tau.
		qr, qtau := slices.Clone(gen), make([]float64, n)
		gonum.Implementation{}.Dgeqrf(n, n, qr, n, qtau, work, len(work))
		for _, c := range []struct {
			name string
			orig []float64
			f    func(factorizer, []float64) bool
		}{
			{"Dpotrf", spd, func(f factorizer, a []float64) bool { return f.Dpotrf(blas.Upper, n, a, n) }},
			{"Dgetrf", gen, func(f factorizer, a []float64) bool { return f.Dgetrf(n, n, a, n, ipiv) }},
			{"Dgeqrf", gen, func(f factorizer, a []float64) bool { f.Dgeqrf(n, n, a, n, tau, work, len(work)); return true }},
			{"Dorgqr", qr, func(f factorizer, a []float64) bool { f.Dorgqr(n, n, n, a, n, qtau, work, len(work)); return true }},
		} {
			b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
				a := make([]float64, n*n)
				ims := [2]factorizer{impl, gonum.Implementation{}}
				var tot, best [2]time.Duration
				for i := range b.N {
					for k := range 2 {
						im := ims[(i+k)%2] // alternate which one goes first
						copy(a, c.orig)
						t0 := time.Now()
						if !c.f(im, a) {
							b.Fatal("factorization failed")
						}
						dt := time.Since(t0)
						w := (i + k) % 2
						tot[w] += dt
						if best[w] == 0 || dt < best[w] {
							best[w] = dt
						}
					}
				}
				b.ReportMetric(float64(tot[0].Nanoseconds())/float64(b.N), "device-ns/op")
				b.ReportMetric(float64(tot[1].Nanoseconds())/float64(b.N), "gonum-ns/op")
				b.ReportMetric(float64(tot[1])/float64(tot[0]), "x-gonum")
				b.ReportMetric(float64(best[1])/float64(best[0]), "x-gonum-best")
			})
		}
	}
}
