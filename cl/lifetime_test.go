package cl

import (
	"errors"
	"runtime"
	"testing"
	"time"
)

// settle runs the GC until pending backstop cleanups of earlier tests have
// run, so live counts are stable.
func settle() {
	for range 3 {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
}

func TestNoLeaks(t *testing.T) {
	e := newEnv(t, 0)
	p := e.program(t, scaleSrc, "")
	settle()
	startLive := LiveObjects()
	startRef, err := e.ctx.ReferenceCount()
	if err != nil {
		t.Fatal(err)
	}
	// Kernels hold their program, and events their queue, in most drivers
	// (PoCL's context count covers only buffers): count those too.
	startProg, _ := p.ReferenceCount()
	startQueue, _ := e.q.ReferenceCount()
	const n = 10000
	bufs := make([]*Buffer, n)
	kerns := make([]*Kernel, n)
	evs := make([]*Event, n)
	for i := range n {
		if bufs[i], err = e.ctx.CreateBuffer(MemReadWrite, 64); err != nil {
			t.Fatal(err)
		}
		if kerns[i], err = p.CreateKernel("scale"); err != nil {
			t.Fatal(err)
		}
		if evs[i], err = e.q.EnqueueMarker(); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.q.Finish(); err != nil {
		t.Fatal(err)
	}
	mid := LiveObjects()
	for _, k := range []string{"buffer", "kernel", "event"} {
		if mid[k]-startLive[k] != n {
			t.Errorf("%d live %ss while %d exist", mid[k]-startLive[k], k, n)
		}
	}
	midRef, err := e.ctx.ReferenceCount()
	if err != nil {
		t.Fatal(err)
	}
	// The driver's own count is a second witness where it has one: PoCL
	// counts the objects of a context in its reference count, NVIDIA's
	// driver (580) does not, and there only LiveObjects is checked.
	driverCounts := midRef > startRef
	if !driverCounts {
		t.Logf("driver deviation: context reference count %d → %d while %d objects live; its check is skipped", startRef, midRef, 3*n)
	}
	midProg, _ := p.ReferenceCount()
	midQueue, _ := e.q.ReferenceCount()
	t.Logf("program refcount %d → %d, queue %d → %d", startProg, midProg, startQueue, midQueue)
	for i := range n {
		if err := bufs[i].Release(); err != nil {
			t.Fatal(err)
		}
		if err := kerns[i].Release(); err != nil {
			t.Fatal(err)
		}
		if err := evs[i].Release(); err != nil {
			t.Fatal(err)
		}
	}
	endRef, err := e.ctx.ReferenceCount()
	if err != nil {
		t.Fatal(err)
	}
	end := LiveObjects()
	for k, v := range startLive {
		if end[k] != v {
			t.Errorf("live %ss: %d before, %d after", k, v, end[k])
		}
	}
	if driverCounts && endRef != startRef {
		t.Errorf("context reference count %d before, %d after (peak %d)", startRef, endRef, midRef)
	}
	t.Logf("context refcount %d → %d → %d", startRef, midRef, endRef)
	if r, _ := p.ReferenceCount(); r != startProg {
		t.Errorf("program reference count %d before, %d after", startProg, r)
	}
	if r, _ := e.q.ReferenceCount(); r != startQueue {
		t.Errorf("queue reference count %d before, %d after", startQueue, r)
	}
}

// TestCleanupBackstop drops objects without Release: the cleanup attached
// at creation must release them, in the driver too.
func TestCleanupBackstop(t *testing.T) {
	e := newEnv(t, 0)
	settle()
	start := LiveObjects()
	startRef, _ := e.ctx.ReferenceCount()
	func() {
		for range 10 {
			if _, err := e.ctx.CreateBuffer(MemReadWrite, 1024); err != nil {
				t.Fatal(err)
			}
			if _, err := e.q.EnqueueMarker(); err != nil {
				t.Fatal(err)
			}
		}
	}()
	if err := e.q.Finish(); err != nil {
		t.Fatal(err)
	}
	if got := LiveObjects()["buffer"] - start["buffer"]; got != 10 {
		t.Fatalf("%d live buffers, want 10", got)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		now := LiveObjects()
		if now["buffer"] == start["buffer"] && now["event"] == start["event"] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("backstop did not release dropped objects: %v, started at %v", now, start)
		}
		time.Sleep(time.Millisecond)
	}
	if ref, _ := e.ctx.ReferenceCount(); ref != startRef {
		t.Errorf("context reference count %d, started at %d", ref, startRef)
	}
}

// TestUseAfterRelease uses every kind of object after its Release: each
// call returns ErrReleased, none crashes; Release twice is fine.
func TestUseAfterRelease(t *testing.T) {
	e := newEnv(t, 0)
	p := e.program(t, scaleSrc, "")
	is := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrReleased) {
			t.Errorf("%s after Release: %v", what, err)
		}
	}
	twice := func(release func() error) {
		t.Helper()
		if err := release(); err != nil {
			t.Fatal(err)
		}
		if err := release(); err != nil {
			t.Errorf("second Release: %v", err)
		}
	}

	// Event.
	evt, _ := e.q.EnqueueMarker()
	wait(t, evt)
	twice(evt.Release)
	is("Event.Wait", evt.Wait())
	_, err := evt.Status()
	is("Event.Status", err)
	_, err = evt.Profile()
	is("Event.Profile", err)
	is("Event.OnComplete", evt.OnComplete(func(error) {}))
	is("Event.SetComplete", evt.SetComplete())
	_, err = evt.ReferenceCount()
	is("Event.ReferenceCount", err)
	_, err = e.q.EnqueueMarker(evt)
	is("wait list", err)

	// Buffer.
	b, _ := e.ctx.CreateBuffer(MemReadWrite, 64)
	twice(b.Release)
	_, err = ReadBuffer(e.q, b, true, 0, make([]float32, 4))
	is("ReadBuffer", err)
	_, err = WriteBuffer(e.q, b, false, 0, []float32{1})
	is("WriteBuffer", err)
	_, err = ReadBufferRect(e.q, b, true, Rect{Region: [3]int{1, 1, 1}}, make([]float32, 1))
	is("ReadBufferRect", err)
	_, err = FillBuffer(e.q, b, float32(1), 0, 1)
	is("FillBuffer", err)
	_, err = CopyBuffer[float32](e.q, b, b, 0, 8, 1)
	is("CopyBuffer", err)
	_, _, err = MapBuffer[float32](e.q, b, true, MapRead, 0, 1)
	is("MapBuffer", err)
	_, err = b.CreateSubBuffer(0, 0, 4)
	is("CreateSubBuffer", err)
	_, err = b.ReferenceCount()
	is("Buffer.ReferenceCount", err)

	// Kernel.
	k, _ := p.CreateKernel("scale")
	live, _ := e.ctx.CreateBuffer(MemReadWrite, 64)
	defer live.Release()
	is("SetArgBuffer(released buffer)", k.SetArgBuffer(0, b))
	twice(k.Release)
	is("Kernel.SetArgs", k.SetArgs(live, float32(1)))
	_, err = k.NumArgs()
	is("Kernel.NumArgs", err)
	_, err = k.WorkGroupInfo(e.d)
	is("Kernel.WorkGroupInfo", err)
	_, err = e.q.EnqueueKernel(k, []int{1}, nil)
	is("EnqueueKernel", err)

	// A buffer released while it is a kernel's argument.
	arg, _ := e.ctx.CreateBuffer(MemReadWrite, 64)
	k2, _ := p.CreateKernel("scale")
	defer k2.Release()
	if err := k2.SetArgs(arg, float32(2)); err != nil {
		t.Fatal(err)
	}
	twice(arg.Release)
	_, err = e.q.EnqueueKernel(k2, []int{16}, nil)
	is("EnqueueKernel with a released buffer argument", err)
	if err := k2.SetArgs(live, float32(2)); err != nil { // replacing it clears it
		t.Fatal(err)
	}
	wait(t, ev(t)(e.q.EnqueueKernel(k2, []int{16}, nil)))

	// Program.
	p2, _ := e.ctx.CreateProgramWithSource(scaleSrc)
	twice(p2.Release)
	is("Program.Build", p2.Build(nil, ""))
	_, err = p2.CreateKernel("scale")
	is("Program.CreateKernel", err)
	_, err = p2.Binaries()
	is("Program.Binaries", err)
	_, err = p2.Devices()
	is("Program.Devices", err)
	_, err = p2.KernelNames()
	is("Program.KernelNames", err)
	if p2.BuildLog(e.d) != "" {
		t.Error("BuildLog after Release")
	}

	// Queue.
	q, _ := e.ctx.CreateQueue(e.d, 0)
	twice(q.Release)
	is("Queue.Finish", q.Finish())
	is("Queue.Flush", q.Flush())
	_, err = q.EnqueueMarker()
	is("Queue.EnqueueMarker", err)
	_, err = q.EnqueueBarrier()
	is("Queue.EnqueueBarrier", err)
	_, err = WriteBuffer(q, live, true, 0, []float32{1})
	is("WriteBuffer on a released queue", err)
	_, err = WriteBuffer[float32](q, live, true, 0, nil)
	is("empty WriteBuffer on a released queue", err)

	// Context.
	c, _ := CreateContext(e.d)
	twice(c.Release)
	_, err = c.CreateBuffer(MemReadWrite, 4)
	is("Context.CreateBuffer", err)
	_, err = CreateBufferFrom(c, MemReadWrite, []float32{1})
	is("CreateBufferFrom", err)
	_, err = c.CreateQueue(e.d, 0)
	is("Context.CreateQueue", err)
	_, err = c.CreateProgramWithSource(scaleSrc)
	is("Context.CreateProgramWithSource", err)
	_, err = c.CreateProgramWithBinary([]*Device{e.d}, [][]byte{{1}})
	is("Context.CreateProgramWithBinary", err)
	_, err = c.CreateUserEvent()
	is("Context.CreateUserEvent", err)
	_, err = c.ReferenceCount()
	is("Context.ReferenceCount", err)

	// Nil objects release quietly.
	for _, r := range []func() error{(*Event)(nil).Release, (*Buffer)(nil).Release, (*Kernel)(nil).Release, (*Program)(nil).Release, (*Queue)(nil).Release, (*Context)(nil).Release} {
		if err := r(); err != nil {
			t.Error(err)
		}
	}
	ReleaseAll(nil, nil)
}

// TestReleaseWhileInUse releases a queue while another goroutine waits on
// it: the driver reference is dropped only when the call returns.
func TestReleaseWhileInUse(t *testing.T) {
	e := newEnv(t, 0)
	q, err := e.ctx.CreateQueue(e.d, 0)
	if err != nil {
		t.Fatal(err)
	}
	gate := ev(t)(e.ctx.CreateUserEvent())
	m := ev(t)(q.EnqueueMarker(gate))
	done := make(chan error)
	go func() { done <- q.Finish() }()
	time.Sleep(10 * time.Millisecond)
	if err := q.Release(); err != nil {
		t.Fatal(err)
	}
	if err := q.Flush(); !errors.Is(err, ErrReleased) {
		t.Errorf("Flush after Release: %v", err)
	}
	if err := gate.SetComplete(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Errorf("Finish racing Release: %v", err)
	}
	wait(t, m)
}

// TestEmpty: nil and empty slices are no-ops.
func TestEmpty(t *testing.T) {
	e := newEnv(t, 0)
	b := e.buffer(t, MemReadWrite, 16)
	for _, blocking := range []bool{false, true} {
		w := ev(t)(WriteBuffer[float32](e.q, b, blocking, 0, nil))
		if s, err := w.Status(); err != nil || s != Complete {
			t.Errorf("zero-length write (blocking %v): status %v, %v", blocking, s, err)
		}
		r := ev(t)(ReadBuffer(e.q, b, blocking, 4, []float32{}))
		if s, _ := r.Status(); s != Complete {
			t.Errorf("zero-length read: %v", s)
		}
	}
	// With a wait list, the no-op completes with it.
	gate := ev(t)(e.ctx.CreateUserEvent())
	w := ev(t)(WriteBuffer[float32](e.q, b, false, 0, nil, gate))
	if s, _ := w.Status(); s == Complete {
		t.Error("zero-length write completed before its wait list")
	}
	if err := gate.SetComplete(); err != nil {
		t.Fatal(err)
	}
	wait(t, w)
	ev(t)(FillBuffer(e.q, b, float32(0), 0, 0))
	ev(t)(CopyBuffer[float32](e.q, b, b, 0, 0, 0))
	if err := WaitForEvents(); err != nil {
		t.Error(err)
	}
	if err := WaitForEvents(nil, nil); err != nil {
		t.Error(err)
	}
	wait(t, ev(t)(e.q.EnqueueMarker(nil)))
	if _, err := CreateContext(); !errors.Is(err, InvalidValue) {
		t.Errorf("CreateContext(): %v", err)
	}
	if _, err := e.ctx.CreateProgramWithSource(); !errors.Is(err, InvalidValue) {
		t.Errorf("CreateProgramWithSource(): %v", err)
	}
	if _, err := e.ctx.CreateProgramWithBinary(nil, nil); !errors.Is(err, InvalidValue) {
		t.Errorf("CreateProgramWithBinary(nil): %v", err)
	}
	if _, err := e.ctx.CreateQueue(nil, 0); !errors.Is(err, InvalidDevice) {
		t.Errorf("CreateQueue(nil): %v", err)
	}
}

func TestRawHandles(t *testing.T) {
	d := testDevice(t)
	ctx, err := CreateContext(d)
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Release()
	q, err := ctx.CreateQueue(d, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ctx.CreateBuffer(MemReadWrite, 64)
	if err != nil {
		t.Fatal(err)
	}
	var hq, hb, hc uintptr
	if err := q.Raw(func(h uintptr) error { hq = h; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := b.Raw(func(h uintptr) error { hb = h; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := ctx.Raw(func(h uintptr) error { hc = h; return nil }); err != nil {
		t.Fatal(err)
	}
	if hq == 0 || hb == 0 || hc == 0 || hq == hb {
		t.Errorf("raw handles %x %x %x", hq, hb, hc)
	}
	q.Release()
	b.Release()
	if err := b.Raw(func(uintptr) error { t.Error("fn ran on a released buffer"); return nil }); err != ErrReleased {
		t.Errorf("Raw after Release: %v, want ErrReleased", err)
	}
}
