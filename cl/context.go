package cl

import (
	"errors"
	"unsafe"
)

// Context is an OpenCL context over one or more devices of one platform.
type Context struct {
	h       clContext
	devices []*Device
	obj     object
}

// CreateContext creates a context for the given devices, which must all
// belong to one platform.
func CreateContext(devices ...*Device) (*Context, error) {
	if len(devices) == 0 {
		return nil, &Error{Op: "clCreateContext", Code: InvalidValue}
	}
	ids := make([]clDeviceID, len(devices))
	var p *Platform
	for i, d := range devices {
		if d == nil {
			return nil, &Error{Op: "clCreateContext", Code: InvalidDevice}
		}
		if i == 0 {
			p = d.Platform()
		} else if d.Platform().id != p.id {
			return nil, errors.New("cl: CreateContext: devices belong to different platforms")
		}
		ids[i] = d.id
	}
	var props []uintptr // cl_context_properties: intptr_t
	if p.id != 0 {
		props = []uintptr{clContextPlatform, uintptr(p.id), 0}
	}
	var pp *uintptr
	if props != nil {
		pp = &props[0]
	}
	var st int32
	h := clCreateContext(pp, uint32(len(ids)), &ids[0], &st)
	if err := check("clCreateContext", st); err != nil {
		return nil, err
	}
	c := &Context{h: h, devices: append([]*Device(nil), devices...)}
	track(c, &c.obj, kindContext, h)
	return c, nil
}

// Devices returns the context's devices.
func (c *Context) Devices() []*Device { return append([]*Device(nil), c.devices...) }

// ReferenceCount is the driver's reference count of the context. Every
// buffer, queue, program and event of the context holds a reference in
// most drivers, so it is a driver-side check that nothing leaked.
func (c *Context) ReferenceCount() (int, error) {
	if err := c.obj.acquire(); err != nil {
		return 0, err
	}
	defer c.obj.done()
	var n uint32
	st := clGetContextInfo(c.h, clContextReferenceCount, unsafe.Sizeof(n), unsafe.Pointer(&n), nil)
	return int(n), check("clGetContextInfo", st)
}

// Release releases the context. It is safe to call more than once. The
// driver keeps the context until its queues, buffers, programs and events
// are released too.
func (c *Context) Release() error {
	if c == nil {
		return nil
	}
	return c.obj.release("clReleaseContext")
}
