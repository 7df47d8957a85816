package clblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// TestZrankBits checks that the complex128 rank updates (Zgeru, Zgerc,
// Zher, Zher2, Zhpr, Zhpr2) give gonum's numbers bit for bit, as
// complex_level2.cl's zrank_at promises, on a CPU device through both of
// its kernels: zrank_rows (the CPU kernels, 4 elements at a time where x
// and y are contiguous) and zrank (the portable set). Some elements of x
// and y are zero, so that gonum's skipped rows and columns (and the
// diagonal it still makes real) are exercised; one is NaN.
func TestZrankBits(t *testing.T) {
	for _, kernels := range []string{"cpu", "portable"} {
		t.Run(kernels, func(t *testing.T) {
			impl, e := privateImpl(t, nil)
			if !e.Prof.IsCPU() {
				t.Skip("on GPUs Zgeru, Zgerc, Zher and Zher2 take other kernels")
			}
			if kernels == "portable" {
				gpuKernels(e)
			}
			if _, ok := openclDevice[float64](impl); !ok {
				t.Skip("no fp64 on this device")
			}
			r := rand.New(rand.NewPCG(7, 8))
			for _, inc := range [][2]int{{1, 1}, {-2, 3}} {
				zrankBitsCase(t, impl, r, 29, 37, inc[0], inc[1])
			}
		})
	}
}

func zrankBitsCase(t *testing.T, impl *Implementation, r *rand.Rand, m, n, incX, incY int) {
	vec := func(k, inc int) []complex128 {
		v := make([]complex128, 1+(k-1)*abs(inc))
		for i := range v {
			switch i % 7 {
			case 3:
				// zero: a row or column gonum skips
			case 5:
				v[i] = complex(0, r.Float64()-0.5)
			default:
				v[i] = complex(r.Float64()-0.5, r.Float64()-0.5)
			}
		}
		return v
	}
	mat := func(k int) []complex128 {
		a := make([]complex128, k)
		for i := range a {
			a[i] = complex(r.Float64()-0.5, r.Float64()-0.5)
		}
		return a
	}
	alpha := complex(0.7, -1.3)
	lda := n + 3
	check := func(name string, a0 []complex128, ours, ref func(a []complex128)) {
		t.Helper()
		got, want := append([]complex128(nil), a0...), append([]complex128(nil), a0...)
		ours(got)
		ref(want)
		for i := range got {
			if !sameBitsOrNaN(got[i], want[i]) {
				t.Errorf("%s m=%d n=%d incX=%d incY=%d: element %d = %v, want %v (bits differ)", name, m, n, incX, incY, i, got[i], want[i])
				return
			}
		}
	}
	var g gonum.Implementation
	x, y := vec(m, incX), vec(n, incY)
	y[len(y)/2] = complex(math.NaN(), 0)
	a := mat(m * lda)
	check("Zgeru", a, func(a []complex128) { impl.Zgeru(m, n, alpha, x, incX, y, incY, a, lda) },
		func(a []complex128) { g.Zgeru(m, n, alpha, x, incX, y, incY, a, lda) })
	check("Zgerc", a, func(a []complex128) { impl.Zgerc(m, n, alpha, x, incX, y, incY, a, lda) },
		func(a []complex128) { g.Zgerc(m, n, alpha, x, incX, y, incY, a, lda) })
	x, y = vec(n, incX), vec(n, incY)
	// A NaN in x: the rows gonum skips (x(r) == 0) must stay as they were
	// in its column too, where an update by zero would give NaN.
	x[len(x)/2] = complex(math.NaN(), 0)
	a = mat(n * lda)
	ap := mat(n * (n + 1) / 2)
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		name := func(s string) string { return fmt.Sprintf("%s(%c)", s, ul) }
		check(name("Zher"), a, func(a []complex128) { impl.Zher(ul, n, real(alpha), x, incX, a, lda) },
			func(a []complex128) { g.Zher(ul, n, real(alpha), x, incX, a, lda) })
		check(name("Zher2"), a, func(a []complex128) { impl.Zher2(ul, n, alpha, x, incX, y, incY, a, lda) },
			func(a []complex128) { g.Zher2(ul, n, alpha, x, incX, y, incY, a, lda) })
		check(name("Zhpr"), ap, func(a []complex128) { impl.Zhpr(ul, n, real(alpha), x, incX, a) },
			func(a []complex128) { g.Zhpr(ul, n, real(alpha), x, incX, a) })
		check(name("Zhpr2"), ap, func(a []complex128) { impl.Zhpr2(ul, n, alpha, x, incX, y, incY, a) },
			func(a []complex128) { g.Zhpr2(ul, n, alpha, x, incX, y, incY, a) })
	}
}

// sameBitsOrNaN reports whether a and b have the same bits, part by part,
// or are both NaN there (NaN payloads depend on operand order).
func sameBitsOrNaN(a, b complex128) bool {
	part := func(p, q float64) bool {
		return math.Float64bits(p) == math.Float64bits(q) || math.IsNaN(p) && math.IsNaN(q)
	}
	return part(real(a), real(b)) && part(imag(a), imag(b))
}
