package engine

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
