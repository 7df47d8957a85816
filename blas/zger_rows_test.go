package clblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas/gonum"
)

// TestZgerRows runs the GPUs' zger_rows (complex GERU and GERC on a dense
// matrix) on PoCL (the CPU-device kernels turned off) against gonum, at
// the default launch and at two shapes BenchmarkGemvTShape may choose for
// ger_rows, whose shape it shares: shapes from 1×1 to 130 columns, some
// past the vector width, with lda at n, a multiple of the vector width
// and odd; views one element into their slice (no vector path) or not;
// increments ±1 and ±3; a zero in x (GERU skips its row), a zero in y
// (GERC skips its column), and NaN and Inf in both, so that a skipped
// row or column that was computed anyway shows. The drop-in routines run
// on Go slices whose elements outside the matrix must stay as they were;
// for positive increments the resident Ger and Gerc run on a view of a
// larger matrix, read back whole.
func TestZgerRows(t *testing.T) {
	zAtShapes(t, setGer, zGerShapes, func(t *testing.T, impl *Implementation, launched func(string) int64, fp64 bool) {
		if fp64 {
			zgerCases[complex128](t, impl, launched, 1e-13)
		}
		zgerCases[complex64](t, impl, launched, 1e-5)
	})
}

func zgerCases[T complex64 | complex128](t *testing.T, impl *Implementation, launched func(string) int64, tol float64) {
	var ref gonum.Implementation
	vec := zRounded[T](rand.New(rand.NewPCG(41, 42)))
	geru, gerc := zName[T]("geru"), zName[T]("gerc")
	onU, onC := expectOnDevice(t, geru, launched), expectOnDevice(t, gerc, launched)
	calls := 0
	nan, inf := math.NaN(), math.Inf(1)
	// m, n, lda, skew, incX, incY
	for c, sz := range [][6]int{{1, 1, 1, 0, 1, 1}, {3, 5, 5, 1, -1, 1}, {17, 33, 40, 0, 3, -3}, {70, 64, 64, 0, 1, 1},
		{33, 35, 35, 0, 1, 1}, {130, 71, 80, 0, 1, 1}, {64, 130, 144, 1, 1, 1}, {9, 40, 48, 0, -3, 1}, {40, 9, 9, 0, 1, 3}} {
		m, n, lda, skew, incX, incY := sz[0], sz[1], sz[2], sz[3], sz[4], sz[5]
		a := vec(skew + (m-1)*lda + n + 2)
		x := vec(1 + (m-1)*abs(incX))
		y := vec(1 + (n-1)*abs(incY))
		if m > 2 {
			x[abs(incX)] = 0
		}
		if n > 2 {
			y[2*abs(incY)] = 0
		}
		if (c%3 == 1 || c == 5) && m > 3 && n > 3 {
			// Rows and columns that gonum skips, next to non-finite
			// factors: computing them anyway gives NaN.
			x[3*abs(incX)] = complex(nan, 0)
			y[3*abs(incY)] = complex(0, -inf)
		}
		desc := fmt.Sprintf("%d×%d lda=%d skew=%d incX=%d incY=%d", m, n, lda, skew, incX, incY)
		alpha := complex128(T(complex(0.6, -0.3)))
		for _, conj := range []bool{false, true} {
			ag, aw := slices.Clone(a), slices.Clone(a)
			zgerDropIn[T](impl, conj, m, n, alpha, x, incX, y, incY, ag[skew:], lda)
			if conj {
				ref.Zgerc(m, n, alpha, x, incX, y, incY, aw[skew:], lda)
			} else {
				ref.Zgeru(m, n, alpha, x, incX, y, incY, aw[skew:], lda)
			}
			zCheckAll(t, fmt.Sprintf("conj %v %s", conj, desc), ag, aw, tol)
		}
		if incX > 0 && incY > 0 {
			aw := slices.Clone(a)
			ref.Zgeru(m, n, alpha, x, incX, y, incY, aw[skew:], lda)
			ref.Zgerc(m, n, alpha, x, incX, y, incY, aw[skew:], lda)
			ag := zgerResident[T](t, impl, m, n, lda, skew, alpha, a, x, incX, y, incY)
			zCheckAll(t, "resident Ger, Gerc "+desc, ag, aw, tol)
		}
		calls++
	}
	onU(calls)
	onC(calls)
}

// zgerDropIn runs the drop-in Zgeru/Cgeru (or, with conj, Zgerc/Cgerc)
// on complex128 slices converted to T and back.
func zgerDropIn[T complex64 | complex128](impl *Implementation, conj bool, m, n int, alpha complex128, x []complex128, incX int, y []complex128, incY int, a []complex128, lda int) {
	xs, ys, as := zdata[T](x), zdata[T](y), zdata[T](a)
	switch as := any(as).(type) {
	case []complex64:
		xs, ys := any(xs).([]complex64), any(ys).([]complex64)
		if conj {
			impl.Cgerc(m, n, complex64(alpha), xs, incX, ys, incY, as, lda)
		} else {
			impl.Cgeru(m, n, complex64(alpha), xs, incX, ys, incY, as, lda)
		}
	case []complex128:
		xs, ys := any(xs).([]complex128), any(ys).([]complex128)
		if conj {
			impl.Zgerc(m, n, alpha, xs, incX, ys, incY, as, lda)
		} else {
			impl.Zgeru(m, n, alpha, xs, incX, ys, incY, as, lda)
		}
	}
	for i, v := range as {
		a[i] = complex128(v)
	}
}

// zgerResident runs Ger then Gerc on a resident m×n view of a (stride
// lda, from element skew) and returns the whole of a as they left it.
func zgerResident[T complex64 | complex128](t *testing.T, impl *Implementation, m, n, lda, skew int, alpha complex128, a, x []complex128, incX int, y []complex128, incY int) []complex128 {
	t.Helper()
	v, back := zResidentMat[T](t, impl, a, lda, skew, m, n)
	xv, _ := zResidentVec[T](t, impl, x, m, incX)
	yv, _ := zResidentVec[T](t, impl, y, n, incY)
	if _, err := Ger(T(alpha), xv, yv, v); err != nil {
		t.Fatal(err)
	}
	if _, err := Gerc(T(alpha), xv, yv, v); err != nil {
		t.Fatal(err)
	}
	return back()
}

// zCheckAll compares every element of got with want (zClose).
func zCheckAll[T complex64 | complex128](t *testing.T, what string, got, want []T, tol float64) {
	t.Helper()
	for i := range want {
		if !zClose(complex128(got[i]), complex128(want[i]), tol) {
			t.Errorf("%s: element %d = %v, want %v", what, i, got[i], want[i])
			return
		}
	}
}
