package cllapack

import (
	"fmt"
	"os"
	"sync"
	"testing"

	clblas "github.com/gocompute/opencl/blas"
	"github.com/gocompute/opencl/platform/platformtest"
)

var shared struct {
	once sync.Once
	blas *clblas.Implementation
	err  error
}

// newTestImpl returns an Implementation on the default device (PoCL in CI)
// with every call sent to the device, panels nb wide (nb ≤ 0: the
// implementation's defaults for the device). The BLAS underneath
// is shared by the package's tests and closed by TestMain. Without a device
// the test is skipped, or fails under GOCL_REQUIRE_DEVICE=1.
func newTestImpl(t testing.TB, nb int) *Implementation {
	t.Helper()
	platformtest.Device(t)
	shared.once.Do(func() {
		shared.blas, shared.err = clblas.New(clblas.WithOffload(clblas.Always))
	})
	if shared.err != nil {
		platformtest.Unavailable(t, fmt.Sprintf("clblas.New: %v", shared.err))
	}
	opts := []Option{WithOffload(clblas.Always)}
	if nb > 0 {
		opts = append(opts, WithBlockSize(nb))
	}
	impl, err := New(shared.blas, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := impl.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return impl
}

// gpuPathsOnCPU has impl's programs built unoptimised on a CPU device, for
// tests that force kernels or launch shapes a CPU device does not take by
// itself (GPUs' paths), which check what the kernels compute: PoCL builds
// a program many times faster with -cl-opt-disable, and those builds were
// most of these tests' time. The paths a CPU device takes keep their
// optimised builds in the other tests.
func gpuPathsOnCPU(impl *Implementation) *Implementation {
	if impl.blas.Runtime().Device().Profile().IsCPU() {
		impl.buildOpts = "-cl-opt-disable"
	}
	return impl
}

func TestMain(m *testing.M) {
	platformtest.SkipExamplesWithoutDevice()
	code := m.Run()
	if shared.blas != nil {
		if err := shared.blas.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "closing the shared implementation:", err)
			code = 1
		}
	}
	os.Exit(code)
}
