package engine

import (
	"slices"
	"testing"
)

func TestGeometry(t *testing.T) {
	for _, c := range []struct{ n, inc, span, off int }{
		{1, 1, 1, 0}, {5, 1, 5, 0}, {5, 3, 13, 0}, {5, -3, 13, 12}, {1, -7, 1, 0},
	} {
		if got := VecSpan(c.n, c.inc); got != c.span {
			t.Errorf("VecSpan(%d, %d) = %d, want %d", c.n, c.inc, got, c.span)
		}
		if got := VecOff(c.n, c.inc); got != c.off {
			t.Errorf("VecOff(%d, %d) = %d, want %d", c.n, c.inc, got, c.off)
		}
	}
	for _, c := range [][4]int{{3, 4, 4, 12}, {3, 4, 10, 24}, {0, 4, 10, 0}, {3, 0, 10, 0}, {1, 5, 9, 5}} {
		if got := MatSpan(c[0], c[1], c[2]); got != c[3] {
			t.Errorf("MatSpan(%d, %d, %d) = %d, want %d", c[0], c[1], c[2], got, c[3])
		}
	}
	if Groups(17, 8) != 24 || Groups(16, 8) != 16 || Groups(1, 64) != 64 {
		t.Error("Groups does not round up to a multiple of the work-group")
	}

	// Scatters write the elements and leave the gaps and the padding.
	src := []float64{1, 2, 3, 4, 5, 6, 7}
	dst := []float64{0, -1, 0, -1, 0, -1, 0}
	ScatterVec(dst, src, 4, -2)
	if want := []float64{1, -1, 3, -1, 5, -1, 7}; !slices.Equal(dst, want) {
		t.Errorf("ScatterVec with inc -2: %v, want %v", dst, want)
	}
	m := []float32{0, 0, -1, 0, 0, -1}
	ScatterMat(m, []float32{1, 2, 9, 3, 4, 9}, 2, 2, 3)
	if want := []float32{1, 2, -1, 3, 4, -1}; !slices.Equal(m, want) {
		t.Errorf("ScatterMat with ld 3: %v, want %v", m, want)
	}
}
