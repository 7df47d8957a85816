package cllapack

import (
	"bytes"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	clblas "github.com/gocompute/opencl/blas"
)

// TestPotfBlk runs Dpotrf with potf2_inv factorising its diagonal blocks
// in local memory in steps of 8 columns (potfBlk), on the device even on
// CPU devices (hostDiag off), both triangles, against gonum: blocks of 64
// (the kernel's widest) and 44 (steps of 8 and a last one of 4), orders
// with a narrower last block, one block, and one narrower than a step.
// Then matrices that are not positive definite at column k: in the middle
// of a step, at a step's first column, in a step's last, in a later block
// (whose potf2_inv runs with *info already set), and in the first
// column. The rows (columns, for Lower) before k must be gonum's factor,
// as far as the failing block reaches. Then a float32 resident Potrf, whose
// residual ‖UᵀU − A‖ must be within float32's precision.
func TestPotfBlk(t *testing.T) {
	rnd := rand.New(rand.NewPCG(17, 18))
	for _, nb := range []int{64, 44} {
		impl := newTestImpl(t, nb)
		impl.potfBlk, impl.hostDiag, impl.potfRegs = true, false, false
		noFallback(t, impl)
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			what := fmt.Sprintf("Dpotrf, potfBlk, nb %d", nb)
			for _, n := range []int{150, 64, 5} {
				checkDpotrf(t, impl, what, ul, n, n+3, rnd, 1e-11)
			}
			for _, c := range []struct{ n, k int }{{100, 13}, {100, 16}, {100, 23}, {150, 70}, {150, 0}, {150, 141}} {
				checkPotfFail(t, impl, what, ul, c.n, c.k, nb, rnd)
			}
		}
		if got := impl.stats.launches.Load(); got == 0 {
			t.Fatalf("nb %d: no kernel ran", nb)
		}
	}

	impl := newTestImpl(t, 64)
	impl.potfBlk, impl.hostDiag, impl.potfRegs = true, false, false
	noFallback(t, impl)
	const n = 150
	a := spd(n, n, rnd)
	ok, got := factor32(t, a, func(d *clblas.Matrix[float32]) (bool, error) { return Potrf(impl, blas.Lower, d) })
	if !ok {
		t.Fatal("Potrf[float32]: not positive definite")
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			got[i*n+j] = 0
		}
	}
	ll := make([]float64, n*n)
	blas64.Implementation().Dgemm(blas.NoTrans, blas.Trans, n, n, n, 1, got, n, got, n, 0, ll, n)
	if r, tol := relDiff(ll, rounded(a)), 50*n*math.Pow(2, -24); r > tol {
		t.Errorf("Potrf[float32], potfBlk: ‖L·Lᵀ − A‖/‖A‖ = %g > %g", r, tol)
	}
}

// noFallback makes t fail if a call of impl falls back to the CPU (it
// logs when it does), which would hide a kernel that fails to build or run.
func noFallback(t *testing.T, impl *Implementation) {
	var log bytes.Buffer
	impl.logger = slog.New(slog.NewTextHandler(&log, nil))
	t.Cleanup(func() {
		if log.Len() > 0 {
			t.Errorf("a call fell back to the CPU:\n%s", log.String())
		}
	})
}

// checkPotfFail makes an n×n positive definite matrix indefinite at column
// k and checks that impl's Dpotrf fails with the rows (Upper) or columns
// (Lower) before k equal to an unblocked factorization's, within the
// blocks of nb up to the failing one.
func checkPotfFail(t *testing.T, impl *Implementation, what string, ul blas.Uplo, n, k, nb int, rnd *rand.Rand) {
	t.Helper()
	a := spd(n, n, rnd)
	a[k*n+k] = 1 - a[k*n+k]
	m := min(n, (k/nb+1)*nb)
	want := append([]float64(nil), a...)
	if k != potf2Right(ul, m, want, n) {
		t.Fatalf("%s %c n=%d: the reference did not fail at %d", what, ul, n, k)
	}
	if impl.Dpotrf(ul, n, a, n) {
		t.Fatalf("%s %c n=%d: a matrix not positive definite at %d passed", what, ul, n, k)
	}
	rows, cols := k, m
	if ul == blas.Lower {
		rows, cols = m, k
	}
	compare(t, fmt.Sprintf("%s %c, not positive definite at %d", what, ul, k), rows, cols, a, want, n, 1e-11)
}
