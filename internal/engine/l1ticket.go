package engine

import (
	"errors"
	"sync"

	"github.com/gocompute/opencl/cl"
)

// l1Tickets holds the ticket counter of the one-pass reductions
// (level1.cl's _one kernels) on the engine's queue: one uint, created as
// 0, that the last work-group of each launch puts back to 0. Launches on
// one in-order queue never overlap, so one counter serves every call on
// that queue; calls on other queues take the two-pass path (l1OnePass).
type l1Tickets struct {
	mu  sync.Mutex
	buf *cl.Buffer
}

// l1Ticket is the engine queue's ticket counter, created on first use; a
// failure to create it fails c (and returns nil).
func (e *Engine) l1Ticket(c *Call) *cl.Buffer {
	t := &e.l1t
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.buf == nil && c.Err == nil {
		b, err := e.newTickets(1)
		if err != nil {
			c.Fail(err)
			return nil
		}
		t.buf = b
	}
	return t.buf
}

// newTickets creates n ticket counters, all 0 (fault site "tickets").
func (e *Engine) newTickets(n int) (*cl.Buffer, error) {
	if err := e.Fault.Inject("tickets"); err != nil {
		return nil, err
	}
	return cl.CreateBufferFrom(e.RT.Context(), cl.MemReadWrite, make([]uint32, n))
}

// close releases the counter; the queue has finished.
func (t *l1Tickets) close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.buf == nil {
		return nil
	}
	err := t.buf.Release()
	t.buf = nil
	return err
}

// pieceTickets holds the ticket counters of the one-launch transposed
// products (gemv.cl's GT_ONE) on the engine's queue: one uint a column
// piece, created as 0, each put back to 0 by the last work-group of its
// piece. CPU devices' tri_solve_flow takes the first three the same way
// (its blocks' ticket, the count of blocks solved, the work-items gone). A call with more pieces than the buffer holds gets a new zeroed
// buffer twice as long; the old ones, which calls being built may still
// hold, are kept until the engine closes.
type pieceTickets struct {
	mu  sync.Mutex
	buf *cl.Buffer
	n   int
	old []*cl.Buffer
}

// pieceTickets is the engine queue's array of at least n piece tickets; a
// failure to create it fails c (and returns nil).
func (e *Engine) pieceTickets(c *Call, n int) *cl.Buffer {
	t := &e.gtt
	t.mu.Lock()
	defer t.mu.Unlock()
	if c.Err != nil {
		return nil
	}
	if t.n < n {
		size := max(n, 2*t.n, 1024)
		b, err := e.newTickets(size)
		if err != nil {
			c.Fail(err)
			return nil
		}
		if t.buf != nil {
			t.old = append(t.old, t.buf)
		}
		t.buf, t.n = b, size
	}
	return t.buf
}

// close releases the counters; the queue has finished.
func (t *pieceTickets) close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	var errs []error
	for _, b := range append(t.old, t.buf) {
		if b != nil {
			errs = append(errs, b.Release())
		}
	}
	t.buf, t.n, t.old = nil, 0, nil
	return errors.Join(errs...)
}
