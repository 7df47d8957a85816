package engine

import "github.com/gocompute/opencl/cl"

// OnQueue makes c enqueue its commands on q instead of the engine's queue
// (measurements run a call on one of the profiling pipe queues to read its
// kernels' device times). Call it before the call's first command.
func (c *Call) OnQueue(q *cl.Queue) { c.q = q }
