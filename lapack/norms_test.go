package cllapack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/testlapack"
)

// The norms run on the host alone, so their tests need no device: a zero
// Implementation is gonum's with the overrides.

// withNormsParallel makes every norm of the test take the parallel path,
// on workers goroutines (GOMAXPROCS), until the test ends.
func withNormsParallel(t *testing.T, workers int) {
	t.Helper()
	saved, procs := normParMin, runtime.GOMAXPROCS(workers)
	normParMin = 1
	t.Cleanup(func() { normParMin = saved; runtime.GOMAXPROCS(procs) })
}

func TestDlangeGonum(t *testing.T) {
	withNormsParallel(t, 3)
	testlapack.DlangeTest(t, &Implementation{})
}

func TestDlansyGonum(t *testing.T) {
	withNormsParallel(t, 3)
	testlapack.DlansyTest(t, &Implementation{})
}

func TestDlantrGonum(t *testing.T) {
	withNormsParallel(t, 3)
	testlapack.DlantrTest(t, &Implementation{})
}

// nanBits are NaNs with different payloads and signs, so that a norm that
// returns the wrong one of several differs from gonum's in its bits.
var nanBits = []uint64{0x7ff8000000000001, 0xfff8000000000123, 0x7ff4000000000abc, 0xfff0000000000777}

// normMatrix returns an m×n matrix with stride lda, random normal, with
// the specials of kind placed at random, anywhere in the storage (inside
// or outside the part a norm reads, the padding of lda included):
// "none", "nan" (two NaNs of different payloads), "inf" (+Inf and −Inf),
// "nan+inf", "nanrow" (a row of NaNs) or "many" (a NaN or Inf in every
// eighth element).
func normMatrix(rnd *rand.Rand, m, n, lda int, kind string) []float64 {
	a := make([]float64, max(0, (m-1)*lda+n))
	for k := range a {
		a[k] = rnd.NormFloat64()
	}
	if len(a) == 0 {
		return a
	}
	put := func(v float64) { a[rnd.IntN(len(a))] = v }
	nan := func() float64 { return math.Float64frombits(nanBits[rnd.IntN(len(nanBits))]) }
	switch kind {
	case "nan":
		put(nan())
		put(nan())
	case "inf":
		put(math.Inf(1))
		put(math.Inf(-1))
	case "nan+inf":
		put(nan())
		put(math.Inf(-1))
		put(nan())
		put(math.Inf(1))
	case "nanrow":
		i := rnd.IntN(m)
		for j := range n {
			a[i*lda+j] = nan()
		}
	case "many":
		for k := range a {
			if rnd.IntN(8) == 0 {
				a[k] = []float64{nan(), math.Inf(1), math.Inf(-1)}[rnd.IntN(3)]
			}
		}
	}
	return a
}

var (
	allNorms   = []lapack.MatrixNorm{lapack.MaxAbs, lapack.MaxColumnSum, lapack.MaxRowSum, lapack.Frobenius}
	specials   = []string{"none", "nan", "inf", "nan+inf", "nanrow", "many"}
	normShapes = [][2]int{{0, 0}, {0, 5}, {5, 0}, {1, 1}, {1, 7}, {7, 1}, {2, 2}, {13, 13}, {17, 9}, {9, 17}, {64, 64}, {100, 37}, {37, 100}}
)

// sameNorm fails t unless got and want are equal bit for bit, and so are
// the work slices (what the routines left in work), but for the payloads
// of NaNs: a sum of two NaNs takes one or the other's by the operand
// order the compiler picks for +, in gonum's code as in ours (the norms
// return math.NaN() for NaN sums in work).
func sameNorm(t *testing.T, what string, got, want float64, gotWork, wantWork []float64) {
	t.Helper()
	if math.Float64bits(got) != math.Float64bits(want) {
		t.Errorf("%s: %v (%#x), gonum's %v (%#x)", what, got, math.Float64bits(got), want, math.Float64bits(want))
		return
	}
	for j := range gotWork {
		bothNaN := math.IsNaN(gotWork[j]) && math.IsNaN(wantWork[j])
		if math.Float64bits(gotWork[j]) != math.Float64bits(wantWork[j]) && !bothNaN {
			t.Errorf("%s: work[%d] = %v, gonum's %v", what, j, gotWork[j], wantWork[j])
			return
		}
	}
}

// TestNormsBitwise compares Dlange, Dlansy and Dlantr, on their parallel
// path with 2, 3 and 7 goroutines, with gonum's on matrices of odd
// shapes, lda > n, and NaN and Inf anywhere: the same bits, in the answer
// and in work, for every norm, triangle and diagonal.
func TestNormsBitwise(t *testing.T) {
	impl, g := &Implementation{}, gonum.Implementation{}
	rnd := rand.New(rand.NewPCG(91, 92))
	for _, workers := range []int{2, 3, 7} {
		withNormsParallel(t, workers)
		for _, mn := range normShapes {
			m, n := mn[0], mn[1]
			for _, lda := range []int{max(1, n), n + 5} {
				for _, kind := range specials {
					if kind != "none" && (m == 0 || n == 0) {
						continue
					}
					for rep := range 4 {
						a := normMatrix(rnd, m, n, lda, kind)
						what := fmt.Sprintf("workers %d %d×%d lda %d %s #%d", workers, m, n, lda, kind, rep)
						checkNorms(t, impl, g, what, m, n, a, lda)
					}
				}
			}
		}
	}
}

// checkNorms compares every norm of every routine on a, with work filled
// alike before each call.
func checkNorms(t *testing.T, impl *Implementation, g gonum.Implementation, what string, m, n int, a []float64, lda int) {
	t.Helper()
	w1, w2 := make([]float64, n), make([]float64, n)
	fresh := func() ([]float64, []float64) {
		for j := range n {
			w1[j], w2[j] = -7, -7
		}
		return w1, w2
	}
	for _, norm := range allNorms {
		w1, w2 := fresh()
		got, want := impl.Dlange(norm, m, n, a, lda, w1), g.Dlange(norm, m, n, a, lda, w2)
		sameNorm(t, fmt.Sprintf("Dlange %c %s", norm, what), got, want, w1, w2)
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			for _, d := range []blas.Diag{blas.NonUnit, blas.Unit} {
				w1, w2 := fresh()
				got, want := impl.Dlantr(norm, ul, d, m, n, a, lda, w1), g.Dlantr(norm, ul, d, m, n, a, lda, w2)
				sameNorm(t, fmt.Sprintf("Dlantr %c %c %c %s", norm, ul, d, what), got, want, w1, w2)
			}
			if m == n {
				w1, w2 := fresh()
				got, want := impl.Dlansy(norm, ul, n, a, lda, w1), g.Dlansy(norm, ul, n, a, lda, w2)
				sameNorm(t, fmt.Sprintf("Dlansy %c %c %s", norm, ul, what), got, want, w1, w2)
			}
		}
	}
}

// TestNormsFirstNaN places two NaNs of different payloads in a triangle,
// one in each of two rows, at every pair of rows, so that Dlantr (which
// returns the first it meets, row by row) must return the one gonum does
// whichever goroutine finds which.
func TestNormsFirstNaN(t *testing.T) {
	impl, g := &Implementation{}, gonum.Implementation{}
	withNormsParallel(t, 4)
	rnd := rand.New(rand.NewPCG(93, 94))
	const n = 11
	for i1 := range n {
		for i2 := range n {
			if i1 == i2 {
				continue
			}
			a := normMatrix(rnd, n, n, n, "none")
			a[i1*n+i1] = math.Float64frombits(nanBits[1])
			a[i2*n+i2] = math.Float64frombits(nanBits[2])
			checkNorms(t, impl, g, fmt.Sprintf("NaNs on rows %d and %d", i1, i2), n, n, a, n)
		}
	}
}

// TestNormsPanics gives the norms, on their parallel path, arguments
// gonum rejects: they panic with gonum's messages.
func TestNormsPanics(t *testing.T) {
	impl, g := &Implementation{}, gonum.Implementation{}
	withNormsParallel(t, 3)
	n := 6
	a, work := make([]float64, n*n), make([]float64, n)
	for _, c := range []struct {
		what      string
		ours, gon func()
	}{
		{"Dlange norm", func() { impl.Dlange('X', n, n, a, n, work) }, func() { g.Dlange('X', n, n, a, n, work) }},
		{"Dlange m, n < 0", func() { impl.Dlange(lapack.MaxAbs, -n, -n, a, n, work) },
			func() { g.Dlange(lapack.MaxAbs, -n, -n, a, n, work) }},
		{"Dlange lda", func() { impl.Dlange(lapack.MaxRowSum, n, n, a, n-1, work) },
			func() { g.Dlange(lapack.MaxRowSum, n, n, a, n-1, work) }},
		{"Dlange a", func() { impl.Dlange(lapack.MaxRowSum, n, n, a[1:], n, work) },
			func() { g.Dlange(lapack.MaxRowSum, n, n, a[1:], n, work) }},
		{"Dlange work", func() { impl.Dlange(lapack.MaxColumnSum, n, n, a, n, work[1:]) },
			func() { g.Dlange(lapack.MaxColumnSum, n, n, a, n, work[1:]) }},
		{"Dlansy uplo", func() { impl.Dlansy(lapack.MaxAbs, 'X', n, a, n, work) },
			func() { g.Dlansy(lapack.MaxAbs, 'X', n, a, n, work) }},
		{"Dlansy work", func() { impl.Dlansy(lapack.MaxRowSum, blas.Upper, n, a, n, work[1:]) },
			func() { g.Dlansy(lapack.MaxRowSum, blas.Upper, n, a, n, work[1:]) }},
		{"Dlansy a", func() { impl.Dlansy(lapack.MaxAbs, blas.Lower, n, a[1:], n, work) },
			func() { g.Dlansy(lapack.MaxAbs, blas.Lower, n, a[1:], n, work) }},
		{"Dlantr diag", func() { impl.Dlantr(lapack.MaxAbs, blas.Upper, 'X', n, n, a, n, work) },
			func() { g.Dlantr(lapack.MaxAbs, blas.Upper, 'X', n, n, a, n, work) }},
		{"Dlantr m, n < 0", func() { impl.Dlantr(lapack.MaxAbs, blas.Upper, blas.Unit, -n, -n, a, n, work) },
			func() { g.Dlantr(lapack.MaxAbs, blas.Upper, blas.Unit, -n, -n, a, n, work) }},
		{"Dlantr work", func() { impl.Dlantr(lapack.MaxColumnSum, blas.Lower, blas.Unit, n, n, a, n, work[1:]) },
			func() { g.Dlantr(lapack.MaxColumnSum, blas.Lower, blas.Unit, n, n, a, n, work[1:]) }},
	} {
		got, want := panicOf(c.ours), panicOf(c.gon)
		if want == "" || got != want {
			t.Errorf("%s: panic %q, gonum's %q", c.what, got, want)
		}
	}
}

// TestNormWorkers: the norms split only from normParMin elements and
// with more than one P.
func TestNormWorkers(t *testing.T) {
	procs := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(procs)
	for _, c := range []struct{ m, n, want int }{
		{0, 1 << 20, 1}, {-1 << 10, -1 << 10, 1}, {1, normParMin - 1, 1}, {1, normParMin, 4}, {4096, 4096, 4},
	} {
		if got := normWorkers(c.m, c.n); got != c.want {
			t.Errorf("normWorkers(%d, %d) = %d, want %d", c.m, c.n, got, c.want)
		}
	}
	runtime.GOMAXPROCS(1)
	if got := normWorkers(4096, 4096); got != 1 {
		t.Errorf("GOMAXPROCS 1: normWorkers = %d, want 1", got)
	}
}
