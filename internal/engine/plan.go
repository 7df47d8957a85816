package engine

import "github.com/gocompute/opencl/internal/settings"

// Plan is the staged GEMM's policy on one device: whether GEMM on host
// slices goes through pinned staging, and how it is cut (tiles of C, or
// full-width row slabs of C and chunks of k).
type Plan struct {
	Mode settings.Pipeline // GOCL_GEMM_PIPELINE
	CPU  bool              // the device is the host's CPU
}

// Staged reports whether GEMM on host slices takes the staged path:
// on every device but a CPU (where staging only adds a copy), unless the
// pipeline mode says otherwise.
func (p Plan) Staged() bool {
	switch {
	case p.Mode.Off:
		return false
	case p.Mode.Force:
		return true
	}
	return !p.CPU
}

// pipelineMin is the least m·n·k worth cutting into tiles; below it the
// call is one tile (still staged).
const pipelineMin = 256 * 256 * 256

// Tiles returns the tile size mt×nt of C for an m×n×k GEMM: about 16
// tiles per call, so that the host copies, the transfers both ways and the
// kernels of different tiles overlap, but no smaller than 1024² elements
// (nor larger than 4096²), so that a tile's kernel still fills a big GPU;
// sides are multiples of 256.
func (p Plan) Tiles(m, n, k int) (mt, nt int) {
	if t := p.Mode.Tile; t > 0 {
		return min(t, m), min(t, n)
	}
	if float64(m)*float64(n)*float64(k) < pipelineMin {
		return m, n
	}
	area := min(max(m*n/16, 1024*1024), 4096*4096)
	side := 256
	for (side+256)*(side+256) <= area {
		side += 256
	}
	round := func(v int) int { return max(256, v/256*256) }
	if m <= n {
		mt = min(m, side)
		nt = min(n, round(area/mt))
	} else {
		nt = min(n, side)
		mt = min(m, round(area/nt))
	}
	return mt, nt
}

// Slabs returns the number of k-chunks of the row-slab schedule for
// an m×n×k GEMM with elements of es bytes, or 0 for the tile schedule.
// Row slabs pay where the bus, not the kernels, bounds the call: they make
// B's and C's transfers contiguous, but their kernels run in k-chunks
// (slightly slower) and no slab can be read back before
// B's last chunk has arrived. So they are chosen when:
//   - B lies in a HostSlice (pinnedB): Go memory is packed into staging by
//     host copies, contiguous either way, and there the tiles let C's
//     unpacking overlap the kernels (from plain slices slabs are slower);
//   - op(B) is not transposed (otherwise B's row panels are contiguous
//     already);
//   - with op(A) transposed, the slabs (at least 32 KiB of elements high,
//     SlabRows) leave more than one;
//   - n and k are at least 4096, and the call moves at least
//     slabBytesPerFlop bytes (A, B and C once) per flop.
//
// k is cut into chunks of about 2048 (at most 8). The pipeline mode may
// turn slabs off, or force them (whatever the other conditions but op(B)
// transposed) with a number of chunks.
func (p Plan) Slabs(m, n, k int, at, bt, pinnedB bool, es int) int {
	mode := p.Mode.Slab
	switch {
	case mode < 0 || bt || k == 0:
		return 0
	case mode > 0:
		return min(mode, k)
	case !pinnedB || n < 4096 || k < 4096:
		return 0
	}
	// With op(A) transposed, slabs are at least 32 KiB of elements high
	// (SlabRows): at most one slab, whose C could come down only at the
	// end, is left to the tiles (not measured).
	if at && m <= (32<<10)/es {
		return 0
	}
	fm, fn, fk := float64(m), float64(n), float64(k)
	if float64(es)*(fm*fk+fk*fn+fm*fn) < slabBytesPerFlop*2*fm*fn*fk {
		return 0
	}
	return min(8, k/2048)
}

// slabBytesPerFlop is the least bytes moved per flop for which the
// row-slab schedule is chosen: about a discrete GPU's bus rate over its
// GEMM rate, below which the kernels rather than the bus bound the call
// and the tiles' full-k kernels win (BENCHMARKS.md, "Figures behind the code's choices").
const slabBytesPerFlop = 1e-3

// SlabRows returns the height of the row slabs of an m×n C: about 8M
// elements each, a multiple of 256 from 256 to 1024 (taller slabs mean
// fewer, longer launches), or the pipeline mode's tile size. With op(A) transposed (at),
// a slab's A panel is a block of columns of the k×m A whose rows are the
// slab's height: slabs are then at least 32 KiB of elements of es bytes
// high (4096 rows in float64), since narrower rows run slower by rect
// DMA (BENCHMARKS.md, "Figures behind the code's choices").
func (p Plan) SlabRows(m, n int, at bool, es int) int {
	if t := p.Mode.Tile; t > 0 {
		return min(t, m)
	}
	mt := min(1024, max(256, (8<<20)/n/256*256))
	if at {
		mt = max(mt, (32<<10)/es)
	}
	return min(m, mt)
}
