package cl

/*
#include "clinc.h"
#include <stdint.h>
cl_int gocl_set_event_callback(cl_event e, uintptr_t handle);
*/
import "C"

import (
	"fmt"
	"runtime"
	"runtime/cgo"
	"sync"
	"time"
	"unsafe"
)

// Event is the handle of an enqueued command (or a user event). Release it
// when done; an event that completes still holds driver memory until then.
type Event struct {
	h   C.cl_event
	obj object

	mu     sync.Mutex
	pinner *runtime.Pinner // Go memory a non-blocking transfer still uses
}

func newEvent(h C.cl_event) *Event {
	e := &Event{h: h}
	track(e, &e.obj, kindEvent, h, func(h C.cl_event) { C.clReleaseEvent(h) })
	return e
}

// CommandStatus is an event's execution status. Negative values are errors.
type CommandStatus int32

// Execution statuses.
const (
	Complete  CommandStatus = C.CL_COMPLETE
	Running   CommandStatus = C.CL_RUNNING
	Submitted CommandStatus = C.CL_SUBMITTED
	Queued    CommandStatus = C.CL_QUEUED
)

func (s CommandStatus) String() string {
	switch s {
	case Complete:
		return "complete"
	case Running:
		return "running"
	case Submitted:
		return "submitted"
	case Queued:
		return "queued"
	}
	return "failed: " + ErrorCode(s).Error()
}

// Err returns nil for a non-negative status and the ErrorCode otherwise.
func (s CommandStatus) Err() error {
	if s >= 0 {
		return nil
	}
	return ErrorCode(s)
}

// Status returns the command's current execution status.
func (e *Event) Status() (CommandStatus, error) {
	if err := e.obj.alive(); err != nil {
		return 0, err
	}
	var s C.cl_int
	st := C.clGetEventInfo(e.h, C.CL_EVENT_COMMAND_EXECUTION_STATUS, C.size_t(unsafe.Sizeof(s)), unsafe.Pointer(&s), nil)
	runtime.KeepAlive(e)
	return CommandStatus(s), check("clGetEventInfo", int32(st))
}

// Wait blocks until the command completes. It returns an error if the
// command (or one it waited on) failed.
func (e *Event) Wait() error { return WaitForEvents(e) }

// WaitForEvents blocks until every event completes. Nil events are ignored.
func WaitForEvents(events ...*Event) error {
	hs, err := handles(events)
	if err != nil || len(hs) == 0 {
		return err
	}
	st := C.clWaitForEvents(C.cl_uint(len(hs)), &hs[0])
	runtime.KeepAlive(events)
	if ErrorCode(st) == ExecStatusErrorForEvents {
		for _, e := range events {
			if e == nil {
				continue
			}
			if s, err := e.Status(); err == nil && s < 0 {
				return &Error{Op: "clWaitForEvents", Code: ErrorCode(s)}
			}
		}
	}
	return check("clWaitForEvents", int32(st))
}

// handles returns the C handles of the non-nil events of a wait list.
func handles(events []*Event) ([]C.cl_event, error) {
	var hs []C.cl_event
	for _, e := range events {
		if e == nil {
			continue
		}
		if err := e.obj.alive(); err != nil {
			return nil, fmt.Errorf("cl: event in wait list: %w", err)
		}
		hs = append(hs, e.h)
	}
	return hs, nil
}

// waitList returns the count and pointer a clEnqueue* call takes.
func waitList(events []*Event) (C.cl_uint, *C.cl_event, error) {
	hs, err := handles(events)
	if err != nil || len(hs) == 0 {
		return 0, nil, err
	}
	return C.cl_uint(len(hs)), &hs[0], nil
}

// ProfileTimes are an event's device timestamps in nanoseconds. They are
// available only for commands of a queue created with QueueProfiling.
type ProfileTimes struct {
	Queued, Submit, Start, End uint64
}

// Duration is the command's execution time (End − Start).
func (p ProfileTimes) Duration() time.Duration { return time.Duration(p.End - p.Start) }

// Profile returns the command's timestamps; the command must be complete.
func (e *Event) Profile() (ProfileTimes, error) {
	if err := e.obj.alive(); err != nil {
		return ProfileTimes{}, err
	}
	var p ProfileTimes
	for _, q := range []struct {
		param C.cl_profiling_info
		dst   *uint64
	}{
		{C.CL_PROFILING_COMMAND_QUEUED, &p.Queued},
		{C.CL_PROFILING_COMMAND_SUBMIT, &p.Submit},
		{C.CL_PROFILING_COMMAND_START, &p.Start},
		{C.CL_PROFILING_COMMAND_END, &p.End},
	} {
		var v C.cl_ulong
		st := C.clGetEventProfilingInfo(e.h, q.param, C.size_t(unsafe.Sizeof(v)), unsafe.Pointer(&v), nil)
		if err := check("clGetEventProfilingInfo", int32(st)); err != nil {
			return ProfileTimes{}, err
		}
		*q.dst = uint64(v)
	}
	runtime.KeepAlive(e)
	return p, nil
}

// OnComplete arranges for fn to run (on a driver thread) once the command
// completes; its argument is nil, or the error the command failed with. fn
// must not block.
func (e *Event) OnComplete(fn func(err error)) error {
	if err := e.obj.alive(); err != nil {
		return err
	}
	h := cgo.NewHandle(fn)
	st := C.gocl_set_event_callback(e.h, C.uintptr_t(h))
	runtime.KeepAlive(e)
	if err := check("clSetEventCallback", int32(st)); err != nil {
		h.Delete()
		return err
	}
	return nil
}

//export goclEventDone
func goclEventDone(handle C.uintptr_t, status C.cl_int) {
	h := cgo.Handle(handle)
	fn := h.Value().(func(error))
	h.Delete()
	fn(CommandStatus(status).Err())
}

// pin keeps Go memory pinned until the command completes (the cgo rules
// forbid C from holding an unpinned Go pointer after the call returns).
func (e *Event) pin(p *runtime.Pinner) error {
	e.mu.Lock()
	e.pinner = p
	e.mu.Unlock()
	return e.OnComplete(func(error) {
		e.mu.Lock()
		if e.pinner != nil {
			e.pinner.Unpin()
			e.pinner = nil
		}
		e.mu.Unlock()
	})
}

// CreateUserEvent creates an event whose status the host sets with
// SetComplete or SetFailed; commands can wait on it.
func (c *Context) CreateUserEvent() (*Event, error) {
	if err := c.obj.alive(); err != nil {
		return nil, err
	}
	var st C.cl_int
	h := C.clCreateUserEvent(c.h, &st)
	runtime.KeepAlive(c)
	if err := check("clCreateUserEvent", int32(st)); err != nil {
		return nil, err
	}
	return newEvent(h), nil
}

// SetComplete marks a user event complete.
func (e *Event) SetComplete() error { return e.setUserStatus(C.CL_COMPLETE) }

// SetFailed marks a user event failed with a negative code; commands
// waiting on it are not run.
func (e *Event) SetFailed(code ErrorCode) error {
	if code >= 0 {
		return &Error{Op: "clSetUserEventStatus", Code: InvalidValue}
	}
	return e.setUserStatus(C.cl_int(code))
}

func (e *Event) setUserStatus(s C.cl_int) error {
	if err := e.obj.alive(); err != nil {
		return err
	}
	st := C.clSetUserEventStatus(e.h, s)
	runtime.KeepAlive(e)
	return check("clSetUserEventStatus", int32(st))
}

// Release releases the event. It is safe to call more than once and
// before the command completes (the command still runs).
func (e *Event) Release() error {
	if e == nil || !e.obj.begin() {
		return nil
	}
	return check("clReleaseEvent", int32(C.clReleaseEvent(e.h)))
}

// ReleaseAll releases every non-nil event.
func ReleaseAll(events ...*Event) {
	for _, e := range events {
		e.Release()
	}
}
