package engine

import (
	"github.com/gocompute/opencl/cl"
)

// Level 2 from Go slices on a device with memory of its own.
//
// A level 2 call moves its matrix once and computes little on it, so its
// time from host slices is the time of the transfer. A transfer straight
// from pageable Go memory runs far below the bus (the driver stages it
// through bounce buffers of its own), so GEMV streams A instead through
// the pinned staging buffers in slabs of rows: while the DMA of one slab
// runs, the host packs the next one into another staging buffer, and the
// kernel of each slab runs, on the in-order queue, right after its upload.
// The kernels take no time beside the transfers, so one queue is enough:
// what overlaps is the host's copy with the bus.

const (
	// l2SlabBytes is the size of one slab of A: large enough that each
	// upload runs at the bus rate and that its packing, the bottleneck,
	// runs on several goroutines (CopyWorkers gives one per copyChunk),
	// small enough that the first one starts early and that l2Depth of
	// them stay cheap in pinned memory (BENCHMARKS.md, level 2 from Go
	// slices).
	l2SlabBytes = 16 << 20
	// l2Depth is the number of slabs in flight: one being packed, the
	// others uploading.
	l2Depth = 3
)

// l2Staged reports whether a level 2 call streams its matrix through the
// pinned staging buffers: on devices that do not work on host memory in
// place.
func (e *Engine) l2Staged() bool { return !e.HostShared() }

// l2SlabRows is the number of rows of an n-column matrix per slab.
func (e *Engine) l2SlabRows(n, elem int) int {
	bytes := l2SlabBytes
	if e.L2Slab > 0 {
		bytes = e.L2Slab
	}
	return max(1, bytes/(n*elem))
}

// gemvStaged computes y = alpha·op(A)·x + beta·y for the dense m×n matrix
// A (leading dimension lda) on host slices, with A streamed in slabs of
// rows (see above); alpha ≠ 0. Without trans, slab i computes rows i of
// y; with trans, each slab adds its rows' part of Aᵀ·x to all of y (the
// first with beta, the others with 1).
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
	rows := e.l2SlabRows(n, ElemSize[T]())
	e.L2StagedRuns.Add(1)
	c := Begin[T](e, name)
	var yb *cl.Buffer
	if beta == 0 {
		yb = Alloc[T](c, spanY) // assigned, never read
	} else {
		yb = Upload(c, y[:spanY])
	}
	xb := Upload(c, x[:VecSpan(nin, incX)])
	var pins [l2Depth]*Pinned
	var devs [l2Depth]*cl.Buffer
	var sent [l2Depth]*cl.Event
	for s, r0 := 0, 0; r0 < m && c.Err == nil; s, r0 = s+1, r0+rows {
		mi := min(rows, m-r0)
		j := s % l2Depth
		if pins[j] == nil {
			pins[j], devs[j] = stage[T](c, rows*n), Alloc[T](c, rows*n)
		}
		if sent[j] != nil { // the staging buffer's last upload must be done
			c.Fail(sent[j].Wait())
		}
		if c.Err != nil {
			break
		}
		host := PinnedView[T](pins[j], mi*n)
		Pack(host, a, lda, r0, mi, 0, n)
		sent[j] = l2Send(c, devs[j], host)
		d := L2Mat{kind: l2KindGeneral, storage: L2Dense, trans: trans, m: mi, n: n, kl: mi - 1, ku: n - 1, Lda: n}
		if trans {
			bk := beta
			if s > 0 {
				bk = 1
			}
			L2mvOnDevice(c, d, devs[j], n, mi, alpha, xb, offX+r0*incX, incX, bk, yb, offY, incY)
		} else {
			L2mvOnDevice(c, d, devs[j], mi, n, alpha, xb, offX, incX, beta, yb, offY+r0*incY, incY)
		}
	}
	out := Download[T](c, yb, spanY)
	if err := c.Finish(); err != nil {
		return err
	}
	ScatterVec(y, out, nout, incY)
	return nil
}

// l2Send enqueues the upload of host (pinned staging memory) to the start
// of dev, starts it at once, and returns its event (nil once the call has
// failed).
func l2Send[T Real](c *Call, dev *cl.Buffer, host []T) *cl.Event {
	if c.Err != nil {
		return nil
	}
	if err := c.E.Fault.Inject("write"); err != nil {
		c.Fail(err)
		return nil
	}
	ev, err := cl.WriteBuffer(c.E.Queue, dev, false, 0, host)
	if err != nil {
		c.Fail(err)
		return nil
	}
	c.Events = append(c.Events, ev)
	c.Fail(c.E.Queue.Flush())
	return ev
}

// gerStaged computes A += alpha·x·yᵀ for the dense m×n matrix A (leading
// dimension lda) on host slices, with A streamed in slabs of rows both
// ways: each slab is packed into pinned staging memory, uploaded, updated,
// read back into the same staging memory and unpacked into A, while the
// next slabs move. Slabs reach A in order, so a call that fails part way
// reports the rows of A it updated (RowsDone) and the CPU does the rest.
func gerStaged[T Real](e *Engine, name string, m, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int) error {
	offX, offY := VecOff(m, incX), VecOff(n, incY)
	if !l2fits(m, n, lda, incX, incY, offX, offY) {
		return errL2TooLarge
	}
	rows := e.l2SlabRows(n, ElemSize[T]())
	slabs := (m + rows - 1) / rows
	e.L2StagedRuns.Add(1)
	c := Begin[T](e, name)
	xb := Upload(c, x[:VecSpan(m, incX)])
	yb := Upload(c, y[:VecSpan(n, incY)])
	var pins [l2Depth]*Pinned
	var devs [l2Depth]*cl.Buffer
	var reads [l2Depth]*cl.Event
	done := 0               // rows of A updated
	unpack := func(t int) { // slab t, once read back, into A
		if t < 0 || c.Err != nil {
			return
		}
		j, r0 := t%l2Depth, t*rows
		mi := min(rows, m-r0)
		if reads[j] == nil {
			return
		}
		if c.Fail(reads[j].Wait()); c.Err == nil {
			CopyBlock(a[r0*lda:], lda, PinnedView[T](pins[j], mi*n), n, mi, n)
			done = r0 + mi
		}
		reads[j] = nil
	}
	for t := 0; t < slabs && c.Err == nil; t++ {
		j, r0 := t%l2Depth, t*rows
		mi := min(rows, m-r0)
		if pins[j] == nil {
			pins[j], devs[j] = stage[T](c, rows*n), Alloc[T](c, rows*n)
		}
		unpack(t - l2Depth) // frees staging buffer j
		if c.Err != nil {
			break
		}
		host := PinnedView[T](pins[j], mi*n)
		Pack(host, a, lda, r0, mi, 0, n)
		l2Send(c, devs[j], host)
		L2rankOnDevice(c, L2Update{}, mi, n, alpha, xb, offX+r0*incX, incX, yb, offY, incY, devs[j], n)
		if c.Err != nil {
			break
		}
		ev, err := cl.ReadBuffer(e.Queue, devs[j], false, 0, host)
		if err != nil {
			c.Fail(err)
			break
		}
		c.Events = append(c.Events, ev)
		reads[j] = ev
	}
	for t := max(slabs-l2Depth, 0); t < slabs; t++ {
		unpack(t)
	}
	if err := c.Finish(); err != nil {
		if done > 0 {
			return &errRowsDone{rows: done, err: err}
		}
		return err
	}
	return nil
}
