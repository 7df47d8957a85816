package cl

import (
	"fmt"
	"unsafe"
)

// QueueProperties are command-queue properties; values can be or-ed.
type QueueProperties uint64

// Queue properties.
const (
	QueueOutOfOrder QueueProperties = clQueueOutOfOrderExecModeEnable
	QueueProfiling  QueueProperties = clQueueProfilingEnable
)

// Queue is a command queue on one device.
type Queue struct {
	h      clCommandQueue
	ctx    *Context
	ctxh   clContext // the queue holds a driver reference to it
	device *Device
	props  QueueProperties
	obj    object
}

// CreateQueue creates a command queue on d, a device of the context. It
// uses clCreateCommandQueueWithProperties on OpenCL 2.0+ platforms and
// clCreateCommandQueue before that. Properties the device cannot do are an
// error (CL_INVALID_QUEUE_PROPERTIES).
func (c *Context) CreateQueue(d *Device, props QueueProperties) (*Queue, error) {
	if d == nil {
		return nil, &Error{Op: "clCreateCommandQueue", Code: InvalidDevice}
	}
	if props&QueueOutOfOrder != 0 && d.QueueProperties()&QueueOutOfOrder == 0 {
		return nil, fmt.Errorf("cl: device %q has no out-of-order queues: %w", d.Name(), &Error{Op: "clCreateCommandQueue", Code: InvalidQueueProperties})
	}
	if err := c.obj.acquire(); err != nil {
		return nil, err
	}
	defer c.obj.done()
	var st int32
	var h clCommandQueue
	op := "clCreateCommandQueue"
	if d.Platform().OpenCLVersion().AtLeast(2, 0) && d.OpenCLVersion().AtLeast(2, 0) {
		op = "clCreateCommandQueueWithProperties"
		p := []uint64{clQueueProperties, uint64(props), 0} // cl_queue_properties
		h = clCreateCommandQueueWithProperties(c.h, d.id, &p[0], &st)
	} else {
		h = clCreateCommandQueue(c.h, d.id, uint64(props), &st)
	}
	if err := check(op, st); err != nil {
		return nil, err
	}
	q := &Queue{h: h, ctx: c, ctxh: c.h, device: d, props: props}
	track(q, &q.obj, kindQueue, h)
	return q, nil
}

// Context returns the queue's context.
func (q *Queue) Context() *Context { return q.ctx }

// Device returns the queue's device.
func (q *Queue) Device() *Device { return q.device }

// Properties returns the properties the queue was created with.
func (q *Queue) Properties() QueueProperties { return q.props }

// ReferenceCount is the driver's reference count of the queue.
func (q *Queue) ReferenceCount() (int, error) {
	if err := q.obj.acquire(); err != nil {
		return 0, err
	}
	defer q.obj.done()
	var n uint32
	st := clGetCommandQueueInfo(q.h, clQueueReferenceCount, unsafe.Sizeof(n), unsafe.Pointer(&n), nil)
	return int(n), check("clGetCommandQueueInfo", st)
}

// Flush submits every queued command to the device.
func (q *Queue) Flush() error {
	if err := q.obj.acquire(); err != nil {
		return err
	}
	defer q.obj.done()
	return check("clFlush", clFlush(q.h))
}

// Finish blocks until every queued command has completed.
func (q *Queue) Finish() error {
	if err := q.obj.acquire(); err != nil {
		return err
	}
	defer q.obj.done()
	return check("clFinish", clFinish(q.h))
}

// Release releases the queue. It is safe to call more than once. Commands
// already enqueued still run.
func (q *Queue) Release() error {
	if q == nil {
		return nil
	}
	return q.obj.release("clReleaseCommandQueue")
}

// EnqueueKernel runs k over an NDRange of global work-items (1 to 3
// dimensions) in work-groups of local size (nil lets the driver choose),
// after the events of wait complete.
func (q *Queue) EnqueueKernel(k *Kernel, global, local []int, wait ...*Event) (*Event, error) {
	return q.EnqueueKernelOffset(k, nil, global, local, wait...)
}

// EnqueueKernelOffset is EnqueueKernel with a global work offset.
func (q *Queue) EnqueueKernelOffset(k *Kernel, offset, global, local []int, wait ...*Event) (*Event, error) {
	var ev clEvent
	if err := q.enqueueKernel(k, offset, global, local, wait, &ev); err != nil {
		return nil, err
	}
	return newEvent(ev), nil
}

// ndRange holds what clEnqueueNDRangeKernel reads through pointers: the
// sizes and the event it writes. Gathered in one struct, they cost one
// allocation (values whose address goes to C live on the heap).
type ndRange struct {
	g, l, o [3]uintptr
	ev      clEvent
}

// EnqueueKernelNoEvent is EnqueueKernel without an event: for callers that
// learn of the kernel's completion otherwise (a later marker or read on an
// in-order queue). The driver then need not create, and the caller need
// not release, an event per launch.
func (q *Queue) EnqueueKernelNoEvent(k *Kernel, global, local []int, wait ...*Event) error {
	return q.enqueueKernel(k, nil, global, local, wait, nil)
}

// enqueueKernel enqueues k; ev receives its event, unless it is nil.
func (q *Queue) enqueueKernel(k *Kernel, offset, global, local []int, wait []*Event, ev *clEvent) error {
	const op = "clEnqueueNDRangeKernel"
	if k == nil {
		return &Error{Op: op, Code: InvalidKernel}
	}
	dim := len(global)
	if dim < 1 || dim > 3 || (local != nil && len(local) != dim) || (offset != nil && len(offset) != dim) {
		return &Error{Op: op, Code: InvalidWorkDimension}
	}
	nd := new(ndRange)
	g, l, o := &nd.g, &nd.l, &nd.o
	for i := 0; i < dim; i++ {
		if global[i] <= 0 {
			return &Error{Op: op, Code: InvalidGlobalWorkSize}
		}
		g[i] = uintptr(global[i])
		if local != nil {
			if local[i] <= 0 {
				return &Error{Op: op, Code: InvalidWorkGroupSize}
			}
			l[i] = uintptr(local[i])
		}
		if offset != nil {
			if offset[i] < 0 {
				return &Error{Op: op, Code: InvalidGlobalOffset}
			}
			o[i] = uintptr(offset[i])
		}
	}
	var lp, offp *uintptr
	if local != nil {
		lp = &l[0]
	}
	if offset != nil {
		offp = &o[0]
	}
	if err := acquireAll(&q.obj, &k.obj); err != nil {
		return err
	}
	defer doneAll(&q.obj, &k.obj)
	var bufArr [8]*object
	bufs, err := k.acquireBufArgs(bufArr[:0])
	if err != nil {
		return err
	}
	defer doneAll(bufs...)
	wl, err := acquireWaitList(wait)
	if err != nil {
		return err
	}
	defer wl.done()
	n, w := wl.args()
	var evp *clEvent
	if ev != nil {
		evp = &nd.ev
	}
	st := clEnqueueNDRangeKernel(q.h, k.h, uint32(dim), offp, &g[0], lp, n, w, evp)
	if err := check(op, st); err != nil {
		return fmt.Errorf("cl: kernel %s: %w", k.name, err)
	}
	if ev != nil {
		*ev = nd.ev
	}
	return nil
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
	if err := q.obj.acquire(); err != nil {
		return nil, err
	}
	defer q.obj.done()
	wl, err := acquireWaitList(wait)
	if err != nil {
		return nil, err
	}
	defer wl.done()
	n, w := wl.args()
	var ev clEvent
	var st int32
	if barrier {
		st = clEnqueueBarrierWithWaitList(q.h, n, w, &ev)
	} else {
		st = clEnqueueMarkerWithWaitList(q.h, n, w, &ev)
	}
	if err := check(op, st); err != nil {
		return nil, err
	}
	return newEvent(ev), nil
}

// noop stands in for a command with nothing to do (a zero-length
// transfer): with no event to wait for it returns an event that is already
// complete; otherwise a marker on the wait list, waited for if blocking.
// The caller holds q.
func (q *Queue) noop(wait []*Event, blocking bool) (*Event, error) {
	pending := false
	for _, e := range wait {
		if e != nil {
			pending = true
		}
	}
	if !pending {
		var st int32
		h := clCreateUserEvent(q.ctxh, &st)
		if err := check("clCreateUserEvent", st); err != nil {
			return nil, err
		}
		e := newEvent(h)
		if err := e.SetComplete(); err != nil {
			e.Release()
			return nil, err
		}
		return e, nil
	}
	e, err := q.sync("clEnqueueMarkerWithWaitList", wait, false)
	if err != nil || !blocking {
		return e, err
	}
	if err := e.Wait(); err != nil {
		e.Release()
		return nil, err
	}
	return e, nil
}
