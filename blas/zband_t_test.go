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

// TestZbandT runs the complex band products with Aᵀ and Aᴴ on zband_t
// (Engine.ZbandT, the GPUs' kernels on every device) against gonum, in
// both precisions: general bands from the diagonal alone to past the
// matrix, wide and tall (columns past the band's last row), over several
// work-groups of columns; triangular bands of both triangles, unit and
// not; lda past the band; increments ±1, ±2 and 3; beta 0 and not; NaN in
// the storage outside the matrix and on a unit diagonal, which must not
// be read.
func TestZbandT(t *testing.T) {
	impl, e := privateImpl(t, nil)
	gpuKernels(e)
	e.ZbandT = true
	t.Run("complex128", func(t *testing.T) {
		zbandTCases(t, impl.Zgbmv, gonum.Implementation{}.Zgbmv, impl.Ztbmv, gonum.Implementation{}.Ztbmv, 1e-12)
	})
	t.Run("complex64", func(t *testing.T) {
		zbandTCases(t, impl.Cgbmv, gonum.Implementation{}.Cgbmv, impl.Ctbmv, gonum.Implementation{}.Ctbmv, 1e-4)
	})
}

func zbandTCases[T complex64 | complex128](t *testing.T,
	gbmv, gbmvWant func(tA blas.Transpose, m, n, kl, ku int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int),
	tbmv, tbmvWant func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []T, lda int, x []T, incX int), tol float64) {
	r := rand.New(rand.NewPCG(23, 5))
	vec := func(n int) []T {
		v := make([]T, n)
		for i := range v {
			v[i] = T(complex(2*r.Float64()-1, 2*r.Float64()-1))
		}
		return v
	}
	nan := T(complex(math.NaN(), math.NaN()))
	check := func(desc, elem string, got, want []T) {
		t.Helper()
		for i := range want {
			if !zbandClose(complex128(got[i]), complex128(want[i]), tol) {
				t.Errorf("%s: %s[%d] = %v, want %v", desc, elem, i, got[i], want[i])
				return
			}
		}
	}
	for c, sh := range [][4]int{{1, 1, 0, 0}, {40, 40, 0, 0}, {70, 70, 3, 5}, {130, 140, 33, 64}, {50, 150, 7, 2},
		{150, 50, 60, 1}, {64, 64, 64, 64}, {200, 170, 16, 31}} {
		m, n, kl, ku := sh[0], sh[1], sh[2], sh[3]
		lda := kl + ku + 1 + c%2
		a := vec((m-1)*lda + kl + ku + 1)
		for i := range m {
			for s := range kl + ku + 1 {
				if j := i - kl + s; j < 0 || j >= n {
					a[i*lda+s] = nan
				}
			}
		}
		inc := []int{1, -2, 1, -1, 3, 1, 2, -3}[c]
		for _, tA := range []blas.Transpose{blas.Trans, blas.ConjTrans} {
			x := vec(1 + (m-1)*abs(inc))
			y := vec(1 + (n-1)*abs(inc))
			alpha, beta := T(complex(0.8, -0.3)), []T{0, T(complex(1.5, 0.25))}[c%2]
			yg, yw := slices.Clone(y), slices.Clone(y)
			gbmv(tA, m, n, kl, ku, alpha, a, lda, x, inc, beta, yg, inc)
			gbmvWant(tA, m, n, kl, ku, alpha, a, lda, x, inc, beta, yw, inc)
			check(fmt.Sprintf("gbmv tA=%c m=%d n=%d kl=%d ku=%d lda=%d inc=%d", tA, m, n, kl, ku, lda, inc), "y", yg, yw)
		}
	}
	for _, tc := range triBandCases(blas.Trans, blas.ConjTrans) {
		a := vec(tc.n * tc.lda)
		for _, i := range tc.unread() {
			a[i] = nan
		}
		x := vec(1 + (tc.n-1)*abs(tc.inc))
		xg, xw := slices.Clone(x), slices.Clone(x)
		tbmv(tc.ul, tc.tA, tc.d, tc.n, tc.k, a, tc.lda, xg, tc.inc)
		tbmvWant(tc.ul, tc.tA, tc.d, tc.n, tc.k, a, tc.lda, xw, tc.inc)
		check("tbmv "+tc.String(), "x", xg, xw)
	}
}

// zbandClose reports whether got agrees with want: NaN in a part where
// want has one, else within a relative tolerance for the different order
// of summation.
func zbandClose(got, want complex128, tol float64) bool {
	part := func(g, w float64) bool {
		if math.IsNaN(w) || math.IsNaN(g) {
			return math.IsNaN(g) && math.IsNaN(w)
		}
		return math.Abs(g-w) <= tol*(1+math.Abs(w))
	}
	return part(real(got), real(want)) && part(imag(got), imag(want))
}
