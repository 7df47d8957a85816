package cl

import "fmt"

// Array is a buffer of n elements of T, with every size and offset in
// elements: the typed face of a Buffer, for kernels written against
// float*, int* and the like. SetArgs and Launch take an *Array as the
// buffer argument it stands for.
type Array[T Scalar] struct {
	buf *Buffer
	n   int
}

// NewArray allocates an array of n elements of T; its contents are
// undefined until written (Fill sets them all).
func NewArray[T Scalar](c *Context, flags MemFlags, n int) (*Array[T], error) {
	if n <= 0 {
		return nil, fmt.Errorf("cl: NewArray(%d): %w", n, &Error{Op: "clCreateBuffer", Code: InvalidBufferSize})
	}
	b, err := c.CreateBuffer(flags, n*sizeOf[T]())
	if err != nil {
		return nil, err
	}
	return &Array[T]{buf: b, n: n}, nil
}

// NewArrayFrom allocates an array holding a copy of data.
func NewArrayFrom[T Scalar](c *Context, flags MemFlags, data []T) (*Array[T], error) {
	b, err := CreateBufferFrom(c, flags, data)
	if err != nil {
		return nil, err
	}
	return &Array[T]{buf: b, n: len(data)}, nil
}

// ArrayOf views an existing buffer as elements of T: the buffer's size
// must be a whole number of them. The array shares the buffer: releasing
// either releases both.
func ArrayOf[T Scalar](b *Buffer) (*Array[T], error) {
	es := sizeOf[T]()
	if b == nil || b.size%es != 0 {
		return nil, fmt.Errorf("cl: ArrayOf: a buffer is not a whole number of %d-byte elements: %w", es, &Error{Op: "ArrayOf", Code: InvalidBufferSize})
	}
	return &Array[T]{buf: b, n: b.size / es}, nil
}

// Len is the number of elements.
func (a *Array[T]) Len() int { return a.n }

// Buffer is the buffer behind the array (its Size is in bytes).
func (a *Array[T]) Buffer() *Buffer { return a.buf }

func (a *Array[T]) clBuffer() *Buffer { return a.buf }

// Write copies src into the array from element offset on, without
// blocking: src stays pinned, and must not be modified, until the returned
// event completes.
func (a *Array[T]) Write(q *Queue, offset int, src []T, wait ...*Event) (*Event, error) {
	return WriteBuffer(q, a.buf, false, offset, src, wait...)
}

// Read copies len(dst) elements from element offset on into dst, after
// the events of wait (and, on an in-order queue, every earlier command),
// and waits for the copy.
func (a *Array[T]) Read(q *Queue, offset int, dst []T, wait ...*Event) error {
	ev, err := ReadBuffer(q, a.buf, true, offset, dst, wait...)
	if err != nil {
		return err
	}
	defer ev.Release()
	return ev.Wait()
}

// ReadAsync is Read without waiting: dst holds the elements once the
// returned event completes, and must not be touched until then.
func (a *Array[T]) ReadAsync(q *Queue, offset int, dst []T, wait ...*Event) (*Event, error) {
	return ReadBuffer(q, a.buf, false, offset, dst, wait...)
}

// Fill sets n elements from element offset on to v.
func (a *Array[T]) Fill(q *Queue, v T, offset, n int, wait ...*Event) (*Event, error) {
	return FillBuffer(q, a.buf, v, offset, n, wait...)
}

// CopyTo copies n elements from element srcOff of a to element dstOff of
// dst.
func (a *Array[T]) CopyTo(q *Queue, dst *Array[T], srcOff, dstOff, n int, wait ...*Event) (*Event, error) {
	return CopyBuffer[T](q, a.buf, dst.buf, srcOff, dstOff, n, wait...)
}

// Sub returns the n elements from element offset on as an array of their
// own (a sub-buffer). The offset in bytes must meet the device's base
// address alignment, else the error wraps CL_MISALIGNED_SUB_BUFFER_OFFSET;
// kernels that take an element offset argument avoid the constraint.
func (a *Array[T]) Sub(offset, n int) (*Array[T], error) {
	if offset < 0 || n <= 0 || offset+n > a.n {
		return nil, fmt.Errorf("cl: Sub(%d, %d) of an array of %d: %w", offset, n, a.n, &Error{Op: "clCreateSubBuffer", Code: InvalidValue})
	}
	es := sizeOf[T]()
	b, err := a.buf.CreateSubBuffer(0, offset*es, n*es)
	if err != nil {
		return nil, err
	}
	return &Array[T]{buf: b, n: n}, nil
}

// Release releases the array's buffer. It is safe to call more than once.
func (a *Array[T]) Release() error {
	if a == nil {
		return nil
	}
	return a.buf.Release()
}
