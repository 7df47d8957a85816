package cllapack

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	blasgonum "gonum.org/v1/gonum/blas/gonum"
)

var residOrders = flag.String("lapack.resid", "96,257",
	"comma-separated orders for TestResiduals (e.g. 4096 on a GPU)")

const (
	// residEps is LAPACK's dlamch('E'), the relative machine precision.
	residEps = 0x1p-53
	// residThresh is the threshold of LAPACK's test suite for the scaled
	// residuals.
	residThresh = 30
)

// TestResiduals checks the backward errors of the device factorizations as
// LAPACK's test suite does (DGET01, DPOT01, DQRT01), with ε = 2⁻⁵³ and the
// products formed by gonum's BLAS, not ours:
//
//	LU (Dgetrf):          ‖Pᵀ·A − L·U‖₁ / (n·‖A‖₁·ε)
//	Cholesky (Dpotrf):    ‖A − Uᵀ·U‖₁ / (n·‖A‖₁·ε)
//	QR (Dgeqrf, Dorgqr):  ‖A − Q·R‖₁ / (n·‖A‖₁·ε)  and  ‖I − Qᵀ·Q‖₁ / (n·ε)
//
// Each must be below 30, LAPACK's threshold. The matrices are random
// (normal for LU and QR, diagonally dominant SPD for Cholesky) at the
// orders in -lapack.resid, and ill-conditioned ones of order 64 (Hilbert;
// rows and columns graded over 16 decades) for LU and QR. Every call must
// have finished on the device, not fallen back to gonum.
func TestResiduals(t *testing.T) {
	impl := newTestImpl(t, 0)
	for _, n := range residSizes(t) {
		t.Run(fmt.Sprintf("random/n=%d", n), func(t *testing.T) {
			a := randNormal(n, rand.New(rand.NewPCG(21, uint64(n))))
			checkLU(t, impl, n, a)
			checkQR(t, impl, n, a)
			checkCholesky(t, impl, n, spdBench(n, rand.New(rand.NewPCG(22, uint64(n)))))
		})
	}
	const n = 64
	for _, c := range []struct {
		name string
		a    []float64
	}{
		{"hilbert", hilbert(n)},
		{"graded", graded(n, rand.New(rand.NewPCG(23, n)))},
	} {
		t.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(t *testing.T) {
			checkLU(t, impl, n, c.a)
			checkQR(t, impl, n, c.a)
		})
	}
}

// residSizes returns the orders in -lapack.resid.
func residSizes(t *testing.T) []int { return parseOrders(t, "lapack.resid", *residOrders) }

// checkLU factorises a copy of the n×n matrix a with impl.Dgetrf and checks
// ‖Pᵀ·A − L·U‖₁ / (n·‖A‖₁·ε).
func checkLU(t *testing.T, impl *Implementation, n int, a []float64) {
	t.Helper()
	f := clone(a)
	ipiv := make([]int, n)
	wantDevice(t, impl, "Dgetrf", func() {
		if !impl.Dgetrf(n, n, f, n, ipiv) {
			t.Errorf("Dgetrf: exactly singular U")
		}
	})
	l, u := make([]float64, n*n), make([]float64, n*n)
	for i := range n {
		copy(l[i*n:i*n+i], f[i*n:i*n+i])
		l[i*n+i] = 1
		copy(u[i*n+i:(i+1)*n], f[i*n+i:(i+1)*n])
	}
	// Pᵀ·A: A's rows interchanged as Dgetrf did, first to last.
	r := clone(a)
	for i, p := range ipiv {
		if p != i {
			for j := range n {
				r[i*n+j], r[p*n+j] = r[p*n+j], r[i*n+j]
			}
		}
	}
	blasgonum.Implementation{}.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, -1, l, n, u, n, 1, r, n)
	checkResid(t, "LU ‖PᵀA − LU‖₁/(n‖A‖₁ε)", norm1(n, r)/(float64(n)*norm1(n, a)*residEps))
}

// checkCholesky factorises a copy of the symmetric positive definite n×n
// matrix a (both triangles) with impl.Dpotrf(blas.Upper) and checks
// ‖A − Uᵀ·U‖₁ / (n·‖A‖₁·ε).
func checkCholesky(t *testing.T, impl *Implementation, n int, a []float64) {
	t.Helper()
	f := clone(a)
	wantDevice(t, impl, "Dpotrf", func() {
		if !impl.Dpotrf(blas.Upper, n, f, n) {
			t.Errorf("Dpotrf: not positive definite")
		}
	})
	u := upper(n, f)
	r := clone(a)
	blasgonum.Implementation{}.Dgemm(blas.Trans, blas.NoTrans, n, n, n, -1, u, n, u, n, 1, r, n)
	checkResid(t, "Cholesky ‖A − UᵀU‖₁/(n‖A‖₁ε)", norm1(n, r)/(float64(n)*norm1(n, a)*residEps))
}

// checkQR factorises a copy of the n×n matrix a with impl.Dgeqrf, forms Q
// with impl.Dorgqr and checks ‖A − Q·R‖₁ / (n·‖A‖₁·ε) and
// ‖I − Qᵀ·Q‖₁ / (n·ε).
func checkQR(t *testing.T, impl *Implementation, n int, a []float64) {
	t.Helper()
	f := clone(a)
	tau := make([]float64, n)
	work := make([]float64, 1)
	impl.Dgeqrf(n, n, f, n, tau, work, -1)
	work = make([]float64, int(work[0]))
	wantDevice(t, impl, "Dgeqrf", func() { impl.Dgeqrf(n, n, f, n, tau, work, len(work)) })
	q := clone(f)
	impl.Dorgqr(n, n, n, q, n, tau, work[:1], -1)
	if lw := int(work[0]); lw > len(work) {
		work = make([]float64, lw)
	}
	wantDevice(t, impl, "Dorgqr", func() { impl.Dorgqr(n, n, n, q, n, tau, work, len(work)) })

	bi := blasgonum.Implementation{}
	r := clone(a)
	bi.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, -1, q, n, upper(n, f), n, 1, r, n)
	checkResid(t, "QR ‖A − QR‖₁/(n‖A‖₁ε)", norm1(n, r)/(float64(n)*norm1(n, a)*residEps))
	e := make([]float64, n*n)
	for i := range n {
		e[i*n+i] = 1
	}
	bi.Dgemm(blas.Trans, blas.NoTrans, n, n, n, -1, q, n, q, n, 1, e, n)
	checkResid(t, "QR ‖I − QᵀQ‖₁/(nε)", norm1(n, e)/(float64(n)*residEps))
}

// wantDevice runs call and fails t unless impl finished exactly one call on
// the device during it (a device error falls back to gonum silently).
func wantDevice(t *testing.T, impl *Implementation, routine string, call func()) {
	t.Helper()
	before := impl.onDevice.Load()
	call()
	if got := impl.onDevice.Load() - before; got != 1 {
		t.Fatalf("%s: %d calls finished on the device, want 1", routine, got)
	}
}

// checkResid logs the scaled residual r, failing t unless r < residThresh.
func checkResid(t *testing.T, name string, r float64) {
	t.Helper()
	if !(r < residThresh) {
		t.Errorf("%s = %.3g, want < %d", name, r, residThresh)
		return
	}
	t.Logf("%s = %.3g", name, r)
}

// norm1 returns ‖A‖₁, the largest absolute column sum of the n×n matrix a.
func norm1(n int, a []float64) float64 {
	sum := make([]float64, n)
	for i := range n {
		for j, v := range a[i*n : (i+1)*n] {
			sum[j] += math.Abs(v)
		}
	}
	var m float64
	for _, s := range sum {
		if !(s <= m) { // NaN propagates
			m = s
		}
	}
	return m
}

// upper returns the upper triangle of the n×n matrix a, zeros below.
func upper(n int, a []float64) []float64 {
	u := make([]float64, n*n)
	for i := range n {
		copy(u[i*n+i:(i+1)*n], a[i*n+i:(i+1)*n])
	}
	return u
}

func clone(a []float64) []float64 { return append([]float64(nil), a...) }

// randNormal returns an n×n matrix of standard normal elements.
func randNormal(n int, rnd *rand.Rand) []float64 {
	a := make([]float64, n*n)
	for i := range a {
		a[i] = rnd.NormFloat64()
	}
	return a
}

// hilbert returns the n×n Hilbert matrix, a[i,j] = 1/(i+j+1).
func hilbert(n int) []float64 {
	a := make([]float64, n*n)
	for i := range n {
		for j := range n {
			a[i*n+j] = 1 / float64(i+j+1)
		}
	}
	return a
}

// graded returns D·G·D with G an n×n standard normal matrix and
// D = diag(10^(−16·i/(n−1))), so that its rows and columns are graded over
// 16 decades.
func graded(n int, rnd *rand.Rand) []float64 {
	d := make([]float64, n)
	for i := range d {
		d[i] = math.Pow(10, -16*float64(i)/float64(max(n-1, 1)))
	}
	a := randNormal(n, rnd)
	for i := range n {
		for j := range n {
			a[i*n+j] *= d[i] * d[j]
		}
	}
	return a
}
