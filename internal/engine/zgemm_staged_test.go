package engine

import (
	"math"
	"testing"
)

// TestBlockFinite: a NaN or an infinity anywhere in the block (any
// position of the unrolled loop, either part, first and last row) is
// found, on one goroutine and on several, and padding outside the block
// is not read.
func TestBlockFinite(t *testing.T) {
	bads := []float64{math.NaN(), math.Inf(1), math.Inf(-1)}
	for _, shape := range [][3]int{{1, 7, 7}, {5, 9, 12}, {3, 6, 6}, {600, 1100, 1103}} {
		rows, cols, ld := shape[0], shape[1], shape[2]
		x := make([]float64, rows*ld)
		for i := range x {
			x[i] = float64(i%7) - 3
			if i%ld >= cols {
				x[i] = math.NaN() // padding: not read
			}
		}
		if !BlockFinite(x, rows, cols, ld) {
			t.Fatalf("%v: finite block reported non-finite", shape)
		}
		for _, at := range [][2]int{{0, 0}, {0, cols - 1}, {rows - 1, cols - 1}, {rows / 2, min(cols-1, 5)}, {rows - 1, 0}} {
			for _, v := range bads {
				i := at[0]*ld + at[1]
				old := x[i]
				x[i] = v
				if BlockFinite(x, rows, cols, ld) {
					t.Errorf("%v: %v at %v not found", shape, v, at)
				}
				x32 := make([]float32, len(x))
				for j := range x {
					x32[j] = float32(x[j])
				}
				if BlockFinite(x32, rows, cols, ld) {
					t.Errorf("float32 %v: %v at %v not found", shape, v, at)
				}
				x[i] = old
			}
		}
	}
}
