package cl

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestBinariesRoundTrip(t *testing.T) {
	e := newEnv(t, 0)
	p := e.program(t, scaleSrc+"\n__kernel void other(__global int* x) { x[0] = 1; }", "-DUNUSED=1")
	names, err := p.KernelNames()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"other", "scale"}) {
		t.Errorf("KernelNames = %v", names)
	}
	devs, err := p.Devices()
	if err != nil {
		t.Fatal(err)
	}
	if len(devs) != 1 || devs[0] != e.d {
		t.Fatalf("Program.Devices = %v, want the context's %v", devs, e.d)
	}
	bins, err := p.Binaries()
	if err != nil {
		t.Fatal(err)
	}
	if len(bins) != 1 || len(bins[0]) == 0 {
		t.Fatalf("Binaries: %d binaries", len(bins))
	}
	p2, err := e.ctx.CreateProgramWithBinary(devs, bins)
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Release()
	if err := p2.Build(nil, ""); err != nil {
		t.Fatal(err)
	}
	k, err := p2.CreateKernel("scale")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Release()
	b := e.buffer(t, MemReadWrite, 4*8)
	ev(t)(WriteBuffer(e.q, b, true, 0, []float32{1, 2, 3, 4, 5, 6, 7, 8}))
	if err := k.SetArgs(b, float32(10)); err != nil {
		t.Fatal(err)
	}
	ev(t)(e.q.EnqueueKernel(k, []int{8}, nil))
	got := make([]float32, 8)
	ev(t)(ReadBuffer(e.q, b, true, 0, got))
	if got[0] != 10 || got[7] != 80 {
		t.Errorf("kernel from a binary: %v", got)
	}
	wg, err := k.WorkGroupInfo(e.d)
	if err != nil || wg.WorkGroupSize <= 0 {
		t.Errorf("WorkGroupInfo = %+v, %v", wg, err)
	}
	if _, err := p2.CreateKernel("nope"); !errors.Is(err, InvalidKernelName) {
		t.Errorf("CreateKernel(nope) = %v", err)
	}
}

func TestGarbageBinary(t *testing.T) {
	e := newEnv(t, 0)
	garbage := []byte("\x7fELF this is not a program binary at all, just bytes")
	p, err := e.ctx.CreateProgramWithBinary([]*Device{e.d}, [][]byte{garbage})
	if err == nil {
		// Some drivers accept anything here and fail the build instead.
		defer p.Release()
		err = p.Build(nil, "")
	}
	if err == nil {
		t.Fatal("a garbage binary was accepted and built")
	}
	var ce *Error
	if !errors.As(err, &ce) || strings.HasPrefix(ce.Code.Error(), "CL_ERROR(") {
		t.Fatalf("garbage binary: %v (not a named OpenCL error)", err)
	}
	if !strings.Contains(err.Error(), ce.Code.Error()) {
		t.Errorf("error text %q does not name %s", err, ce.Code.Error())
	}
	t.Logf("garbage binary: %v (CL_INVALID_BINARY: %v)", err, errors.Is(err, InvalidBinary))
	if _, err := e.ctx.CreateProgramWithBinary([]*Device{e.d}, [][]byte{nil}); !errors.Is(err, InvalidBinary) {
		t.Errorf("empty binary: %v", err)
	}
	if _, err := e.ctx.CreateProgramWithBinary([]*Device{e.d}, nil); !errors.Is(err, InvalidValue) {
		t.Errorf("binary count mismatch: %v", err)
	}
}
