package cl

import (
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// TestAsyncPipeline writes two vectors, runs axpy and reads the result,
// non-blocking all the way and chained only by events.
func TestAsyncPipeline(t *testing.T) { testAsyncPipeline(t, false) }

// TestAsyncPipelineGC is the same with the only Go references to the
// input slices dropped, and GC cycles and fresh allocations between every
// step, while the writes wait on a user event: the pinning must keep the
// memory the driver reads from alive and intact.
func TestAsyncPipelineGC(t *testing.T) { testAsyncPipeline(t, true) }

func testAsyncPipeline(t *testing.T, gc bool) {
	e := newEnv(t, 0)
	k := e.kernel(t, axpySrc, "axpy")
	const n = 1 << 20
	bx := e.buffer(t, MemReadOnly, 4*n)
	by := e.buffer(t, MemReadWrite, 4*n)
	churn := func() {
		if gc {
			for range 3 {
				runtime.GC()
				junk := make([]float32, n) // reuses freed memory, if any
				for i := range junk {
					junk[i] = -1
				}
			}
		}
	}
	gate := ev(t)(e.ctx.CreateUserEvent())
	var wx, wy *Event
	func() {
		x := make([]float32, n)
		y := make([]float32, n)
		for i := range x {
			x[i] = float32(i)
			y[i] = 1
		}
		wx = ev(t)(WriteBuffer(e.q, bx, false, 0, x, gate))
		wy = ev(t)(WriteBuffer(e.q, by, false, 0, y, gate))
	}()
	churn()
	if s, _ := wx.Status(); s == Complete {
		t.Fatal("write completed before its gate")
	}
	if err := gate.SetComplete(); err != nil {
		t.Fatal(err)
	}
	churn()
	if err := k.SetArgs(float32(2), bx, by); err != nil {
		t.Fatal(err)
	}
	kev := ev(t)(e.q.EnqueueKernel(k, []int{n}, nil, wx, wy))
	churn()
	out := make([]float32, n)
	rev := ev(t)(ReadBuffer(e.q, by, false, 0, out, kev))
	churn()
	if err := e.q.Flush(); err != nil {
		t.Fatal(err)
	}
	wait(t, rev)
	for i, v := range out {
		if want := 1 + 2*float32(i); v != want {
			t.Fatalf("out[%d] = %v, want %v", i, v, want)
		}
	}
	for _, x := range []*Event{wx, wy, kev, rev} {
		if s, err := x.Status(); err != nil || s != Complete {
			t.Errorf("status %v, %v", s, err)
		}
	}
}

func TestBlockingTransfersAndOffsets(t *testing.T) {
	e := newEnv(t, 0)
	b := e.buffer(t, MemReadWrite, 4*100)
	src := make([]int32, 100)
	for i := range src {
		src[i] = int32(i)
	}
	ev(t)(WriteBuffer(e.q, b, true, 0, src))
	// Overwrite elements 10..14 and read 8..16.
	ev(t)(WriteBuffer(e.q, b, true, 10, []int32{-1, -2, -3, -4, -5}))
	got := make([]int32, 8)
	ev(t)(ReadBuffer(e.q, b, true, 8, got))
	want := []int32{8, 9, -1, -2, -3, -4, -5, 15}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	// Out of range, on the Go side.
	for _, c := range []struct{ off, n int }{{-1, 1}, {0, 101}, {96, 5}} {
		if _, err := ReadBuffer(e.q, b, true, c.off, make([]int32, c.n)); !errors.Is(err, InvalidValue) {
			t.Errorf("ReadBuffer(off %d, n %d) = %v", c.off, c.n, err)
		}
	}
	// CreateBufferFrom copies.
	bf, err := CreateBufferFrom(e.ctx, MemReadOnly, []float64{1.5, 2.5})
	if err != nil {
		t.Fatal(err)
	}
	defer bf.Release()
	g := make([]float64, 2)
	ev(t)(ReadBuffer(e.q, bf, true, 0, g))
	if g[0] != 1.5 || g[1] != 2.5 || bf.Size() != 16 {
		t.Errorf("CreateBufferFrom: %v, size %d", g, bf.Size())
	}
	if _, err := e.ctx.CreateBuffer(MemReadWrite, 0); !errors.Is(err, InvalidBufferSize) {
		t.Errorf("zero-size buffer: %v", err)
	}
	if _, err := CreateBufferFrom[float32](e.ctx, MemReadWrite, nil); !errors.Is(err, InvalidBufferSize) {
		t.Errorf("empty CreateBufferFrom: %v", err)
	}
	if _, err := e.ctx.CreateBuffer(MemFlags(1<<3), 16); !errors.Is(err, InvalidValue) { // CL_MEM_USE_HOST_PTR
		t.Errorf("USE_HOST_PTR accepted: %v", err)
	}
}

// TestRect moves a 5×7 submatrix between padded host matrices (leading
// dimensions 9 and 11) and a packed device matrix, non-blocking.
func TestRect(t *testing.T) {
	e := newEnv(t, 0)
	const rows, cols, lda, ldb = 5, 7, 9, 11
	a := make([]float32, rows*lda)
	for i := range a {
		a[i] = float32(i)
	}
	buf := e.buffer(t, MemReadWrite, 4*rows*cols)
	w := ev(t)(WriteBufferRect(e.q, buf, false, Rect{Region: [3]int{cols, rows, 1}, HostRowPitch: lda}, a))
	bhost := make([]float32, (rows+1)*ldb)
	for i := range bhost {
		bhost[i] = -1
	}
	// Read into rows 1.. and columns 2.. of bhost.
	r := ev(t)(ReadBufferRect(e.q, buf, false, Rect{HostOrigin: [3]int{2, 1, 0}, Region: [3]int{cols, rows, 1}, HostRowPitch: ldb}, bhost, w))
	wait(t, r)
	for i := range rows + 1 {
		for j := range ldb {
			want := float32(-1)
			if i >= 1 && j >= 2 && j < 2+cols {
				want = a[(i-1)*lda+j-2]
			}
			if got := bhost[i*ldb+j]; got != want {
				t.Fatalf("b[%d,%d] = %v, want %v", i, j, got, want)
			}
		}
	}
	// The packed buffer holds the matrix without padding.
	packed := make([]float32, rows*cols)
	ev(t)(ReadBuffer(e.q, buf, true, 0, packed))
	if packed[cols] != a[lda] {
		t.Errorf("packed[%d] = %v, want %v", cols, packed[cols], a[lda])
	}
	// CopyBufferRect: the 2×3 block at (1,2) of the device matrix to the
	// origin of a 4×4 device matrix.
	dst := e.buffer(t, MemReadWrite, 4*16)
	ev(t)(FillBuffer(e.q, dst, float32(0), 0, 16))
	ev(t)(CopyBufferRect[float32](e.q, buf, dst, Rect{BufferOrigin: [3]int{2, 1, 0}, Region: [3]int{3, 2, 1}, BufferRowPitch: cols, HostRowPitch: 4}))
	d := make([]float32, 16)
	ev(t)(ReadBuffer(e.q, dst, true, 0, d))
	for i := range 2 {
		for j := range 3 {
			if want := a[(1+i)*lda+2+j]; d[i*4+j] != want {
				t.Fatalf("copy rect [%d,%d] = %v, want %v", i, j, d[i*4+j], want)
			}
		}
	}
	if d[3] != 0 || d[8] != 0 {
		t.Errorf("copy rect wrote outside its region: %v", d)
	}
	// A copy side must hold whole rows from its origin's row on (NVIDIA's
	// driver rejects less, though the spec counts only what is copied):
	// from a 1-element buffer with a row pitch of 5, from the last 2 rows
	// of an 11-element one (2 rows of pitch 5 and one element), and into
	// such a one; the same rects over whole rows copy.
	one, short, whole := e.buffer(t, MemReadWrite, 4), e.buffer(t, MemReadWrite, 4*11), e.buffer(t, MemReadWrite, 4*15)
	for _, c := range []struct {
		src, dst *Buffer
		r        Rect
		ok       bool
	}{
		{one, dst, Rect{Region: [3]int{1, 1, 1}, BufferRowPitch: 5, HostRowPitch: 4}, false},
		{one, dst, Rect{Region: [3]int{1, 1, 1}, HostRowPitch: 4}, true},
		{short, dst, Rect{BufferOrigin: [3]int{0, 1, 0}, Region: [3]int{1, 2, 1}, BufferRowPitch: 5, HostRowPitch: 4}, false},
		{whole, dst, Rect{BufferOrigin: [3]int{0, 1, 0}, Region: [3]int{1, 2, 1}, BufferRowPitch: 5, HostRowPitch: 4}, true},
		{dst, short, Rect{Region: [3]int{1, 3, 1}, BufferRowPitch: 4, HostRowPitch: 5}, false},
		{dst, whole, Rect{Region: [3]int{1, 3, 1}, BufferRowPitch: 4, HostRowPitch: 5}, true},
	} {
		ev, err := CopyBufferRect[float32](e.q, c.src, c.dst, c.r)
		if c.ok {
			if err != nil {
				t.Errorf("CopyBufferRect(%+v): %v", c.r, err)
				continue
			}
			wait(t, ev)
			ev.Release()
		} else if !errors.Is(err, InvalidValue) {
			t.Errorf("CopyBufferRect(%+v) = %v, want %v", c.r, err, InvalidValue)
		}
	}
	// The host extent is checked before the driver sees it.
	for _, bad := range []Rect{
		{Region: [3]int{cols, rows, 1}, HostRowPitch: lda, HostOrigin: [3]int{3, 0, 0}}, // runs past a
		{Region: [3]int{cols, rows, 1}, HostRowPitch: 3},                                // pitch < row
		{Region: [3]int{cols, 0, 1}},
		{Region: [3]int{cols, rows, 1}, BufferOrigin: [3]int{0, 1, 0}}, // past the buffer
	} {
		if _, err := WriteBufferRect(e.q, buf, true, bad, a); !errors.Is(err, InvalidValue) {
			t.Errorf("WriteBufferRect(%+v) = %v", bad, err)
		}
	}
}

func TestFillCopy(t *testing.T) {
	e := newEnv(t, 0)
	a := e.buffer(t, MemReadWrite, 4*64)
	b := e.buffer(t, MemReadWrite, 4*64)
	f1 := ev(t)(FillBuffer(e.q, a, float32(3), 0, 64))
	f2 := ev(t)(FillBuffer(e.q, a, float32(7), 8, 4, f1))
	f3 := ev(t)(FillBuffer(e.q, b, uint32(0), 0, 64))
	c := ev(t)(CopyBuffer[float32](e.q, a, b, 6, 30, 10, f2, f3))
	got := make([]float32, 64)
	ev(t)(ReadBuffer(e.q, b, true, 0, got, c))
	for i, v := range got {
		want := float32(0)
		if i >= 30 && i < 40 {
			want = 3
			if s := i - 30 + 6; s >= 8 && s < 12 {
				want = 7
			}
		}
		if v != want {
			t.Fatalf("b[%d] = %v, want %v (%v)", i, v, want, got)
		}
	}
	if _, err := CopyBuffer[float32](e.q, a, b, 60, 0, 5); !errors.Is(err, InvalidValue) {
		t.Errorf("copy past the end: %v", err)
	}
	if _, err := FillBuffer(e.q, a, float32(0), -1, 2); !errors.Is(err, InvalidValue) {
		t.Errorf("fill at -1: %v", err)
	}
	// Overlapping copy within one buffer is the driver's error, by name.
	if _, err := CopyBuffer[float32](e.q, a, a, 0, 2, 8); !errors.Is(err, MemCopyOverlap) {
		t.Errorf("overlapping copy: %v", err)
	}
}

func TestMapBuffer(t *testing.T) {
	e := newEnv(t, 0)
	b := e.buffer(t, MemReadWrite|MemAllocHostPtr, 4*32)
	m, me, err := MapBuffer[int32](e.q, b, false, MapWriteInvalidateRegion, 0, 32)
	if err != nil {
		t.Fatal(err)
	}
	defer me.Release()
	wait(t, me)
	for i := range m {
		m[i] = int32(i * i)
	}
	ev(t)(UnmapBuffer(e.q, b, m))
	got := make([]int32, 32)
	ev(t)(ReadBuffer(e.q, b, true, 0, got))
	for i, v := range got {
		if v != int32(i*i) {
			t.Fatalf("got[%d] = %d", i, v)
		}
	}
	// Map part of it for reading, blocking.
	r, re, err := MapBuffer[int32](e.q, b, true, MapRead, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer re.Release()
	if len(r) != 3 || r[0] != 16 || r[2] != 36 {
		t.Errorf("mapped %v", r)
	}
	wait(t, ev(t)(UnmapBuffer(e.q, b, r)))
	if _, _, err := MapBuffer[int32](e.q, b, true, MapRead, 30, 3); !errors.Is(err, InvalidValue) {
		t.Errorf("map past the end: %v", err)
	}
	if _, err := UnmapBuffer[int32](e.q, b, nil); !errors.Is(err, InvalidValue) {
		t.Errorf("unmap nil: %v", err)
	}
}

func TestSubBuffer(t *testing.T) {
	e := newEnv(t, 0)
	align := e.d.MemBaseAddrAlign() / 8
	if align <= 0 {
		t.Fatalf("MemBaseAddrAlign = %d bits", e.d.MemBaseAddrAlign())
	}
	parent := e.buffer(t, MemReadWrite, 3*align)
	ev(t)(FillBuffer(e.q, parent, uint8(0), 0, 3*align))
	sub, err := parent.CreateSubBuffer(0, align, align)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Release()
	if sub.Size() != align {
		t.Errorf("sub size %d", sub.Size())
	}
	ev(t)(FillBuffer(e.q, sub, uint8(9), 0, align))
	// A kernel sees the sub-buffer as its own array.
	k := e.kernel(t, `__kernel void inc(__global uchar* p) { p[get_global_id(0)] += 1; }`, "inc")
	if err := k.SetArgs(sub); err != nil {
		t.Fatal(err)
	}
	ev(t)(e.q.EnqueueKernel(k, []int{align}, nil))
	all := make([]uint8, 3*align)
	ev(t)(ReadBuffer(e.q, parent, true, 0, all))
	for i, v := range all {
		want := uint8(0)
		if i >= align && i < 2*align {
			want = 10
		}
		if v != want {
			t.Fatalf("parent[%d] = %d, want %d", i, v, want)
		}
	}
	// The parent's memory outlives its Release while the sub-buffer lives.
	rc, _ := sub.ReferenceCount()
	if rc < 1 {
		t.Errorf("sub refcount %d", rc)
	}
	if _, err := parent.CreateSubBuffer(0, 2*align, 2*align); !errors.Is(err, InvalidValue) {
		t.Errorf("sub past the end: %v", err)
	}
	if align > 1 {
		if _, err := parent.CreateSubBuffer(0, 1, 4); !errors.Is(err, MisalignedSubBufferOffset) {
			t.Errorf("misaligned sub: %v", err)
		}
	}
}

// TestCreateBufferOver: a kernel writes into a buffer over Go memory; after
// a map/unmap the Go slice holds the result; the memory stays pinned until
// the driver deletes the buffer (after Release and the commands using it),
// then LiveObjects' "hostmem" count drops back.
func TestCreateBufferOver(t *testing.T) {
	e := newEnv(t, 0)
	k := e.kernel(t, `__kernel void twice(__global float* x) { size_t i = get_global_id(0); x[i] = 2 * x[i] + 1; }`, "twice")
	base := LiveObjects()
	const n = 4096
	data := make([]float32, n)
	for i := range data {
		data[i] = float32(i)
	}
	b, err := CreateBufferOver(e.ctx, MemReadWrite, data)
	if err != nil {
		t.Fatal(err)
	}
	if got := LiveObjects()["hostmem"] - base["hostmem"]; got != 1 {
		t.Errorf("%d pinned host slices after CreateBufferOver, want 1", got)
	}
	if err := k.SetArgs(b); err != nil {
		t.Fatal(err)
	}
	run := ev(t)(e.q.EnqueueKernel(k, []int{n}, nil))
	m, mev, err := MapBuffer[float32](e.q, b, true, MapRead, 0, n, run)
	if err != nil {
		t.Fatal(err)
	}
	mev.Release()
	if &m[0] == &data[0] {
		t.Log("the driver maps the Go memory itself: no copy")
	}
	for i, v := range m {
		if v != 2*float32(i)+1 {
			t.Fatalf("mapped element %d = %v, want %v", i, v, 2*float32(i)+1)
		}
	}
	uev := ev(t)(UnmapBuffer(e.q, b, m))
	wait(t, uev)
	for i, v := range data {
		if v != 2*float32(i)+1 {
			t.Fatalf("Go slice element %d = %v after the unmap, want %v", i, v, 2*float32(i)+1)
		}
	}
	if err := b.Release(); err != nil {
		t.Fatal(err)
	}
	if err := e.q.Finish(); err != nil {
		t.Fatal(err)
	}
	// The destructor callback may run on a driver thread a little later.
	deadline := time.Now().Add(5 * time.Second)
	for LiveObjects()["hostmem"] != base["hostmem"] {
		if time.Now().After(deadline) {
			t.Fatalf("%d pinned host slices after Release and Finish, want %d", LiveObjects()["hostmem"], base["hostmem"])
		}
		time.Sleep(time.Millisecond)
	}
	if _, err := CreateBufferOver(e.ctx, MemReadWrite|MemAllocHostPtr, data); !errors.Is(err, InvalidValue) {
		t.Errorf("CreateBufferOver with ALLOC_HOST_PTR: %v, want CL_INVALID_VALUE", err)
	}
	if _, err := CreateBufferOver(e.ctx, MemReadWrite, data[:0]); !errors.Is(err, InvalidBufferSize) {
		t.Errorf("CreateBufferOver of nothing: %v, want CL_INVALID_BUFFER_SIZE", err)
	}
}

// TestCreateBufferOverForeign runs a kernel on a buffer over memory taken
// outside Go's heap, reads the result through the buffer, and checks that
// free runs exactly once, after Release and Finish, and not when the
// arguments are refused.
func TestCreateBufferOverForeign(t *testing.T) {
	e := newEnv(t, 0)
	k := e.kernel(t, `__kernel void twice(__global float* x) { size_t i = get_global_id(0); x[i] = 2 * x[i] + 1; }`, "twice")
	base := LiveObjects()
	const n = 4096
	// Go memory, pinned, stands in for memory from mmap.
	mem := make([]byte, 4*n+128)
	var pin runtime.Pinner
	pin.Pin(&mem[0])
	defer pin.Unpin()
	off := (128 - int(uintptr(unsafe.Pointer(&mem[0]))%128)) % 128
	var freed atomic.Int32
	b, err := CreateBufferOverForeign(e.ctx, MemReadWrite, mem[off:off+4*n], func() { freed.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	if got := LiveObjects()["hostmem"] - base["hostmem"]; got != 1 {
		t.Errorf("%d host memories after CreateBufferOverForeign, want 1", got)
	}
	data := make([]float32, n)
	for i := range data {
		data[i] = float32(i)
	}
	wait(t, ev(t)(WriteBuffer(e.q, b, false, 0, data)))
	if err := k.SetArgs(b); err != nil {
		t.Fatal(err)
	}
	run := ev(t)(e.q.EnqueueKernel(k, []int{n}, nil))
	got := make([]float32, n)
	wait(t, ev(t)(ReadBuffer(e.q, b, false, 0, got, run)))
	for i, v := range got {
		if v != 2*float32(i)+1 {
			t.Fatalf("element %d = %v, want %v", i, v, 2*float32(i)+1)
		}
	}
	if freed.Load() != 0 {
		t.Fatal("free ran before Release")
	}
	if err := b.Release(); err != nil {
		t.Fatal(err)
	}
	if err := e.q.Finish(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for freed.Load() == 0 || LiveObjects()["hostmem"] != base["hostmem"] {
		if time.Now().After(deadline) {
			t.Fatalf("free ran %d times and %d host memories are left after Release and Finish, want 1 and %d",
				freed.Load(), LiveObjects()["hostmem"], base["hostmem"])
		}
		time.Sleep(time.Millisecond)
	}
	if f := freed.Load(); f != 1 {
		t.Errorf("free ran %d times, want 1", f)
	}
	never := func() { t.Error("free ran for a buffer that was not created") }
	for _, c := range []struct {
		what  string
		flags MemFlags
		mem   []byte
		free  func()
		want  error
	}{
		{"ALLOC_HOST_PTR", MemReadWrite | MemAllocHostPtr, mem[off : off+64], never, InvalidValue},
		{"no free", MemReadWrite, mem[off : off+64], nil, InvalidValue},
		{"nothing", MemReadWrite, mem[:0], never, InvalidBufferSize},
	} {
		if _, err := CreateBufferOverForeign(e.ctx, c.flags, c.mem, c.free); !errors.Is(err, c.want) {
			t.Errorf("CreateBufferOverForeign, %s: %v, want %v", c.what, err, c.want)
		}
	}
}
