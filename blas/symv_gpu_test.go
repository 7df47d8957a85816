package clblas

import (
	"fmt"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/blas/testblas"
)

// TestSymvGPU runs the GPUs' symmetric matrix-vector product (symv_part,
// a tile of the stored triangle per work-group, finished by gemv_t_fin)
// on PoCL by turning off the CPU-device level 2 kernels: gonum's testblas
// Dsymv, then both precisions against gonum at sizes of several tiles with
// ragged edges, both triangles, alpha and beta special values (beta == 0
// with NaN in y), increments ±1 and ±3 and views starting one element into
// their slices. Every call must reach the device.
func TestSymvGPU(t *testing.T) {
	impl, e := privateImpl(t, nil)
	gpuKernels(e)
	if e.Prof.FP64 {
		before := e.Launched.Of("Dsymv")
		testblas.DsymvTest(t, impl)
		if e.Launched.Of("Dsymv") == before {
			t.Errorf("testblas Dsymv: no call reached the device")
		}
		symvGPUCases(t, "Dsymv", e.Launched.Of, impl.Dsymv, gonum.Implementation{}.Dsymv, 1e-12)
	}
	symvGPUCases(t, "Ssymv", e.Launched.Of, impl.Ssymv, gonum.Implementation{}.Ssymv, 1e-4)
}

func symvGPUCases[T float32 | float64](t *testing.T, name string, launched func(string) int64,
	got, want func(ul blas.Uplo, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int), tol float64) {
	vec := uniformVecs[T](2)
	onDevice := expectOnDevice(t, name, launched)
	calls := 0
	ab := [][2]T{{1, 0}, {-0.7, 1}, {0.6, -1.3}, {2, 0}}
	incs := [][2]int{{1, 1}, {-3, 3}, {3, -1}, {-1, -3}}
	k := 0
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		for _, n := range []int{1, 31, 64, 65, 150} {
			for range 2 {
				k++
				alpha, beta := ab[k%len(ab)][0], ab[k%len(ab)][1]
				incX, incY := incs[k%len(incs)][0], incs[k%len(incs)][1]
				lda := n + k%3
				// One element in front of every view: unaligned on the
				// device. The unstored triangle is NaN (must not be read).
				a := vec(1 + (n-1)*lda + n)
				for i := range n {
					for j := range n {
						if ul == blas.Upper && j < i || ul == blas.Lower && j > i {
							a[1+i*lda+j] = T(l2nan)
						}
					}
				}
				x, y := symvVectors(vec, n, incX, incY, beta)
				yg, yw := slices.Clone(y), slices.Clone(y)
				got(ul, n, alpha, a[1:], lda, x[1:], incX, beta, yg[1:], incY)
				want(ul, n, alpha, a[1:], lda, x[1:], incX, beta, yw[1:], incY)
				calls++
				desc := fmt.Sprintf("%s ul=%c n=%d lda=%d incX=%d incY=%d alpha=%v beta=%v", name, ul, n, lda, incX, incY, alpha, beta)
				checkL2Result(t, desc, "y", yg, yw, tol)
			}
		}
	}
	onDevice(calls)
}
