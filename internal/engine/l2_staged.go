package engine

import (
	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
)

// Level 2 from Go slices on a device with memory of its own.
//
// A level 2 call moves its matrix once and computes little on it, so its
// time from host slices is the time of the transfer. A transfer straight
// from pageable Go memory runs far below the bus (the driver stages it
// through bounce buffers of its own), so the matrix is streamed instead
// through pinned staging memory in chunks of rows (l2_pipe.go): the host
// copies the next chunks on many goroutines while the DMA of one runs,
// and each chunk's kernel runs on the compute queue as soon as its upload
// is done.

// l2Staged reports whether a level 2 call streams its matrix through the
// pinned staging buffers: on devices that do not work on host memory in
// place.
func (e *Engine) l2Staged() bool { return !e.HostShared() }

// gemvStaged computes y = alpha·op(A)·x + beta·y for the dense m×n matrix
// A (leading dimension lda) on host slices, with A streamed in chunks of
// rows (see above); alpha ≠ 0. Without trans, chunk t computes its rows of
// y; with trans, each chunk adds its rows' part of Aᵀ·x to all of y (the
// first with beta, the others with 1). The upload of a chunk into a device
// slot waits for the kernel of the chunk the slot held before.
func gemvStaged[T Real](e *Engine, name string, trans bool, m, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) error {
	nout, nin := m, n
	if trans {
		nout, nin = n, m
	}
	offX, offY := VecOff(nin, incX), VecOff(nout, incY)
	if !l2fits(m, n, lda, incX, incY, offX, offY) {
		return errL2TooLarge
	}
	spanY := VecSpan(nout, incY)
	g := e.l2Geometry(m, n, ElemSize[T]())
	e.L2StagedRuns.Add(1)
	c := Begin[T](e, name)
	var yb *cl.Buffer
	if beta == 0 {
		yb = Alloc[T](c, spanY) // assigned, never read
	} else {
		yb = Upload(c, y[:spanY])
	}
	xb := Upload(c, x[:VecSpan(nin, incX)])
	s := startStream(c, g, a, lda, true)
	for t := range g.depth {
		s.feed(t, false)
	}
	for t := 0; t < g.chunks && c.Err == nil; t++ {
		j := t % g.depth
		r0, mi := g.span(t)
		s.after(s.send(t, s.devs[j], 0, s.kerns[j]))
		d := L2Mat{kind: l2KindGeneral, storage: L2Dense, trans: trans, m: mi, n: n, kl: mi - 1, ku: n - 1, Lda: n}
		if trans {
			bt := beta
			if t > 0 {
				bt = 1
			}
			L2mvOnDevice(c, d, s.devs[j], n, mi, alpha, xb, offX+r0*incX, incX, bt, yb, offY, incY)
		} else {
			L2mvOnDevice(c, d, s.devs[j], mi, n, alpha, xb, offX, incX, beta, yb, offY+r0*incY, incY)
		}
		if c.Err == nil {
			s.kerns[j] = c.LastEvent()
			c.Fail(s.comp.Flush())
		}
		if t > 0 {
			s.refill(t-1, s.ups[(t-1)%g.depth])
		}
	}
	s.stop()
	out := s.read(yb, spanY)
	if err := c.Finish(); err != nil {
		return err
	}
	ScatterVec(y, out, nout, incY)
	return nil
}

// gerStaged computes A += alpha·x·yᵀ for the dense m×n matrix A (leading
// dimension lda) on host slices, with A streamed in chunks of rows both
// ways: each chunk is packed into its staging slot, uploaded, updated,
// read back into the same slot and unpacked into A, while the next chunks
// move. Chunks reach A in order, so a call that fails part way reports
// the rows of A it updated (RowsDone) and the CPU does the rest.
func gerStaged[T Real](e *Engine, name string, m, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int) error {
	offX, offY := VecOff(m, incX), VecOff(n, incY)
	if !l2fits(m, n, lda, incX, incY, offX, offY) {
		return errL2TooLarge
	}
	g := e.l2Geometry(m, n, ElemSize[T]())
	e.L2StagedRuns.Add(1)
	c := Begin[T](e, name)
	xb := Upload(c, x[:VecSpan(m, incX)])
	yb := Upload(c, y[:VecSpan(n, incY)])
	s := startStream(c, g, a, lda, true)
	for t := range g.depth {
		s.feed(t, false)
	}
	back := 0 // chunks whose unpacking into A has been fed
	for t := 0; t <= g.chunks && c.Err == nil; t++ {
		if t < g.chunks {
			s.rankChunk(t, alpha, xb, offX, incX, yb, offY, incY)
		}
		// Chunk t-1 is read back (or on its way) by now: unpack it once
		// its download is done, and refill chunk t-2's slot, whose
		// unpacking was fed in the step before.
		if t > 0 && c.Err == nil {
			if c.Fail(s.downs[(t-1)%g.depth].Wait()); c.Err == nil {
				s.feed(t-1, true)
				back = t
			}
		}
		if t > 1 && t-2+g.depth < g.chunks {
			s.busy[(t-2)%g.depth].Wait()
			s.refill(t-2, nil)
		}
	}
	s.stop() // every unpacking fed is done
	if err := c.Finish(); err != nil {
		if done := g.starts[back]; done > 0 {
			return &errRowsDone{rows: done, err: err}
		}
		return err
	}
	return nil
}

// rankChunk enqueues chunk t's upload, its rank-1 update and its
// download into its staging slot.
func (s *l2Stream[T]) rankChunk(t int, alpha T, xb *cl.Buffer, offX, incX int, yb *cl.Buffer, offY, incY int) {
	c, j, n := s.c, t%s.g.depth, s.g.n
	r0, mi := s.g.span(t)
	s.after(s.send(t, s.devs[j], 0))
	L2rankOnDevice(c, L2Update{}, mi, n, alpha, xb, offX+r0*incX, incX, yb, offY, incY, s.devs[j], n)
	if c.Err != nil {
		return
	}
	ev, err := cl.ReadBuffer(s.down, s.devs[j], false, 0, s.slot(t), c.LastEvent())
	if err != nil {
		c.Fail(err)
		return
	}
	c.Events = append(c.Events, ev)
	s.downs[j] = ev
	c.Fail(s.comp.Flush())
	c.Fail(s.down.Flush())
}

// symvStaged is symv on host slices with the n×n matrix A streamed whole
// into one device buffer (upAll), and one kernel over it: SYMV's kernel
// reads the stored triangle in tiles across all of it, so it does not run
// chunk by chunk, and its time is small beside the transfer's.
func symvStaged[T Real](e *Engine, name string, ul blas.Uplo, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) error {
	offX, offY := VecOff(n, incX), VecOff(n, incY)
	if !l2fits(n*n, lda, incX, incY, offX, offY) {
		return errL2TooLarge
	}
	spanY := VecSpan(n, incY)
	g := e.l2Geometry(n, n, ElemSize[T]())
	e.L2StagedRuns.Add(1)
	c := Begin[T](e, name)
	var yb *cl.Buffer
	if beta == 0 {
		yb = Alloc[T](c, spanY) // assigned, never read
	} else {
		yb = Upload(c, y[:spanY])
	}
	xb := Upload(c, x[:VecSpan(n, incX)])
	ab := Alloc[T](c, n*n)
	s := startStream(c, g, a, lda, false)
	s.tri = l2TriOf(ul)
	s.upAll(ab)
	L2mvOnDevice(c, L2Sym(L2Dense, ul, n, n-1, n), ab, n, n, alpha, xb, offX, incX, beta, yb, offY, incY)
	s.stop()
	out := s.read(yb, spanY)
	if err := c.Finish(); err != nil {
		return err
	}
	ScatterVec(y, out, n, incY)
	return nil
}

// trmvStaged is trmv (x = op(A)·x) on host slices with A streamed whole
// into one device buffer, as symvStaged.
func trmvStaged[T Real](e *Engine, name string, ul blas.Uplo, tA blas.Transpose, dg blas.Diag, n int, a []T, lda int, x []T, incX int) error {
	off := VecOff(n, incX)
	if !l2fits(n*n, lda, incX, off) {
		return errL2TooLarge
	}
	span := VecSpan(n, incX)
	g := e.l2Geometry(n, n, ElemSize[T]())
	e.L2StagedRuns.Add(1)
	c := Begin[T](e, name)
	xb := Upload(c, x[:span])
	ob := Alloc[T](c, span)
	ab := Alloc[T](c, n*n)
	s := startStream(c, g, a, lda, false)
	s.tri = l2TriOf(ul)
	s.upAll(ab)
	L2trmvOnDevice[T](c, L2Tri(L2Dense, ul, tA, dg, n, n-1, n), ab, n, xb, off, incX, ob, off, incX)
	s.stop()
	out := s.read(ob, span)
	if err := c.Finish(); err != nil {
		return err
	}
	ScatterVec(x, out, n, incX)
	return nil
}

// l2TriOf is the triangle of A that ul stores.
func l2TriOf(ul blas.Uplo) l2Tri {
	if ul == blas.Upper {
		return l2Upper
	}
	return l2Lower
}
