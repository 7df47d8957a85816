package clblas

import (
	"context"
	"testing"
	"time"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform/platformtest"
)

// TestLazyEvents: element-wise resident operations create no OpenCL event
// until one is waited for; an operation's Event waited for after later
// ones were submitted (with Wait, WaitContext, Done, or as a dependency of
// a reduction) still reports completion, and its results are there.
func TestLazyEvents(t *testing.T) {
	impl := newTestImpl(t)
	x, err := NewVectorFrom(impl, []float64{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Release()
	y, err := NewVector[float64](impl, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer y.Release()
	before := cl.LiveObjects()["event"]
	const calls = 100
	evs := make([]*Event, calls)
	for i := range evs {
		if evs[i], err = Axpy(1, x, y); err != nil {
			t.Fatal(err)
		}
	}
	if got := cl.LiveObjects()["event"] - before; got > calls/10 {
		t.Errorf("%d Axpy calls made %d OpenCL events, want none", calls, got)
	}
	if err := evs[3].Wait(); err != nil {
		t.Fatalf("Wait on the 4th of %d: %v", calls, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := evs[10].WaitContext(ctx); err != nil {
		t.Fatalf("WaitContext on the 11th: %v", err)
	}
	select {
	case <-evs[20].Done():
	case <-time.After(20 * time.Second):
		t.Fatal("Done of the 21st never closed")
	}
	if err := evs[20].Wait(); err != nil {
		t.Fatal(err)
	}
	s, err := Dot(y, x, evs[calls-1])
	if err != nil {
		t.Fatal(err)
	}
	if v, err := s.Value(ctx); err != nil || v != calls*30 {
		t.Errorf("Dot after %d Axpy: %v, %v; want %d", calls, v, err, calls*30)
	}
	if err := WaitAll(ctx, evs...); err != nil {
		t.Fatal(err)
	}
}

// TestLazyEventAfterClose: the Event of an operation that was not waited
// for before the Implementation closed reports success (Close finished
// every command), and Close leaves no event behind.
func TestLazyEventAfterClose(t *testing.T) {
	platformtest.Device(t)
	base := cl.LiveObjects()
	impl, err := New(WithOffload(Always))
	if err != nil {
		t.Fatal(err)
	}
	x, err := NewVectorFrom(impl, []float64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	ev, err := Scal(3, x)
	if err != nil {
		t.Fatal(err)
	}
	x.Release()
	if err := impl.Close(); err != nil {
		t.Fatal(err)
	}
	if err := ev.Wait(); err != nil {
		t.Errorf("Wait after Close: %v, want nil", err)
	}
	if n := cl.LiveObjects()["event"]; n > base["event"] {
		t.Errorf("%d live events after Close, %d before New", n, base["event"])
	}
}
