package clblas

import (
	eng "github.com/gocompute/opencl/internal/engine"

	"math"
	"runtime"
)

// precision is the element type of a call, valued as its size in bytes.
type precision int

const (
	prec32 precision = 4
	prec64 precision = 8
)

// workload describes one BLAS call to the offload policy.
type workload struct {
	prec precision
	// flops is the number of floating-point operations.
	flops float64
	// bytes is the number of bytes that cross between host and device when
	// the call runs on the device from host slices (inputs in, outputs
	// out); it is also what gonum's code streams through host memory.
	bytes float64
	// efficiency is the fraction of the device's GEMM rate its kernel for
	// this call reaches (0 means 1): the level-3 routines other than GEMM
	// run simpler kernels (see direct).
	efficiency float64
	// inner is a level-3 call's inner dimension (0: not level 3); the
	// device's rate falls when it is short (Cost.KHalf).
	inner float64
	// staged marks a level 2 call whose matrix the device streams through
	// the pinned staging buffers where it can (Cost.StagesLevel2).
	staged bool
	// shared marks a staged GEMV or GER whose rows the host shares with
	// the device (Cost.SharesLevel2).
	shared bool
	// triangle marks a staged SYMV or TRMV, whose stream moves only the
	// stored triangle: half of bytes.
	triangle bool
	// half marks a call whose gonum code streams half of bytes: the
	// stored triangle of a triangular matrix (TRMV), or GER's A, which
	// gonum reads and writes in one pass (the device moves it both ways).
	// gonum's SYMV, a dot and an axpy for each stored row, reads its
	// triangle at about half the rate of a plain read, so it is not
	// marked (BENCHMARKS.md, "Figures behind the code's choices").
	half bool
	// serial marks a call whose gonum code runs on one goroutine (complex
	// level 3), so that its CPU rate is one core's, not the machine's.
	serial bool
	// launches is the number of kernels the device path enqueues beyond
	// the first (complex level 3 packs its operands first).
	launches float64
}

// streamed marks a GEMV, GER, SYMV or TRMV workload (see workload.staged).
func (w workload) streamed() workload {
	w.staged = true
	return w
}

// streamedTriangle marks a SYMV or TRMV workload whose stream moves only
// the stored triangle (see workload.staged and workload.triangle).
func (w workload) streamedTriangle() workload {
	w.staged, w.triangle = true, true
	return w
}

// hostShares marks a streamed GEMV or GER workload whose rows the host
// shares where ok (see workload.shared; GER's share takes positive
// increments only).
func (w workload) hostShares(ok bool) workload {
	w.shared = ok
	return w
}

// halfOnCPU marks w's gonum code as streaming half of its bytes (see
// workload.half).
func (w workload) halfOnCPU() workload {
	w.half = true
	return w
}

// oneCore marks w's gonum code as running on one goroutine, and its
// device path as extra kernels beyond the first.
func (w workload) oneCore(extra int) workload {
	w.serial = true
	w.launches = float64(extra)
	return w
}

// over sets the inner dimension k of a level-3 workload.
func (w workload) over(k int) workload {
	w.inner = float64(k)
	return w
}

// direct marks a workload whose device kernel runs at about eff of the
// tuned GEMM kernel's rate (symm, syrk, syr2k and trmm are computed one
// element per work-item; trsm is mostly GEMM updates), so that Auto does
// not send it to a device where it would be slower than gonum.
func (w workload) direct(eff float64) workload {
	w.efficiency = eff
	return w
}

// viaGemmEff is the efficiency of symm, syrk and syr2k for Auto: eff (their
// GEMM route's, relative to GEMM: syrk computes the whole square, so 0.5)
// when every dimension reaches engine.L3GemmMin, else the direct kernels'
// 0.1.
func viaGemmEff(eff float64, dims ...int) float64 {
	for _, d := range dims {
		if d < eng.L3GemmMin {
			return 0.1
		}
	}
	return eff
}

// trmmEff is trmm's efficiency for Auto: its GEMM route (diagonal blocks
// of engine.TrmmBlock by the direct kernel, the rest by GEMM) once A has
// more than one block and every dimension reaches engine.L3GemmMin, else
// the direct kernel's.
func trmmEff(m, n, k int) float64 {
	if k <= eng.TrmmBlock {
		return 0.1
	}
	return viaGemmEff(0.4, m, n, k)
}

// work returns the workload of a call of precision p doing flops operations
// and moving elems elements.
func work(p precision, flops, elems float64) workload {
	return workload{prec: p, flops: flops, bytes: elems * float64(p)}
}

// fl converts an int for the workload arithmetic (it keeps the front-end
// files free of float64 conversions, which the float32 generator would
// rewrite).
func fl(n int) float64 { return float64(n) }

// ifNonZero is 1 when nonZero, else 0: an output read back in only when
// beta ≠ 0.
func ifNonZero(nonZero bool) float64 {
	if nonZero {
		return 1
	}
	return 0
}

// offload reports whether a call of routine should go to the device, and
// counts the answer (Stats). Every routine checks its gate first
// (gate.go) and calls it, or weighs, only past it.
func (impl *Implementation) offload(routine string, w workload) bool {
	return impl.weigh(routine, w, nil)
}

// weigh is offload and offloadIf: the policy's decision, ok's veto (when
// ok is not nil) and the counting.
func (impl *Implementation) weigh(routine string, w workload, ok func() bool) bool {
	want := impl.policy != Never && !impl.closed.Load() && impl.hasDevice(w.prec) && decide(impl.policy, &impl.cost, w)
	dev := want && (ok == nil || ok())
	c := impl.counted(routine)
	switch {
	case dev:
		c.device.Add(1)
	case want:
		c.nonFinite.Add(1)
		c.cpu.Add(1)
	default:
		c.cpu.Add(1)
	}
	return dev
}

// hasDevice reports whether there is a device for precision p.
func (impl *Implementation) hasDevice(p precision) bool {
	if p == prec64 {
		return impl.dev64 != nil
	}
	return impl.dev32 != nil
}

// decide is the offload decision for policy p on a device described by cm.
func decide(p Policy, cm *costModel, w workload) bool {
	switch {
	case p == Never, !cm.present, w.prec == prec64 && !cm.FP64:
		return false
	case p == Always:
		return true
	}
	return cm.deviceTime(w) < cm.cpuTime(w)
}

// seconds returns amount/(rate·1e9), +Inf for an unknown (non-positive)
// rate.
func seconds(amount, rateG float64) float64 {
	if amount == 0 {
		return 0
	}
	if !(rateG > 0) {
		return math.Inf(1)
	}
	return amount / (rateG * 1e9)
}

// deviceTime estimates the seconds the device needs for w from host slices:
// launch overhead, transfers, and the kernel (bounded by the device's
// arithmetic or its memory, whichever is slower). Level 3 calls and the
// level 2 calls that stream through the pinned staging buffers move their
// data at the link's rate; the other level 1 and 2 calls move it straight
// from pageable memory, which is slower still than gonum reading it, so
// they stay on the CPU. Every transfer is also read or written through
// host memory: no transfer runs faster than the host memory bandwidth.
func (cm *costModel) deviceTime(w workload) float64 {
	gflops := cm.GFLOPS32
	if w.prec == prec64 {
		gflops = cm.GFLOPS64
	}
	link := cm.LinkGBps
	launch := cm.Launch.Seconds()
	bytes := w.bytes
	switch {
	case w.inner > 0: // level 3: staged and pipelined (or in place)
	case w.staged && cm.StagesLevel2:
		// The stream's own measured rate and fixed cost: the host's copies
		// into the staging memory, not the bus, bound it.
		launch = stagedLevel2Launch
		link = cm.stagedGBps
		if w.triangle {
			bytes /= 2
		}
		if w.shared && cm.SharesLevel2 {
			// The host's cores compute most rows themselves, reading A
			// once (GER's in place, as gonum does), at up to the host's
			// memory rate; the device's rows are not counted, which errs
			// towards the CPU.
			link = max(link, cm.cpuMemGBps)
			if w.half {
				bytes /= 2
			}
		}
	case cm.PageableGBps > 0:
		link = min(link, cm.PageableGBps)
	case cm.cpuStreamGBps > 0: // unknown: no faster than one core copies
		link = min(link, cm.cpuStreamGBps)
	}
	if cm.cpuMemGBps > 0 {
		link = min(link, cm.cpuMemGBps)
	}
	if w.efficiency > 0 {
		gflops *= w.efficiency
	}
	if w.inner > 0 && cm.KHalf > 0 {
		gflops *= w.inner / (w.inner + cm.KHalf)
	}
	kernel := max(seconds(w.flops, gflops), seconds(bytes, cm.MemGBps))
	return (1+w.launches)*launch + seconds(bytes, link) + kernel
}

// cpuTime estimates the seconds gonum's Go code needs for w: bounded by the
// arithmetic rate (level 3) or memory bandwidth (level 1/2).
func (cm *costModel) cpuTime(w workload) float64 {
	gflops := cm.cpuGFLOPS32
	if w.prec == prec64 {
		gflops = cm.cpuGFLOPS64
	}
	if w.serial {
		gflops *= serialShare()
	}
	bytes := w.bytes
	if w.half {
		bytes /= 2
	}
	mem := cm.cpuMemGBps
	if w.inner == 0 && cm.cpuStreamGBps > 0 {
		mem = cm.cpuStreamGBps // gonum's level 1 and 2 run on one core
		if bytes <= cacheBytes {
			mem *= cacheSpeedup
		}
	}
	return max(seconds(w.flops, gflops), seconds(bytes, mem))
}

const (
	// stagedLevel2GBps is the rate of a level 2 call streamed from Go
	// slices on the host where it was measured; stagedCopyGBps is one
	// goroutine's share of the host's copies into pinned memory while
	// the others copy too; stagedLevel2Launch is the stream's fixed cost
	// in seconds (BENCHMARKS.md, "Figures behind the code's choices").
	stagedLevel2GBps   = 30
	stagedCopyGBps     = 2
	stagedLevel2Launch = 300e-6
	// cacheBytes and cacheSpeedup: operands up to the size of a server's
	// last-level cache are read by gonum's one core from cache, faster
	// than from memory. Both err towards the CPU, so that auto does not
	// send a call to a device that would be slower than gonum.
	cacheBytes   = 64 << 20
	cacheSpeedup = 2.5
)

// serialShare is the part of the level-3 rate that gonum's code running on
// one goroutine is taken to reach: one core's share, doubled, so that the
// estimate errs on the side of the CPU and Auto does not send a call to a
// device that would be slower than gonum.
func serialShare() float64 { return min(1, 2/float64(runtime.GOMAXPROCS(0))) }

// fillCPU sets the CPU estimates a device left at zero: per-core rates of
// gonum's Go kernels chosen low, so that Auto errs towards the CPU, and a
// memory bandwidth that stops growing with the core count as a socket's
// does; the engine may measure better ones.
func (cm *costModel) fillCPU() {
	procs := float64(runtime.GOMAXPROCS(0))
	if cm.cpuGFLOPS64 <= 0 {
		cm.cpuGFLOPS64 = 4 * procs
	}
	if cm.cpuGFLOPS32 <= 0 {
		cm.cpuGFLOPS32 = 2 * cm.cpuGFLOPS64
	}
	if cm.cpuMemGBps <= 0 {
		cm.cpuMemGBps = min(8*procs, 60)
	}
	if cm.cpuStreamGBps <= 0 {
		cm.cpuStreamGBps = min(cm.cpuMemGBps, 10)
	}
	if cm.stagedGBps <= 0 {
		// The host's copies into the staging memory, on all Ps but one
		// (engine's l2_pipe.go), bound the stream, up to the rate
		// measured on a PCIe 5 host; a slower bus would be slower (the
		// estimate then errs towards the device, where Cost.LinkGBps, an
		// estimate below that host's bus, would err the other way).
		cm.stagedGBps = min(stagedLevel2GBps, stagedCopyGBps*max(1, procs-1), cm.cpuMemGBps)
	}
}
