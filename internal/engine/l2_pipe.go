package engine

import (
	"runtime"
	"sync"

	"github.com/gocompute/opencl/cl"
)

// The stream of a level 2 call from Go slices (l2_staged.go).
//
// What bounds it is the host's copy of the matrix into pinned staging
// memory, which reaches the bus's rate only on many cores at once. So the
// copies run on a pool of goroutines (all Ps but one), piece by
// piece (a few rows each), in the order the calling goroutine feeds them,
// without a barrier between chunks: while the DMA of one chunk runs, the
// pieces of the next ones are being copied. The calling goroutine feeds
// the pieces of a chunk as soon as its staging slot is free and enqueues
// the chunk's upload once its pieces are done. Everything runs on the
// engine's in-order queue: the uploads one after another, then the
// call's kernel, then (GER) the read-backs, so that no command waits for
// an event of another queue.
//
// Pieces of 1 MiB or more (when the matrix is not padded: one contiguous
// copy) let Go's copy use non-temporal stores, which do not read the
// staging memory before writing it; small matrices take smaller pieces,
// so that there are more of them than goroutines and the first chunks
// are ready while the others are still being copied.
//
// A matrix that lies in a HostSlice (pinned memory already) skips the
// copies: each chunk goes up by a rect transfer straight from it.

const (
	// l2PieceMax and l2PieceMin bound the bytes of one piece.
	l2PieceMax = 1 << 20
	l2PieceMin = 64 << 10
	// l2ChunkPieces is the number of pieces of one chunk (one upload).
	l2ChunkPieces = 4
)

// l2Geom is the cut of an m×n matrix into chunks of rows (one upload
// each) of per pieces (one host copy each), and the number of chunks in
// flight (staging slots, of rows rows each).
type l2Geom struct {
	m, n    int
	starts  []int // chunk t is rows starts[t]…starts[t+1]-1
	rows    int   // the most rows of a chunk
	per     int   // pieces per chunk
	chunks  int
	depth   int
	workers int
}

// l2Geometry cuts an m×n matrix of elem-byte elements for the stream;
// L2Slab, when set (tests), is the size of a chunk in bytes.
//
// The first and the last wave of pieces (one piece per goroutine) are a
// quarter of the others' size: the first upload then starts after a
// quarter of a wave's copying, and the last waits for a quarter of a
// wave's transfer.
func (e *Engine) l2Geometry(m, n, elem int) l2Geom {
	// One P stays free for the calling goroutine, which wakes for each
	// chunk: with every P copying, it would wait for a copy to yield.
	g := l2Geom{m: m, n: n, workers: max(1, runtime.GOMAXPROCS(0)-1), per: l2ChunkPieces}
	if e.L2Workers > 0 {
		g.workers = e.L2Workers
	}
	most := l2PieceMax
	if e.L2Piece > 0 {
		most = e.L2Piece
	}
	row := max(1, n*elem)
	big, small := 0, 0 // rows of the chunks, and of the ramps' chunks
	if e.L2Slab > 0 {
		g.per, big = 2, max(1, e.L2Slab/row)
		small = big
	} else {
		bytes := min(max(m*row/(2*g.workers), min(l2PieceMin, most)), most)
		piece := max(1, (bytes+row-1)/row)
		big, small = g.per*piece, g.per*max(1, piece/4)
	}
	ramp := 0 // rows in small chunks at each end
	if small < big {
		ramp = small * ((g.workers + g.per - 1) / g.per)
	}
	if m < 2*ramp+big {
		ramp = 0
	}
	g.starts = append(g.starts, 0)
	for r := 0; r < m; {
		k := big
		if r < ramp || r >= m-ramp {
			k = small
		} else if r+k > m-ramp {
			k = m - ramp - r
		}
		r = min(r+k, m)
		g.starts = append(g.starts, r)
	}
	g.chunks = len(g.starts) - 1
	g.rows = min(big, m)
	// Enough slots for two pieces per goroutine beside the chunks in
	// transfer (GER holds two more: downloading and copying back).
	g.depth = min(g.chunks, max(4, (2*g.workers+g.per-1)/g.per+2))
	return g
}

// span returns the first row and the number of rows of chunk t.
func (g l2Geom) span(t int) (r0, mi int) {
	return g.starts[t], g.starts[t+1] - g.starts[t]
}

// l2Piece is one host copy: a rows×cols block from src (leading dimension
// lds) to dst (ldd), or only its part in the upper or lower triangle of
// the matrix (tri) whose row r0 is the block's first; done counts it.
type l2Piece[T Real] struct {
	dst, src   []T
	ldd, lds   int
	rows, cols int
	tri        l2Tri
	r0         int
	done       *sync.WaitGroup
}

// l2Tri selects the part of each row a stream copies.
type l2Tri int8

const (
	l2Full  l2Tri = iota
	l2Upper       // columns r… of row r
	l2Lower       // columns …r of row r
)

// l2Copies is a call's pool of copying goroutines.
type l2Copies[T Real] struct {
	work  chan l2Piece[T]
	wg    sync.WaitGroup
	share *l2Share[T] // the host's share of a GEMV (l2_share.go), or nil
}

// startCopies starts workers goroutines that copy the pieces fed to them,
// in order; at most queued pieces wait. With a share, they compute its
// host blocks too (l2_share.go).
func startCopies[T Real](workers, queued int, share *l2Share[T]) *l2Copies[T] {
	p := &l2Copies[T]{work: make(chan l2Piece[T], queued), share: share}
	p.wg.Add(workers)
	for i := range workers {
		go func() {
			defer p.wg.Done()
			if share != nil {
				p.shareLoop(i)
				return
			}
			for w := range p.work {
				w.copy()
			}
		}()
	}
	return p
}

// copy does the piece w.
func (w l2Piece[T]) copy() {
	if w.tri == l2Full {
		copyRows(w.dst, w.ldd, w.src, w.lds, w.rows, w.cols)
	} else {
		copyTri(w.dst, w.ldd, w.src, w.lds, w.r0, w.rows, w.cols, w.tri == l2Upper)
	}
	w.done.Done()
}

// stop waits for every piece fed and ends the goroutines.
func (p *l2Copies[T]) stop() {
	close(p.work)
	p.wg.Wait()
}

// copyRows copies a rows×cols block on the calling goroutine: one copy
// when both sides are contiguous.
func copyRows[T Real](dst []T, ldd int, src []T, lds, rows, cols int) {
	if ldd == cols && lds == cols {
		n := rows * cols
		copy(dst[:n], src[:n])
		return
	}
	for r := range rows {
		copy(dst[r*ldd:r*ldd+cols], src[r*lds:r*lds+cols])
	}
}

// copyTri copies the part of a rows×cols block in the upper or lower
// triangle of the matrix whose row r0 is the block's first row.
func copyTri[T Real](dst []T, ldd int, src []T, lds, r0, rows, cols int, upper bool) {
	for r := range rows {
		lo, hi := 0, min(r0+r+1, cols)
		if upper {
			lo, hi = min(r0+r, cols), cols
		}
		copy(dst[r*ldd+lo:r*ldd+hi], src[r*lds+lo:r*lds+hi])
	}
}

// l2Stream is one level 2 call's stream of its m×n matrix a (leading
// dimension lda) through the staging slots: the pipeline's queues, the
// pinned slots (slot j holds chunk t with t mod depth = j, packed with
// leading dimension n), the device slots, and the copying goroutines.
type l2Stream[T Real] struct {
	c   *Call
	g   l2Geom
	a   []T
	lda int
	tri l2Tri // the part of A's rows packed (upAll's streams)
	// direct: A lies in a HostSlice (pinned already), and goes up by rect
	// transfers straight from it, without host copies.
	direct     bool
	q          *cl.Queue
	host       []T
	copies     *l2Copies[T]
	busy       []sync.WaitGroup // per slot: its pieces being copied
	ups, downs []*cl.Event      // per slot: its chunk's upload and download
	// share, when set, is the host's share of the rows (l2_share.go);
	// limit is the number of chunks the device took (all without).
	share *l2Share[T]
	limit int
}

// startStream takes the queues and the staging memory, and starts the
// copying goroutines. Commands
// enqueued on the engine's queue before (the call's vector uploads, and
// device-resident work that may still use pooled buffers this call takes)
// complete before the stream's commands start.
func startStream[T Real](c *Call, g l2Geom, a []T, lda int) *l2Stream[T] {
	return startShared(c, g, a, lda, nil)
}

// startShared is startStream with the host's share h of the rows (nil:
// none; ignored when A lies in a HostSlice, which needs no copies).
func startShared[T Real](c *Call, g l2Geom, a []T, lda int, h *l2Share[T]) *l2Stream[T] {
	s := &l2Stream[T]{c: c, g: g, a: a, lda: lda, limit: g.chunks}
	s.direct = Contains(&c.E.HostSlices, a[:MatSpan(g.m, g.n, lda)])
	if s.direct {
		c.E.L2DirectRuns.Add(1)
		h = nil
	}
	s.share = h
	workers := min(g.workers, g.depth*g.per)
	if h != nil {
		workers = g.workers
	}
	s.q = c.E.Queue
	slot := g.rows * g.n
	if p := stage[T](c, g.depth*slot); p != nil {
		s.host = PinnedView[T](p, g.depth*slot)
	}
	s.busy = make([]sync.WaitGroup, g.depth)
	s.ups, s.downs = make([]*cl.Event, g.depth), make([]*cl.Event, g.depth)
	s.copies = startCopies(workers, g.depth*g.per, h)
	return s
}

// slot returns the staging memory of chunk t (its rows, packed).
func (s *l2Stream[T]) slot(t int) []T {
	_, mi := s.g.span(t)
	off := (t % s.g.depth) * s.g.rows * s.g.n
	return s.host[off : off+mi*s.g.n]
}

// feed hands chunk t's pieces to the copying goroutines: packing it from
// A into its slot, or (back) unpacking its slot into A.
func (s *l2Stream[T]) feed(t int, back bool) {
	if s.c.Err != nil || t >= s.limit || (s.direct && !back) {
		return
	}
	if !back && s.share != nil && !s.share.claimDevice(s.g.starts[t+1]) {
		s.limit = t // the host has the rest
		return
	}
	g, n := s.g, s.g.n
	r0, mi := g.span(t)
	host, done := s.slot(t), &s.busy[t%g.depth]
	piece := (mi + g.per - 1) / g.per
	for p := 0; p < mi; p += piece {
		k := min(piece, mi-p)
		w := l2Piece[T]{dst: host[p*n:], ldd: n, src: s.a[(r0+p)*s.lda:], lds: s.lda, rows: k, cols: n, tri: s.tri, r0: r0 + p, done: done}
		if back {
			w.dst, w.ldd, w.src, w.lds = w.src, w.lds, w.dst, w.ldd
		}
		done.Add(1)
		s.copies.work <- w
	}
}

// send waits for chunk t's pieces and enqueues its upload to dev at
// element off, once the events of wait have completed; it returns the
// upload's event (nil once the call has failed).
func (s *l2Stream[T]) send(t int, dev *cl.Buffer, off int, wait ...*cl.Event) *cl.Event {
	c := s.c
	s.busy[t%s.g.depth].Wait()
	if c.Err != nil {
		return nil
	}
	if err := c.E.Fault.Inject("write"); err != nil {
		c.Fail(err)
		return nil
	}
	var ev *cl.Event
	var err error
	r0, mi := s.g.span(t)
	c0, cols := s.triCols(t)
	switch {
	case s.direct:
		ev, err = cl.WriteBufferRect(s.q, dev, false, rowsRect(off, s.g.n, c0, cols, mi, r0, s.lda), s.a, wait...)
	case cols < s.g.n:
		ev, err = cl.WriteBufferRect(s.q, dev, false, rowsRect(off, s.g.n, c0, cols, mi, 0, s.g.n), s.slot(t), wait...)
	default:
		ev, err = cl.WriteBuffer(s.q, dev, false, off, s.slot(t), wait...)
	}
	if err != nil {
		c.Fail(err)
		return nil
	}
	c.Events = append(c.Events, ev)
	s.ups[t%s.g.depth] = ev
	c.Fail(s.q.Flush())
	return ev
}

// triCols is the span of columns c0…c0+cols-1 that chunk t's rows hold
// of the triangle s.tri (every column for a whole matrix, or where the
// engine's L2WholeRows asks for whole rows): a chunk of a triangle goes up
// as that band alone, about half the bytes of whole rows over the whole
// matrix, since the DMA, not only the host's copies, bounds the stream.
func (s *l2Stream[T]) triCols(t int) (c0, cols int) {
	r0, mi := s.g.span(t)
	switch {
	case s.c.E.L2WholeRows:
	case s.tri == l2Upper:
		return r0, s.g.n - r0
	case s.tri == l2Lower:
		return 0, min(s.g.n, r0+mi)
	}
	return 0, s.g.n
}

// rowsRect is the rect transfer of columns c0…c0+cols-1 of rows rows
// between a device matrix of leading dimension n whose row at element off
// is the first of them and host memory holding them from its row r0 with
// leading dimension ld.
func rowsRect(off, n, c0, cols, rows, r0, ld int) cl.Rect {
	return cl.Rect{
		BufferOrigin:   [3]int{off%n + c0, off / n, 0},
		HostOrigin:     [3]int{c0, r0, 0},
		Region:         [3]int{cols, rows, 1},
		BufferRowPitch: n,
		HostRowPitch:   ld,
	}
}

// refill waits for ev (the last command that reads slot t's staging
// memory) and feeds chunk t + depth into the slot.
func (s *l2Stream[T]) refill(t int, ev *cl.Event) {
	if t < 0 || t+s.g.depth >= s.limit || s.c.Err != nil {
		return
	}
	if ev != nil {
		s.c.Fail(ev.Wait())
	}
	s.feed(t+s.g.depth, false)
}

// stop waits for the copies fed and ends the goroutines.
func (s *l2Stream[T]) stop() {
	if s.copies != nil {
		s.copies.stop()
	}
}

// upAll streams all of A, packed (leading dimension n), into dev. With
// s.tri, only that triangle is copied into the staging memory and goes up
// (triCols): the rest of dev's rows keeps whatever it held, which the
// kernels of a symmetric or triangular matrix never read (as they never
// read the caller's other triangle), so that the host and the bus move
// half.
func (s *l2Stream[T]) upAll(dev *cl.Buffer) {
	g := s.g
	for t := range g.depth {
		s.feed(t, false)
	}
	for t := 0; t < s.limit && s.c.Err == nil; t++ {
		r0, _ := g.span(t)
		s.send(t, dev, r0*g.n)
		if t > 0 {
			s.refill(t-1, s.ups[(t-1)%g.depth])
		}
	}
}

// downAll reads dev (packed, leading dimension n) back chunk by chunk into
// the staging slots, after the call's kernel, and feeds each
// chunk's copy into A as its read completes; a slot is read into again
// once its copy is done. It returns the number of chunks whose copies
// were fed, in order (done once stop returns).
func (s *l2Stream[T]) downAll(dev *cl.Buffer) int {
	c, g := s.c, s.g
	if c.Err != nil {
		return 0
	}
	fetch := func(t int) {
		if c.Err != nil || t >= s.limit {
			return
		}
		if err := c.E.Fault.Inject("read"); err != nil {
			c.Fail(err)
			return
		}
		r0, _ := g.span(t)
		ev, err := cl.ReadBuffer(s.q, dev, false, r0*g.n, s.slot(t))
		if err != nil {
			c.Fail(err)
			return
		}
		c.Events = append(c.Events, ev)
		s.downs[t%g.depth] = ev
		c.Fail(s.q.Flush())
	}
	for t := range g.depth {
		fetch(t)
	}
	back := 0
	for t := 0; t < s.limit && c.Err == nil; t++ {
		if c.Fail(s.downs[t%g.depth].Wait()); c.Err != nil {
			break
		}
		s.feed(t, true)
		back = t + 1
		if t > 0 {
			s.busy[(t-1)%g.depth].Wait()
			fetch(t - 1 + g.depth)
		}
	}
	return back
}
