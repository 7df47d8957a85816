package clblas

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocompute/opencl/cl"
	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/internal/par"
	"github.com/gocompute/opencl/internal/settings"
)

// Host↔device transfers of the drop-in path.
//
// A transfer from pageable Go memory is staged by the driver through its
// own pinned bounce buffers and runs far below the bus speed
// (BENCHMARKS.md, "Figures behind the code's choices"). So host data
// goes Go slice → pinned staging → device and back: the staging buffers
// are CL_MEM_ALLOC_HOST_PTR buffers (pinned host memory on NVIDIA, AMD and
// Intel drivers), mapped once when created and kept mapped for their whole
// life, and kept in a pool so that no call creates one after the first.
// Their mapped memory is the host side of ordinary clEnqueueWrite/
// ReadBuffer calls on device buffers, which then DMA at full bus speed.
// The copy between the Go slice and the staging memory packs (or unpacks)
// only the used rows×cols of a matrix with a padded leading dimension, and
// runs on several goroutines when it is large.

// envPipeline is the environment variable that overrides the GEMM transfer
// path (settings.ParsePipeline has its words).
const envPipeline = settings.GemmPipeline

// pipeMode is the engine's choice of GEMM transfer path.
type pipeMode struct {
	off   bool // plain transfers from Go memory
	force bool // staged and pipelined on any device, whatever the size
	tile  int  // tiles of tile×tile elements of C (tests, "tile=N"); 0 chooses
	// timeline is the file each call's command timeline is appended to
	// ("timeline=FILE"); "" for none.
	timeline string
	// slab is the schedule by full-width row slabs (see gemmSlabs): 0
	// chooses, -1 never ("slab=off"), N > 0 always, with N k-chunks
	// ("slab=N").
	slab int
}

// parsePipeMode parses a GOCL_GEMM_PIPELINE value.
func parsePipeMode(v string) (pipeMode, error) {
	p, err := settings.ParsePipeline(v)
	return pipeMode{off: p.Off, force: p.Force, tile: p.Tile, timeline: p.Timeline, slab: p.Slab}, err
}

// pinnedBuf is a pinned staging buffer and its mapping.
type pinnedBuf = eng.Pinned

// stage borrows a pinned staging buffer of at least n elements of T for
// the call; finish returns it to the pool.
func stage[T real](c *call, n int) *pinnedBuf {
	if c.err != nil {
		return nil
	}
	if err := c.e.injected("alloc"); err != nil {
		c.fail(err)
		return nil
	}
	p, err := c.e.pinned.Get(max(n, 1) * elemSize[T]())
	if err != nil {
		c.fail(err)
		return nil
	}
	c.pinned = append(c.pinned, p)
	return p
}

// pipeQueues are the queues of the transfer pipeline: uploads, kernels and
// downloads each have their own in-order queue (created with profiling, for
// the time accounting), so that a write, a kernel and a read can run at the
// same time; events order them across queues. They are created on first
// use and live as long as the engine.
type pipeQueues struct {
	mu             sync.Mutex
	up, comp, down *cl.Queue
	closed         bool
}

func (e *engine) pipeline() (up, comp, down *cl.Queue, err error) {
	p := &e.pipe
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, nil, nil, errClosed
	}
	if p.up == nil {
		var qs [3]*cl.Queue
		for i := range qs {
			q, err := e.rt.NewQueue(cl.QueueProfiling)
			if err != nil {
				for _, q := range qs[:i] {
					q.Release()
				}
				return nil, nil, nil, err
			}
			qs[i] = q
		}
		p.up, p.comp, p.down = qs[0], qs[1], qs[2]
	}
	return p.up, p.comp, p.down, nil
}

func (p *pipeQueues) close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	var errs []error
	for _, q := range []*cl.Queue{p.up, p.comp, p.down} {
		if q != nil {
			errs = append(errs, q.Finish(), q.Release())
		}
	}
	p.up, p.comp, p.down = nil, nil, nil
	return errors.Join(errs...)
}

// Parallel copies between Go slices and staging memory.

// copyChunk is the least number of bytes worth a goroutine of its own.
const copyChunk = 2 << 20

// copyWorkers is the number of goroutines for a copy of bytes bytes.
func copyWorkers(bytes int) int {
	return max(1, min(runtime.GOMAXPROCS(0), bytes/copyChunk))
}

// pack copies the rows×cols block at (r0, c0) of the row-major matrix src
// with leading dimension ld into dst, packed (leading dimension cols).
// Only the block is read.
func pack[T real](dst, src []T, ld, r0, rows, c0, cols int) {
	if rows == 0 || cols == 0 {
		return
	}
	copyBlock(dst, cols, src[r0*ld+c0:], ld, rows, cols)
}

// copyBlock copies the rows×cols block at the start of src (leading
// dimension lds) to the start of dst (leading dimension ldd), on several
// goroutines when it is large. When both are contiguous (ldd = lds = cols)
// it is one copy split evenly, whose pieces of 1 MiB and more Go's copy
// makes with non-temporal stores; row by row, rows shorter than that are
// written through the cache (each destination line is read first).
func copyBlock[T real](dst []T, ldd int, src []T, lds int, rows, cols int) {
	if rows == 0 || cols == 0 {
		return
	}
	es := elemSize[T]()
	if ldd == cols && lds == cols {
		n := rows * cols
		d, s := dst[:n], src[:n]
		par.For(n, copyWorkers(n*es), func(lo, hi int) { copy(d[lo:hi], s[lo:hi]) })
		return
	}
	par.For(rows, copyWorkers(rows*cols*es), func(lo, hi int) {
		for r := lo; r < hi; r++ {
			copy(dst[r*ldd:r*ldd+cols], src[r*lds:r*lds+cols])
		}
	})
}

// Time accounting of the staged GEMM path.

// xferCounters accumulate the time split of staged GEMM calls, in
// nanoseconds (device times from event profiling).
type xferCounters struct {
	calls, pack, up, comp, down, unpack, wall, bytesUp, bytesDown, bytesDirect atomic.Int64
	span, fill, drain, busIdle, compIdle                                       atomic.Int64
}

// addTimeline adds one call's device timeline (see TransferStats) to x.
func (x *xferCounters) addTimeline(ups, kerns, downs []*cl.Event) {
	tl := deviceTimeline(intervals(ups), intervals(kerns), intervals(downs))
	x.span.Add(tl.span)
	x.fill.Add(tl.fill)
	x.drain.Add(tl.drain)
	x.busIdle.Add(tl.busIdle)
	x.compIdle.Add(tl.compIdle)
}

// TransferStats is the accumulated time split of GEMM calls on host
// slices that took the staged (pinned, pipelined) path: host copies into
// and out of pinned staging memory, device time of the uploads, kernels
// and downloads (event profiling), and the calls' wall time. Parts run at
// the same time, so their sum exceeds Wall by the overlap achieved.
type TransferStats struct {
	Calls                                         int64
	Pack, Upload, Compute, Download, Unpack, Wall time.Duration
	BytesUp, BytesDown                            int64
	// BytesDirect is the part of BytesUp and BytesDown moved straight
	// between a HostSlice and the device, with no host copy.
	BytesDirect int64
	// The calls' device timelines (event profiling), summed over calls:
	// Span runs from the first upload's start to the end of the last
	// command; Fill from that start to the first kernel's start; Drain
	// from the last upload's end to the end of the span; BusIdle is the
	// time in Span with no transfer running in either direction, and
	// ComputeIdle the time with no kernel running. They show where a
	// pipeline loses time to the bus: with BusIdle near zero the wall
	// cannot shrink below the bus time.
	Span, Fill, Drain, BusIdle, ComputeIdle time.Duration
}

// Sum is the total of the parts.
func (s TransferStats) Sum() time.Duration {
	return s.Pack + s.Upload + s.Compute + s.Download + s.Unpack
}

// Sub returns s − o, the split of the calls made between two snapshots.
func (s TransferStats) Sub(o TransferStats) TransferStats {
	return TransferStats{
		Calls: s.Calls - o.Calls,
		Pack:  s.Pack - o.Pack, Upload: s.Upload - o.Upload, Compute: s.Compute - o.Compute,
		Download: s.Download - o.Download, Unpack: s.Unpack - o.Unpack, Wall: s.Wall - o.Wall,
		BytesUp: s.BytesUp - o.BytesUp, BytesDown: s.BytesDown - o.BytesDown,
		BytesDirect: s.BytesDirect - o.BytesDirect,
		Span:        s.Span - o.Span, Fill: s.Fill - o.Fill, Drain: s.Drain - o.Drain,
		BusIdle: s.BusIdle - o.BusIdle, ComputeIdle: s.ComputeIdle - o.ComputeIdle,
	}
}

// TransferStats returns the accumulated time split of the staged GEMM
// calls made so far (both precisions); take the difference of two
// snapshots with Sub. It is zero without an OpenCL device.
func (impl *Implementation) TransferStats() TransferStats {
	if impl.eng == nil {
		return TransferStats{}
	}
	x := &impl.eng.xfer
	ns := func(v *atomic.Int64) time.Duration { return time.Duration(v.Load()) }
	return TransferStats{
		Calls: x.calls.Load(),
		Pack:  ns(&x.pack), Upload: ns(&x.up), Compute: ns(&x.comp), Download: ns(&x.down),
		Unpack: ns(&x.unpack), Wall: ns(&x.wall),
		BytesUp: x.bytesUp.Load(), BytesDown: x.bytesDown.Load(),
		BytesDirect: x.bytesDirect.Load(),
		Span:        ns(&x.span), Fill: ns(&x.fill), Drain: ns(&x.drain),
		BusIdle: ns(&x.busIdle), ComputeIdle: ns(&x.compIdle),
	}
}

// eventTime is the summed device time of events (0 for any without
// profiling information).
func eventTime(evs []*cl.Event) int64 {
	var t int64
	for _, ev := range evs {
		if p, err := ev.Profile(); err == nil && p.End > p.Start {
			t += int64(p.End - p.Start)
		}
	}
	return t
}

// timelineMu serialises appends to a timeline file.
var timelineMu sync.Mutex

// writeTimeline appends one staged call's commands to the file path: a
// line per command, "up", "gemm" or "down", its start and end on the
// device in ms from the first command's start,
// and the bytes it moved (upBytes and downBytes, parallel to ups and
// downs). Errors are logged, not returned: the file is a measuring aid.
func writeTimeline(path string, ups, kerns, downs []*cl.Event, upBytes, downBytes []int64) {
	type cmd struct {
		kind  string
		p     cl.ProfileTimes
		bytes int64
	}
	var cmds []cmd
	add := func(kind string, evs []*cl.Event, bytes []int64) {
		for i, ev := range evs {
			p, err := ev.Profile()
			if err != nil {
				continue
			}
			var b int64
			if bytes != nil {
				b = bytes[i]
			}
			cmds = append(cmds, cmd{kind, p, b})
		}
	}
	add("up", ups, upBytes)
	add("gemm", kerns, nil)
	add("down", downs, downBytes)
	if len(cmds) == 0 {
		return
	}
	slices.SortStableFunc(cmds, func(a, b cmd) int { return cmp.Compare(a.p.Start, b.p.Start) })
	t0 := cmds[0].p.Start
	var sb strings.Builder
	fmt.Fprintf(&sb, "call (%d commands)\n", len(cmds))
	for _, c := range cmds {
		ms := func(t uint64) float64 { return float64(int64(t-t0)) / 1e6 }
		fmt.Fprintf(&sb, "%-4s %8.3f %8.3f %10d", c.kind, ms(c.p.Start), ms(c.p.End), c.bytes)
		if c.bytes > 0 && c.p.End > c.p.Start {
			fmt.Fprintf(&sb, " %6.1f GB/s", float64(c.bytes)/float64(c.p.End-c.p.Start))
		}
		sb.WriteByte('\n')
	}
	timelineMu.Lock()
	defer timelineMu.Unlock()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		slog.Warn("clblas: GEMM timeline", "err", err)
		return
	}
	defer f.Close()
	if _, err := f.WriteString(sb.String()); err != nil {
		slog.Warn("clblas: GEMM timeline", "err", err)
	}
}

// interval is a command's [start, end) on the device clock, in
// nanoseconds.
type interval struct{ start, end uint64 }

// intervals returns the device time intervals of the events that have
// profiling information.
func intervals(evs []*cl.Event) []interval {
	out := make([]interval, 0, len(evs))
	for _, ev := range evs {
		if p, err := ev.Profile(); err == nil && p.End > p.Start {
			out = append(out, interval{p.Start, p.End})
		}
	}
	return out
}

// timeline is one call's device timeline, in nanoseconds (see
// TransferStats).
type timeline struct {
	span, fill, drain, busIdle, compIdle int64
}

// deviceTimeline summarises the intervals of a call's uploads, kernels
// and downloads. A call without uploads (k = 0 and beta = 0) starts at its
// first command.
func deviceTimeline(ups, kerns, downs []interval) timeline {
	all := slices.Concat(ups, kerns, downs)
	if len(all) == 0 {
		return timeline{}
	}
	t0, t1 := all[0].start, all[0].end
	for _, s := range all {
		t0, t1 = min(t0, s.start), max(t1, s.end)
	}
	if len(ups) > 0 {
		t0 = ups[0].start
		for _, s := range ups {
			t0 = min(t0, s.start)
		}
	}
	var tl timeline
	tl.span = int64(t1 - t0)
	if len(kerns) > 0 {
		first := kerns[0].start
		for _, s := range kerns {
			first = min(first, s.start)
		}
		tl.fill = int64(max(first, t0) - t0)
	}
	if len(ups) > 0 {
		last := ups[0].end
		for _, s := range ups {
			last = max(last, s.end)
		}
		tl.drain = int64(t1 - min(last, t1))
	}
	tl.busIdle = tl.span - covered(slices.Concat(ups, downs), t0, t1)
	tl.compIdle = tl.span - covered(kerns, t0, t1)
	return tl
}

// covered is the length of the union of intervals, clipped to [t0, t1).
func covered(ivs []interval, t0, t1 uint64) int64 {
	s := slices.Clone(ivs)
	slices.SortFunc(s, func(a, b interval) int { return cmp.Compare(a.start, b.start) })
	var total, at uint64 = 0, t0
	for _, v := range s {
		lo, hi := max(v.start, at), min(v.end, t1)
		if hi > lo {
			total += hi - lo
			at = hi
		}
	}
	return int64(total)
}
