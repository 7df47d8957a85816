package cllapack

import "github.com/gocompute/opencl/platform"

// deviceDefaults sets the designs measured fastest on the device's kind
// (BENCHMARKS.md, "Device LAPACK, resident", and for CPU devices "LU and
// Cholesky from Go slices against gonum: CPU-device defaults"), where
// they differ from the portable ones New starts from (block sizes only
// when nbSet is false: WithBlockSize chose them). GPUs keep those.
//
// A CPU device (PoCL) shares the host's memory and cores, so on it:
//   - creating a buffer of a few megabytes costs more than the
//     factorization's upload and read back together, so the device
//     matrices of calls from Go slices are kept for the next call (reuse);
//   - tri_band, one work-item per element of the band, is slow, and
//     Dpotrf from a slice holds the original on the host anyway, so the
//     triangle it must not touch is restored there (hostBand);
//   - potf2_inv runs a diagonal block in one work-group, that is on one
//     core, and the device waits for it; the host's Dpotf2 does the same
//     work on one core while the device runs the trailing update
//     (look-ahead), so the diagonal blocks go to the host (hostDiag). It
//     also leaves potf2_inv's register version, whose compile takes
//     minutes, unused;
//   - likewise LU's panels go to the host's Dgetf2 (hostLU): on a quiet
//     machine 1.4–1.5× faster than the one-work-group leaves, while QR's
//     device leaves stay faster than the host's;
//   - laswp builds each work-group's permutation behind barriers, which
//     PoCL runs slowly, for 16 columns; laswp_rows moves the rows one
//     interchange after another, a run of columns a work-item (laswpRows);
//   - a device matrix whose rows are a whole number of 4 KiB pages gets
//     rows a cache line longer, so that a column's elements do not
//     compete for the same cache sets (padRows);
//   - LU's host panels are cpuLUNB wide: the host's share of the work (the
//     panels, on one core) grows with the width, and the device's
//     (TRSM and GEMM, on both) shrinks;
//   - Cholesky's slabs are cpuSlab high: a slab's GEMM computes its
//     diagonal square whole, and on a CPU device flops, not launches,
//     are what a GEMM costs;
//   - gonum's own code on the same cores is faster below larger orders
//     than on a GPU, and for QR below larger orders still (cpuCrossover,
//     cpuQRCrossover), unless WithCrossover chose (crossoverSet).
func (impl *Implementation) deviceDefaults(nbSet, crossoverSet bool) {
	rt := impl.blas.Runtime()
	if rt == nil {
		return
	}
	if rt.Device().Profile().IsGPU() {
		impl.gpuDefaults(nbSet)
		return
	}
	if rt.Device().Profile().IsCPU() {
		impl.reuse, impl.hostBand, impl.hostDiag, impl.hostLU = true, true, true, true
		impl.laswpRows, impl.padRows, impl.slab = true, true, cpuSlab
		if !nbSet {
			impl.luNB = cpuLUNB
		}
		if !crossoverSet {
			impl.crossover, impl.qrCrossover = cpuCrossover, cpuQRCrossover
		}
	}
}

// The Auto policy's crossovers on CPU devices (BENCHMARKS.md, "Device
// LAPACK's crossover on PoCL" and "LU's row interchanges and triangular
// solves by runs of columns"): LU and Cholesky win from 512 (Cholesky
// lost at 384), QR lost at 1024 and won at 2048.
const (
	cpuCrossover   = 512
	cpuQRCrossover = 2048
)

// cpuLUNB is the width of LU's host panels on CPU devices (BENCHMARKS.md,
// "LU's row interchanges and triangular solves by runs of columns").
const cpuLUNB = 64

// cpuSlab is Cholesky's slab on CPU devices (BENCHMARKS.md, "PoCL 3.1 on
// an AVX2 machine: GEMM's N blocks").
const cpuSlab = 128

// luBlock is the width of the host panels of LU (getrfHost).
func (impl *Implementation) luBlock() int {
	if impl.luNB > 0 {
		return impl.luNB
	}
	return impl.nb
}

// potrfBlock is Potrf's block size.
func (impl *Implementation) potrfBlock() int {
	if impl.potrfNB > 0 {
		return impl.potrfNB
	}
	return impl.nb
}

// gpuDefaults sets the designs measured fastest on a GPU (BENCHMARKS.md,
// "NVIDIA H200, 2026-12-02 (second session)"). There a step's
// one-work-group kernel runs on one compute unit while the rest of the
// device waits, so:
//   - Cholesky's diagonal blocks are factorised and inverted in registers
//     in one pass (potfRegs), on a second queue while the main one
//     updates the rest of the trailing matrix (ahead), 64 wide
//     (gpuPotrfNB: blocks of 128 in registers measured slower), in
//     block rows of 1024 (gpuPotrfOuter), each factorised in those
//     steps and then the rest of the trailing matrix updated by GEMMs
//     with k = 1024, not 64 (BENCHMARKS.md, "NVIDIA H200, 2026-12-02
//     (fifth session)": block rows of 256, 512 and 1024 were 1.2–1.45×
//     faster at 4096 and 1.7–2.0× at 8192, 1024 the fastest);
//   - LU's leaves are 8 columns wide (gpuLeaf) with a row's columns on
//     neighbouring work-items (luCoal), so that loads and stores of a
//     leaf's update touch a few cache lines, not one per work-item;
//   - QR's leaves are 4 columns wide (gpuQRLeaf);
//   - the matrices of calls from Go slices go through a pinned buffer
//     (stageIO) unless the GPU shares the host's memory;
//   - on NVIDIA's GPUs, LU's panels are one getrf_grid launch each, over
//     every compute unit (gridLU), once the probe passes. Its work-groups
//     meet at a barrier OpenCL does not promise: validated there only
//     (on PoCL two groups met but chose wrong pivots at times; see
//     docs/notes.md). There getrf_grid reduces its pivot candidates by
//     warp shuffles (gridShfl: 1.2× LU at 4096, 1.14× at 8192), and QR's
//     next panel runs on a second queue while the main one updates the
//     rest of the trailing matrix (qrAhead: 1.02× at 4096, 1.08× at 8192;
//     BENCHMARKS.md, "NVIDIA H200, 2026-12-02 (sixth session)"). LU's
//     look-ahead (luAhead) stays off: its panel takes every compute unit,
//     so it waits for the update's GEMM instead of running beside it, and
//     it measured 2–3 % slower. There LU's trailing updates also wait for
//     column blocks of 256 (luOuter = gpuLUOuter), so that their GEMMs
//     have k = 256, not the panel's 128: on an H100 1.09× at 8192 and a
//     tie at 4096, where blocks of 512 and 1024 were slower at 4096
//     (BENCHMARKS.md, "NVIDIA H100 in place of the H200, 2026-12-06
//     (thirty-fourth session)");
//   - the condition estimates that mat's LU, Cholesky and QR compute after
//     the factorization solve their triangular systems on the device
//     (condDevice) from condDeviceMin on: at 4096 they took half the
//     time they took on the host's cores (BENCHMARKS.md, "NVIDIA H200,
//     2026-12-03");
//   - on NVIDIA's GPUs, where the grid probe passes, Cholesky's block rows
//     are one potrf_row launch each (gridPotrf), each first updated by the
//     rows above it in one GEMM (left-looking): at 2048, 4096 and 8192
//     1.22–1.25× the launch-a-step block rows, where right-looking
//     potrf_row tied at 4096 and lost at 8192 (BENCHMARKS.md, "NVIDIA H200,
//     2026-12-04 (eighteenth session)"). Its steps are 32 wide
//     (gpuPotrfRowNB), in block rows of 384 (defaultPotrfRowH): a block
//     row then has twice the tiles of steps of 64, and so more of the
//     compute units work (1.04–1.45× steps of 64 in rows of 512 from 2048
//     to 8192; "nineteenth session"). From order 6144
//     (gpuPotrfWide) the block rows are 1024 high, each factorised by
//     four potrf_row launches of 256 rows with a GEMM over the rest of
//     the block row after each: the GEMMs before the block rows then have
//     m = 1024, and on an H100 that was 1.06–1.13× the rows of 384 from
//     6144 to 12288 and a tie at 4096 (BENCHMARKS.md, "NVIDIA H100 in place
//     of the H200, 2026-12-05 (twenty-eighth session)"). Without potrf_row
//     (the probe failed) the launch-a-step path keeps steps of 32 too.
func (impl *Implementation) gpuDefaults(nbSet bool) {
	impl.potfRegs, impl.ahead, impl.condDevice = true, true, true
	impl.stageIO = !impl.blas.Runtime().Device().Profile().HostUnifiedMemory
	impl.gridLU = impl.blas.Runtime().Device().Profile().Vendor == platform.VendorNVIDIA
	impl.gridQR = impl.gridLU
	impl.qrAhead, impl.gridShfl = impl.gridQR, impl.gridLU
	impl.gridPotrf = impl.gridLU
	if impl.gridLU {
		impl.luOuter = gpuLUOuter
	}
	impl.leaf, impl.luCoal, impl.qrLeaf = gpuLeaf, true, gpuQRLeaf
	if !nbSet {
		impl.potrfNB, impl.potrfOuter = gpuPotrfNB, gpuPotrfOuter
		if impl.gridPotrf {
			impl.potrfNB = gpuPotrfRowNB
		}
	}
	if impl.gridPotrf {
		impl.potrfWide = gpuPotrfWide
	}
}

// gpuPotrfWide is the shape of potrf_row's block rows on GPUs from the
// order where it measured faster than potrfRowH in one launch.
var gpuPotrfWide = potrfShape{min: 6144, h: 1024, sub: 256}

const (
	gpuPotrfNB    = 64
	gpuPotrfRowNB = 32 // potrf_row's steps: twice the tiles, so more work-groups
	gpuPotrfOuter = 1024
	gpuLUOuter    = 256 // LU's column blocks with getrf_grid's panels of 128
	gpuLeaf       = 8
	gpuQRLeaf     = 4
)
