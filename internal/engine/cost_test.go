package engine

import (
	"testing"
	"time"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

// TestEstimateCost: the estimates for a two-core CPU device at 2 GHz (the
// PoCL CI machine) and for an H200-like GPU, worked out by hand from the
// rules in EstimateCost's comment.
func TestEstimateCost(t *testing.T) {
	cpu := platform.Profile{Type: cl.DeviceTypeCPU, ComputeUnits: 2, ClockMHz: 2000, FP64: true}
	want := Cost{CPUDevice: true, FP64: true, GFLOPS32: 64, GFLOPS64: 32, MemGBps: 20, LinkGBps: 30,
		PageableGBps: 10, Launch: 100 * time.Microsecond, KHalf: 64}
	if got := EstimateCost(cpu); got != want {
		t.Errorf("CPU device: %+v, want %+v", got, want)
	}
	gpu := platform.Profile{Type: cl.DeviceTypeGPU, Vendor: platform.VendorNVIDIA, ComputeUnits: 132,
		ClockMHz: 1980, FP64: true, ComputeCapability: [2]int{9, 0}}
	g := EstimateCost(gpu)
	if g.CPUDevice || !g.FP64 || g.KHalf != 256 || g.Launch != 50*time.Microsecond || g.LinkGBps != 20 || g.PageableGBps != 6 {
		t.Errorf("GPU: %+v", g)
	}
	if f := 0.6 * 132 * 1.98 * 128 * 2; g.GFLOPS32 != f || g.GFLOPS64 != f/2 {
		t.Errorf("H200-like GPU: %v/%v GFLOP/s, want %v/%v (half-rate FP64)", g.GFLOPS32, g.GFLOPS64, f, f/2)
	}
	gpu.ComputeCapability = [2]int{8, 9} // a consumer part: FP64 at 1/16
	gpu.HostUnifiedMemory = true
	if g := EstimateCost(gpu); g.GFLOPS64 != g.GFLOPS32/16 || g.LinkGBps != 40 {
		t.Errorf("consumer GPU with unified memory: %+v", g)
	}
	if g := EstimateCost(platform.Profile{Type: cl.DeviceTypeGPU}); g.GFLOPS32 != 0.6*1*0.5*64*2 {
		t.Errorf("unknown GPU: %v GFLOP/s, want the floor of one unit at 500 MHz", g.GFLOPS32)
	}
}

func TestSizeClasses(t *testing.T) {
	for _, c := range []struct{ n, buf, pinned int }{
		{1, 4096, 64 << 10}, {4096, 4096, 64 << 10}, {4097, 8192, 64 << 10},
		{64 << 10, 64 << 10, 64 << 10}, {64<<10 + 1, 128 << 10, 128 << 10}, {3 << 20, 4 << 20, 4 << 20},
	} {
		if got := SizeClass(c.n); got != c.buf {
			t.Errorf("SizeClass(%d) = %d, want %d", c.n, got, c.buf)
		}
		if got := PinnedClass(c.n); got != c.pinned {
			t.Errorf("PinnedClass(%d) = %d, want %d", c.n, got, c.pinned)
		}
	}
}
