package cl

import (
	"fmt"
	"runtime"
	"strings"
	"unsafe"
)

// Program is an OpenCL program: sources or binaries, built for devices.
type Program struct {
	h   clProgram
	ctx *Context
	obj object
}

func newProgram(h clProgram, ctx *Context) *Program {
	p := &Program{h: h, ctx: ctx}
	track(p, &p.obj, kindProgram, h)
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
	// The driver reads the sources during the call only; an empty one
	// is passed as an empty NUL-terminated string.
	bufs := make([][]byte, len(sources))
	ps := make([]uintptr, len(sources))
	lens := make([]uintptr, len(sources))
	for i, s := range sources {
		bufs[i] = cstring(s)
		ps[i] = uintptr(unsafe.Pointer(&bufs[i][0]))
		lens[i] = uintptr(len(s))
	}
	var st int32
	h := clCreateProgramWithSource(c.h, uint32(len(ps)), &ps[0], &lens[0], &st)
	runtime.KeepAlive(bufs)
	if err := check(op, st); err != nil {
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
	ids := make([]clDeviceID, len(devices))
	lens := make([]uintptr, len(devices))
	for i, d := range devices {
		if d == nil {
			return nil, &Error{Op: op, Code: InvalidDevice}
		}
		if len(binaries[i]) == 0 {
			return nil, fmt.Errorf("cl: empty binary for device %d: %w", i, &Error{Op: op, Code: InvalidBinary})
		}
		ids[i] = d.id
		lens[i] = uintptr(len(binaries[i]))
	}
	if err := c.obj.acquire(); err != nil {
		return nil, err
	}
	defer c.obj.done()
	// The driver reads the binaries during the call only, through an
	// array of addresses: copies on the Go heap (which does not move
	// them; the caller's slices might be on a stack, which can), kept
	// alive until the call returns.
	bins := make([][]byte, len(binaries))
	ptrs := make([]uintptr, len(devices))
	for i, b := range binaries {
		bins[i] = append(make([]byte, 0, len(b)), b...)
		ptrs[i] = uintptr(unsafe.Pointer(&bins[i][0]))
	}
	status := make([]int32, len(devices))
	var st int32
	h := clCreateProgramWithBinary(c.h, uint32(len(ids)), &ids[0], &lens[0], &ptrs[0], &status[0], &st)
	runtime.KeepAlive(bins)
	if err := check(op, st); err != nil {
		for i, s := range status {
			if s != clSuccess && ErrorCode(s) != ErrorCode(st) {
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
	ids := make([]clDeviceID, len(devices))
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
	copts := cstring(options)
	var idp *clDeviceID
	if len(ids) > 0 {
		idp = &ids[0]
	}
	st := clBuildProgram(p.h, uint32(len(ids)), idp, &copts[0])
	if err := check(op, st); err != nil {
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
	var size uintptr
	if clGetProgramBuildInfo(p.h, d.id, clProgramBuildLog, 0, nil, &size) != clSuccess || size == 0 {
		return ""
	}
	buf := make([]byte, size)
	if clGetProgramBuildInfo(p.h, d.id, clProgramBuildLog, size, unsafe.Pointer(&buf[0]), nil) != clSuccess {
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
func (p *Program) deviceIDs() ([]clDeviceID, error) {
	var n uint32
	if err := check("clGetProgramInfo", clGetProgramInfo(p.h, clProgramNumDevices, unsafe.Sizeof(n), unsafe.Pointer(&n), nil)); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	ids := make([]clDeviceID, n)
	if err := check("clGetProgramInfo", clGetProgramInfo(p.h, clProgramDevices, uintptr(n)*unsafe.Sizeof(ids[0]), unsafe.Pointer(&ids[0]), nil)); err != nil {
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
	sizes := make([]uintptr, n)
	if err := check(op, clGetProgramInfo(p.h, clProgramBinarySizes, uintptr(n)*unsafe.Sizeof(sizes[0]), unsafe.Pointer(&sizes[0]), nil)); err != nil {
		return nil, err
	}
	// The driver writes through the pointers during the call: Go memory,
	// which the heap does not move, kept alive until the call returns.
	out := make([][]byte, n)
	ptrs := make([]uintptr, n)
	for i, s := range sizes {
		if s > 0 {
			out[i] = make([]byte, s)
			ptrs[i] = uintptr(unsafe.Pointer(&out[i][0]))
		}
	}
	st := clGetProgramInfo(p.h, clProgramBinaries, uintptr(n)*unsafe.Sizeof(ptrs[0]), unsafe.Pointer(&ptrs[0]), nil)
	runtime.KeepAlive(out)
	if err := check(op, st); err != nil {
		return nil, err
	}
	return out, nil
}

// KernelNames lists the kernels of a built program.
func (p *Program) KernelNames() ([]string, error) {
	if err := p.obj.acquire(); err != nil {
		return nil, err
	}
	defer p.obj.done()
	var size uintptr
	if err := check("clGetProgramInfo", clGetProgramInfo(p.h, clProgramKernelNames, 0, nil, &size)); err != nil {
		return nil, err
	}
	if size == 0 {
		return nil, nil
	}
	buf := make([]byte, size)
	if err := check("clGetProgramInfo", clGetProgramInfo(p.h, clProgramKernelNames, size, unsafe.Pointer(&buf[0]), nil)); err != nil {
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
	var n uint32
	st := clGetProgramInfo(p.h, clProgramReferenceCount, unsafe.Sizeof(n), unsafe.Pointer(&n), nil)
	return int(n), check("clGetProgramInfo", st)
}

// Retain returns a second reference to the program: a *Program of its
// own, released on its own, so that code which owns a program (a cache)
// can hand out references that their holders may release.
func (p *Program) Retain() (*Program, error) {
	if err := p.obj.acquire(); err != nil {
		return nil, err
	}
	defer p.obj.done()
	if err := check("clRetainProgram", clRetainProgram(p.h)); err != nil {
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
