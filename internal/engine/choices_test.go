package engine

import (
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/internal/gemm"
	"github.com/gocompute/opencl/internal/gemm/profile"
	"github.com/gocompute/opencl/platform"
)

// TestGemmChoices: Get gives gemm.Choose's answer and keeps it; Set
// replaces it; no more than maxChoices shapes are kept.
func TestGemmChoices(t *testing.T) {
	d := profile.Device(platform.Profile{Type: cl.DeviceTypeCPU, ComputeUnits: 4, MaxWorkGroupSize: 4096, FP64: true})
	db := gemm.Builtin()
	var c GemmChoices
	s := GemmShape{Prec: 64, M: 100, N: 90, K: 80}
	want := gemm.Choose(db, d, 64, 100, 90, 80, gemm.TensorAuto)
	if got := c.Get(db, d, s); got != want {
		t.Errorf("Get = %s, gemm.Choose = %s", got.Name(), want.Name())
	}
	other := want
	other.Kernel = gemm.KernelTiled
	c.Set(s, other)
	if got := c.Get(db, d, s); got != other {
		t.Errorf("after Set: %s, want %s", got.Name(), other.Name())
	}
	for i := range maxChoices + 10 {
		c.Get(db, d, GemmShape{Prec: 32, M: i + 1, N: 8, K: 8})
	}
	if len(c.m) != maxChoices {
		t.Errorf("%d shapes kept, want %d", len(c.m), maxChoices)
	}
}
