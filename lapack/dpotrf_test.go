package cllapack

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/testlapack"
)

// TestDpotrfGonum runs gonum's own Dpotrf and Dpotrs suites with the device
// forced and a small block size, so that most cases cross several blocks.
func TestDpotrfGonum(t *testing.T) {
	impl := newTestImpl(t, 16)
	testlapack.DpotrfTest(t, impl)
}

func TestDpotrsGonum(t *testing.T) {
	impl := newTestImpl(t, 16)
	testlapack.DpotrsTest(t, impl)
}

// spd returns a random symmetric positive definite n×n matrix with row
// stride lda (elements between rows are NaN, to catch reads past a row).
func spd(n, lda int, rnd *rand.Rand) []float64 {
	b := make([]float64, n*n)
	for i := range b {
		b[i] = rnd.NormFloat64()
	}
	a := make([]float64, max(0, (n-1)*lda+n))
	for i := range a {
		a[i] = math.NaN()
	}
	blas64.Implementation().Dsyrk(blas.Upper, blas.NoTrans, n, n, 1, b, n, 0, a, lda)
	for i := range n {
		a[i*lda+i] += float64(n)
		for j := range i {
			a[i*lda+j] = a[j*lda+i]
		}
	}
	return a
}

// TestDpotrfSizes compares the device factor with gonum's at sizes that
// cross several blocks, strided, for both triangles; the triangle that is
// not referenced and the elements between rows must be left alone.
func TestDpotrfSizes(t *testing.T) {
	impl := newTestImpl(t, 32)
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 7, 64, 200, 257} {
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			lda := n + 3
			a := spd(n, lda, rnd)
			want := append([]float64(nil), a...)
			okWant := gonum.Implementation{}.Dpotrf(ul, n, want, lda)
			ok := impl.Dpotrf(ul, n, a, lda)
			if !ok || !okWant {
				t.Fatalf("n=%d %c: ok=%v, gonum %v", n, ul, ok, okWant)
			}
			compare(t, "Dpotrf", n, n, a, want, lda, 1e-11)
			checkPadding(t, "Dpotrf", n, n, a, want, lda)
		}
	}
}

// TestDpotrfNotPD checks that a matrix that is not positive definite (in
// the first block, in a later one, and with a NaN) returns false as gonum's
// Dpotrf does, with the factor of the leading minor that did succeed.
func TestDpotrfNotPD(t *testing.T) {
	impl := newTestImpl(t, 16)
	rnd := rand.New(rand.NewPCG(3, 4))
	const n = 70
	for _, k := range []int{0, 5, 40, 69} {
		for _, bad := range []float64{-1e6, math.NaN()} {
			for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
				a := spd(n, n, rnd)
				a[k*n+k] = bad
				want := append([]float64(nil), a...)
				okWant := gonum.Implementation{}.Dpotrf(ul, n, want, n)
				ok := impl.Dpotrf(ul, n, a, n)
				if ok != okWant || ok {
					t.Fatalf("k=%d bad=%v %c: ok=%v, gonum %v", k, bad, ul, ok, okWant)
				}
				// The leading minor before the failing block holds
				// the same factor as gonum's (beyond it gonum's blocks
				// and ours stop at different places).
				rows := k / 16 * 16
				compare(t, "Dpotrf leading minor", rows, rows, a, want, n, 1e-11)
			}
		}
	}
}

// compare fails t unless the r×c matrices a and want (stride lda) agree to
// within tol relative to the largest element of want, NaN matching NaN.
// checkDpotrf factorises a random n×n symmetric positive definite matrix
// (leading dimension lda, from rnd) with impl and compares the factor with
// gonum's Dpotrf's within tol; what names the path in failures.
func checkDpotrf(t *testing.T, impl *Implementation, what string, ul blas.Uplo, n, lda int, rnd *rand.Rand, tol float64) {
	t.Helper()
	a := spd(n, lda, rnd)
	want := append([]float64(nil), a...)
	gonum.Implementation{}.Dpotrf(ul, n, want, lda)
	if !impl.Dpotrf(ul, n, a, lda) {
		t.Fatalf("%s %c n=%d: not positive definite", what, ul, n)
	}
	compare(t, what, n, n, a, want, lda, tol)
}

// checkDpotrfNotSPD factorises a 90×90 matrix made indefinite at (50, 50)
// and checks that Dpotrf fails as gonum's does, with gonum's factor before
// the failing block (its first 48 rows and columns, blocks up to 48 wide).
// It returns the order and both matrices, for further checks.
func checkDpotrfNotSPD(t *testing.T, impl *Implementation, what string, ul blas.Uplo, rnd *rand.Rand) (n int, a, want []float64) {
	t.Helper()
	n = 90
	a = spd(n, n, rnd)
	a[50*n+50] = -1
	want = append([]float64(nil), a...)
	okWant := gonum.Implementation{}.Dpotrf(ul, n, want, n)
	if ok := impl.Dpotrf(ul, n, a, n); ok || okWant {
		t.Fatalf("%s %c: not positive definite: ok %v, gonum's %v", what, ul, ok, okWant)
	}
	compare(t, what+", not positive definite", 48, 48, a, want, n, 1e-11)
	return n, a, want
}

func compare(t *testing.T, what string, r, c int, a, want []float64, lda int, tol float64) {
	t.Helper()
	scale := 1.0
	for i := range r {
		for j := range c {
			if v := math.Abs(want[i*lda+j]); v > scale && !math.IsInf(v, 0) {
				scale = v
			}
		}
	}
	for i := range r {
		for j := range c {
			g, w := a[i*lda+j], want[i*lda+j]
			if math.IsNaN(g) && math.IsNaN(w) {
				continue
			}
			if !(math.Abs(g-w) <= tol*scale) {
				t.Fatalf("%s %d×%d: [%d,%d] = %v, want %v", what, r, c, i, j, g, w)
			}
		}
	}
}

// checkPadding fails t if an element of a between the rows of its r×c
// matrix (stride lda) differs from orig's.
func checkPadding(t *testing.T, what string, r, c int, a, orig []float64, lda int) {
	t.Helper()
	for i := 0; i < r-1; i++ {
		for j := c; j < lda; j++ {
			g, w := a[i*lda+j], orig[i*lda+j]
			if !(g == w || math.IsNaN(g) && math.IsNaN(w)) {
				t.Fatalf("%s: padding [%d,%d] changed to %v from %v", what, i, j, g, w)
			}
		}
	}
}
