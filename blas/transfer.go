package clblas

import (
	"sync/atomic"
	"time"

	eng "github.com/gocompute/opencl/internal/engine"
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

// stage borrows a pinned staging buffer of at least n elements of T for
// the call; finish returns it to the pool.
func stage[T real](c *call, n int) *eng.Pinned {
	if c.err != nil {
		return nil
	}
	if err := c.e.fault.Inject("alloc"); err != nil {
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

// Parallel copies between Go slices and staging memory.

// Time accounting of the staged GEMM path.

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
		Calls: x.Calls.Load(),
		Pack:  ns(&x.Pack), Upload: ns(&x.Up), Compute: ns(&x.Comp), Download: ns(&x.Down),
		Unpack: ns(&x.Unpack), Wall: ns(&x.Wall),
		BytesUp: x.BytesUp.Load(), BytesDown: x.BytesDown.Load(),
		BytesDirect: x.BytesDirect.Load(),
		Span:        ns(&x.Span), Fill: ns(&x.Fill), Drain: ns(&x.Drain),
		BusIdle: ns(&x.BusIdle), ComputeIdle: ns(&x.CompIdle),
	}
}
