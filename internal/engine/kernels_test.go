package engine

import (
	"testing"

	"github.com/gocompute/opencl/kernels"
	"github.com/gocompute/opencl/platform/platformtest"
)

func TestNewKernelSpec(t *testing.T) {
	s := NewKernelSpec(32, "level1.cl", "nrm2_part", "LS=64", "-cl-opt-disable")
	if want := "-DPRECISION=32 -DLS=64 -cl-opt-disable"; s.Opts != want {
		t.Errorf("options %q, want %q", s.Opts, want)
	}
	if s.Key() == NewKernelSpec(64, "level1.cl", "nrm2_part", "LS=64", "-cl-opt-disable").Key() ||
		s.Key() == NewKernelSpec(32, "level1.cl", "asum_part", "LS=64", "-cl-opt-disable").Key() {
		t.Error("specs of other precisions or kernels share a key")
	}
}

// TestKernelPool: a returned kernel object is handed out again under its
// key only; at most kernelsPerKey are kept; after Close, Put releases.
func TestKernelPool(t *testing.T) {
	rt := platformtest.Runtime(t)
	s := NewKernelSpec(32, "level1.cl", "nrm2_part", "LS=64")
	prog, err := rt.Program(kernels.MustProgram(s.File), s.Opts)
	if err != nil {
		t.Fatal(err)
	}
	var p KernelPool
	if p.Take(s.Key()) != nil {
		t.Fatal("an empty pool handed out a kernel")
	}
	for range kernelsPerKey + 2 {
		k, err := prog.CreateKernel(s.Name)
		if err != nil {
			t.Fatal(err)
		}
		p.Put(s.Key(), k)
	}
	if n := len(p.free[s.Key()]); n != kernelsPerKey {
		t.Errorf("%d kernels kept, want %d", n, kernelsPerKey)
	}
	if p.Take("other") != nil {
		t.Error("a kernel handed out under another key")
	}
	k := p.Take(s.Key())
	if k == nil {
		t.Fatal("no kernel handed out")
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	p.Put(s.Key(), k) // released
	if p.Take(s.Key()) != nil {
		t.Error("a closed pool keeps kernels")
	}
}
