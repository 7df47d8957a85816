package clblas

import (
	"fmt"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	eng "github.com/gocompute/opencl/internal/engine"
)

// TestSyrRows runs the GPUs' syr_rows (SYR and SYR2 on a dense triangle)
// on PoCL (the CPU-device kernels turned off) against gonum, at the
// default launch and at shapes BenchmarkGemvTShape may choose for
// ger_rows, whose shape it shares: both triangles; orders 1 to 130, some
// past the vector width, with lda at n, a multiple of the vector width,
// and odd; views one element into their slice (no vector path) or not;
// increments ±1 and ±3; a zero in x (Dsyr skips its row) and a NaN in x;
// the other triangle, which must stay as it was.
func TestSyrRows(t *testing.T) {
	atRankShapes(t, func(t *testing.T, impl *Implementation, launched func(string) int64, fp64 bool) {
		if fp64 {
			syrCases(t, impl, "Dsyr", "Dsyr2", launched, impl.Dsyr, gonum.Implementation{}.Dsyr, impl.Dsyr2, gonum.Implementation{}.Dsyr2, 1e-13)
		}
		syrCases(t, impl, "Ssyr", "Ssyr2", launched, impl.Ssyr, gonum.Implementation{}.Ssyr, impl.Ssyr2, gonum.Implementation{}.Ssyr2, 1e-5)
	})
}

// TestSyrOwnKernels runs syrCases on the kernels the device takes by
// itself: on CPU devices rank_rows, whose vector loops start at a 64-byte
// boundary of each row, so that a row shorter than the way to it (the last
// rows of an upper triangle) must not write past its stored columns.
func TestSyrOwnKernels(t *testing.T) {
	impl, e := privateImpl(t, nil)
	if _, fp64 := openclDevice[float64](impl); fp64 {
		syrCases(t, impl, "Dsyr", "Dsyr2", e.Launched.Of, impl.Dsyr, gonum.Implementation{}.Dsyr, impl.Dsyr2, gonum.Implementation{}.Dsyr2, 1e-13)
	}
	syrCases(t, impl, "Ssyr", "Ssyr2", e.Launched.Of, impl.Ssyr, gonum.Implementation{}.Ssyr, impl.Ssyr2, gonum.Implementation{}.Ssyr2, 1e-5)
}

// atRankShapes runs cases on the portable implementation (the GPUs'
// kernels on any device) at the default launch of the rank updates and at
// two that BenchmarkGemvTShape may choose for ger_rows, set on both
// precisions' engines (and taken off at the end).
func atRankShapes(t *testing.T, cases func(t *testing.T, impl *Implementation, launched func(string) int64, fp64 bool)) {
	impl, e, d64, fp64 := portableImpl(t)
	set := func(s eng.GemvTShape) {
		for _, en := range []*eng.Engine{e, d64.E} {
			if en != nil {
				en.Ger = s
			}
		}
	}
	defer set(eng.GemvTShape{})
	for _, s := range []eng.GemvTShape{{}, {TX: 16, TY: 4, Unroll: 3}, {TX: 8, TY: 2, Unroll: 2}} {
		t.Run(gemvTName(s), func(t *testing.T) {
			set(s)
			cases(t, impl, e.Launched.Of, fp64)
		})
	}
}

// syrCases checks SYR and SYR2 against gonum for TestSyrRows, from Go
// slices and, for positive increments, on resident matrices, where the
// kernel's writes outside the triangle would show.
func syrCases[T float32 | float64](t *testing.T, impl *Implementation, r1, r2 string, launched func(string) int64,
	syr, syrWant func(ul blas.Uplo, n int, alpha T, x []T, incX int, a []T, lda int),
	syr2, syr2Want func(ul blas.Uplo, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int), tol float64) {
	vec := uniformVecs[T](7)
	on1, on2 := expectOnDevice(t, r1, launched), expectOnDevice(t, r2, launched)
	calls := 0
	// n, lda, skew, inc: the vector path where inc is 1, skew 0 and lda a
	// multiple of the vector width (16 at most).
	for c, sz := range [][4]int{{1, 1, 0, 1}, {3, 3, 1, -1}, {17, 32, 0, 3}, {70, 80, 1, 1}, {130, 144, 0, -3},
		{64, 64, 0, 1}, {33, 35, 0, 1}, {130, 144, 0, 1}, {71, 80, 0, 1}} {
		n, lda, skew, inc := sz[0], sz[1], sz[2], sz[3]
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			a := vec(skew + (n-1)*lda + n)
			for i := range n {
				for j := range n {
					if ul == blas.Upper && j < i || ul == blas.Lower && j > i {
						a[skew+i*lda+j] = 7.5 // a finite value, so that a change shows
					}
				}
			}
			x := vec(1 + (n-1)*abs(inc))
			y := vec(1 + (n-1)*abs(inc))
			if n > 2 {
				x[abs(inc)] = 0 // row 1 (or n−2 for inc < 0) is skipped by Dsyr
			}
			if c == 4 || c == 7 {
				x[2*abs(inc)] = T(l2nan)
			}
			desc := fmt.Sprintf("%c n=%d lda=%d skew=%d inc=%d", ul, n, lda, skew, inc)
			ag, aw := slices.Clone(a), slices.Clone(a)
			syr(ul, n, 0.6, x, inc, ag[skew:], lda)
			syrWant(ul, n, 0.6, x, inc, aw[skew:], lda)
			checkL2Result(t, r1+" "+desc, "a", ag, aw, tol)
			ag, aw = slices.Clone(a), slices.Clone(a)
			incY := []int{inc, -inc}[c%2]
			syr2(ul, n, -1.1, x, inc, y, incY, ag[skew:], lda)
			syr2Want(ul, n, -1.1, x, inc, y, incY, aw[skew:], lda)
			checkL2Result(t, r2+" "+desc, "a", ag, aw, tol)
			if inc > 0 && incY > 0 {
				aw = slices.Clone(a)
				syrWant(ul, n, 0.6, x, inc, aw[skew:], lda)
				syr2Want(ul, n, -1.1, x, inc, y, incY, aw[skew:], lda)
				ag = syrResident(t, impl, ul, n, lda, skew, a, x, y, inc)
				checkL2Result(t, r1+", "+r2+" resident "+desc, "a", ag, aw, tol)
			}
			calls++
		}
	}
	on1(calls)
	on2(calls)
}

// syrResident runs Syr(ul, 0.6, x) then Syr2(ul, −1.1, x, y) on a resident
// n×n view of a (stride lda, from element skew) and returns the whole of
// a as they left it.
func syrResident[T float32 | float64](t *testing.T, impl *Implementation, ul blas.Uplo, n, lda, skew int, a, x, y []T, inc int) []T {
	t.Helper()
	rows := (len(a) + lda - 1) / lda
	back := make([]T, rows*lda)
	copy(back, a)
	m, err := NewMatrixFrom(impl, rows, lda, back)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Release()
	v, err := m.View(skew/lda, skew%lda, n, n)
	if err != nil {
		t.Fatal(err)
	}
	xv, err := NewVectorFromStrided(impl, n, inc, x)
	if err != nil {
		t.Fatal(err)
	}
	defer xv.Release()
	yv, err := NewVectorFromStrided(impl, n, inc, y)
	if err != nil {
		t.Fatal(err)
	}
	defer yv.Release()
	if _, err := Syr(ul, T(0.6), xv, v); err != nil {
		t.Fatal(err)
	}
	if _, err := Syr2(ul, T(-1.1), xv, yv, v); err != nil {
		t.Fatal(err)
	}
	if err := m.Read(back); err != nil {
		t.Fatal(err)
	}
	return back[:len(a)]
}
