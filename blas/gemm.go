package clblas

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

// GEMM on device buffers. gemmOnDevice is the one entry point the level-3
// routines (and later the device-resident API) use: it enqueues
// C = alpha·op(A)·op(B) + beta·C on buffers already on the device, with
// the kernel of kernels/gemm.cl that gemmParams chooses.

// Kernel names in kernels/gemm.cl and kernels/gemm_mma.cl, and the GEMV
// route of gemm_skinny.cl.
const (
	gemmKernelCPU    = "gemm_cpu"
	gemmKernelDirect = "gemm_direct"
	gemmKernelTiled  = "gemm_tiled"
	gemmKernelMMA    = "gemm_mma"
	gemmKernelGEMV   = "gemv"

	gemmFile = "gemm.cl"
	mmaFile  = "gemm_mma.cl"
)

// gemmConfig is a complete parameter set for kernels/gemm.cl: the kernel to
// run and the value of every tuning define of all three kernels (the file is
// compiled whole, so spelling every value out keeps the host's work-size
// arithmetic in step with what the kernel was compiled with, whatever the
// file's own defaults, and lets one program serve all three kernels), plus
// the parameters of gemm_mma.cl and the skinny routes (tuning.go chooses,
// gemm_skinny.go runs them).
type gemmConfig struct {
	kernel string

	// gemm_tiled.
	mwg, nwg, kwg, mdimc, ndimc int
	vwm, vwn, vwa, vwb          int
	pada, padb                  int
	doubleBuffer                bool

	// gemm_direct.
	dm, dn, dmdimc, dndimc int

	// gemm_cpu: vector width, the CPU_MB×CPU_NB block of each transpose
	// combination, indexed [TRANSA][TRANSB], and the work-group size
	// (cpuLocal×1). A fixed work-group size matters on PoCL, which compiles
	// a kernel again for every work-group size it meets. cpuVecs, where
	// nonzero, overrides cpuVec for one transpose combination (each
	// combination is its own program).
	cpuVec   int
	cpuVecs  [2][2]int
	cpuBlock [2][2][2]int
	cpuLocal int

	// gemm_mma (gemm_mma.cl): work-group tile, K step, warp tile, cp.async
	// stages, and MMA_EMULATE (portable emulation of the tensor-core
	// instructions, for tests on devices without them).
	mmaMWG, mmaNWG, mmaKWG, wm, wn, stages int
	mmaEmulate                             bool
	// splitRaw (float, SPLIT_RAW=1): 3xTF32's small parts go to the tensor
	// cores unrounded (gemm_mma.cl's SPLIT).
	splitRaw bool
	// cpVec (CP_VEC=1): the tiles are copied with 16-byte cp.async groups
	// (gemm_mma.cl's CP_VEC). It needs 16-byte aligned operands: the
	// launcher turns it off for a call that is not (mmaCPVec).
	cpVec bool
	// mmaK (double, MMA_K): the k of each f64 mma.sync, 4 (0 means 4), 8
	// or 16: fewer, larger tensor-core instructions per K slice.
	mmaK int
	// issueMix (ISSUE_MIX=1): a K tile's copies are issued between the
	// tensor-core instructions of the step before, not all ahead of them.
	issueMix bool
	// noRedo (tests only, NO_EXACT_REDO=1): 3xTF32 keeps tiles with
	// non-finite results as the tensor cores left them instead of computing
	// them again with FP32 FMAs, so a test sees the tensor-core path's own
	// result (the recomputation would hide a kernel that writes NaN).
	noRedo bool
	// kmSwz (KM_SWZ=1, with cpVec): CP_VEC's k-major tiles are unpadded
	// and swizzled, which leaves room for a stage more.
	kmSwz bool
	// pipeFrag (double, PIPE_FRAG=1): fragments loaded a K sub-step ahead
	// into a second register set, tile k+1's first before tile k's last
	// mma.sync (the barrier moved ahead of them).
	pipeFrag bool
	// mmaTrans (gemm_mma), indexed [TRANSA][TRANSB]: a transpose
	// combination's own choice of issueMix and pipeFrag, where the database
	// entry gives one (forTrans applies it).
	mmaTrans [2][2]mmaSwitch

	// noOpt builds the program with -cl-opt-disable (tests: PoCL then
	// compiles a GEMM program about 8 times faster).
	noOpt bool

	// Split-K: with splitK > 1 the K dimension is cut into splitK slices
	// of kslice (the last one shorter), each multiplied with the kernel
	// above into a scratch buffer, then summed into C.
	splitK, kslice int
}

// mmaSwitch is one transpose combination's choice of the gemm_mma switches
// that leave the tile and the local memory as they are (set: given).
type mmaSwitch struct {
	set                bool
	issueMix, pipeFrag bool
}

// forTrans returns cfg with the switches of transpose combination (tA, tB)
// in place of its own, where it has them.
func (cfg gemmConfig) forTrans(tA, tB bool) gemmConfig {
	if s := cfg.mmaTrans[l3Bool(tA)][l3Bool(tB)]; s.set {
		cfg.issueMix, cfg.pipeFrag = s.issueMix, s.pipeFrag
	}
	return cfg
}

// gemmParams chooses the GEMM kernel and its parameters for a device, a
// precision (32 or 64) and a shape, with the tensor-core mode GOCL_TENSOR
// asks for. gemmChoose (tuning.go) makes the choice: the tuning database
// (kernels/gemm_tuning.json) for devices it knows, defaults derived from
// the device's limits otherwise, the tensor-core kernel where it pays, and
// the GEMV and split-K routes for skinny shapes.
func gemmParams(prof platform.Profile, prec int, m, n, k int) gemmConfig {
	return gemmChoose(prof, prec, m, n, k, tensorFromEnv())
}

// cpuVecFor is gemm_cpu's vector width for one transpose combination.
func (cfg gemmConfig) cpuVecFor(tA, tB bool) int {
	if v := cfg.cpuVecs[l3Bool(tA)][l3Bool(tB)]; v > 0 {
		return v
	}
	return cfg.cpuVec
}

// localBytes is the local memory gemm_tiled needs with cfg.
func (cfg gemmConfig) localBytes(prec int) int64 {
	nbuf := int64(1)
	if cfg.doubleBuffer {
		nbuf = 2
	}
	return nbuf * int64(cfg.kwg) * int64(cfg.mwg+cfg.pada+cfg.nwg+cfg.padb) * int64(prec/8)
}

// file returns the source file of cfg's kernel.
func (cfg gemmConfig) file() string {
	if cfg.kernel == gemmKernelMMA {
		return mmaFile
	}
	return gemmFile
}

// defines returns the -D defines of cfg's program for one transpose
// combination (PRECISION is added by the engine). vecAligned sets
// VEC_ALIGNED=1, which only gemm_tiled reads.
func (cfg gemmConfig) defines(tA, tB, vecAligned bool) []string {
	d := func(name string, v int) string { return name + "=" + strconv.Itoa(v) }
	if cfg.kernel == gemmKernelMMA {
		cfg = cfg.forTrans(tA, tB)
		out := []string{
			d("TRANSA", l3Bool(tA)), d("TRANSB", l3Bool(tB)),
			d("MWG", cfg.mmaMWG), d("NWG", cfg.mmaNWG), d("KWG", cfg.mmaKWG),
			d("WM", cfg.wm), d("WN", cfg.wn),
		}
		if cfg.stages > 0 {
			out = append(out, d("STAGES", cfg.stages))
		}
		if cfg.splitRaw {
			out = append(out, "SPLIT_RAW=1")
		}
		if cfg.cpVec {
			out = append(out, "CP_VEC=1")
		}
		if cfg.mmaK > 0 && cfg.mmaK != 4 {
			out = append(out, d("MMA_K", cfg.mmaK))
		}
		if cfg.issueMix {
			out = append(out, "ISSUE_MIX=1")
		}
		if cfg.noRedo {
			out = append(out, "NO_EXACT_REDO=1")
		}
		if cfg.kmSwz && cfg.cpVec {
			out = append(out, "KM_SWZ=1")
		}
		if cfg.pipeFrag {
			out = append(out, "PIPE_FRAG=1")
		}
		if cfg.mmaEmulate {
			out = append(out, "MMA_EMULATE=1")
		}
		if cfg.noOpt {
			out = append(out, "-cl-opt-disable")
		}
		return out
	}
	cb := cfg.cpuBlock[l3Bool(tA)][l3Bool(tB)]
	out := []string{
		d("TRANSA", l3Bool(tA)), d("TRANSB", l3Bool(tB)),
		d("MWG", cfg.mwg), d("NWG", cfg.nwg), d("KWG", cfg.kwg),
		d("MDIMC", cfg.mdimc), d("NDIMC", cfg.ndimc),
		d("VWM", cfg.vwm), d("VWN", cfg.vwn), d("VWA", cfg.vwa), d("VWB", cfg.vwb),
		d("PADA", cfg.pada), d("PADB", cfg.padb), d("DOUBLE_BUFFER", l3Bool(cfg.doubleBuffer)),
		d("DM", cfg.dm), d("DN", cfg.dn), d("DMDIMC", cfg.dmdimc), d("DNDIMC", cfg.dndimc),
		d("CPU_VEC", cfg.cpuVecFor(tA, tB)), d("CPU_MB", cb[0]), d("CPU_NB", cb[1]),
	}
	if vecAligned {
		out = append(out, "VEC_ALIGNED=1")
	}
	if cfg.noOpt {
		out = append(out, "-cl-opt-disable")
	}
	return out
}

// work returns the global and local work sizes of cfg's kernel for an m×n
// C. (gemm_cpu's work-items past the edge of C return at once.)
func (cfg gemmConfig) work(tA, tB bool, m, n int) (global, local []int) {
	switch cfg.kernel {
	case gemmKernelTiled:
		return []int{l3CeilDiv(n, cfg.nwg) * cfg.ndimc, l3CeilDiv(m, cfg.mwg) * cfg.mdimc}, []int{cfg.ndimc, cfg.mdimc}
	case gemmKernelDirect:
		return []int{l3CeilDiv(n, cfg.dn*cfg.dndimc) * cfg.dndimc, l3CeilDiv(m, cfg.dm*cfg.dmdimc) * cfg.dmdimc}, []int{cfg.dndimc, cfg.dmdimc}
	case gemmKernelMMA:
		nt := cfg.mmaThreads()
		return []int{l3CeilDiv(n, cfg.mmaNWG) * nt, l3CeilDiv(m, cfg.mmaMWG)}, []int{nt, 1}
	default:
		cb := cfg.cpuBlock[l3Bool(tA)][l3Bool(tB)]
		return []int{groups(l3CeilDiv(m, cb[0]), cfg.cpuLocal), l3CeilDiv(n, cb[1])}, []int{cfg.cpuLocal, 1}
	}
}

// vecAligned reports whether gemm_tiled may use aligned vector accesses:
// offA and lda multiples of VWA, offB and ldb of VWB, offC and ldc of VWN.
func (cfg gemmConfig) vecAligned(offA, lda, offB, ldb, offC, ldc int) bool {
	return offA%cfg.vwa == 0 && lda%cfg.vwa == 0 &&
		offB%cfg.vwb == 0 && ldb%cfg.vwb == 0 &&
		offC%cfg.vwn == 0 && ldc%cfg.vwn == 0
}

// mmaCPVec reports whether gemm_mma may run cfg's CP_VEC=1 program for a
// call whose A and B start at elements offA, offB of their buffers with
// leading dimensions lda, ldb, in elements of prec bits: CP_VEC=1 copies
// 16-byte groups, and cp.async needs every group's source 16-byte aligned,
// which holds when the offsets and leading dimensions are multiples of
// 16/(prec/8) elements (2 doubles, 4 floats) and the buffers start 16-byte
// aligned. clCreateBuffer's do; buffers over Go memory (hostOver) start
// wherever the slice does, so a call with one (hostOver true) is not
// aligned. Otherwise the launcher runs the CP_VEC=0 program (a program of
// its own: programs are cached by their defines).
func (cfg gemmConfig) mmaCPVec(prec int, hostOver bool, offA, lda, offB, ldb int) bool {
	v := 16 / (prec / 8)
	return cfg.cpVec && !hostOver && offA%v == 0 && lda%v == 0 && offB%v == 0 && ldb%v == 0
}

// withoutCPVec is what runs a call that cfg's CP_VEC=1 program cannot copy
// (see mmaCPVec). 3xTF32 configured with 16-byte copies runs only with
// them: such an SGEMM call takes the gemm.cl kernel of the base fields (on
// the H200 3xTF32 beats the FMA kernel only with those copies: the
// database's tile ran 36 TFLOP/s with CP_VEC=0, NN, n = 4096; the FMA
// kernel 46–48). DGEMM runs the CP_VEC=0 program, whose k-major tiles are
// padded: it gets fewer stages where it would not fit in the 48 KiB a
// work-group has on the devices gemm_mma runs on (NVIDIA sm_80+), or in
// what the CP_VEC=1 program took if that was more.
func (cfg gemmConfig) withoutCPVec(prec int) gemmConfig {
	limit := max(cfg.mmaLocalBytes(prec), 48<<10)
	cfg.cpVec = false
	if prec == 32 {
		cfg.kernel = gemmKernelTiled
		return cfg
	}
	for cfg.stages > 2 && cfg.mmaLocalBytes(prec) > limit {
		cfg.stages--
	}
	return cfg
}

// tiledFits reports whether gemm_tiled's (or gemm_mma's) 32-bit index
// arithmetic holds for these leading dimensions: ld·max(MWG, NWG, KWG, 64)
// < 2³¹.
func (cfg gemmConfig) tiledFits(lds ...int) bool {
	t := max(cfg.mwg, cfg.nwg, cfg.kwg, 64)
	if cfg.kernel == gemmKernelMMA {
		t = max(cfg.mmaMWG, cfg.mmaNWG, cfg.mmaKWG, 64)
	}
	for _, ld := range lds {
		if int64(ld)*int64(t) >= math.MaxInt32 {
			return false
		}
	}
	return true
}

func l3Bool(b bool) int {
	if b {
		return 1
	}
	return 0
}

func l3CeilDiv(a, b int) int { return (a + b - 1) / b }

// errL3TooLarge is recorded when an argument does not fit the kernels' 32-bit
// integers; the call then finishes on the CPU.
var errL3TooLarge = errors.New("clblas: problem too large for 32-bit kernel arguments")

// l3Int converts v to a kernel int argument, failing c if it does not fit.
func l3Int(c *call, v int) int32 {
	if v > math.MaxInt32 || v < math.MinInt32 {
		c.fail(errL3TooLarge)
		return 0
	}
	return int32(v)
}

// gemmOnDevice enqueues C = alpha·op(A)·op(B) + beta·C on device buffers,
// where op(A) is m×k, op(B) is k×n, C is m×n (m, n ≥ 1, k ≥ 0), and the
// matrices start at element offA, offB, offC of their buffers with leading
// dimensions lda, ldb, ldc (row-major, as gemm.cl's contract says). Nothing
// moves between host and device. NaN and Inf propagate by IEEE rules:
// every product is formed, so 0·Inf is NaN where gonum skips a zero
// multiplier (the drop-in sends such calls to gonum, see level3_finite.go).
// With k == 0, C = beta·C (beta == 0 assigns zeros); with alpha == 0 and
// beta == 1 nothing changes; otherwise with alpha == 0, A (and B) are
// still read for their NaN and Inf (see l3_gemm_alpha0 in level3.cl). b and
// cb may be the same buffer when the regions read and written do not
// overlap.
func gemmOnDevice[T real](c *call, tA, tB bool, m, n, k int, alpha T, a *cl.Buffer, offA, lda int, b *cl.Buffer, offB, ldb int, beta T, cb *cl.Buffer, offC, ldc int) {
	if c.err != nil {
		return
	}
	cfg := cachedGemmChoice(c.e, c.prec, m, n, k)
	newGemmLauncher[T](c).gemm(cfg, tA, tB, m, n, k, alpha, a, offA, lda, b, offB, ldb, beta, cb, offC, ldc)
}

// gemmLauncher enqueues GEMMs for one call, reusing the kernel objects it
// has taken (a blocked routine launches many GEMMs of the same program).
type gemmLauncher[T real] struct {
	c       *call
	kernels map[*kernelSpec]*cl.Kernel // made on first use
	named   map[string]*kernelSpec     // specs of kernel() calls
}

func newGemmLauncher[T real](c *call) *gemmLauncher[T] {
	return &gemmLauncher[T]{c: c}
}

// kernel is kernelFor with a spec for file's kernel name and defines.
func (g *gemmLauncher[T]) kernel(file, name string, defines ...string) *cl.Kernel {
	key := file + "\x00" + name + "\x00" + strings.Join(defines, "\x00")
	s, ok := g.named[key]
	if !ok {
		s = newKernelSpec(g.c.prec, file, name, defines...)
		if g.named == nil {
			g.named = map[string]*kernelSpec{}
		}
		g.named[key] = s
	}
	return g.kernelFor(s)
}

// kernelFor returns the launcher's kernel object for s, taking one from
// the engine on first use.
func (g *gemmLauncher[T]) kernelFor(s *kernelSpec) *cl.Kernel {
	if k, ok := g.kernels[s]; ok {
		return k
	}
	k := g.c.kernelFor(s)
	if g.c.err == nil {
		if g.kernels == nil {
			g.kernels = map[*kernelSpec]*cl.Kernel{}
		}
		g.kernels[s] = k
	}
	return k
}

// gemm enqueues the GEMM with the kernel and parameters of cfg (gemmOnDevice
// with the choice made by the caller; tests force each kernel through it).
func (g *gemmLauncher[T]) gemm(cfg gemmConfig, tA, tB bool, m, n, k int, alpha T, a *cl.Buffer, offA, lda int, b *cl.Buffer, offB, ldb int, beta T, cb *cl.Buffer, offC, ldc int) {
	c := g.c
	if c.err != nil {
		return
	}
	switch {
	case k == 0 || (alpha == 0 && beta == 1):
		if beta != 1 {
			g.scale(m, n, beta, cb, offC, ldc, triFull)
		}
		return
	case alpha == 0 && (tA || !tB):
		// gonum's alpha == 0: C = beta·C, and rows of op(A) holding NaN
		// or Inf make their row of C NaN (see level3.cl). With A
		// untransposed and Bᵀ, gonum adds alpha·(dot product) to each
		// element: the GEMM kernel with alpha = 0 does the same.
		args := []any{l3Int(c, m), l3Int(c, n), l3Int(c, k), int32(l3Bool(tA)),
			a, l3Int(c, offA), l3Int(c, lda), beta, cb, l3Int(c, offC), l3Int(c, ldc)}
		kern := g.kernel("level3.cl", "l3_gemm_alpha0")
		c.run(kern, []int{groups(m, 64)}, []int{64}, args...)
		return
	}
	switch {
	case cfg.kernel == gemmKernelGEMV:
		g.gemv(cfg, tA, tB, m, n, k, alpha, a, offA, lda, b, offB, ldb, beta, cb, offC, ldc)
		return
	case cfg.splitK > 1:
		g.splitK(cfg, tA, tB, m, n, k, alpha, a, offA, lda, b, offB, ldb, beta, cb, offC, ldc)
		return
	}
	if cfg.kernel == gemmKernelMMA {
		if cfg.cpVec && !cfg.mmaCPVec(c.prec, len(c.over) > 0, offA, lda, offB, ldb) {
			cfg = cfg.withoutCPVec(c.prec)
		}
	}
	// Checked after that fallback: gemm.cl's tiles are not gemm_mma's.
	if (cfg.kernel == gemmKernelTiled || cfg.kernel == gemmKernelMMA) && !cfg.tiledFits(lda, ldb, ldc) {
		cfg.kernel = gemmKernelDirect
	}
	// Buffers over Go memory (hostOver) start wherever the slice does, so
	// the aligned vector accesses are off for a call that has one.
	aligned := cfg.kernel == gemmKernelTiled && len(c.over) == 0 && cfg.vecAligned(offA, lda, offB, ldb, offC, ldc)
	args := []any{
		l3Int(c, m), l3Int(c, n), l3Int(c, k), alpha,
		a, l3Int(c, offA), l3Int(c, lda),
		b, l3Int(c, offB), l3Int(c, ldb),
		beta, cb, l3Int(c, offC), l3Int(c, ldc),
	}
	kern := g.kernelFor(gemmKernelSpec(c.prec, cfg, tA, tB, aligned))
	global, local := cfg.work(tA, tB, m, n)
	c.run(kern, global, local, args...)
}

// Triangle selectors of the level-3 kernels' uplo arguments.
const (
	triFull  = 0
	triUpper = 1
	triLower = 2
)

// scale enqueues C = s·C on the m×n matrix at offC (s == 0 assigns zeros),
// on the whole matrix or, for a square one, only on its upper or lower
// triangle (diagonal included).
func (g *gemmLauncher[T]) scale(m, n int, s T, cb *cl.Buffer, offC, ldc, tri int) {
	c := g.c
	args := []any{l3Int(c, m), l3Int(c, n), s, cb, l3Int(c, offC), l3Int(c, ldc), int32(tri)}
	k := g.kernel("level3.cl", "l3_scale")
	global, local := l3Work(m, n)
	c.run(k, global, local, args...)
}

// l3Work returns the work sizes of level3.cl's element-wise kernels over an
// m×n matrix: dimension 0 walks the columns (contiguous in row-major
// storage), dimension 1 the rows, in work-groups of 16×4 (64 work-items,
// which every OpenCL device allows).
func l3Work(m, n int) (global, local []int) {
	return []int{groups(n, 16), groups(m, 4)}, []int{16, 4}
}

// gemmChoiceKey identifies a GEMM shape for the per-engine choice cache.
type gemmChoiceKey struct {
	prec, m, n, k int
	mode          TensorMode
}

// cachedGemmChoice is gemmChoose, memoised per engine and shape: the choice
// walks the tuning database, which would otherwise cost more host time
// than a small GEMM's kernel. At most 4096 shapes are kept.
func cachedGemmChoice(e *engine, prec, m, n, k int) gemmConfig {
	key := gemmChoiceKey{prec, m, n, k, engineTensor(e)}
	e.gemmChoiceMu.RLock()
	cfg, ok := e.gemmChoices[key]
	e.gemmChoiceMu.RUnlock()
	if ok {
		return cfg
	}
	cfg = gemmChoose(e.prof, prec, m, n, k, key.mode)
	e.gemmChoiceMu.Lock()
	if e.gemmChoices == nil {
		e.gemmChoices = map[gemmChoiceKey]gemmConfig{}
	}
	if len(e.gemmChoices) < 4096 {
		e.gemmChoices[key] = cfg
	}
	e.gemmChoiceMu.Unlock()
	return cfg
}

type gemmSpecKey struct {
	prec               int
	cfg                gemmConfig
	tA, tB, vecAligned bool
}

var gemmSpecs struct {
	sync.RWMutex
	m map[gemmSpecKey]*kernelSpec
}

// gemmKernelSpec is the kernel spec of cfg's kernel, memoised: the set of
// configurations in use is small (the tuning database's), and rendering
// some twenty defines on every call costs more than a small GEMM's kernel.
func gemmKernelSpec(prec int, cfg gemmConfig, tA, tB, vecAligned bool) *kernelSpec {
	key := gemmSpecKey{prec, cfg, tA, tB, vecAligned}
	gemmSpecs.RLock()
	s, ok := gemmSpecs.m[key]
	gemmSpecs.RUnlock()
	if ok {
		return s
	}
	s = newKernelSpec(prec, cfg.file(), cfg.kernel, cfg.defines(tA, tB, vecAligned)...)
	gemmSpecs.Lock()
	if gemmSpecs.m == nil {
		gemmSpecs.m = map[gemmSpecKey]*kernelSpec{}
	}
	if old, ok := gemmSpecs.m[key]; ok {
		s = old
	} else {
		gemmSpecs.m[key] = s
	}
	gemmSpecs.Unlock()
	return s
}
