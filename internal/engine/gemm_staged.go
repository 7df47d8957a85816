package engine

import (
	"time"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
)

// gemmStaged is gemm (C = alpha·op(A)·op(B) + beta·C on host slices) on
// the staged, pipelined path: a stagedGemm, run.
func gemmStaged[T Real](e *Engine, name string, tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, cc []T, ldc int) error {
	if m == 0 || n == 0 {
		return nil
	}
	s := &stagedGemm[T]{
		e: e, start: time.Now(),
		at: tA != blas.NoTrans, bt: tB != blas.NoTrans, m: m, n: n, k: k,
		alpha: alpha, beta: beta, a: a, b: b, cc: cc, lda: lda, ldb: ldb, ldc: ldc, w: 1,
	}
	return s.run(name)
}

// run runs the call.
func (s *stagedGemm[T]) run(name string) error {
	s.c = Begin[T](s.e, name)
	s.queues()
	s.buffers()
	s.plan()
	if s.chunks > 0 {
		s.slabs()
	} else {
		s.tiles()
	}
	return s.end()
}

// stagedGemm is one GEMM call on the staged path: its problem, its three
// queues (upload, compute, download), its buffers, the schedule of its
// blocks and what it has moved and run, for the engine's accounting.
type stagedGemm[T Real] struct {
	e     *Engine
	c     *Call
	start time.Time

	// The problem.
	at, bt        bool
	m, n, k       int
	alpha, beta   T
	a, b, cc      []T
	lda, ldb, ldc int

	up, comp, down *cl.Queue

	// readAB: A and B are read (k > 0); readC: C is (beta ≠ 0). Operands
	// in a HostSlice (pinned already) go to and from the device straight
	// from the user's memory, by rect transfers: no staging copy (direct…).
	// C is read back straight only when beta == 0 (directDown: a failed
	// call may then leave any values in C).
	readAB, readC                       bool
	directA, directB, directC, directDn bool

	da, db, dc *cl.Buffer
	sa, sb, sc []T // the pinned staging memory of A, B and C

	// The schedule: C in row panels of rows (mt rows), nt columns wide, or
	// full-width slabs with k in chunks k-chunks.
	rows           [][2]int
	mt, nt, chunks int

	ups, kerns, downs  []*cl.Event
	upBytes, downBytes []int64 // per command, for the timeline file
	packNs, unpackNs   int64
	bytesUp, bytesDown int64
	bytesDirect        int64

	// early unpacks C's tiles as they arrive (beta == 0); checker checks
	// them for NaN and infinities as they arrive (a complex call with
	// beta ≠ 0, whose C is written at the end).
	early, checker *TileUnpacker[T]

	// A complex call (zgemm_staged.go): its elements are w = 2 Ts (the
	// parts), its extras are z, and nonFinite is set when C came back
	// holding a NaN or an infinity. A real call has w = 1 and z nil.
	w         int
	z         *zStaged
	nonFinite bool
}

// es is the size of a T in bytes.
func (s *stagedGemm[T]) es() int64 { return int64(s.c.prec / 8) }

// queues takes the pipeline's queues and makes them start after everything
// already enqueued on the engine's queue: device-resident operations still
// running there may use pooled buffers this call is about to take and
// overwrite.
func (s *stagedGemm[T]) queues() {
	c, e := s.c, s.e
	if c.Err == nil {
		var err error
		s.up, s.comp, s.down, err = e.Pipe.Get(e.RT)
		c.Fail(err)
		if err == nil {
			c.q = s.comp
			c.queues = []*cl.Queue{s.up, s.comp, s.down}
		}
	}
	if c.Err != nil {
		return
	}
	mk, err := e.Queue.EnqueueMarker()
	c.Fail(err)
	if err != nil {
		return
	}
	c.Events = append(c.Events, mk)
	for _, q := range []*cl.Queue{s.up, s.comp} {
		bar, err := q.EnqueueBarrier(mk)
		if err != nil {
			c.Fail(err)
			break
		}
		c.Events = append(c.Events, bar)
	}
	c.Fail(e.Queue.Flush())
}

// buffers takes the staging and device buffers.
func (s *stagedGemm[T]) buffers() {
	c, e, m, n, k := s.c, s.e, s.m, s.n, s.k
	s.readAB, s.readC = k > 0, s.beta != 0
	s.directA = s.readAB && Contains(&e.HostSlices, s.a)
	s.directB = s.readAB && Contains(&e.HostSlices, s.b)
	s.directC = Contains(&e.HostSlices, s.cc)
	s.directDn = s.directC && !s.readC
	var pa, pb, pc *Pinned
	mk, kn, mn := m*k*s.w, k*n*s.w, m*n*s.w
	if s.readAB {
		if !s.directA {
			pa = stage[T](c, mk)
		}
		if !s.directB {
			pb = stage[T](c, kn)
		}
		s.da, s.db = Alloc[T](c, mk), Alloc[T](c, kn)
	}
	if !s.directDn {
		pc = stage[T](c, mn)
	}
	s.dc = Alloc[T](c, mn)
	if c.Err == nil {
		s.sa, s.sb, s.sc = PinnedView[T](pa, mk), PinnedView[T](pb, kn), PinnedView[T](pc, mn)
	}
}

// plan chooses the schedule: tiles, or row slabs with k in chunks.
func (s *stagedGemm[T]) plan() {
	e, m, n, k := s.e, s.m, s.n, s.k
	s.mt, s.nt = e.Plan().Tiles(m, n, k)
	es := s.w * int(s.es())
	s.chunks = e.Plan().Slabs(m, n, k, s.at, s.bt, s.directB, es)
	if s.chunks > 0 {
		s.mt, s.nt = e.Plan().SlabRows(m, n, s.at, es), n
	}
	s.rows = RowPanels(m, s.mt)
	// With beta == 0, tiles are unpacked as they arrive.
	switch {
	case s.c.Err != nil || s.directDn:
	case !s.readC:
		s.early = startTileUnpacker(s.cc, s.sc, s.ldc, s.z != nil)
	case s.z != nil:
		s.checker = startTileUnpacker[T](nil, s.sc, 0, true)
	}
}

// sent enqueues an upload of n elements with enq and records it.
func (s *stagedGemm[T]) sent(n int, enq func() (*cl.Event, error)) *cl.Event {
	c := s.c
	if err := s.e.Fault.Inject("enqueue"); err != nil {
		c.Fail(err)
		return nil
	}
	ev, err := enq()
	if err != nil {
		c.Fail(err)
		return nil
	}
	c.Events = append(c.Events, ev)
	s.ups = append(s.ups, ev)
	s.upBytes = append(s.upBytes, int64(n)*s.es())
	s.bytesUp += int64(n) * s.es()
	c.Fail(s.up.Flush())
	return ev
}

// upload uploads the rows×cols block at (r0, c0) of src (leading dimension
// ld) to dev at element off, packed (leading dimension cols): packed into
// sp[off:] first, or, when direct (src is pinned), by a rect transfer
// straight from src. off, c0 and cols count the call's elements (w Ts
// each), ld counts Ts.
func (s *stagedGemm[T]) upload(dev *cl.Buffer, sp []T, off int, src []T, ld, r0, rows, c0, cols int, direct bool) *cl.Event {
	if s.c.Err != nil {
		return nil
	}
	off, c0, cols = off*s.w, c0*s.w, cols*s.w
	n := rows * cols
	if direct {
		s.bytesDirect += int64(n) * s.es()
		return s.sent(n, func() (*cl.Event, error) {
			return cl.WriteBufferRect(s.up, dev, false, TileRect(off, ld, r0, rows, c0, cols), src)
		})
	}
	t := time.Now()
	Pack(sp[off:off+n], src, ld, r0, rows, c0, cols)
	s.packNs += int64(time.Since(t))
	return s.sent(n, func() (*cl.Event, error) { return cl.WriteBuffer(s.up, dev, false, off, sp[off:off+n]) })
}

// panelA uploads row panel r0… (mi rows) of op(A), all of k, at element
// r0·k.
func (s *stagedGemm[T]) panelA(r0, mi int) *cl.Event {
	if s.at { // columns r0… of the k×m A
		return s.zExpandA(s.upload(s.da, s.sa, r0*s.k, s.a, s.lda, 0, s.k, r0, mi, s.directA), r0, mi)
	}
	return s.zExpandA(s.upload(s.da, s.sa, r0*s.k, s.a, s.lda, r0, mi, 0, s.k, s.directA), r0, mi)
}

// compute enqueues, once the events of wait have completed, the kernels of
// C's mi×nj block at offC (leading dimension nj: the device layout above)
// += alpha·op(A)·op(B) over kk of the inner dimension from k0 on, with A's
// and B's part at offA and offB, scaling the block by beta first (by 1
// unless first); with last, it then reads the block (at (r0, c0) of C)
// back. It returns false once the call has failed.
func (s *stagedGemm[T]) compute(wait []*cl.Event, mi, nj, kk, k0, offA, ldA, offB, ldB int, first bool, offC, r0, c0 int, last bool) bool {
	c := s.c
	// The block's kernels wait for their inputs (the barrier also gives
	// the block an event of its own when no kernel runs).
	bar, err := s.comp.EnqueueBarrier(wait...)
	if err != nil {
		c.Fail(err)
		return false
	}
	c.Events = append(c.Events, bar)
	before := len(c.Events)
	if s.z != nil {
		s.zCompute(mi, nj, kk, k0, offA, ldA, offB, first, offC, r0)
	} else {
		bk := T(1)
		if first {
			bk = s.beta
		}
		GemmOnDevice(c, s.at, s.bt, mi, nj, kk, s.alpha, s.da, offA, ldA, s.db, offB, ldB, bk, s.dc, offC, nj)
	}
	if c.Err != nil {
		return false
	}
	s.kerns = append(s.kerns, c.Events[before:]...)
	c.Fail(s.comp.Flush())
	if !last || c.Err != nil {
		return c.Err == nil
	}
	return s.download(mi, nj, offC, r0, c0)
}

// download reads C's mi×nj block at offC of the device (at (r0, c0) of C)
// back as soon as its kernels finish, rather than after the last upload:
// holding the downloads back, so that they do not share the bus with the
// uploads the kernels wait for, is slower (BENCHMARKS.md, "Figures behind the code's choices").
func (s *stagedGemm[T]) download(mi, nj, offC, r0, c0 int) bool {
	c := s.c
	offC, c0, nj = offC*s.w, c0*s.w, nj*s.w
	if err := s.e.Fault.Inject("read"); err != nil {
		c.Fail(err)
		return false
	}
	var ev *cl.Event
	var err error
	if s.directDn {
		ev, err = cl.ReadBufferRect(s.down, s.dc, false, TileRect(offC, s.ldc, r0, mi, c0, nj), s.cc, c.LastEvent())
		s.bytesDirect += int64(mi*nj) * s.es()
	} else {
		ev, err = cl.ReadBuffer(s.down, s.dc, false, offC, s.sc[offC:offC+mi*nj], c.LastEvent())
	}
	if err != nil {
		c.Fail(err)
		return false
	}
	c.Events = append(c.Events, ev)
	s.downs = append(s.downs, ev)
	s.downBytes = append(s.downBytes, int64(mi*nj)*s.es())
	s.bytesDown += int64(mi*nj) * s.es()
	c.Fail(s.down.Flush())
	for _, u := range []*TileUnpacker[T]{s.early, s.checker} {
		if u != nil && c.Err == nil {
			u.Add(ev, r0, mi, c0, nj, offC)
		}
	}
	return c.Err == nil
}

// slabs runs the schedule by full-width row slabs (engine.SlabSchedule).
func (s *stagedGemm[T]) slabs() {
	n, k := s.n, s.k
	SlabSchedule(s.rows, SlabChunks(k, s.chunks), s.readC, s.panelA,
		// C's slab r0… (beta ≠ 0), to element r0·n.
		func(r0, mi int) *cl.Event { return s.upload(s.dc, s.sc, r0*n, s.cc, s.ldc, r0, mi, 0, n, s.directC) },
		// B's rows k0…, to element k0·n.
		func(k0, kn int) *cl.Event {
			return s.zExpandB(s.upload(s.db, s.sb, k0*n, s.b, s.ldb, k0, kn, 0, n, s.directB), k0*n, kn, n, n)
		},
		func(wait []*cl.Event, r0, mi, k0, kn int, first, last bool) bool {
			offA, ldA := r0*k+k0, k
			if s.at {
				offA, ldA = r0*k+k0*mi, mi
			}
			return s.compute(wait, mi, n, kn, k0, offA, ldA, k0*n, n, first, r0*n, r0, 0, last)
		},
		func() bool { return s.c.Err == nil })
}

// tiles runs the schedule by tiles of C (engine.TileOrder), uploading each panel
// of A and B before the first tile that needs it.
func (s *stagedGemm[T]) tiles() {
	c, n, k, nt := s.c, s.n, s.k, s.nt
	p, q := len(s.rows), L3CeilDiv(n, nt)
	evA, evB := make([]*cl.Event, p), make([]*cl.Event, q)
	hs, ws := make([]int, p), make([]int, q)
	for i, r := range s.rows {
		hs[i] = r[1]
	}
	for j := range ws {
		ws[j] = min(nt, n-j*nt)
	}
	for _, ij := range TileOrder(hs, ws) {
		if c.Err != nil {
			break
		}
		i, j := ij[0], ij[1]
		r0, mi := s.rows[i][0], s.rows[i][1]
		offA, ldA := r0*k, k
		if s.at {
			ldA = mi
		}
		c0 := j * nt
		nj := ws[j]
		offB, ldB := c0*k, nj
		if s.bt {
			ldB = k
		}
		offC := r0*n + mi*c0
		var wait []*cl.Event
		if s.readAB {
			if evA[i] == nil {
				evA[i] = s.panelA(r0, mi)
			}
			if evB[j] == nil {
				if s.bt { // rows c0… of the n×k B
					evB[j] = s.upload(s.db, s.sb, offB, s.b, s.ldb, c0, nj, 0, k, s.directB)
				} else {
					evB[j] = s.upload(s.db, s.sb, offB, s.b, s.ldb, 0, k, c0, nj, s.directB)
				}
				evB[j] = s.zExpandB(evB[j], offB, k, nj, ldB)
			}
			wait = append(wait, evA[i], evB[j])
		}
		if s.readC {
			wait = append(wait, s.upload(s.dc, s.sc, offC, s.cc, s.ldc, r0, mi, c0, nj, s.directC))
		}
		if c.Err != nil {
			break
		}
		if !s.compute(wait, mi, nj, k, 0, offA, ldA, offB, ldB, true, offC, r0, c0, true) {
			break
		}
	}
}

// end waits for the downloads, writes C (unless it was written as the
// tiles arrived or read back directly) once every command has succeeded,
// accounts for the call and releases it.
func (s *stagedGemm[T]) end() error {
	c := s.c
	if s.early != nil {
		// Every tile's download ends up waited on by the unpacker; its
		// events are released by finish, after it has stopped.
		var err error
		s.unpackNs, err = s.early.Stop()
		c.Fail(err)
		s.nonFinite = s.early.bad
	} else if c.Err == nil {
		c.Fail(cl.WaitForEvents(s.downs...))
	}
	if s.checker != nil {
		_, err := s.checker.Stop()
		c.Fail(err)
		s.nonFinite = s.checker.bad
	}
	if c.Err != nil {
		return c.Finish()
	}
	if s.z != nil && s.directDn {
		s.nonFinite = !BlockFinite(s.cc, s.m, s.n*s.w, s.ldc)
	}
	// A complex C with a NaN or an infinity is left as it was.
	if s.early == nil && !s.directDn && !s.nonFinite {
		// Every command succeeded: C may be written now.
		t := time.Now()
		UnpackTiles(s.cc, s.sc, s.n*s.w, s.ldc, s.rows, s.nt*s.w)
		s.unpackNs = int64(time.Since(t))
	}
	s.account()
	err := c.Finish()
	s.e.Xfer.Wall.Add(int64(time.Since(s.start)))
	return err
}

// account adds the call's transfers and kernels to the engine's counters
// and, when asked for (GOCL_GEMM_PIPELINE=timeline=FILE), its commands to
// the timeline file.
func (s *stagedGemm[T]) account() {
	x := &s.e.Xfer
	x.Calls.Add(1)
	x.Pack.Add(s.packNs)
	x.Unpack.Add(s.unpackNs)
	x.Up.Add(EventTime(s.ups))
	x.Comp.Add(EventTime(s.kerns))
	x.Down.Add(EventTime(s.downs))
	x.BytesUp.Add(s.bytesUp)
	x.BytesDown.Add(s.bytesDown)
	x.BytesDirect.Add(s.bytesDirect)
	x.AddTimeline(s.ups, s.kerns, s.downs)
	if f := s.e.PipeMode.Timeline; f != "" {
		WriteTimeline(f, s.ups, s.kerns, s.downs, s.upBytes, s.downBytes)
	}
}
