package cl

// The Raw methods hand another C library (CLBlast, say) the raw OpenCL
// handle of an object, as a uintptr, for the duration of fn. The object
// cannot be released while fn runs (Release waits for it); fn must not keep
// the handle after it returns, nor release it.

// Raw calls fn with the queue's cl_command_queue.
func (q *Queue) Raw(fn func(handle uintptr) error) error {
	if err := q.obj.acquire(); err != nil {
		return err
	}
	defer q.obj.done()
	return fn(uintptr(q.h))
}

// Raw calls fn with the buffer's cl_mem.
func (b *Buffer) Raw(fn func(handle uintptr) error) error {
	if err := b.obj.acquire(); err != nil {
		return err
	}
	defer b.obj.done()
	return fn(uintptr(b.h))
}

// Raw calls fn with the context's cl_context.
func (c *Context) Raw(fn func(handle uintptr) error) error {
	if err := c.obj.acquire(); err != nil {
		return err
	}
	defer c.obj.done()
	return fn(uintptr(c.h))
}
