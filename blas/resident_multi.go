package clblas

import (
	"errors"
	"fmt"

	"github.com/gocompute/opencl/cl"
	eng "github.com/gocompute/opencl/internal/engine"
)

// Resident data on several devices. Each Matrix and Vector lives on the
// device of the Implementation that made it (impl.OnDevice(i) for device
// i of a multi-device Implementation); operations whose operands live on
// different devices are an error. CopyMatrix and CopyVector move data
// between devices, asynchronously, and every operation may wait for events
// of any device: an event of another device's queue is waited for through
// a user event of the call's context, which a goroutine completes when the
// event does.

// engineEvent wraps ev, an event of engine e's queue.
func engineEvent(ev *cl.Event, e *eng.Engine) *Event {
	out := newEvent(ev)
	out.eng = e
	return out
}

// waitForeign makes the commands c enqueues after it wait for w, an event
// of another engine: a barrier on c's queue waits for a user event of c's
// context that completes (or fails) with w.
func waitForeign(c *eng.Call, w *Event) {
	if c.Err != nil {
		return
	}
	if err := w.failed(); err != nil {
		c.Fail(fmt.Errorf("a dependency failed: %w", err))
		return
	}
	u, err := c.E.RT.Context().CreateUserEvent()
	if err != nil {
		c.Fail(err)
		return
	}
	ev, err := c.E.Queue.EnqueueBarrier(u)
	// Complete u with w, then drop this reference: the barrier holds the
	// runtime's own until it has run. (Started only now, so that u is not
	// released before the barrier names it.)
	go func() {
		if err := w.Wait(); err != nil {
			u.SetFailed(cl.ExecStatusErrorForEvents)
		} else {
			u.SetComplete()
		}
		u.Release()
	}()
	if err != nil {
		c.Fail(err)
		return
	}
	c.Events = append(c.Events, ev)
}

// CopyMatrix enqueues dst = src for matrices of the same shape, on the
// same device (a device copy) or on two devices of a multi-device
// Implementation (through host memory: a read on src's device, then a
// write on dst's that waits for it). It does not block; the returned
// event completes when dst holds the copy.
func CopyMatrix[T float32 | float64](dst, src *Matrix[T], wait ...*Event) (*Event, error) {
	const op = "CopyMatrix"
	if dst == nil || src == nil {
		return nil, fmt.Errorf("clblas: %s: %w", op, errNilOperand)
	}
	if err := errors.Join(dst.st.check(), src.st.check()); err != nil {
		return nil, fmt.Errorf("clblas: %s: %w", op, err)
	}
	if dst.rows != src.rows || dst.cols != src.cols {
		return nil, fmt.Errorf("clblas: %s: %d×%d into %d×%d: %w", op, src.rows, src.cols, dst.rows, dst.cols, ErrShape)
	}
	if dst.st.e == src.st.e {
		if err := checkNoOverlap(op, dst.layout(), src.layout()); err != nil {
			return nil, err
		}
		c := eng.Begin[T](dst.st.e, op)
		after(c, wait)
		if c.Err == nil {
			r := src.rect()
			r.HostOrigin, r.HostRowPitch = [3]int{dst.off % dst.stride, dst.off / dst.stride, 0}, dst.stride
			ev, err := cl.CopyBufferRect[T](c.E.Queue, src.st.buf, dst.st.buf, r)
			c.Fail(err)
			if err == nil {
				c.Events = append(c.Events, ev)
			}
		}
		return finishAsync(c)
	}
	host := make([]T, src.rows*src.cols)
	rc := eng.Begin[T](src.st.e, op)
	after(rc, wait)
	if rc.Err == nil {
		ev, err := cl.ReadBufferRect(rc.E.Queue, src.st.buf, false, src.rect(), host)
		rc.Fail(err)
		if err == nil {
			rc.Events = append(rc.Events, ev)
		}
	}
	read, err := finishAsync(rc)
	if err != nil {
		return nil, err
	}
	wc := eng.Begin[T](dst.st.e, op)
	after(wc, []*Event{read})
	if wc.Err == nil {
		ev, err := cl.WriteBufferRect(wc.E.Queue, dst.st.buf, false, dst.rect(), host)
		wc.Fail(err)
		if err == nil {
			wc.Events = append(wc.Events, ev)
		}
	}
	return finishAsync(wc)
}

// CopyVector enqueues dst = src for vectors of the same length, on one
// device or across devices, as CopyMatrix does.
func CopyVector[T float32 | float64](dst, src *Vector[T], wait ...*Event) (*Event, error) {
	if dst == nil || src == nil {
		return nil, fmt.Errorf("clblas: CopyVector: %w", errNilOperand)
	}
	if dst.n != src.n {
		return nil, fmt.Errorf("clblas: CopyVector: %d elements into %d: %w", src.n, dst.n, ErrShape)
	}
	if dst.st.e == src.st.e {
		return Copy(src, dst, wait...)
	}
	host := make([]T, src.n)
	read, err := src.ReadAsync(host, wait...)
	if err != nil {
		return nil, err
	}
	return dst.Write(host, read)
}
