//go:build clblast

package clblast

import (
	"math/cmplx"
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform/platformtest"
)

// TestComplexGemmAgainstNaive checks Zgemm's binding with op(A) = Aᴴ and
// complex scalars against a naive product.
func TestComplexGemmAgainstNaive(t *testing.T) {
	rt := platformtest.Runtime(t)
	if !rt.Device().Profile().FP64 {
		platformtest.Unavailable(t, "no cl_khr_fp64")
	}
	const m, n, k = 5, 4, 3
	a := make([]complex128, k*m) // stored k×m: op(A) = Aᴴ is m×k
	b := make([]complex128, k*n)
	c := make([]complex128, m*n)
	for i := range a {
		a[i] = complex(float64(i%5)-2, float64(i%3))
	}
	for i := range b {
		b[i] = complex(float64(i%3)+0.5, -float64(i%4))
	}
	for i := range c {
		c[i] = complex(1, float64(i))
	}
	alpha, beta := complex(0.5, 1), complex(0, -1)
	ctx, q := rt.Context(), rt.Queue()
	ba, _ := cl.CreateBufferFrom(ctx, cl.MemReadOnly, a)
	bb, _ := cl.CreateBufferFrom(ctx, cl.MemReadOnly, b)
	bc, _ := cl.CreateBufferFrom(ctx, cl.MemReadWrite, c)
	defer ba.Release()
	defer bb.Release()
	defer bc.Release()
	if err := ComplexGemm(q, 2, 0, m, n, k, alpha, ba, 0, m, bb, 0, n, beta, bc, 0, n); err != nil {
		t.Fatal(err)
	}
	got := make([]complex128, m*n)
	if _, err := cl.ReadBuffer(q, bc, true, 0, got); err != nil {
		t.Fatal(err)
	}
	for i := range m {
		for j := range n {
			var s complex128
			for p := range k {
				s += cmplx.Conj(a[p*m+i]) * b[p*n+j]
			}
			want := alpha*s + beta*c[i*n+j]
			if cmplx.Abs(got[i*n+j]-want) > 1e-12 {
				t.Fatalf("c[%d,%d] = %v, want %v", i, j, got[i*n+j], want)
			}
		}
	}
}
