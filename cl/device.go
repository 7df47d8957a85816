package cl

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"
)

// Device is an OpenCL device. Root devices are owned by the driver and
// need no release.
type Device struct {
	id       clDeviceID
	platform *Platform
}

// deviceFromID wraps a device id found outside Platform.Devices, asking
// the driver for its platform.
func deviceFromID(id clDeviceID) *Device {
	d := &Device{id: id}
	if p, ok := infoScalar[clPlatformID](d, clDevicePlatform); ok {
		d.platform = &Platform{id: p}
	}
	return d
}

// Platform returns the platform the device belongs to.
func (d *Device) Platform() *Platform {
	if d.platform == nil {
		// Not reachable through this package's constructors, but a zero
		// Platform answers every query with "" rather than crashing.
		return &Platform{}
	}
	return d.platform
}

// Same reports whether d and o are the same OpenCL device (different
// *Device values can wrap one device).
func (d *Device) Same(o *Device) bool { return d != nil && o != nil && d.id == o.id }

// Info returns the raw bytes of a clGetDeviceInfo query, for parameters
// this package has no getter for (vendor extensions, say).
func (d *Device) Info(param uint32) ([]byte, error) {
	var size uintptr
	if err := check("clGetDeviceInfo", clGetDeviceInfo(d.id, param, 0, nil, &size)); err != nil {
		return nil, err
	}
	if size == 0 {
		return nil, nil
	}
	buf := make([]byte, size)
	if err := check("clGetDeviceInfo", clGetDeviceInfo(d.id, param, size, unsafe.Pointer(&buf[0]), nil)); err != nil {
		return nil, err
	}
	return buf, nil
}

// infoScalar reads a fixed-size device query. A query the driver cannot
// answer, or answers with a different size (an old driver writing a
// cl_uint where the spec now says size_t, say, or nothing at all), gives
// the zero value and false, never garbage: v is read only when the driver
// wrote exactly its size.
func infoScalar[T any](d *Device, param uint32) (T, bool) {
	var v, zero T
	var got uintptr
	st := clGetDeviceInfo(d.id, param, unsafe.Sizeof(v), unsafe.Pointer(&v), &got)
	if st != clSuccess || got != unsafe.Sizeof(v) {
		return zero, false
	}
	return v, true
}

func (d *Device) str(param uint32) string {
	b, err := d.Info(param)
	if err != nil {
		return ""
	}
	return cString(b)
}

func (d *Device) u32(param uint32) int {
	v, _ := infoScalar[uint32](d, param)
	return int(v)
}

func (d *Device) u64(param uint32) int64 {
	v, _ := infoScalar[uint64](d, param)
	return int64(v)
}

func (d *Device) size(param uint32) int {
	v, _ := infoScalar[uintptr](d, param)
	return int(v)
}

func (d *Device) boolean(param uint32) bool {
	v, _ := infoScalar[uint32](d, param)
	return v != 0
}

// The getters below return the zero value when the driver cannot answer
// (an extension query on a device without the extension, say); they never
// panic.

// Name is the device's name ("NVIDIA H200", "cpu-haswell-…").
func (d *Device) Name() string { return d.str(clDeviceName) }

// Vendor is the device vendor's name.
func (d *Device) Vendor() string { return d.str(clDeviceVendor) }

// VendorID is the PCI vendor id (0x10DE NVIDIA, 0x1002 AMD, 0x8086 Intel).
func (d *Device) VendorID() uint32 { return uint32(d.u32(clDeviceVendorID)) }

// Version is the device's OpenCL version string.
func (d *Device) Version() string { return d.str(clDeviceVersion) }

// OpenCLVersion is the parsed device version.
func (d *Device) OpenCLVersion() Version { return parseVersion(d.Version()) }

// OpenCLCVersion is the OpenCL C version string the compiler accepts.
func (d *Device) OpenCLCVersion() string { return d.str(clDeviceOpenclCVersion) }

// DriverVersion is the driver's version string.
func (d *Device) DriverVersion() string { return d.str(clDriverVersion) }

// Profile is "FULL_PROFILE" or "EMBEDDED_PROFILE".
func (d *Device) Profile() string { return d.str(clDeviceProfile) }

// Type is the device's type.
func (d *Device) Type() DeviceType {
	v, _ := infoScalar[uint64](d, clDeviceType)
	return DeviceType(v)
}

// Extensions lists the device's extension names.
func (d *Device) Extensions() []string { return strings.Fields(d.str(clDeviceExtensions)) }

// HasExtension reports whether the device lists the named extension.
func (d *Device) HasExtension(name string) bool { return slices.Contains(d.Extensions(), name) }

// HasFP64 reports double-precision support (cl_khr_fp64 or a nonzero
// double FP configuration).
func (d *Device) HasFP64() bool {
	return d.HasExtension("cl_khr_fp64") || d.DoubleFPConfig() != 0
}

// HasFP16 reports half-precision arithmetic support (cl_khr_fp16).
func (d *Device) HasFP16() bool { return d.HasExtension("cl_khr_fp16") }

// Available reports whether the device can take work.
func (d *Device) Available() bool { return d.boolean(clDeviceAvailable) }

// CompilerAvailable reports whether programs can be built from source.
func (d *Device) CompilerAvailable() bool { return d.boolean(clDeviceCompilerAvailable) }

// MaxComputeUnits is the number of compute units (SMs, CUs, cores).
func (d *Device) MaxComputeUnits() int { return d.u32(clDeviceMaxComputeUnits) }

// MaxClockFrequency is the maximum clock in MHz.
func (d *Device) MaxClockFrequency() int { return d.u32(clDeviceMaxClockFrequency) }

// GlobalMemSize is the global memory size in bytes.
func (d *Device) GlobalMemSize() int64 { return d.u64(clDeviceGlobalMemSize) }

// GlobalMemCacheSize is the global memory cache size in bytes.
func (d *Device) GlobalMemCacheSize() int64 { return d.u64(clDeviceGlobalMemCacheSize) }

// GlobalMemCachelineSize is the cache line size in bytes.
func (d *Device) GlobalMemCachelineSize() int { return d.u32(clDeviceGlobalMemCachelineSize) }

// MaxMemAllocSize is the largest single buffer in bytes.
func (d *Device) MaxMemAllocSize() int64 { return d.u64(clDeviceMaxMemAllocSize) }

// LocalMemSize is the local (shared) memory per work-group in bytes.
func (d *Device) LocalMemSize() int64 { return d.u64(clDeviceLocalMemSize) }

// LocalMemIsDedicated reports whether local memory is dedicated on-chip
// storage (CL_LOCAL) rather than emulated in global memory (CL_GLOBAL, as
// on CPUs).
func (d *Device) LocalMemIsDedicated() bool {
	v, _ := infoScalar[uint32](d, clDeviceLocalMemType)
	return v == clLocal
}

// MaxConstantBufferSize is the largest __constant buffer in bytes.
func (d *Device) MaxConstantBufferSize() int64 { return d.u64(clDeviceMaxConstantBufferSize) }

// MaxParameterSize is the largest total size of kernel arguments in bytes.
func (d *Device) MaxParameterSize() int { return d.size(clDeviceMaxParameterSize) }

// MaxWorkGroupSize is the largest number of work-items in a work-group.
func (d *Device) MaxWorkGroupSize() int { return d.size(clDeviceMaxWorkGroupSize) }

// MaxWorkItemSizes is the largest work-group extent in each dimension.
func (d *Device) MaxWorkItemSizes() []int {
	dims := d.u32(clDeviceMaxWorkItemDimensions)
	if dims <= 0 {
		return nil
	}
	v := make([]uintptr, dims)
	var got uintptr
	if clGetDeviceInfo(d.id, clDeviceMaxWorkItemSizes, uintptr(dims)*unsafe.Sizeof(v[0]), unsafe.Pointer(&v[0]), &got) != clSuccess {
		return nil
	}
	n := min(int(got/unsafe.Sizeof(v[0])), dims)
	out := make([]int, n)
	for i := range out {
		out[i] = int(v[i])
	}
	return out
}

// MaxWorkItemDimensions is the largest NDRange dimension (at least 3).
func (d *Device) MaxWorkItemDimensions() int { return d.u32(clDeviceMaxWorkItemDimensions) }

// MemBaseAddrAlign is the buffer base alignment in bits.
func (d *Device) MemBaseAddrAlign() int { return d.u32(clDeviceMemBaseAddrAlign) }

// AddressBits is 32 or 64.
func (d *Device) AddressBits() int { return d.u32(clDeviceAddressBits) }

// HostUnifiedMemory reports whether device and host share memory.
func (d *Device) HostUnifiedMemory() bool { return d.boolean(clDeviceHostUnifiedMemory) }

// ErrorCorrectionSupport reports ECC on device memory.
func (d *Device) ErrorCorrectionSupport() bool {
	return d.boolean(clDeviceErrorCorrectionSupport)
}

// ProfilingTimerResolution is the event timer resolution in nanoseconds.
func (d *Device) ProfilingTimerResolution() int {
	return d.size(clDeviceProfilingTimerResolution)
}

// ImageSupport reports image support.
func (d *Device) ImageSupport() bool { return d.boolean(clDeviceImageSupport) }

// FPConfig is a set of floating-point capability bits (CL_FP_*).
type FPConfig uint64

// Floating-point capabilities.
const (
	FPDenorm                     FPConfig = clFPDenorm
	FPInfNaN                     FPConfig = clFPInfNan
	FPRoundToNearest             FPConfig = clFPRoundToNearest
	FPRoundToZero                FPConfig = clFPRoundToZero
	FPRoundToInf                 FPConfig = clFPRoundToInf
	FPFMA                        FPConfig = clFPFma
	FPCorrectlyRoundedDivideSqrt FPConfig = clFPCorrectlyRoundedDivideSqrt
)

// SingleFPConfig, DoubleFPConfig and HalfFPConfig describe each precision;
// zero means the precision is not supported.
func (d *Device) SingleFPConfig() FPConfig { return d.fp(clDeviceSingleFPConfig) }
func (d *Device) DoubleFPConfig() FPConfig { return d.fp(clDeviceDoubleFPConfig) }
func (d *Device) HalfFPConfig() FPConfig   { return d.fp(0x1033) } // CL_DEVICE_HALF_FP_CONFIG

func (d *Device) fp(param uint32) FPConfig {
	v, _ := infoScalar[uint64](d, param)
	return FPConfig(v)
}

// VectorWidths holds preferred or native vector widths per scalar type.
type VectorWidths struct {
	Char, Short, Int, Long, Float, Double, Half int
}

// PreferredVectorWidths are the widths the compiler prefers per type.
func (d *Device) PreferredVectorWidths() VectorWidths {
	return VectorWidths{
		Char:   d.u32(clDevicePreferredVectorWidthChar),
		Short:  d.u32(clDevicePreferredVectorWidthShort),
		Int:    d.u32(clDevicePreferredVectorWidthInt),
		Long:   d.u32(clDevicePreferredVectorWidthLong),
		Float:  d.u32(clDevicePreferredVectorWidthFloat),
		Double: d.u32(clDevicePreferredVectorWidthDouble),
		Half:   d.u32(clDevicePreferredVectorWidthHalf),
	}
}

// NativeVectorWidths are the hardware's native widths per type.
func (d *Device) NativeVectorWidths() VectorWidths {
	return VectorWidths{
		Char:   d.u32(clDeviceNativeVectorWidthChar),
		Short:  d.u32(clDeviceNativeVectorWidthShort),
		Int:    d.u32(clDeviceNativeVectorWidthInt),
		Long:   d.u32(clDeviceNativeVectorWidthLong),
		Float:  d.u32(clDeviceNativeVectorWidthFloat),
		Double: d.u32(clDeviceNativeVectorWidthDouble),
		Half:   d.u32(clDeviceNativeVectorWidthHalf),
	}
}

// QueueProperties are the properties a host queue on the device supports.
func (d *Device) QueueProperties() QueueProperties {
	v, _ := infoScalar[uint64](d, clDeviceQueueProperties)
	return QueueProperties(v)
}

// SVMCapabilities returns the shared-virtual-memory capability bits
// (CL_DEVICE_SVM_*), or ErrNotSupported before OpenCL 2.0.
func (d *Device) SVMCapabilities() (uint64, error) {
	if !d.OpenCLVersion().AtLeast(2, 0) {
		return 0, fmt.Errorf("cl: SVM capabilities need OpenCL 2.0, device %q is %v: %w", d.Name(), d.OpenCLVersion(), ErrNotSupported)
	}
	v, ok := infoScalar[uint64](d, clDeviceSVMCapabilities)
	if !ok {
		return 0, fmt.Errorf("cl: clGetDeviceInfo(CL_DEVICE_SVM_CAPABILITIES): %w", ErrNotSupported)
	}
	return uint64(v), nil
}

// MaxSubGroups returns the largest number of sub-groups in a work-group
// (OpenCL 2.1+), or ErrNotSupported.
func (d *Device) MaxSubGroups() (int, error) {
	if !d.OpenCLVersion().AtLeast(2, 1) {
		return 0, fmt.Errorf("cl: sub-groups need OpenCL 2.1, device %q is %v: %w", d.Name(), d.OpenCLVersion(), ErrNotSupported)
	}
	v, ok := infoScalar[uint32](d, clDeviceMaxNumSubGroups)
	if !ok {
		return 0, fmt.Errorf("cl: clGetDeviceInfo(CL_DEVICE_MAX_NUM_SUB_GROUPS): %w", ErrNotSupported)
	}
	return int(v), nil
}

// HasSubGroups reports sub-group support (cl_khr_subgroups, or OpenCL 2.1+
// with a nonzero sub-group count).
func (d *Device) HasSubGroups() bool {
	if d.HasExtension("cl_khr_subgroups") || d.HasExtension("cl_intel_subgroups") {
		return true
	}
	n, err := d.MaxSubGroups()
	return err == nil && n > 0
}

// ComputeCapability returns NVIDIA's compute capability (9, 0 on Hopper);
// ok is false on other devices.
func (d *Device) ComputeCapability() (major, minor int, ok bool) {
	if !d.HasExtension("cl_nv_device_attribute_query") {
		return 0, 0, false
	}
	a, ok1 := infoScalar[uint32](d, clDeviceComputeCapabilityMajorNV)
	b, ok2 := infoScalar[uint32](d, clDeviceComputeCapabilityMinorNV)
	return int(a), int(b), ok1 && ok2
}

// WarpSize returns the SIMD width the hardware schedules together: the warp
// size on NVIDIA, the wavefront width on AMD; 0 when the driver does not
// say.
func (d *Device) WarpSize() int {
	if d.HasExtension("cl_nv_device_attribute_query") {
		return d.u32(clDeviceWarpSizeNV)
	}
	if d.HasExtension("cl_amd_device_attribute_query") {
		return d.u32(clDeviceWavefrontWidthAMD)
	}
	return 0
}

// RegistersPerBlock returns NVIDIA's registers per block, 0 elsewhere.
func (d *Device) RegistersPerBlock() int {
	if !d.HasExtension("cl_nv_device_attribute_query") {
		return 0
	}
	return d.u32(clDeviceRegistersPerBlockNV)
}

// BoardName returns AMD's marketing name, "" elsewhere.
func (d *Device) BoardName() string {
	if !d.HasExtension("cl_amd_device_attribute_query") {
		return ""
	}
	return d.str(clDeviceBoardNameAMD)
}

func (d *Device) String() string { return d.Name() }
