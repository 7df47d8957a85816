package platformtest_test

import (
	"testing"

	"github.com/gocompute/opencl/platform/platformtest"
)

// TestMyKernel is the README's example of a test on a device; it checks
// that the runtime it is given works.
func TestMyKernel(t *testing.T) {
	rt := platformtest.Runtime(t) // a runtime on the default device, closed when the test ends
	// ... or d := platformtest.Device(t)
	k, err := rt.Kernel([]string{"__kernel void nothing(__global float* x) { }"}, "", "nothing")
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Release(); err != nil {
		t.Fatal(err)
	}
}
