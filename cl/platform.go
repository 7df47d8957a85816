package cl

import (
	"strings"
	"sync"
	"unsafe"
)

// Platform is an OpenCL platform (one installed driver, or ICD).
// Platforms are owned by the driver and need no release.
type Platform struct {
	id clPlatformID
}

// enumMu serialises platform and device enumeration: the first
// clGetPlatformIDs initialises the ICD loader and the drivers, and some
// (PoCL) crash when two threads do that at once.
var enumMu sync.Mutex

// Platforms returns every platform the ICD loader knows. No installed
// driver is not an error: the result is then empty. No OpenCL library is:
// the error wraps ErrNoRuntime (see LoadRuntime).
func Platforms() ([]*Platform, error) {
	enumMu.Lock()
	defer enumMu.Unlock()
	var n uint32
	if err := LoadRuntime(); err != nil {
		return nil, err
	}
	st := clGetPlatformIDs(0, nil, &n)
	if ErrorCode(st) == PlatformNotFoundKHR {
		return nil, nil
	}
	if err := check("clGetPlatformIDs", st); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	ids := make([]clPlatformID, n)
	if err := check("clGetPlatformIDs", clGetPlatformIDs(n, &ids[0], nil)); err != nil {
		return nil, err
	}
	ps := make([]*Platform, n)
	for i, id := range ids {
		ps[i] = &Platform{id: id}
	}
	return ps, nil
}

func (p *Platform) infoString(param uint32) string {
	var size uintptr
	if clGetPlatformInfo(p.id, param, 0, nil, &size) != clSuccess || size == 0 {
		return ""
	}
	buf := make([]byte, size)
	if clGetPlatformInfo(p.id, param, size, unsafe.Pointer(&buf[0]), nil) != clSuccess {
		return ""
	}
	return cString(buf)
}

// Name, Vendor, Version, Profile and Extensions return the platform's
// strings, or "" when the driver does not answer.
func (p *Platform) Name() string    { return p.infoString(clPlatformName) }
func (p *Platform) Vendor() string  { return p.infoString(clPlatformVendor) }
func (p *Platform) Version() string { return p.infoString(clPlatformVersion) }
func (p *Platform) Profile() string { return p.infoString(clPlatformProfile) }

// Extensions lists the platform's extension names.
func (p *Platform) Extensions() []string {
	return strings.Fields(p.infoString(clPlatformExtensions))
}

// OpenCLVersion is the parsed platform version ("OpenCL 3.0 CUDA" → 3.0).
func (p *Platform) OpenCLVersion() Version { return parseVersion(p.Version()) }

// DeviceType selects devices by kind; values can be or-ed.
type DeviceType uint64

// Device types.
const (
	DeviceTypeDefault     DeviceType = clDeviceTypeDefault
	DeviceTypeCPU         DeviceType = clDeviceTypeCpu
	DeviceTypeGPU         DeviceType = clDeviceTypeGpu
	DeviceTypeAccelerator DeviceType = clDeviceTypeAccelerator
	DeviceTypeCustom      DeviceType = clDeviceTypeCustom
	DeviceTypeAll         DeviceType = clDeviceTypeAll
)

func (t DeviceType) String() string {
	var parts []string
	for _, x := range []struct {
		t DeviceType
		s string
	}{{DeviceTypeDefault, "default"}, {DeviceTypeCPU, "cpu"}, {DeviceTypeGPU, "gpu"}, {DeviceTypeAccelerator, "accelerator"}, {DeviceTypeCustom, "custom"}} {
		if t&x.t != 0 {
			parts = append(parts, x.s)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "|")
}

// Devices returns the platform's devices of the given type. A platform
// with no such device returns an empty list, not an error.
func (p *Platform) Devices(t DeviceType) ([]*Device, error) {
	enumMu.Lock()
	defer enumMu.Unlock()
	var n uint32
	st := clGetDeviceIDs(p.id, uint64(t), 0, nil, &n)
	if ErrorCode(st) == DeviceNotFound || (st == clSuccess && n == 0) {
		return nil, nil
	}
	if err := check("clGetDeviceIDs", st); err != nil {
		return nil, err
	}
	ids := make([]clDeviceID, n)
	if err := check("clGetDeviceIDs", clGetDeviceIDs(p.id, uint64(t), n, &ids[0], &n)); err != nil {
		return nil, err
	}
	ids = ids[:min(int(n), len(ids))]
	ds := make([]*Device, n)
	for i, id := range ids {
		ds[i] = &Device{id: id, platform: p}
	}
	return ds, nil
}

// cString converts a NUL-terminated byte buffer to a Go string.
func cString(b []byte) string {
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		b = b[:i]
	}
	return strings.TrimSpace(string(b))
}
