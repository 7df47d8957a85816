package clblas

import (
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	eng "github.com/gocompute/opencl/internal/engine"
)

// TestComplexLevel2Wide runs the complex band, packed, triangular and
// Hermitian products (Zhbmv, Zhemv, Zhpmv, Ztbmv, Ztrmv, Ztpmv, Zgbmv)
// with the device forced against gonum at orders 33 to 97, bands from 0
// diagonals to n − 1, every triangle, transpose and diagonal, contiguous
// and strided vectors: wide enough for the CPU kernels' vector paths and
// row pairs (zband_rows, zband_t_rows, zhemv_rows), which
// TestComplexLevel2Small's order 7 barely reaches; and Zgemv with Aᵀ and
// Aᴴ. The partial sums of zband_t_rows, zhemv_rows and zgemv_t_rows are
// added in their own launch's last work-item and by zband_t_sum and
// zgemv_t_sum in turn.
func TestComplexLevel2Wide(t *testing.T) {
	impl, e := privateImpl(t, nil)
	defer func() { e.GemvT = eng.GemvTShape{} }()
	for _, launches := range []int{1, 2} {
		e.GemvT = eng.GemvTShape{Launches: launches}
		t.Run(fmt.Sprintf("launches=%d", launches), func(t *testing.T) { complexLevel2Wide(t, impl) })
	}
}

func complexLevel2Wide(t *testing.T, impl *Implementation) {
	var g gonum.Implementation
	r := rand.New(rand.NewPCG(3, 4))
	vec := func(n int) []complex128 {
		v := make([]complex128, n)
		for i := range v {
			v[i] = complex(r.Float64()-0.5, r.Float64()-0.5)
		}
		return v
	}
	cmp := func(name string, got, want []complex128) {
		t.Helper()
		for i := range got {
			if cmplx.Abs(got[i]-want[i]) > 1e-11*(1+cmplx.Abs(want[i])) {
				t.Errorf("%s: element %d = %v, want %v", name, i, got[i], want[i])
				return
			}
		}
	}
	for _, n := range []int{33, 64, 97} {
		for _, k := range []int{0, 1, 5, 31, n - 1} {
			for _, inc := range [][2]int{{1, 1}, {-2, 3}} {
				ix, iy := inc[0], inc[1]
				abs := func(i int) int {
					if i < 0 {
						return -i
					}
					return i
				}
				x := vec(1 + (n-1)*abs(ix))
				y := vec(1 + (n-1)*abs(iy))
				lda := k + 1 + 2
				ab := vec(n * lda)
				ad := vec(n * (n + 1))
				ap := vec(n * (n + 1) / 2)
				alpha, beta := complex(0.5, -1.25), complex(-0.75, 0.5)
				for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
					d := fmt.Sprintf("n=%d k=%d inc=%v ul=%c", n, k, inc, ul)
					y1, y2 := append([]complex128(nil), y...), append([]complex128(nil), y...)
					impl.Zhbmv(ul, n, k, alpha, ab, lda, x, ix, beta, y1, iy)
					g.Zhbmv(ul, n, k, alpha, ab, lda, x, ix, beta, y2, iy)
					cmp("Zhbmv "+d, y1, y2)
					y1, y2 = append([]complex128(nil), y...), append([]complex128(nil), y...)
					impl.Zhemv(ul, n, alpha, ad, n+1, x, ix, beta, y1, iy)
					g.Zhemv(ul, n, alpha, ad, n+1, x, ix, beta, y2, iy)
					cmp("Zhemv "+d, y1, y2)
					y1, y2 = append([]complex128(nil), y...), append([]complex128(nil), y...)
					impl.Zhpmv(ul, n, alpha, ap, x, ix, beta, y1, iy)
					g.Zhpmv(ul, n, alpha, ap, x, ix, beta, y2, iy)
					cmp("Zhpmv "+d, y1, y2)
					for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans} {
						for _, dg := range []blas.Diag{blas.Unit, blas.NonUnit} {
							dd := fmt.Sprintf("%s tA=%c diag=%c", d, tA, dg)
							x1, x2 := append([]complex128(nil), x...), append([]complex128(nil), x...)
							impl.Ztbmv(ul, tA, dg, n, k, ab, lda, x1, ix)
							g.Ztbmv(ul, tA, dg, n, k, ab, lda, x2, ix)
							cmp("Ztbmv "+dd, x1, x2)
							x1, x2 = append([]complex128(nil), x...), append([]complex128(nil), x...)
							impl.Ztrmv(ul, tA, dg, n, ad, n+1, x1, ix)
							g.Ztrmv(ul, tA, dg, n, ad, n+1, x2, ix)
							cmp("Ztrmv "+dd, x1, x2)
							x1, x2 = append([]complex128(nil), x...), append([]complex128(nil), x...)
							impl.Ztpmv(ul, tA, dg, n, ap, x1, ix)
							g.Ztpmv(ul, tA, dg, n, ap, x2, ix)
							cmp("Ztpmv "+dd, x1, x2)
						}
					}
				}
				for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans} {
					m := n + 5
					kl, ku := k, (k+3)%n
					ga := vec(m * (kl + ku + 3))
					lx, ly := n, m
					if tA != blas.NoTrans {
						lx, ly = m, n
					}
					xx, yy := vec(1+(lx-1)*abs(ix)), vec(1+(ly-1)*abs(iy))
					y1, y2 := append([]complex128(nil), yy...), append([]complex128(nil), yy...)
					impl.Zgbmv(tA, m, n, kl, ku, alpha, ga, kl+ku+3, xx, ix, beta, y1, iy)
					g.Zgbmv(tA, m, n, kl, ku, alpha, ga, kl+ku+3, xx, ix, beta, y2, iy)
					cmp(fmt.Sprintf("Zgbmv tA=%c m=%d n=%d kl=%d ku=%d inc=%v", tA, m, n, kl, ku, inc), y1, y2)
					if k == 0 {
						gd := vec(m * (n + 2))
						y1, y2 = append([]complex128(nil), yy...), append([]complex128(nil), yy...)
						impl.Zgemv(tA, m, n, alpha, gd, n+2, xx, ix, beta, y1, iy)
						g.Zgemv(tA, m, n, alpha, gd, n+2, xx, ix, beta, y2, iy)
						cmp(fmt.Sprintf("Zgemv tA=%c m=%d n=%d inc=%v", tA, m, n, inc), y1, y2)
					}
				}
			}
		}
	}
}
