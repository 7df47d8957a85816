package cllapack

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	lapackgonum "gonum.org/v1/gonum/lapack/gonum"

	clblas "github.com/gocompute/opencl/blas"
	"github.com/gocompute/opencl/platform/platformtest"
)

// timedFactor is impl with the time spent in Dgetrf, Dpotrf and Dgeqrf
// (upload, factorization and read-back) added up in inner and in the
// norms and condition estimates in aux, so that BenchmarkMatFactorize can
// tell them from the rest of mat's call (its own copies).
type timedFactor struct {
	*Implementation
	inner, aux *time.Duration
	// cond is the part of aux in the condition estimates (the rest is
	// the norms).
	cond *time.Duration
}

func (f timedFactor) Dgetrf(m, n int, a []float64, lda int, ipiv []int) bool {
	defer f.since(time.Now())
	return f.Implementation.Dgetrf(m, n, a, lda, ipiv)
}

func (f timedFactor) Dpotrf(ul blas.Uplo, n int, a []float64, lda int) bool {
	defer f.since(time.Now())
	return f.Implementation.Dpotrf(ul, n, a, lda)
}

func (f timedFactor) Dgeqrf(m, n int, a []float64, lda int, tau, work []float64, lwork int) {
	defer f.since(time.Now())
	f.Implementation.Dgeqrf(m, n, a, lda, tau, work, lwork)
}

func (f timedFactor) since(t time.Time) { *f.inner += time.Since(t) }

// The norms and condition estimates mat's Factorize calls (ours, on the
// host), timed into aux.
func (f timedFactor) Dlange(norm lapack.MatrixNorm, m, n int, a []float64, lda int, work []float64) float64 {
	defer f.auxSince(time.Now())
	return f.Implementation.Dlange(norm, m, n, a, lda, work)
}

func (f timedFactor) Dlansy(norm lapack.MatrixNorm, ul blas.Uplo, n int, a []float64, lda int, work []float64) float64 {
	defer f.auxSince(time.Now())
	return f.Implementation.Dlansy(norm, ul, n, a, lda, work)
}

func (f timedFactor) Dgecon(norm lapack.MatrixNorm, n int, a []float64, lda int, anorm float64, work []float64, iwork []int) float64 {
	defer f.condSince(time.Now())
	return f.Implementation.Dgecon(norm, n, a, lda, anorm, work, iwork)
}

func (f timedFactor) Dpocon(ul blas.Uplo, n int, a []float64, lda int, anorm float64, work []float64, iwork []int) float64 {
	defer f.condSince(time.Now())
	return f.Implementation.Dpocon(ul, n, a, lda, anorm, work, iwork)
}

func (f timedFactor) Dtrcon(norm lapack.MatrixNorm, ul blas.Uplo, d blas.Diag, n int, a []float64, lda int, work []float64, iwork []int) float64 {
	defer f.condSince(time.Now())
	return f.Implementation.Dtrcon(norm, ul, d, n, a, lda, work, iwork)
}

func (f timedFactor) auxSince(t time.Time) { *f.aux += time.Since(t) }

func (f timedFactor) condSince(t time.Time) {
	d := time.Since(t)
	*f.aux += d
	*f.cond += d
}

// condSteps times the device steps of the condition estimates through
// condDeviceFail's calls: the factor's upload (from "upload" to the first
// "solve") and the solves that follow it.
type condSteps struct {
	last   time.Time
	upload time.Duration
	solves int
	inUp   bool
}

func (c *condSteps) step(name string) error {
	now := time.Now()
	if c.inUp {
		c.upload += now.Sub(c.last)
		c.inUp = false
	}
	switch name {
	case "upload":
		c.inUp = true
	case "solve":
		c.solves++
	}
	c.last = now
	return nil
}

// BenchmarkMatFactorize times mat.LU, mat.Cholesky and mat.QR's Factorize
// from Go memory with ours installed through blas64.Use and lapack64.Use,
// as a gonum user would (the default offload policy, auto), at the
// -lapack.sizes orders: the whole call, with its norm and condition
// estimate, so that a CPU profile (-test.cpuprofile) shows where the time
// outside the factorization goes. It reports the time inside Dgetrf,
// Dpotrf or Dgeqrf (factor-ms/op), in the norms and condition estimates
// (normcond-ms/op) and in the rest of the call (mat-ms/op).
func BenchmarkMatFactorize(b *testing.B) {
	platformtest.Device(b)
	bl, err := clblas.New()
	if err != nil {
		platformtest.Unavailable(b, fmt.Sprintf("clblas.New: %v", err))
	}
	defer bl.Close()
	impl, err := New(bl)
	if err != nil {
		b.Fatal(err)
	}
	defer impl.Close()
	flag.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "lapack.stage":
			impl.stageIO = *benchStage
		case "lapack.conddevice":
			impl.condDevice = *benchCondDevice
		case "lapack.reuse":
			impl.reuse = *benchReuse
		}
	})
	blas64.Use(bl)
	defer func() {
		lapack64.Use(lapackgonum.Implementation{})
		blas64.Use(gonum.Implementation{})
	}()
	var inner, aux, cond time.Duration
	lapack64.Use(timedFactor{impl, &inner, &aux, &cond})
	var steps condSteps
	condDeviceFail = steps.step
	defer func() { condDeviceFail = nil }()
	reset := func() { inner, aux, cond, steps = 0, 0, 0, condSteps{} }
	report := func(b *testing.B) {
		reportSplit(b, inner, aux)
		b.ReportMetric(cond.Seconds()*1e3/float64(b.N), "cond-ms/op")
		b.ReportMetric(steps.upload.Seconds()*1e3/float64(b.N), "condup-ms/op")
		b.ReportMetric(float64(steps.solves)/float64(b.N), "solves/op")
	}
	for _, n := range sizes(b) {
		gen := mat.NewDense(n, n, generalBench(n))
		sym := mat.NewSymDense(n, spdBench(n, rand.New(rand.NewPCG(1, uint64(n)))))
		b.Run(fmt.Sprintf("LU/n=%d", n), func(b *testing.B) {
			var lu mat.LU
			reset()
			for range b.N {
				lu.Factorize(gen)
			}
			report(b)
		})
		b.Run(fmt.Sprintf("Cholesky/n=%d", n), func(b *testing.B) {
			var ch mat.Cholesky
			reset()
			for range b.N {
				if !ch.Factorize(sym) {
					b.Fatal("Cholesky failed")
				}
			}
			report(b)
		})
		b.Run(fmt.Sprintf("QR/n=%d", n), func(b *testing.B) {
			var qr mat.QR
			reset()
			for range b.N {
				qr.Factorize(gen)
			}
			report(b)
		})
	}
}

// reportSplit reports the time per call inside the factorization (inner
// over b.N calls), in the norms and condition estimates (aux) and in the
// rest of the call (mat's own work).
func reportSplit(b *testing.B, inner, aux time.Duration) {
	per := b.Elapsed().Seconds() * 1e3 / float64(b.N)
	in := inner.Seconds() * 1e3 / float64(b.N)
	ax := aux.Seconds() * 1e3 / float64(b.N)
	b.ReportMetric(in, "factor-ms/op")
	b.ReportMetric(ax, "normcond-ms/op")
	b.ReportMetric(per-in-ax, "mat-ms/op")
}
