package engine

import "testing"

// TestSymvStreamShapeFor checks the derived stream shapes: tiles 64
// elements wide in groups of 256 work-items where the device allows,
// narrowed by its local memory and work-group limit.
func TestSymvStreamShapeFor(t *testing.T) {
	for _, c := range []struct {
		vec, es  int
		localMem int64
		maxLocal int
		want     SymvStreamShape
	}{
		{4, 4, 48 << 10, 1024, SymvStreamShape{Vec: 4, TX: 16, TY: 16, Chunk: 4}},
		{8, 4, 48 << 10, 1024, SymvStreamShape{Vec: 4, TX: 16, TY: 16, Chunk: 4}},
		{2, 8, 48 << 10, 1024, SymvStreamShape{Vec: 2, TX: 32, TY: 8, Chunk: 4}},
		{1, 4, 48 << 10, 1024, SymvStreamShape{Vec: 1, TX: 32, TY: 8, Chunk: 4}},
		{4, 4, 48 << 10, 64, SymvStreamShape{Vec: 4, TX: 16, TY: 4, Chunk: 4}},
	} {
		got := symvStreamShapeFor(L1Shape{Vec: c.vec}, c.localMem, c.maxLocal, c.es, false)
		if got != c.want || !got.valid() {
			t.Errorf("vec %d, %d-byte elements, local %d, max group %d: %+v (valid %v), want %+v",
				c.vec, c.es, c.localMem, c.maxLocal, got, got.valid(), c.want)
		}
	}
}
