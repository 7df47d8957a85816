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
// (the GPUs' kernels on every device) against gonum, in
// both precisions: general bands from the diagonal alone to past the
// matrix, wide and tall (columns past the band's last row), over several
// work-groups of columns; triangular bands of both triangles, unit and
// not; lda past the band; increments ±1, ±2 and ±3; beta 0 and not; NaN in
// the storage outside the matrix and on a unit diagonal, which must not
// be read.
func TestZbandT(t *testing.T) {
	impl, e := privateImpl(t, nil)
	gpuKernels(e)
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
	for _, gc := range genBandCases() {
		a := vec(gc.span())
		for _, i := range gc.unread() {
			a[i] = nan
		}
		for _, tA := range []blas.Transpose{blas.Trans, blas.ConjTrans} {
			x := vec(1 + (gc.m-1)*abs(gc.inc))
			y := vec(1 + (gc.n-1)*abs(gc.inc))
			alpha, beta := T(complex(0.8, -0.3)), T(0)
			if gc.beta {
				beta = T(complex(1.5, 0.25))
			}
			yg, yw := slices.Clone(y), slices.Clone(y)
			gbmv(tA, gc.m, gc.n, gc.kl, gc.ku, alpha, a, gc.lda, x, gc.inc, beta, yg, gc.inc)
			gbmvWant(tA, gc.m, gc.n, gc.kl, gc.ku, alpha, a, gc.lda, x, gc.inc, beta, yw, gc.inc)
			zCheckAll(t, fmt.Sprintf("gbmv tA=%c %v: y", tA, gc), yg, yw, tol)
		}
	}
	for _, tc := range triBandCases(blas.Trans, blas.ConjTrans) {
		a := vec(tc.span())
		for _, i := range tc.unread() {
			a[i] = nan
		}
		x := vec(1 + (tc.n-1)*abs(tc.inc))
		xg, xw := slices.Clone(x), slices.Clone(x)
		tbmv(tc.ul, tc.tA, tc.d, tc.n, tc.k, a, tc.lda, xg, tc.inc)
		tbmvWant(tc.ul, tc.tA, tc.d, tc.n, tc.k, a, tc.lda, xw, tc.inc)
		zCheckAll(t, "tbmv "+tc.String()+": x", xg, xw, tol)
	}
}
