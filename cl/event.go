package cl

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Event is the handle of an enqueued command (or a user event). Release it
// when done; an event that completes still holds driver memory until then.
type Event struct {
	h   clEvent
	obj object

	mu     sync.Mutex
	pinner *runtime.Pinner // Go memory a non-blocking transfer still uses

	userSet atomic.Bool // a user event's status has been set
}

func newEvent(h clEvent) *Event {
	e := &Event{h: h}
	track(e, &e.obj, kindEvent, h)
	return e
}

// CommandStatus is an event's execution status. Negative values are errors.
type CommandStatus int32

// Execution statuses.
const (
	Complete  CommandStatus = clComplete
	Running   CommandStatus = clRunning
	Submitted CommandStatus = clSubmitted
	Queued    CommandStatus = clQueued
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
	if s < 0 {
		return "failed: " + ErrorCode(s).Error()
	}
	return fmt.Sprintf("CommandStatus(%d)", int32(s))
}

// Err returns nil for a non-negative status and a *CommandError
// otherwise.
func (s CommandStatus) Err() error {
	if s >= 0 {
		return nil
	}
	return &CommandError{Op: "command", Status: s}
}

// CommandError is an enqueued command that failed: its negative execution
// status. The status is an error code when the driver knows why; drivers
// use -1 for a command that was not run because an event it waited on
// failed (PoCL does), so -1 is not read as CL_DEVICE_NOT_FOUND here.
type CommandError struct {
	Op     string        // where the failure was seen ("clWaitForEvents", …)
	Status CommandStatus // the negative execution status
}

func (e *CommandError) Error() string {
	s := fmt.Sprintf("cl: %s: command failed with execution status %d", e.Op, int32(e.Status))
	if e.Status < -1 {
		s += " (" + ErrorCode(e.Status).Error() + ")"
	}
	return s
}

// Unwrap returns the status as an ErrorCode (errors.Is(err,
// cl.OutOfResources) works) and, for a failure seen in a wait list,
// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
func (e *CommandError) Unwrap() []error {
	errs := []error{ErrorCode(e.Status)}
	if e.Op != "command" {
		errs = append(errs, ExecStatusErrorForEvents)
	}
	return errs
}

// Status returns the command's current execution status.
func (e *Event) Status() (CommandStatus, error) {
	if err := e.obj.acquire(); err != nil {
		return 0, err
	}
	defer e.obj.done()
	s, err := e.status()
	if err == nil && (s < 0 || s == Complete) {
		e.unpin()
	}
	return s, err
}

// status queries the execution status; the caller holds e.
func (e *Event) status() (CommandStatus, error) {
	var s int32
	st := clGetEventInfo(e.h, clEventCommandExecutionStatus, unsafe.Sizeof(s), unsafe.Pointer(&s), nil)
	return CommandStatus(s), check("clGetEventInfo", st)
}

// ReferenceCount is the driver's reference count of the event.
func (e *Event) ReferenceCount() (int, error) {
	if err := e.obj.acquire(); err != nil {
		return 0, err
	}
	defer e.obj.done()
	var n uint32
	st := clGetEventInfo(e.h, clEventReferenceCount, unsafe.Sizeof(n), unsafe.Pointer(&n), nil)
	return int(n), check("clGetEventInfo", st)
}

// Wait blocks until the command completes. It returns an error if the
// command (or one it waited on) failed.
func (e *Event) Wait() error { return WaitForEvents(e) }

// WaitForEvents blocks until every event completes. Nil events are ignored.
// If a command failed, the error is a *CommandError (wrapping its status
// and CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST).
func WaitForEvents(events ...*Event) error {
	wl, err := acquireEvents(events)
	if err != nil {
		return err
	}
	defer wl.done()
	if len(wl.hs) == 0 {
		return nil
	}
	st := clWaitForEvents(uint32(len(wl.hs)), &wl.hs[0])
	var failed error
	for _, e := range wl.events {
		// Commands that finished, well or badly, no longer use the host
		// memory of a non-blocking transfer. The completion callback
		// unpins it too, but some drivers (PoCL 3.1) never call it for a
		// command that failed.
		e.mu.Lock()
		pinned := e.pinner != nil
		e.mu.Unlock()
		if !pinned && failed != nil {
			continue
		}
		// Asked after a successful wait too: NVIDIA's driver answered
		// CL_SUCCESS for a user event set to an error (a failed
		// dependency in TestResidentQRFailedDependency).
		s, err := e.status()
		if err != nil {
			continue
		}
		if s < 0 || s == Complete {
			e.unpin()
		}
		if s < 0 && failed == nil {
			failed = &CommandError{Op: "clWaitForEvents", Status: s}
		}
	}
	switch {
	case failed != nil && (st == clSuccess || ErrorCode(st) == ExecStatusErrorForEvents):
		return failed
	case st == clSuccess:
		return nil
	}
	return check("clWaitForEvents", st)
}

// waitList is an acquired list of events for a clEnqueue* call.
type waitList struct {
	events []*Event
	hs     []clEvent
}

// noWaits is the empty wait list, shared (it is never written): most
// commands wait for nothing, and then acquire allocates nothing.
var noWaits waitList

// acquireWaitList acquires the non-nil events of a wait list and collects
// their handles. An event that has already failed is an error: the
// command could never run, and some drivers (PoCL 3.1) would leave it
// pending for ever. The caller must call done.
func acquireWaitList(events []*Event) (*waitList, error) {
	wl, err := acquireEvents(events)
	if err != nil {
		return nil, err
	}
	for _, e := range wl.events {
		if s, err := e.status(); err == nil && s < 0 {
			wl.done()
			return nil, &CommandError{Op: "event in wait list", Status: s}
		}
	}
	return wl, nil
}

func acquireEvents(events []*Event) (*waitList, error) {
	if len(events) == 0 {
		return &noWaits, nil
	}
	wl := &waitList{}
	for _, e := range events {
		if e == nil {
			continue
		}
		if err := e.obj.acquire(); err != nil {
			wl.done()
			return nil, fmt.Errorf("cl: event in wait list: %w", err)
		}
		wl.events = append(wl.events, e)
		wl.hs = append(wl.hs, e.h)
	}
	return wl, nil
}

// args returns the count and pointer a clEnqueue* call takes.
func (wl *waitList) args() (uint32, *clEvent) {
	if len(wl.hs) == 0 {
		return 0, nil
	}
	return uint32(len(wl.hs)), &wl.hs[0]
}

func (wl *waitList) done() {
	if len(wl.events) == 0 {
		return // noWaits among them: shared, never written
	}
	for _, e := range wl.events {
		e.obj.done()
	}
	wl.events = nil
}

// ProfileTimes are an event's device timestamps in nanoseconds. They are
// available only for commands of a queue created with QueueProfiling.
type ProfileTimes struct {
	Queued, Submit, Start, End uint64
}

// Duration is the command's execution time (End − Start).
func (p ProfileTimes) Duration() time.Duration { return time.Duration(p.End - p.Start) }

// Profile returns the command's timestamps; the command must be complete.
// Without QueueProfiling the error wraps CL_PROFILING_INFO_NOT_AVAILABLE.
func (e *Event) Profile() (ProfileTimes, error) {
	if err := e.obj.acquire(); err != nil {
		return ProfileTimes{}, err
	}
	defer e.obj.done()
	var p ProfileTimes
	for _, q := range []struct {
		param uint32
		dst   *uint64
	}{
		{clProfilingCommandQueued, &p.Queued},
		{clProfilingCommandSubmit, &p.Submit},
		{clProfilingCommandStart, &p.Start},
		{clProfilingCommandEnd, &p.End},
	} {
		var v uint64
		st := clGetEventProfilingInfo(e.h, q.param, unsafe.Sizeof(v), unsafe.Pointer(&v), nil)
		if err := check("clGetEventProfilingInfo", st); err != nil {
			return ProfileTimes{}, err
		}
		*q.dst = uint64(v)
	}
	return p, nil
}

// OnComplete arranges for fn to run once the command completes or fails;
// its argument is nil, or the error the command failed with. If the
// command has already completed, fn still runs (possibly before OnComplete
// returns). fn runs on a driver thread and must not block; it must not
// call Wait or Finish.
func (e *Event) OnComplete(fn func(err error)) error {
	if fn == nil {
		return fmt.Errorf("cl: OnComplete: nil function: %w", &Error{Op: "clSetEventCallback", Code: InvalidValue})
	}
	if err := e.obj.acquire(); err != nil {
		return err
	}
	defer e.obj.done()
	h := register(fn)
	st := clSetEventCallback(e.h, clComplete, eventTrampoline, h)
	if err := check("clSetEventCallback", st); err != nil {
		unregister(h)
		return err
	}
	return nil
}

// pin keeps Go memory pinned until the command completes: memory the
// driver reads or writes after the call returns must neither move nor be
// freed (the rule cgo states for C holding a Go pointer).
// The callback's closure keeps e, and so p, reachable until then. If the
// command has already completed, the driver calls the callback at once.
// A non-nil error means the command failed (after it had finished).
func (e *Event) pin(p *runtime.Pinner) error {
	e.mu.Lock()
	e.pinner = p
	e.mu.Unlock()
	if err := e.OnComplete(func(error) { e.unpin() }); err != nil {
		// Without a completion callback the only safe course is to wait
		// for the command before letting go of the memory.
		werr := e.Wait()
		e.unpin()
		return werr
	}
	return nil
}

func (e *Event) unpin() {
	e.mu.Lock()
	if e.pinner != nil {
		e.pinner.Unpin()
		e.pinner = nil
	}
	e.mu.Unlock()
}

// CreateUserEvent creates an event whose status the host sets with
// SetComplete or SetFailed; commands can wait on it.
func (c *Context) CreateUserEvent() (*Event, error) {
	if err := c.obj.acquire(); err != nil {
		return nil, err
	}
	defer c.obj.done()
	var st int32
	h := clCreateUserEvent(c.h, &st)
	if err := check("clCreateUserEvent", st); err != nil {
		return nil, err
	}
	return newEvent(h), nil
}

// SetComplete marks a user event complete. It may be called once: a
// second SetComplete or SetFailed returns an error wrapping
// CL_INVALID_OPERATION (checked here, as not every driver does).
func (e *Event) SetComplete() error { return e.setUserStatus(clComplete) }

// SetFailed marks a user event failed with a negative code; commands
// waiting on it are not run and their events fail.
func (e *Event) SetFailed(code ErrorCode) error {
	if code >= 0 {
		return &Error{Op: "clSetUserEventStatus", Code: InvalidValue}
	}
	return e.setUserStatus(int32(code))
}

func (e *Event) setUserStatus(s int32) error {
	if err := e.obj.acquire(); err != nil {
		return err
	}
	defer e.obj.done()
	if !e.userSet.CompareAndSwap(false, true) {
		return &Error{Op: "clSetUserEventStatus", Code: InvalidOperation}
	}
	err := check("clSetUserEventStatus", clSetUserEventStatus(e.h, s))
	if err != nil {
		e.userSet.Store(false) // not set (e.g. not a user event)
	}
	return err
}

// Release releases the event. It is safe to call more than once and
// before the command completes (the command still runs).
func (e *Event) Release() error {
	if e == nil {
		return nil
	}
	return e.obj.release("clReleaseEvent")
}

// ReleaseAll releases every non-nil event.
func ReleaseAll(events ...*Event) {
	for _, e := range events {
		e.Release()
	}
}
