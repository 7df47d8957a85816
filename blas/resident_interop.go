package clblas

import (
	"fmt"

	"github.com/gocompute/opencl/cl"
)

// Mixing the resident API with your own OpenCL code.
//
// Resident operations are enqueued on the Implementation's in-order queue,
// Runtime().Queue(); a kernel enqueued there with a Matrix's or Vector's
// Buffer as an argument runs after the operations submitted before it and
// before those submitted after it, with no event needed. The conversions
// below are for the rest: a BLAS call that should fail if a kernel did,
// and commands on other queues that must wait for a BLAS call.

// EventFromCL wraps ev, the event of a command enqueued on a queue of the
// Implementation's context (a custom kernel, a transfer), as an *Event: it
// can be waited on like any other and passed as a dependency to resident
// operations, which then fail if the command failed. The *Event takes
// over ev: do not release ev yourself.
func EventFromCL(ev *cl.Event) *Event {
	if ev == nil {
		return nil
	}
	return newEvent(ev)
}

// CL returns an OpenCL event of ctx (Implementation.Runtime().Context())
// that completes when e does, or fails when e fails, for the wait list of
// a command on another queue. Release it when done. It is a user event
// that one goroutine completes, so that it outlives e's own OpenCL event.
func (e *Event) CL(ctx *cl.Context) (*cl.Event, error) {
	if e == nil {
		return nil, fmt.Errorf("clblas: Event.CL: nil event")
	}
	u, err := ctx.CreateUserEvent()
	if err != nil {
		return nil, fmt.Errorf("clblas: Event.CL: %w", err)
	}
	settle := func(err error) {
		if err != nil {
			u.SetFailed(cl.ExecStatusErrorForEvents)
		} else {
			u.SetComplete()
		}
	}
	if ok, err := e.outcome(); ok {
		settle(err)
	} else {
		go func() { settle(e.Wait()) }()
	}
	return u, nil
}
