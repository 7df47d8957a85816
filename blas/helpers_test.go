package clblas

import (
	"flag"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gocompute/opencl/cl"
	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/platform"
	"github.com/gocompute/opencl/platform/platformtest"
)

var shared struct {
	once sync.Once
	impl *Implementation
	err  error
}

// newTestImpl returns the Implementation the conformance tests run against:
// the default OpenCL device (PoCL in CI) with every call that the device can
// run sent to it. It is shared by the package's tests, so each kernel is
// compiled once per test binary, and closed by TestMain. Without a device
// the test is skipped, or fails under GOCL_REQUIRE_DEVICE=1.
func newTestImpl(t testing.TB) *Implementation {
	t.Helper()
	platformtest.Device(t)
	shared.once.Do(func() {
		shared.impl, shared.err = New(WithOffload(Always))
	})
	if shared.err != nil {
		platformtest.Unavailable(t, fmt.Sprintf("New: %v", shared.err))
	}
	return shared.impl
}

// testEngine returns the engine behind the shared implementation.
func testEngine(t testing.TB) *eng.Engine {
	t.Helper()
	impl := newTestImpl(t)
	d, ok := impl.dev32.(eng.ClDevice32)
	if !ok {
		t.Fatalf("the float32 device is %T, not the OpenCL engine", impl.dev32)
	}
	return d.E
}

func TestMain(m *testing.M) {
	flag.Parse()
	platformtest.SkipExamplesWithoutDevice()
	code := m.Run()
	if err := checkEveryRoutineRan(); err != nil && code == 0 {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		code = 1
	}
	if err := checkDeviceComplete(); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		code = 1
	}
	if shared.impl != nil {
		if err := shared.impl.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "closing the shared implementation:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// gpuLikeModel is a cost model of a discrete GPU with float64 support.
func gpuLikeModel() costModel {
	return costModel{
		present: true,
		Cost: eng.Cost{
			FP64:     true,
			GFLOPS32: 20000,
			GFLOPS64: 10000,
			MemGBps:  3000,
			LinkGBps: 25,
			Launch:   20e3, // 20µs
		},
		cpuGFLOPS32: 50,
		cpuGFLOPS64: 25,
		cpuMemGBps:  20,
	}
}

// newRefImpl returns an Implementation whose device is gonum's Go code
// (refDevice), with every call sent to it, and the counter of device calls.
func newRefImpl(t testing.TB) (*Implementation, *atomic.Int64) {
	t.Helper()
	calls := new(atomic.Int64)
	impl, err := New(WithOffload(Always), withDevices(refDevice64{calls}, refDevice32{calls}, gpuLikeModel()))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { impl.Close() })
	return impl, calls
}

// profH200 is the H200's profile, for tests of choices made from it.
var profH200 = platform.Profile{Name: "NVIDIA H200", Vendor: platform.VendorNVIDIA, VendorName: "NVIDIA Corporation",
	Platform: "NVIDIA CUDA", Type: cl.DeviceTypeGPU, ComputeUnits: 132, MaxWorkGroupSize: 1024,
	LocalMemBytes: 48 << 10, LocalMemDedicated: true, FP64: true, ComputeCapability: [2]int{9, 0}}
