package engine

import (
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
		b, err := cl.CreateBufferFrom(e.RT.Context(), cl.MemReadWrite, []uint32{0})
		if err != nil {
			c.Fail(err)
			return nil
		}
		t.buf = b
	}
	return t.buf
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
