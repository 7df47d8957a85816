package cl

import (
	"errors"
	"testing"
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
