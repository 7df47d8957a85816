package clblas

import (
	"errors"

	eng "github.com/gocompute/opencl/internal/engine"

	"github.com/gocompute/opencl/cl"
)

// Events made on demand. A resident operation started with start runs
// its kernels without OpenCL events (engine.Call.Lazy): creating one per
// command costs more host time than the rest of a small operation, and a
// chain of operations is mostly waited for at its end. Its *Event then
// holds the queue instead; the first wait enqueues a marker there, which
// completes once every command submitted before it has, this operation's
// included. What a lazy Event cannot tell is the failure of its operation
// before a wait (failed reports nothing): a later operation that depends
// on it is enqueued in order behind it, as on any in-order queue.

// errAfterClose stands for a marker that could not be enqueued because the
// Implementation has closed: Close finished every command first.
var errAfterClose = errors.New("clblas: marker after close")

// lazyEvent is the Event of a call whose last command has no event.
func lazyEvent(e *eng.Engine) *Event {
	return &Event{eng: e, lazy: e.Queue}
}

// clEvent returns the OpenCL event of e: for a lazy Event, a marker
// enqueued on its queue the first time it is asked for.
func (e *Event) clEvent() (*cl.Event, error) {
	if e.lazy == nil {
		return e.ev, nil
	}
	e.mkOnce.Do(func() {
		ev, err := e.lazy.EnqueueMarker()
		switch {
		case err == nil:
			e.ev = ev
		case errors.Is(err, cl.ErrReleased):
			e.mkErr = errAfterClose
		default:
			e.mkErr = err
		}
	})
	return e.ev, e.mkErr
}

// waitDriver blocks in the driver until the operation completes.
func (e *Event) waitDriver() error {
	ev, err := e.clEvent()
	if errors.Is(err, errAfterClose) {
		return nil // Close waited for every command
	}
	if err != nil {
		return err
	}
	return ev.Wait()
}
