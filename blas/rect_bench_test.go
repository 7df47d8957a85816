package clblas

import (
	"fmt"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"unsafe"

	"github.com/gocompute/opencl/cl"
)

// BenchmarkRectUpload measures the staged GEMM's column-panel upload (a
// rect DMA of k rows, each a quarter of a row of B, from pinned memory)
// from memory obtained in different ways, to tell which property of the
// memory, queue or buffer sets its rate: on the H200 such panels ran at
// 33 GB/s inside the pipeline and at 48 GB/s in bench -duplex.
//
//	go test -run XXX -bench RectUpload ./blas/
func BenchmarkRectUpload(b *testing.B) {
	e := testEngine(b)
	n := 8192
	if e.prof.IsCPU() {
		n = 1024
	}
	nt := n / 4
	bytes := n * n * 8
	rect := tileRect(0, n, 0, n, 0, nt)
	up, _, _, err := e.pipeline()
	if err != nil {
		b.Fatal(err)
	}
	fresh, err := e.rt.NewQueue(cl.QueueProfiling)
	if err != nil {
		b.Fatal(err)
	}
	defer fresh.Release()
	pooled, err := e.buffers.get(bytes)
	if err != nil {
		b.Fatal(err)
	}
	defer e.buffers.put(pooled)
	dev, err := e.rt.Context().CreateBuffer(cl.MemReadWrite, bytes)
	if err != nil {
		b.Fatal(err)
	}
	defer dev.Release()
	raw, err := e.pinned.create(bytes) // never written by the host
	if err != nil {
		b.Fatal(err)
	}
	defer e.pinned.destroy(raw)
	hs, err := NewHostSlice[float64](newTestImpl(b), n*n) // zeroed by the host
	if err != nil {
		b.Fatal(err)
	}
	defer hs.Release()
	filled, err := NewHostSlice[float64](newTestImpl(b), n*n)
	if err != nil {
		b.Fatal(err)
	}
	defer filled.Release()
	for i := range filled.Data() {
		filled.Data()[i] = float64(i)
	}
	rawF64 := unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(raw.host))), n*n)
	rawBytes := raw.host
	byteRect := cl.Rect{Region: [3]int{nt * 8, n, 1}, BufferRowPitch: nt * 8, HostRowPitch: n * 8}
	cases := []struct {
		name string
		do   func(q *cl.Queue, d *cl.Buffer) (*cl.Event, error)
	}{
		{"raw-bytes", func(q *cl.Queue, d *cl.Buffer) (*cl.Event, error) {
			return cl.WriteBufferRect(q, d, false, byteRect, rawBytes)
		}},
		{"raw-f64", func(q *cl.Queue, d *cl.Buffer) (*cl.Event, error) {
			return cl.WriteBufferRect(q, d, false, rect, rawF64)
		}},
		{"hostslice-zeroed", func(q *cl.Queue, d *cl.Buffer) (*cl.Event, error) {
			return cl.WriteBufferRect(q, d, false, rect, hs.Data())
		}},
		{"hostslice-filled", func(q *cl.Queue, d *cl.Buffer) (*cl.Event, error) {
			return cl.WriteBufferRect(q, d, false, rect, filled.Data())
		}},
		{"hostslice-filled-contiguous", func(q *cl.Queue, d *cl.Buffer) (*cl.Event, error) {
			return cl.WriteBuffer(q, d, false, 0, filled.Data()[:n*nt])
		}},
	}
	for _, c := range cases {
		for _, qd := range []struct {
			name string
			q    *cl.Queue
			d    *cl.Buffer
		}{{"pipe-pool", up, pooled}, {"fresh-new", fresh, dev}, {"pipe-new", up, dev}, {"fresh-pool", fresh, pooled}} {
			b.Run(c.name+"/"+qd.name, func(b *testing.B) {
				b.SetBytes(int64(n * nt * 8))
				for i := 0; i < b.N; i++ {
					ev, err := c.do(qd.q, qd.d)
					if err == nil {
						err = ev.Wait()
						ev.Release()
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkRectSequence replays the start of the staged DGEMM's schedule
// from HostSlices with the engine's pipeline queues and pooled buffers,
// one step at a time, and reports each rect transfer's rate from its
// device timestamps (GB/s), to find the step after which column panels
// slow down.
//
//	go test -run XXX -bench RectSequence ./blas/
func BenchmarkRectSequence(b *testing.B) {
	e := testEngine(b)
	impl := newTestImpl(b)
	n := 8192
	if e.prof.IsCPU() {
		n = 1024
	}
	nt := n / 4
	up, comp, down, err := e.pipeline()
	if err != nil {
		b.Fatal(err)
	}
	var hs [3]*HostSlice[float64]
	var dev [3]*cl.Buffer
	for i := range hs {
		if hs[i], err = NewHostSlice[float64](impl, n*n); err != nil {
			b.Fatal(err)
		}
		defer hs[i].Release()
		if dev[i], err = e.buffers.get(n * n * 8); err != nil {
			b.Fatal(err)
		}
		defer e.buffers.put(dev[i])
	}
	a, bb, c := hs[0].Data(), hs[1].Data(), hs[2].Data()
	da, db, dc := dev[0], dev[1], dev[2]
	rate := func(ev *cl.Event, bytes int) float64 {
		p, err := ev.Profile()
		if err != nil || p.End <= p.Start {
			b.Fatal("no profile", err)
		}
		return float64(bytes) / float64(p.End-p.Start)
	}
	panel := n * nt * 8
	wait := func(evs ...*cl.Event) {
		if err := cl.WaitForEvents(evs...); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < b.N; i++ {
		// A₀ (a contiguous row panel) and B₀ (a column panel) back to back.
		ea, err1 := cl.WriteBufferRect(up, da, false, tileRect(0, n, 0, nt, 0, n), a)
		eb, err2 := cl.WriteBufferRect(up, db, false, tileRect(0, n, 0, n, 0, nt), bb)
		if err1 != nil || err2 != nil {
			b.Fatal(err1, err2)
		}
		up.Flush()
		wait(ea, eb)
		b.ReportMetric(rate(ea, panel), "A0-GB/s")
		b.ReportMetric(rate(eb, panel), "B0-GB/s")
		// A download of a C tile alone, after a marker on the compute
		// queue (the kernel's place).
		mk, err := comp.EnqueueMarker()
		if err != nil {
			b.Fatal(err)
		}
		comp.Flush()
		ed, err := cl.ReadBufferRect(down, dc, false, tileRect(0, n, 0, nt, 0, nt), c, mk)
		if err != nil {
			b.Fatal(err)
		}
		down.Flush()
		wait(ed)
		b.ReportMetric(rate(ed, nt*nt*8), "C-down-GB/s")
		// The next column panel, alone, after that download.
		eb1, err := cl.WriteBufferRect(up, db, false, tileRect(n*nt, n, 0, n, nt, nt), bb)
		if err != nil {
			b.Fatal(err)
		}
		up.Flush()
		wait(eb1)
		b.ReportMetric(rate(eb1, panel), "B1-GB/s")
		// A column panel into the buffer the download read from.
		eb2, err := cl.WriteBufferRect(up, dc, false, tileRect(0, n, 0, n, 0, nt), bb)
		if err != nil {
			b.Fatal(err)
		}
		up.Flush()
		wait(eb2)
		b.ReportMetric(rate(eb2, panel), "B-into-dc-GB/s")
		cl.ReleaseAll(ea, eb, mk, ed, eb1, eb2)
		// A whole staged DGEMM on the HostSlices, then B₀ alone again.
		impl.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, bb, n, 0, c, n)
		eb3, err := cl.WriteBufferRect(up, db, false, tileRect(0, n, 0, n, 0, nt), bb)
		if err != nil {
			b.Fatal(err)
		}
		up.Flush()
		wait(eb3)
		b.ReportMetric(rate(eb3, panel), "B0-after-dgemm-GB/s")
		eb3.Release()
	}
}

// BenchmarkRectConditions reports a column panel's rect upload rate (GB/s,
// device timestamps) under the conditions the staged GEMM meets: right
// after a resident DGEMM and some time later, while one runs, with
// another rect upload on a second queue, and for the C tile's height
// (2048 rows) in both directions.
//
//	go test -run XXX -bench RectConditions ./blas/
func BenchmarkRectConditions(b *testing.B) {
	e := testEngine(b)
	impl := newTestImpl(b)
	n := 8192
	if e.prof.IsCPU() {
		n = 1024
	}
	nt := n / 4
	up, _, down, err := e.pipeline()
	if err != nil {
		b.Fatal(err)
	}
	other, err := e.rt.NewQueue(cl.QueueProfiling)
	if err != nil {
		b.Fatal(err)
	}
	defer other.Release()
	src, err := NewHostSlice[float64](impl, n*n)
	if err != nil {
		b.Fatal(err)
	}
	defer src.Release()
	h := src.Data()
	var dev [2]*cl.Buffer
	for i := range dev {
		if dev[i], err = e.buffers.get(n * n * 8); err != nil {
			b.Fatal(err)
		}
		defer e.buffers.put(dev[i])
	}
	ma, err1 := NewMatrix[float64](impl, n, n)
	mb, err2 := NewMatrix[float64](impl, n, n)
	mc, err3 := NewMatrix[float64](impl, n, n)
	if err1 != nil || err2 != nil || err3 != nil {
		b.Fatal(err1, err2, err3)
	}
	defer ma.Release()
	defer mb.Release()
	defer mc.Release()
	gemm := func() *Event {
		ev, err := Gemm(blas.NoTrans, blas.NoTrans, 1, ma, mb, 0, mc)
		if err != nil {
			b.Fatal(err)
		}
		return ev
	}
	if err := gemm().Wait(); err != nil { // builds the kernel
		b.Fatal(err)
	}
	rate := func(ev *cl.Event, bytes int) float64 {
		if err := ev.Wait(); err != nil {
			b.Fatal(err)
		}
		defer ev.Release()
		p, err := ev.Profile()
		if err != nil || p.End <= p.Start {
			b.Fatal("no profile", err)
		}
		return float64(bytes) / float64(p.End-p.Start)
	}
	panel := tileRect(0, n, 0, n, 0, nt)
	short := tileRect(0, n, 0, nt, 0, nt)
	write := func(q *cl.Queue, d *cl.Buffer, r cl.Rect) *cl.Event {
		ev, err := cl.WriteBufferRect(q, d, false, r, h)
		if err != nil {
			b.Fatal(err)
		}
		q.Flush()
		return ev
	}
	read := func(q *cl.Queue, d *cl.Buffer, r cl.Rect) *cl.Event {
		ev, err := cl.ReadBufferRect(q, d, false, r, h)
		if err != nil {
			b.Fatal(err)
		}
		q.Flush()
		return ev
	}
	pb, sb := n*nt*8, nt*nt*8
	for i := 0; i < b.N; i++ {
		b.ReportMetric(rate(write(up, dev[0], panel), pb), "idle-GB/s")
		b.ReportMetric(rate(write(up, dev[0], short), sb), "short-up-GB/s")
		b.ReportMetric(rate(read(down, dev[0], short), sb), "short-down-GB/s")
		b.ReportMetric(rate(read(down, dev[0], panel), pb), "panel-down-GB/s")
		e1, e2 := write(up, dev[0], panel), write(other, dev[1], panel)
		b.ReportMetric(rate(e1, pb), "two-queues-1-GB/s")
		b.ReportMetric(rate(e2, pb), "two-queues-2-GB/s")
		if err := gemm().Wait(); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(rate(write(up, dev[0], panel), pb), "after-gemm-GB/s")
		time.Sleep(20 * time.Millisecond)
		b.ReportMetric(rate(write(up, dev[0], panel), pb), "20ms-later-GB/s")
		g := gemm()
		b.ReportMetric(rate(write(up, dev[0], panel), pb), "during-gemm-GB/s")
		if err := g.Wait(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRectDuringGemm reports the rate (GB/s, from the device
// timestamps of first start to last end) of a column panel's rect upload
// and of a C tile's rect download while a resident DGEMM runs, by row
// width (a quarter and a half of B's rows), and of the same panel
// uploaded as two halves on two queues at once.
//
//	go test -run XXX -bench RectDuringGemm ./blas/
func BenchmarkRectDuringGemm(b *testing.B) {
	e := testEngine(b)
	impl := newTestImpl(b)
	n := 8192
	if e.prof.IsCPU() {
		n = 1024
	}
	up, _, down, err := e.pipeline()
	if err != nil {
		b.Fatal(err)
	}
	other, err := e.rt.NewQueue(cl.QueueProfiling)
	if err != nil {
		b.Fatal(err)
	}
	defer other.Release()
	src, err := NewHostSlice[float64](impl, n*n)
	if err != nil {
		b.Fatal(err)
	}
	defer src.Release()
	h := src.Data()
	dev, err := e.buffers.get(n * n * 8)
	if err != nil {
		b.Fatal(err)
	}
	defer e.buffers.put(dev)
	ma, err1 := NewMatrix[float64](impl, n, n)
	mb, err2 := NewMatrix[float64](impl, n, n)
	mc, err3 := NewMatrix[float64](impl, n, n)
	if err1 != nil || err2 != nil || err3 != nil {
		b.Fatal(err1, err2, err3)
	}
	defer ma.Release()
	defer mb.Release()
	defer mc.Release()
	gemm := func() *Event {
		ev, err := Gemm(blas.NoTrans, blas.NoTrans, 1, ma, mb, 0, mc)
		if err != nil {
			b.Fatal(err)
		}
		return ev
	}
	if err := gemm().Wait(); err != nil {
		b.Fatal(err)
	}
	// span is the rate of moving bytes by evs: first start to last end.
	span := func(bytes int, evs ...*cl.Event) float64 {
		if err := cl.WaitForEvents(evs...); err != nil {
			b.Fatal(err)
		}
		var t0, t1 uint64
		for i, ev := range evs {
			p, err := ev.Profile()
			if err != nil {
				b.Fatal(err)
			}
			if i == 0 || p.Start < t0 {
				t0 = p.Start
			}
			t1 = max(t1, p.End)
			ev.Release()
		}
		return float64(bytes) / float64(t1-t0)
	}
	rect := func(q *cl.Queue, write bool, r cl.Rect) *cl.Event {
		var ev *cl.Event
		var err error
		if write {
			ev, err = cl.WriteBufferRect(q, dev, false, r, h)
		} else {
			ev, err = cl.ReadBufferRect(q, dev, false, r, h)
		}
		if err != nil {
			b.Fatal(err)
		}
		q.Flush()
		return ev
	}
	for i := 0; i < b.N; i++ {
		for _, nt := range []int{n / 4, n / 2} {
			kb := fmt.Sprint(nt * 8 >> 10)
			panel := tileRect(0, n, 0, n, 0, nt)
			halves := [2]cl.Rect{tileRect(0, n, 0, n/2, 0, nt), tileRect(n/2*nt, n, n/2, n/2, 0, nt)}
			tile := tileRect(0, n, 0, n/4, 0, nt)
			for _, during := range []bool{false, true} {
				when := "idle"
				var g *Event
				if during {
					when = "gemm"
					g = gemm()
					time.Sleep(2 * time.Millisecond) // let the kernel start
				}
				b.ReportMetric(span(n*nt*8, rect(up, true, panel)), kb+"K-up-"+when+"-GB/s")
				b.ReportMetric(span(n*nt*8, rect(up, true, halves[0]), rect(other, true, halves[1])), kb+"K-up2q-"+when+"-GB/s")
				b.ReportMetric(span(n/4*nt*8, rect(down, false, tile)), kb+"K-down-"+when+"-GB/s")
				if g != nil {
					if err := g.Wait(); err != nil {
						b.Fatal(err)
					}
				}
				time.Sleep(30 * time.Millisecond)
			}
		}
	}
}
