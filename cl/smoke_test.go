package cl

import (
	"errors"
	"testing"
)

func firstDevice(t *testing.T) *Device {
	t.Helper()
	ps, err := Platforms()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		ds, err := p.Devices(DeviceTypeAll)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) > 0 {
			return ds[0]
		}
	}
	t.Fatal("no OpenCL device")
	return nil
}

func TestSmokeVecAdd(t *testing.T) {
	d := firstDevice(t)
	ctx, err := CreateContext(d)
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Release()
	q, err := ctx.CreateQueue(d, QueueProfiling)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Release()
	p, err := ctx.CreateProgramWithSource(`__kernel void add(__global const float* a, __global float* b, float s) { int i = get_global_id(0); b[i] += s * a[i]; }`)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	if err := p.Build(nil, ""); err != nil {
		t.Fatal(err)
	}
	k, err := p.CreateKernel("add")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Release()
	const n = 1 << 20
	a := make([]float32, n)
	b := make([]float32, n)
	for i := range a {
		a[i] = float32(i)
		b[i] = 1
	}
	ba, _ := ctx.CreateBuffer(MemReadOnly, 4*n)
	bb, _ := ctx.CreateBuffer(MemReadWrite, 4*n)
	defer ba.Release()
	defer bb.Release()
	e1, err := WriteBuffer(q, ba, false, 0, a)
	if err != nil {
		t.Fatal(err)
	}
	e2, err := WriteBuffer(q, bb, false, 0, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.SetArgs(ba, bb, float32(2)); err != nil {
		t.Fatal(err)
	}
	e3, err := q.EnqueueKernel(k, []int{n}, nil, e1, e2)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float32, n)
	e4, err := ReadBuffer(q, bb, false, 0, out, e3)
	if err != nil {
		t.Fatal(err)
	}
	if err := e4.Wait(); err != nil {
		t.Fatal(err)
	}
	for i := range out {
		if out[i] != 1+2*float32(i) {
			t.Fatalf("out[%d]=%v", i, out[i])
		}
	}
	pt, err := e3.Profile()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("kernel %v", pt.Duration())
	ReleaseAll(e1, e2, e3, e4)
	if err := k.SetArgs(ba, bb); err != nil {
		t.Fatal(err)
	}
	k2, _ := p.CreateKernel("add")
	defer k2.Release()
	_, err = q.EnqueueKernel(k2, []int{n}, nil)
	if !errors.Is(err, InvalidKernelArgs) {
		t.Fatalf("got %v", err)
	}
	t.Log(err)
	err = SetArg(k2, 2, float64(1))
	if !errors.Is(err, InvalidArgSize) {
		t.Fatalf("got %v", err)
	}
	t.Log(err)
	bad, _ := ctx.CreateProgramWithSource("__kernel void f( { }")
	defer bad.Release()
	err = bad.Build(nil, "-DX=1")
	t.Log(err)
	t.Log(LiveObjects())
}
