package engine

import (
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// GEMV from Go slices with the host computing a share of the rows.
//
// The stream (l2_pipe.go) moves each byte of A three times through the
// host's memory (the copying goroutine reads it and writes the staging
// memory, the DMA reads that), so on a host whose copies are the bound it
// moves A well below the bus's rate. A goroutine that multiplies rows of A
// by x itself reads each byte once. So with a share, the device takes
// A's rows from the top, chunk by chunk as the stream feeds them, while
// the copying goroutines, whenever they have no piece to copy (the
// staging slots are all waiting for their DMA), take blocks of rows from
// the bottom and compute them with gonum's code; the device's part ends
// where the two meet, and its kernel runs over the rows it received. The
// split so follows the two rates on each host without a model of them.
//
// Host results stay in buffers of the call until it has succeeded, so
// that a call that fails leaves y as it was for the CPU to redo.

// defaultL2Share is Engine.L2Share's default where the host shares rows: a
// quarter of the goroutines start with host rows, so that the host's part
// starts at once while the rest feed the stream. Against none, two and
// half of them, on the H200's 16-core host, it was the fastest or within a
// few per cent of it for GEMV, and for GER at the larger order; GER at the
// smaller one varied most between the counts, with no order between them
// (BENCHMARKS.md, "Figures behind the code's choices").
func defaultL2Share() int { return runtime.GOMAXPROCS(0)/4 + 1 }

// l2Share is the split of an m-row matrix between the device (rows
// 0…devEnd-1, whole chunks claimed in order) and the host (rows hostLo…,
// blocks claimed from the bottom).
type l2Share[T Real] struct {
	mu     sync.Mutex
	devEnd int
	hostLo int
	floor  int // the host never claims rows above it: the device's first chunk
	block  int // rows per host block
	// first is the number of goroutines that take host blocks before
	// pieces to copy (the others copy first).
	first int
	// do computes rows r0…r0+k-1 on goroutine w; rows counts them.
	do   func(r0, k, w int)
	rows *atomic.Int64
}

// claimDevice gives the device rows up to r1 (exclusive), unless the host
// has taken any of them.
func (h *l2Share[T]) claimDevice(r1 int) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r1 > h.hostLo {
		return false
	}
	h.devEnd = r1
	return true
}

// bounds returns the device's rows (0…devEnd-1) and the first of the
// host's.
func (h *l2Share[T]) bounds() (devEnd, hostLo int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.devEnd, h.hostLo
}

// claimHost takes the next block of rows for the host, from the bottom.
func (h *l2Share[T]) claimHost() (r0, k int, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	lo := max(h.devEnd, h.floor, h.hostLo-h.block)
	if lo >= h.hostLo {
		return 0, 0, false
	}
	k, h.hostLo = h.hostLo-lo, lo
	return lo, k, true
}

// runHost computes host blocks on goroutine w until none is left.
func (h *l2Share[T]) runHost(w int) {
	for {
		r0, k, ok := h.claimHost()
		if !ok {
			return
		}
		h.do(r0, k, w)
		h.rows.Add(int64(k))
	}
}

// subVec is the part of the vector v (total elements, increment inc) that
// holds its elements r0…r0+k-1, as a vector of k with the same increment.
func subVec[T Real](v []T, total, inc, r0, k int) []T {
	if inc > 0 {
		return v[r0*inc:]
	}
	return v[(total-r0-k)*-inc:]
}

// gemvRows computes y = alpha·op(A)·x + beta·y with gonum's code, for a
// float32 or float64 A.
func gemvRows[T Real](tA blas.Transpose, m, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) {
	switch a := any(a).(type) {
	case []float64:
		gonum.Implementation{}.Dgemv(tA, m, n, float64(alpha), a, lda, any(x).([]float64), incX, float64(beta), any(y).([]float64), incY)
	case []float32:
		gonum.Implementation{}.Sgemv(tA, m, n, float32(alpha), a, lda, any(x).([]float32), incX, float32(beta), any(y).([]float32), incY)
	}
}

// gemvShare is mvStaged for the dense m×n A of GEMV with a host share
// (e.L2Share-1 goroutines take host blocks first); see above.
func gemvShare[T Real](e *Engine, name string, trans bool, m, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) error {
	_, nin, offX, offY, spanY, err := stagedLayout(trans, m, n, lda, incX, incY)
	if err != nil {
		return err
	}
	g := e.l2Geometry(m, n, ElemSize[T]())
	// The device claims a chunk when the stream feeds it, a slot's worth
	// ahead: fewer slots leave the host rows to take in smaller matrices
	// too, and goroutines without a piece to copy compute.
	g.depth = min(g.depth, 4)
	h := &l2Share[T]{hostLo: m, floor: g.starts[1], block: max(1, g.rows/g.per), first: e.L2Share - 1, rows: &e.L2HostRows}
	// The host's results: N, y's rows (in order, increment 1), written
	// into y once the call has succeeded; T, one partial Aᵀx per goroutine.
	var rows []T
	parts := make([][]T, g.workers)
	if trans {
		h.do = func(r0, k, w int) {
			if parts[w] == nil {
				parts[w] = make([]T, n)
			}
			gemvRows(blas.Trans, k, n, alpha, a[r0*lda:], lda, subVec(x, m, incX, r0, k), incX, 1, parts[w], 1)
		}
	} else {
		rows = make([]T, m)
		h.do = func(r0, k, _ int) {
			if beta != 0 {
				for i := r0; i < r0+k; i++ {
					rows[i] = y[offY+i*incY]
				}
			}
			gemvRows(blas.NoTrans, k, n, alpha, a[r0*lda:], lda, x, incX, beta, rows[r0:], 1)
		}
	}
	e.L2StagedRuns.Add(1)
	c := Begin[T](e, name)
	yb := outputVec(c, y, spanY, beta != 0)
	xb := Upload(c, x[:VecSpan(nin, incX)])
	ab := Alloc[T](c, m*n)
	s := startShared(c, g, a, lda, h)
	s.upAll(ab)
	mDev := g.starts[s.limit]
	d := L2Mat{kind: l2KindGeneral, storage: L2Dense, trans: trans, m: mDev, n: n, kl: mDev - 1, ku: n - 1, Lda: n}
	if trans {
		L2mvOnDevice(c, d, ab, n, mDev, alpha, xb, offX, incX, beta, yb, offY, incY)
	} else {
		L2mvOnDevice(c, d, ab, mDev, n, alpha, xb, offX, incX, beta, yb, offY, incY)
	}
	s.stop() // the host's blocks are done too
	out := Download[T](c, yb, spanY)
	if err := c.Finish(); err != nil {
		return err
	}
	if trans {
		ScatterVec(y, out, n, incY)
		for _, p := range parts {
			for j := 0; p != nil && j < n; j++ {
				y[offY+j*incY] += p[j]
			}
		}
		return nil
	}
	for i := range m {
		if i < mDev {
			y[offY+i*incY] = out[offY+i*incY]
		} else {
			y[offY+i*incY] = rows[i]
		}
	}
	return nil
}

// shareLoop is goroutine i of a pool with a host share: the first
// share.first goroutines compute host blocks before copying, the others
// copy whenever a piece waits and compute a host block otherwise. Once the
// pieces are all fed (the channel closed), each finishes the host's rows.
func (p *l2Copies[T]) shareLoop(i int) {
	h := p.share
	if i < h.first {
		h.runHost(i)
	}
	for {
		var w l2Piece[T]
		var ok bool
		select {
		case w, ok = <-p.work:
		default:
			if r0, k, got := h.claimHost(); got {
				h.do(r0, k, i)
				h.rows.Add(int64(k))
				continue
			}
			w, ok = <-p.work
		}
		if !ok {
			h.runHost(i)
			return
		}
		w.copy()
	}
}

// gerRows computes A += alpha·x·yᵀ with gonum's code (positive
// increments: gonum v0.17.0's assembly gets negative ones wrong), for a
// float32 or float64 A.
func gerRows[T Real](m, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int) {
	switch a := any(a).(type) {
	case []float64:
		gonum.Implementation{}.Dger(m, n, float64(alpha), any(x).([]float64), incX, any(y).([]float64), incY, a, lda)
	case []float32:
		gonum.Implementation{}.Sger(m, n, float32(alpha), any(x).([]float32), incX, any(y).([]float32), incY, a, lda)
	}
}

// gerShare is gerStaged with a host share (e.L2Share-1 goroutines take
// host blocks first; positive increments): the host updates its rows of A
// in place, the device's rows go up, are updated and come back. A call
// whose device part fails finishes the rows the device did not write
// back on the host and says that all m rows are done (RowsDone).
func gerShare[T Real](e *Engine, name string, m, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int) error {
	if !l2fits(m*n, lda, incX, incY) {
		return errL2TooLarge
	}
	g := e.l2Geometry(m, n, ElemSize[T]())
	g.depth = min(g.depth, 4) // as gemvShare
	h := &l2Share[T]{hostLo: m, floor: g.starts[1], block: max(1, g.rows/g.per), first: e.L2Share - 1, rows: &e.L2HostRows}
	h.do = func(r0, k, _ int) {
		gerRows(k, n, alpha, x[r0*incX:], incX, y, incY, a[r0*lda:], lda)
	}
	e.L2StagedRuns.Add(1)
	c := Begin[T](e, name)
	xb := Upload(c, x[:VecSpan(m, incX)])
	yb := Upload(c, y[:VecSpan(n, incY)])
	ab := Alloc[T](c, m*n)
	s := startShared(c, g, a, lda, h)
	s.upAll(ab)
	// The device's rows: those it claimed, or every row where A lies in a
	// HostSlice (the stream then goes up without the host's share).
	mDev := g.starts[s.limit]
	L2rankOnDevice(c, L2Update{}, mDev, n, alpha, xb, 0, incX, yb, 0, incY, ab, n)
	back := s.downAll(ab)
	s.stop() // the host's blocks and every copy into A fed are done
	if err := c.Finish(); err != nil {
		// Rows [0, done) came back from the device and [hostLo, m) were
		// the host's; the rest are as given.
		done := g.starts[back]
		_, hostLo := h.bounds()
		if done < hostLo {
			gerRows(hostLo-done, n, alpha, x[done*incX:], incX, y, incY, a[done*lda:], lda)
		}
		return &errRowsDone{rows: m, err: err}
	}
	return nil
}
