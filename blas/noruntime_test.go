package clblas_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	clblas "github.com/gocompute/opencl/blas"
	"github.com/gocompute/opencl/cl"
)

// Without an OpenCL library New returns an error that says no OpenCL
// runtime was found and how to install one. The test runs itself again
// with GOCL_OPENCL_LIBRARY naming a missing file (the setting replaces
// the library search).
func TestNewNoRuntime(t *testing.T) {
	if os.Getenv("GOCL_TEST_NO_RUNTIME_CHILD") != "" {
		impl, err := clblas.New()
		if err == nil {
			impl.Close()
			t.Fatal("New succeeded without an OpenCL library")
		}
		if !errors.Is(err, cl.ErrNoRuntime) {
			t.Errorf("New: %v, want an error wrapping cl.ErrNoRuntime", err)
		}
		for _, want := range []string{"no OpenCL runtime found", "/nonexistent/libOpenCL.so.1", "apt-get install ocl-icd-libopencl1"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("New: %q does not say %q", err, want)
			}
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNewNoRuntime$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), cl.EnvLibrary+"=/nonexistent/libOpenCL.so.1", "GOCL_TEST_NO_RUNTIME_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestNewNoRuntime") {
		t.Fatalf("child process: %v\n%s", err, out)
	}
}
