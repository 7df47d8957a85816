package engine

// Schedules of the staged GEMM pipeline, which moves a GEMM on host
// slices through pinned staging memory in pieces so that transfers and
// kernels overlap: by tiles of C (RowPanels, TileOrder) or by full-width
// row slabs of C and chunks of k (SlabChunks, SlabOrder, SlabSchedule).

import (
	"time"

	"github.com/gocompute/opencl/cl"
)

// RowPanels cuts the m rows of C into panels of mt rows, except that when
// there are several, the last full-height span is halved (in multiples of
// 256 rows when mt allows): the last row panel of A to arrive gates a
// whole row of tiles, and a thinner one shortens the compute left after
// the final upload. Each panel is {first row, rows}.
func RowPanels(m, mt int) [][2]int {
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

// TileOrder returns the order in which the pipeline visits the tiles
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
func TileOrder(hs, ws []int) [][2]int {
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

// SlabStep is one upload of the row-slab schedule: row panel idx of A, or
// k-chunk idx of B.
type SlabStep struct {
	A   bool // A's row panel Idx, or else B's chunk Idx
	Idx int
}

// SlabOrder returns the order of the uploads of the row-slab schedule for
// A's row panels of heights hs and B's chunks of kns rows: B's next chunk
// while the share of B's rows uploaded is at most that of A's rows, A's
// next panel otherwise (so B's first chunk goes first).
func SlabOrder(hs, kns []int) []SlabStep {
	m, k := 0, 0
	for _, h := range hs {
		m += h
	}
	for _, kn := range kns {
		k += kn
	}
	order := make([]SlabStep, 0, len(hs)+len(kns))
	ra, cb, ha, kb := 0, 0, 0, 0
	for ra < len(hs) || cb < len(kns) {
		if cb < len(kns) && (ra == len(hs) || kb*m <= ha*k) {
			order = append(order, SlabStep{Idx: cb})
			kb += kns[cb]
			cb++
		} else {
			order = append(order, SlabStep{A: true, Idx: ra})
			ha += hs[ra]
			ra++
		}
	}
	return order
}

// SlabChunks cuts k into n chunks as equal as can be, at most n (fewer
// when k is small): each is {first, length}.
func SlabChunks(k, n int) [][2]int {
	kc := (k + n - 1) / n
	var cs [][2]int
	for k0 := 0; k0 < k; k0 += kc {
		cs = append(cs, [2]int{k0, min(kc, k-k0)})
	}
	return cs
}

// SlabSchedule is the row-slab schedule's part that does not depend on
// the element type: it uploads in slabOrder with panelA (A's row panel
// r0…r0+mi), chunkB (B's rows k0…k0+kn) and, when readC, blockC (C's
// slab, uploaded with A's panel), and calls run for each slab and chunk as
// soon as its inputs are enqueued (wait: their events), chunks of a slab
// in order, first and last marking the slab's first and last chunk. It
// stops once ok reports false (the call failed: an upload returned nil).
func SlabSchedule(rows [][2]int, chunks [][2]int, readC bool,
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
	for _, st := range SlabOrder(hs, kns) {
		if !ok() {
			return
		}
		if st.A {
			i := st.Idx
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
			ch := st.Idx
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

// TileRect is the rect transfer between the rows×cols block at (r0, c0)
// of a host matrix with leading dimension ld and the same block packed at
// element off of a device buffer (leading dimension cols).
func TileRect(off, ld, r0, rows, c0, cols int) cl.Rect {
	return cl.Rect{
		BufferOrigin:   [3]int{off % cols, off / cols, 0},
		HostOrigin:     [3]int{c0, r0, 0},
		Region:         [3]int{cols, rows, 1},
		BufferRowPitch: cols,
		HostRowPitch:   ld,
	}
}

// UnpackTiles copies C's tiles (row panels rows × column panels of nt,
// packed as the staged GEMM lays them out in src: tile (r0, c0) of height
// mi at r0·n + mi·c0) into the matrix dst with n columns and leading
// dimension ldc. dst's padding is not touched.
func UnpackTiles[T Real](dst, src []T, n, ldc int, rows [][2]int, nt int) {
	for _, rr := range rows {
		r0, mi := rr[0], rr[1]
		for c0 := 0; c0 < n; c0 += nt {
			unpackTile(dst, src, ldc, r0, mi, c0, min(nt, n-c0), r0*n+mi*c0)
		}
	}
}

// unpackTile copies the mi×nj tile packed at src[off:] to (r0, c0) of dst
// (leading dimension ldc), on several goroutines when it is large.
func unpackTile[T Real](dst, src []T, ldc, r0, mi, c0, nj, off int) {
	CopyBlock(dst[r0*ldc+c0:], ldc, src[off:], nj, mi, nj)
}

// TileUnpacker copies C's tiles out of pinned memory into
// the user's C as their downloads complete, on a goroutine of its own (each
// copy itself on several goroutines when it is large).
type TileUnpacker[T Real] struct {
	dst, src []T
	ldc      int
	jobs     chan unpackJob
	done     chan struct{}
	ns       int64 // time spent copying
	err      error // the first download that failed
	// check: look for NaN and infinities in the tiles (complex calls);
	// bad: one was found.
	check, bad bool
}

// unpackJob: once ev is complete, copy the mi×nj tile packed at src[off:]
// to (r0, c0) of dst.
type unpackJob struct {
	ev                  *cl.Event
	r0, mi, c0, nj, off int
}

func StartTileUnpacker[T Real](dst, src []T, ldc int) *TileUnpacker[T] {
	return startTileUnpacker(dst, src, ldc, false)
}

// startTileUnpacker is StartTileUnpacker, also checking that the tiles'
// values are finite when check is set; with dst nil it only checks.
func startTileUnpacker[T Real](dst, src []T, ldc int, check bool) *TileUnpacker[T] {
	u := &TileUnpacker[T]{dst: dst, src: src, ldc: ldc, check: check,
		jobs: make(chan unpackJob, 256), done: make(chan struct{})}
	go u.loop()
	return u
}

func (u *TileUnpacker[T]) Add(ev *cl.Event, r0, mi, c0, nj, off int) {
	u.jobs <- unpackJob{ev, r0, mi, c0, nj, off}
}

func (u *TileUnpacker[T]) loop() {
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
		switch {
		case u.dst == nil: // checking only
			u.bad = !BlockFinite(u.src[j.off:], 1, j.mi*j.nj, 0) || u.bad
		case u.check:
			u.bad = !unpackTileFinite(u.dst, u.src, u.ldc, j.r0, j.mi, j.c0, j.nj, j.off) || u.bad
		default:
			unpackTile(u.dst, u.src, u.ldc, j.r0, j.mi, j.c0, j.nj, j.off)
		}
		u.ns += int64(time.Since(t))
	}
}

// Stop waits for every added tile and returns the copying time and the
// first error.
func (u *TileUnpacker[T]) Stop() (int64, error) {
	close(u.jobs)
	<-u.done
	return u.ns, u.err
}
