package gemm

import (
	"fmt"
	"math"
	"strconv"
)

// Kernel names in kernels/gemm.cl and kernels/gemm_mma.cl, and the GEMV
// route of gemm_skinny.cl.
const (
	KernelCPU    = "gemm_cpu"
	KernelDirect = "gemm_direct"
	KernelTiled  = "gemm_tiled"
	KernelMMA    = "gemm_mma"
	KernelGEMV   = "gemv"

	SourceFMA = "gemm.cl"
	SourceMMA = "gemm_mma.cl"
)

// Config is a complete parameter set for kernels/gemm.cl: the kernel to
// run and the value of every tuning define of all three kernels (the file is
// compiled whole, so spelling every value out keeps the host's work-size
// arithmetic in step with what the kernel was compiled with, whatever the
// Source's own defaults, and lets one program serve all three kernels), plus
// the parameters of gemm_mma.cl and the skinny routes (Choose chooses, the
// engine runs them).
type Config struct {
	Kernel string

	// gemm_tiled.
	MWG, NWG, KWG, MDIMC, NDIMC int
	VWM, VWN, VWA, VWB          int
	PADA, PADB                  int
	DoubleBuffer                bool

	// gemm_direct.
	DM, DN, DMDIMC, DNDIMC int

	// gemm_cpu: vector width, the CPU_MB×CPU_NB block of each transpose
	// combination, indexed [TRANSA][TRANSB], and the work-group size
	// (cpuLocal×1). A fixed work-group size matters on PoCL, which compiles
	// a kernel again for every work-group size it meets. cpuVecs, where
	// nonzero, overrides cpuVec for one transpose combination (each
	// combination is its own program).
	CPUVec   int
	CPUVecs  [2][2]int
	CPUBlock [2][2][2]int
	CPULocal int

	// gemm_mma (gemm_mma.cl): work-group tile, K step, warp tile, cp.async
	// stages, and MMA_EMULATE (portable emulation of the tensor-core
	// instructions, for tests on devices without them).
	MMAMWG, MMANWG, MMAKWG, WM, WN, Stages int
	MMAEmulate                             bool
	// splitRaw (float, SPLIT_RAW=1): 3xTF32's small parts go to the tensor
	// cores unrounded (gemm_mma.cl's SPLIT).
	SplitRaw bool
	// cpVec (CP_VEC=1): the tiles are copied with 16-byte cp.async groups
	// (gemm_mma.cl's CP_VEC). It needs 16-byte aligned operands: the
	// launcher turns it off for a call that is not (mmaCPVec).
	CPVec bool
	// mmaK (double, MMA_K): the k of each f64 mma.sync, 4 (0 means 4), 8
	// or 16: fewer, larger tensor-core instructions per K slice.
	MMAK int
	// issueMix (ISSUE_MIX=1): a K tile's copies are issued between the
	// tensor-core instructions of the step before, not all ahead of them.
	IssueMix bool
	// noRedo (tests only, NO_EXACT_REDO=1): 3xTF32 keeps tiles with
	// non-finite results as the tensor cores left them instead of computing
	// them again with FP32 FMAs, so a test sees the tensor-core path's own
	// result (the recomputation would hide a kernel that writes NaN).
	NoRedo bool
	// kmSwz (KM_SWZ=1, with cpVec): CP_VEC's k-major tiles are unpadded
	// and swizzled, which leaves room for a stage more.
	KMSwz bool
	// pipeFrag (double, PIPE_FRAG=1): fragments loaded a K sub-step ahead
	// into a second register set, tile k+1's first before tile k's last
	// mma.sync (the barrier moved ahead of them).
	PipeFrag bool
	// mmaTrans (gemm_mma), indexed [TRANSA][TRANSB]: a transpose
	// combination's own choice of issueMix and pipeFrag, where the database
	// entry gives one (forTrans applies it).
	MMATrans [2][2]MMASwitch

	// noOpt builds the program with -cl-opt-disable (tests: PoCL then
	// compiles a GEMM program about 8 times faster).
	NoOpt bool

	// Split-K: with splitK > 1 the K dimension is cut into splitK slices
	// of kslice (the last one shorter), each multiplied with the kernel
	// above into a scratch buffer, then summed into C.
	SplitK, KSlice int

	// SplitZ (gemm_mma or gemm_tiled, GRID_Z=1): with SplitZ > 1 one
	// launch cuts K into SplitZ slices, one per index of work-group
	// dimension 2, each written to its own slab of a scratch buffer that
	// gemm_splitk_reduce then sums into C: SplitZ times as many
	// work-groups for a C of few tiles.
	SplitZ int
	// BatchZ (gemm_mma, GRID_Z=2): the launch computes BatchZ products
	// whose operands follow one another densely, one per index of
	// work-group dimension 2 (the engine's GemmBatch sets it per call).
	BatchZ int
	// Z3M (gemm_mma, Z3M=1, with ZExpB, float; measurements): the 3M
	// method's three products of the complex operands on the expanding
	// kernel's tiles, in place of the 4M real product.
	Z3M bool
	// WarpsK (gemm_mma, WARPS_K): K groups of warps inside a work-group
	// (0 or 1: one). Each warp tile is held by WarpsK warps that multiply
	// different K sub-steps of every K tile; their sums are added in local
	// memory before C is written: more warps on a C of few tiles without a
	// second launch.
	WarpsK int
	// ZExpB (gemm_mma, ZEXP_B=1, with CPVec, B untransposed): B is the
	// complex matrix whose real expansion the product's B is (complex
	// GEMM's 4M product without its packed copy of B); the engine sets it
	// per call.
	ZExpB bool
}

// MMASwitch is one transpose combination's choice of the gemm_mma switches
// that leave the tile and the local memory as they are (set: given).
type MMASwitch struct {
	Set                bool
	IssueMix, PipeFrag bool
}

// ForTrans returns cfg with the switches of transpose combination (tA, tB)
// in place of its own, where it has them.
func (cfg Config) ForTrans(tA, tB bool) Config {
	if s := cfg.MMATrans[boolInt(tA)][boolInt(tB)]; s.Set {
		cfg.IssueMix, cfg.PipeFrag = s.IssueMix, s.PipeFrag
	}
	return cfg
}

// CPUVecFor is gemm_cpu's vector width for one transpose combination.
func (cfg Config) CPUVecFor(tA, tB bool) int {
	if v := cfg.CPUVecs[boolInt(tA)][boolInt(tB)]; v > 0 {
		return v
	}
	return cfg.CPUVec
}

// LocalBytes is the local memory gemm_tiled needs with cfg.
func (cfg Config) LocalBytes(prec int) int64 {
	nbuf := int64(1)
	if cfg.DoubleBuffer {
		nbuf = 2
	}
	return nbuf * int64(cfg.KWG) * int64(cfg.MWG+cfg.PADA+cfg.NWG+cfg.PADB) * int64(prec/8)
}

// Source returns the source file of cfg's kernel.
func (cfg Config) Source() string {
	if cfg.Kernel == KernelMMA {
		return SourceMMA
	}
	return SourceFMA
}

// Defines returns the -D defines of cfg's program for one transpose
// combination (PRECISION is added by the engine). vecAligned sets
// VEC_ALIGNED=1, which only gemm_tiled reads.
func (cfg Config) Defines(tA, tB, vecAligned bool) []string {
	d := func(name string, v int) string { return name + "=" + strconv.Itoa(v) }
	if cfg.Kernel == KernelMMA {
		cfg = cfg.ForTrans(tA, tB)
		out := []string{
			d("TRANSA", boolInt(tA)), d("TRANSB", boolInt(tB)),
			d("MWG", cfg.MMAMWG), d("NWG", cfg.MMANWG), d("KWG", cfg.MMAKWG),
			d("WM", cfg.WM), d("WN", cfg.WN),
		}
		if cfg.Stages > 0 {
			out = append(out, d("STAGES", cfg.Stages))
		}
		if cfg.SplitRaw {
			out = append(out, "SPLIT_RAW=1")
		}
		if cfg.CPVec {
			out = append(out, "CP_VEC=1")
		}
		if cfg.MMAK > 0 && cfg.MMAK != 4 {
			out = append(out, d("MMA_K", cfg.MMAK))
		}
		if cfg.IssueMix {
			out = append(out, "ISSUE_MIX=1")
		}
		if cfg.NoRedo {
			out = append(out, "NO_EXACT_REDO=1")
		}
		if cfg.KMSwz && cfg.CPVec {
			out = append(out, "KM_SWZ=1")
		}
		if cfg.PipeFrag {
			out = append(out, "PIPE_FRAG=1")
		}
		if cfg.MMAEmulate {
			out = append(out, "MMA_EMULATE=1")
		}
		if cfg.SplitZ > 1 {
			out = append(out, "GRID_Z=1")
		} else if cfg.BatchZ > 1 {
			out = append(out, "GRID_Z=2")
		}
		if cfg.ZExpB {
			out = append(out, "ZEXP_B=1")
		}
		if cfg.WarpsK > 1 {
			out = append(out, d("WARPS_K", cfg.WarpsK))
		}
		if cfg.Z3M {
			out = append(out, "Z3M=1")
		}
		if cfg.NoOpt {
			out = append(out, "-cl-opt-disable")
		}
		return out
	}
	cb := cfg.CPUBlock[boolInt(tA)][boolInt(tB)]
	out := []string{
		d("TRANSA", boolInt(tA)), d("TRANSB", boolInt(tB)),
		d("MWG", cfg.MWG), d("NWG", cfg.NWG), d("KWG", cfg.KWG),
		d("MDIMC", cfg.MDIMC), d("NDIMC", cfg.NDIMC),
		d("VWM", cfg.VWM), d("VWN", cfg.VWN), d("VWA", cfg.VWA), d("VWB", cfg.VWB),
		d("PADA", cfg.PADA), d("PADB", cfg.PADB), d("DOUBLE_BUFFER", boolInt(cfg.DoubleBuffer)),
		d("DM", cfg.DM), d("DN", cfg.DN), d("DMDIMC", cfg.DMDIMC), d("DNDIMC", cfg.DNDIMC),
		d("CPU_VEC", cfg.CPUVecFor(tA, tB)), d("CPU_MB", cb[0]), d("CPU_NB", cb[1]),
	}
	if vecAligned {
		out = append(out, "VEC_ALIGNED=1")
	}
	if cfg.Kernel == KernelTiled && cfg.SplitZ > 1 {
		out = append(out, "GRID_Z=1")
	}
	if cfg.NoOpt {
		out = append(out, "-cl-opt-disable")
	}
	return out
}

// Work returns the global and local work sizes of cfg's kernel for an m×n
// C. (gemm_cpu's work-items past the edge of C return at once.)
func (cfg Config) Work(tA, tB bool, m, n int) (global, local []int) {
	switch cfg.Kernel {
	case KernelTiled:
		if cfg.SplitZ > 1 {
			return []int{ceilDiv(n, cfg.NWG) * cfg.NDIMC, ceilDiv(m, cfg.MWG) * cfg.MDIMC, cfg.SplitZ}, []int{cfg.NDIMC, cfg.MDIMC, 1}
		}
		return []int{ceilDiv(n, cfg.NWG) * cfg.NDIMC, ceilDiv(m, cfg.MWG) * cfg.MDIMC}, []int{cfg.NDIMC, cfg.MDIMC}
	case KernelDirect:
		return []int{ceilDiv(n, cfg.DN*cfg.DNDIMC) * cfg.DNDIMC, ceilDiv(m, cfg.DM*cfg.DMDIMC) * cfg.DMDIMC}, []int{cfg.DNDIMC, cfg.DMDIMC}
	case KernelMMA:
		nt := cfg.MMAThreads()
		if z := max(cfg.SplitZ, cfg.BatchZ); z > 1 {
			return []int{ceilDiv(n, cfg.MMANWG) * nt, ceilDiv(m, cfg.MMAMWG), z}, []int{nt, 1, 1}
		}
		return []int{ceilDiv(n, cfg.MMANWG) * nt, ceilDiv(m, cfg.MMAMWG)}, []int{nt, 1}
	default:
		cb := cfg.CPUBlock[boolInt(tA)][boolInt(tB)]
		return []int{groups(ceilDiv(m, cb[0]), cfg.CPULocal), ceilDiv(n, cb[1])}, []int{cfg.CPULocal, 1}
	}
}

// VecAligned reports whether gemm_tiled may use aligned vector accesses:
// offA and lda multiples of VWA, offB and ldb of VWB, offC and ldc of VWN.
func (cfg Config) VecAligned(offA, lda, offB, ldb, offC, ldc int) bool {
	return offA%cfg.VWA == 0 && lda%cfg.VWA == 0 &&
		offB%cfg.VWB == 0 && ldb%cfg.VWB == 0 &&
		offC%cfg.VWN == 0 && ldc%cfg.VWN == 0
}

// MMACPVec reports whether gemm_mma may run cfg's CP_VEC=1 program for a
// call whose A and B start at elements offA, offB of their buffers with
// leading dimensions lda, ldb, in elements of prec bits: CP_VEC=1 copies
// 16-byte groups, and cp.async needs every group's source 16-byte aligned,
// which holds when the offsets and leading dimensions are multiples of
// 16/(prec/8) elements (2 doubles, 4 floats) and the buffers start 16-byte
// aligned. clCreateBuffer's do; buffers over Go memory (hostOver) start
// wherever the slice does, so a call with one (hostOver true) is not
// aligned. Otherwise the launcher runs the CP_VEC=0 program (a program of
// its own: programs are cached by their defines).
func (cfg Config) MMACPVec(prec int, hostOver bool, offA, lda, offB, ldb int) bool {
	v := 16 / (prec / 8)
	return cfg.CPVec && !hostOver && offA%v == 0 && lda%v == 0 && offB%v == 0 && ldb%v == 0
}

// WithoutCPVec is what runs a call that cfg's CP_VEC=1 program cannot copy
// (see mmaCPVec). 3xTF32 configured with 16-byte copies runs only with
// them: such an SGEMM call takes the gemm.cl kernel of the base fields
// (3xTF32 beats the FMA kernel only with those copies: BENCHMARKS.md, "Figures behind the code's choices"). DGEMM runs the CP_VEC=0 program, whose k-major tiles are
// padded: it gets fewer stages where it would not fit in the 48 KiB a
// Work-group has on the devices gemm_mma runs on (NVIDIA sm_80+), or in
// what the CP_VEC=1 program took if that was more.
func (cfg Config) WithoutCPVec(prec int) Config {
	limit := max(cfg.MMALocalBytes(prec), 48<<10)
	cfg.CPVec = false
	if prec == 32 {
		cfg.Kernel = KernelTiled
		return cfg
	}
	for cfg.Stages > 2 && cfg.MMALocalBytes(prec) > limit {
		cfg.Stages--
	}
	return cfg
}

// TiledFits reports whether gemm_tiled's (or gemm_mma's) 32-bit index
// arithmetic holds for these leading dimensions: ld·max(MWG, NWG, KWG, 64)
// < 2³¹.
func (cfg Config) TiledFits(lds ...int) bool {
	t := max(cfg.MWG, cfg.NWG, cfg.KWG, 64)
	if cfg.Kernel == KernelMMA {
		t = max(cfg.MMAMWG, cfg.MMANWG, cfg.MMAKWG, 64)
	}
	for _, ld := range lds {
		if int64(ld)*int64(t) >= math.MaxInt32 {
			return false
		}
	}
	return true
}

// Name describes cfg in a few characters (test output, tools).
func (cfg Config) Name() string {
	switch cfg.Kernel {
	case KernelTiled:
		return fmt.Sprintf("tiled_%dx%dx%d_%dx%d_v%d%d%d%d_db%d", cfg.MWG, cfg.NWG, cfg.KWG, cfg.MDIMC, cfg.NDIMC,
			cfg.VWM, cfg.VWN, cfg.VWA, cfg.VWB, boolInt(cfg.DoubleBuffer))
	case KernelDirect:
		return fmt.Sprintf("direct_%dx%d_%dx%d", cfg.DM, cfg.DN, cfg.DMDIMC, cfg.DNDIMC)
	case KernelCPU:
		return fmt.Sprintf("cpu_v%d%v_%v", cfg.CPUVec, cfg.CPUVecs, cfg.CPUBlock)
	case KernelMMA:
		name := fmt.Sprintf("mma_%dx%dx%d_w%dx%d", cfg.MMAMWG, cfg.MMANWG, cfg.MMAKWG, cfg.WM, cfg.WN)
		if cfg.SplitRaw {
			name += "_splitraw"
		}
		if cfg.CPVec {
			name += "_cpvec"
		}
		if cfg.MMAK > 0 {
			name += fmt.Sprintf("_k%d", cfg.MMAK)
		}
		if cfg.IssueMix {
			name += "_mix"
		}
		if cfg.KMSwz {
			name += "_kmswz"
		}
		if cfg.PipeFrag {
			name += "_pipe"
		}
		if cfg.WarpsK > 1 {
			name += fmt.Sprintf("_wk%d", cfg.WarpsK)
		}
		if cfg.Z3M {
			name += "_z3m"
		}
		if cfg.Stages > 0 {
			name += fmt.Sprintf("_s%d", cfg.Stages)
		}
		if cfg.SplitZ > 1 {
			name += fmt.Sprintf("_z%d", cfg.SplitZ)
		}
		if cfg.BatchZ > 1 {
			name += fmt.Sprintf("_b%d", cfg.BatchZ)
		}
		if cfg.ZExpB {
			name += "_zexp"
		}
		return name
	}
	return cfg.Kernel
}
