package clblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/gocompute/opencl/cl"
	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/internal/gemm"
)

// The level-3 device routines are compared with gonum on small odd shapes,
// every side/uplo/transpose/diagonal, padded leading dimensions, alpha and
// beta in {0, 1, other}, NaN in every element a routine must not read (the
// padding, the unstored triangle, a unit diagonal, A and B when alpha == 0)
// or must overwrite (C when beta == 0, B when alpha == 0), through the
// front end and directly on the device. Each routine must have run on the
// device (the front end would hide a failure by finishing on the CPU).

// l3API is one precision of the level-3 routines, so one generic test
// serves both.
type l3API[T eng.Real] interface {
	gemm(tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)
	symm(s blas.Side, ul blas.Uplo, m, n int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)
	syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, beta T, c []T, ldc int)
	syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)
	trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int)
	trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int)
}

type l3F64 struct{ blas.Float64 }

func (x l3F64) gemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	x.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
func (x l3F64) symm(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	x.Dsymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
}
func (x l3F64) syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	x.Dsyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
}
func (x l3F64) syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	x.Dsyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
func (x l3F64) trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	x.Dtrmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}
func (x l3F64) trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	x.Dtrsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

type l3F32 struct{ blas.Float32 }

func (x l3F32) gemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	x.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
func (x l3F32) symm(s blas.Side, ul blas.Uplo, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	x.Ssymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
}
func (x l3F32) syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int) {
	x.Ssyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
}
func (x l3F32) syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	x.Ssyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
func (x l3F32) trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) {
	x.Strmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}
func (x l3F32) trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) {
	x.Strsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

// l3Dev64 and l3Dev32 call the device methods directly (no front end, no
// CPU fallback) and fail the test on any error.
type l3Dev64 struct {
	t testing.TB
	d eng.Device[float64]
}

func (x l3Dev64) check(err error) {
	x.t.Helper()
	if err != nil {
		x.t.Fatalf("device call failed: %v", err)
	}
}
func (x l3Dev64) gemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	x.check(x.d.Gemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc))
}
func (x l3Dev64) symm(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	x.check(x.d.Symm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc))
}
func (x l3Dev64) syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	x.check(x.d.Syrk(ul, t, n, k, alpha, a, lda, beta, c, ldc))
}
func (x l3Dev64) syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	x.check(x.d.Syr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc))
}
func (x l3Dev64) trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	x.check(x.d.Trmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb))
}
func (x l3Dev64) trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	x.check(x.d.Trsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb))
}

type l3Dev32 struct {
	t testing.TB
	d eng.Device[float32]
}

func (x l3Dev32) check(err error) {
	x.t.Helper()
	if err != nil {
		x.t.Fatalf("device call failed: %v", err)
	}
}
func (x l3Dev32) gemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	x.check(x.d.Gemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc))
}
func (x l3Dev32) symm(s blas.Side, ul blas.Uplo, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	x.check(x.d.Symm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc))
}
func (x l3Dev32) syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int) {
	x.check(x.d.Syrk(ul, t, n, k, alpha, a, lda, beta, c, ldc))
}
func (x l3Dev32) syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	x.check(x.d.Syr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc))
}
func (x l3Dev32) trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) {
	x.check(x.d.Trmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb))
}
func (x l3Dev32) trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) {
	x.check(x.d.Trsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb))
}

var (
	l3Trans = []blas.Transpose{blas.NoTrans, blas.Trans}
	l3Uplos = []blas.Uplo{blas.Upper, blas.Lower}
	l3Sides = []blas.Side{blas.Left, blas.Right}
	l3Diags = []blas.Diag{blas.NonUnit, blas.Unit}
	// l3AlphaBeta are the (alpha, beta) pairs of the routines with a beta.
	l3AlphaBeta = [][2]float64{{0, 0}, {0, 2.5}, {1, 0}, {1, 1}, {-1.5, 0.5}, {0.75, 1}}
	// l3Alphas are the alphas of trmm and trsm.
	l3Alphas = []float64{0, 1, -2.5}
)

// l3Mat returns a rows×cols matrix with leading dimension ld whose element
// (i, j) is f(i, j), or NaN where f reports false; the padding is NaN too.
func l3Mat[T eng.Real](rows, cols, ld int, f func(i, j int) (float64, bool)) []T {
	n := 0
	if rows > 0 {
		n = (rows-1)*ld + cols
	}
	s := make([]T, n)
	for i := range s {
		s[i] = T(math.NaN())
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			if v, ok := f(i, j); ok {
				s[i*ld+j] = T(v)
			}
		}
	}
	return s
}

// l3Rand fills every element with a value in [-1, 1); with nan, NaN.
func l3Rand(rnd *rand.Rand, nan bool) func(i, j int) (float64, bool) {
	return func(i, j int) (float64, bool) { return rnd.Float64()*2 - 1, !nan }
}

// l3Sprinkle fills every element with a value in [-1, 1), or with bad, a
// few with NaN or ±Inf.
func l3Sprinkle(rnd *rand.Rand, bad bool) func(i, j int) (float64, bool) {
	return func(i, j int) (float64, bool) {
		if bad {
			switch rnd.IntN(40) {
			case 0:
				return 0, false
			case 1:
				return math.Inf(1), true
			case 2:
				return math.Inf(-1), true
			}
		}
		return rnd.Float64()*2 - 1, true
	}
}

// l3TriFill fills the ul triangle of a triangular matrix fit for solving: the
// diagonal is ±[1, 2) (NaN when unit: it must not be read), the stored
// off-diagonal elements are in [-1, 1)/k, the other triangle is NaN.
func l3TriFill(rnd *rand.Rand, ul blas.Uplo, d blas.Diag, k int, nan bool) func(i, j int) (float64, bool) {
	return func(i, j int) (float64, bool) {
		switch {
		case nan:
			return 0, false
		case i == j:
			v := 1 + rnd.Float64()
			if rnd.IntN(2) == 0 {
				v = -v
			}
			return v, d == blas.NonUnit
		case (j > i) == (ul == blas.Upper):
			return (rnd.Float64()*2 - 1) / float64(k), true
		}
		return 0, false
	}
}

// l3SymFill fills the ul triangle of a symmetric matrix; the other is NaN.
func l3SymFill(rnd *rand.Rand, ul blas.Uplo, nan bool) func(i, j int) (float64, bool) {
	return func(i, j int) (float64, bool) {
		return rnd.Float64()*2 - 1, !nan && (i == j || (j > i) == (ul == blas.Upper))
	}
}

// l3Compare checks an output matrix: the elements written (where written
// says so) must agree with want to tol relative to max(1, max |want|), and
// every other element must be bit for bit what it was before (orig).
func l3Compare[T eng.Real](t *testing.T, what string, got, want, orig []T, rows, cols, ld int, written func(i, j int) bool, tol float64) {
	t.Helper()
	scale := 1.0
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			if written(i, j) {
				if w := math.Abs(float64(want[i*ld+j])); !math.IsNaN(w) && !math.IsInf(w, 0) {
					scale = math.Max(scale, w)
				}
			}
		}
	}
	for idx := range got {
		i, j := idx/ld, idx%ld
		g, w := float64(got[idx]), float64(want[idx])
		if j < cols && i < rows && written(i, j) {
			if math.IsNaN(g) && math.IsNaN(w) {
				continue
			}
			if math.IsNaN(g) || math.IsNaN(w) || math.Abs(g-w) > tol*scale {
				t.Errorf("%s: element (%d,%d) = %v, want %v", what, i, j, g, w)
				return
			}
			continue
		}
		if math.Float64bits(float64(got[idx])) != math.Float64bits(float64(orig[idx])) && !(math.IsNaN(g) && math.IsNaN(float64(orig[idx]))) {
			t.Errorf("%s: element (%d,%d) outside the result changed from %v to %v", what, i, j, orig[idx], g)
			return
		}
	}
}

func l3All(i, j int) bool { return true }

func l3Triangle(ul blas.Uplo) func(i, j int) bool {
	return func(i, j int) bool { return i == j || (j > i) == (ul == blas.Upper) }
}

// l3Pad is the leading-dimension padding of the i-th case.
func l3Pad(i int) int { return []int{0, 3, 1}[i%3] }

// l3Counter counts the calls of each routine that must reach the device.
type l3Counter map[string]int64

// runL3 runs every case on dev and on gonum (ref), compares, and returns
// how many calls of each routine (gemm, symm, …) should have reached the
// device through the front end (the others are its quick returns).
func runL3[T eng.Real](t *testing.T, dev, ref l3API[T], tol float64) l3Counter {
	rnd := rand.New(rand.NewPCG(31, 41))
	calls := l3Counter{}
	cse := 0
	pad := func() int { cse++; return l3Pad(cse) }

	// GEMM.
	for _, tA := range l3Trans {
		for _, tB := range l3Trans {
			for _, sh := range [][3]int{{1, 1, 1}, {7, 33, 3}, {33, 7, 130}, {130, 5, 33}, {5, 7, 0}} {
				for _, ab := range l3AlphaBeta {
					m, n, k := sh[0], sh[1], sh[2]
					alpha, beta := T(ab[0]), T(ab[1])
					ar, ac := eng.Stored(tA, m, k)
					br, bc := eng.Stored(tB, k, n)
					lda, ldb, ldc := max(1, ac+pad()), max(1, bc+pad()), n+pad()
					// With alpha == 0, gonum still multiplies NaN and Inf in
					// A (and in B when only B is transposed) by zero: some
					// of their elements are NaN or Inf.
					a := l3Mat[T](ar, ac, lda, l3Sprinkle(rnd, alpha == 0))
					b := l3Mat[T](br, bc, ldb, l3Sprinkle(rnd, alpha == 0))
					c := l3Mat[T](m, n, ldc, l3Rand(rnd, beta == 0))
					what := fmt.Sprintf("gemm tA=%c tB=%c m=%d n=%d k=%d alpha=%v beta=%v lda=%d ldb=%d ldc=%d", tA, tB, m, n, k, alpha, beta, lda, ldb, ldc)
					got, want := slices.Clone(c), slices.Clone(c)
					dev.gemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, got, ldc)
					ref.gemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, want, ldc)
					l3Compare(t, what, got, want, c, m, n, ldc, l3All, tol)
					if !((alpha == 0 || k == 0) && beta == 1) {
						calls["gemm"]++
					}
				}
			}
		}
	}

	// SYMM.
	for _, s := range l3Sides {
		for _, ul := range l3Uplos {
			for _, sh := range [][2]int{{1, 1}, {7, 33}, {33, 7}, {67, 3}} {
				for _, ab := range l3AlphaBeta {
					m, n := sh[0], sh[1]
					alpha, beta := T(ab[0]), T(ab[1])
					ka := n
					if s == blas.Left {
						ka = m
					}
					lda, ldb, ldc := ka+pad(), n+pad(), n+pad()
					a := l3Mat[T](ka, ka, lda, l3SymFill(rnd, ul, alpha == 0))
					b := l3Mat[T](m, n, ldb, l3Rand(rnd, alpha == 0))
					c := l3Mat[T](m, n, ldc, l3Rand(rnd, beta == 0))
					what := fmt.Sprintf("symm s=%c ul=%c m=%d n=%d alpha=%v beta=%v lda=%d ldb=%d ldc=%d", s, ul, m, n, alpha, beta, lda, ldb, ldc)
					got, want := slices.Clone(c), slices.Clone(c)
					dev.symm(s, ul, m, n, alpha, a, lda, b, ldb, beta, got, ldc)
					ref.symm(s, ul, m, n, alpha, a, lda, b, ldb, beta, want, ldc)
					l3Compare(t, what, got, want, c, m, n, ldc, l3All, tol)
					if !(alpha == 0 && beta == 1) {
						calls["symm"]++
					}
				}
			}
		}
	}

	// SYRK and SYR2K.
	for _, two := range []bool{false, true} {
		name := map[bool]string{false: "syrk", true: "syr2k"}[two]
		for _, ul := range l3Uplos {
			for _, tr := range l3Trans {
				for _, sh := range [][2]int{{1, 1}, {7, 33}, {33, 7}, {67, 3}, {5, 0}} {
					for _, ab := range l3AlphaBeta {
						n, k := sh[0], sh[1]
						alpha, beta := T(ab[0]), T(ab[1])
						ar, ac := eng.Stored(tr, n, k)
						lda, ldb, ldc := max(1, ac+pad()), max(1, ac+pad()), n+pad()
						a := l3Mat[T](ar, ac, lda, l3Rand(rnd, alpha == 0))
						b := l3Mat[T](ar, ac, ldb, l3Rand(rnd, alpha == 0))
						// C: random, except NaN in the triangle written when
						// beta == 0; the other triangle must survive.
						tri := l3Triangle(ul)
						c := l3Mat[T](n, n, ldc, func(i, j int) (float64, bool) {
							return rnd.Float64()*2 - 1, !(beta == 0 && tri(i, j))
						})
						// (gonum's syrk keeps NaN in C with beta == 0 in the
						// lower triangle with a transpose: so must the device.)
						want, got := slices.Clone(c), slices.Clone(c)
						what := fmt.Sprintf("%s ul=%c t=%c n=%d k=%d alpha=%v beta=%v lda=%d ldb=%d ldc=%d", name, ul, tr, n, k, alpha, beta, lda, ldb, ldc)
						if two {
							dev.syr2k(ul, tr, n, k, alpha, a, lda, b, ldb, beta, got, ldc)
							ref.syr2k(ul, tr, n, k, alpha, a, lda, b, ldb, beta, want, ldc)
						} else {
							dev.syrk(ul, tr, n, k, alpha, a, lda, beta, got, ldc)
							ref.syrk(ul, tr, n, k, alpha, a, lda, beta, want, ldc)
						}
						l3Compare(t, what, got, want, c, n, n, ldc, tri, tol)
						if !(alpha == 0 && beta == 1) {
							calls[name]++
						}
					}
				}
			}
		}
	}

	// TRMM and TRSM.
	for _, solve := range []bool{false, true} {
		name := map[bool]string{false: "trmm", true: "trsm"}[solve]
		for _, s := range l3Sides {
			for _, ul := range l3Uplos {
				for _, tA := range l3Trans {
					for _, d := range l3Diags {
						for _, sh := range [][2]int{{1, 1}, {7, 33}, {33, 7}, {67, 5}, {3, 70}} {
							for _, al := range l3Alphas {
								m, n := sh[0], sh[1]
								alpha := T(al)
								ka := n
								if s == blas.Left {
									ka = m
								}
								lda, ldb := ka+pad(), n+pad()
								a := l3Mat[T](ka, ka, lda, l3TriFill(rnd, ul, d, ka, alpha == 0))
								b := l3Mat[T](m, n, ldb, l3Rand(rnd, alpha == 0))
								what := fmt.Sprintf("%s s=%c ul=%c tA=%c d=%c m=%d n=%d alpha=%v lda=%d ldb=%d", name, s, ul, tA, d, m, n, alpha, lda, ldb)
								got, want := slices.Clone(b), slices.Clone(b)
								if solve {
									dev.trsm(s, ul, tA, d, m, n, alpha, a, lda, got, ldb)
									ref.trsm(s, ul, tA, d, m, n, alpha, a, lda, want, ldb)
								} else {
									dev.trmm(s, ul, tA, d, m, n, alpha, a, lda, got, ldb)
									ref.trmm(s, ul, tA, d, m, n, alpha, a, lda, want, ldb)
								}
								l3Compare(t, what, got, want, b, m, n, ldb, l3All, tol)
								calls[name]++
							}
						}
					}
				}
			}
		}
	}
	return calls
}

// checkL3Launches checks that each routine's device launches grew by at
// least the number of calls that reached the device.
func checkL3Launches(t *testing.T, e *eng.Engine, prefix string, before map[string]int64, calls l3Counter) {
	t.Helper()
	for _, r := range []string{"gemm", "symm", "syrk", "syr2k", "trmm", "trsm"} {
		name := prefix + r
		if got := e.Launched.Of(name) - before[name]; got < calls[r] || calls[r] == 0 {
			t.Errorf("%s: %d of %d calls ran on the device", name, got, calls[r])
		}
	}
}

func l3Launches(e *eng.Engine, prefix string) map[string]int64 {
	m := map[string]int64{}
	for _, r := range []string{"gemm", "symm", "syrk", "syr2k", "trmm", "trsm"} {
		m[prefix+r] = e.Launched.Of(prefix + r)
	}
	return m
}

func TestLevel3Device64(t *testing.T) {
	impl := newTestImpl(t)
	e := testEngine(t)
	if _, ok := openclDevice[float64](impl); !ok {
		t.Skip("the device has no fp64")
	}
	before := l3Launches(e, "D")
	calls := runL3[float64](t, l3F64{impl}, l3F64{gonum.Implementation{}}, 1e-12)
	checkL3Launches(t, e, "D", before, calls)
}

func TestLevel3Device32(t *testing.T) {
	impl := newTestImpl(t)
	e := testEngine(t)
	before := l3Launches(e, "S")
	calls := runL3[float32](t, l3F32{impl}, l3F32{gonum.Implementation{}}, 1e-4)
	checkL3Launches(t, e, "S", before, calls)
}

// TestLevel3DirectDevice calls the device methods themselves: every call
// must return a nil error and gonum's result.
func TestLevel3DirectDevice(t *testing.T) {
	e := testEngine(t)
	t.Run("float64", func(t *testing.T) {
		if !e.Prof.FP64 {
			t.Skip("the device has no fp64")
		}
		runL3[float64](t, l3Dev64{t, eng.Device[float64]{E: e}}, l3F64{gonum.Implementation{}}, 1e-12)
	})
	t.Run("float32", func(t *testing.T) {
		runL3[float32](t, l3Dev32{t, eng.Device[float32]{E: e}}, l3F32{gonum.Implementation{}}, 1e-4)
	})
}

// TestTrsmBlockSizes runs the blocked TRSM with block orders that do and
// do not divide the matrix, so that many diagonal blocks and GEMM updates
// (on every buffer offset pattern) are exercised on small matrices. B has
// 17 columns (less than one of trsm_left_rows' runs on CPU devices) and 75
// (two whole runs and a shorter one), in both precisions.
func TestTrsmBlockSizes(t *testing.T) {
	e := testEngine(t)
	t.Run("float64", func(t *testing.T) {
		if !e.Prof.FP64 {
			t.Skip("the device has no fp64")
		}
		trsmBlockCase[float64](t, e, 1e-12)
	})
	t.Run("float32", func(t *testing.T) {
		trsmBlockCase[float32](t, e, 1e-4)
	})
}

func trsmBlockCase[T eng.Real](t *testing.T, e *eng.Engine, tol float64) {
	rnd := rand.New(rand.NewPCG(5, 6))
	name := "Dtrsm"
	if eng.PrecisionOf[T]() == 32 {
		name = "Strsm"
	}
	for _, n := range []int{17, 75} {
		for _, nb := range []int{1, 5, 16} {
			for _, s := range l3Sides {
				for _, ul := range l3Uplos {
					for _, tA := range l3Trans {
						for _, d := range l3Diags {
							m := 23
							ka := n
							if s == blas.Left {
								ka = m
							}
							lda, ldb := ka+2, n+1
							a := l3Mat[T](ka, ka, lda, l3TriFill(rnd, ul, d, ka, false))
							b := l3Mat[T](m, n, ldb, l3Rand(rnd, false))
							got, want := slices.Clone(b), slices.Clone(b)
							const alpha = 1.25
							if err := eng.Trsm(e, name, s, ul, tA, d, m, n, T(alpha), a, lda, got, ldb, nb); err != nil {
								t.Fatalf("trsm: %v", err)
							}
							switch a := any(a).(type) {
							case []float64:
								gonum.Implementation{}.Dtrsm(s, ul, tA, d, m, n, alpha, a, lda, any(want).([]float64), ldb)
							case []float32:
								gonum.Implementation{}.Strsm(s, ul, tA, d, m, n, alpha, a, lda, any(want).([]float32), ldb)
							}
							what := fmt.Sprintf("trsm n=%d nb=%d s=%c ul=%c tA=%c d=%c", n, nb, s, ul, tA, d)
							l3Compare(t, what, got, want, b, m, n, ldb, l3All, tol)
						}
					}
				}
			}
		}
	}
}

// TestGemmKernels runs gemmOnDevice's launcher with each kernel of gemm.cl
// forced (gemm_cpu, gemm_direct, gemm_tiled), all four transpose
// combinations, odd shapes, padded leading dimensions and nonzero buffer
// offsets (aligned and not, for gemm_tiled's VEC_ALIGNED path), in both
// precisions, against gonum.
func TestGemmKernels(t *testing.T) {
	e := testEngine(t)
	shapes := [][3]int{{1, 1, 1}, {7, 33, 67}, {130, 7, 33}, {33, 130, 1}, {67, 67, 130}, {1, 130, 7}}
	for _, kern := range []string{gemm.KernelCPU, gemm.KernelDirect, gemm.KernelTiled} {
		t.Run(kern, func(t *testing.T) {
			t.Run("float64", func(t *testing.T) {
				if !e.Prof.FP64 {
					t.Skip("the device has no fp64")
				}
				gemmKernelCase[float64](t, e, kern, shapes, 1e-12)
			})
			t.Run("float32", func(t *testing.T) {
				gemmKernelCase[float32](t, e, kern, shapes, 1e-4)
			})
		})
	}
}

func gemmKernelCase[T eng.Real](t *testing.T, e *eng.Engine, kern string, shapes [][3]int, tol float64) {
	rnd := rand.New(rand.NewPCG(7, 8))
	prec := eng.PrecisionOf[T]()
	for _, tA := range l3Trans {
		for _, tB := range l3Trans {
			for si, sh := range shapes {
				m, n, k := sh[0], sh[1], sh[2]
				cfg := eng.GemmParams(e.Prof, prec, m, n, k)
				cfg.Kernel = kern
				// Unaligned offsets and lds, except in the last shape,
				// where gemm_tiled takes its VEC_ALIGNED path, without
				// transposes in single precision and with both in double
				// (so both load paths of A and of B are covered; every
				// VEC_ALIGNED variant is another program to compile).
				aligned := si == len(shapes)-1 && kern == gemm.KernelTiled && (tA == blas.Trans) == (prec == 64) && tA == tB
				off := func() int { return 1 + rnd.IntN(5) }
				ldpad := func() int { return 1 + rnd.IntN(4) }
				if aligned {
					off = func() int { return 8 }
					ldpad = func() int { return 0 }
				}
				_, ac := eng.Stored(tA, m, k)
				_, bc := eng.Stored(tB, k, n)
				g := gemmLaunch{m: m, n: n, k: k, tA: tA, tB: tB, lda: ac + ldpad(), ldb: bc + ldpad(), ldc: n + ldpad()}
				if aligned {
					g.lda, g.ldb, g.ldc = l3RoundUp(ac, 8), l3RoundUp(bc, 8), l3RoundUp(n, 8)
				}
				g.offA, g.offB, g.offC = off(), off(), off()
				if kern == gemm.KernelTiled && cfg.VecAligned(g.offA, g.lda, g.offB, g.ldb, g.offC, g.ldc) != aligned {
					t.Fatalf("vecAligned = %v, want %v", !aligned, aligned)
				}
				checkGemmLaunch[T](t, e, kern, cfg, g, rnd, tol)
			}
		}
	}
}

func l3RoundUp(v, m int) int { return (v + m - 1) / m * m }

// BenchmarkGemmKernels times each kernel of gemm.cl through the launcher on
// device-resident square matrices (no transfers), and reports GFLOP/s:
//
//	go test -run XXX -bench GemmKernels ./blas/
func BenchmarkGemmKernels(b *testing.B) {
	e := testEngine(b)
	sizes := []int{256, 1024, 4096}
	if e.Prof.IsCPU() {
		sizes = []int{256, 512}
	}
	for _, prec := range []int{32, 64} {
		if prec == 64 && !e.Prof.FP64 {
			continue
		}
		for _, kern := range []string{gemm.KernelCPU, gemm.KernelDirect, gemm.KernelTiled} {
			for _, n := range sizes {
				b.Run(fmt.Sprintf("%d/%s/%d", prec, kern, n), func(b *testing.B) {
					if prec == 64 {
						benchGemm[float64](b, e, kern, n)
					} else {
						benchGemm[float32](b, e, kern, n)
					}
				})
			}
		}
	}
}

func benchGemm[T eng.Real](b *testing.B, e *eng.Engine, kern string, n int) {
	rnd := rand.New(rand.NewPCG(1, 1))
	host := l3Mat[T](n, n, n, l3Rand(rnd, false))
	c := eng.Begin[T](e, "bench")
	ab, bb, cb := eng.Upload(c, host), eng.Upload(c, host), eng.Upload(c, host)
	cfg := eng.GemmParams(e.Prof, eng.PrecisionOf[T](), n, n, n)
	cfg.Kernel = kern
	g := eng.NewGemmLauncher[T](c)
	run := func() {
		g.Gemm(cfg, false, false, n, n, n, 1, ab, 0, n, bb, 0, n, 0, cb, 0, n)
		eng.Download[T](c, cb, 1)
		cl.ReleaseAll(c.Events...)
		c.Events = c.Events[:0]
	}
	run() // compile
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		run()
	}
	b.StopTimer()
	if err := c.Finish(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(2*float64(n)*float64(n)*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// TestLevel3CopyPath runs the level 3 routines on host slices through the
// copying path — what devices with memory of their own take — with the
// shared-memory path (hostOver) turned off: gonum's suites and our float32
// cases. On PoCL the default path would otherwise leave it untested.
func TestLevel3CopyPath(t *testing.T) {
	impl, e := privateImpl(t, nil)
	e.ZeroCopy = eng.ZeroCopyOff
	if d, ok := openclDevice[float64](impl); ok {
		d.E.ZeroCopy = eng.ZeroCopyOff
		for _, tc := range testblasSuite {
			switch tc.name {
			case "Dgemm", "Dsymm", "Dsyrk", "Dsyr2k", "Dtrmm", "Dtrsm":
				t.Run(tc.name, func(t *testing.T) { tc.test(t, impl) })
			}
		}
	}
	for i := range level3Routines32 {
		rt := &level3Routines32[i]
		t.Run(rt.name, func(t *testing.T) { testRoutine32(t, rt, namedImpl32{"copypath", impl}) })
	}
	if e.Launched.Of("Sgemm") == 0 || e.Launched.Of("Strsm") == 0 {
		t.Error("Sgemm or Strsm never reached the device")
	}
}

// TestHostOverNoLeaks: GEMMs on host slices over the caller's memory
// (hostOver, the default on a CPU device) leave no buffer behind and no Go
// memory pinned once the driver has deleted their buffers.
func TestHostOverNoLeaks(t *testing.T) {
	impl, e := privateImpl(t, nil)
	if !e.HostShared() {
		t.Skip("the device does not share the host's memory")
	}
	base := cl.LiveObjects()
	const n = 40
	a, b, c := make([]float32, n*n), make([]float32, n*n), make([]float32, n*n)
	for i := range a {
		a[i], b[i] = float32(i%7), float32(i%5)
	}
	for i := range 30 {
		impl.Sgemm(blas.NoTrans, blas.Trans, n, n, n, 1, a, n, b, n, float32(i%2), c, n)
	}
	if got := e.Launched.Of("Sgemm"); got < 30 {
		t.Fatalf("%d of 30 Sgemm calls ran on the device", got)
	}
	if err := e.Queue.Finish(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		live := cl.LiveObjects()
		if live["hostmem"] == base["hostmem"] && live["buffer"] <= base["buffer"]+16 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30 calls: %d pinned host slices (%d before), %d buffers (%d before)",
				live["hostmem"], base["hostmem"], live["buffer"], base["buffer"])
		}
		time.Sleep(time.Millisecond)
	}
}

// TestHostOverMisaligned: level 3 calls on sub-slices that start at odd
// elements (as a blocked factorization passes them) give gonum's answer
// on the default path, where the kernels use the Go memory itself.
func TestHostOverMisaligned(t *testing.T) {
	impl, _ := privateImpl(t, nil)
	rnd := rand.New(rand.NewPCG(61, 62))
	const m, n, k = 37, 29, 23
	for _, off := range []int{1, 3, 5} {
		a := randF64(rnd, off+m*k)
		b := randF64(rnd, off+k*n)
		c := randF64(rnd, off+m*n)
		want := append([]float64(nil), c...)
		gonum.Implementation{}.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1.5, a[off:], k, b[off:], n, 0.5, want[off:], n)
		impl.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1.5, a[off:], k, b[off:], n, 0.5, c[off:], n)
		for i := range c {
			if math.Abs(c[i]-want[i]) > 1e-12 {
				t.Fatalf("offset %d: element %d = %v, want %v", off, i, c[i], want[i])
			}
		}
		a32, b32, c32 := make([]float32, len(a)), make([]float32, len(b)), make([]float32, len(c))
		for i := range a {
			a32[i] = float32(a[i])
		}
		for i := range b {
			b32[i] = float32(b[i])
		}
		for i := range c {
			c32[i] = float32(c[i])
		}
		w32 := append([]float32(nil), c32...)
		gonum.Implementation{}.Strsm(blas.Left, blas.Upper, blas.NoTrans, blas.Unit, k, n, 2, a32[off:], k, w32[off:], n)
		impl.Strsm(blas.Left, blas.Upper, blas.NoTrans, blas.Unit, k, n, 2, a32[off:], k, c32[off:], n)
		for i := range c32 {
			if math.Abs(float64(c32[i]-w32[i])) > 1e-3*math.Max(1, math.Abs(float64(w32[i]))) {
				t.Fatalf("Strsm, offset %d: element %d = %v, want %v", off, i, c32[i], w32[i])
			}
		}
	}
}

// TestGemmParamsDevice: the choice for the test device keeps the kernels'
// rules (gemm.Valid; internal/gemm's TestGemmParams checks other devices).
func TestGemmParamsDevice(t *testing.T) {
	e := testEngine(t)
	for _, prec := range []int{32, 64} {
		if prec == 64 && !e.Prof.FP64 {
			continue
		}
		cfg := eng.GemmParams(e.Prof, prec, 100, 100, 100)
		for _, tA := range []bool{false, true} {
			for _, tB := range []bool{false, true} {
				if err := gemm.Valid(e.GemmDev(), prec, tA, tB, cfg); err != nil {
					t.Errorf("prec %d, tA %v, tB %v: %v", prec, tA, tB, err)
				}
			}
		}
	}
}
