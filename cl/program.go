package cl

/*
#include "clinc.h"
*/
import "C"

import (
	"fmt"
	"strings"
	"unsafe"
)

// Program is an OpenCL program: sources or binaries, built for devices.
type Program struct {
	h   C.cl_program
	ctx *Context
	obj object
}

func newProgram(h C.cl_program, ctx *Context) *Program {
	p := &Program{h: h, ctx: ctx}
	track(p, &p.obj, kindProgram, h, func(h C.cl_program) int32 { return int32(C.clReleaseProgram(h)) })
	return p
}

// CreateProgramWithSource creates a program from OpenCL C sources, which
// are concatenated in order.
func (c *Context) CreateProgramWithSource(sources ...string) (*Program, error) {
	const op = "clCreateProgramWithSource"
	if len(sources) == 0 {
		return nil, &Error{Op: op, Code: InvalidValue}
	}
	if err := c.obj.acquire(); err != nil {
		return nil, err
	}
	defer c.obj.done()
	cs := make([]*C.char, len(sources))
	lens := make([]C.size_t, len(sources))
	for i, s := range sources {
		cs[i] = C.CString(s)
		lens[i] = C.size_t(len(s))
	}
	defer func() {
		for _, p := range cs {
			C.free(unsafe.Pointer(p))
		}
	}()
	var st C.cl_int
	h := C.clCreateProgramWithSource(c.h, C.cl_uint(len(cs)), &cs[0], &lens[0], &st)
	if err := check(op, int32(st)); err != nil {
		return nil, err
	}
	return newProgram(h, c), nil
}

// CreateProgramWithBinary creates a program from per-device binaries (as
// returned by Binaries). Build must still be called. A binary the driver
// rejects returns an error wrapping its code (CL_INVALID_BINARY, usually).
func (c *Context) CreateProgramWithBinary(devices []*Device, binaries [][]byte) (*Program, error) {
	const op = "clCreateProgramWithBinary"
	if len(devices) == 0 || len(devices) != len(binaries) {
		return nil, &Error{Op: op, Code: InvalidValue}
	}
	ids := make([]C.cl_device_id, len(devices))
	lens := make([]C.size_t, len(devices))
	for i, d := range devices {
		if d == nil {
			return nil, &Error{Op: op, Code: InvalidDevice}
		}
		if len(binaries[i]) == 0 {
			return nil, fmt.Errorf("cl: empty binary for device %d: %w", i, &Error{Op: op, Code: InvalidBinary})
		}
		ids[i] = d.id
		lens[i] = C.size_t(len(binaries[i]))
	}
	if err := c.obj.acquire(); err != nil {
		return nil, err
	}
	defer c.obj.done()
	// An array of pointers to Go memory may not be passed to C: copy the
	// binaries to C memory.
	ptrs := make([]*C.uchar, len(devices))
	defer func() {
		for _, p := range ptrs {
			C.free(unsafe.Pointer(p))
		}
	}()
	for i, b := range binaries {
		ptrs[i] = (*C.uchar)(C.CBytes(b))
	}
	status := make([]C.cl_int, len(devices))
	var st C.cl_int
	h := C.clCreateProgramWithBinary(c.h, C.cl_uint(len(ids)), &ids[0], &lens[0], &ptrs[0], &status[0], &st)
	if err := check(op, int32(st)); err != nil {
		for i, s := range status {
			if s != C.CL_SUCCESS && ErrorCode(s) != ErrorCode(st) {
				return nil, fmt.Errorf("cl: binary for device %d: %v: %w", i, ErrorCode(s), err)
			}
		}
		return nil, err
	}
	return newProgram(h, c), nil
}

// Build compiles and links the program for devices (nil: all of the
// context's) with the given options. On failure it returns a *BuildError
// carrying every device's build log.
func (p *Program) Build(devices []*Device, options string) error {
	const op = "clBuildProgram"
	if devices == nil {
		devices = p.ctx.devices
	}
	ids := make([]C.cl_device_id, len(devices))
	for i, d := range devices {
		if d == nil {
			return &Error{Op: op, Code: InvalidDevice}
		}
		ids[i] = d.id
	}
	if err := p.obj.acquire(); err != nil {
		return err
	}
	defer p.obj.done()
	copts := C.CString(options)
	defer C.free(unsafe.Pointer(copts))
	var idp *C.cl_device_id
	if len(ids) > 0 {
		idp = &ids[0]
	}
	st := C.clBuildProgram(p.h, C.cl_uint(len(ids)), idp, copts, nil, nil)
	if err := check(op, int32(st)); err != nil {
		logs := make(map[string]string, len(devices))
		for i, d := range devices {
			name := d.Name()
			if _, dup := logs[name]; dup {
				name = fmt.Sprintf("%s #%d", name, i)
			}
			logs[name] = p.buildLog(d)
		}
		return &BuildError{Err: err, Options: options, Logs: logs}
	}
	return nil
}

// BuildLog returns the compiler's log for device d ("" if none). After a
// successful build it may hold warnings.
func (p *Program) BuildLog(d *Device) string {
	if d == nil || p.obj.acquire() != nil {
		return ""
	}
	defer p.obj.done()
	return p.buildLog(d)
}

func (p *Program) buildLog(d *Device) string {
	var size C.size_t
	if C.clGetProgramBuildInfo(p.h, d.id, C.CL_PROGRAM_BUILD_LOG, 0, nil, &size) != C.CL_SUCCESS || size == 0 {
		return ""
	}
	buf := make([]byte, size)
	if C.clGetProgramBuildInfo(p.h, d.id, C.CL_PROGRAM_BUILD_LOG, size, unsafe.Pointer(&buf[0]), nil) != C.CL_SUCCESS {
		return ""
	}
	return cString(buf)
}

// Devices returns the devices the program is associated with, in the order
// Binaries uses. Devices of the program's context are returned as the
// context's own *Device values.
func (p *Program) Devices() ([]*Device, error) {
	if err := p.obj.acquire(); err != nil {
		return nil, err
	}
	defer p.obj.done()
	ids, err := p.deviceIDs()
	if err != nil {
		return nil, err
	}
	out := make([]*Device, len(ids))
	for i, id := range ids {
		for _, d := range p.ctx.devices {
			if d.id == id {
				out[i] = d
				break
			}
		}
		if out[i] == nil {
			out[i] = deviceFromID(id)
		}
	}
	return out, nil
}

// deviceIDs returns CL_PROGRAM_DEVICES; the caller holds p.
func (p *Program) deviceIDs() ([]C.cl_device_id, error) {
	var n C.cl_uint
	if err := check("clGetProgramInfo", int32(C.clGetProgramInfo(p.h, C.CL_PROGRAM_NUM_DEVICES, C.size_t(unsafe.Sizeof(n)), unsafe.Pointer(&n), nil))); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	ids := make([]C.cl_device_id, n)
	if err := check("clGetProgramInfo", int32(C.clGetProgramInfo(p.h, C.CL_PROGRAM_DEVICES, C.size_t(uintptr(n)*unsafe.Sizeof(ids[0])), unsafe.Pointer(&ids[0]), nil))); err != nil {
		return nil, err
	}
	return ids, nil
}

// Binaries returns the built program's binary for each device of
// Devices(), as the driver represents it (PTX text on NVIDIA, an ELF
// elsewhere). A device the program was not built for has a nil binary.
func (p *Program) Binaries() ([][]byte, error) {
	const op = "clGetProgramInfo"
	if err := p.obj.acquire(); err != nil {
		return nil, err
	}
	defer p.obj.done()
	ids, err := p.deviceIDs()
	if err != nil {
		return nil, err
	}
	n := len(ids)
	if n == 0 {
		return nil, nil
	}
	sizes := make([]C.size_t, n)
	if err := check(op, int32(C.clGetProgramInfo(p.h, C.CL_PROGRAM_BINARY_SIZES, C.size_t(uintptr(n)*unsafe.Sizeof(sizes[0])), unsafe.Pointer(&sizes[0]), nil))); err != nil {
		return nil, err
	}
	// The driver writes through the pointers: give it C memory. The
	// pointer array itself holds only C pointers, so it may be Go memory.
	ptrs := make([]*C.uchar, n)
	defer func() {
		for _, q := range ptrs {
			C.free(unsafe.Pointer(q))
		}
	}()
	for i, s := range sizes {
		if s > 0 {
			ptrs[i] = (*C.uchar)(C.malloc(s))
		}
	}
	st := C.clGetProgramInfo(p.h, C.CL_PROGRAM_BINARIES, C.size_t(uintptr(n)*unsafe.Sizeof(ptrs[0])), unsafe.Pointer(&ptrs[0]), nil)
	if err := check(op, int32(st)); err != nil {
		return nil, err
	}
	out := make([][]byte, n)
	for i, s := range sizes {
		if s > 0 {
			out[i] = append([]byte(nil), unsafe.Slice((*byte)(unsafe.Pointer(ptrs[i])), int(s))...)
		}
	}
	return out, nil
}

// KernelNames lists the kernels of a built program.
func (p *Program) KernelNames() ([]string, error) {
	if err := p.obj.acquire(); err != nil {
		return nil, err
	}
	defer p.obj.done()
	var size C.size_t
	if err := check("clGetProgramInfo", int32(C.clGetProgramInfo(p.h, C.CL_PROGRAM_KERNEL_NAMES, 0, nil, &size))); err != nil {
		return nil, err
	}
	if size == 0 {
		return nil, nil
	}
	buf := make([]byte, size)
	if err := check("clGetProgramInfo", int32(C.clGetProgramInfo(p.h, C.CL_PROGRAM_KERNEL_NAMES, size, unsafe.Pointer(&buf[0]), nil))); err != nil {
		return nil, err
	}
	s := cString(buf)
	if s == "" {
		return nil, nil
	}
	return strings.Split(s, ";"), nil
}

// ReferenceCount is the driver's reference count of the program.
func (p *Program) ReferenceCount() (int, error) {
	if err := p.obj.acquire(); err != nil {
		return 0, err
	}
	defer p.obj.done()
	var n C.cl_uint
	st := C.clGetProgramInfo(p.h, C.CL_PROGRAM_REFERENCE_COUNT, C.size_t(unsafe.Sizeof(n)), unsafe.Pointer(&n), nil)
	return int(n), check("clGetProgramInfo", int32(st))
}

// Retain returns a second reference to the program: a *Program of its
// own, released on its own, so that code which owns a program (a cache)
// can hand out references that their holders may release.
func (p *Program) Retain() (*Program, error) {
	if err := p.obj.acquire(); err != nil {
		return nil, err
	}
	defer p.obj.done()
	if err := check("clRetainProgram", int32(C.clRetainProgram(p.h))); err != nil {
		return nil, err
	}
	return newProgram(p.h, p.ctx), nil
}

// Release releases the program. Kernels created from it stay usable.
func (p *Program) Release() error {
	if p == nil {
		return nil
	}
	return p.obj.release("clReleaseProgram")
}
