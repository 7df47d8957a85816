package platform_test

import (
	"os"
	"strings"
	"testing"

	"github.com/gocompute/opencl/platform"
	"github.com/gocompute/opencl/platform/platformtest"
)

// twoDevices returns two devices, preferring two of one platform. With
// fewer, the test is skipped; it fails instead when GOCL_REQUIRE_DEVICE=1
// and the environment asked PoCL for two devices (POCL_DEVICES="pthread
// pthread", as the test script does), since then a missing second device is
// a fault, not a property of the machine.
func twoDevices(t *testing.T) (a, b *platform.Device) {
	t.Helper()
	platformtest.Device(t)
	all, err := platform.Devices()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range all {
		if strings.HasSuffix(d.Index(), ":1") {
			p := strings.TrimSuffix(d.Index(), ":1")
			for _, c := range all {
				if c.Index() == p+":0" {
					return c, d
				}
			}
		}
	}
	if len(all) >= 2 {
		return all[0], all[1]
	}
	reason := "only one OpenCL device; run with POCL_DEVICES=\"pthread pthread\" to have PoCL list two"
	if len(strings.Fields(os.Getenv("POCL_DEVICES"))) >= 2 {
		platformtest.Unavailable(t, reason+" (POCL_DEVICES is set, but PoCL listed one device)")
	}
	t.Skip(reason)
	return nil, nil
}

func TestMultiDeviceSelectAndRun(t *testing.T) {
	d0, d1 := twoDevices(t)
	t.Logf("devices %s and %s", d0, d1)
	got, err := platform.Select(d1.Index())
	if err != nil {
		t.Fatalf("Select(%q): %v", d1.Index(), err)
	}
	if got.Index() != d1.Index() || got.CL() == d0.CL() {
		t.Fatalf("Select(%q) = %s, want the second device %s", d1.Index(), got, d1)
	}
	t.Setenv(platform.EnvDevice, d1.Index())
	if got, err := platform.Default(); err != nil || got.Index() != d1.Index() {
		t.Fatalf("GOCL_DEVICE=%s: Default() = %v, %v", d1.Index(), got, err)
	}

	// A runtime on each, sharing one cache directory: both compile or load
	// the same source, and both run it.
	dir := t.TempDir()
	src := []string{addSource(t.Name())}
	for _, d := range []*platform.Device{d0, got} {
		r, err := platform.NewRuntime(d, platform.WithCacheDir(dir))
		if err != nil {
			t.Fatalf("NewRuntime(%s): %v", d, err)
		}
		t.Cleanup(func() {
			if err := r.Close(); err != nil {
				t.Errorf("Close(%s): %v", d, err)
			}
		})
		if r.Device() != d {
			t.Fatalf("runtime device %s, want %s", r.Device(), d)
		}
		p, err := r.Program(src, "")
		if err != nil {
			t.Fatalf("Program on %s: %v", d, err)
		}
		runAdd(t, r, p)
		t.Logf("%s: %+v", d, r.Stats())
	}
}
