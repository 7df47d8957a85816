package engine

import (
	"errors"
	"sync"
	"unsafe"

	"github.com/gocompute/opencl/cl"
)

// Result slots: the host side of the one or two values a resident
// reduction (Dot, Nrm2, Asum, Iamax returning a Scalar) reads back.
//
// A non-blocking read into pageable Go memory is staged by the driver
// (NVIDIA's copies it through a bounce buffer and returns only once the
// copy is done, so every reduction would wait for the device and the next
// call could not be enqueued behind it). The slots are small pieces of
// pinned memory (CL_MEM_ALLOC_HOST_PTR buffers, mapped once), so the read
// is a DMA the queue runs in order like any other command, and no call
// creates a buffer after the first few.

// SlotBytes is the size of a slot: two float64, the parts of a complex128.
const SlotBytes = 16

// slotsPerSlab is the number of slots of one pinned buffer.
const slotsPerSlab = 256

// Slot is one result slot. It belongs to its reduction's future until
// Free; Load reads it once the read into it has completed.
type Slot struct {
	pool  *SlotPool
	mem   unsafe.Pointer // SlotBytes of pinned memory; nil for a saved slot
	saved [SlotBytes]byte
	state slotState
	// prev, next link the slots in use (the pool saves them at Close).
	prev, next *Slot
	// held, when set, is the device buffer a read apart reads from
	// (slots_apart.go), which goes back to heldIn when the slot is freed.
	held   *cl.Buffer
	heldIn *BufferPool
}

// hold makes b the slot's until Free, which puts it back into pool.
func (s *Slot) hold(b *cl.Buffer, pool *BufferPool) { s.held, s.heldIn = b, pool }

type slotState uint8

const (
	slotLive  slotState = iota // in use, its memory mapped
	slotSaved                  // the pool has closed: its bytes are in saved
	slotFree                   // freed
)

type slotSlab struct {
	buf  *cl.Buffer
	host []byte
}

// SlotPool hands out result slots from pinned slabs. The zero value must
// be set up with Init.
type SlotPool struct {
	ctx    *cl.Context
	q      *cl.Queue // maps and unmaps
	mu     sync.Mutex
	free   []unsafe.Pointer // free slot memory
	slabs  []slotSlab
	used   *Slot // the slots in use, linked by next
	closed bool
}

// Init sets the pool up for slabs of ctx, mapped and unmapped on q.
func (p *SlotPool) Init(ctx *cl.Context, q *cl.Queue) { p.ctx, p.q = ctx, q }

// Get returns a slot; ErrClosed after Close.
func (p *SlotPool) Get() (*Slot, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, ErrClosed
	}
	if len(p.free) == 0 {
		if err := p.grow(); err != nil {
			return nil, err
		}
	}
	s := &Slot{pool: p, mem: p.free[len(p.free)-1], next: p.used}
	p.free = p.free[:len(p.free)-1]
	if p.used != nil {
		p.used.prev = s
	}
	p.used = s
	return s, nil
}

// grow maps one more slab; p.mu is held.
func (p *SlotPool) grow() error {
	const size = SlotBytes * slotsPerSlab
	buf, err := p.ctx.CreateBuffer(cl.MemReadWrite|cl.MemAllocHostPtr, size)
	if err != nil {
		return err
	}
	host, ev, err := cl.MapBuffer[byte](p.q, buf, true, cl.MapRead|cl.MapWrite, 0, size)
	if err != nil {
		buf.Release()
		return err
	}
	ev.Release()
	p.slabs = append(p.slabs, slotSlab{buf, host})
	for i := slotsPerSlab - 1; i >= 0; i-- {
		p.free = append(p.free, unsafe.Pointer(&host[i*SlotBytes]))
	}
	return nil
}

// Host is the slot's memory as n elements of T (n·size ≤ SlotBytes), the
// destination of the read into it; nil once the pool has closed.
func SlotHost[T Real](s *Slot, n int) []T {
	s.pool.mu.Lock()
	defer s.pool.mu.Unlock()
	if s.state != slotLive {
		return nil
	}
	return unsafe.Slice((*T)(s.mem), n)
}

// Load copies the slot's first len(dst) elements into dst. The read into
// the slot must have completed.
func SlotLoad[T Real](s *Slot, dst []T) {
	var z T
	n := len(dst) * int(unsafe.Sizeof(z))
	p := s.pool
	p.mu.Lock()
	defer p.mu.Unlock()
	switch s.state {
	case slotLive:
		copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), n), unsafe.Slice((*byte)(s.mem), n))
	case slotSaved:
		copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), n), s.saved[:n])
	}
}

// Free returns the slot to its pool (and the buffer it holds to its
// own). No command may still write it, nor read the buffer it holds. It
// is safe to call more than once.
func (s *Slot) Free() {
	p := s.pool
	p.mu.Lock()
	held, heldIn := s.held, s.heldIn
	s.held, s.heldIn = nil, nil
	switch s.state {
	case slotFree:
	case slotLive:
		p.free = append(p.free, s.mem)
		p.unlink(s)
		fallthrough
	default:
		s.state, s.mem = slotFree, nil
	}
	p.mu.Unlock()
	if held != nil {
		heldIn.Put(held)
	}
}

// unlink removes s from the slots in use; p.mu is held.
func (p *SlotPool) unlink(s *Slot) {
	if s.prev != nil {
		s.prev.next = s.next
	} else {
		p.used = s.next
	}
	if s.next != nil {
		s.next.prev = s.prev
	}
	s.prev, s.next = nil, nil
}

// Close saves the bytes of the slots in use (the queue has finished, so
// every read into them has completed), then unmaps and releases the slabs.
// Slots stay readable with Load; Get fails from now on.
func (p *SlotPool) Close() error {
	p.mu.Lock()
	for s := p.used; s != nil; {
		next := s.next
		copy(s.saved[:], unsafe.Slice((*byte)(s.mem), SlotBytes))
		s.state, s.mem, s.prev, s.next = slotSaved, nil, nil, nil
		s = next
	}
	slabs := p.slabs
	p.used, p.free, p.slabs, p.closed = nil, nil, nil, true
	p.mu.Unlock()
	var errs []error
	for _, sl := range slabs {
		ev, err := cl.UnmapBuffer(p.q, sl.buf, sl.host)
		if err == nil {
			err = ev.Wait()
			ev.Release()
		}
		errs = append(errs, err, sl.buf.Release())
	}
	return errors.Join(errs...)
}

// ReadSlot enqueues a non-blocking read of the first n elements of b
// (n·size ≤ SlotBytes) into a result slot, which holds them once the
// call's last event completes; bytes, the size of the reduction's
// operands, decides whether the read runs apart (readApart). The slot is the caller's when the call
// succeeds (Finish frees it when the call fails).
func ReadSlot[T Real](c *Call, b *cl.Buffer, n, bytes int) *Slot {
	if c.Err != nil {
		return nil
	}
	if err := c.E.Fault.Inject("read"); err != nil {
		c.Fail(err)
		return nil
	}
	s, err := c.E.Slots.Get()
	if err != nil {
		c.Fail(err)
		return nil
	}
	c.slots = append(c.slots, s)
	if readApart(c, bytes) {
		readSlotApart[T](c, b, n, s)
		return s
	}
	ev, err := cl.ReadBufferMapped(c.E.Queue, b, false, 0, SlotHost[T](s, n))
	if err != nil {
		c.Fail(err)
		return nil
	}
	c.Events = append(c.Events, ev)
	return s
}

// ResultSlot is the call's result slot (ReadSlot), or nil.
func (c *Call) ResultSlot() *Slot {
	if len(c.slots) == 0 {
		return nil
	}
	return c.slots[0]
}

// Slabs is the number of pinned slabs the pool holds (tests).
func (p *SlotPool) Slabs() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.slabs)
}
