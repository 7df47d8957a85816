package engine

import (
	"cmp"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gocompute/opencl/cl"
)

// XferCounters accumulate the time split of staged GEMM calls, in
// nanoseconds (device times from event profiling).
type XferCounters struct {
	Calls, Pack, Up, Comp, Down, Unpack, Wall, BytesUp, BytesDown, BytesDirect atomic.Int64
	Span, Fill, Drain, BusIdle, CompIdle                                       atomic.Int64
}

// AddTimeline adds one call's device timeline (see TransferStats) to x.
func (x *XferCounters) AddTimeline(ups, kerns, downs []*cl.Event) {
	tl := DeviceTimeline(Intervals(ups), Intervals(kerns), Intervals(downs))
	x.Span.Add(tl.Span)
	x.Fill.Add(tl.Fill)
	x.Drain.Add(tl.Drain)
	x.BusIdle.Add(tl.BusIdle)
	x.CompIdle.Add(tl.CompIdle)
}

// EventTime is the summed device time of events (0 for any without
// profiling information).
func EventTime(evs []*cl.Event) int64 {
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

// WriteTimeline appends one staged call's commands to the file path: a
// line per command, "up", "gemm" or "down", its start and end on the
// device in ms from the first command's start,
// and the bytes it moved (upBytes and downBytes, parallel to ups and
// downs). Errors are logged, not returned: the file is a measuring aid.
func WriteTimeline(path string, ups, kerns, downs []*cl.Event, upBytes, downBytes []int64) {
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
		slog.Warn("clblas: GEMM Timeline", "err", err)
		return
	}
	defer f.Close()
	if _, err := f.WriteString(sb.String()); err != nil {
		slog.Warn("clblas: GEMM Timeline", "err", err)
	}
}

// Interval is a command's [start, end) on the device clock, in
// nanoseconds.
type Interval struct{ Start, End uint64 }

// Intervals returns the device time intervals of the events that have
// profiling information.
func Intervals(evs []*cl.Event) []Interval {
	out := make([]Interval, 0, len(evs))
	for _, ev := range evs {
		if p, err := ev.Profile(); err == nil && p.End > p.Start {
			out = append(out, Interval{p.Start, p.End})
		}
	}
	return out
}

// Timeline is one call's device timeline, in nanoseconds (see
// TransferStats).
type Timeline struct {
	Span, Fill, Drain, BusIdle, CompIdle int64
}

// DeviceTimeline summarises the intervals of a call's uploads, kernels
// and downloads. A call without uploads (k = 0 and beta = 0) starts at its
// first command.
func DeviceTimeline(ups, kerns, downs []Interval) Timeline {
	all := slices.Concat(ups, kerns, downs)
	if len(all) == 0 {
		return Timeline{}
	}
	t0, t1 := all[0].Start, all[0].End
	for _, s := range all {
		t0, t1 = min(t0, s.Start), max(t1, s.End)
	}
	if len(ups) > 0 {
		t0 = ups[0].Start
		for _, s := range ups {
			t0 = min(t0, s.Start)
		}
	}
	var tl Timeline
	tl.Span = int64(t1 - t0)
	if len(kerns) > 0 {
		first := kerns[0].Start
		for _, s := range kerns {
			first = min(first, s.Start)
		}
		tl.Fill = int64(max(first, t0) - t0)
	}
	if len(ups) > 0 {
		last := ups[0].End
		for _, s := range ups {
			last = max(last, s.End)
		}
		tl.Drain = int64(t1 - min(last, t1))
	}
	tl.BusIdle = tl.Span - covered(slices.Concat(ups, downs), t0, t1)
	tl.CompIdle = tl.Span - covered(kerns, t0, t1)
	return tl
}

// covered is the length of the union of intervals, clipped to [t0, t1).
func covered(ivs []Interval, t0, t1 uint64) int64 {
	s := slices.Clone(ivs)
	slices.SortFunc(s, func(a, b Interval) int { return cmp.Compare(a.Start, b.Start) })
	var total, at uint64 = 0, t0
	for _, v := range s {
		lo, hi := max(v.Start, at), min(v.End, t1)
		if hi > lo {
			total += hi - lo
			at = hi
		}
	}
	return int64(total)
}
