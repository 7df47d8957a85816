//go:build clblast

package clblast

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform/platformtest"
)

// TestLevel2MoreAgainstGonum runs Trsv, Gbmv and Sbmv once each against
// gonum on row-major storage.
func TestLevel2MoreAgainstGonum(t *testing.T) {
	rt := platformtest.Runtime(t)
	ctx, q := rt.Context(), rt.Queue()
	const n, kl, ku, k = 9, 2, 3, 2
	val := func(i int) float64 { return float64((i*7)%11)/11 - 0.4 }
	fill := func(s []float64) []float64 {
		for i := range s {
			s[i] = val(i)
		}
		return s
	}
	a := fill(make([]float64, n*n))
	for i := 0; i < n; i++ {
		a[i*n+i] = 3 // well conditioned
	}
	gb := fill(make([]float64, n*(kl+ku+1)))
	sb := fill(make([]float64, n*(k+1)))
	x := fill(make([]float64, n))
	y := fill(make([]float64, n))
	bx, _ := cl.CreateBufferFrom(ctx, cl.MemReadWrite, x)
	by, _ := cl.CreateBufferFrom(ctx, cl.MemReadWrite, y)
	ba, _ := cl.CreateBufferFrom(ctx, cl.MemReadWrite, a)
	bg, _ := cl.CreateBufferFrom(ctx, cl.MemReadWrite, gb)
	bs, _ := cl.CreateBufferFrom(ctx, cl.MemReadWrite, sb)
	for _, b := range []*cl.Buffer{bx, by, ba, bg, bs} {
		defer b.Release()
	}
	g := gonum.Implementation{}
	check := func(name string, b *cl.Buffer, want []float64) {
		t.Helper()
		got := make([]float64, len(want))
		if _, err := cl.ReadBuffer(q, b, true, 0, got); err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-9*(1+math.Abs(want[i])) {
				t.Errorf("%s: [%d] = %v, want %v", name, i, got[i], want[i])
			}
		}
	}
	// y = 1.5·op(Gb)·x + 0.5·y, then y = 2·Sb·x − y, then x = op(A)⁻¹·x.
	if err := Gbmv[float64](q, true, n, n, kl, ku, 1.5, Mat{bg, 0, kl + ku + 1}, Vec{bx, 0, 1}, 0.5, Vec{by, 0, 1}); err != nil {
		t.Fatal(err)
	}
	g.Dgbmv(blas.Trans, n, n, kl, ku, 1.5, gb, kl+ku+1, x, 1, 0.5, y, 1)
	check("Gbmv", by, y)
	if err := Sbmv[float64](q, false, n, k, 2, Mat{bs, 0, k + 1}, Vec{bx, 0, 1}, -1, Vec{by, 0, 1}); err != nil {
		t.Fatal(err)
	}
	g.Dsbmv(blas.Lower, n, k, 2, sb, k+1, x, 1, -1, y, 1)
	check("Sbmv", by, y)
	if err := Trsv[float64](q, true, false, false, n, Mat{ba, 0, n}, Vec{bx, 0, 1}); err != nil {
		t.Fatal(err)
	}
	g.Dtrsv(blas.Upper, blas.NoTrans, blas.NonUnit, n, a, n, x, 1)
	check("Trsv", bx, x)
}
