package clblas

import (
	"context"
	"errors"
	"testing"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/platform"
	"github.com/gocompute/opencl/platform/platformtest"
)

// TestWarmup: progress counts every step up to the total, and afterwards
// the calls Warmup stands for build or load nothing more.
func TestWarmup(t *testing.T) {
	dev := platformtest.Device(t)
	rt, err := platform.NewRuntime(dev) // the default disk cache: a warm one makes this quick
	if err != nil {
		platformtest.Unavailable(t, err.Error())
	}
	defer rt.Close()
	impl, err := New(WithRuntime(rt), WithOffload(Always))
	if err != nil {
		t.Fatal(err)
	}
	defer impl.Close()

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if err := impl.Warmup(cancelled, func(int, int) { t.Error("progress after cancel") }); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Warmup: %v", err)
	}

	var seen []int
	total := 0
	if err := impl.Warmup(context.Background(), func(done, n int) { seen, total = append(seen, done), n }); err != nil {
		t.Fatal(err)
	}
	want := 5 // level 1 and 2, then GEMM in four transpositions
	if dev.Profile().FP64 {
		want *= 2
	}
	if total != want {
		t.Errorf("total %d steps, want %d", total, want)
	}
	for i, d := range seen {
		if d != i+1 {
			t.Fatalf("progress %v, want 1…%d in order", seen, total)
		}
	}
	if len(seen) != total {
		t.Fatalf("progress called %d times for %d steps", len(seen), total)
	}

	before := rt.Stats()
	const n = warmupOrder
	for _, tr := range []blas.Transpose{blas.NoTrans, blas.Trans} {
		a, b, c := make([]float32, n*n), make([]float32, n*n), make([]float32, n*n)
		impl.Sgemm(tr, blas.NoTrans, n, n, n, 1, a, n, b, n, 0, c, n)
	}
	x, y := make([]float32, n), make([]float32, n)
	impl.Saxpy(n, 1, x, 1, y, 1)
	after := rt.Stats()
	if after.Compiled != before.Compiled || after.Disk != before.Disk {
		t.Errorf("after Warmup, Sgemm and Saxpy still built programs: stats %+v then %+v", before, after)
	}
}

// TestWarmupWithoutDevice: with no OpenCL device there is nothing to
// build; Warmup says nothing and reports no progress.
func TestWarmupWithoutDevice(t *testing.T) {
	impl, err := newNoneImpl()
	if err != nil {
		t.Fatal(err)
	}
	defer impl.Close()
	if err := impl.Warmup(context.Background(), func(int, int) { t.Error("progress without a device") }); err != nil {
		t.Fatalf("Warmup without a device: %v", err)
	}
}
