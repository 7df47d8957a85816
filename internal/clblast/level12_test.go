//go:build clblast

package clblast

import (
	"math"
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform/platformtest"
)

// TestLevel12AgainstNaive runs one call of each binding kind (element-wise,
// reduction, matrix-vector) against the plain loops.
func TestLevel12AgainstNaive(t *testing.T) {
	rt := platformtest.Runtime(t)
	ctx, q := rt.Context(), rt.Queue()
	const m, n = 5, 7
	x := make([]float64, n)
	y := make([]float64, m)
	a := make([]float64, m*n)
	for i := range x {
		x[i] = float64(i) - 2.5
	}
	for i := range y {
		y[i] = float64(i%3) + 0.25
	}
	for i := range a {
		a[i] = float64(i%7) - 3
	}
	bx, _ := cl.CreateBufferFrom(ctx, cl.MemReadWrite, x)
	by, _ := cl.CreateBufferFrom(ctx, cl.MemReadWrite, y)
	ba, _ := cl.CreateBufferFrom(ctx, cl.MemReadWrite, a)
	br, _ := ctx.CreateBuffer(cl.MemReadWrite, 8)
	for _, b := range []*cl.Buffer{bx, by, ba, br} {
		defer b.Release()
	}
	// y = 2·A·x + 0.5·y, then r = y·y, then y = 3·y + y.
	if err := Gemv[float64](q, false, m, n, 2, Mat{ba, 0, n}, Vec{bx, 0, 1}, 0.5, Vec{by, 0, 1}); err != nil {
		t.Fatal(err)
	}
	if err := Dot[float64](q, m, br, 0, Vec{by, 0, 1}, Vec{by, 0, 1}); err != nil {
		t.Fatal(err)
	}
	if err := Axpy[float64](q, m, 3, Vec{by, 0, 1}, Vec{by, 0, 1}); err != nil {
		t.Fatal(err)
	}
	got := make([]float64, m)
	r := make([]float64, 1)
	if _, err := cl.ReadBuffer(q, by, true, 0, got); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.ReadBuffer(q, br, true, 0, r); err != nil {
		t.Fatal(err)
	}
	var dot float64
	for i := range m {
		s := 0.5 * y[i]
		for j := range n {
			s += 2 * a[i*n+j] * x[j]
		}
		dot += s * s
		if want := 4 * s; math.Abs(got[i]-want) > 1e-9*(1+math.Abs(want)) {
			t.Errorf("y[%d] = %v, want %v", i, got[i], want)
		}
	}
	if math.Abs(r[0]-dot) > 1e-9*dot {
		t.Errorf("dot = %v, want %v", r[0], dot)
	}
}
