package platform_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
	"github.com/gocompute/opencl/platform/platformtest"
)

func TestElementwiseSaxpy(t *testing.T) {
	r := platformtest.Runtime(t, platform.WithoutDiskCache())
	const params, body = "float a, __global const float* x, __global float* y", "y[i] = a * x[i] + y[i]"
	saxpy, err := r.Elementwise(params, body)
	if err != nil {
		t.Fatal(err)
	}
	defer saxpy.Release()
	const n = 1000
	xs, ys := make([]float32, n), make([]float32, n+1)
	for i := range xs {
		xs[i], ys[i] = float32(i), 1
	}
	ys[n] = -7
	x, err := cl.NewArrayFrom(r.Context(), cl.MemReadOnly, xs)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Release()
	y, err := cl.NewArrayFrom(r.Context(), cl.MemReadWrite, ys)
	if err != nil {
		t.Fatal(err)
	}
	defer y.Release()
	ev, err := saxpy.Run(n, float32(2), x, y)
	if err != nil {
		t.Fatal(err)
	}
	ev.Release()
	if err := y.Read(r.Queue(), 0, ys); err != nil {
		t.Fatal(err)
	}
	for i, v := range ys {
		want := 1 + 2*float32(i)
		if i == n {
			want = -7 // past n: untouched
		}
		if v != want {
			t.Fatalf("y[%d] = %v, want %v", i, v, want)
		}
	}

	// The same text again is the cached program.
	again, err := r.Elementwise(params, body)
	if err != nil {
		t.Fatal(err)
	}
	again.Release()
	if st := r.Stats(); st.Compiled != 1 || st.Memory != 1 {
		t.Errorf("stats %+v, want one compile and one memory hit", st)
	}

	d, err := cl.NewArray[float64](r.Context(), cl.MemReadWrite, n)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Release()
	for _, tc := range []struct {
		args []any
		want string
	}{
		{[]any{float32(2), x}, "2 arguments for 3 parameters"},
		{[]any{2.0, x, y}, "argument 0 (float a): a float parameter takes a Go float32, not float64"},
		{[]any{float32(2), x, d}, "argument 2 (__global float* y): a float pointer takes a *cl.Array[float32], not a *cl.Array[float64]"},
		{[]any{float32(2), x, []float32{1}}, "argument 2 (__global float* y): a pointer parameter takes a *cl.Array or *cl.Buffer, not []float32"},
	} {
		if _, err := saxpy.Run(n, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Run(%v): err = %v, want it to say %q", tc.args, err, tc.want)
		}
	}
	if _, err := saxpy.Run(0, float32(2), x, y); err == nil {
		t.Error("Run(0) succeeded")
	}
}

func TestElementwiseBuildError(t *testing.T) {
	r := platformtest.Runtime(t, platform.WithoutDiskCache())
	_, err := r.Elementwise("__global float* y", "y[i] = undeclared_thing")
	var be *cl.BuildError
	if !errors.As(err, &be) {
		t.Fatalf("err = %v, want a *cl.BuildError", err)
	}
	if _, err := r.Elementwise("y", "y[i] = 0"); err == nil {
		t.Error("a parameter without a type was accepted")
	}
}
