package cl

/*
#include "clinc.h"
*/
import "C"

import (
	"fmt"
	"runtime"
)

// QueueProperties are command-queue properties; values can be or-ed.
type QueueProperties uint64

// Queue properties.
const (
	QueueOutOfOrder QueueProperties = C.CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
	QueueProfiling  QueueProperties = C.CL_QUEUE_PROFILING_ENABLE
)

// Queue is a command queue on one device.
type Queue struct {
	h      C.cl_command_queue
	ctx    *Context
	device *Device
	props  QueueProperties
	obj    object
}

// CreateQueue creates a command queue on d, a device of the context. It
// uses clCreateCommandQueueWithProperties on OpenCL 2.0+ platforms and
// clCreateCommandQueue before that. Properties the device cannot do are an
// error (CL_INVALID_QUEUE_PROPERTIES).
func (c *Context) CreateQueue(d *Device, props QueueProperties) (*Queue, error) {
	if err := c.obj.alive(); err != nil {
		return nil, err
	}
	if props&QueueOutOfOrder != 0 && d.QueueProperties()&QueueOutOfOrder == 0 {
		return nil, fmt.Errorf("cl: device %q has no out-of-order queues: %w", d.Name(), &Error{Op: "clCreateCommandQueue", Code: InvalidQueueProperties})
	}
	var st C.cl_int
	var h C.cl_command_queue
	if d.platform.OpenCLVersion().AtLeast(2, 0) && d.OpenCLVersion().AtLeast(2, 0) {
		p := []C.cl_queue_properties{C.CL_QUEUE_PROPERTIES, C.cl_queue_properties(props), 0}
		h = C.clCreateCommandQueueWithProperties(c.h, d.id, &p[0], &st)
		if err := check("clCreateCommandQueueWithProperties", int32(st)); err != nil {
			return nil, err
		}
	} else {
		h = C.clCreateCommandQueue(c.h, d.id, C.cl_command_queue_properties(props), &st)
		if err := check("clCreateCommandQueue", int32(st)); err != nil {
			return nil, err
		}
	}
	runtime.KeepAlive(c)
	q := &Queue{h: h, ctx: c, device: d, props: props}
	track(q, &q.obj, kindQueue, h, func(h C.cl_command_queue) { C.clReleaseCommandQueue(h) })
	return q, nil
}

// Context returns the queue's context.
func (q *Queue) Context() *Context { return q.ctx }

// Device returns the queue's device.
func (q *Queue) Device() *Device { return q.device }

// Properties returns the properties the queue was created with.
func (q *Queue) Properties() QueueProperties { return q.props }

// Flush submits every queued command to the device.
func (q *Queue) Flush() error {
	if err := q.obj.alive(); err != nil {
		return err
	}
	st := C.clFlush(q.h)
	runtime.KeepAlive(q)
	return check("clFlush", int32(st))
}

// Finish blocks until every queued command has completed.
func (q *Queue) Finish() error {
	if err := q.obj.alive(); err != nil {
		return err
	}
	st := C.clFinish(q.h)
	runtime.KeepAlive(q)
	return check("clFinish", int32(st))
}

// Release releases the queue. It is safe to call more than once.
func (q *Queue) Release() error {
	if !q.obj.begin() {
		return nil
	}
	return check("clReleaseCommandQueue", int32(C.clReleaseCommandQueue(q.h)))
}

// EnqueueKernel runs k over an NDRange of global work-items (1 to 3
// dimensions) in work-groups of local size (nil lets the driver choose),
// after the events of wait complete.
func (q *Queue) EnqueueKernel(k *Kernel, global, local []int, wait ...*Event) (*Event, error) {
	return q.EnqueueKernelOffset(k, nil, global, local, wait...)
}

// EnqueueKernelOffset is EnqueueKernel with a global work offset.
func (q *Queue) EnqueueKernelOffset(k *Kernel, offset, global, local []int, wait ...*Event) (*Event, error) {
	const op = "clEnqueueNDRangeKernel"
	if err := q.obj.alive(); err != nil {
		return nil, err
	}
	if err := k.obj.alive(); err != nil {
		return nil, err
	}
	dim := len(global)
	if dim < 1 || dim > 3 || (local != nil && len(local) != dim) || (offset != nil && len(offset) != dim) {
		return nil, &Error{Op: op, Code: InvalidWorkDimension}
	}
	var g, l, o [3]C.size_t
	for i := 0; i < dim; i++ {
		if global[i] <= 0 {
			return nil, &Error{Op: op, Code: InvalidGlobalWorkSize}
		}
		g[i] = C.size_t(global[i])
		if local != nil {
			l[i] = C.size_t(local[i])
		}
		if offset != nil {
			o[i] = C.size_t(offset[i])
		}
	}
	var lp, op_ *C.size_t
	if local != nil {
		lp = &l[0]
	}
	if offset != nil {
		op_ = &o[0]
	}
	n, w, err := waitList(wait)
	if err != nil {
		return nil, err
	}
	var ev C.cl_event
	st := C.clEnqueueNDRangeKernel(q.h, k.h, C.cl_uint(dim), op_, &g[0], lp, n, w, &ev)
	runtime.KeepAlive(q)
	runtime.KeepAlive(k)
	runtime.KeepAlive(wait)
	if err := check(op, int32(st)); err != nil {
		return nil, err
	}
	return newEvent(ev), nil
}

// EnqueueMarker enqueues a marker that completes when the events of wait
// (or, with none, every earlier command) have completed.
func (q *Queue) EnqueueMarker(wait ...*Event) (*Event, error) {
	return q.sync("clEnqueueMarkerWithWaitList", wait, false)
}

// EnqueueBarrier is EnqueueMarker that also blocks later commands of an
// out-of-order queue until it completes.
func (q *Queue) EnqueueBarrier(wait ...*Event) (*Event, error) {
	return q.sync("clEnqueueBarrierWithWaitList", wait, true)
}

func (q *Queue) sync(op string, wait []*Event, barrier bool) (*Event, error) {
	if err := q.obj.alive(); err != nil {
		return nil, err
	}
	n, w, err := waitList(wait)
	if err != nil {
		return nil, err
	}
	var ev C.cl_event
	var st C.cl_int
	if barrier {
		st = C.clEnqueueBarrierWithWaitList(q.h, n, w, &ev)
	} else {
		st = C.clEnqueueMarkerWithWaitList(q.h, n, w, &ev)
	}
	runtime.KeepAlive(q)
	runtime.KeepAlive(wait)
	if err := check(op, int32(st)); err != nil {
		return nil, err
	}
	return newEvent(ev), nil
}
