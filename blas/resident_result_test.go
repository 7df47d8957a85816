package clblas

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform/platformtest"
)

// TestScalarAfterClose: a Scalar's value survives the Implementation's
// Close (its result slot is saved before the pinned memory is unmapped),
// whether it was waited for before Close or not, and Close leaves no
// OpenCL buffer behind.
func TestScalarAfterClose(t *testing.T) {
	platformtest.Device(t)
	base := cl.LiveObjects()
	impl, err := New(WithOffload(Always))
	if err != nil {
		t.Fatal(err)
	}
	x, err := NewVectorFrom(impl, []float64{3, 4, 12})
	if err != nil {
		t.Fatal(err)
	}
	dot, err1 := Dot(x, x)
	nrm, err2 := Nrm2(x)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if err := dot.Wait(); err != nil {
		t.Fatal(err)
	}
	x.Release()
	if err := impl.Close(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if v, err := dot.Value(ctx); err != nil || v != 169 {
		t.Errorf("Dot after Close: %v, %v; want 169", v, err)
	}
	if v, err := nrm.Value(ctx); err != nil || v != 13 {
		t.Errorf("Nrm2 after Close: %v, %v; want 13", v, err)
	}
	if n := cl.LiveObjects()["buffer"]; n > base["buffer"] {
		t.Errorf("%d live buffers after Close, %d before New", n, base["buffer"])
	}
}

// TestScalarSlotsReused: Scalars dropped without Value give their result
// slots back (their cleanup frees them), so a long chain of reductions
// keeps reusing a few slabs of pinned memory; those read with Value give
// theirs back at once.
func TestScalarSlotsReused(t *testing.T) {
	e := testEngine(t)
	impl := newTestImpl(t)
	x, err := NewVectorFrom(impl, []float64{1, 2, 2})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Release()
	before := e.Slots.Slabs()
	const calls = 4 * 256 // four slabs' worth
	for i := range calls {
		s, err := Nrm2(x)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case i%3 == 0:
			if v, err := s.Value(context.Background()); err != nil || v != 3 {
				t.Fatalf("call %d: Nrm2 = %v, %v; want 3", i, v, err)
			}
		case i%64 == 63:
			if err := s.Wait(); err != nil {
				t.Fatal(err)
			}
			runtime.GC()
		}
	}
	if got := e.Slots.Slabs(); got > before+2 {
		t.Errorf("%d calls grew the slot pool from %d to %d slabs: dropped Scalars keep their slots", calls, before, got)
	}
}

// TestEventDoneLazy: an Event makes its Done channel on first use: Done
// asked after a Wait is closed already, Done asked before completion is
// closed by it, and waits from several goroutines at once agree.
func TestEventDoneLazy(t *testing.T) {
	impl := newTestImpl(t)
	x, err := NewVectorFrom(impl, []float64{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Release()
	ev, err := Scal(2, x)
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Wait(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ev.Done():
	default:
		t.Error("Done after Wait: not closed")
	}
	ev2, err := Scal(0.5, x)
	if err != nil {
		t.Fatal(err)
	}
	done := ev2.Done()
	errs := make(chan error, 3)
	go func() { errs <- ev2.Wait() }()
	go func() { errs <- ev2.WaitContext(context.Background()) }()
	go func() { <-ev2.Done(); errs <- nil }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Done asked before completion was never closed")
	}
	for range 3 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	got := make([]float64, 3)
	if err := x.Read(got); err != nil || got[2] != 3 {
		t.Errorf("x = %v, %v; want [1 2 3]", got, err)
	}
}
