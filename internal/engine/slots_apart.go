package engine

import (
	"errors"
	"slices"
	"sync"

	"github.com/gocompute/opencl/cl"
)

// Result reads apart. On the engine's in-order queue, the read of a
// reduction's result into its slot holds back the next kernel until the
// copy has crossed the bus; back-to-back reductions then pay the copy's
// latency each. With the level 1 shape's ReadApartMin, the read of a
// reduction over that many bytes or more runs on a queue of its own
// instead, after a marker of the engine's queue: the engine's queue goes
// straight on to the next kernel, and the Scalar's event is the read's.
// The marker and the read's wait on it cost the host more per call than
// the in-order read, so a short kernel is better off without
// (BENCHMARKS.md: the crossover, between 32 and 64 MiB on an H100). The device buffer read from stays out of the
// buffer pool, held by the slot, until the slot is freed (by then the
// read has completed), so no later call can overwrite it first.

// resQueue is the queue of the reads apart, created on first use.
type resQueue struct {
	mu     sync.Mutex
	q      *cl.Queue
	closed bool
}

// get returns the queue, created on rt's device on first use.
func (r *resQueue) get(e *Engine) (*cl.Queue, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, ErrClosed
	}
	if r.q == nil {
		q, err := e.RT.NewQueue(0)
		if err != nil {
			return nil, err
		}
		r.q = q
	}
	return r.q, nil
}

// close waits for the reads and releases the queue.
func (r *resQueue) close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	if r.q == nil {
		return nil
	}
	err := errors.Join(r.q.Finish(), r.q.Release())
	r.q = nil
	return err
}

// finish waits for the reads enqueued so far.
func (r *resQueue) finish() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.q == nil {
		return nil
	}
	return r.q.Finish()
}

// readApart reports whether the result read of c, a reduction over
// operands of the given bytes, runs apart.
func readApart(c *Call, bytes int) bool {
	return c.q == nil && apartFor(l1ShapeOf(c), bytes)
}

// apartFor reports whether shape sh reads the result of a reduction over
// operands of the given bytes apart.
func apartFor(sh L1Shape, bytes int) bool { return sh.ReadApartMin > 0 && bytes >= sh.ReadApartMin }

// readSlotApart is ReadSlot's read of the first n elements of b into slot
// s on the result queue, after a marker of the engine's queue.
func readSlotApart[T Real](c *Call, b *cl.Buffer, n int, s *Slot) {
	q, err := c.E.resq.get(c.E)
	if err != nil {
		c.Fail(err)
		return
	}
	mark, err := c.E.Queue.EnqueueMarker()
	if err != nil {
		c.Fail(err)
		return
	}
	defer mark.Release()
	// The marker must reach the device for the other queue's wait on it
	// to end.
	if err := c.E.Queue.Flush(); err != nil {
		c.Fail(err)
		return
	}
	// b leaves the call's buffers (which go back to the pool at Finish)
	// for the slot's keeping.
	if i := slices.Index(c.bufs, b); i >= 0 {
		c.bufs = slices.Delete(c.bufs, i, i+1)
		s.hold(b, &c.E.Buffers)
	}
	c.queues = append(c.queues, q) // a failed call's Finish waits for it
	ev, err := cl.ReadBufferMapped(q, b, false, 0, SlotHost[T](s, n), mark)
	if err != nil {
		c.Fail(err)
		return
	}
	c.Events = append(c.Events, ev)
	// Waits on the Scalar need not come through clWaitForEvents (which
	// flushes): the read goes to the device now.
	if err := q.Flush(); err != nil {
		c.Fail(err)
	}
}
