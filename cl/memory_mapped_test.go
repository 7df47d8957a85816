package cl

import "testing"

// TestReadBufferMapped: a non-blocking read into the mapping of another
// buffer lands there, and pins nothing (so no completion callback runs).
func TestReadBufferMapped(t *testing.T) {
	e := newEnv(t, 0)
	src := e.buffer(t, MemReadWrite, 16)
	if ev, err := WriteBuffer(e.q, src, true, 0, []float64{2.5, -1}); err != nil {
		t.Fatal(err)
	} else {
		ev.Release()
	}
	host := e.buffer(t, MemReadWrite|MemAllocHostPtr, 16)
	m, mev, err := MapBuffer[float64](e.q, host, true, MapRead|MapWrite, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	mev.Release()
	callbacks.mu.Lock()
	before := callbacks.next
	callbacks.mu.Unlock()
	ev, err := ReadBufferMapped(e.q, src, false, 0, m)
	if err != nil {
		t.Fatal(err)
	}
	callbacks.mu.Lock()
	registered := callbacks.next - before
	callbacks.mu.Unlock()
	if registered != 0 {
		t.Errorf("a read into mapped memory registered %d completion callbacks, want 0", registered)
	}
	if err := ev.Wait(); err != nil {
		t.Fatal(err)
	}
	ev.Release()
	if m[0] != 2.5 || m[1] != -1 {
		t.Errorf("read %v, want [2.5 -1]", m)
	}
	uev, err := UnmapBuffer(e.q, host, m)
	if err != nil {
		t.Fatal(err)
	}
	if err := uev.Wait(); err != nil {
		t.Error(err)
	}
	uev.Release()
}
