package clblas

import (
	"sync/atomic"
	"time"
)

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
	x := &impl.eng.Xfer
	ns := func(v *atomic.Int64) time.Duration { return time.Duration(v.Load()) }
	return TransferStats{
		Calls: x.Calls.Load(),
		Pack:  ns(&x.Pack), Upload: ns(&x.Up), Compute: ns(&x.Comp), Download: ns(&x.Down),
		Unpack: ns(&x.Unpack), Wall: ns(&x.Wall),
		BytesUp: x.BytesUp.Load(), BytesDown: x.BytesDown.Load(),
		BytesDirect: x.BytesDirect.Load(),
		Span:        ns(&x.Span), Fill: ns(&x.Fill), Drain: ns(&x.Drain),
		BusIdle: ns(&x.BusIdle), ComputeIdle: ns(&x.CompIdle),
	}
}
