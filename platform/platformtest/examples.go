package platformtest

import (
	"flag"
	"fmt"
	"os"

	"github.com/gocompute/opencl/platform"
)

// SkipExamplesWithoutDevice makes go test skip the package's Example
// functions, which cannot skip themselves, when the machine has no OpenCL
// device and GOCL_REQUIRE_DEVICE does not ask for one (then they run, and
// fail). Call it from TestMain after flag.Parse and before m.Run.
func SkipExamplesWithoutDevice() {
	if Required() {
		return
	}
	if _, err := platform.Default(); err == nil {
		return
	}
	f := flag.Lookup("test.skip")
	if f == nil {
		return
	}
	skip := "^Example"
	if old := f.Value.String(); old != "" {
		skip = old + "|" + skip
	}
	f.Value.Set(skip)
	fmt.Fprintln(os.Stderr, "no OpenCL device: skipping the examples")
}
