package clblas

import (
	"fmt"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
	eng "github.com/gocompute/opencl/internal/engine"
)

// The rect-transfer benchmarks: what sets the rate of the staged GEMM's
// strided transfers (a column panel of B, a tile of C) between a HostSlice
// and the device. On the H200 such transfers ran at 33 GB/s inside the
// pipeline and at 48 GB/s alone (BENCHMARKS.md, fourth session); the
// memory, queue and buffer made no difference (an earlier benchmark of
// this file, commit 9af2b8d); a kernel running, or having run within a
// few ms, did. The row-slab schedule (engine.Plan.Slabs) rests on them.

// rectFixture is a float64 n×n HostSlice, two pooled device buffers of
// its size, the pipeline's upload and download queues and one more, and
// a resident n×n×n DGEMM to run beside the transfers.
type rectFixture struct {
	n               int
	up, down, other *cl.Queue
	host            []float64
	dev             [2]*cl.Buffer
	gemm            func() *Event
}

func newRectFixture(b *testing.B) *rectFixture {
	e := testEngine(b)
	impl := newTestImpl(b)
	f := &rectFixture{n: 8192}
	if e.Prof.IsCPU() {
		f.n = 1024
	}
	n := f.n
	var err error
	if f.up, _, f.down, err = e.Pipe.Get(e.RT); err != nil {
		b.Fatal(err)
	}
	if f.other, err = e.RT.NewQueue(cl.QueueProfiling); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.other.Release() })
	src, err := NewHostSlice[float64](impl, n*n)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { src.Release() })
	f.host = src.Data()
	for i := range f.dev {
		d, err := e.Buffers.Get(n * n * 8)
		if err != nil {
			b.Fatal(err)
		}
		f.dev[i] = d
		b.Cleanup(func() { e.Buffers.Put(d) })
	}
	var ms [3]*Matrix[float64]
	for i := range ms {
		if ms[i], err = NewMatrix[float64](impl, n, n); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { ms[i].Release() })
	}
	f.gemm = func() *Event {
		ev, err := Gemm(blas.NoTrans, blas.NoTrans, 1, ms[0], ms[1], 0, ms[2])
		if err != nil {
			b.Fatal(err)
		}
		return ev
	}
	if err := f.gemm().Wait(); err != nil { // builds the kernel
		b.Fatal(err)
	}
	return f
}

// rect enqueues a non-blocking rect write (or read) of r between the
// host slice and buffer d on q, and flushes q.
func (f *rectFixture) rect(b *testing.B, q *cl.Queue, d *cl.Buffer, write bool, r cl.Rect) *cl.Event {
	var ev *cl.Event
	var err error
	if write {
		ev, err = cl.WriteBufferRect(q, d, false, r, f.host)
	} else {
		ev, err = cl.ReadBufferRect(q, d, false, r, f.host)
	}
	if err != nil {
		b.Fatal(err)
	}
	if err := q.Flush(); err != nil {
		b.Fatal(err)
	}
	return ev
}

// rectRate waits for evs and returns bytes over the span of their device
// timestamps (first start to last end), in GB/s; it releases evs.
func rectRate(b *testing.B, bytes int, evs ...*cl.Event) float64 {
	if err := cl.WaitForEvents(evs...); err != nil {
		b.Fatal(err)
	}
	defer cl.ReleaseAll(evs...)
	var t0, t1 uint64
	for i, ev := range evs {
		p, err := ev.Profile()
		if err != nil || p.End <= p.Start {
			b.Fatal("no profiling times:", err)
		}
		if i == 0 || p.Start < t0 {
			t0 = p.Start
		}
		t1 = max(t1, p.End)
	}
	return float64(bytes) / float64(t1-t0)
}

// BenchmarkRectConditions reports a column panel's rect upload rate (a
// quarter of B's rows) right after a resident DGEMM, 20 ms later, and
// while one runs; and the rates of a C tile's rect upload and download,
// and a column panel's download, with the device idle.
//
//	go test -run XXX -bench RectConditions ./blas/
func BenchmarkRectConditions(b *testing.B) {
	f := newRectFixture(b)
	n, nt := f.n, f.n/4
	panel, tile := eng.TileRect(0, n, 0, n, 0, nt), eng.TileRect(0, n, 0, nt, 0, nt)
	pb, tb := n*nt*8, nt*nt*8
	for i := 0; i < b.N; i++ {
		time.Sleep(30 * time.Millisecond)
		b.ReportMetric(rectRate(b, tb, f.rect(b, f.up, f.dev[0], true, tile)), "tile-up-GB/s")
		b.ReportMetric(rectRate(b, tb, f.rect(b, f.down, f.dev[0], false, tile)), "tile-down-GB/s")
		b.ReportMetric(rectRate(b, pb, f.rect(b, f.down, f.dev[0], false, panel)), "panel-down-GB/s")
		if err := f.gemm().Wait(); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(rectRate(b, pb, f.rect(b, f.up, f.dev[0], true, panel)), "after-gemm-GB/s")
		time.Sleep(20 * time.Millisecond)
		b.ReportMetric(rectRate(b, pb, f.rect(b, f.up, f.dev[0], true, panel)), "20ms-later-GB/s")
		g := f.gemm()
		b.ReportMetric(rectRate(b, pb, f.rect(b, f.up, f.dev[0], true, panel)), "during-gemm-GB/s")
		if err := g.Wait(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRectDuringGemm reports, idle and while a resident DGEMM runs,
// the rate of a column panel's rect upload by row width (a quarter and a
// half of B's rows), of the same panel uploaded as two halves on two
// queues at once, and of a C tile's rect download.
//
//	go test -run XXX -bench RectDuringGemm ./blas/
func BenchmarkRectDuringGemm(b *testing.B) {
	f := newRectFixture(b)
	n := f.n
	for i := 0; i < b.N; i++ {
		for _, nt := range []int{n / 4, n / 2} {
			kb := fmt.Sprint(nt * 8 >> 10)
			panel := eng.TileRect(0, n, 0, n, 0, nt)
			halves := [2]cl.Rect{eng.TileRect(0, n, 0, n/2, 0, nt), eng.TileRect(n/2*nt, n, n/2, n/2, 0, nt)}
			tile := eng.TileRect(0, n, 0, n/4, 0, nt)
			for _, during := range []bool{false, true} {
				when := "idle"
				var g *Event
				if during {
					when = "gemm"
					g = f.gemm()
					time.Sleep(2 * time.Millisecond) // let the kernel start
				}
				b.ReportMetric(rectRate(b, n*nt*8, f.rect(b, f.up, f.dev[0], true, panel)), kb+"K-up-"+when+"-GB/s")
				b.ReportMetric(rectRate(b, n*nt*8, f.rect(b, f.up, f.dev[0], true, halves[0]), f.rect(b, f.other, f.dev[0], true, halves[1])), kb+"K-up2q-"+when+"-GB/s")
				b.ReportMetric(rectRate(b, n/4*nt*8, f.rect(b, f.down, f.dev[0], false, tile)), kb+"K-down-"+when+"-GB/s")
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
