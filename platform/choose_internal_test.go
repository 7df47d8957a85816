package platform

import (
	"testing"

	"github.com/gocompute/opencl/cl"
)

// These tests need no device: they check the choosing logic on hand-made
// Device values.

func fake(idx int, typ cl.DeviceType, vendor Vendor, cu, mhz int) *Device {
	return &Device{platformIndex: idx, profile: Profile{
		Name: string(vendor) + "-" + typ.String(), Platform: string(vendor), Vendor: vendor,
		Type: typ, ComputeUnits: cu, ClockMHz: mhz,
	}}
}

func TestBestOrdering(t *testing.T) {
	cpu := fake(0, cl.DeviceTypeCPU, VendorPoCL, 64, 3000)
	bigCPU := fake(1, cl.DeviceTypeCPU, VendorIntel, 128, 3000)
	gpu := fake(2, cl.DeviceTypeGPU, VendorIntel, 24, 1300)
	bigGPU := fake(3, cl.DeviceTypeGPU, VendorNVIDIA, 132, 1980)
	fastGPU := fake(4, cl.DeviceTypeGPU, VendorAMD, 100, 2700) // 270000 > 261360
	acc := fake(5, cl.DeviceTypeAccelerator, VendorUnknown, 1000, 1000)
	poclGPU := fake(6, cl.DeviceTypeGPU, VendorPoCL, 132, 1980) // PoCL's CUDA driver on the same chip
	defaultGPU := fake(7, cl.DeviceTypeGPU|cl.DeviceTypeDefault, VendorAMD, 8, 1000)
	tie1 := fake(8, cl.DeviceTypeCPU, VendorIntel, 4, 1000)
	tie2 := fake(9, cl.DeviceTypeCPU, VendorAMD, 4, 1000)

	for _, tc := range []struct {
		name string
		in   []*Device
		want *Device
	}{
		{"single", []*Device{cpu}, cpu},
		{"GPU beats CPU", []*Device{cpu, gpu}, gpu},
		{"GPU beats bigger CPU", []*Device{bigCPU, gpu}, gpu},
		{"accelerator beats CPU", []*Device{bigCPU, acc}, acc},
		{"GPU beats accelerator", []*Device{acc, gpu}, gpu},
		{"larger CU×clock wins", []*Device{gpu, bigGPU}, bigGPU},
		{"larger CU×clock wins, order reversed", []*Device{bigGPU, gpu}, bigGPU},
		{"clock counts", []*Device{bigGPU, fastGPU}, fastGPU},
		{"bigger CPU among CPUs", []*Device{cpu, bigCPU}, bigCPU},
		{"vendor driver beats PoCL on the same chip", []*Device{poclGPU, bigGPU}, bigGPU},
		{"vendor driver beats PoCL, order reversed", []*Device{bigGPU, poclGPU}, bigGPU},
		{"GPU|DEFAULT is a GPU", []*Device{bigCPU, defaultGPU}, defaultGPU},
		{"ties keep list order", []*Device{tie1, tie2}, tie1},
		{"ties keep list order, reversed", []*Device{tie2, tie1}, tie2},
		{"mixed", []*Device{cpu, acc, gpu, poclGPU, bigGPU, bigCPU}, bigGPU},
	} {
		if got := best(tc.in); got != tc.want {
			t.Errorf("%s: best = %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestMatchWords(t *testing.T) {
	nv := fake(0, cl.DeviceTypeGPU, VendorNVIDIA, 132, 1980)
	nv.profile.Name, nv.profile.Platform, nv.profile.VendorName = "NVIDIA H200", "NVIDIA CUDA", "NVIDIA Corporation"
	pc := fake(1, cl.DeviceTypeCPU, VendorPoCL, 16, 2000)
	pc.profile.Name, pc.profile.Platform, pc.profile.VendorName = "cpu-x86-64-AMD EPYC 9654", "Portable Computing Language", "AuthenticAMD"
	pc2 := fake(1, cl.DeviceTypeCPU, VendorPoCL, 16, 2000)
	pc2.deviceIndex = 1
	pc2.profile.Platform, pc2.profile.VendorName = pc.profile.Platform, pc.profile.VendorName
	all := []*Device{nv, pc, pc2}
	for _, tc := range []struct {
		spec string
		want []*Device
	}{
		{"gpu", []*Device{nv}},
		{"cpu", []*Device{pc, pc2}},
		{"accelerator", nil},
		{"nvidia", []*Device{nv}},
		{"pocl", []*Device{pc, pc2}},
		{"portable", []*Device{pc, pc2}},
		{"h200", []*Device{nv}},
		{"epyc", []*Device{pc}},
		{"0:0", []*Device{nv}},
		{"1:1", []*Device{pc2}},
		{"2:0", nil},
		{"nosuch", nil},
	} {
		got := match(all, tc.spec)
		if len(got) != len(tc.want) {
			t.Errorf("match(%q) = %v, want %v", tc.spec, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("match(%q) = %v, want %v", tc.spec, got, tc.want)
			}
		}
	}
}

func TestVendorOf(t *testing.T) {
	for _, tc := range []struct {
		platform, vendor string
		id               uint32
		want             Vendor
	}{
		{"NVIDIA CUDA", "NVIDIA Corporation", 0x10de, VendorNVIDIA},
		{"Portable Computing Language", "GenuineIntel", 0x8086, VendorPoCL},
		{"Portable Computing Language", "NVIDIA Corporation", 0x10de, VendorPoCL},
		{"AMD Accelerated Parallel Processing", "Advanced Micro Devices, Inc.", 0x1002, VendorAMD},
		{"Intel(R) OpenCL Graphics", "Intel(R) Corporation", 0x8086, VendorIntel},
		{"Apple", "Apple", 0x1027f00, VendorApple},
		{"ARM Platform", "ARM", 0x13b5, VendorARM},
		{"Mystery", "Someone", 1, VendorUnknown},
	} {
		if got := vendorOf(tc.platform, tc.vendor, tc.id); got != tc.want {
			t.Errorf("vendorOf(%q, %q, %#x) = %q, want %q", tc.platform, tc.vendor, tc.id, got, tc.want)
		}
	}
}

func TestOptionsDeterministic(t *testing.T) {
	defs := map[string]string{"TS": "16", "VW": "4", "PRECISION": "32", "USE_LOCAL": "", "A": "1"}
	want := "-DA=1 -DPRECISION=32 -DTS=16 -DUSE_LOCAL -DVW=4 -cl-mad-enable"
	for i := 0; i < 50; i++ {
		// A fresh map each time, filled in a different order, so map
		// iteration order cannot leak into the string.
		m := map[string]string{}
		keys := []string{"TS", "VW", "PRECISION", "USE_LOCAL", "A"}
		for j := range keys {
			k := keys[(i+j)%len(keys)]
			m[k] = defs[k]
		}
		if got := Options(m, "-cl-mad-enable"); got != want {
			t.Fatalf("Options = %q, want %q", got, want)
		}
	}
	if got := Options(nil); got != "" {
		t.Errorf("Options(nil) = %q", got)
	}
	if got := Options(nil, "-w", "-cl-fast-relaxed-math"); got != "-w -cl-fast-relaxed-math" {
		t.Errorf("Options(nil, extra) = %q", got)
	}
}
