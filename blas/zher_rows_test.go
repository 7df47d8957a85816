package clblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// TestZherRows runs the GPUs' zher_rows (complex HER and HER2 on a dense
// triangle) on PoCL (the CPU-device kernels turned off) against gonum, at
// the default launch and at two shapes BenchmarkGemvTShape may choose for
// syr_rows, whose launch it shares: both triangles; orders 1 to 130, with
// lda at n, a multiple of the vector width and odd; views one element
// into their slice (no vector path) or not; increments ±1 and ±3; a zero
// in x (HER skips its row, HER2 too where y is also zero there), NaN and
// Inf in x and y; a diagonal with imaginary parts (gonum clears them,
// skipped rows included); the other triangle, which must stay as it was.
// For positive increments the resident Her and Her2 run on a view of a
// larger matrix, read back whole. The packed build (HPR and HPR2) runs on
// the same launches: zhprCases.
func TestZherRows(t *testing.T) {
	zAtShapes(t, setGer, zGerShapes, func(t *testing.T, impl *Implementation, launched func(string) int64, fp64 bool) {
		if fp64 {
			zherCases[complex128](t, impl, launched, 1e-13)
			zhprCases[complex128](t, impl, launched, 1e-13)
		}
		zherCases[complex64](t, impl, launched, 1e-5)
		zhprCases[complex64](t, impl, launched, 1e-5)
	})
}

// zhprCases runs HPR and HPR2 against gonum: both triangles; orders 1 to
// 130, so that packed rows start at every alignment; increments ±1 and
// ±3; zeros in x and y (rows gonum skips) with NaN and Inf beside them,
// and an x(r) of (Inf, 0), where Zhpr's (α + 0i)·x(r) differs from
// Zher's (α·Re x(r), α·Im x(r)); imaginary parts on the diagonal (gonum
// clears them). For positive increments the resident Hpr and Hpr2 run on
// a view from an element skew into a longer vector, read back whole, so
// that a write outside the triangle shows.
func zhprCases[T complex64 | complex128](t *testing.T, impl *Implementation, launched func(string) int64, tol float64) {
	var ref gonum.Implementation
	vec := zRounded[T](rand.New(rand.NewPCG(47, 48)))
	hpr, hpr2 := zName[T]("hpr"), zName[T]("hpr2")
	on1, on2 := expectOnDevice(t, hpr, launched), expectOnDevice(t, hpr2, launched)
	calls := 0
	// n, skew, incX, incY
	for c, sz := range [][4]int{{1, 0, 1, 1}, {3, 1, -1, 1}, {17, 0, 3, -3}, {70, 1, 1, 1}, {130, 0, -3, 3},
		{64, 0, 1, 1}, {33, 3, 1, 1}, {130, 2, 1, 1}, {71, 0, 1, 1}} {
		n, skew, incX, incY := sz[0], sz[1], sz[2], sz[3]
		span := n * (n + 1) / 2
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			ap := vec(skew + span + 5) // 5 elements past the triangle
			x, y := zherVectors(vec, n, incX, incY, c == 4 || c == 7)
			desc := fmt.Sprintf("%c n=%d skew=%d incX=%d incY=%d", ul, n, skew, incX, incY)
			alpha := complex128(T(complex(-1.1, 0.4)))
			ag, aw := slices.Clone(ap), slices.Clone(ap)
			zhprDropIn[T](impl, ul, false, n, alpha, x, incX, y, incY, ag[skew:skew+span])
			ref.Zhpr(ul, n, real(alpha), x, incX, aw[skew:skew+span])
			zCheckAll(t, hpr+" "+desc, ag, aw, tol)
			ag, aw = slices.Clone(ap), slices.Clone(ap)
			zhprDropIn[T](impl, ul, true, n, alpha, x, incX, y, incY, ag[skew:skew+span])
			ref.Zhpr2(ul, n, alpha, x, incX, y, incY, aw[skew:skew+span])
			zCheckAll(t, hpr2+" "+desc, ag, aw, tol)
			if incX > 0 && incY > 0 {
				aw = slices.Clone(ap)
				ref.Zhpr(ul, n, real(alpha), x, incX, aw[skew:skew+span])
				ref.Zhpr2(ul, n, alpha, x, incX, y, incY, aw[skew:skew+span])
				ag = zhprResident[T](t, impl, ul, n, skew, alpha, ap, x, incX, y, incY)
				zCheckAll(t, hpr+", "+hpr2+" resident "+desc, ag, aw, tol)
			}
			calls++
		}
	}
	on1(calls)
	on2(calls)
}

func zherCases[T complex64 | complex128](t *testing.T, impl *Implementation, launched func(string) int64, tol float64) {
	var ref gonum.Implementation
	vec := zRounded[T](rand.New(rand.NewPCG(45, 46)))
	her, her2 := zName[T]("her"), zName[T]("her2")
	on1, on2 := expectOnDevice(t, her, launched), expectOnDevice(t, her2, launched)
	calls := 0
	// n, lda, skew, incX, incY
	for c, sz := range [][5]int{{1, 1, 0, 1, 1}, {3, 3, 1, -1, 1}, {17, 32, 0, 3, -3}, {70, 80, 1, 1, 1}, {130, 144, 0, -3, 3},
		{64, 64, 0, 1, 1}, {33, 35, 0, 1, 1}, {130, 144, 0, 1, 1}, {71, 80, 0, 1, 1}} {
		n, lda, skew, incX, incY := sz[0], sz[1], sz[2], sz[3], sz[4]
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			a := vec(skew + (n-1)*lda + n)
			for i := range n {
				for j := range n {
					if ul == blas.Upper && j < i || ul == blas.Lower && j > i {
						a[skew+i*lda+j] = complex(7.5, -2.5) // a finite value, so that a change shows
					}
				}
			}
			x, y := zherVectors(vec, n, incX, incY, c == 4 || c == 7)
			desc := fmt.Sprintf("%c n=%d lda=%d skew=%d incX=%d incY=%d", ul, n, lda, skew, incX, incY)
			alpha := complex128(T(complex(-1.1, 0.4)))
			ag, aw := slices.Clone(a), slices.Clone(a)
			zherDropIn[T](impl, ul, false, n, alpha, x, incX, y, incY, ag[skew:], lda)
			ref.Zher(ul, n, real(alpha), x, incX, aw[skew:], lda)
			zCheckAll(t, her+" "+desc, ag, aw, tol)
			ag, aw = slices.Clone(a), slices.Clone(a)
			zherDropIn[T](impl, ul, true, n, alpha, x, incX, y, incY, ag[skew:], lda)
			ref.Zher2(ul, n, alpha, x, incX, y, incY, aw[skew:], lda)
			zCheckAll(t, her2+" "+desc, ag, aw, tol)
			if incX > 0 && incY > 0 {
				aw = slices.Clone(a)
				ref.Zher(ul, n, real(alpha), x, incX, aw[skew:], lda)
				ref.Zher2(ul, n, alpha, x, incX, y, incY, aw[skew:], lda)
				ag = zherResident[T](t, impl, ul, n, lda, skew, alpha, a, x, incX, y, incY)
				zCheckAll(t, her+", "+her2+" resident "+desc, ag, aw, tol)
			}
			calls++
		}
	}
	on1(calls)
	on2(calls)
}

// zherDropIn runs the drop-in Zher/Cher (real(alpha)) or, with two,
// Zher2/Cher2 on complex128 slices converted to T and back.
func zherDropIn[T complex64 | complex128](impl *Implementation, ul blas.Uplo, two bool, n int, alpha complex128, x []complex128, incX int, y []complex128, incY int, a []complex128, lda int) {
	xs, ys, as := zdata[T](x), zdata[T](y), zdata[T](a)
	switch as := any(as).(type) {
	case []complex64:
		xs, ys := any(xs).([]complex64), any(ys).([]complex64)
		if two {
			impl.Cher2(ul, n, complex64(alpha), xs, incX, ys, incY, as, lda)
		} else {
			impl.Cher(ul, n, float32(real(alpha)), xs, incX, as, lda)
		}
	case []complex128:
		xs, ys := any(xs).([]complex128), any(ys).([]complex128)
		if two {
			impl.Zher2(ul, n, alpha, xs, incX, ys, incY, as, lda)
		} else {
			impl.Zher(ul, n, real(alpha), xs, incX, as, lda)
		}
	}
	for i, v := range as {
		a[i] = complex128(v)
	}
}

// zherResident runs Her then Her2 on a resident n×n view of a (stride
// lda, from element skew) and returns the whole of a as they left it.
func zherResident[T complex64 | complex128](t *testing.T, impl *Implementation, ul blas.Uplo, n, lda, skew int, alpha complex128, a, x []complex128, incX int, y []complex128, incY int) []complex128 {
	t.Helper()
	v, back := zResidentMat[T](t, impl, a, lda, skew, n, n)
	xv, _ := zResidentVec[T](t, impl, x, n, incX)
	yv, _ := zResidentVec[T](t, impl, y, n, incY)
	if _, err := Her(ul, real(alpha), xv, v); err != nil {
		t.Fatal(err)
	}
	if _, err := Her2(ul, T(alpha), xv, yv, v); err != nil {
		t.Fatal(err)
	}
	return back()
}

// zhprDropIn runs the drop-in Zhpr/Chpr (real(alpha)) or, with two,
// Zhpr2/Chpr2 on complex128 slices converted to T and back.
func zhprDropIn[T complex64 | complex128](impl *Implementation, ul blas.Uplo, two bool, n int, alpha complex128, x []complex128, incX int, y []complex128, incY int, ap []complex128) {
	xs, ys, as := zdata[T](x), zdata[T](y), zdata[T](ap)
	switch as := any(as).(type) {
	case []complex64:
		xs, ys := any(xs).([]complex64), any(ys).([]complex64)
		if two {
			impl.Chpr2(ul, n, complex64(alpha), xs, incX, ys, incY, as)
		} else {
			impl.Chpr(ul, n, float32(real(alpha)), xs, incX, as)
		}
	case []complex128:
		xs, ys := any(xs).([]complex128), any(ys).([]complex128)
		if two {
			impl.Zhpr2(ul, n, alpha, xs, incX, ys, incY, as)
		} else {
			impl.Zhpr(ul, n, real(alpha), xs, incX, as)
		}
	}
	for i, v := range as {
		ap[i] = complex128(v)
	}
}

// zhprResident runs Hpr then Hpr2 on a resident view of the packed
// triangle from element skew of ap and returns the whole of ap as they
// left it.
func zhprResident[T complex64 | complex128](t *testing.T, impl *Implementation, ul blas.Uplo, n, skew int, alpha complex128, ap, x []complex128, incX int, y []complex128, incY int) []complex128 {
	t.Helper()
	p, err := NewVectorFrom(impl, zdata[T](ap))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	v, err := p.View(skew, n*(n+1)/2, 1)
	if err != nil {
		t.Fatal(err)
	}
	xv, _ := zResidentVec[T](t, impl, x, n, incX)
	yv, _ := zResidentVec[T](t, impl, y, n, incY)
	if _, err := Hpr(ul, real(alpha), xv, v); err != nil {
		t.Fatal(err)
	}
	if _, err := Hpr2(ul, T(alpha), xv, yv, v); err != nil {
		t.Fatal(err)
	}
	back := make([]T, len(ap))
	if err := p.Read(back); err != nil {
		t.Fatal(err)
	}
	return zWiden(back)
}

// zherVectors returns x and y of n elements at increments incX and incY
// for the Hermitian rank updates: zeros at rows HER and HPR skip (1 and
// 2) and HER2 and HPR2 skip (2, for equal signs of the increments); with
// nonFinite, for n > 5, NaN and Inf next to them and to row n−1, also
// zeroed, so that computing a skipped row anyway gives NaN, and an x(r)
// of (Inf, 0), where Zhpr's factor (α + 0i)·x(r) has a NaN imaginary part
// and Zher's (α·Re x(r), α·Im x(r)) does not.
func zherVectors(vec func(int) []complex128, n, incX, incY int, nonFinite bool) (x, y []complex128) {
	x, y = vec(1+(n-1)*abs(incX)), vec(1+(n-1)*abs(incY))
	if n > 2 {
		x[abs(incX)] = 0
		x[2*abs(incX)] = 0
		y[2*abs(incY)] = 0
	}
	if nonFinite && n > 5 {
		nan, inf := math.NaN(), math.Inf(1)
		x[4*abs(incX)] = complex(nan, 1)
		x[6*abs(incX)] = complex(inf, 0)
		x[(n-3)*abs(incX)] = complex(0, nan)
		x[(n-1)*abs(incX)] = 0
		y[5*abs(incY)] = complex(0, -inf)
	}
	return x, y
}
