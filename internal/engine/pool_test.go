package engine

import (
	"errors"
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform/platformtest"
)

// TestBufferPool: a returned buffer of a size class is handed out again;
// a full pool releases what it is given; a closed one hands out fresh
// buffers and releases returned ones.
func TestBufferPool(t *testing.T) {
	rt := platformtest.Runtime(t)
	var p BufferPool
	p.Init(rt.Context(), rt.Device().Profile())
	b, err := p.Get(5000)
	if err != nil {
		t.Fatal(err)
	}
	if b.Size() != 8192 {
		t.Errorf("Get(5000): %d bytes, want the size class 8192", b.Size())
	}
	p.Put(b)
	if b2, err := p.Get(8000); err != nil || b2 != b {
		t.Errorf("Get(8000) after Put: %p, %v; want the pooled buffer %p", b2, err, b)
	} else {
		p.Put(b2)
	}
	p.limit = 0 // full: Put releases
	c, err := p.Get(100)
	if err != nil {
		t.Fatal(err)
	}
	p.Put(c)
	if len(p.free[4096]) != 0 || p.held != 8192 {
		t.Errorf("a full pool kept a buffer: %d held", p.held)
	}
	p.Close()
	if p.held != 0 || p.free != nil {
		t.Errorf("Close left %d bytes held", p.held)
	}
	d, err := p.Get(100)
	if err != nil {
		t.Fatal(err)
	}
	p.Put(d) // released, not kept
	if p.free != nil {
		t.Error("Put after Close kept the buffer")
	}
}

// TestBufferPoolMakesRoom: a buffer returned to a full pool stays, and the
// largest held buffers are released in its place, so that after one large
// call the smaller calls' scratch is still reused, not allocated afresh on
// every call.
func TestBufferPoolMakesRoom(t *testing.T) {
	rt := platformtest.Runtime(t)
	var p BufferPool
	p.Init(rt.Context(), rt.Device().Profile())
	defer p.Close()
	const k64, k256 = 64 << 10, 256 << 10
	p.limit = 2*k256 + k64
	get := func(n int) *cl.Buffer {
		b, err := p.Get(n)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	big1, big2, small := get(k256), get(k256), get(k64)
	p.Put(big1)
	p.Put(big2)
	p.Put(small) // fits exactly
	if p.held != 2*k256+k64 {
		t.Fatalf("held %d bytes, want %d", p.held, 2*k256+k64)
	}
	small2 := get(k64) // the pooled one
	other := get(k64)  // a new one
	p.Put(small2)
	p.Put(other) // over the limit: a 256 KiB buffer makes room
	if p.held != k256+2*k64 || len(p.free[k256]) != 1 || len(p.free[k64]) != 2 {
		t.Errorf("held %d bytes in %d + %d buffers, want %d in one of 256 KiB and two of 64 KiB",
			p.held, len(p.free[k256]), len(p.free[k64]), k256+2*k64)
	}
	a, b := get(k64), get(k64)
	if (a != small2 && a != other) || (b != small2 && b != other) || a == b {
		t.Error("the returned 64 KiB buffers were not kept")
	}
	p.Put(a)
	p.Put(b)
	huge := get(4 * k256) // larger than the pool: released, the pool kept
	p.Put(huge)
	if p.held != k256+2*k64 || len(p.free[4*k256]) != 0 {
		t.Errorf("a buffer larger than the pool: held %d bytes, want %d", p.held, k256+2*k64)
	}
}

// TestPinnedPoolAndHostSlices: pinned buffers are mapped and pooled;
// HostSlices tells slices inside a live registered buffer from others,
// frees each once, and after Close refuses new ones with ErrClosed.
func TestPinnedPoolAndHostSlices(t *testing.T) {
	rt := platformtest.Runtime(t)
	var p PinnedPool
	p.Init(rt.Context(), rt.Queue())
	b, err := p.Get(1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Host) != 64<<10 || b.Buf.Size() != 64<<10 {
		t.Errorf("Get(1000): %d bytes mapped, want 64 KiB", len(b.Host))
	}
	v := PinnedView[float64](b, 10)
	v[9] = 3 // the mapping is writable
	p.Put(b)
	if b2, _ := p.Get(64 << 10); b2 != b {
		t.Error("the pooled pinned buffer was not reused")
	} else {
		p.Put(b2)
	}

	var s HostSlices
	h, err := s.New(&p, 800)
	if err != nil {
		t.Fatal(err)
	}
	x := PinnedView[float32](h, 200)
	if !Contains(&s, x) || !Contains(&s, x[50:60]) {
		t.Error("a slice of a live HostSlice is not found")
	}
	if Contains(&s, make([]float32, 10)) || Contains(&s, x[:0]) {
		t.Error("Go memory or an empty slice counts as pinned")
	}
	h2, err := s.New(&p, 800)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Free(&p, h); err != nil {
		t.Fatal(err)
	}
	if err := s.Free(&p, h); err != nil {
		t.Errorf("a second Free: %v", err)
	}
	if err := s.Close(&p); err != nil { // frees h2
		t.Fatal(err)
	}
	if h2.Host != nil {
		t.Error("Close left a live slice mapped")
	}
	if _, err := s.New(&p, 8); !errors.Is(err, ErrClosed) {
		t.Errorf("New after Close: %v, want ErrClosed", err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Get(8); !errors.Is(err, ErrClosed) {
		t.Errorf("Get after Close: %v, want ErrClosed", err)
	}
}

// TestHostSlicesShare: a slice shared from another registry counts for
// Contains until it is unshared, and is not freed by this one's Close.
func TestHostSlicesShare(t *testing.T) {
	p := &Pinned{Host: make([]byte, 64*8)}
	host := PinnedView[float64](p, 64)
	var s HostSlices
	if Contains(&s, host[8:16]) {
		t.Fatal("an unregistered slice is contained")
	}
	if err := s.Share(p); err != nil {
		t.Fatal(err)
	}
	if !Contains(&s, host[8:16]) || Contains(&s, make([]float64, 4)) {
		t.Error("Contains after Share")
	}
	s.Unshare(p)
	if Contains(&s, host[8:16]) {
		t.Error("Contains after Unshare")
	}
	s.Share(p)
	if err := s.Close(nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Share(p); err != ErrClosed {
		t.Errorf("Share after Close: %v, want ErrClosed", err)
	}
}

// TestPinnedPoolMakesRoom: a request of half a held buffer's class reuses
// it; a buffer returned to a full pool stays, and a held buffer (the
// largest) is released in its place, so that a size in use is not pinned
// afresh on every call.
func TestPinnedPoolMakesRoom(t *testing.T) {
	rt := platformtest.Runtime(t)
	var p PinnedPool
	p.Init(rt.Context(), rt.Queue())
	defer p.Close()
	const k64, k128, k256 = 64 << 10, 128 << 10, 256 << 10
	p.SetLimit(2 * k256)
	get := func(n int) *Pinned {
		b, err := p.Get(n)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	big1, big2 := get(k256), get(k256)
	p.Put(big1)
	p.Put(big2)
	if half := get(k128); half != big2 {
		t.Errorf("Get(128 KiB) pinned a new buffer (%d bytes) beside a free 256 KiB one", half.Buf.Size())
	} else {
		p.Put(half)
	}
	small := get(k64) // a quarter of the held class: pinned anew
	if small == big1 || small == big2 || small.Buf.Size() != k64 {
		t.Fatalf("Get(64 KiB) = a %d-byte buffer", small.Buf.Size())
	}
	p.Put(small) // over the limit: a 256 KiB buffer makes room
	if p.held != k256+k64 {
		t.Errorf("held %d bytes, want %d", p.held, k256+k64)
	}
	if big1.Host != nil && big2.Host != nil {
		t.Error("no held buffer was released")
	}
	again := get(k64)
	if again != small {
		t.Error("the returned 64 KiB buffer was not kept")
	}
	p.Put(again)
}
