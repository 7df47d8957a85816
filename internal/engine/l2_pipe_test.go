package engine

import (
	"runtime"
	"testing"
)

// TestL2Geometry: the chunks cover the matrix, pieces of a large
// unpadded matrix reach the size at which Go's copy stops reading the
// destination (1 MiB), small matrices are cut into more pieces than
// goroutines, and the slots never outnumber the chunks.
func TestL2Geometry(t *testing.T) {
	e := &Engine{}
	w := max(1, runtime.GOMAXPROCS(0)-1)
	for _, sh := range []struct{ m, n, elem int }{
		{1, 1, 8}, {7, 3, 4}, {1024, 1024, 8}, {4096, 4096, 8}, {4096, 4096, 4}, {3000, 1001, 8}, {5, 300000, 8},
	} {
		g := e.l2Geometry(sh.m, sh.n, sh.elem)
		if g.rows < 1 || g.pieces < 1 || g.pieces > g.rows || g.chunks*g.rows < sh.m || (g.chunks-1)*g.rows >= sh.m {
			t.Errorf("%v: %+v does not cover the matrix", sh, g)
		}
		if g.depth < min(g.chunks, 4) || g.depth > g.chunks {
			t.Errorf("%v: depth %d for %d chunks", sh, g.depth, g.chunks)
		}
		total, piece := sh.m*sh.n*sh.elem, g.pieces*sh.n*sh.elem
		if total >= 2*w*l2PieceMax && piece < l2PieceMax {
			t.Errorf("%v: pieces of %d bytes, want ≥ %d", sh, piece, l2PieceMax)
		}
		if piece >= l2PieceMax+sh.n*sh.elem && g.pieces > 1 {
			t.Errorf("%v: pieces of %d bytes, want ≤ %d", sh, piece, l2PieceMax+sh.n*sh.elem)
		}
		if total >= 2*w*l2PieceMin && total/piece < min(2*w, sh.m) {
			t.Errorf("%v: %d pieces for %d goroutines", sh, total/piece, w)
		}
	}
	e.L2Slab = 200
	if g := e.l2Geometry(17, 7, 8); g.rows != 3 || g.chunks != 6 || g.pieces != 2 {
		t.Errorf("L2Slab 200, 17×7 float64: %+v, want chunks of 3 rows in pieces of 2", g)
	}
}
