package clblas

import (
	"time"

	"github.com/gocompute/opencl/cl"
)

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
// panel crosses the bus once. Tiles are visited in the order tileOrder
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
	case e.pipeMode.off:
		return false
	case e.pipeMode.force:
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
	if t := e.pipeMode.tile; t > 0 {
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

// rowPanels cuts the m rows of C into panels of mt rows, except that when
// there are several, the last full-height span is halved (in multiples of
// 256 rows when mt allows): the last row panel of A to arrive gates a
// whole row of tiles, and a thinner one shortens the compute left after
// the final upload. Each panel is {first row, rows}.
func rowPanels(m, mt int) [][2]int {
	var ps [][2]int
	for r0 := 0; r0 < m; r0 += mt {
		ps = append(ps, [2]int{r0, min(mt, m-r0)})
	}
	if len(ps) < 2 || mt < 512 {
		return ps
	}
	// The last panel with the one before it: span rows, cut so that the
	// final piece has at most mt/2 rows.
	last := ps[len(ps)-1]
	prev := ps[len(ps)-2]
	span := prev[1] + last[1]
	half := max(256, mt/2/256*256)
	if last[1] <= half {
		return ps
	}
	ps = ps[:len(ps)-2]
	r0 := prev[0]
	for span > 0 {
		h := min(mt, span-half)
		if h <= 0 {
			h = span
		}
		ps = append(ps, [2]int{r0, h})
		r0, span = r0+h, span-h
	}
	return ps
}

// tileOrder returns the order in which the pipeline visits the tiles
// {row panel, column panel} of a grid of row panels of heights hs and
// column panels of widths ws. A tile's panels are uploaded when it is
// first visited, so the order is also the order of the uploads: it brings
// A's and B's panels up in turn, growing a square of uploaded panels, and
// after each panel visits every tile it completes. The next panel is A's
// when the width of B already uploaded is at least the height of A (an A
// panel then makes more work ready per byte than a B panel), B's
// otherwise.
//
// Row by row instead, the first row of tiles needs all of B before its
// last tile can run, while the kernels wait on the bus (BENCHMARKS.md, "Figures behind the code's choices").
func tileOrder(hs, ws []int) [][2]int {
	order := make([][2]int, 0, len(hs)*len(ws))
	ra, cb := 0, 0 // panels of A and of B uploaded
	ha, wb := 0, 0 // their height and width
	for ra < len(hs) || cb < len(ws) {
		if cb == len(ws) || ra < len(hs) && ha <= wb {
			for j := range cb {
				order = append(order, [2]int{ra, j})
			}
			ha += hs[ra]
			ra++
		} else {
			for i := range ra {
				order = append(order, [2]int{i, cb})
			}
			wb += ws[cb]
			cb++
		}
	}
	return order
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
// (slabOrder): the first kernel waits for one chunk and one panel, not
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
	mode := e.pipeMode.slab
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
	if t := e.pipeMode.tile; t > 0 {
		return min(t, m)
	}
	mt := min(1024, max(256, (8<<20)/n/256*256))
	if at {
		mt = max(mt, (32<<10)/es)
	}
	return min(m, mt)
}

// slabStep is one upload of the row-slab schedule: row panel idx of A, or
// k-chunk idx of B.
type slabStep struct {
	a   bool
	idx int
}

// slabOrder returns the order of the uploads of the row-slab schedule for
// A's row panels of heights hs and B's chunks of kns rows: B's next chunk
// while the share of B's rows uploaded is at most that of A's rows, A's
// next panel otherwise (so B's first chunk goes first).
func slabOrder(hs, kns []int) []slabStep {
	m, k := 0, 0
	for _, h := range hs {
		m += h
	}
	for _, kn := range kns {
		k += kn
	}
	order := make([]slabStep, 0, len(hs)+len(kns))
	ra, cb, ha, kb := 0, 0, 0, 0
	for ra < len(hs) || cb < len(kns) {
		if cb < len(kns) && (ra == len(hs) || kb*m <= ha*k) {
			order = append(order, slabStep{idx: cb})
			kb += kns[cb]
			cb++
		} else {
			order = append(order, slabStep{a: true, idx: ra})
			ha += hs[ra]
			ra++
		}
	}
	return order
}

// slabChunks cuts k into n chunks as equal as can be, at most n (fewer
// when k is small): each is {first, length}.
func slabChunks(k, n int) [][2]int {
	kc := l3CeilDiv(k, n)
	var cs [][2]int
	for k0 := 0; k0 < k; k0 += kc {
		cs = append(cs, [2]int{k0, min(kc, k-k0)})
	}
	return cs
}

// slabSchedule is the row-slab schedule's part that does not depend on
// the element type: it uploads in slabOrder with panelA (A's row panel
// r0…r0+mi), chunkB (B's rows k0…k0+kn) and, when readC, blockC (C's
// slab, uploaded with A's panel), and calls run for each slab and chunk as
// soon as its inputs are enqueued (wait: their events), chunks of a slab
// in order, first and last marking the slab's first and last chunk. It
// stops once ok reports false (the call failed: an upload returned nil).
func slabSchedule(rows [][2]int, chunks [][2]int, readC bool,
	panelA, blockC func(r0, mi int) *cl.Event, chunkB func(k0, kn int) *cl.Event,
	run func(wait []*cl.Event, r0, mi, k0, kn int, first, last bool) bool, ok func() bool) {
	hs, kns := make([]int, len(rows)), make([]int, len(chunks))
	for i, r := range rows {
		hs[i] = r[1]
	}
	for i, ch := range chunks {
		kns[i] = ch[1]
	}
	evA, evC, evB := make([]*cl.Event, len(rows)), make([]*cl.Event, len(rows)), make([]*cl.Event, len(chunks))
	job := func(i, ch int) bool {
		wait := []*cl.Event{evA[i], evB[ch]}
		if ch == 0 && readC {
			wait = append(wait, evC[i])
		}
		return run(wait, rows[i][0], rows[i][1], chunks[ch][0], chunks[ch][1], ch == 0, ch == len(chunks)-1)
	}
	ra, cb := 0, 0
	for _, st := range slabOrder(hs, kns) {
		if !ok() {
			return
		}
		if st.a {
			i := st.idx
			evA[i] = panelA(rows[i][0], rows[i][1])
			if readC {
				evC[i] = blockC(rows[i][0], rows[i][1])
			}
			if !ok() {
				return
			}
			for ch := range cb {
				if !job(i, ch) {
					return
				}
			}
			ra++
		} else {
			ch := st.idx
			evB[ch] = chunkB(chunks[ch][0], chunks[ch][1])
			if !ok() {
				return
			}
			for i := range ra {
				if !job(i, ch) {
					return
				}
			}
			cb++
		}
	}
}

// tileRect is the rect transfer between the rows×cols block at (r0, c0)
// of a host matrix with leading dimension ld and the same block packed at
// element off of a device buffer (leading dimension cols).
func tileRect(off, ld, r0, rows, c0, cols int) cl.Rect {
	return cl.Rect{
		BufferOrigin:   [3]int{off % cols, off / cols, 0},
		HostOrigin:     [3]int{c0, r0, 0},
		Region:         [3]int{cols, rows, 1},
		BufferRowPitch: cols,
		HostRowPitch:   ld,
	}
}

// unpackTiles copies C's tiles (row panels rows × column panels of nt,
// packed as gemmStaged lays them out in src) into the matrix dst with n
// columns and leading dimension ldc. dst's padding is not touched.
func unpackTiles[T real](dst, src []T, n, ldc int, rows [][2]int, nt int) {
	for _, rr := range rows {
		r0, mi := rr[0], rr[1]
		for c0 := 0; c0 < n; c0 += nt {
			unpackTile(dst, src, ldc, r0, mi, c0, min(nt, n-c0), r0*n+mi*c0)
		}
	}
}

// unpackTile copies the mi×nj tile packed at src[off:] to (r0, c0) of dst
// (leading dimension ldc), on several goroutines when it is large.
func unpackTile[T real](dst, src []T, ldc, r0, mi, c0, nj, off int) {
	copyBlock(dst[r0*ldc+c0:], ldc, src[off:], nj, mi, nj)
}

// tileUnpacker copies C's tiles out of pinned memory into
// the user's C as their downloads complete, on a goroutine of its own (each
// copy itself on several goroutines when it is large).
type tileUnpacker[T real] struct {
	dst, src []T
	ldc      int
	jobs     chan unpackJob
	done     chan struct{}
	ns       int64 // time spent copying
	err      error // the first download that failed
}

// unpackJob: once ev is complete, copy the mi×nj tile packed at src[off:]
// to (r0, c0) of dst.
type unpackJob struct {
	ev                  *cl.Event
	r0, mi, c0, nj, off int
}

func startTileUnpacker[T real](dst, src []T, ldc int) *tileUnpacker[T] {
	u := &tileUnpacker[T]{dst: dst, src: src, ldc: ldc,
		jobs: make(chan unpackJob, 256), done: make(chan struct{})}
	go u.loop()
	return u
}

func (u *tileUnpacker[T]) add(ev *cl.Event, r0, mi, c0, nj, off int) {
	u.jobs <- unpackJob{ev, r0, mi, c0, nj, off}
}

func (u *tileUnpacker[T]) loop() {
	defer close(u.done)
	for j := range u.jobs {
		if u.err != nil {
			continue // drain: nothing more is written after a failure
		}
		if err := j.ev.Wait(); err != nil {
			u.err = err
			continue
		}
		t := time.Now()
		unpackTile(u.dst, u.src, u.ldc, j.r0, j.mi, j.c0, j.nj, j.off)
		u.ns += int64(time.Since(t))
	}
}

// stop waits for every added tile and returns the copying time and the
// first error.
func (u *tileUnpacker[T]) stop() (int64, error) {
	close(u.jobs)
	<-u.done
	return u.ns, u.err
}
