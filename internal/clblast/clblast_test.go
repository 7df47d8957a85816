//go:build clblast

package clblast

import (
	"math"
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform/platformtest"
)

func TestGemmAgainstNaive(t *testing.T) {
	rt := platformtest.Runtime(t)
	const m, n, k = 7, 5, 3
	a := make([]float32, m*k)
	b := make([]float32, k*n)
	for i := range a {
		a[i] = float32(i%5) - 2
	}
	for i := range b {
		b[i] = float32(i%3) + 0.5
	}
	ctx, q := rt.Context(), rt.Queue()
	ba, _ := cl.CreateBufferFrom(ctx, cl.MemReadOnly, a)
	bb, _ := cl.CreateBufferFrom(ctx, cl.MemReadOnly, b)
	bc, _ := ctx.CreateBuffer(cl.MemReadWrite, 4*m*n)
	defer ba.Release()
	defer bb.Release()
	defer bc.Release()
	if err := Gemm[float32](q, false, false, m, n, k, 1, ba, 0, k, bb, 0, n, 0, bc, 0, n); err != nil {
		t.Fatal(err)
	}
	c := make([]float32, m*n)
	if _, err := cl.ReadBuffer(q, bc, true, 0, c); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s float32
			for p := 0; p < k; p++ {
				s += a[i*k+p] * b[p*n+j]
			}
			if math.Abs(float64(s-c[i*n+j])) > 1e-5 {
				t.Fatalf("c[%d,%d] = %v, want %v", i, j, c[i*n+j], s)
			}
		}
	}
}
