package engine

import "github.com/gocompute/opencl/cl"

// Lazy calls. Most operations of a resident chain are never waited for one
// by one, yet an OpenCL event per command is most of a small launch's host
// cost on some drivers (BENCHMARKS.md, "small resident operations"). A
// call with Lazy set enqueues its kernels on the engine's in-order queue
// without events; the resident API then returns a future whose event, when
// someone needs one, is a marker enqueued on that queue, which completes
// after the call's commands (and any enqueued between them and it).

// runLazy enqueues k on the engine's queue without an event.
func (c *Call) runLazy(k *cl.Kernel, global, local []int) {
	if err := c.E.Queue.EnqueueKernelNoEvent(k, global, local); err != nil {
		c.Fail(err)
		return
	}
	c.lazyAt = len(c.Events)
}

// LastLazy reports whether the call's most recent command was enqueued
// without an event (by a Lazy call's Run).
func (c *Call) LastLazy() bool { return c.lazyAt >= 0 && c.lazyAt == len(c.Events) }
