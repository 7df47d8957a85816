package engine

import (
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/internal/gemm"
	"github.com/gocompute/opencl/platform"
)

func TestZMethodFor(t *testing.T) {
	for _, c := range []struct {
		set     ZMethod
		m, n, k int
		want    ZMethod
	}{
		{ZAuto, 2048, 2048, 2048, Z3M},
		{ZAuto, 8192, 4096, 2048, Z3M},
		{ZAuto, 2047, 8192, 8192, Z4M},
		{ZAuto, 8192, 8192, 64, Z4M},
		{Z4M, 8192, 8192, 8192, Z4M},
		{Z3M, 1, 1, 1, Z3M},
	} {
		e := &Engine{ZMethod: c.set}
		if got := e.zMethod(64, c.m, c.n, c.k); got != c.want {
			t.Errorf("zMethod(set %d, %d×%d×%d) = %d, want %d", c.set, c.m, c.n, c.k, got, c.want)
		}
	}
	// On the H200's tensor-core tiles, between 768 and 2048, the waves
	// decide: at 768 4M's 144 work-groups and 3M's 216 take one wave
	// each, of depth 2k and k; at 896 and 1024 both take the same time
	// (one wave of 2k against two of k), so 4M; from 1280 3M's fewer.
	h200 := &Engine{Tuning: gemm.Builtin(), Prof: platform.Profile{Name: "NVIDIA H200", Vendor: platform.VendorNVIDIA,
		VendorName: "NVIDIA Corporation", Platform: "NVIDIA CUDA", Type: cl.DeviceTypeGPU, ComputeUnits: 132,
		MaxWorkGroupSize: 1024, LocalMemBytes: 48 << 10, FP64: true, ComputeCapability: [2]int{9, 0}}}
	for _, prec := range []int{64, 32} {
		for n, want := range map[int]ZMethod{512: Z4M, 640: Z4M, 767: Z4M, 768: Z3M, 896: Z4M, 1024: Z4M, 1280: Z3M, 1536: Z3M, 1792: Z3M, 2048: Z3M} {
			if got := h200.zMethod(prec, n, n, n); got != want {
				t.Errorf("H200, precision %d, n = %d: zMethod %d, want %d", prec, n, got, want)
			}
		}
		if got := h200.zMethod(prec, 1280, 1280, 256); got != Z4M {
			t.Errorf("H200, precision %d, 1280×1280×256: zMethod %d, want 4M (below the smallest dimension)", prec, got)
		}
	}
	for v, want := range map[string]ZMethod{"": ZAuto, "auto": ZAuto, "4M": Z4M, " 3m ": Z3M} {
		if got, err := ParseZMethod(v); err != nil || got != want {
			t.Errorf("ParseZMethod(%q) = %d, %v; want %d", v, got, err, want)
		}
	}
	if _, err := ParseZMethod("5m"); err == nil {
		t.Error("ParseZMethod(5m): no error")
	}
}
