package platform_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
	"github.com/gocompute/opencl/platform/platformtest"
)

const noRuntimeChild = "GOCL_TEST_NO_RUNTIME_CHILD"

// runNoRuntime runs test in a child process in which the OpenCL library
// cannot be loaded (GOCL_OPENCL_LIBRARY names a missing file and replaces
// the search), with GOCL_REQUIRE_DEVICE set to require.
func runNoRuntime(t *testing.T, test, require string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), cl.EnvLibrary+"=/nonexistent/libOpenCL.so.1", noRuntimeChild+"=1", platformtest.EnvRequire+"="+require)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Without an OpenCL library, Devices is empty (no error, as for a machine
// without drivers), Default says why, and platformtest skips, or fails
// under GOCL_REQUIRE_DEVICE=1.
func TestNoRuntime(t *testing.T) {
	if os.Getenv(noRuntimeChild) != "" {
		t.Skip("in the child")
	}
	out, err := runNoRuntime(t, "TestNoRuntimeChild", "0")
	if err != nil || !strings.Contains(out, "--- PASS: TestNoRuntimeChild") || !strings.Contains(out, "--- SKIP: TestNoRuntimeChild/platformtest") {
		t.Fatalf("child: %v\n%s", err, out)
	}
	out, err = runNoRuntime(t, "TestNoRuntimeRequired", "1")
	if err == nil || !strings.Contains(out, "OpenCL device required") || !strings.Contains(out, "no OpenCL runtime found") {
		t.Fatalf("with %s=1 the child should fail saying no runtime was found: %v\n%s", platformtest.EnvRequire, err, out)
	}
}

func TestNoRuntimeChild(t *testing.T) {
	if os.Getenv(noRuntimeChild) == "" {
		t.Skip("run by TestNoRuntime")
	}
	ds, err := platform.Devices()
	if err != nil || len(ds) != 0 {
		t.Errorf("Devices() = %v, %v; want an empty list and no error", ds, err)
	}
	_, err = platform.Default()
	if !errors.Is(err, platform.ErrNoDevice) || !errors.Is(err, cl.ErrNoRuntime) {
		t.Errorf("Default(): %v, want ErrNoDevice and cl.ErrNoRuntime", err)
	}
	for _, want := range []string{"/nonexistent/libOpenCL.so.1", "apt-get install ocl-icd-libopencl1"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Default(): %v, want it to mention %q", err, want)
		}
	}
	ran := false
	t.Run("platformtest", func(t *testing.T) {
		platformtest.Device(t)
		ran = true
	})
	if ran {
		t.Error("platformtest.Device returned without a device")
	}
}

func TestNoRuntimeRequired(t *testing.T) {
	if os.Getenv(noRuntimeChild) == "" {
		t.Skip("run by TestNoRuntime")
	}
	platformtest.Device(t)
}
