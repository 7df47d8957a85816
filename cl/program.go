package cl

/*
#include "clinc.h"
*/
import "C"

import (
	"runtime"
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
	track(p, &p.obj, kindProgram, h, func(h C.cl_program) { C.clReleaseProgram(h) })
	return p
}

// CreateProgramWithSource creates a program from OpenCL C sources, which
// are concatenated in order.
func (c *Context) CreateProgramWithSource(sources ...string) (*Program, error) {
	const op = "clCreateProgramWithSource"
	if err := c.obj.alive(); err != nil {
		return nil, err
	}
	if len(sources) == 0 {
		return nil, &Error{Op: op, Code: InvalidValue}
	}
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
	runtime.KeepAlive(c)
	if err := check(op, int32(st)); err != nil {
		return nil, err
	}
	return newProgram(h, c), nil
}

// CreateProgramWithBinary creates a program from per-device binaries (as
// returned by Binaries). Build must still be called. A binary the driver
// rejects returns CL_INVALID_BINARY.
func (c *Context) CreateProgramWithBinary(devices []*Device, binaries [][]byte) (*Program, error) {
	const op = "clCreateProgramWithBinary"
	if err := c.obj.alive(); err != nil {
		return nil, err
	}
	if len(devices) == 0 || len(devices) != len(binaries) {
		return nil, &Error{Op: op, Code: InvalidValue}
	}
	ids := make([]C.cl_device_id, len(devices))
	lens := make([]C.size_t, len(devices))
	ptrs := make([]*C.uchar, len(devices))
	for i, d := range devices {
		if len(binaries[i]) == 0 {
			return nil, &Error{Op: op, Code: InvalidBinary}
		}
		ids[i] = d.id
		lens[i] = C.size_t(len(binaries[i]))
		ptrs[i] = (*C.uchar)(C.CBytes(binaries[i]))
	}
	defer func() {
		for _, p := range ptrs {
			C.free(unsafe.Pointer(p))
		}
	}()
	status := make([]C.cl_int, len(devices))
	var st C.cl_int
	h := C.clCreateProgramWithBinary(c.h, C.cl_uint(len(ids)), &ids[0], &lens[0], &ptrs[0], &status[0], &st)
	runtime.KeepAlive(c)
	if err := check(op, int32(st)); err != nil {
		return nil, err
	}
	return newProgram(h, c), nil
}

// Build compiles and links the program for devices (nil: all of the
// context's) with the given options. On failure it returns a *BuildError
// carrying every device's build log.
func (p *Program) Build(devices []*Device, options string) error {
	const op = "clBuildProgram"
	if err := p.obj.alive(); err != nil {
		return err
	}
	if devices == nil {
		devices = p.ctx.devices
	}
	ids := make([]C.cl_device_id, len(devices))
	for i, d := range devices {
		ids[i] = d.id
	}
	copts := C.CString(options)
	defer C.free(unsafe.Pointer(copts))
	var idp *C.cl_device_id
	if len(ids) > 0 {
		idp = &ids[0]
	}
	st := C.clBuildProgram(p.h, C.cl_uint(len(ids)), idp, copts, nil, nil)
	runtime.KeepAlive(p)
	if err := check(op, int32(st)); err != nil {
		logs := make(map[string]string, len(devices))
		for _, d := range devices {
			name := d.Name()
			if _, dup := logs[name]; dup {
				name = name + " (" + d.platform.Name() + ")"
			}
			logs[name] = p.BuildLog(d)
		}
		return &BuildError{Err: err, Options: options, Logs: logs}
	}
	return nil
}

// BuildLog returns the compiler's log for device d ("" if none).
func (p *Program) BuildLog(d *Device) string {
	if p.obj.alive() != nil {
		return ""
	}
	var size C.size_t
	if C.clGetProgramBuildInfo(p.h, d.id, C.CL_PROGRAM_BUILD_LOG, 0, nil, &size) != C.CL_SUCCESS || size == 0 {
		return ""
	}
	buf := make([]byte, size)
	st := C.clGetProgramBuildInfo(p.h, d.id, C.CL_PROGRAM_BUILD_LOG, size, unsafe.Pointer(&buf[0]), nil)
	runtime.KeepAlive(p)
	if st != C.CL_SUCCESS {
		return ""
	}
	return cString(buf)
}

// Devices returns the devices the program is associated with, in the order
// Binaries uses.
func (p *Program) Devices() ([]*Device, error) {
	if err := p.obj.alive(); err != nil {
		return nil, err
	}
	var n C.cl_uint
	if err := check("clGetProgramInfo", int32(C.clGetProgramInfo(p.h, C.CL_PROGRAM_NUM_DEVICES, C.size_t(unsafe.Sizeof(n)), unsafe.Pointer(&n), nil))); err != nil {
		return nil, err
	}
	ids := make([]C.cl_device_id, n)
	if n > 0 {
		if err := check("clGetProgramInfo", int32(C.clGetProgramInfo(p.h, C.CL_PROGRAM_DEVICES, C.size_t(uintptr(n)*unsafe.Sizeof(ids[0])), unsafe.Pointer(&ids[0]), nil))); err != nil {
			return nil, err
		}
	}
	runtime.KeepAlive(p)
	out := make([]*Device, n)
	for i, id := range ids {
		out[i] = &Device{id: id}
		for _, d := range p.ctx.devices {
			if d.id == id {
				out[i] = d
			}
		}
	}
	return out, nil
}

// Binaries returns the built program's binary for each device of
// Devices(), as the driver represents it (PTX text on NVIDIA, an ELF
// elsewhere).
func (p *Program) Binaries() ([][]byte, error) {
	const op = "clGetProgramInfo"
	devs, err := p.Devices()
	if err != nil {
		return nil, err
	}
	n := len(devs)
	if n == 0 {
		return nil, nil
	}
	sizes := make([]C.size_t, n)
	if err := check(op, int32(C.clGetProgramInfo(p.h, C.CL_PROGRAM_BINARY_SIZES, C.size_t(uintptr(n)*unsafe.Sizeof(sizes[0])), unsafe.Pointer(&sizes[0]), nil))); err != nil {
		return nil, err
	}
	// The driver writes through the pointers: give it C memory.
	ptrs := make([]*C.uchar, n)
	for i, s := range sizes {
		if s > 0 {
			ptrs[i] = (*C.uchar)(C.malloc(s))
		}
	}
	defer func() {
		for _, q := range ptrs {
			C.free(unsafe.Pointer(q))
		}
	}()
	st := C.clGetProgramInfo(p.h, C.CL_PROGRAM_BINARIES, C.size_t(uintptr(n)*unsafe.Sizeof(ptrs[0])), unsafe.Pointer(&ptrs[0]), nil)
	runtime.KeepAlive(p)
	if err := check(op, int32(st)); err != nil {
		return nil, err
	}
	out := make([][]byte, n)
	for i, s := range sizes {
		if s > 0 {
			out[i] = C.GoBytes(unsafe.Pointer(ptrs[i]), C.int(s))
		}
	}
	return out, nil
}

// KernelNames lists the kernels of a built program.
func (p *Program) KernelNames() ([]string, error) {
	if err := p.obj.alive(); err != nil {
		return nil, err
	}
	var size C.size_t
	if err := check("clGetProgramInfo", int32(C.clGetProgramInfo(p.h, C.CL_PROGRAM_KERNEL_NAMES, 0, nil, &size))); err != nil {
		return nil, err
	}
	buf := make([]byte, size+1)
	if err := check("clGetProgramInfo", int32(C.clGetProgramInfo(p.h, C.CL_PROGRAM_KERNEL_NAMES, size, unsafe.Pointer(&buf[0]), nil))); err != nil {
		return nil, err
	}
	runtime.KeepAlive(p)
	s := cString(buf)
	if s == "" {
		return nil, nil
	}
	return strings.Split(s, ";"), nil
}

// Release releases the program. Kernels created from it stay usable.
func (p *Program) Release() error {
	if !p.obj.begin() {
		return nil
	}
	return check("clReleaseProgram", int32(C.clReleaseProgram(p.h)))
}
