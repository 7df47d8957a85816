package cl

// ReadBufferMapped is ReadBuffer into host memory that Go's allocator does
// not manage: the mapping of another buffer (MapBuffer, such as a pinned
// staging buffer) or C memory. A non-blocking read of Go memory pins it
// until the command completes, through a completion callback into Go; this
// memory needs neither, so a small read costs one driver call. dst must
// stay mapped until the returned event completes.
func ReadBufferMapped[T Scalar](q *Queue, b *Buffer, blocking bool, offset int, dst []T, wait ...*Event) (*Event, error) {
	return transferHost("clEnqueueReadBuffer", q, b, false, blocking, offset, dst, wait, true)
}
