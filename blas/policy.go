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
// when every dimension reaches l3GemmMin (device_level3.go), else the
// direct kernels' 0.1.
func viaGemmEff(eff float64, dims ...int) float64 {
	for _, d := range dims {
		if d < eng.L3GemmMin {
			return 0.1
		}
	}
	return eff
}

// trmmEff is trmm's efficiency for Auto: its GEMM route (diagonal blocks
// of trmmBlock by the direct kernel, the rest by GEMM) once A has more than
// one block and every dimension reaches l3GemmMin, else the direct
// kernel's.
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
// counts the answer (Stats).
func (impl *Implementation) offload(routine string, w workload) bool {
	dev := impl.policy != Never && !impl.closed.Load() && decide(impl.policy, &impl.cost, w)
	c := impl.counted(routine)
	if dev {
		c.device.Add(1)
	} else {
		c.cpu.Add(1)
	}
	return dev
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
// arithmetic or its memory, whichever is slower). Host slices are ordinary
// pageable memory, so every transferred byte is also read or written through
// host memory: transfers run no faster than the host memory bandwidth. That
// is why level-1/2 calls, which gonum streams through host memory once, stay
// on the CPU.
func (cm *costModel) deviceTime(w workload) float64 {
	gflops := cm.GFLOPS32
	if w.prec == prec64 {
		gflops = cm.GFLOPS64
	}
	link := cm.LinkGBps
	if cm.cpuMemGBps > 0 {
		link = min(link, cm.cpuMemGBps)
	}
	if w.efficiency > 0 {
		gflops *= w.efficiency
	}
	if w.inner > 0 && cm.KHalf > 0 {
		gflops *= w.inner / (w.inner + cm.KHalf)
	}
	kernel := max(seconds(w.flops, gflops), seconds(w.bytes, cm.MemGBps))
	return cm.Launch.Seconds() + seconds(w.bytes, link) + kernel
}

// cpuTime estimates the seconds gonum's Go code needs for w: bounded by the
// arithmetic rate (level 3) or memory bandwidth (level 1/2).
func (cm *costModel) cpuTime(w workload) float64 {
	gflops := cm.cpuGFLOPS32
	if w.prec == prec64 {
		gflops = cm.cpuGFLOPS64
	}
	return max(seconds(w.flops, gflops), seconds(w.bytes, cm.cpuMemGBps))
}

// fillCPU sets the CPU estimates a device left at zero. The figures are
// conservative estimates of gonum's Go kernels (about 4 GFLOP/s per core in
// float64 and twice that in float32, 8 GB/s of memory bandwidth per core up
// to 60 GB/s); the engine may measure better ones.
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
}
