package platform

import (
	"strings"
	"testing"

	"github.com/gocompute/opencl/cl"
)

func TestIsMultiSpec(t *testing.T) {
	for spec, want := range map[string]bool{
		"": false, "gpu": false, "0:1": false, "H200": false,
		"all": true, " ALL ": true, "gpu:*": true, "0:*": true, "nvidia,pocl": true, "0:0,0:1": true,
	} {
		if got := IsMultiSpec(spec); got != want {
			t.Errorf("IsMultiSpec(%q) = %v, want %v", spec, got, want)
		}
	}
}

func TestSelectAll(t *testing.T) {
	pocl0 := fake(0, cl.DeviceTypeCPU, VendorPoCL, 16, 3000)
	pocl0.deviceIndex = 0
	pocl1 := fake(0, cl.DeviceTypeCPU, VendorPoCL, 16, 3000)
	pocl1.deviceIndex = 1
	gpuA := fake(1, cl.DeviceTypeGPU, VendorNVIDIA, 132, 1980)
	gpuB := fake(1, cl.DeviceTypeGPU, VendorNVIDIA, 132, 1980)
	gpuB.deviceIndex = 1
	all := []*Device{pocl0, pocl1, gpuA, gpuB}

	for _, tc := range []struct {
		spec string
		want []*Device
	}{
		{"all", []*Device{gpuA, pocl0, pocl1, gpuB}},
		{"gpu:*", []*Device{gpuA, gpuB}},
		{"cpu:*", []*Device{pocl0, pocl1}},
		{"pocl:*", []*Device{pocl0, pocl1}},
		{"0:*", []*Device{pocl0, pocl1}},
		{"1:*", []*Device{gpuA, gpuB}},
		{"nvidia,pocl", []*Device{gpuA, pocl0}},
		{"pocl, nvidia", []*Device{gpuA, pocl0}},
		{"0:1,0:0", []*Device{pocl1, pocl0}},
		{"gpu:*,1:0,cpu", []*Device{gpuA, gpuB, pocl0}},
		{"gpu,gpu", []*Device{gpuA}},
	} {
		got, err := selectAll(all, tc.spec)
		if err != nil {
			t.Errorf("selectAll(%q): %v", tc.spec, err)
			continue
		}
		if len(got) != len(tc.want) {
			t.Errorf("selectAll(%q) = %v, want %v", tc.spec, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("selectAll(%q) = %v, want %v", tc.spec, got, tc.want)
				break
			}
		}
	}
	for _, bad := range []string{"accelerator:*", "gpu,", ",gpu", "nvidia,nosuch", "7:*", ":*"} {
		if got, err := selectAll(all, bad); err == nil {
			t.Errorf("selectAll(%q) = %v, want an error", bad, got)
		} else if !strings.Contains(err.Error(), "devices are:") {
			t.Errorf("selectAll(%q): error %q does not list the devices", bad, err)
		}
	}
	// One chip under two drivers (same PCI address): "all" lists it once,
	// under the vendor's driver.
	poclCUDA := fake(2, cl.DeviceTypeGPU, VendorPoCL, 132, 1980)
	old := pciOf
	defer func() { pciOf = old }()
	pciOf = func(d *Device) (PCIAddress, bool) {
		switch d {
		case gpuA, poclCUDA:
			return PCIAddress{Bus: 0x3b}, true
		case gpuB:
			return PCIAddress{Bus: 0x5e}, true
		}
		return PCIAddress{}, false
	}
	got, err := selectAll([]*Device{poclCUDA, pocl0, gpuA, gpuB}, "all")
	if err != nil || len(got) != 3 || got[0] != gpuA || got[1] != pocl0 || got[2] != gpuB {
		t.Errorf("all over a chip listed twice = %v, %v; want [%v %v %v]", got, err, gpuA, pocl0, gpuB)
	}

	if Best(nil) != nil {
		t.Error("Best(nil) is not nil")
	}
}
