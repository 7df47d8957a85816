package platform

import (
	"fmt"
	"strings"

	"github.com/gocompute/opencl/cl"
)

// Vendor is a normalised vendor word, as GOCL_DEVICE and the tuning
// database use it.
type Vendor string

// Known vendors. PoCL is listed as a vendor of its own because what matters
// for kernel choice is the compiler, not the CPU under it.
const (
	VendorNVIDIA  Vendor = "nvidia"
	VendorAMD     Vendor = "amd"
	VendorIntel   Vendor = "intel"
	VendorApple   Vendor = "apple"
	VendorARM     Vendor = "arm"
	VendorPoCL    Vendor = "pocl"
	VendorUnknown Vendor = "unknown"
)

// Profile is what kernel choice needs to know about a device. It is read
// once, when the device is listed.
type Profile struct {
	Name          string        // device name, e.g. "NVIDIA H200"
	Vendor        Vendor        // normalised vendor
	VendorName    string        // the driver's vendor string
	Platform      string        // platform name
	PlatformVer   cl.Version    // platform OpenCL version
	OpenCL        cl.Version    // device OpenCL version
	DriverVersion string        // driver version string
	Type          cl.DeviceType // gpu, cpu, accelerator

	// Architecture is the driver's name for the chip family where it tells
	// one: "sm_90" on NVIDIA, the gfx name on AMD, "" when unknown.
	Architecture      string
	ComputeCapability [2]int // NVIDIA only; zeros elsewhere

	ComputeUnits int // SMs, CUs, EUs or CPU cores
	ClockMHz     int
	WarpSize     int // SIMD width scheduled together, 0 if unknown

	GlobalMemBytes    int64
	GlobalCacheBytes  int64
	MaxAllocBytes     int64
	LocalMemBytes     int64
	LocalMemDedicated bool // false when local memory is emulated (CPUs)

	MaxWorkGroupSize int
	MaxWorkItemSizes []int

	FP64 bool // cl_khr_fp64
	FP16 bool // cl_khr_fp16
	// FP32Denorm says that single precision arithmetic keeps denormals
	// (CL_FP_DENORM; double precision must).
	FP32Denorm bool
	SubGroups  bool

	PreferredVectorFloat  int
	PreferredVectorDouble int
	HostUnifiedMemory     bool

	Extensions []string
}

// IsCPU reports whether the device is a CPU: its type says CPU and not
// GPU. A device that lists GPU among several types (Oclgrind reports
// default|cpu|gpu|accelerator) is taken for a GPU: it is what it simulates,
// and the CPU choices (gemm_cpu at the preferred vector width, memory
// shared with the host) would not suit it.
func (p Profile) IsCPU() bool {
	return p.Type&cl.DeviceTypeCPU != 0 && p.Type&cl.DeviceTypeGPU == 0
}

// IsGPU reports whether the device is a GPU.
func (p Profile) IsGPU() bool { return p.Type&cl.DeviceTypeGPU != 0 }

// HasExtension reports whether the device lists the extension.
func (p Profile) HasExtension(name string) bool {
	for _, e := range p.Extensions {
		if e == name {
			return true
		}
	}
	return false
}

func newProfile(d *cl.Device) Profile {
	p := d.Platform()
	prof := Profile{
		Name:                  d.Name(),
		VendorName:            d.Vendor(),
		Platform:              p.Name(),
		PlatformVer:           p.OpenCLVersion(),
		OpenCL:                d.OpenCLVersion(),
		DriverVersion:         d.DriverVersion(),
		Type:                  d.Type(),
		ComputeUnits:          d.MaxComputeUnits(),
		ClockMHz:              d.MaxClockFrequency(),
		WarpSize:              d.WarpSize(),
		GlobalMemBytes:        d.GlobalMemSize(),
		GlobalCacheBytes:      d.GlobalMemCacheSize(),
		MaxAllocBytes:         d.MaxMemAllocSize(),
		LocalMemBytes:         d.LocalMemSize(),
		LocalMemDedicated:     d.LocalMemIsDedicated(),
		MaxWorkGroupSize:      d.MaxWorkGroupSize(),
		MaxWorkItemSizes:      d.MaxWorkItemSizes(),
		FP64:                  d.HasFP64(),
		FP16:                  d.HasFP16(),
		FP32Denorm:            d.SingleFPConfig()&cl.FPDenorm != 0,
		SubGroups:             d.HasSubGroups(),
		PreferredVectorFloat:  d.PreferredVectorWidths().Float,
		PreferredVectorDouble: d.PreferredVectorWidths().Double,
		HostUnifiedMemory:     d.HostUnifiedMemory(),
		Extensions:            d.Extensions(),
	}
	prof.Vendor = vendorOf(prof.Platform, prof.VendorName, d.VendorID())
	if maj, min, ok := d.ComputeCapability(); ok {
		prof.ComputeCapability = [2]int{maj, min}
		prof.Architecture = fmt.Sprintf("sm_%d%d", maj, min)
	}
	if prof.Vendor == VendorAMD {
		// AMD's driver reports the gfx name as the device name.
		if strings.HasPrefix(prof.Name, "gfx") {
			prof.Architecture = prof.Name
		}
		if b := d.BoardName(); b != "" {
			prof.Name = b
		}
	}
	return prof
}

func vendorOf(platform, vendor string, id uint32) Vendor {
	pl, v := strings.ToLower(platform), strings.ToLower(vendor)
	switch {
	case strings.Contains(pl, "portable computing language") || strings.Contains(pl, "pocl"):
		return VendorPoCL
	case id == 0x10de || strings.Contains(v, "nvidia"):
		return VendorNVIDIA
	case id == 0x1002 || strings.Contains(v, "advanced micro devices") || strings.Contains(v, "amd"):
		return VendorAMD
	case id == 0x8086 || strings.Contains(v, "intel"):
		return VendorIntel
	case strings.Contains(v, "apple"):
		return VendorApple
	case strings.Contains(v, "arm"):
		return VendorARM
	}
	return VendorUnknown
}
