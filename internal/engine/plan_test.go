package engine

import "testing"

// TestSlabChoice: the row-slab schedule is chosen for large, bus-bound
// problems with B in a HostSlice and op(B) not transposed, never when the
// pipeline mode says off, always when it forces it; slabs are taller with
// op(A) transposed.
func TestSlabChoice(t *testing.T) {
	var p Plan
	for _, c := range []struct {
		m, n, k int
		at, bt  bool
		es      int
		want    int
	}{
		{8192, 8192, 8192, false, false, 8, 4},
		{8192, 8192, 8192, false, true, 8, 0},
		{8192, 8192, 8192, true, false, 8, 4},
		{4096, 4096, 4096, true, false, 8, 0},  // one slab of 4096 rows: tiles
		{8192, 8192, 8192, false, false, 4, 0}, // compute-bound: tiles
		{4096, 4096, 4096, false, false, 4, 2},
		{4096, 4096, 4096, false, false, 8, 2},
		{1024, 8192, 16384, false, false, 8, 8},
		{32768, 32768, 32768, false, false, 8, 0},
		{2048, 2048, 2048, false, false, 8, 0},
		{8192, 1024, 8192, false, false, 8, 0},
		{8192, 8192, 0, false, false, 8, 0},
	} {
		if got := p.Slabs(c.m, c.n, c.k, c.at, c.bt, true, c.es); got != c.want {
			t.Errorf("Slabs(%d, %d, %d, at %v, bt %v, %d bytes) = %d, want %d", c.m, c.n, c.k, c.at, c.bt, c.es, got, c.want)
		}
	}
	if got := p.Slabs(8192, 8192, 8192, false, false, false, 8); got != 0 {
		t.Errorf("B in Go memory: Slabs = %d, want 0", got)
	}
	for _, c := range []struct {
		m, n int
		at   bool
		es   int
		want int
	}{
		{8192, 8192, false, 8, 1024}, {4096, 4096, false, 4, 1024}, {16384, 16384, false, 8, 512},
		{8192, 100000, false, 8, 256}, {100, 100000, false, 8, 100},
		{8192, 8192, true, 8, 4096}, {8192, 8192, true, 4, 8192}, {4096, 8192, true, 8, 4096}, {16384, 16384, true, 8, 4096},
	} {
		if got := p.SlabRows(c.m, c.n, c.at, c.es); got != c.want {
			t.Errorf("SlabRows(%d, %d, at %v, %d bytes) = %d, want %d", c.m, c.n, c.at, c.es, got, c.want)
		}
	}
	p.Mode.Slab = -1
	if got := p.Slabs(8192, 8192, 8192, false, false, true, 8); got != 0 {
		t.Errorf("slab=off: Slabs = %d", got)
	}
	p.Mode.Slab = 5
	if got := p.Slabs(10, 10, 3, true, false, false, 8); got != 3 {
		t.Errorf("slab=5, k = 3, A transposed: Slabs = %d, want 3", got)
	}
}
