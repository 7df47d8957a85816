package clblas

import ()

// GEMM on host slices through pinned staging, pipelined.
//
// C (m×n) is cut into a grid of tiles; tile (i, j) needs row panel i of
// op(A) (its rows, k deep) and column panel j of op(B). Each panel is
// packed from the Go slice into pinned staging memory (only the used
// elements: the packing is the rect copy for padded leading dimensions),
// in the layout the kernel reads it in, and written to the device on the
// upload queue as soon as it is packed; each tile's kernel runs on the
// compute queue once its panels (and, when beta ≠ 0, its block of C) have
// arrived, and its result is read back into pinned memory on the download
// queue as soon as the kernel is done. So the host copies, the uploads, the
// kernels and the downloads of different tiles run at the same time; each
// panel crosses the bus once. Tiles are visited in the order engine.TileOrder
// gives: the uploaded panels grow as a square, A's and B's in turn, so the
// first kernel waits only for panels A₀ and B₀ and every later panel makes
// a row or column of tiles ready, not one tile.
//
// With beta ≠ 0 the user's C is written only after every command has
// succeeded (the engine contract: a failed call leaves its output
// untouched, and the front end finishes it on the CPU): the tiles are
// unpacked from pinned memory into C, on several goroutines, at the end.
// With beta == 0, C is never read, so a failed call may leave any values
// in it (the front end's CPU finish overwrites all of C without reading
// it): each tile is unpacked into C as soon as its download completes, by
// a goroutine beside the enqueueing one, so the copy out of pinned memory
// overlaps the packs, transfers and kernels of later tiles instead of
// following them. C's padding (ldc > n) is never written.
//
// Operands whose memory lies in a HostSlice (pinned already) skip the host
// copies: their panels are written to the device, and (with beta == 0) C's
// tiles read back, by rect transfers straight from and into that memory.
//
// C's staging memory holds its tiles packed like the device's (below), and
// tiles are copied into the user's C one by one, row by row. (Staging C in
// its own layout instead, so that the host copies whole row panels, large
// and contiguous when C is not padded, is no faster: BENCHMARKS.md, "Figures behind the code's choices".)
//
// Device layout: A's panels one after another (panel i at element r0·k,
// with leading dimension k, or mᵢ for a transposed A whose panel is a
// k×mᵢ block of columns), likewise B's panels (panel j at c0·k), and C's
// tiles (tile (i, j) at r0·n + mᵢ·c0, leading dimension nⱼ).

// stagedGemm reports whether GEMM on host slices takes the staged path:
// on every device but a CPU (where staging only adds a copy), unless the
// pipeline mode says otherwise.
func (e *engine) stagedGemm() bool {
	switch {
	case e.pipeMode.Off:
		return false
	case e.pipeMode.Force:
		return true
	}
	return !e.prof.IsCPU()
}

// pipelineMin is the least m·n·k worth cutting into tiles; below it the
// call is one tile (still staged).
const pipelineMin = 256 * 256 * 256

// gemmTiles returns the tile size mt×nt of C for an m×n×k GEMM: about 16
// tiles per call, so that the host copies, the transfers both ways and the
// kernels of different tiles overlap, but no smaller than 1024² elements
// (nor larger than 4096²), so that a tile's kernel still fills a big GPU;
// sides are multiples of 256.
func (e *engine) gemmTiles(m, n, k int) (mt, nt int) {
	if t := e.pipeMode.Tile; t > 0 {
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

// The row-slab schedule. When op(B) is not transposed, B's column panels
// are strided in the user's memory (rows of nt of its n columns), and
// such rect transfers run well below contiguous ones while kernels run,
// whatever the queue, buffer or memory, so that the bus bounds the call
// (BENCHMARKS.md, "Figures behind the code's choices"). So for
// large problems C is cut into full-width row slabs instead, and the
// inner dimension into chunks: B goes up as row blocks k0…k0+kn (whole
// rows: contiguous), A as row panels (contiguous when A is not
// transposed), and C comes down as whole row slabs. Slab i's kernels run
// chunk by chunk, C_i = alpha·A_i[:, chunk]·B[chunk, :] + beta_c·C_i with
// beta_c the caller's beta for the first chunk and 1 after it, each once
// its A panel and B chunk have arrived; the slab is read back after its
// last chunk. The uploads alternate between A's panels and B's chunks so
// that the share of B's rows uploaded follows the share of A's rows
// (engine.SlabOrder): the first kernel waits for one chunk and one panel, not
// for a whole column panel of B.

// gemmSlabs returns the number of k-chunks of the row-slab schedule for
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
//     slabRows) leave more than one;
//   - n and k are at least 4096, and the call moves at least
//     slabBytesPerFlop bytes (A, B and C once) per flop.
//
// k is cut into chunks of about 2048 (at most 8). The pipeline mode may
// turn slabs off, or force them (whatever the other conditions but op(B)
// transposed) with a number of chunks.
func (e *engine) gemmSlabs(m, n, k int, at, bt, pinnedB bool, es int) int {
	mode := e.pipeMode.Slab
	switch {
	case mode < 0 || bt || k == 0:
		return 0
	case mode > 0:
		return min(mode, k)
	case !pinnedB || n < 4096 || k < 4096:
		return 0
	}
	// With op(A) transposed, slabs are at least 32 KiB of elements high
	// (slabRows): at most one slab, whose C could come down only at the
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

// slabRows returns the height of the row slabs of an m×n C: about 8M
// elements each, a multiple of 256 from 256 to 1024 (taller slabs mean
// fewer, longer launches), or the pipeline mode's tile size. With op(A) transposed (at),
// a slab's A panel is a block of columns of the k×m A whose rows are the
// slab's height: slabs are then at least 32 KiB of elements of es bytes
// high (4096 rows in float64), since narrower rows run slower by rect
// DMA (BENCHMARKS.md, "Figures behind the code's choices").
func (e *engine) slabRows(m, n int, at bool, es int) int {
	if t := e.pipeMode.Tile; t > 0 {
		return min(t, m)
	}
	mt := min(1024, max(256, (8<<20)/n/256*256))
	if at {
		mt = max(mt, (32<<10)/es)
	}
	return min(m, mt)
}
