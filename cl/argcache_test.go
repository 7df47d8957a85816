package cl

import (
	"errors"
	"testing"
	"unsafe"
)

// TestSetArgSkipsRepeats: setting an argument to the value it already has
// makes no driver call, and every launch still sees the values last set,
// whatever order buffers and scalars change in.
func TestSetArgSkipsRepeats(t *testing.T) {
	e := newEnv(t, 0)
	k := e.kernel(t, `kernel void k(global int* out, int v, float w) { out[0] = v + (int)w; }`, "k")
	b1, b2 := e.buffer(t, MemReadWrite, 4), e.buffer(t, MemReadWrite, 4)
	read := func(b *Buffer) int32 {
		t.Helper()
		out := make([]int32, 1)
		if _, err := ReadBuffer(e.q, b, true, 0, out); err != nil {
			t.Fatal(err)
		}
		return out[0]
	}
	steps := []struct {
		buf   *Buffer
		v     int32
		w     float32
		calls int64 // driver calls the SetArgs should make
	}{
		{b1, 1, 10, 3},
		{b1, 1, 10, 0},
		{b2, 1, 10, 1},
		{b2, 2, 10, 1},
		{b1, 2, 20, 2},
		{b1, 2, 20, 0},
	}
	for i, s := range steps {
		before := setArgCalls.Load()
		if err := k.SetArgs(s.buf, s.v, s.w); err != nil {
			t.Fatal(err)
		}
		if got := setArgCalls.Load() - before; got != s.calls {
			t.Errorf("step %d: %d clSetKernelArg calls, want %d", i, got, s.calls)
		}
		ev, err := e.q.EnqueueKernel(k, []int{1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ev.Release()
		if got, want := read(s.buf), s.v+int32(s.w); got != want {
			t.Errorf("step %d: kernel wrote %d, want %d", i, got, want)
		}
	}
	// A failed set (wrong size) forgets the remembered value, so setting it
	// again reaches the driver; the buffer argument is kept meanwhile.
	if err := k.setArg(1, 2, unsafe.Pointer(&[2]byte{}), nil); err == nil {
		t.Fatal("a 2-byte int argument was accepted")
	}
	before := setArgCalls.Load()
	if err := SetArg(k, 1, int32(2)); err != nil {
		t.Fatal(err)
	}
	if setArgCalls.Load() == before {
		t.Error("the value set before a failed set was taken as still known")
	}
	if err := e.q.EnqueueKernelNoEvent(k, []int{1}, nil); err != nil {
		t.Fatal(err)
	}
	if err := e.q.Finish(); err != nil {
		t.Fatal(err)
	}
	if got := read(b1); got != 22 {
		t.Errorf("EnqueueKernelNoEvent: kernel wrote %d, want 22", got)
	}
	if err := e.q.EnqueueKernelNoEvent(nil, []int{1}, nil); !errors.Is(err, InvalidKernel) {
		t.Errorf("EnqueueKernelNoEvent(nil): %v, want CL_INVALID_KERNEL", err)
	}
	// A failed set of a buffer argument leaves the driver's argument naming
	// the old buffer: the kernel still tracks it, so enqueueing after that
	// buffer's release is refused rather than run on a dangling handle.
	b4, err := e.ctx.CreateBuffer(MemReadWrite, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.SetArgBuffer(0, b4); err != nil {
		t.Fatal(err)
	}
	if err := k.setArg(0, 2, unsafe.Pointer(&[2]byte{}), nil); err == nil {
		t.Fatal("a 2-byte buffer argument was accepted")
	}
	b4.Release()
	if _, err := e.q.EnqueueKernel(k, []int{1}, nil); !errors.Is(err, ErrReleased) {
		t.Errorf("enqueue after a failed set and the old buffer's release: %v, want ErrReleased", err)
	}
	// A released buffer is refused even though the argument still names it.
	b3, err := e.ctx.CreateBuffer(MemReadWrite, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.SetArgBuffer(0, b3); err != nil {
		t.Fatal(err)
	}
	b3.Release()
	if err := k.SetArgBuffer(0, b3); !errors.Is(err, ErrReleased) {
		t.Errorf("setting a released buffer again: %v, want ErrReleased", err)
	}
	if _, err := e.q.EnqueueKernel(k, []int{1}, nil); !errors.Is(err, ErrReleased) {
		t.Errorf("enqueueing with a released buffer argument: %v, want ErrReleased", err)
	}
}
