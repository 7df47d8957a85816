package platform_test

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/gocompute/opencl/platform"
	"github.com/gocompute/opencl/platform/platformtest"
)

// pocl returns the first PoCL device, or skips (fails with
// GOCL_REQUIRE_DEVICE=1) when the machine has none. The selection tests
// are written against PoCL because it is what CI has.
func pocl(t *testing.T) *platform.Device {
	t.Helper()
	platformtest.Device(t)
	all, err := platform.Devices()
	if err != nil {
		t.Fatalf("Devices: %v", err)
	}
	for _, d := range all {
		if d.Profile().Vendor == platform.VendorPoCL {
			return d
		}
	}
	platformtest.Unavailable(t, "no PoCL device (install pocl-opencl-icd)")
	return nil
}

func TestDevicesListsProfiles(t *testing.T) {
	platformtest.Device(t)
	all, err := platform.Devices()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, d := range all {
		p := d.Profile()
		if seen[d.Index()] {
			t.Errorf("index %s listed twice", d.Index())
		}
		seen[d.Index()] = true
		if p.Name == "" || p.Platform == "" || p.ComputeUnits <= 0 || p.MaxWorkGroupSize <= 0 || p.GlobalMemBytes <= 0 || p.MaxAllocBytes <= 0 {
			t.Errorf("%s: incomplete profile %+v", d, p)
		}
		if p.OpenCL.Major == 0 {
			t.Errorf("%s: no OpenCL version", d)
		}
		if len(p.MaxWorkItemSizes) == 0 {
			t.Errorf("%s: no work-item sizes", d)
		}
		if d.CL() == nil {
			t.Errorf("%s: no cl.Device", d)
		}
		t.Logf("%s: %d CU @ %d MHz, OpenCL %s, fp64=%v", d, p.ComputeUnits, p.ClockMHz, p.OpenCL, p.FP64)
	}
}

func TestSelectPoCL(t *testing.T) {
	want := pocl(t)
	all, _ := platform.Devices()
	specs := []string{"pocl", "POCL", " pocl ", "Portable Computing"}
	// "cpu" and "0:0" name the PoCL device only where it is the best CPU
	// and listed first (as on CI, where PoCL is the only platform).
	if len(all) == 1 || (want.Index() == "0:0" && !hasOtherCPU(all)) {
		specs = append(specs, "cpu", "CPU")
	}
	if want.Index() == "0:0" {
		specs = append(specs, "0:0")
	}
	for _, spec := range specs {
		got, err := platform.Select(spec)
		if err != nil {
			t.Errorf("Select(%q): %v", spec, err)
			continue
		}
		if got.Profile().Vendor != platform.VendorPoCL {
			t.Errorf("Select(%q) = %s, want a PoCL device such as %s", spec, got, want)
		}
		if spec == "0:0" && got.Index() != "0:0" {
			t.Errorf("Select(0:0) = %s", got)
		}
	}
	// A substring of the device name.
	name := want.Profile().Name
	part := name[len(name)/2:]
	got, err := platform.Select(part)
	if err != nil {
		t.Fatalf("Select(%q) (part of the name): %v", part, err)
	}
	if !strings.Contains(got.Profile().Name, part) {
		t.Errorf("Select(%q) picked %s", part, got)
	}
}

func hasOtherCPU(all []*platform.Device) bool {
	for _, d := range all {
		if d.Profile().IsCPU() && d.Profile().Vendor != platform.VendorPoCL {
			return true
		}
	}
	return false
}

func TestSelectNoMatchListsDevices(t *testing.T) {
	platformtest.Device(t)
	all, _ := platform.Devices()
	for _, spec := range []string{"nosuch", "9:9"} {
		d, err := platform.Select(spec)
		if err == nil {
			t.Fatalf("Select(%q) = %s, want an error", spec, d)
		}
		msg := err.Error()
		if !strings.Contains(msg, spec) {
			t.Errorf("Select(%q) error does not repeat the spec: %v", spec, err)
		}
		for _, d := range all {
			if !strings.Contains(msg, d.String()) {
				t.Errorf("Select(%q) error does not list %s:\n%v", spec, d, err)
			}
		}
		t.Logf("Select(%q): %v", spec, err)
	}
}

func TestDefaultHonoursEnv(t *testing.T) {
	want := pocl(t)
	t.Setenv(platform.EnvDevice, "pocl")
	got, err := platform.Default()
	if err != nil {
		t.Fatal(err)
	}
	if got.Profile().Vendor != platform.VendorPoCL {
		t.Errorf("GOCL_DEVICE=pocl: Default() = %s, want %s", got, want)
	}

	t.Setenv(platform.EnvDevice, want.Index())
	if got, err = platform.Default(); err != nil || got.Index() != want.Index() {
		t.Errorf("GOCL_DEVICE=%s: Default() = %v, %v", want.Index(), got, err)
	}

	t.Setenv(platform.EnvDevice, "nosuch")
	if got, err = platform.Default(); err == nil {
		t.Errorf("GOCL_DEVICE=nosuch: Default() = %s, want an error", got)
	} else if !strings.Contains(err.Error(), platform.EnvDevice) {
		t.Errorf("error does not name %s: %v", platform.EnvDevice, err)
	}

	t.Setenv(platform.EnvDevice, "")
	ranked, err := platform.Select("")
	if err != nil {
		t.Fatal(err)
	}
	if got, err = platform.Default(); err != nil || got.Index() != ranked.Index() {
		t.Errorf("GOCL_DEVICE empty: Default() = %v, %v; want the ranked best %s", got, err, ranked)
	}
	if all, _ := platform.Devices(); len(all) == 1 && ranked.Index() != all[0].Index() {
		t.Errorf("one device, but Select(\"\") = %s", ranked)
	}
}

// TestDevicesConcurrent enumerates from many goroutines at once, in a fresh
// child process so that the calls are the process's first (where drivers
// and ICD loaders initialise), and checks that every caller sees the same
// devices.
func TestDevicesConcurrent(t *testing.T) {
	child := os.Getenv(envEnumChild) != ""
	if !child {
		platformtest.Device(t)
		cmd := exec.Command(os.Args[0], "-test.run=^TestDevicesConcurrent$", "-test.count=1")
		cmd.Env = append(os.Environ(), envEnumChild+"=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("child process enumerating concurrently: %v\n%s", err, out)
		}
	}
	const callers = 16
	var wg sync.WaitGroup
	lists := make([][]*platform.Device, callers)
	defs := make([]*platform.Device, callers)
	errs := make([]error, callers)
	for i := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				defs[i], errs[i] = platform.Default()
			}
			if errs[i] == nil {
				lists[i], errs[i] = platform.Devices()
			}
		}()
	}
	wg.Wait()
	for i := range callers {
		if errs[i] != nil {
			t.Fatalf("caller %d: %v", i, errs[i])
		}
		if len(lists[i]) != len(lists[0]) {
			t.Fatalf("caller %d saw %d devices, caller 0 %d", i, len(lists[i]), len(lists[0]))
		}
		for j := range lists[i] {
			if lists[i][j] != lists[0][j] {
				t.Errorf("caller %d: device %d is another *Device value", i, j)
			}
		}
		if defs[i] != nil && defs[i] != defs[0] {
			t.Errorf("caller %d: Default() = %s, caller 0 got %s", i, defs[i], defs[0])
		}
	}
	// The returned slice is the caller's own.
	lists[0][0] = nil
	if again, _ := platform.Devices(); again[0] == nil {
		t.Error("Devices returned the cached slice itself")
	}
}

const envEnumChild = "GOCL_TEST_ENUM_CHILD"
