package cl

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestParseVersion(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Version
	}{
		{"OpenCL 3.0 CUDA 12.4.131", Version{3, 0}},
		{"OpenCL 1.2 pocl 1.8", Version{1, 2}},
		{"OpenCL C 1.2 PoCL", Version{1, 2}},
		{"OpenCL 2.1 AMD-APP (3614.0)", Version{2, 1}},
		{"OpenCL 3.0 PoCL HSTR: pthread-x86_64", Version{3, 0}},
		{"OpenCL 1.1", Version{1, 1}},
		{"OpenCL 2.0,", Version{2, 0}},
		{"", Version{}},
		{"garbage", Version{}},
	} {
		if got := parseVersion(c.in); got != c.want {
			t.Errorf("parseVersion(%q) = %v, want %v", c.in, got, c.want)
		}
	}
	v := Version{2, 1}
	for _, c := range []struct {
		maj, min int
		want     bool
	}{{1, 2, true}, {2, 0, true}, {2, 1, true}, {2, 2, false}, {3, 0, false}} {
		if v.AtLeast(c.maj, c.min) != c.want {
			t.Errorf("2.1 AtLeast(%d, %d) != %v", c.maj, c.min, c.want)
		}
	}
	if v.String() != "2.1" {
		t.Error(v.String())
	}
}

// TestDeviceGetters calls every getter of Device and Platform (found by
// reflection, so a new getter is covered too): none may panic, and the
// core ones must be plausible.
func TestDeviceGetters(t *testing.T) {
	d := testDevice(t)
	for _, v := range []any{d, d.Platform()} {
		rv := reflect.ValueOf(v)
		for i := range rv.NumMethod() {
			m := rv.Type().Method(i)
			if m.Type.NumIn() != 1 { // receiver only
				continue
			}
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%T.%s panicked: %v", v, m.Name, r)
					}
				}()
				out := rv.Method(i).Call(nil)
				vals := make([]any, len(out))
				for j, o := range out {
					vals[j] = o.Interface()
				}
				str := strings.ReplaceAll(fmt.Sprint(vals...), "\n", " ")
				if len(str) > 100 {
					str = str[:100] + "…"
				}
				t.Logf("%T.%s = %s", v, m.Name, str)
			}()
		}
	}
	check := func(what string, ok bool) {
		t.Helper()
		if !ok {
			t.Errorf("implausible %s", what)
		}
	}
	check("Name", d.Name() != "")
	check("Vendor", d.Vendor() != "")
	check("OpenCLVersion", d.OpenCLVersion().AtLeast(1, 2))
	check("Platform OpenCLVersion", d.Platform().OpenCLVersion().AtLeast(1, 2))
	check("OpenCLCVersion", strings.HasPrefix(d.OpenCLCVersion(), "OpenCL C"))
	check("Type", d.Type()&(DeviceTypeCPU|DeviceTypeGPU|DeviceTypeAccelerator|DeviceTypeCustom) != 0)
	check("Type.String", d.Type().String() != "none")
	check("Available", d.Available())
	check("CompilerAvailable", d.CompilerAvailable())
	check("MaxComputeUnits", d.MaxComputeUnits() > 0)
	check("GlobalMemSize", d.GlobalMemSize() > 0)
	check("MaxMemAllocSize", d.MaxMemAllocSize() > 0 && d.MaxMemAllocSize() <= d.GlobalMemSize())
	check("LocalMemSize", d.LocalMemSize() > 0)
	check("MaxConstantBufferSize", d.MaxConstantBufferSize() > 0)
	check("MaxParameterSize", d.MaxParameterSize() >= 256)
	check("MaxWorkGroupSize", d.MaxWorkGroupSize() > 0)
	wis := d.MaxWorkItemSizes()
	check("MaxWorkItemSizes", len(wis) >= 3 && len(wis) == d.MaxWorkItemDimensions() && wis[0] > 0)
	check("MemBaseAddrAlign", d.MemBaseAddrAlign() >= 8)
	check("AddressBits", d.AddressBits() == 32 || d.AddressBits() == 64)
	check("SingleFPConfig", d.SingleFPConfig()&FPRoundToNearest != 0)
	check("HasFP64", d.HasFP64() == (d.DoubleFPConfig() != 0) || d.HasExtension("cl_khr_fp64"))
	check("PreferredVectorWidths", d.PreferredVectorWidths().Float > 0)
	check("NativeVectorWidths", d.NativeVectorWidths().Float > 0)
	check("Extensions", len(d.Extensions()) > 0 && d.HasExtension(d.Extensions()[0]))
	check("Profile", strings.HasSuffix(d.Profile(), "_PROFILE"))
	check("Platform.Name", d.Platform().Name() != "")
	check("String", d.String() == d.Name())
	check("Same", d.Same(d) && !d.Same(nil))
	if _, _, ok := d.ComputeCapability(); ok != d.HasExtension("cl_nv_device_attribute_query") {
		t.Error("ComputeCapability ok without the NVIDIA extension")
	}
	if raw, err := d.Info(0x1000); err != nil || len(raw) != 8 { // CL_DEVICE_TYPE
		t.Errorf("Info(CL_DEVICE_TYPE) = %v, %v", raw, err)
	}
	if _, err := d.Info(0x7fff); !errors.Is(err, InvalidValue) {
		t.Errorf("Info(bogus) = %v", err)
	}

	// 2.0+ features: ErrNotSupported below, a value (or ErrNotSupported
	// from the driver) at or above.
	svm, err := d.SVMCapabilities()
	if !d.OpenCLVersion().AtLeast(2, 0) {
		if !errors.Is(err, ErrNotSupported) {
			t.Errorf("SVMCapabilities on %v: %v", d.OpenCLVersion(), err)
		}
	} else if err != nil {
		t.Errorf("SVMCapabilities on %v: %v", d.OpenCLVersion(), err)
	}
	sg, err := d.MaxSubGroups()
	if !d.OpenCLVersion().AtLeast(2, 1) {
		if !errors.Is(err, ErrNotSupported) {
			t.Errorf("MaxSubGroups on %v: %v", d.OpenCLVersion(), err)
		}
	} else if err != nil {
		t.Errorf("MaxSubGroups on %v: %v", d.OpenCLVersion(), err)
	}
	t.Logf("SVM %#x, max sub-groups %d", svm, sg)
}
