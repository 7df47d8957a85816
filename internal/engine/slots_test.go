package engine

import (
	"errors"
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform/platformtest"
)

// TestSlotPool: a freed slot's memory is handed out again; a read into a
// slot lands there; Close saves the slots still in use, so that Load
// still returns their values, releases the slabs, and makes Get fail.
func TestSlotPool(t *testing.T) {
	rt := platformtest.Runtime(t)
	base := cl.LiveObjects()
	var p SlotPool
	p.Init(rt.Context(), rt.Queue())
	a, err := p.Get()
	if err != nil {
		t.Fatal(err)
	}
	mem := a.mem
	a.Free()
	a.Free() // a second Free is a no-op
	b, err := p.Get()
	if err != nil {
		t.Fatal(err)
	}
	if b.mem != mem {
		t.Errorf("Get after Free: a new slot, want the freed one")
	}
	// Fill more than a slab, so that Close has several to release.
	held := []*Slot{b}
	for range slotsPerSlab + 1 {
		s, err := p.Get()
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, s)
	}
	if len(p.slabs) != 2 {
		t.Errorf("%d slabs for %d slots, want 2", len(p.slabs), len(held))
	}
	buf, err := rt.Context().CreateBuffer(cl.MemReadWrite, 16)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Release()
	if ev, err := cl.WriteBuffer(rt.Queue(), buf, true, 0, []float64{3.5, -2}); err != nil {
		t.Fatal(err)
	} else {
		ev.Release()
	}
	last := held[len(held)-1]
	ev, err := cl.ReadBuffer(rt.Queue(), buf, false, 0, SlotHost[float64](last, 2))
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Wait(); err != nil {
		t.Fatal(err)
	}
	ev.Release()
	var got [2]float64
	SlotLoad(last, got[:])
	if got != [2]float64{3.5, -2} {
		t.Errorf("Load: %v, want [3.5 -2]", got)
	}
	for _, s := range held[:len(held)-1] {
		s.Free()
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	got = [2]float64{}
	SlotLoad(last, got[:])
	if got != [2]float64{3.5, -2} {
		t.Errorf("Load after Close: %v, want [3.5 -2]", got)
	}
	if SlotHost[float64](last, 2) != nil {
		t.Errorf("Host after Close: the unmapped memory, want nil")
	}
	last.Free()
	if _, err := p.Get(); !errors.Is(err, ErrClosed) {
		t.Errorf("Get after Close: %v, want ErrClosed", err)
	}
	if n := cl.LiveObjects()["buffer"]; n != base["buffer"]+1 {
		t.Errorf("%d live buffers after Close, want %d (the slabs released)", n, base["buffer"]+1)
	}
}

// TestApartFor checks the choice of a read apart by the operands' bytes.
func TestApartFor(t *testing.T) {
	for _, c := range []struct {
		min, bytes int
		want       bool
	}{
		{0, 0, false}, {0, 1 << 30, false},
		{1, 0, false}, {1, 1, true},
		{1 << 24, 1<<24 - 1, false}, {1 << 24, 1 << 24, true}, {1 << 24, 1 << 28, true},
	} {
		if got := apartFor(L1Shape{ReadApartMin: c.min}, c.bytes); got != c.want {
			t.Errorf("apartFor(min %d, %d bytes) = %v, want %v", c.min, c.bytes, got, c.want)
		}
	}
}
