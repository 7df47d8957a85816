package engine

import (
	"errors"
	"math/bits"
	"runtime"
	"sync"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

// ErrClosed is returned by device calls after the engine has closed.
var ErrClosed = errors.New("clblas: device closed")

// BufferPool keeps released device buffers by power-of-two size class, so
// repeated calls reuse them instead of allocating. It holds at most a
// quarter of the device's memory (and at most 2 GiB). A buffer returned
// to a full pool stays, and the largest held buffers are released to make
// room: otherwise the scratch of one large call would fill the pool for
// good, and every smaller call after it would allocate and release its
// own on each call. The zero value must be set up with Init.
type BufferPool struct {
	ctx   *cl.Context
	prof  platform.Profile
	mu    sync.Mutex
	free  map[int][]*cl.Buffer
	held  int64
	limit int64
	max   int64
}

// Init sets the pool up for buffers of ctx on the device prof describes.
func (p *BufferPool) Init(ctx *cl.Context, prof platform.Profile) {
	p.ctx, p.prof = ctx, prof
	p.free = map[int][]*cl.Buffer{}
	p.limit = min(prof.GlobalMemBytes/4, 2<<30)
	p.max = prof.MaxAllocBytes
}

// SizeClass is the size of the pooled buffer that serves a request of
// bytes bytes: the next power of two, at least 4 KiB.
func SizeClass(bytes int) int {
	if bytes <= 4096 {
		return 4096
	}
	return 1 << bits.Len(uint(bytes-1))
}

// Get returns a device buffer of at least bytes bytes, from the pool when
// it holds one of the size class. When the device is out of memory, the
// pool frees what it holds and tries once more.
func (p *BufferPool) Get(bytes int) (*cl.Buffer, error) {
	size := SizeClass(bytes)
	if p.max > 0 && int64(size) > p.max {
		size = bytes // a power of two would exceed the device's largest allocation
	}
	p.mu.Lock()
	if bs := p.free[size]; len(bs) > 0 {
		b := bs[len(bs)-1]
		p.free[size] = bs[:len(bs)-1]
		p.held -= int64(size)
		p.mu.Unlock()
		return b, nil
	}
	p.mu.Unlock()
	b, err := CreateBuffer(p.ctx, p.prof, size)
	if err != nil {
		// Free what the pool holds and try once more.
		p.Drain()
		runtime.GC()
		b, err = CreateBuffer(p.ctx, p.prof, size)
	}
	return b, err
}

// Put returns b to the pool, releasing the largest held buffers where it
// would not fit beside them; it releases b itself when the pool is closed
// or b alone is larger than the pool.
func (p *BufferPool) Put(b *cl.Buffer) {
	size := b.Size()
	p.mu.Lock()
	if p.free == nil || int64(size) > p.limit {
		p.mu.Unlock()
		b.Release()
		return
	}
	drop := makeRoom(p.free, &p.held, int64(size), p.limit)
	p.free[size] = append(p.free[size], b)
	p.held += int64(size)
	p.mu.Unlock()
	for _, d := range drop {
		d.Release()
	}
}

// makeRoom takes the largest buffers out of free, a pool's buffers by
// size class holding held bytes, until size more bytes fit under limit,
// and returns them for the caller to release outside its lock.
func makeRoom[B any](free map[int][]B, held *int64, size, limit int64) []B {
	var drop []B
	for *held+size > limit {
		c := 0
		for class, bs := range free {
			if len(bs) > 0 && class > c {
				c = class
			}
		}
		if c == 0 {
			break
		}
		bs := free[c]
		drop = append(drop, bs[len(bs)-1])
		free[c] = bs[:len(bs)-1]
		*held -= int64(c)
	}
	return drop
}

// Close releases the held buffers and makes Put release from now on.
func (p *BufferPool) Close() {
	p.Drain()
	p.mu.Lock()
	p.free = nil
	p.mu.Unlock()
}

// Drain releases the held buffers.
func (p *BufferPool) Drain() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, bs := range p.free {
		for _, b := range bs {
			b.Release()
		}
	}
	if p.free != nil {
		p.free = map[int][]*cl.Buffer{}
	}
	p.held = 0
}
