package engine

import "gonum.org/v1/gonum/blas"

// Level 2 from Go slices on a device with memory of its own.
//
// A level 2 call moves its matrix once and computes little on it, so its
// time from host slices is the time of the transfer. A transfer straight
// from pageable Go memory runs far below the bus (the driver stages it
// through bounce buffers of its own), so the matrix is streamed instead
// through pinned staging memory in chunks of rows (l2_pipe.go): the host
// copies the next chunks on many goroutines while the DMA of one runs.

// l2Staged reports whether a level 2 call streams its matrix through the
// pinned staging buffers: on devices that do not work on host memory in
// place.
func (e *Engine) l2Staged() bool { return !e.HostShared() }

// gemvStaged computes y = alpha·op(A)·x + beta·y for the dense m×n matrix
// A (leading dimension lda) on host slices, alpha ≠ 0, with A streamed
// whole into one device buffer (upAll) and one kernel over it. (Kernels
// chunk by chunk, on a queue of their own, each reading its chunk from a
// ring of device slots whose next upload waited for it, kept the uploads
// from running back to back: BENCHMARKS.md, "Figures behind the code's
// choices".)
func gemvStaged[T Real](e *Engine, name string, trans bool, m, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) error {
	if e.L2Share > 0 {
		return gemvShare(e, name, trans, m, n, alpha, a, lda, x, incX, beta, y, incY)
	}
	d := L2Mat{kind: l2KindGeneral, storage: L2Dense, trans: trans, m: m, n: n, kl: m - 1, ku: n - 1, Lda: n}
	return mvStaged(e, name, d, l2Full, alpha, a, lda, x, incX, beta, y, incY)
}

// stagedLayout is the layout of x and y in a staged product
// y = alpha·op(A)·x + beta·y with the m×n A (transposed when trans):
// their lengths nout and nin, the offsets of their first elements and
// y's span; errL2TooLarge where A or the vectors pass the kernels'
// 32-bit indices.
func stagedLayout(trans bool, m, n, lda, incX, incY int) (nout, nin, offX, offY, spanY int, err error) {
	nout, nin = m, n
	if trans {
		nout, nin = n, m
	}
	offX, offY = VecOff(nin, incX), VecOff(nout, incY)
	if !l2fits(m*n, lda, incX, incY, offX, offY) {
		return 0, 0, 0, 0, 0, errL2TooLarge
	}
	return nout, nin, offX, offY, VecSpan(nout, incY), nil
}

// mvStaged computes y = alpha·op(A)·x + beta·y on host slices for the
// dense A of descriptor d (d.m×d.n, leading dimension lda on the host, d.n
// on the device), streaming the part tri of A's rows whole into one device
// buffer and running d's kernel once over it.
func mvStaged[T Real](e *Engine, name string, d L2Mat, tri l2Tri, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) error {
	m, n := d.m, d.n
	nout, nin, offX, offY, spanY, err := stagedLayout(d.trans, m, n, lda, incX, incY)
	if err != nil {
		return err
	}
	g := e.l2Geometry(m, n, ElemSize[T]())
	e.L2StagedRuns.Add(1)
	c := Begin[T](e, name)
	yb := outputVec(c, y, spanY, beta != 0)
	xb := Upload(c, x[:VecSpan(nin, incX)])
	ab := Alloc[T](c, m*n)
	s := startStream(c, g, a, lda)
	s.tri = tri
	s.upAll(ab)
	L2mvOnDevice(c, d, ab, nout, nin, alpha, xb, offX, incX, beta, yb, offY, incY)
	s.stop()
	out := Download[T](c, yb, spanY)
	if err := c.Finish(); err != nil {
		return err
	}
	ScatterVec(y, out, nout, incY)
	return nil
}

// gerStaged computes A += alpha·x·yᵀ for the dense m×n matrix A (leading
// dimension lda) on host slices: A streamed whole into one device buffer
// (upAll), one kernel, and A read back chunk by chunk into the staging
// slots and copied into the caller's A as each arrives (downAll). Chunks
// reach A in order, so a call that fails part way reports the rows of A
// it updated (RowsDone) and the CPU does the rest.
func gerStaged[T Real](e *Engine, name string, m, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int) error {
	if e.L2Share > 0 && incX > 0 && incY > 0 {
		return gerShare(e, name, m, n, alpha, x, incX, y, incY, a, lda)
	}
	offX, offY := VecOff(m, incX), VecOff(n, incY)
	if !l2fits(m*n, lda, incX, incY, offX, offY) {
		return errL2TooLarge
	}
	g := e.l2Geometry(m, n, ElemSize[T]())
	e.L2StagedRuns.Add(1)
	c := Begin[T](e, name)
	xb := Upload(c, x[:VecSpan(m, incX)])
	yb := Upload(c, y[:VecSpan(n, incY)])
	ab := Alloc[T](c, m*n)
	s := startStream(c, g, a, lda)
	s.upAll(ab)
	L2rankOnDevice(c, L2Update{}, m, n, alpha, xb, offX, incX, yb, offY, incY, ab, n)
	back := s.downAll(ab)
	s.stop() // every copy into A fed is done
	if err := c.Finish(); err != nil {
		if done := g.starts[back]; done > 0 {
			return &errRowsDone{rows: done, err: err}
		}
		return err
	}
	return nil
}

// symvStaged is symv on host slices with the n×n matrix A streamed whole
// into one device buffer (upAll), and one kernel over it: SYMV's kernel
// reads the stored triangle in tiles across all of it, so it does not run
// chunk by chunk, and its time is small beside the transfer's.
func symvStaged[T Real](e *Engine, name string, ul blas.Uplo, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) error {
	return mvStaged(e, name, L2Sym(L2Dense, ul, n, n-1, n), l2TriOf(ul), alpha, a, lda, x, incX, beta, y, incY)
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
	s := startStream(c, g, a, lda)
	s.tri = l2TriOf(ul)
	s.upAll(ab)
	L2trmvOnDevice[T](c, L2Tri(L2Dense, ul, tA, dg, n, n-1, n), ab, n, xb, off, incX, ob, off, incX)
	s.stop()
	out := Download[T](c, ob, span)
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
