package cl

import (
	"context"
	"sync"
)

// Waiting for an event from Go: a channel to select on, and a wait that
// gives up when a context is done.
//
// Both start one goroutine per pending event that waits in the driver
// (clWaitForEvents), shared by every Done and WaitContext on that event
// while it is pending. A completion callback would spare the goroutine,
// but some drivers (PoCL 3.1) never call it for a command that failed,
// and the channel would then never close.

// eventWaiter is the shared background wait of one event.
type eventWaiter struct {
	done chan struct{}
	err  error // set before done is closed
}

var eventWaiters sync.Map // *Event → *eventWaiter, while the wait runs

func (e *Event) waiter() *eventWaiter {
	w := &eventWaiter{done: make(chan struct{})}
	if old, loaded := eventWaiters.LoadOrStore(e, w); loaded {
		return old.(*eventWaiter)
	}
	go func() {
		w.err = e.Wait()
		eventWaiters.Delete(e)
		close(w.done)
	}()
	return w
}

// Done returns a channel that is closed when the command has completed or
// failed (Wait then returns at once, with the command's error).
func (e *Event) Done() <-chan struct{} { return e.waiter().done }

// WaitContext blocks until the command completes or ctx is done. A
// cancelled wait returns ctx.Err() at once; the command itself still runs.
func (e *Event) WaitContext(ctx context.Context) error {
	if ctx.Done() == nil {
		return e.Wait()
	}
	w := e.waiter()
	select {
	case <-w.done:
		return w.err
	case <-ctx.Done():
		return ctx.Err()
	}
}
