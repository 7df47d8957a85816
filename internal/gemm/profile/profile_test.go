package profile

import (
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/internal/gemm"
	"github.com/gocompute/opencl/platform"
)

// TestDevice: every field the choice reads comes from the profile.
func TestDevice(t *testing.T) {
	p := platform.Profile{Name: "NVIDIA H200", Vendor: platform.VendorNVIDIA, VendorName: "NVIDIA Corporation",
		Platform: "NVIDIA CUDA", Type: cl.DeviceTypeGPU, ComputeCapability: [2]int{9, 0}, ComputeUnits: 132,
		MaxWorkGroupSize: 1024, LocalMemBytes: 48 << 10, FP64: true, PreferredVectorFloat: 1, PreferredVectorDouble: 2}
	want := gemm.Device{Name: "NVIDIA H200", Vendor: "nvidia", VendorName: "NVIDIA Corporation",
		Platform: "NVIDIA CUDA", GPU: true, ComputeCapability: [2]int{9, 0}, ComputeUnits: 132,
		MaxWorkGroupSize: 1024, LocalMemBytes: 48 << 10, FP64: true, PreferredVectorFloat: 1, PreferredVectorDouble: 2}
	if got := Device(p); got != want {
		t.Errorf("Device = %+v, want %+v", got, want)
	}
	p.Type = cl.DeviceTypeCPU
	if d := Device(p); !d.IsCPU() || d.IsGPU() {
		t.Errorf("a CPU profile: %+v", d)
	}
}
