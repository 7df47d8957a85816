package cl

/*
#include "clinc.h"
*/
import "C"

import (
	"errors"
	"unsafe"
)

// Context is an OpenCL context over one or more devices of one platform.
type Context struct {
	h       C.cl_context
	devices []*Device
	obj     object
}

// CreateContext creates a context for the given devices, which must all
// belong to one platform.
func CreateContext(devices ...*Device) (*Context, error) {
	if len(devices) == 0 {
		return nil, &Error{Op: "clCreateContext", Code: InvalidValue}
	}
	ids := make([]C.cl_device_id, len(devices))
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
	var props []C.cl_context_properties
	if p.id != nil {
		props = []C.cl_context_properties{C.CL_CONTEXT_PLATFORM, C.cl_context_properties(uintptr(unsafe.Pointer(p.id))), 0}
	}
	var pp *C.cl_context_properties
	if props != nil {
		pp = &props[0]
	}
	var st C.cl_int
	h := C.clCreateContext(pp, C.cl_uint(len(ids)), &ids[0], nil, nil, &st)
	if err := check("clCreateContext", int32(st)); err != nil {
		return nil, err
	}
	c := &Context{h: h, devices: append([]*Device(nil), devices...)}
	track(c, &c.obj, kindContext, h, func(h C.cl_context) int32 { return int32(C.clReleaseContext(h)) })
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
	var n C.cl_uint
	st := C.clGetContextInfo(c.h, C.CL_CONTEXT_REFERENCE_COUNT, C.size_t(unsafe.Sizeof(n)), unsafe.Pointer(&n), nil)
	return int(n), check("clGetContextInfo", int32(st))
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
