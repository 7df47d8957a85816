package clblas

import (
	"errors"

	eng "github.com/gocompute/opencl/internal/engine"

	"github.com/gocompute/opencl/cl"
)

// slotAfter is a result slot and the event of the read into it: the
// cleanup of a Scalar dropped without Value frees the slot once the read
// has completed.
type slotAfter struct {
	slot *eng.Slot
	ev   *Event
}

// freeSlot frees a dropped Scalar's slot: at once when its read has
// completed (the usual case by the time the Scalar is collected), else on
// a goroutine that waits for the read first.
func freeSlot(a slotAfter) {
	if a.ev.finished() {
		a.slot.Free()
		return
	}
	go func() {
		a.ev.Wait()
		a.slot.Free()
	}()
}

// finished reports whether the operation has completed or failed.
func (e *Event) finished() bool {
	if ok, _ := e.outcome(); ok {
		return true
	}
	if e.lazy != nil {
		return false
	}
	s, err := e.ev.Status()
	if errors.Is(err, cl.ErrReleased) {
		return true // a wait saw it complete, and recorded the outcome first
	}
	if err != nil {
		return false
	}
	return s == cl.Complete || s < 0
}
