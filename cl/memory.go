package cl

import (
	"fmt"
	"runtime"
	"unsafe"
)

// Scalar is the set of Go types that have an OpenCL C counterpart of the
// same size and layout: the scalars char … ulong, float and double, and
// complex64 and complex128 as float2 and double2 (real part first). Go's
// int and uint have none.
type Scalar interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64 |
		~complex64 | ~complex128
}

// MemFlags are buffer creation flags; values can be or-ed. Flags that
// would let OpenCL keep a pointer to Go memory (CL_MEM_USE_HOST_PTR) are
// deliberately absent: CreateBufferOver is the one way to do that, and it
// pins the memory for as long as the driver may use it.
type MemFlags uint64

// Buffer flags.
const (
	MemReadWrite     MemFlags = clMemReadWrite
	MemWriteOnly     MemFlags = clMemWriteOnly
	MemReadOnly      MemFlags = clMemReadOnly
	MemAllocHostPtr  MemFlags = clMemAllocHostPtr
	MemHostWriteOnly MemFlags = clMemHostWriteOnly
	MemHostReadOnly  MemFlags = clMemHostReadOnly
	MemHostNoAccess  MemFlags = clMemHostNoAccess
)

const forbiddenFlags MemFlags = clMemUseHostPtr | clMemCopyHostPtr

// Buffer is a device memory object.
type Buffer struct {
	h    clMem
	size int
	obj  object
}

func newBuffer(h clMem, size int) *Buffer {
	b := &Buffer{h: h, size: size}
	track(b, &b.obj, kindBuffer, h)
	return b
}

// CreateBuffer allocates size bytes of device memory.
func (c *Context) CreateBuffer(flags MemFlags, size int) (*Buffer, error) {
	if flags&forbiddenFlags != 0 {
		return nil, fmt.Errorf("cl: CreateBuffer: use CreateBufferFrom to copy host data: %w", &Error{Op: "clCreateBuffer", Code: InvalidValue})
	}
	if size <= 0 {
		return nil, &Error{Op: "clCreateBuffer", Code: InvalidBufferSize}
	}
	if err := c.obj.acquire(); err != nil {
		return nil, err
	}
	defer c.obj.done()
	var st int32
	h := clCreateBuffer(c.h, uint64(flags), uintptr(size), nil, &st)
	if err := check("clCreateBuffer", st); err != nil {
		return nil, err
	}
	return newBuffer(h, size), nil
}

// CreateBufferFrom allocates a buffer holding a copy of data.
func CreateBufferFrom[T Scalar](c *Context, flags MemFlags, data []T) (*Buffer, error) {
	if flags&forbiddenFlags != 0 {
		return nil, &Error{Op: "clCreateBuffer", Code: InvalidValue}
	}
	size := len(data) * sizeOf[T]()
	if size == 0 {
		return nil, &Error{Op: "clCreateBuffer", Code: InvalidBufferSize}
	}
	if err := c.obj.acquire(); err != nil {
		return nil, err
	}
	defer c.obj.done()
	var st int32
	h := clCreateBuffer(c.h, uint64(flags)|clMemCopyHostPtr, uintptr(size), unsafe.Pointer(&data[0]), &st)
	if err := check("clCreateBuffer", st); err != nil {
		return nil, err
	}
	return newBuffer(h, size), nil
}

// CreateBufferOver creates a buffer whose storage is data itself
// (CL_MEM_USE_HOST_PTR). On devices that share the host's memory (CPU
// devices, integrated GPUs) kernels then read and write data with no copy;
// other drivers may keep a copy and bring the two together at maps and
// transfers. The rules that follow from the OpenCL specification:
//
//   - data's contents, as seen by Go code, are defined only after a
//     MapBuffer (blocking, or once its event completes) and until the
//     matching UnmapBuffer; writes by Go code reach the device only at an
//     unmap (or before the buffer is first used);
//   - Go code must not touch data while commands using the buffer run.
//
// data stays pinned (runtime.Pinner: memory the driver keeps a pointer to
// must not move) until the driver deletes the buffer, which happens
// after Release and after every command using it has finished; the
// driver's destructor callback unpins it. flags must not contain
// CL_MEM_ALLOC_HOST_PTR.
func CreateBufferOver[T Scalar](c *Context, flags MemFlags, data []T) (*Buffer, error) {
	const op = "clCreateBuffer"
	if flags&(forbiddenFlags|MemAllocHostPtr) != 0 {
		return nil, &Error{Op: op, Code: InvalidValue}
	}
	size := len(data) * sizeOf[T]()
	if size == 0 {
		return nil, &Error{Op: op, Code: InvalidBufferSize}
	}
	if err := c.obj.acquire(); err != nil {
		return nil, err
	}
	defer c.obj.done()
	p := new(runtime.Pinner)
	p.Pin(&data[0])
	var st int32
	h := clCreateBuffer(c.h, uint64(flags)|clMemUseHostPtr, uintptr(size), unsafe.Pointer(&data[0]), &st)
	if err := check(op, st); err != nil {
		p.Unpin()
		return nil, err
	}
	hd := register(p)
	if err := check("clSetMemObjectDestructorCallback", clSetMemObjectDestructorCallback(h, memTrampoline, hd)); err != nil {
		// No command has used the buffer: releasing it deletes it now.
		unregister(hd)
		clReleaseMemObject(h)
		p.Unpin()
		return nil, err
	}
	live[kindHostMem].Add(1)
	return newBuffer(h, size), nil
}

// CreateBufferOverForeign creates a buffer whose storage is mem, memory
// that the caller has taken outside Go's heap (from mmap, say), and calls
// free once the driver has deleted the buffer, after Release and after
// every command using it has finished: free may then give mem back. The
// rules of CreateBufferOver on data apply to mem, and free runs on a
// thread of the driver's. flags must not contain CL_MEM_ALLOC_HOST_PTR.
// If the buffer cannot be created, free is not called.
func CreateBufferOverForeign(c *Context, flags MemFlags, mem []byte, free func()) (*Buffer, error) {
	const op = "clCreateBuffer"
	if flags&(forbiddenFlags|MemAllocHostPtr) != 0 || free == nil {
		return nil, &Error{Op: op, Code: InvalidValue}
	}
	if len(mem) == 0 {
		return nil, &Error{Op: op, Code: InvalidBufferSize}
	}
	if err := c.obj.acquire(); err != nil {
		return nil, err
	}
	defer c.obj.done()
	var st int32
	h := clCreateBuffer(c.h, uint64(flags)|clMemUseHostPtr, uintptr(len(mem)), unsafe.Pointer(&mem[0]), &st)
	if err := check(op, st); err != nil {
		return nil, err
	}
	hd := register(free)
	if err := check("clSetMemObjectDestructorCallback", clSetMemObjectDestructorCallback(h, memTrampoline, hd)); err != nil {
		unregister(hd)
		clReleaseMemObject(h)
		return nil, err
	}
	live[kindHostMem].Add(1)
	return newBuffer(h, len(mem)), nil
}

// memDestroyed unpins the Go memory under a CreateBufferOver buffer, or
// gives back the memory under a CreateBufferOverForeign one, once the
// driver has deleted the buffer; handle names the pinner or the function.
func memDestroyed(handle uintptr) {
	switch v := unregister(handle).(type) {
	case *runtime.Pinner:
		v.Unpin()
	case func():
		v()
	default:
		return
	}
	live[kindHostMem].Add(-1)
}

// Size is the buffer's size in bytes.
func (b *Buffer) Size() int { return b.size }

// CreateSubBuffer returns a view of size bytes from byte offset origin,
// which must be a multiple of the device's base address alignment
// (MemBaseAddrAlign bits) for some device of the buffer's context, else
// the error wraps CL_MISALIGNED_SUB_BUFFER_OFFSET; the binding checks this
// itself, because some drivers (NVIDIA's) accept any origin. flags 0
// inherits the parent's.
func (b *Buffer) CreateSubBuffer(flags MemFlags, origin, size int) (*Buffer, error) {
	if origin < 0 || size <= 0 || origin+size > b.size {
		return nil, &Error{Op: "clCreateSubBuffer", Code: InvalidValue}
	}
	if err := b.obj.acquire(); err != nil {
		return nil, err
	}
	defer b.obj.done()
	if !originAligned(b.h, origin) {
		return nil, &Error{Op: "clCreateSubBuffer", Code: MisalignedSubBufferOffset}
	}
	region := clBufferRegion{origin: uintptr(origin), size: uintptr(size)}
	var st int32
	h := clCreateSubBuffer(b.h, uint64(flags), clBufferCreateTypeRegion, &region, &st)
	if err := check("clCreateSubBuffer", st); err != nil {
		return nil, err
	}
	return newBuffer(h, size), nil
}

// ReferenceCount is the driver's reference count of the buffer.
func (b *Buffer) ReferenceCount() (int, error) {
	if err := b.obj.acquire(); err != nil {
		return 0, err
	}
	defer b.obj.done()
	var n uint32
	st := clGetMemObjectInfo(b.h, clMemReferenceCount, unsafe.Sizeof(n), unsafe.Pointer(&n), nil)
	return int(n), check("clGetMemObjectInfo", st)
}

// Release releases the buffer. It is safe to call more than once. A
// sub-buffer keeps its parent's memory alive until it is released too.
func (b *Buffer) Release() error {
	if b == nil {
		return nil
	}
	return b.obj.release("clReleaseMemObject")
}

func sizeOf[T Scalar]() int {
	var v T
	return int(unsafe.Sizeof(v))
}

func clBool(b bool) uint32 {
	if b {
		return clTrue
	}
	return clFalse
}

// rangeErr reports a Go-side range check failure of op.
func rangeErr(op, format string, args ...any) error {
	return fmt.Errorf("cl: "+format+": %w", append(args, &Error{Op: op, Code: InvalidValue})...)
}

// transfer enqueues a read or write between b (from element offset
// offset) and the Go slice host. A non-blocking transfer pins host until
// it completes.
func transfer[T Scalar](op string, q *Queue, b *Buffer, write, blocking bool, offset int, host []T, wait []*Event) (*Event, error) {
	return transferHost(op, q, b, write, blocking, offset, host, wait, false)
}

// transferHost is transfer; foreign says that host is memory Go does not
// manage (a mapping), which a non-blocking transfer need not pin.
func transferHost[T Scalar](op string, q *Queue, b *Buffer, write, blocking bool, offset int, host []T, wait []*Event, foreign bool) (*Event, error) {
	es := sizeOf[T]()
	off, size := offset*es, len(host)*es
	if offset < 0 || off+size > b.size {
		return nil, rangeErr(op, "%d elements at offset %d exceed the %d-byte buffer", len(host), offset, b.size)
	}
	if err := acquireAll(&q.obj, &b.obj); err != nil {
		return nil, err
	}
	defer doneAll(&q.obj, &b.obj)
	if size == 0 {
		return q.noop(wait, blocking)
	}
	wl, err := acquireWaitList(wait)
	if err != nil {
		return nil, err
	}
	defer wl.done()
	n, w := wl.args()
	var pinner *runtime.Pinner
	if !foreign {
		pinner = pinIfAsync(blocking, host)
	}
	var ev clEvent
	var st int32
	if write {
		st = clEnqueueWriteBuffer(q.h, b.h, clBool(blocking), uintptr(off), uintptr(size), unsafe.Pointer(&host[0]), n, w, &ev)
	} else {
		st = clEnqueueReadBuffer(q.h, b.h, clBool(blocking), uintptr(off), uintptr(size), unsafe.Pointer(&host[0]), n, w, &ev)
	}
	return finishTransfer(op, st, ev, pinner)
}

// pinIfAsync pins host for a non-blocking transfer (the driver keeps the
// pointer until the command completes; finishTransfer arranges the unpin)
// and returns nil for a blocking one.
func pinIfAsync[T Scalar](blocking bool, host []T) *runtime.Pinner {
	if blocking {
		return nil
	}
	p := new(runtime.Pinner)
	p.Pin(&host[0])
	return p
}

// finishTransfer wraps the event of a read or write and, for a
// non-blocking one, hands the pinner to it.
func finishTransfer(op string, st int32, ev clEvent, pinner *runtime.Pinner) (*Event, error) {
	if err := check(op, st); err != nil {
		if pinner != nil {
			pinner.Unpin()
		}
		return nil, err
	}
	e := newEvent(ev)
	if pinner != nil {
		if err := e.pin(pinner); err != nil {
			e.Release()
			return nil, err
		}
	}
	return e, nil
}

// WriteBuffer copies src into b at element offset offset. A non-blocking
// write returns at once; src is pinned and must not be modified until the
// returned event completes. An empty src enqueues nothing: the event is
// already complete (or, with a wait list, completes with it).
func WriteBuffer[T Scalar](q *Queue, b *Buffer, blocking bool, offset int, src []T, wait ...*Event) (*Event, error) {
	return transfer("clEnqueueWriteBuffer", q, b, true, blocking, offset, src, wait)
}

// ReadBuffer copies from b at element offset offset into dst. A
// non-blocking read returns at once; dst is pinned and holds the data only
// once the returned event completes.
func ReadBuffer[T Scalar](q *Queue, b *Buffer, blocking bool, offset int, dst []T, wait ...*Event) (*Event, error) {
	return transfer("clEnqueueReadBuffer", q, b, false, blocking, offset, dst, wait)
}

// CopyBuffer copies n elements of type T from src (element offset srcOff)
// to dst (element offset dstOff) on the device.
func CopyBuffer[T Scalar](q *Queue, src, dst *Buffer, srcOff, dstOff, n int, wait ...*Event) (*Event, error) {
	const op = "clEnqueueCopyBuffer"
	es := sizeOf[T]()
	if srcOff < 0 || dstOff < 0 || n < 0 || (srcOff+n)*es > src.size || (dstOff+n)*es > dst.size {
		return nil, rangeErr(op, "copy of %d elements from %d to %d exceeds the buffers (%d and %d bytes)", n, srcOff, dstOff, src.size, dst.size)
	}
	if err := acquireAll(&q.obj, &src.obj, &dst.obj); err != nil {
		return nil, err
	}
	defer doneAll(&q.obj, &src.obj, &dst.obj)
	if n == 0 {
		return q.noop(wait, false)
	}
	wl, err := acquireWaitList(wait)
	if err != nil {
		return nil, err
	}
	defer wl.done()
	cnt, w := wl.args()
	var ev clEvent
	st := clEnqueueCopyBuffer(q.h, src.h, dst.h, uintptr(srcOff*es), uintptr(dstOff*es), uintptr(n*es), cnt, w, &ev)
	if err := check(op, st); err != nil {
		return nil, err
	}
	return newEvent(ev), nil
}

// FillBuffer sets n elements of b from element offset offset to value.
func FillBuffer[T Scalar](q *Queue, b *Buffer, value T, offset, n int, wait ...*Event) (*Event, error) {
	const op = "clEnqueueFillBuffer"
	es := sizeOf[T]()
	if offset < 0 || n < 0 || (offset+n)*es > b.size {
		return nil, rangeErr(op, "fill of %d elements at %d exceeds the %d-byte buffer", n, offset, b.size)
	}
	if err := acquireAll(&q.obj, &b.obj); err != nil {
		return nil, err
	}
	defer doneAll(&q.obj, &b.obj)
	if n == 0 {
		return q.noop(wait, false)
	}
	wl, err := acquireWaitList(wait)
	if err != nil {
		return nil, err
	}
	defer wl.done()
	cnt, w := wl.args()
	var ev clEvent
	// The driver copies the pattern before the call returns.
	st := clEnqueueFillBuffer(q.h, b.h, unsafe.Pointer(&value), uintptr(es), uintptr(offset*es), uintptr(n*es), cnt, w, &ev)
	if err := check(op, st); err != nil {
		return nil, err
	}
	return newEvent(ev), nil
}

// Rect describes a 2-D or 3-D region for the rect transfers, in elements
// of the transfer's type: origins are (element, row, slice), Region is
// (elements per row, rows, slices), pitches are elements per row and per
// slice (0 means tightly packed). A 2-D region has Region[2] == 1.
type Rect struct {
	BufferOrigin, HostOrigin [3]int
	Region                   [3]int
	BufferRowPitch           int
	BufferSlicePitch         int
	HostRowPitch             int
	HostSlicePitch           int
}

// pitches returns the row and slice pitches (elements) with the defaults
// filled in.
func (r Rect) pitches(row, slice int) (int, int) {
	if row == 0 {
		row = r.Region[0]
	}
	if slice == 0 {
		slice = row * r.Region[1]
	}
	return row, slice
}

// bytes converts r to byte units and fills in default pitches.
func (r Rect) bytes(es int) (bo, ho, reg [3]uintptr, brp, bsp, hrp, hsp int) {
	brp, bsp = r.pitches(r.BufferRowPitch, r.BufferSlicePitch)
	hrp, hsp = r.pitches(r.HostRowPitch, r.HostSlicePitch)
	bo = [3]uintptr{uintptr(r.BufferOrigin[0] * es), uintptr(r.BufferOrigin[1]), uintptr(r.BufferOrigin[2])}
	ho = [3]uintptr{uintptr(r.HostOrigin[0] * es), uintptr(r.HostOrigin[1]), uintptr(r.HostOrigin[2])}
	reg = [3]uintptr{uintptr(r.Region[0] * es), uintptr(r.Region[1]), uintptr(r.Region[2])}
	return bo, ho, reg, brp * es, bsp * es, hrp * es, hsp * es
}

// extent is one past the last element a rect side touches.
func extent(origin [3]int, region [3]int, row, slice int) int {
	return origin[0] + origin[1]*row + origin[2]*slice +
		(region[2]-1)*slice + (region[1]-1)*row + region[0]
}

// copyExtent is the size a buffer side of clEnqueueCopyBufferRect must
// have: extent, and also whole slices from the origin's row and slice on.
// NVIDIA's driver answers CL_INVALID_VALUE to a copy whose last row ends
// short of its pitch at the end of the buffer (a 1×1 region with a row
// pitch of 257 from a one-element buffer), though the spec counts only the
// elements copied; requiring it here makes every device reject the same
// copies.
func copyExtent(origin [3]int, region [3]int, row, slice int) int {
	return max(extent(origin, region, row, slice), origin[1]*row+(origin[2]+region[2])*slice)
}

// check validates r the way the spec requires the driver to, so that a
// bad rect never reaches Go memory: positive region, non-negative origins,
// pitches (after defaults) at least as large as what they span.
func (r Rect) check(op string) error {
	for i := range 3 {
		if r.Region[i] <= 0 || r.BufferOrigin[i] < 0 || r.HostOrigin[i] < 0 {
			return rangeErr(op, "rect region %v must be positive and origins %v, %v non-negative", r.Region, r.BufferOrigin, r.HostOrigin)
		}
	}
	for _, p := range [][2]int{{r.BufferRowPitch, r.BufferSlicePitch}, {r.HostRowPitch, r.HostSlicePitch}} {
		if p[0] < 0 || p[1] < 0 {
			return rangeErr(op, "negative rect pitch")
		}
		row, slice := r.pitches(p[0], p[1])
		if row < r.Region[0] || slice < row*r.Region[1] {
			return rangeErr(op, "rect pitches (%d, %d) too small for region %v", row, slice, r.Region)
		}
	}
	return nil
}

func rectTransfer[T Scalar](op string, q *Queue, b *Buffer, write, blocking bool, r Rect, host []T, wait []*Event) (*Event, error) {
	if err := r.check(op); err != nil {
		return nil, err
	}
	es := sizeOf[T]()
	bo, ho, reg, brp, bsp, hrp, hsp := r.bytes(es)
	// The host side is Go memory: check the extent ourselves, since the
	// driver cannot.
	if need := extent(r.HostOrigin, r.Region, hrp/es, hsp/es); need > len(host) {
		return nil, rangeErr(op, "rect touches host element %d of %d", need-1, len(host))
	}
	if need := extent(r.BufferOrigin, r.Region, brp/es, bsp/es) * es; need > b.size {
		return nil, rangeErr(op, "rect touches buffer byte %d of %d", need-1, b.size)
	}
	if err := acquireAll(&q.obj, &b.obj); err != nil {
		return nil, err
	}
	defer doneAll(&q.obj, &b.obj)
	wl, err := acquireWaitList(wait)
	if err != nil {
		return nil, err
	}
	defer wl.done()
	n, w := wl.args()
	pinner := pinIfAsync(blocking, host)
	var ev clEvent
	var st int32
	if write {
		st = clEnqueueWriteBufferRect(q.h, b.h, clBool(blocking), &bo[0], &ho[0], &reg[0], uintptr(brp), uintptr(bsp), uintptr(hrp), uintptr(hsp), unsafe.Pointer(&host[0]), n, w, &ev)
	} else {
		st = clEnqueueReadBufferRect(q.h, b.h, clBool(blocking), &bo[0], &ho[0], &reg[0], uintptr(brp), uintptr(bsp), uintptr(hrp), uintptr(hsp), unsafe.Pointer(&host[0]), n, w, &ev)
	}
	return finishTransfer(op, st, ev, pinner)
}

// WriteBufferRect copies a 2-D or 3-D region of host into b. Units are
// elements of T (see Rect). The host extent is checked against len(host).
// A non-blocking write pins host until the event completes.
func WriteBufferRect[T Scalar](q *Queue, b *Buffer, blocking bool, r Rect, host []T, wait ...*Event) (*Event, error) {
	return rectTransfer("clEnqueueWriteBufferRect", q, b, true, blocking, r, host, wait)
}

// ReadBufferRect copies a 2-D or 3-D region of b into host.
func ReadBufferRect[T Scalar](q *Queue, b *Buffer, blocking bool, r Rect, host []T, wait ...*Event) (*Event, error) {
	return rectTransfer("clEnqueueReadBufferRect", q, b, false, blocking, r, host, wait)
}

// CopyBufferRect copies a region between two buffers; in r, "Host" fields
// describe dst.
func CopyBufferRect[T Scalar](q *Queue, src, dst *Buffer, r Rect, wait ...*Event) (*Event, error) {
	const op = "clEnqueueCopyBufferRect"
	if err := r.check(op); err != nil {
		return nil, err
	}
	es := sizeOf[T]()
	so, do, reg, srp, ssp, drp, dsp := r.bytes(es)
	if need := copyExtent(r.BufferOrigin, r.Region, srp/es, ssp/es) * es; need > src.size {
		return nil, rangeErr(op, "rect spans source byte %d of %d (whole rows)", need-1, src.size)
	}
	if need := copyExtent(r.HostOrigin, r.Region, drp/es, dsp/es) * es; need > dst.size {
		return nil, rangeErr(op, "rect spans destination byte %d of %d (whole rows)", need-1, dst.size)
	}
	if err := acquireAll(&q.obj, &src.obj, &dst.obj); err != nil {
		return nil, err
	}
	defer doneAll(&q.obj, &src.obj, &dst.obj)
	wl, err := acquireWaitList(wait)
	if err != nil {
		return nil, err
	}
	defer wl.done()
	n, w := wl.args()
	var ev clEvent
	st := clEnqueueCopyBufferRect(q.h, src.h, dst.h, &so[0], &do[0], &reg[0], uintptr(srp), uintptr(ssp), uintptr(drp), uintptr(dsp), n, w, &ev)
	if err := check(op, st); err != nil {
		return nil, err
	}
	return newEvent(ev), nil
}

// MapFlags say how mapped memory will be used.
type MapFlags uint64

// Map flags.
const (
	MapRead                  MapFlags = clMapRead
	MapWrite                 MapFlags = clMapWrite
	MapWriteInvalidateRegion MapFlags = clMapWriteInvalidateRegion
)

// MapBuffer maps n elements of b from element offset offset into host
// memory and returns them as a slice, which stays valid until UnmapBuffer
// (the slice is the driver's memory: do not use it after unmapping). For a
// non-blocking map, the slice may be used only after the event completes.
func MapBuffer[T Scalar](q *Queue, b *Buffer, blocking bool, flags MapFlags, offset, n int, wait ...*Event) ([]T, *Event, error) {
	const op = "clEnqueueMapBuffer"
	es := sizeOf[T]()
	if offset < 0 || n <= 0 || (offset+n)*es > b.size {
		return nil, nil, rangeErr(op, "map of %d elements at %d outside the %d-byte buffer", n, offset, b.size)
	}
	if err := acquireAll(&q.obj, &b.obj); err != nil {
		return nil, nil, err
	}
	defer doneAll(&q.obj, &b.obj)
	wl, err := acquireWaitList(wait)
	if err != nil {
		return nil, nil, err
	}
	defer wl.done()
	cnt, w := wl.args()
	var ev clEvent
	var st int32
	p := clEnqueueMapBuffer(q.h, b.h, clBool(blocking), uint64(flags), uintptr(offset*es), uintptr(n*es), cnt, w, &ev, &st)
	if err := check(op, st); err != nil {
		return nil, nil, err
	}
	return unsafe.Slice((*T)(p), n), newEvent(ev), nil
}

// UnmapBuffer unmaps a slice that MapBuffer returned for b.
func UnmapBuffer[T Scalar](q *Queue, b *Buffer, mapped []T, wait ...*Event) (*Event, error) {
	const op = "clEnqueueUnmapMemObject"
	if len(mapped) == 0 {
		return nil, rangeErr(op, "empty mapped slice")
	}
	if err := acquireAll(&q.obj, &b.obj); err != nil {
		return nil, err
	}
	defer doneAll(&q.obj, &b.obj)
	wl, err := acquireWaitList(wait)
	if err != nil {
		return nil, err
	}
	defer wl.done()
	cnt, w := wl.args()
	var ev clEvent
	st := clEnqueueUnmapMemObject(q.h, b.h, unsafe.Pointer(unsafe.SliceData(mapped)), cnt, w, &ev)
	if err := check(op, st); err != nil {
		return nil, err
	}
	return newEvent(ev), nil
}

// originAligned reports whether origin (bytes) is a multiple of the base
// address alignment of some device of m's context, as clCreateSubBuffer
// requires; true when the devices cannot be queried (the driver then
// decides).
func originAligned(m clMem, origin int) bool {
	var ctx clContext
	if clGetMemObjectInfo(m, clMemContext, unsafe.Sizeof(ctx), unsafe.Pointer(&ctx), nil) != clSuccess {
		return true
	}
	var size uintptr
	if clGetContextInfo(ctx, clContextDevices, 0, nil, &size) != clSuccess || size == 0 {
		return true
	}
	devs := make([]clDeviceID, size/unsafe.Sizeof(clDeviceID(0)))
	if clGetContextInfo(ctx, clContextDevices, size, unsafe.Pointer(&devs[0]), nil) != clSuccess {
		return true
	}
	for _, d := range devs {
		var bits uint32
		if clGetDeviceInfo(d, clDeviceMemBaseAddrAlign, unsafe.Sizeof(bits), unsafe.Pointer(&bits), nil) != clSuccess || bits < 8 {
			return true
		}
		if origin%int(bits/8) == 0 {
			return true
		}
	}
	return false
}
