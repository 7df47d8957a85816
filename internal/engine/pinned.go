package engine

import (
	"errors"
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gocompute/opencl/cl"
)

// Pinned is a pinned staging buffer and its mapping.
type Pinned struct {
	Buf  *cl.Buffer
	Host []byte // the mapped memory; valid until the buffer is unmapped
}

// PinnedView returns the first n elements of p's memory as a []T.
func PinnedView[T Real](p *Pinned, n int) []T {
	if p == nil || n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(p.Host))), n)
}

// PinnedPool keeps pinned staging buffers by power-of-two size class. It
// holds at most PinnedLimit bytes of free buffers; a buffer returned
// beyond that makes room by releasing held ones (largest first), so that
// the pool keeps the sizes in use now, not those of earlier calls
// (otherwise a call whose buffers do not fit beside an earlier call's
// pins fresh memory every time: CGEMM 8192 from Go slices after ZGEMM 8192
// ran at a sixth of its rate). The zero value must be set up with Init.
type PinnedPool struct {
	ctx   *cl.Context
	q     *cl.Queue // maps and unmaps
	mu    sync.Mutex
	free  map[int][]*Pinned
	held  int64
	limit int64

	// WriteOnly, when set (benchmarks), has new buffers created for host
	// writes only (CL_MEM_HOST_WRITE_ONLY, write-combined memory where the
	// driver backs them so), which only level 2's upload streams may use.
	WriteOnly atomic.Bool
}

// PinnedLimit is the most pinned memory the pool keeps while no call uses
// it (pinned memory is taken from the host's RAM).
const PinnedLimit = 4 << 30

// Init sets the pool up for buffers of ctx, mapped and unmapped on q.
func (p *PinnedPool) Init(ctx *cl.Context, q *cl.Queue) {
	p.ctx, p.q = ctx, q
	p.free = map[int][]*Pinned{}
	p.limit = PinnedLimit
}

// SetLimit replaces the most free memory the pool keeps (tests).
func (p *PinnedPool) SetLimit(bytes int64) {
	p.mu.Lock()
	p.limit = bytes
	p.mu.Unlock()
}

// PinnedClass is the size of the pinned buffer that serves a request of
// bytes bytes: the next power of two, at least 64 KiB.
func PinnedClass(bytes int) int {
	if bytes <= 64<<10 {
		return 64 << 10
	}
	return 1 << bits.Len(uint(bytes-1))
}

// Get returns a mapped pinned buffer of at least bytes bytes; ErrClosed
// after Close.
func (p *PinnedPool) Get(bytes int) (*Pinned, error) {
	size := PinnedClass(bytes)
	p.mu.Lock()
	if p.free == nil {
		p.mu.Unlock()
		return nil, ErrClosed
	}
	// The class, or the next one up: a request of half an earlier one's
	// size reuses its buffers rather than pinning more memory.
	for _, c := range []int{size, 2 * size} {
		if bs := p.free[c]; len(bs) > 0 {
			b := bs[len(bs)-1]
			p.free[c] = bs[:len(bs)-1]
			p.held -= int64(c)
			p.mu.Unlock()
			return b, nil
		}
	}
	p.mu.Unlock()
	b, err := p.create(size)
	if err != nil {
		// Free what the pool holds (pinned memory is scarce) and retry.
		p.Drain()
		b, err = p.create(size)
	}
	return b, err
}

func (p *PinnedPool) create(size int) (*Pinned, error) {
	flags, mapFlags := cl.MemReadWrite|cl.MemAllocHostPtr, cl.MapRead|cl.MapWrite
	if p.WriteOnly.Load() {
		flags, mapFlags = cl.MemReadOnly|cl.MemAllocHostPtr|cl.MemHostWriteOnly, cl.MapWrite
	}
	buf, err := p.ctx.CreateBuffer(flags, size)
	if err != nil {
		return nil, err
	}
	host, ev, err := cl.MapBuffer[byte](p.q, buf, true, mapFlags, 0, size)
	if err != nil {
		buf.Release()
		return nil, err
	}
	ev.Release()
	return &Pinned{Buf: buf, Host: host}, nil
}

// Put returns b to the pool, unmapping and releasing the largest held
// buffers where it would not fit beside them; it unmaps and releases b
// itself when the pool is closed or b alone is larger than the pool.
func (p *PinnedPool) Put(b *Pinned) {
	size := b.Buf.Size()
	p.mu.Lock()
	if p.free == nil || int64(size) > p.limit {
		p.mu.Unlock()
		p.Destroy(b)
		return
	}
	drop := makeRoom(p.free, &p.held, int64(size), p.limit)
	p.free[size] = append(p.free[size], b)
	p.held += int64(size)
	p.mu.Unlock()
	for _, d := range drop {
		p.Destroy(d)
	}
}

// Destroy unmaps and releases b, which is not in the pool.
func (p *PinnedPool) Destroy(b *Pinned) error {
	ev, err := cl.UnmapBuffer(p.q, b.Buf, b.Host)
	if err == nil {
		err = ev.Wait()
		ev.Release()
	}
	b.Host = nil
	return errors.Join(err, b.Buf.Release())
}

// Drain unmaps and releases the held buffers.
func (p *PinnedPool) Drain() error {
	p.mu.Lock()
	var all []*Pinned
	for _, bs := range p.free {
		all = append(all, bs...)
	}
	if p.free != nil {
		p.free = map[int][]*Pinned{}
	}
	p.held = 0
	p.mu.Unlock()
	var errs []error
	for _, b := range all {
		errs = append(errs, p.Destroy(b))
	}
	return errors.Join(errs...)
}

// Close releases the held buffers; buffers returned later are released.
func (p *PinnedPool) Close() error {
	err := p.Drain()
	p.mu.Lock()
	p.free = nil
	p.mu.Unlock()
	return err
}

// HostSlices is the registry of live pinned host slices (the front end's
// HostSlice), so that GEMM can tell whether an operand lies in pinned
// memory and copy it without staging.
type HostSlices struct {
	mu   sync.RWMutex
	live map[*Pinned]struct{}
	// shared are other engines' slices registered here (Share).
	shared map[*Pinned]struct{}
	closed bool
}

// New creates a pinned buffer of bytes bytes with pool (outside its size
// classes and its limit) and registers it; ErrClosed after Close.
func (s *HostSlices) New(pool *PinnedPool, bytes int) (*Pinned, error) {
	p, err := pool.create(bytes)
	if err != nil {
		return nil, err
	}
	if err := s.add(p); err != nil {
		pool.Destroy(p)
		return nil, err
	}
	return p, nil
}

// Free unregisters p and frees it through pool, if it is still live (a
// slice the engine's Close has freed is not freed again).
func (s *HostSlices) Free(pool *PinnedPool, p *Pinned) error {
	if !s.remove(p) {
		return nil
	}
	return pool.Destroy(p)
}

func (s *HostSlices) add(p *Pinned) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	if s.live == nil {
		s.live = map[*Pinned]struct{}{}
	}
	s.live[p] = struct{}{}
	return nil
}

// remove reports whether p was live (and so is the caller's to free).
func (s *HostSlices) remove(p *Pinned) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.live[p]
	delete(s.live, p)
	return ok
}

// Contains reports whether every element of x lies in one live slice of
// s. The caller must not release that slice while the call runs (a
// HostSlice in use by a call is the caller's to keep alive, as with any
// memory handed to a function).
func Contains[T Real](s *HostSlices, x []T) bool {
	if len(x) == 0 {
		return false
	}
	var v T
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(x)))
	hi := lo + uintptr(len(x))*unsafe.Sizeof(v)
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, m := range []map[*Pinned]struct{}{s.live, s.shared} {
		for p := range m {
			plo := uintptr(unsafe.Pointer(unsafe.SliceData(p.Host)))
			if lo >= plo && hi <= plo+uintptr(len(p.Host)) {
				return true
			}
		}
	}
	return false
}

// Close frees the slices still live (the engine is closing) through pool.
func (s *HostSlices) Close(pool *PinnedPool) error {
	s.mu.Lock()
	live := s.live
	s.live, s.shared, s.closed = nil, nil, true
	s.mu.Unlock()
	var errs []error
	for p := range live {
		errs = append(errs, pool.Destroy(p))
	}
	return errors.Join(errs...)
}
