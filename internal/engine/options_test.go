package engine

import (
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

func TestParseZeroCopy(t *testing.T) {
	for v, want := range map[string]ZeroCopy{"": ZeroCopyAuto, "auto": ZeroCopyAuto, " ON ": ZeroCopyOn, "off": ZeroCopyOff} {
		if got, err := ParseZeroCopy(v); err != nil || got != want {
			t.Errorf("ParseZeroCopy(%q) = %v, %v; want %v", v, got, err, want)
		}
	}
	if _, err := ParseZeroCopy("sometimes"); err == nil {
		t.Error(`ParseZeroCopy("sometimes"): no error`)
	}
}

// TestZeroCopyChoice: GOCL_ZERO_COPY and the device decide whether host
// slices go to the kernels in place.
func TestZeroCopyChoice(t *testing.T) {
	cpu := platform.Profile{Type: cl.DeviceTypeCPU, HostUnifiedMemory: true}
	igpu := platform.Profile{Type: cl.DeviceTypeGPU, HostUnifiedMemory: true}
	dgpu := platform.Profile{Type: cl.DeviceTypeGPU}
	for _, tc := range []struct {
		env             string
		cpu, igpu, dgpu bool
	}{
		{"", true, false, false},
		{"auto", true, false, false},
		{"on", true, true, false},
		{" OFF ", false, false, false},
	} {
		for _, d := range []struct {
			name string
			prof platform.Profile
			want bool
		}{{"cpu", cpu, tc.cpu}, {"integrated gpu", igpu, tc.igpu}, {"discrete gpu", dgpu, tc.dgpu}} {
			mode, err := ParseZeroCopy(tc.env)
			if err != nil {
				t.Fatal(err)
			}
			if got := mode.Shared(d.prof); got != d.want {
				t.Errorf("GOCL_ZERO_COPY=%q, %s: Shared %v, want %v", tc.env, d.name, got, d.want)
			}
		}
	}
}
