package clblas

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	eng "github.com/gocompute/opencl/internal/engine"
)

// TestZgemvKernels runs the GPUs' complex GEMV kernels, zgemv_n (A) and
// zgemv_t_part and zgemv_t_fin (Aᵀ and Aᴴ), on PoCL (the CPU-device
// kernels turned off) against gonum, at the default launch and at shapes
// BenchmarkGemvTShape may choose for gemv_t_part, whose launch the
// transposed ones share (one of them with a row block every three rows): shapes from 1×1 to 200 rows, some past
// the vector width, with lda at n, a multiple of the vector width and
// odd; views one element into their slice (no vector path) or not;
// increments ±1 and ±3; alpha and beta among 0, 1 and others. The
// drop-in routines run on Go slices whose elements outside y must stay
// as they were; for positive increments the resident Gemv runs on a view
// of a larger matrix.
func TestZgemvKernels(t *testing.T) {
	shapes := []eng.GemvTShape{{}, {TX: 16, TY: 4, Unroll: 3, Launches: 2}, {TX: 8, TY: 2, Unroll: 2, RowBlocks: 70, Launches: 1}}
	set := func(e *eng.Engine, s eng.GemvTShape) { e.GemvT = s }
	zAtShapes(t, set, shapes, func(t *testing.T, impl *Implementation, launched func(string) int64, fp64 bool) {
		if fp64 {
			zgemvTCases[complex128](t, impl, launched, 1e-12)
		}
		zgemvTCases[complex64](t, impl, launched, 2e-5)
	})
}

func zgemvTCases[T complex64 | complex128](t *testing.T, impl *Implementation, launched func(string) int64, tol float64) {
	var ref gonum.Implementation
	vec := zRounded[T](rand.New(rand.NewPCG(43, 44)))
	name := zName[T]("gemv")
	on := expectOnDevice(t, name, launched)
	calls := 0
	scalars := []complex128{complex(0.6, -0.3), 1, 0, complex(0, 1)}
	// m, n, lda, skew, incX, incY
	for c, sz := range [][6]int{{1, 1, 1, 0, 1, 1}, {3, 5, 5, 1, -1, 1}, {17, 33, 40, 0, 3, -3}, {70, 64, 64, 0, 1, 1},
		{33, 35, 35, 0, 1, 1}, {130, 71, 80, 0, 1, 1}, {64, 130, 144, 1, 1, 1}, {9, 40, 48, 0, -3, 1}, {200, 9, 9, 0, 1, 3}} {
		m, n, lda, skew, incX, incY := sz[0], sz[1], sz[2], sz[3], sz[4], sz[5]
		a := vec(skew + (m-1)*lda + n + 2)
		alpha, beta := T(scalars[c%2]), T(scalars[(c/2)%4])
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans} {
			lx, ly := m, n
			if tA == blas.NoTrans {
				lx, ly = n, m
			}
			x := vec(1 + (lx-1)*abs(incX))
			y := vec(1 + (ly-1)*abs(incY))
			desc := fmt.Sprintf("%c %d×%d lda=%d skew=%d incX=%d incY=%d alpha=%v beta=%v", tA, m, n, lda, skew, incX, incY, alpha, beta)
			yg, yw := slices.Clone(y), slices.Clone(y)
			zgemvDropIn[T](impl, tA, m, n, alpha, a[skew:], lda, x, incX, beta, yg, incY)
			ref.Zgemv(tA, m, n, complex128(alpha), a[skew:], lda, x, incX, complex128(beta), yw, incY)
			zCheckAll(t, desc, yg, yw, tol)
			if incX > 0 && incY > 0 {
				yg = zgemvResident[T](t, impl, tA, m, n, lda, skew, alpha, a, x, incX, beta, y, incY)
				zCheckAll(t, "resident "+desc, yg, yw, tol)
			}
			calls++
		}
	}
	on(calls)
}

// zgemvDropIn runs the drop-in Zgemv or Cgemv on complex128 slices
// converted to T, and copies y back.
func zgemvDropIn[T complex64 | complex128](impl *Implementation, tA blas.Transpose, m, n int, alpha T, a []complex128, lda int, x []complex128, incX int, beta T, y []complex128, incY int) {
	as, xs, ys := zdata[T](a), zdata[T](x), zdata[T](y)
	switch ys := any(ys).(type) {
	case []complex64:
		impl.Cgemv(tA, m, n, any(alpha).(complex64), any(as).([]complex64), lda, any(xs).([]complex64), incX, any(beta).(complex64), ys, incY)
	case []complex128:
		impl.Zgemv(tA, m, n, any(alpha).(complex128), any(as).([]complex128), lda, any(xs).([]complex128), incX, any(beta).(complex128), ys, incY)
	}
	for i, v := range ys {
		y[i] = complex128(v)
	}
}

// zgemvResident runs Gemv on a resident m×n view of a (stride lda, from
// element skew) and returns y, the whole vector it started from.
func zgemvResident[T complex64 | complex128](t *testing.T, impl *Implementation, tA blas.Transpose, m, n, lda, skew int, alpha T, a, x []complex128, incX int, beta T, y []complex128, incY int) []complex128 {
	t.Helper()
	lx, ly := m, n
	if tA == blas.NoTrans {
		lx, ly = n, m
	}
	v, _ := zResidentMat[T](t, impl, a, lda, skew, m, n)
	xv, _ := zResidentVec[T](t, impl, x, lx, incX)
	yv, back := zResidentVec[T](t, impl, y, ly, incY)
	if _, err := Gemv(tA, alpha, v, xv, beta, yv); err != nil {
		t.Fatal(err)
	}
	return back()
}
