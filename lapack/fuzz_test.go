package cllapack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/gocompute/opencl/internal/fuzzrand"
)

// FuzzLapack calls one of the routines this package overrides on the
// device (Always, blocks of 8 so that small matrices cross several) and
// gonum's on the same arguments, drawn from the fuzzer's bytes: orders
// 0–40 (now and then up to 70), padded leading dimensions, every enum,
// and now and then one argument made invalid, whose panic must be
// gonum's. The data are well conditioned (a general matrix, or one made
// symmetric positive definite, or triangular with a dominant diagonal),
// and the answers must be gonum's to 1e-9 relative to the largest of
// them; with specials, NaN and ±Inf are planted and then ok and where
// NaN lies must be gonum's. A Cholesky that fails is compared on the
// leading minor before its failing block (TestDpotrfNotPD's contract).
// scripts/test.sh fuzzes it for a bounded time.
func FuzzLapack(f *testing.F) {
	// Seeds: eight a routine, half of them with specials.
	for i := range lapackFuzzCases {
		rnd := rand.New(rand.NewPCG(uint64(i), 29))
		for s := range 8 {
			seed := make([]byte, 40)
			for j := range seed {
				seed[j] = byte(rnd.Uint32())
			}
			f.Add(uint8(i), s%2 == 1, seed)
		}
	}
	f.Fuzz(func(t *testing.T, routine uint8, specials bool, data []byte) {
		impl := newTestImpl(t, 8)
		c := lapackFuzzCases[int(routine)%len(lapackFuzzCases)]
		g := &lapackGen{rnd: newLapackFuzzRand(data), specials: specials}
		c.run(t, impl, g)
	})
}

// newLapackFuzzRand draws a call's arguments from the fuzzer's bytes, a
// byte a draw (internal/fuzzrand).
func newLapackFuzzRand(data []byte) *rand.Rand { return fuzzrand.New(data, 23) }

// lapackGen draws one call's arguments.
type lapackGen struct {
	rnd      *rand.Rand
	specials bool
	broken   bool // an argument was made invalid: only the panics are compared
}

// order is a matrix order: 0–40, now and then up to 70.
func (g *lapackGen) order() int {
	if g.rnd.IntN(8) == 0 {
		return g.rnd.IntN(71)
	}
	return g.rnd.IntN(41)
}

// ld is a leading dimension for rows of c elements: c or a little more,
// and now and then (invalid) one less.
func (g *lapackGen) ld(c int) int {
	if g.bad() && c > 1 {
		return c - 1
	}
	return max(c, 1) + g.rnd.IntN(4)
}

// bad reports whether to make this argument invalid (at most one a call).
func (g *lapackGen) bad() bool {
	if g.broken || g.rnd.IntN(24) != 0 {
		return false
	}
	g.broken = true
	return true
}

// size is an order, now and then (invalid) negative.
func (g *lapackGen) size() int {
	if g.bad() {
		return -1 - g.rnd.IntN(3)
	}
	return g.order()
}

func (g *lapackGen) uplo() blas.Uplo {
	if g.bad() {
		return 'X'
	}
	return []blas.Uplo{blas.Upper, blas.Lower}[g.rnd.IntN(2)]
}

func (g *lapackGen) trans() blas.Transpose {
	if g.bad() {
		return 'X'
	}
	return []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans}[g.rnd.IntN(3)]
}

func (g *lapackGen) diag() blas.Diag {
	if g.bad() {
		return 'X'
	}
	return []blas.Diag{blas.NonUnit, blas.Unit}[g.rnd.IntN(2)]
}

func (g *lapackGen) side() blas.Side {
	if g.bad() {
		return 'X'
	}
	return []blas.Side{blas.Left, blas.Right}[g.rnd.IntN(2)]
}

func (g *lapackGen) norm() lapack.MatrixNorm {
	if g.bad() {
		return 'X'
	}
	return []lapack.MatrixNorm{lapack.MaxAbs, lapack.MaxColumnSum, lapack.MaxRowSum, lapack.Frobenius}[g.rnd.IntN(4)]
}

// matrix is an r×c matrix of standard normal elements with row stride ld,
// its padding NaN (never read), now and then (invalid) one element short.
func (g *lapackGen) matrix(r, c, ld int) []float64 {
	n := 0
	if r > 0 && c > 0 {
		n = (r-1)*ld + c
	}
	a := make([]float64, n)
	for i := range a {
		if c > 0 && i%ld >= c {
			a[i] = math.NaN()
			continue
		}
		a[i] = g.rnd.NormFloat64()
	}
	if n > 0 && g.bad() {
		a = a[:n-1]
	}
	return a
}

// plant puts NaN or ±Inf into one to three elements of the r×c matrix a
// (row stride ld) when the call draws specials.
func (g *lapackGen) plant(a []float64, r, c, ld int) {
	if !g.specials || r <= 0 || c <= 0 || len(a) < (r-1)*ld+c {
		return
	}
	for range 1 + g.rnd.IntN(3) {
		a[g.rnd.IntN(r)*ld+g.rnd.IntN(c)] = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[g.rnd.IntN(3)]
	}
}

// spdOf makes the n×n matrix a (row stride ld) symmetric with a dominant
// diagonal, so positive definite.
func spdOf(a []float64, n, ld int) {
	for i := range n {
		for j := range i {
			a[j*ld+i] = a[i*ld+j]
		}
		a[i*ld+i] = math.Abs(a[i*ld+i]) + float64(n)
	}
}

// dominant makes the diagonal of the n×n matrix a dominate its rows.
func dominant(a []float64, n, ld int) {
	for i := range n {
		a[i*ld+i] = math.Copysign(math.Abs(a[i*ld+i])+float64(n), a[i*ld+i])
	}
}

// lapackFuzzCase is one routine with its argument maker: run calls it on
// the device and on gonum with the same arguments and compares.
type lapackFuzzCase struct {
	name string
	run  func(t *testing.T, impl *Implementation, g *lapackGen)
}

// compareCall runs ours and gonum's (each on its own copies of the
// arguments, made by the caller), compares their panics, and then, if
// neither panicked, calls check.
func compareCall(t *testing.T, what string, ours, gon func(), check func()) {
	t.Helper()
	got, want := panicOf(ours), panicOf(gon)
	if got != want {
		t.Fatalf("%s: panic %q, gonum's %q", what, got, want)
	}
	if got == "" {
		check()
	}
}

// sameFloats fails t unless got is want: NaN where want has NaN, the same
// infinities, and elsewhere within 1e-9 of the largest finite |want|
// (1 at least); with nanOnly, only where NaN lies is compared.
func sameFloats(t *testing.T, what string, got, want []float64, nanOnly bool) {
	t.Helper()
	scale := 1.0
	for _, w := range want {
		if !math.IsNaN(w) && !math.IsInf(w, 0) {
			scale = max(scale, math.Abs(w))
		}
	}
	for i := range want {
		w, v := want[i], got[i]
		switch {
		case math.IsNaN(w) != math.IsNaN(v):
			t.Fatalf("%s: element %d is %v, gonum's %v", what, i, v, w)
		case nanOnly || math.IsNaN(w):
		case math.IsInf(w, 0) || math.IsInf(v, 0):
			if v != w {
				t.Fatalf("%s: element %d is %v, gonum's %v", what, i, v, w)
			}
		case math.Abs(v-w) > 1e-9*scale:
			t.Fatalf("%s: element %d is %v, gonum's %v (scale %g)", what, i, v, w, scale)
		}
	}
}

// compareScalar is compareCall for routines that return a number.
func compareScalar(t *testing.T, what string, ours, gon func() float64) {
	t.Helper()
	var r1, r2 float64
	compareCall(t, what, func() { r1 = ours() }, func() { r2 = gon() }, func() {
		sameFloats(t, what, []float64{r1}, []float64{r2}, false)
	})
}

func clone2(a []float64) ([]float64, []float64) { return clone(a), clone(a) }

var lapackFuzzCases = []lapackFuzzCase{
	{"Dgetrf", func(t *testing.T, impl *Implementation, g *lapackGen) {
		m, n := g.size(), g.size()
		lda := g.ld(n)
		a := g.matrix(max(m, 0), max(n, 0), lda)
		g.plant(a, m, n, lda)
		p1, p2 := make([]int, max(min(m, n), 0)), make([]int, max(min(m, n), 0))
		if len(p1) > 0 && g.bad() {
			p1, p2 = p1[1:], p2[1:]
		}
		a1, a2 := clone2(a)
		var ok1, ok2 bool
		what := fmt.Sprintf("Dgetrf(%d, %d, lda %d, specials %v)", m, n, lda, g.specials)
		compareCall(t, what, func() { ok1 = impl.Dgetrf(m, n, a1, lda, p1) }, func() { ok2 = gonum.Implementation{}.Dgetrf(m, n, a2, lda, p2) }, func() {
			if ok1 != ok2 {
				t.Fatalf("%s: ok %v, gonum's %v", what, ok1, ok2)
			}
			if !g.specials {
				for i := range p1 {
					if p1[i] != p2[i] {
						t.Fatalf("%s: pivot %d is %d, gonum's %d", what, i, p1[i], p2[i])
					}
				}
			}
			sameFloats(t, what, a1, a2, g.specials)
		})
	}},
	{"Dgetrs", func(t *testing.T, impl *Implementation, g *lapackGen) {
		tr, n, nrhs := g.trans(), g.size(), g.rnd.IntN(6)
		lda, ldb := g.ld(n), g.ld(nrhs)
		a := g.matrix(max(n, 0), max(n, 0), lda)
		ipiv := make([]int, max(n, 0))
		if n > 0 && !g.broken {
			dominant(a, n, lda)
			gonum.Implementation{}.Dgetrf(n, n, a, lda, ipiv)
		}
		b := g.matrix(max(n, 0), nrhs, ldb)
		g.plant(b, n, nrhs, ldb)
		b1, b2 := clone2(b)
		what := fmt.Sprintf("Dgetrs(%c, %d, %d, lda %d, ldb %d)", tr, n, nrhs, lda, ldb)
		compareCall(t, what, func() { impl.Dgetrs(tr, n, nrhs, a, lda, ipiv, b1, ldb) }, func() { gonum.Implementation{}.Dgetrs(tr, n, nrhs, a, lda, ipiv, b2, ldb) }, func() {
			sameFloats(t, what, b1, b2, g.specials)
		})
	}},
	{"Dpotrf", func(t *testing.T, impl *Implementation, g *lapackGen) {
		ul, n := g.uplo(), g.size()
		lda := g.ld(n)
		a := g.matrix(max(n, 0), max(n, 0), lda)
		if n > 0 && !g.broken {
			spdOf(a, n, lda)
			if g.specials && g.rnd.IntN(2) == 0 {
				k := g.rnd.IntN(n) // not positive definite from step k on
				a[k*lda+k] = -a[k*lda+k]
			} else {
				g.plant(a, n, n, lda)
			}
		}
		a1, a2 := clone2(a)
		var ok1, ok2 bool
		what := fmt.Sprintf("Dpotrf(%c, %d, lda %d, specials %v)", ul, n, lda, g.specials)
		compareCall(t, what, func() { ok1 = impl.Dpotrf(ul, n, a1, lda) }, func() { ok2 = gonum.Implementation{}.Dpotrf(ul, n, a2, lda) }, func() {
			if ok1 != ok2 {
				t.Fatalf("%s: ok %v, gonum's %v", what, ok1, ok2)
			}
			if ok2 {
				sameFloats(t, what, a1, a2, g.specials)
				return
			}
			// Not positive definite: gonum's factor and ours agree on
			// the leading minor before the block that failed.
			r := 0
			for r < n && a2[r*lda+r] > 0 && !math.IsInf(a2[r*lda+r], 0) {
				r++
			}
			r = r / 8 * 8
			for i := range r {
				sameFloats(t, fmt.Sprintf("%s, row %d of the leading %d", what, i, r), a1[i*lda:i*lda+r], a2[i*lda:i*lda+r], false)
			}
		})
	}},
	{"Dpotrs", func(t *testing.T, impl *Implementation, g *lapackGen) {
		ul, n, nrhs := g.uplo(), g.size(), g.rnd.IntN(6)
		lda, ldb := g.ld(n), g.ld(nrhs)
		a := g.matrix(max(n, 0), max(n, 0), lda)
		if n > 0 && !g.broken {
			spdOf(a, n, lda)
			gonum.Implementation{}.Dpotrf(ul, n, a, lda)
		}
		b := g.matrix(max(n, 0), nrhs, ldb)
		g.plant(b, n, nrhs, ldb)
		b1, b2 := clone2(b)
		what := fmt.Sprintf("Dpotrs(%c, %d, %d, lda %d, ldb %d)", ul, n, nrhs, lda, ldb)
		compareCall(t, what, func() { impl.Dpotrs(ul, n, nrhs, a, lda, b1, ldb) }, func() { gonum.Implementation{}.Dpotrs(ul, n, nrhs, a, lda, b2, ldb) }, func() {
			sameFloats(t, what, b1, b2, g.specials)
		})
	}},
	{"Dgeqrf", func(t *testing.T, impl *Implementation, g *lapackGen) {
		m, n := g.size(), g.size()
		lda := g.ld(n)
		a := g.matrix(max(m, 0), max(n, 0), lda)
		g.plant(a, m, n, lda)
		k := max(min(m, n), 0)
		tau1, tau2 := make([]float64, k), make([]float64, k)
		lwork := max(n, 1) * 64
		a1, a2 := clone2(a)
		what := fmt.Sprintf("Dgeqrf(%d, %d, lda %d, specials %v)", m, n, lda, g.specials)
		compareCall(t, what, func() { impl.Dgeqrf(m, n, a1, lda, tau1, make([]float64, lwork), lwork) },
			func() { gonum.Implementation{}.Dgeqrf(m, n, a2, lda, tau2, make([]float64, lwork), lwork) }, func() {
				sameFloats(t, what+" tau", tau1, tau2, g.specials)
				sameFloats(t, what, a1, a2, g.specials)
			})
	}},
	{"Dorgqr", func(t *testing.T, impl *Implementation, g *lapackGen) {
		m := g.order()
		n := g.rnd.IntN(m + 1)
		k := g.rnd.IntN(n + 1)
		lda := g.ld(n)
		a := g.matrix(m, n, lda)
		tau := make([]float64, min(m, n))
		lwork := max(n, 1) * 64
		if m > 0 && n > 0 && !g.broken {
			gonum.Implementation{}.Dgeqrf(m, n, a, lda, tau, make([]float64, lwork), lwork)
		}
		tau = tau[:k]
		g.plant(a, m, n, lda)
		a1, a2 := clone2(a)
		what := fmt.Sprintf("Dorgqr(%d, %d, %d, lda %d)", m, n, k, lda)
		compareCall(t, what, func() { impl.Dorgqr(m, n, k, a1, lda, tau, make([]float64, lwork), lwork) },
			func() { gonum.Implementation{}.Dorgqr(m, n, k, a2, lda, tau, make([]float64, lwork), lwork) }, func() {
				sameFloats(t, what, a1, a2, g.specials)
			})
	}},
	{"Dormqr", func(t *testing.T, impl *Implementation, g *lapackGen) {
		side, tr := g.side(), g.trans()
		if tr == blas.ConjTrans {
			tr = blas.Trans
		}
		m, n := g.order(), g.order()
		nq := m
		if side == blas.Right {
			nq = n
		}
		k := g.rnd.IntN(nq + 1)
		lda := g.ld(k)
		a := g.matrix(nq, k, lda)
		tau := make([]float64, k)
		lwork := max(m, n, 1) * 64
		if nq > 0 && k > 0 && !g.broken {
			gonum.Implementation{}.Dgeqrf(nq, k, a, lda, tau, make([]float64, lwork), lwork)
		}
		if g.rnd.IntN(2) == 0 {
			g.plant(a, nq, k, lda)
		}
		ldc := g.ld(n)
		c := g.matrix(m, n, ldc)
		g.plant(c, m, n, ldc)
		c1, c2 := clone2(c)
		what := fmt.Sprintf("Dormqr(%c, %c, %d, %d, %d, lda %d, ldc %d)", side, tr, m, n, k, lda, ldc)
		compareCall(t, what, func() { impl.Dormqr(side, tr, m, n, k, a, lda, tau, c1, ldc, make([]float64, lwork), lwork) },
			func() {
				gonum.Implementation{}.Dormqr(side, tr, m, n, k, a, lda, tau, c2, ldc, make([]float64, lwork), lwork)
			}, func() {
				sameFloats(t, what, c1, c2, g.specials)
			})
	}},
	{"Dtrtrs", func(t *testing.T, impl *Implementation, g *lapackGen) {
		ul, tr, dg, n, nrhs := g.uplo(), g.trans(), g.diag(), g.size(), g.rnd.IntN(6)
		lda, ldb := g.ld(n), g.ld(nrhs)
		a := g.matrix(max(n, 0), max(n, 0), lda)
		if n > 0 && !g.broken {
			dominant(a, n, lda)
			if g.specials && g.rnd.IntN(2) == 0 {
				k := g.rnd.IntN(n) // exactly singular
				a[k*lda+k] = 0
			}
		}
		b := g.matrix(max(n, 0), nrhs, ldb)
		g.plant(b, n, nrhs, ldb)
		b1, b2 := clone2(b)
		var ok1, ok2 bool
		what := fmt.Sprintf("Dtrtrs(%c, %c, %c, %d, %d, lda %d, ldb %d)", ul, tr, dg, n, nrhs, lda, ldb)
		compareCall(t, what, func() { ok1 = impl.Dtrtrs(ul, tr, dg, n, nrhs, a, lda, b1, ldb) },
			func() { ok2 = gonum.Implementation{}.Dtrtrs(ul, tr, dg, n, nrhs, a, lda, b2, ldb) }, func() {
				if ok1 != ok2 {
					t.Fatalf("%s: ok %v, gonum's %v", what, ok1, ok2)
				}
				sameFloats(t, what, b1, b2, g.specials)
			})
	}},
	{"Dlange", func(t *testing.T, impl *Implementation, g *lapackGen) {
		nm, m, n := g.norm(), g.size(), g.size()
		lda := g.ld(n)
		a := g.matrix(max(m, 0), max(n, 0), lda)
		g.plant(a, m, n, lda)
		compareScalar(t, fmt.Sprintf("Dlange(%c, %d, %d, lda %d, specials %v)", nm, m, n, lda, g.specials),
			func() float64 { return impl.Dlange(nm, m, n, a, lda, make([]float64, max(n, 0))) },
			func() float64 { return gonum.Implementation{}.Dlange(nm, m, n, a, lda, make([]float64, max(n, 0))) })
	}},
	{"Dlansy", func(t *testing.T, impl *Implementation, g *lapackGen) {
		nm, ul, n := g.norm(), g.uplo(), g.size()
		lda := g.ld(n)
		a := g.matrix(max(n, 0), max(n, 0), lda)
		g.plant(a, n, n, lda)
		compareScalar(t, fmt.Sprintf("Dlansy(%c, %c, %d, lda %d, specials %v)", nm, ul, n, lda, g.specials),
			func() float64 { return impl.Dlansy(nm, ul, n, a, lda, make([]float64, max(n, 0))) },
			func() float64 { return gonum.Implementation{}.Dlansy(nm, ul, n, a, lda, make([]float64, max(n, 0))) })
	}},
	{"Dlantr", func(t *testing.T, impl *Implementation, g *lapackGen) {
		nm, ul, dg, m, n := g.norm(), g.uplo(), g.diag(), g.size(), g.size()
		lda := g.ld(n)
		a := g.matrix(max(m, 0), max(n, 0), lda)
		g.plant(a, m, n, lda)
		compareScalar(t, fmt.Sprintf("Dlantr(%c, %c, %c, %d, %d, lda %d, specials %v)", nm, ul, dg, m, n, lda, g.specials),
			func() float64 { return impl.Dlantr(nm, ul, dg, m, n, a, lda, make([]float64, max(n, 0))) },
			func() float64 {
				return gonum.Implementation{}.Dlantr(nm, ul, dg, m, n, a, lda, make([]float64, max(n, 0)))
			})
	}},
	{"Dgecon", func(t *testing.T, impl *Implementation, g *lapackGen) {
		nm, n := g.norm(), g.size()
		if nm == lapack.MaxAbs || nm == lapack.Frobenius {
			nm = lapack.MaxColumnSum
		}
		lda := g.ld(n)
		a := g.matrix(max(n, 0), max(n, 0), lda)
		anorm := 0.0
		if n > 0 && !g.broken {
			dominant(a, n, lda)
			anorm = gonum.Implementation{}.Dlange(nm, n, n, a, lda, make([]float64, n))
			gonum.Implementation{}.Dgetrf(n, n, a, lda, make([]int, n))
		}
		compareScalar(t, fmt.Sprintf("Dgecon(%c, %d, lda %d)", nm, n, lda),
			func() float64 {
				return impl.Dgecon(nm, n, a, lda, anorm, make([]float64, 4*max(n, 1)), make([]int, max(n, 1)))
			},
			func() float64 {
				return gonum.Implementation{}.Dgecon(nm, n, a, lda, anorm, make([]float64, 4*max(n, 1)), make([]int, max(n, 1)))
			})
	}},
	{"Dpocon", func(t *testing.T, impl *Implementation, g *lapackGen) {
		ul, n := g.uplo(), g.size()
		lda := g.ld(n)
		a := g.matrix(max(n, 0), max(n, 0), lda)
		anorm := 0.0
		if n > 0 && !g.broken {
			spdOf(a, n, lda)
			anorm = gonum.Implementation{}.Dlansy(lapack.MaxColumnSum, ul, n, a, lda, make([]float64, n))
			gonum.Implementation{}.Dpotrf(ul, n, a, lda)
		}
		compareScalar(t, fmt.Sprintf("Dpocon(%c, %d, lda %d)", ul, n, lda),
			func() float64 {
				return impl.Dpocon(ul, n, a, lda, anorm, make([]float64, 3*max(n, 1)), make([]int, max(n, 1)))
			},
			func() float64 {
				return gonum.Implementation{}.Dpocon(ul, n, a, lda, anorm, make([]float64, 3*max(n, 1)), make([]int, max(n, 1)))
			})
	}},
	{"Dtrcon", func(t *testing.T, impl *Implementation, g *lapackGen) {
		nm, ul, dg, n := g.norm(), g.uplo(), g.diag(), g.size()
		if nm == lapack.MaxAbs || nm == lapack.Frobenius {
			nm = lapack.MaxRowSum
		}
		lda := g.ld(n)
		a := g.matrix(max(n, 0), max(n, 0), lda)
		if n > 0 && !g.broken {
			dominant(a, n, lda)
		}
		compareScalar(t, fmt.Sprintf("Dtrcon(%c, %c, %c, %d, lda %d)", nm, ul, dg, n, lda),
			func() float64 {
				return impl.Dtrcon(nm, ul, dg, n, a, lda, make([]float64, 3*max(n, 1)), make([]int, max(n, 1)))
			},
			func() float64 {
				return gonum.Implementation{}.Dtrcon(nm, ul, dg, n, a, lda, make([]float64, 3*max(n, 1)), make([]int, max(n, 1)))
			})
	}},
}
