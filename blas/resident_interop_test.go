package clblas

import (
	"errors"
	"testing"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
)

const doubleSrc = `__kernel void twice(const int n, __global double* a, const long off) {
	const int i = get_global_id(0);
	if (i < n) a[off + i] *= 2;
}`

// TestCustomKernelThenGemm runs a kernel of our own on a resident
// matrix's buffer, then a Gemm on it, ordered by the queue alone, and
// converts events both ways.
func TestCustomKernelThenGemm(t *testing.T) {
	impl := newTestImpl(t)
	rt := impl.Runtime()
	k, err := rt.Kernel([]string{doubleSrc}, "", "twice")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Release()
	a, err := NewMatrixFrom(impl, 2, 2, []float64{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	id, err := NewMatrixFrom(impl, 2, 2, []float64{1, 0, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	defer id.Release()
	c, err := NewMatrix[float64](impl, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	buf, off, err := a.Buffer()
	if err != nil {
		t.Fatal(err)
	}
	run, err := rt.Queue().Launch(k, []int{4}, []int{4}, int32(4), buf, int64(off))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := Gemm(blas.NoTrans, blas.NoTrans, 1, a, id, 0, c, EventFromCL(run))
	if err != nil {
		t.Fatal(err)
	}
	u, err := ev.CL(rt.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer u.Release()
	if err := u.Wait(); err != nil {
		t.Fatalf("the converted event: %v", err)
	}
	got := make([]float64, 4)
	if err := c.Read(got); err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{2, 4, 6, 8} {
		if got[i] != want {
			t.Fatalf("C = %v, want [2 4 6 8]", got)
		}
	}
}

// TestEventFromCLFailure: a resident operation that depends on a failed
// OpenCL event fails, and so does the event CL makes of a failed one.
func TestEventFromCLFailure(t *testing.T) {
	impl := newTestImpl(t)
	ctx := impl.Runtime().Context()
	f, err := ctx.CreateUserEvent()
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SetFailed(cl.OutOfResources); err != nil {
		t.Fatal(err)
	}
	dep := EventFromCL(f)
	a, err := NewMatrix[float64](impl, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	if _, err := Gemm(blas.NoTrans, blas.NoTrans, 1, a, a, 0, a, dep); err == nil {
		t.Fatal("Gemm after a failed dependency succeeded")
	}
	u, err := dep.CL(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer u.Release()
	var ce *cl.CommandError
	if err := u.Wait(); !errors.As(err, &ce) {
		t.Fatalf("CL of a failed event: %v, want a *cl.CommandError", err)
	}
}
