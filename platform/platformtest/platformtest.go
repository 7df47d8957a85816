// Package platformtest hands tests an OpenCL device, the way net/http/httptest
// hands them a server.
//
// A test that calls [Device] or [Runtime] gets the device platform.Default
// chooses (GOCL_DEVICE is honoured; on a machine with only PoCL that is the
// PoCL CPU device). When the machine has no OpenCL device the test is
// skipped with the reason — unless GOCL_REQUIRE_DEVICE=1, which turns the
// skip into a failure, so a CI run cannot pass by silently skipping.
package platformtest

import (
	"os"
	"testing"

	"github.com/gocompute/opencl/internal/settings"
	"github.com/gocompute/opencl/platform"
)

// EnvRequire is the environment variable that turns a missing device from
// a skip into a failure.
const EnvRequire = settings.RequireDevice

// Required reports whether GOCL_REQUIRE_DEVICE asks for a device.
func Required() bool {
	on, err := settings.ParseBool(os.Getenv(EnvRequire))
	return on || err != nil // a value that is neither on nor off asks for a device
}

// Device returns the default OpenCL device, or skips (fails, with
// GOCL_REQUIRE_DEVICE=1) the test when there is none.
func Device(t testing.TB) *platform.Device {
	t.Helper()
	d, err := platform.Default()
	if err != nil {
		Unavailable(t, err.Error())
	}
	return d
}

// Runtime returns a runtime on the default device, closed when the test
// ends.
func Runtime(t testing.TB, opts ...platform.RuntimeOption) *platform.Runtime {
	t.Helper()
	d := Device(t)
	r, err := platform.NewRuntime(d, opts...)
	if err != nil {
		Unavailable(t, "cannot start a runtime on "+d.String()+": "+err.Error())
	}
	t.Cleanup(func() {
		if err := r.Close(); err != nil {
			t.Errorf("platformtest: closing runtime: %v", err)
		}
	})
	return r
}

// Unavailable skips the test with the reason, or fails it when
// GOCL_REQUIRE_DEVICE is set. Tests that need something more specific than
// the default device (two devices, fp64) call it when it is missing.
func Unavailable(t testing.TB, reason string) {
	t.Helper()
	if Required() {
		t.Fatalf("OpenCL device required (%s=1) but unavailable: %s", EnvRequire, reason)
	}
	t.Skipf("no usable OpenCL device: %s (set %s=1 to make this a failure)", reason, EnvRequire)
}
