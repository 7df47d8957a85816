package clblas

import (
	"context"
	"maps"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
)

// TestMultiResident: matrices and vectors live on one device each; an
// operation across devices is an error; CopyMatrix and CopyVector move
// data between devices asynchronously; operations wait for events of the
// other device; nothing leaks after Close.
func TestMultiResident(t *testing.T) {
	devs := twoDevices(t)
	base := settledObjects()
	impl, err := New(WithDevices(devs...))
	if err != nil {
		t.Fatal(err)
	}
	if impl.OnDevice(0) != impl {
		t.Error("OnDevice(0) is not the Implementation itself")
	}
	d1 := impl.OnDevice(1)
	if d1.DeviceName() != impl.DeviceStats()[1].Device || d1.DeviceName() == impl.DeviceName() {
		t.Errorf("OnDevice(1) runs on %s; devices %+v", d1.DeviceName(), impl.DeviceStats())
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("OnDevice(2) of two devices did not panic")
			}
		}()
		impl.OnDevice(2)
	}()

	rnd := rand.New(rand.NewPCG(21, 5))
	const m, n, k = 64, 32, 48
	a, b := randF64(rnd, m*k), randF64(rnd, k*n)
	a0, err := NewMatrixFrom(impl, m, k, a)
	if err != nil {
		t.Fatal(err)
	}
	b1, err := NewMatrixFrom(d1, k, n, b)
	if err != nil {
		t.Fatal(err)
	}
	c0, _ := NewMatrix[float64](impl, m, n)
	b0, _ := NewMatrix[float64](impl, k, n)
	c1, _ := NewMatrix[float64](d1, m, n)
	defer func() {
		for _, x := range []*Matrix[float64]{a0, b1, c0, b0, c1} {
			x.Release()
		}
	}()
	if _, err := Gemm(blas.NoTrans, blas.NoTrans, 1, a0, b1, 0, c0); err == nil {
		t.Error("Gemm with A on device 0 and B on device 1 succeeded")
	}

	copied, err := CopyMatrix(b0, b1)
	if err != nil {
		t.Fatal(err)
	}
	prod, err := Gemm(blas.NoTrans, blas.NoTrans, 1, a0, b0, 0, c0, copied)
	if err != nil {
		t.Fatal(err)
	}
	back, err := CopyMatrix(c1, c0, prod) // device 1 waits for device 0's Gemm
	if err != nil {
		t.Fatal(err)
	}
	want := make([]float64, m*n)
	native.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 0, want, n)
	if err := back.Wait(); err != nil {
		t.Fatal(err)
	}
	got := make([]float64, m*n)
	if err := c1.Read(got); err != nil {
		t.Fatal(err)
	}
	checkClose(t, "Gemm copied to device 1", got, want, 1e-12*k)

	// A vector on each device; Scal on device 1 waits for device 0's work.
	x0, _ := NewVectorFrom(impl, a[:100])
	x1, _ := NewVector[float64](d1, 100)
	defer x0.Release()
	defer x1.Release()
	scaled, err := Scal(3, x0)
	if err != nil {
		t.Fatal(err)
	}
	cv, err := CopyVector(x1, x0, scaled)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Scal(-1, x1, cv)
	if err != nil {
		t.Fatal(err)
	}
	if err := again.Wait(); err != nil {
		t.Fatal(err)
	}
	gv := make([]float64, 100)
	if err := x1.Read(gv); err != nil {
		t.Fatal(err)
	}
	wv := make([]float64, 100)
	for i := range wv {
		wv[i] = -3 * a[i]
	}
	checkClose(t, "vector scaled on device 0, copied, scaled on device 1", gv, wv, 1e-15)
	if _, err := Axpy(1, x0, x1); err == nil {
		t.Error("Axpy with x on device 0 and y on device 1 succeeded")
	}

	// Wait for every event (an event nobody waits for is released by its
	// cleanup only), release everything, then Close: nothing of either
	// device is left. The goroutines that complete the cross-device user
	// events release them just after, hence the short poll.
	if err := WaitAll(context.Background(), copied, prod, back, scaled, cv, again); err != nil {
		t.Fatal(err)
	}
	for _, x := range []*Matrix[float64]{a0, b1, c0, b0, c1} {
		x.Release()
	}
	x0.Release()
	x1.Release()
	if err := d1.Close(); err != nil {
		t.Fatal(err)
	}
	if err := impl.Close(); err != nil {
		t.Fatal(err)
	}
	for kind, n := range settledObjects() {
		if n != base[kind] {
			t.Errorf("%d %s objects live after Close, %d before New", n, kind, base[kind])
		}
	}
}

// settledObjects returns cl.LiveObjects() once the collector's cleanups
// have released what earlier code dropped without releasing (events of
// calls never waited for): the count stops changing over a collection.
func settledObjects() map[string]int64 {
	live := cl.LiveObjects()
	for range 100 {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		now := cl.LiveObjects()
		if maps.Equal(now, live) {
			break
		}
		live = now
	}
	return live
}
