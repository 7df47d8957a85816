package engine

import (
	"runtime"
	"testing"
)

// TestL2Geometry: the chunks cover the matrix in order, pieces of a large
// unpadded matrix reach the size at which Go's copy stops reading the
// destination (1 MiB) except in the ramps at both ends (a quarter of
// that), small matrices are cut into more pieces than goroutines, and
// the slots never outnumber the chunks.
func TestL2Geometry(t *testing.T) {
	e := &Engine{}
	w := max(1, runtime.GOMAXPROCS(0)-1)
	for _, sh := range []struct{ m, n, elem int }{
		{1, 1, 8}, {7, 3, 4}, {1024, 1024, 8}, {4096, 4096, 8}, {4096, 4096, 4}, {3000, 1001, 8}, {5, 300000, 8}, {20000, 4096, 8},
	} {
		g := e.l2Geometry(sh.m, sh.n, sh.elem)
		if g.chunks != len(g.starts)-1 || g.starts[0] != 0 || g.starts[g.chunks] != sh.m {
			t.Errorf("%v: chunks start at %v", sh, g.starts)
			continue
		}
		row := sh.n * sh.elem
		total, pieces, big := sh.m*row, 0, 0
		for c := range g.chunks {
			r0, mi := g.span(c)
			if mi < 1 || mi > g.rows || r0 != g.starts[c] {
				t.Errorf("%v: chunk %d is rows %d+%d (most %d)", sh, c, r0, mi, g.rows)
			}
			piece := (mi + g.per - 1) / g.per * row
			pieces += (mi + piece/row - 1) / (piece / row)
			if piece >= l2PieceMax+row {
				t.Errorf("%v: chunk %d has pieces of %d bytes", sh, c, piece)
			}
			if mi == g.rows {
				big++
				if total >= 2*w*l2PieceMax && piece < l2PieceMax {
					t.Errorf("%v: pieces of %d bytes, want ≥ %d", sh, piece, l2PieceMax)
				}
			}
		}
		if total >= 8*w*l2PieceMax && big < g.chunks/3 {
			t.Errorf("%v: %d of %d chunks full size", sh, big, g.chunks)
		}
		if g.depth < min(g.chunks, 4) || g.depth > g.chunks {
			t.Errorf("%v: depth %d for %d chunks", sh, g.depth, g.chunks)
		}
		if total >= 2*w*l2PieceMin && pieces < min(2*w, sh.m) {
			t.Errorf("%v: %d pieces for %d goroutines", sh, pieces, w)
		}
	}
	e.L2Slab = 200
	if g := e.l2Geometry(17, 7, 8); g.rows != 3 || g.chunks != 6 || g.per != 2 {
		t.Errorf("L2Slab 200, 17×7 float64: %+v, want chunks of 3 rows in 2 pieces", g)
	}
}
