package engine

import (
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

// TestSvFlow: the flow schedule is the default on NVIDIA's GPUs only (not
// on other GPUs, nor on CPU devices, PoCL's included), and L2SolveFlow
// forces it either way; its launch takes a group per sub-block, at most
// L2SolveGroups or twice the compute units.
func TestSvFlow(t *testing.T) {
	nvidia := platform.Profile{Type: cl.DeviceTypeGPU, Vendor: platform.VendorNVIDIA, ComputeUnits: 132}
	amd := platform.Profile{Type: cl.DeviceTypeGPU, Vendor: platform.VendorAMD, ComputeUnits: 104}
	pocl := platform.Profile{Type: cl.DeviceTypeCPU, Vendor: platform.VendorPoCL, ComputeUnits: 16}
	for _, c := range []struct {
		prof platform.Profile
		set  SolveFlow
		want bool
	}{
		{nvidia, SolveFlowAuto, true},
		{amd, SolveFlowAuto, false},
		{pocl, SolveFlowAuto, false},
		{nvidia, SolveFlowOff, false},
		{pocl, SolveFlowOn, true},
		{amd, SolveFlowOn, true},
	} {
		e := &Engine{Prof: c.prof, L2SolveFlow: c.set}
		if got := svFlow(e); got != c.want {
			t.Errorf("svFlow(%s %s, setting %d) = %v, want %v", c.prof.Vendor, c.prof.Type, c.set, got, c.want)
		}
	}
	e := &Engine{Prof: nvidia}
	for _, c := range []struct{ nsb, most, want int }{{128, 0, 128}, {1000, 0, 264}, {1000, 3, 3}, {2, 3, 2}} {
		e.L2SolveGroups = c.most
		if got := svFlowGroups(e, c.nsb); got != c.want {
			t.Errorf("svFlowGroups(%d sub-blocks, most %d) = %d, want %d", c.nsb, c.most, got, c.want)
		}
	}
}

// TestSvPTX: trsv_flow's flags are PTX's acquire and release on NVIDIA's
// GPUs of compute capability 7.0 and up only.
func TestSvPTX(t *testing.T) {
	for _, c := range []struct {
		prof platform.Profile
		want bool
	}{
		{platform.Profile{Type: cl.DeviceTypeGPU, Vendor: platform.VendorNVIDIA, ComputeCapability: [2]int{9, 0}}, true},
		{platform.Profile{Type: cl.DeviceTypeGPU, Vendor: platform.VendorNVIDIA, ComputeCapability: [2]int{7, 0}}, true},
		{platform.Profile{Type: cl.DeviceTypeGPU, Vendor: platform.VendorNVIDIA, ComputeCapability: [2]int{6, 1}}, false},
		{platform.Profile{Type: cl.DeviceTypeGPU, Vendor: platform.VendorNVIDIA}, false},
		{platform.Profile{Type: cl.DeviceTypeGPU, Vendor: platform.VendorAMD}, false},
		{platform.Profile{Type: cl.DeviceTypeCPU, Vendor: platform.VendorPoCL}, false},
	} {
		if got := svPTX(c.prof); got != c.want {
			t.Errorf("svPTX(%s %s, compute capability %v) = %v, want %v", c.prof.Vendor, c.prof.Type, c.prof.ComputeCapability, got, c.want)
		}
	}
}
