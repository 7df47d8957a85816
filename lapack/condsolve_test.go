package cllapack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/blas"
	gonumblas "gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack/gonum"
)

// triCases are every triangle, transpose and diagonal of a solve.
var triCases = func() (cs []struct {
	ul blas.Uplo
	t  blas.Transpose
	d  blas.Diag
}) {
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		for _, t := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, d := range []blas.Diag{blas.NonUnit, blas.Unit} {
				cs = append(cs, struct {
					ul blas.Uplo
					t  blas.Transpose
					d  blas.Diag
				}{ul, t, d})
			}
		}
	}
	return cs
}()

// wellTri returns a well-conditioned n×n triangle in the ul part of a
// matrix with stride lda (off-diagonal elements below 1/n, diagonal in
// [1, 2)) whose other elements are NaN, and its diagonal too if d is
// blas.Unit, so that a solve that reads them returns NaN.
func wellTri(rnd *rand.Rand, ul blas.Uplo, d blas.Diag, n, lda int) []float64 {
	a := make([]float64, (n-1)*lda+n)
	for k := range a {
		a[k] = math.NaN()
	}
	for i := range n {
		for j := range n {
			switch {
			case i == j && d == blas.NonUnit:
				a[i*lda+j] = 1 + rnd.Float64()
			case (ul == blas.Upper && j > i) || (ul == blas.Lower && j < i):
				a[i*lda+j] = (2*rnd.Float64() - 1) / float64(n)
			}
		}
	}
	return a
}

// TestTrsvBlocked compares trsvBlocked with gonum's Dtrsv for every
// triangle, transpose and diagonal, at orders about the block's, lda > n
// and 1 to 7 goroutines: equal to rounding, and the elements outside the
// triangle (NaN) never read.
func TestTrsvBlocked(t *testing.T) {
	rnd := rand.New(rand.NewPCG(81, 82))
	for _, n := range []int{1, 5, triBlock - 1, triBlock, triBlock + 1, 2*triBlock + 17, 1000} {
		for _, c := range triCases {
			lda := n + 3
			a := wellTri(rnd, c.ul, c.d, n, lda)
			b := make([]float64, n)
			for i := range b {
				b[i] = rnd.NormFloat64()
			}
			want := append([]float64(nil), b...)
			gonumblas.Implementation{}.Dtrsv(c.ul, c.t, c.d, n, a, lda, want, 1)
			for _, workers := range []int{1, 2, 3, 7} {
				got := append([]float64(nil), b...)
				trsvBlocked(c.ul, c.t, c.d, n, a, lda, got, workers)
				what := fmt.Sprintf("n %d %c %c %c workers %d", n, c.ul, c.t, c.d, workers)
				checkClose(t, what, got, want, 1e-13)
			}
		}
	}
}

// checkClose fails t unless got and want agree to within tol relative to
// the largest element of want.
func checkClose(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	var scale float64
	for _, v := range want {
		scale = max(scale, math.Abs(v))
	}
	for i := range want {
		if !(math.Abs(got[i]-want[i]) <= tol*scale) {
			t.Errorf("%s: x[%d] = %v, Dtrsv's %v", what, i, got[i], want[i])
			return
		}
	}
}

// withSolvesParallel makes solveTri take trsvBlocked from the orders of
// Dgecon's fast path on, on workers goroutines, until the test ends.
func withSolvesParallel(t *testing.T, workers int) {
	t.Helper()
	saved, procs := parSolveMin, runtime.GOMAXPROCS(workers)
	parSolveMin = condFastMin
	t.Cleanup(func() { parSolveMin = saved; runtime.GOMAXPROCS(procs) })
}

// TestSolveTriBlocked shows that solveTri takes the blocked path from
// parSolveMin on: its answer has trsvBlocked's bits, and below
// parSolveMin Dtrsv's. For op(T) = T these differ (the dot products are
// split at the blocks), which tells the paths apart; for op(T) = Uᵀ they
// may not (trsvBlocked then makes Dtrsv's operations in Dtrsv's order).
func TestSolveTriBlocked(t *testing.T) {
	withSolvesParallel(t, 4)
	impl := &Implementation{}
	rnd := rand.New(rand.NewPCG(83, 84))
	n := 700
	for _, c := range triCases {
		a := wellTri(rnd, c.ul, c.d, n, n)
		b := make([]float64, n)
		for i := range b {
			b[i] = rnd.NormFloat64()
		}
		serial, blocked, got := append([]float64(nil), b...), append([]float64(nil), b...), append([]float64(nil), b...)
		gonumblas.Implementation{}.Dtrsv(c.ul, c.t, c.d, n, a, n, serial, 1)
		trsvBlocked(c.ul, c.t, c.d, n, a, n, blocked, 4)
		what := fmt.Sprintf("%c %c %c", c.ul, c.t, c.d)
		if c.t == blas.NoTrans && sameBits(serial, blocked) {
			t.Fatalf("%s: Dtrsv and trsvBlocked agree bit for bit: the test cannot tell them apart", what)
		}
		if scale := impl.solveTri(nil, c.ul, c.t, c.d, n, a, n, got, make([]float64, n)); scale != 1 || !sameBits(got, blocked) {
			t.Errorf("%s: solveTri (scale %g) is not trsvBlocked", what, scale)
		}
		parSolveMin = n + 1
		got = append(got[:0], b...)
		if scale := impl.solveTri(nil, c.ul, c.t, c.d, n, a, n, got, make([]float64, n)); scale != 1 || !sameBits(got, serial) {
			t.Errorf("%s: below parSolveMin, solveTri (scale %g) is not Dtrsv", what, scale)
		}
		parSolveMin = condFastMin
	}
}

func sameBits(x, y []float64) bool {
	for i := range x {
		if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
			return false
		}
	}
	return true
}

// TestCondBlocked runs the condition estimates' tests with their solves
// on trsvBlocked (at orders of one block and of several): gonum's
// estimates to rounding, and gonum's Dlatrs where the solves overflow.
func TestCondBlocked(t *testing.T) {
	withSolvesParallel(t, 4)
	t.Run("estimates", func(t *testing.T) { testCondEstimates(t, newTestImpl(t, 32), condFastMin, 150, 700) })
	t.Run("overflow", func(t *testing.T) { testCondOverflow(t, newTestImpl(t, 32), condFastMin+3) })
	t.Run("overflow blocks", func(t *testing.T) { testCondOverflow(t, newTestImpl(t, 32), 3*triBlock+5) })
}

// TestSolveWorkers: the solves split only from parSolveMin and with more
// than one P.
func TestSolveWorkers(t *testing.T) {
	procs := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(procs)
	if got := solveWorkers(parSolveMin - 1); got != 1 {
		t.Errorf("solveWorkers(parSolveMin-1) = %d, want 1", got)
	}
	if got := solveWorkers(parSolveMin); got != 4 {
		t.Errorf("solveWorkers(parSolveMin) = %d, want 4", got)
	}
	runtime.GOMAXPROCS(1)
	if got := solveWorkers(4096); got != 1 {
		t.Errorf("GOMAXPROCS 1: solveWorkers(4096) = %d, want 1", got)
	}
}

// TestSolveTriNaN gives solveTri, serial and blocked, a system whose
// substitution overflows inside a dot product (1e300·1e10 twice, less
// once) into a NaN without an Inf in x: it must see the NaN and redo the
// solve with gonum's Dlatrs, as gonum would.
func TestSolveTriNaN(t *testing.T) {
	withSolvesParallel(t, 4)
	impl := &Implementation{}
	n := 2*triBlock + 9
	a := wellTri(rand.New(rand.NewPCG(85, 86)), blas.Upper, blas.NonUnit, n, n)
	a[1], a[2], a[3] = 1e300, 1e300, -1e300
	b := make([]float64, n)
	for i := range b {
		b[i] = 1
	}
	for k := 1; k <= 3; k++ {
		b[k] = 1e10 * a[k*n+k]
	}
	want := append([]float64(nil), b...)
	wantScale := gonum.Implementation{}.Dlatrs(blas.Upper, blas.NoTrans, blas.NonUnit, false, n, a, n, want, make([]float64, n))
	for _, min := range []int{condFastMin, n + 1} {
		parSolveMin = min
		got := append([]float64(nil), b...)
		scale := impl.solveTri(nil, blas.Upper, blas.NoTrans, blas.NonUnit, n, a, n, got, make([]float64, n))
		if scale != wantScale || !sameBits(got, want) {
			t.Errorf("parSolveMin %d: scale %g, Dlatrs's %g; x[0] %g, Dlatrs's %g", min, scale, wantScale, got[0], want[0])
		}
	}
}
