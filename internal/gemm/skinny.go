package gemm

// Skinny GEMMs (kernels/gemm_skinny.cl). Two shapes leave a tiled GEMM
// kernel with little to do per work-group or few work-groups:
//
//   - m == 1 or n == 1: the product is a matrix-vector product. It is
//     routed to the gemv kernels, which read the matrix operand once with
//     coalesced accesses and reduce in local memory. (The level-2 layer's
//     enqueue-only l2mvOnDevice takes its matrix at element 0 of a buffer;
//     GEMM operands sit at any offset, as TRSM's blocked updates need, so
//     the route has its own kernels that take offsets.)
//   - few work-groups with a long K (the tiles cover C in fewer
//     work-groups than the device has compute units): K is split into S
//     slices, each slice multiplied into its own m×n scratch matrix with
//     alpha and beta = 0, then gemm_splitk_reduce computes
//     C = beta·C + Σ slices. gemm_tiled and gemm_mma take the slices as
//     work-group dimension 2 of one launch (SplitZ); the other kernels
//     run one launch per slice (SplitK).

const SourceSkinny = "gemm_skinny.cl"

// Work-group shapes; they must match gemm_skinny.cl.
const (
	GemvRowWG    = 64 // GV_ROW_WG
	GemvColX     = 32 // GV_COL_X
	GemvColY     = 8  // GV_COL_Y
	SplitKMinK   = 128
	SplitKMaxS   = 512
	SplitKMaxMem = 64 << 20 // bytes of scratch at most
)

// SkinnyRoute applies the GEMV and split-K routes to cfg, the choice for an
// m×n×k GEMM on device p in precision prec.
//
// GEMV: m == 1 or n == 1 on any device. Split-K: when the chosen kernel's
// Work-groups do not fill the device (FillsDevice: fewer than 7/8 of the
// compute units) and k is longer than both m and n, S = ceil(2·CUs / work-groups) slices (so that S times the
// Work-groups reach twice the compute units), each at least SplitKMinK long
// (a multiple of the kernel's K step), at most SplitKMaxS slices and
// SplitKMaxMem bytes of scratch.
func SkinnyRoute(p Device, prec int, cfg Config, m, n, k int) Config {
	if m == 1 || n == 1 {
		cfg.Kernel = KernelGEMV
		return cfg
	}
	wg := cfg.WorkGroups(m, n)
	cus := max(p.ComputeUnits, 1)
	if wg <= 0 || FillsDevice(wg, cus) || k <= max(m, n) || k < 2*SplitKMinK {
		return cfg
	}
	s := min(ceilDiv(2*cus, wg), k/SplitKMinK, SplitKMaxS)
	s = min(s, SplitKMaxMem/max(m*n*prec/8, 1))
	if s < 2 {
		return cfg
	}
	if cfg.Kernel == KernelTiled || cfg.Kernel == KernelMMA {
		return WithSplitZ(cfg, k, s)
	}
	return WithSplitK(cfg, k, s)
}

// WithSplitZ sets cfg (gemm_tiled or gemm_mma) to split K (of length k)
// into at most s slices in one launch (GRID_Z=1), as many as the kernel's
// slice length ceil(k/(Z·step))·step leaves non-empty. Each slice of the
// split-K route (WithSplitK) is a launch of its own; here the slices are
// work-groups of one launch.
func WithSplitZ(cfg Config, k, s int) Config {
	step := cfg.KWG
	if cfg.Kernel == KernelMMA {
		step = cfg.MMAKWG
	}
	step = max(step, 1)
	z := s
	for z > 1 {
		kc := ceilDiv(k, z*step) * step
		nz := ceilDiv(k, kc)
		if nz == z {
			break
		}
		z = nz
	}
	if z < 2 {
		return cfg
	}
	cfg.SplitZ = z
	return cfg
}

// WithSplitK sets cfg to split K (of length k) into s slices (s+1 when the
// rounding leaves a remainder), each but the last a multiple of the
// kernel's K step.
func WithSplitK(cfg Config, k, s int) Config {
	step := 16
	switch cfg.Kernel {
	case KernelTiled:
		step = cfg.KWG
	case KernelMMA:
		step = cfg.MMAKWG
	}
	step = max(step, 1)
	// Round the slice down, so that there are at least s slices (one more,
	// shorter, at most).
	cfg.KSlice = max(k/s/step*step, step)
	cfg.SplitK = ceilDiv(k, cfg.KSlice)
	if cfg.SplitK < 2 {
		cfg.SplitK, cfg.KSlice = 0, 0
	}
	return cfg
}

// WorkGroups is the number of work-groups cfg's kernel runs for an m×n C
// (for gemm_cpu, groups of cpuLocal work-items).
func (cfg Config) WorkGroups(m, n int) int {
	switch cfg.Kernel {
	case KernelTiled:
		return ceilDiv(m, cfg.MWG) * ceilDiv(n, cfg.NWG)
	case KernelMMA:
		return ceilDiv(m, cfg.MMAMWG) * ceilDiv(n, cfg.MMANWG)
	case KernelDirect:
		return ceilDiv(m, cfg.DM*cfg.DMDIMC) * ceilDiv(n, cfg.DN*cfg.DNDIMC)
	case KernelCPU:
		cb := cfg.CPUBlock[0][0]
		return ceilDiv(ceilDiv(m, max(cb[0], 1))*ceilDiv(n, max(cb[1], 1)), max(cfg.CPULocal, 1))
	}
	return 0
}
