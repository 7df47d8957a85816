package fuzzrand

import "testing"

// TestBytesDecide: a draw follows its byte (two sources that differ in
// one byte differ in that draw), the same bytes give the same draws, and
// past the bytes the draws go on.
func TestBytesDecide(t *testing.T) {
	a := New([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, 5)
	b := New([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, 5)
	c := New([]byte{1, 2, 3, 4, 5, 6, 7, 8, 200}, 5)
	for i := range 12 {
		x, y, z := a.IntN(256), b.IntN(256), c.IntN(256)
		if x != y {
			t.Fatalf("draw %d: %d and %d from the same bytes", i, x, y)
		}
		if i == 8 && x == z {
			t.Errorf("draw 8: %d from byte 9 and from byte 200", x)
		}
		if i < 8 && x != z {
			t.Errorf("draw %d: %d and %d from the same byte", i, x, z)
		}
	}
}
