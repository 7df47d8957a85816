package engine

import (
	"time"

	"github.com/gocompute/opencl/platform"
)

// Cost is what the offload policy knows about a device: its estimated
// rates and the fixed cost of a call. Rates of zero mean "unknown" (the
// policy then keeps the work on the CPU).
type Cost struct {
	// CPUDevice is true when the OpenCL device is the host CPU itself
	// (e.g. PoCL): its "transfers" are host memory copies.
	CPUDevice bool
	// FP64 is true when the device supports double precision
	// (cl_khr_fp64); without it float64 calls never go to the device.
	FP64 bool

	// GFLOPS32 and GFLOPS64 are the estimated sustained device rates for
	// level-3 kernels, in GFLOP/s.
	GFLOPS32, GFLOPS64 float64
	// MemGBps is the device's own memory bandwidth in GB/s (what bounds
	// level-1/2 kernels once the data are on the device).
	MemGBps float64
	// LinkGBps is the host↔device transfer bandwidth in GB/s, through the
	// pinned staging buffers.
	LinkGBps float64
	// PageableGBps is the rate of a transfer straight from pageable Go
	// memory, in GB/s: the level 1 and 2 routines that do not stream
	// through the staging buffers move their data at this rate.
	PageableGBps float64
	// StagesLevel2 is true when GEMV, GER, SYMV and TRMV stream their
	// matrix from host slices through the pinned staging buffers
	// (l2_staged.go), and so move it faster than PageableGBps.
	StagesLevel2 bool
	// SharesLevel2 is true when the host computes rows of GEMV and GER
	// from host slices beside the stream (Engine.L2Share, l2_share.go).
	SharesLevel2 bool
	// Launch is the fixed cost of one offloaded call: enqueueing the
	// transfers and kernels and waiting for them.
	Launch time.Duration
	// KHalf is the inner dimension k at which the device's GEMM kernels
	// run at half their rate: a work-group loads and stores its tile of C
	// whatever k is, so with a short k (the rank-32 trailing updates of
	// blocked factorizations) that fixed cost dominates. A level-3 call
	// with inner dimension k is taken to run at k/(k+KHalf) of the rate
	// (0: no such loss).
	KHalf float64
}

// EstimateCost estimates the device from its profile. The figures are
// rough on purpose (the policy needs the order of magnitude): GPUs get
// FP32 lanes per compute unit by vendor, CPUs 16 single-precision lanes
// per core, and a sustained fraction of the peak.
func EstimateCost(p platform.Profile) Cost {
	cm := Cost{CPUDevice: p.IsCPU(), FP64: p.FP64}
	ghz := float64(max(p.ClockMHz, 500)) / 1000
	cu := float64(max(p.ComputeUnits, 1))
	switch {
	case p.IsCPU():
		cm.GFLOPS32 = 0.5 * cu * ghz * 16 * 2
		cm.GFLOPS64 = cm.GFLOPS32 / 2
		cm.MemGBps = 10 * min(cu, 8)
		// GEMM's kernels read and write Go memory in place (hostOver); only
		// C is copied, once, when beta ≠ 0, so "transfers" are cheap; the
		// fixed cost of a call is three buffers over Go memory and a map
		// (BENCHMARKS.md, "Figures behind the code's choices").
		cm.LinkGBps = 30
		// Level 1 and 2 copy their operands in and out on one core.
		cm.PageableGBps = 10
		cm.Launch = 100 * time.Microsecond
		// A CPU device's GEMM rate grows with k up to about 64 (PoCL,
		// BENCHMARKS.md, "Figures behind the code's choices").
		cm.KHalf = 64
	default:
		lanes := 64.0
		if p.Vendor == platform.VendorNVIDIA {
			lanes = 128
		}
		cm.GFLOPS32 = 0.6 * cu * ghz * lanes * 2
		cm.GFLOPS64 = cm.GFLOPS32 / 16
		if p.Vendor == platform.VendorNVIDIA && p.ComputeCapability[0] >= 8 && p.ComputeCapability[1] == 0 {
			cm.GFLOPS64 = cm.GFLOPS32 / 2 // data-centre parts: half-rate FP64
		}
		cm.MemGBps = 500
		cm.LinkGBps = 20
		// The driver's own staging of pageable memory runs far below the
		// bus (BENCHMARKS.md, "Figures behind the code's choices").
		cm.PageableGBps = 6
		if p.HostUnifiedMemory {
			cm.LinkGBps = 40
			cm.PageableGBps = 20
		}
		cm.Launch = 50 * time.Microsecond
		// A GPU's GEMM with a short k runs well below its square rate
		// (BENCHMARKS.md, "Figures behind the code's choices").
		cm.KHalf = 256
	}
	return cm
}
