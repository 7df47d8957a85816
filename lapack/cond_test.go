package cllapack

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/testlapack"
)

func TestDgeconGonum(t *testing.T) { testlapack.DgeconTest(t, newTestImpl(t, 8)) }
func TestDpoconGonum(t *testing.T) { testlapack.DpoconTest(t, newTestImpl(t, 8)) }
func TestDtrconGonum(t *testing.T) { testlapack.DtrconTest(t, newTestImpl(t, 8)) }

// TestCondEstimates compares Dgecon, Dpocon and Dtrcon, at orders where they solve
// by substitution first, with gonum's on well and badly conditioned
// matrices (columns graded over up to 290 orders of magnitude, where the
// substitution overflows and Dlatrs takes over), both norms and both
// triangles: equal to rounding.
func TestCondEstimates(t *testing.T) { testCondEstimates(t, newTestImpl(t, 32), condFastMin, 150) }

func testCondEstimates(t *testing.T, impl *Implementation, orders ...int) {
	rnd := rand.New(rand.NewPCG(71, 72))
	g := gonum.Implementation{}
	for _, n := range orders {
		for _, grade := range []float64{0, 8, 290} {
			what := fmt.Sprintf("n=%d grade=%g", n, grade)
			a := make([]float64, n*n)
			for i := range n {
				for j := range n {
					a[i*n+j] = rnd.NormFloat64() * math.Pow(10, -grade*float64(j)/float64(n-1))
				}
			}
			lu := append([]float64(nil), a...)
			ipiv := make([]int, n)
			g.Dgetrf(n, n, lu, n, ipiv)
			work, iwork := make([]float64, 4*n), make([]int, n)
			for _, norm := range []lapack.MatrixNorm{lapack.MaxColumnSum, lapack.MaxRowSum} {
				anorm := g.Dlange(norm, n, n, a, n, work)
				got := impl.Dgecon(norm, n, lu, n, anorm, work, iwork)
				want := g.Dgecon(norm, n, lu, n, anorm, work, iwork)
				checkRcond(t, fmt.Sprintf("Dgecon %s %c", what, norm), got, want)
				for _, tri := range []struct {
					ul blas.Uplo
					d  blas.Diag
				}{{blas.Upper, blas.NonUnit}, {blas.Lower, blas.Unit}} {
					got := impl.Dtrcon(norm, tri.ul, tri.d, n, lu, n, work, iwork)
					want := g.Dtrcon(norm, tri.ul, tri.d, n, lu, n, work, iwork)
					checkRcond(t, fmt.Sprintf("Dtrcon %s %c %c %c", what, norm, tri.ul, tri.d), got, want)
				}
			}
			// A = XᵀX + shift·I, from the same graded columns.
			spdA := make([]float64, n*n)
			for i := range n {
				for j := range n {
					var s float64
					for k := range n {
						s += a[k*n+i] * a[k*n+j]
					}
					spdA[i*n+j] = s
				}
				spdA[i*n+i] += math.Pow(10, -2*grade)
			}
			for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
				f := append([]float64(nil), spdA...)
				if !g.Dpotrf(ul, n, f, n) {
					continue // graded beyond what Cholesky takes
				}
				anorm := g.Dlansy(lapack.MaxColumnSum, ul, n, spdA, n, work)
				got := impl.Dpocon(ul, n, f, n, anorm, work, iwork)
				want := g.Dpocon(ul, n, f, n, anorm, work, iwork)
				checkRcond(t, fmt.Sprintf("Dpocon %s %c", what, ul), got, want)
			}
		}
	}
}

// TestCondOverflow gives Dgecon, Dpocon and Dtrcon factors whose last diagonal
// element is subnormal, so that the substitution overflows and gonum's
// Dlatrs must redo the solves, scaled: the same answers as gonum's.
func TestCondOverflow(t *testing.T) { testCondOverflow(t, newTestImpl(t, 32), condFastMin+3) }

func testCondOverflow(t *testing.T, impl *Implementation, n int) {
	rnd := rand.New(rand.NewPCG(73, 74))
	g := gonum.Implementation{}
	f := make([]float64, n*n)
	for i := range n {
		for j := range n {
			f[i*n+j] = rnd.NormFloat64()
		}
		f[i*n+i] = 4 + rnd.Float64()
	}
	work, iwork := make([]float64, 4*n), make([]int, n)
	for _, tiny := range []float64{1e-200, 1e-310} {
		f[n*n-1] = tiny
		for _, norm := range []lapack.MatrixNorm{lapack.MaxColumnSum, lapack.MaxRowSum} {
			got := impl.Dgecon(norm, n, f, n, 3, work, iwork)
			want := g.Dgecon(norm, n, f, n, 3, work, iwork)
			checkRcond(t, fmt.Sprintf("Dgecon U(n,n)=%g %c", tiny, norm), got, want)
			got = impl.Dtrcon(norm, blas.Upper, blas.NonUnit, n, f, n, work, iwork)
			want = g.Dtrcon(norm, blas.Upper, blas.NonUnit, n, f, n, work, iwork)
			checkRcond(t, fmt.Sprintf("Dtrcon U(n,n)=%g %c", tiny, norm), got, want)
		}
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			got := impl.Dpocon(ul, n, f, n, 3, work, iwork)
			want := g.Dpocon(ul, n, f, n, 3, work, iwork)
			checkRcond(t, fmt.Sprintf("Dpocon U(n,n)=%g %c", tiny, ul), got, want)
		}
	}
}

func checkRcond(t *testing.T, what string, got, want float64) {
	t.Helper()
	if got == want || math.Abs(got-want) <= 1e-8*math.Abs(want) {
		return
	}
	t.Errorf("%s: rcond %g, gonum's %g", what, got, want)
}

// TestCondPanics gives Dgecon, Dpocon and Dtrcon, at an order where they
// solve by substitution first, arguments gonum rejects: they panic with
// gonum's messages.
func TestCondPanics(t *testing.T) {
	impl := newTestImpl(t, 32)
	g := gonum.Implementation{}
	n := condFastMin + 1
	a, work, iwork := make([]float64, n*n), make([]float64, 4*n), make([]int, n)
	for i := range n {
		a[i*n+i] = 1
	}
	for _, c := range []struct {
		what      string
		ours, gon func()
	}{
		{"Dgecon lda", func() { impl.Dgecon(lapack.MaxColumnSum, n, a, n-1, 1, work, iwork) },
			func() { g.Dgecon(lapack.MaxColumnSum, n, a, n-1, 1, work, iwork) }},
		{"Dgecon norm", func() { impl.Dgecon('F', n, a, n, 1, work, iwork) },
			func() { g.Dgecon('F', n, a, n, 1, work, iwork) }},
		{"Dgecon anorm", func() { impl.Dgecon(lapack.MaxRowSum, n, a, n, -1, work, iwork) },
			func() { g.Dgecon(lapack.MaxRowSum, n, a, n, -1, work, iwork) }},
		{"Dgecon work", func() { impl.Dgecon(lapack.MaxRowSum, n, a, n, 1, work[:3*n], iwork) },
			func() { g.Dgecon(lapack.MaxRowSum, n, a, n, 1, work[:3*n], iwork) }},
		{"Dpocon uplo", func() { impl.Dpocon('X', n, a, n, 1, work, iwork) },
			func() { g.Dpocon('X', n, a, n, 1, work, iwork) }},
		{"Dpocon a", func() { impl.Dpocon(blas.Upper, n, a[:n*n-1], n, 1, work, iwork) },
			func() { g.Dpocon(blas.Upper, n, a[:n*n-1], n, 1, work, iwork) }},
		{"Dtrcon diag", func() { impl.Dtrcon(lapack.MaxColumnSum, blas.Upper, 'X', n, a, n, work, iwork) },
			func() { g.Dtrcon(lapack.MaxColumnSum, blas.Upper, 'X', n, a, n, work, iwork) }},
		{"Dtrcon iwork", func() { impl.Dtrcon(lapack.MaxColumnSum, blas.Lower, blas.Unit, n, a, n, work, iwork[:n-1]) },
			func() { g.Dtrcon(lapack.MaxColumnSum, blas.Lower, blas.Unit, n, a, n, work, iwork[:n-1]) }},
	} {
		got, want := panicOf(c.ours), panicOf(c.gon)
		if want == "" || got != want {
			t.Errorf("%s: panic %v, gonum's %v", c.what, got, want)
		}
	}
}

// TestCondDevice runs TestCondEstimates' and TestCondOverflow's
// comparisons with gonum with the condition estimates' solves on the
// device (condDevice, from order condFastMin): equal to rounding, and
// Dlatrs on the host where a device solve comes near overflow. Then a
// device solve fails part way through each estimate, or the factor's
// upload fails: the estimate finishes on the host with the same answer,
// and the failure is logged once a routine.
func TestCondDevice(t *testing.T) {
	defer func(m int) { condDeviceMin, condDeviceFail = m, nil }(condDeviceMin)
	condDeviceMin = condFastMin
	var solves int
	condDeviceFail = func(step string) error {
		if step == "solve" {
			solves++
		}
		return nil
	}
	impl := newTestImpl(t, 32)
	impl.condDevice = true
	t.Run("estimates", func(t *testing.T) { testCondEstimates(t, impl, condFastMin, 150) })
	t.Run("overflow", func(t *testing.T) { testCondOverflow(t, impl, condFastMin+3) })
	if solves == 0 {
		t.Fatal("no solve ran on the device")
	}
	for _, failStep := range []string{"solve", "upload"} {
		t.Run(failStep+" failure", func(t *testing.T) {
			var log strings.Builder
			failing := newTestImpl(t, 32)
			failing.condDevice = true
			failing.logger = slog.New(slog.NewTextHandler(&log, nil))
			calls := 0
			condDeviceFail = func(step string) error {
				if step == failStep {
					// Every third solve, or every upload.
					if calls++; step == "upload" || calls%3 == 0 {
						return errors.New("injected failure")
					}
				}
				return nil
			}
			testCondEstimates(t, failing, 150)
			for _, op := range []string{"Dgecon", "Dpocon", "Dtrcon"} {
				if c := strings.Count(log.String(), "routine="+op); c != 1 {
					t.Errorf("%s: logged %d times, want once:\n%s", op, c, log.String())
				}
			}
		})
	}
}
