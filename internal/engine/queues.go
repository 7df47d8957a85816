package engine

import (
	"errors"
	"sync"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

// PipeQueues are the queues of the transfer pipeline: uploads, kernels and
// downloads each have their own in-order queue (created with profiling, for
// the time accounting), so that a write, a kernel and a read can run at the
// same time; events order them across queues. They are created on first
// use and live as long as the engine.
type PipeQueues struct {
	mu             sync.Mutex
	up, comp, down *cl.Queue
	closed         bool
}

// Get returns the three queues (upload, compute, download), created on
// rt on first use; ErrClosed after Close.
func (p *PipeQueues) Get(rt *platform.Runtime) (up, comp, down *cl.Queue, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, nil, nil, ErrClosed
	}
	if p.up == nil {
		var qs [3]*cl.Queue
		for i := range qs {
			q, err := rt.NewQueue(cl.QueueProfiling)
			if err != nil {
				for _, q := range qs[:i] {
					q.Release()
				}
				return nil, nil, nil, err
			}
			qs[i] = q
		}
		p.up, p.comp, p.down = qs[0], qs[1], qs[2]
	}
	return p.up, p.comp, p.down, nil
}

// Close waits for the queues' commands and releases the queues; Get
// fails from then on.
func (p *PipeQueues) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	var errs []error
	for _, q := range []*cl.Queue{p.up, p.comp, p.down} {
		if q != nil {
			errs = append(errs, q.Finish(), q.Release())
		}
	}
	p.up, p.comp, p.down = nil, nil, nil
	return errors.Join(errs...)
}
