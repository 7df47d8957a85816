package engine

import (
	"errors"
	"math"
	"strings"
	"sync"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/internal/gemm"
	"github.com/gocompute/opencl/internal/gemm/profile"
	"github.com/gocompute/opencl/platform"
)

// GEMM on device buffers. gemmOnDevice is the one entry point the level-3
// routines (and later the device-resident API) use: it enqueues
// C = alpha·op(A)·op(B) + beta·C on buffers already on the device, with
// the kernel of kernels/gemm.cl that gemm.Choose chooses.

// GemmParams chooses the GEMM kernel and its parameters for a device, a
// precision (32 or 64) and a shape, with the built-in tuning database and
// the default tensor-core mode (tests). gemm.Choose makes the choice: the
// tuning database (kernels/gemm_tuning.json) for devices it knows,
// defaults derived from the device's limits otherwise, the tensor-core
// kernel where it pays, and the GEMV and split-K routes for skinny shapes.
func GemmParams(prof platform.Profile, prec int, m, n, k int) gemm.Config {
	return gemm.Choose(gemm.Builtin(), GemmDevice(prof), prec, m, n, k, gemm.TensorAuto)
}

func l3Bool(b bool) int {
	if b {
		return 1
	}
	return 0
}

func L3CeilDiv(a, b int) int { return (a + b - 1) / b }

// errL3TooLarge is recorded when an argument does not fit the kernels' 32-bit
// integers; the call then finishes on the CPU.
var errL3TooLarge = errors.New("clblas: problem too large for 32-bit kernel arguments")

// l3Int converts v to a kernel int argument, failing c if it does not fit.
func l3Int(c *Call, v int) int32 {
	if v > math.MaxInt32 || v < math.MinInt32 {
		c.Fail(errL3TooLarge)
		return 0
	}
	return int32(v)
}

// GemmOnDevice enqueues C = alpha·op(A)·op(B) + beta·C on device buffers,
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
func GemmOnDevice[T Real](c *Call, tA, tB bool, m, n, k int, alpha T, a *cl.Buffer, offA, lda int, b *cl.Buffer, offB, ldb int, beta T, cb *cl.Buffer, offC, ldc int) {
	if c.Err != nil {
		return
	}
	cfg := c.E.GemmChoices.Get(c.E.Tuning, c.E.GemmDev(), GemmShape{Prec: c.prec, M: m, N: n, K: k, Mode: c.E.Tensor})
	NewGemmLauncher[T](c).Gemm(cfg, tA, tB, m, n, k, alpha, a, offA, lda, b, offB, ldb, beta, cb, offC, ldc)
}

// GemmLauncher enqueues GEMMs for one call, reusing the kernel objects it
// has taken (a blocked routine launches many GEMMs of the same program).
type GemmLauncher[T Real] struct {
	c       *Call
	kernels map[*KernelSpec]*cl.Kernel // made on first use
	named   map[string]*KernelSpec     // specs of kernel() calls
}

func NewGemmLauncher[T Real](c *Call) *GemmLauncher[T] {
	return &GemmLauncher[T]{c: c}
}

// kernel is kernelFor with a spec for file's kernel name and defines.
func (g *GemmLauncher[T]) kernel(file, name string, defines ...string) *cl.Kernel {
	key := file + "\x00" + name + "\x00" + strings.Join(defines, "\x00")
	s, ok := g.named[key]
	if !ok {
		s = NewKernelSpec(g.c.prec, file, name, defines...)
		if g.named == nil {
			g.named = map[string]*KernelSpec{}
		}
		g.named[key] = s
	}
	return g.kernelFor(s)
}

// kernelFor returns the launcher's kernel object for s, taking one from
// the engine on first use.
func (g *GemmLauncher[T]) kernelFor(s *KernelSpec) *cl.Kernel {
	if k, ok := g.kernels[s]; ok {
		return k
	}
	k := g.c.kernelFor(s)
	if g.c.Err == nil {
		if g.kernels == nil {
			g.kernels = map[*KernelSpec]*cl.Kernel{}
		}
		g.kernels[s] = k
	}
	return k
}

// Gemm enqueues the GEMM with the kernel and parameters of cfg (gemmOnDevice
// with the choice made by the caller; tests force each kernel through it).
func (g *GemmLauncher[T]) Gemm(cfg gemm.Config, tA, tB bool, m, n, k int, alpha T, a *cl.Buffer, offA, lda int, b *cl.Buffer, offB, ldb int, beta T, cb *cl.Buffer, offC, ldc int) {
	c := g.c
	if c.Err != nil {
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
		c.Run(kern, []int{Groups(m, 64)}, []int{64}, args...)
		return
	}
	switch {
	case cfg.Kernel == gemm.KernelGEMV:
		g.gemv(cfg, tA, tB, m, n, k, alpha, a, offA, lda, b, offB, ldb, beta, cb, offC, ldc)
		return
	case cfg.SplitK > 1:
		g.splitK(cfg, tA, tB, m, n, k, alpha, a, offA, lda, b, offB, ldb, beta, cb, offC, ldc)
		return
	case cfg.SplitZ > 1:
		g.splitZ(cfg, tA, tB, m, n, k, alpha, a, offA, lda, b, offB, ldb, beta, cb, offC, ldc)
		return
	}
	g.launch(cfg, tA, tB, m, n, k, alpha, a, offA, lda, b, offB, ldb, beta, cb, offC, ldc)
}

// launch enqueues cfg's GEMM kernel itself (Gemm past its special cases).
func (g *GemmLauncher[T]) launch(cfg gemm.Config, tA, tB bool, m, n, k int, alpha T, a *cl.Buffer, offA, lda int, b *cl.Buffer, offB, ldb int, beta T, cb *cl.Buffer, offC, ldc int) {
	c := g.c
	if cfg.Kernel == gemm.KernelMMA {
		if cfg.CPVec && !cfg.MMACPVec(c.prec, len(c.over) > 0, offA, lda, offB, ldb) {
			cfg = cfg.WithoutCPVec(c.prec)
		}
	}
	// Checked after that fallback: gemm.cl's tiles are not gemm_mma's.
	if (cfg.Kernel == gemm.KernelTiled || cfg.Kernel == gemm.KernelMMA) && !cfg.TiledFits(lda, ldb, ldc) {
		cfg.Kernel = gemm.KernelDirect
	}
	if cfg.ZExpB && (cfg.Kernel != gemm.KernelMMA || !cfg.CPVec) {
		// Only gemm_mma's 16-byte copies expand a complex B: the caller
		// must have checked that the call keeps them.
		c.Fail(errZExpB)
		return
	}
	if cfg.Kernel == gemm.KernelCPU {
		// gemm_cpu reads a transposed operand a row of the stored
		// matrix per step of k, each a stream of its own, and its NN
		// class reads both operands along their rows: a transposed copy
		// takes one pass over the operand, the GEMM one for every block
		// of the other side.
		if tA && n >= cpuTransposeCols && g.cpuTransposes(m, n, k) {
			a, offA, lda = g.transposed(a, offA, lda, k, m)
			tA = false
		}
		if tB && m >= cpuTransposeRows && g.cpuTransposes(m, n, k) {
			b, offB, ldb = g.transposed(b, offB, ldb, n, k)
			tB = false
		}
		if !tB && m >= cpuPadMinRows {
			// gemm_cpu's N class walks down op(B) (and Aᵀ) a row per step.
			if pageAliased[T](ldb) {
				b, offB, ldb = g.padded(b, offB, ldb, k, n)
			}
			if tA && pageAliased[T](lda) {
				a, offA, lda = g.padded(a, offA, lda, k, m)
			}
		}
		// Only NT's work-items read along rows of both operands.
		kc := k
		if tA || !tB {
			kc = min(k, cpuKC)
		}
		if rows := cpuRowBlock[T](cfg, tA, tB, kc); rows < m || kc < k {
			g.cpuBlocks(cfg, rows, kc, tA, tB, m, n, k, alpha, a, offA, lda, b, offB, ldb, beta, cb, offC, ldc)
			return
		}
	}
	// Buffers over Go memory (hostOver) start wherever the slice does, so
	// the aligned vector accesses are off for a call that has one.
	aligned := cfg.Kernel == gemm.KernelTiled && len(c.over) == 0 && cfg.VecAligned(offA, lda, offB, ldb, offC, ldc)
	kern := g.kernelFor(gemmKernelSpec(c.prec, cfg, tA, tB, aligned))
	g.run(kern, cfg, tA, tB, m, n, k, alpha, a, offA, lda, b, offB, ldb, beta, cb, offC, ldc)
}

// run enqueues kern, a gemm.cl kernel of cfg's, on the GEMM's operands.
func (g *GemmLauncher[T]) run(kern *cl.Kernel, cfg gemm.Config, tA, tB bool, m, n, k int, alpha T, a *cl.Buffer, offA, lda int, b *cl.Buffer, offB, ldb int, beta T, cb *cl.Buffer, offC, ldc int) {
	c := g.c
	global, local := cfg.Work(tA, tB, m, n)
	c.Run(kern, global, local,
		l3Int(c, m), l3Int(c, n), l3Int(c, k), alpha,
		a, l3Int(c, offA), l3Int(c, lda),
		b, l3Int(c, offB), l3Int(c, ldb),
		beta, cb, l3Int(c, offC), l3Int(c, ldc))
}

// cpuRowBlockBytes bounds the rows of op(A) one gemm_cpu launch reads:
// its work-items sweep down C's rows for each column block of C in turn,
// so the launch's rows of op(A) are read again for every column block,
// from the last-level cache only if they fit there.
const cpuRowBlockBytes = 2 << 20

// cpuRowBlock is the rows of C a gemm_cpu launch takes for inner dimension
// k: a multiple of the block's rows whose rows of op(A) fit
// cpuRowBlockBytes, at least 16 blocks.
func cpuRowBlock[T Real](cfg gemm.Config, tA, tB bool, k int) int {
	mb := max(cfg.CPUBlock[l3Bool(tA)][l3Bool(tB)][0], 1)
	per := max(k, 1) * ElemSize[T]() * mb
	return max(cpuRowBlockBytes/per, 16) * mb
}

// cpuKC is the longest inner dimension of one gemm_cpu launch: a
// work-item reads a row of op(B) (or of Aᵀ) a step, each in a page of its
// own once rows are 4 KiB apart, and more pages than the TLB holds make
// every step a page walk.
const cpuKC = 512

// cpuBlocks enqueues the GEMM as one launch a block of rows of C and of
// kc steps of the inner dimension, the second and later of which add to C
// (beta = 1).
func (g *GemmLauncher[T]) cpuBlocks(cfg gemm.Config, rows, kc int, tA, tB bool, m, n, k int, alpha T, a *cl.Buffer, offA, lda int, b *cl.Buffer, offB, ldb int, beta T, cb *cl.Buffer, offC, ldc int) {
	c := g.c
	kern := g.kernelFor(gemmKernelSpec(c.prec, cfg, tA, tB, false))
	for p0 := 0; p0 < k; p0 += kc {
		ks := min(kc, k-p0)
		for i0 := 0; i0 < m; i0 += rows {
			mi := min(rows, m-i0)
			oa := offA + i0*lda + p0 // op(A)[i0][p0]
			if tA {
				oa = offA + p0*lda + i0
			}
			ob := offB + p0*ldb // op(B)[p0][0]
			if tB {
				ob = offB + p0
			}
			g.run(kern, cfg, tA, tB, mi, n, ks, alpha, a, oa, lda, b, ob, ldb, beta, cb, offC+i0*ldc, ldc)
		}
		beta = 1
	}
}

// cpuTransposes reports whether an m×n×k GEMM on gemm_cpu is large
// enough for launch to copy its transposed operands untransposed, where
// C's other side is long enough too (cpuTransposeCols for A,
// cpuTransposeRows for B): the GEMM reads an operand once for every block
// of that side, the copy once, and the copy is a launch of its own.
func (g *GemmLauncher[T]) cpuTransposes(m, n, k int) bool {
	work := int64(cpuTransposeWork)
	if w := g.c.E.CPUTransposeWork; w > 0 {
		work = int64(w)
	}
	return int64(m)*int64(n)*int64(k) >= work
}

// cpuTransposeCols, cpuTransposeRows and cpuTransposeWork bound the GEMMs
// whose transposed operands gemm_cpu takes as copies (BENCHMARKS.md,
// "gemm_cpu's transposed operands copied").
const (
	cpuTransposeCols = 64
	cpuTransposeRows = 128
	cpuTransposeWork = 1 << 24
)

// cpuPadMinRows is the fewest rows of C for which gemm_cpu's operand is
// re-laid (padded): the copy is one pass over it, the GEMM one pass for
// every CPU_MB rows of C.
const cpuPadMinRows = 16

// pageAliased reports whether rows ld elements of T apart fall on the same
// few sets of a CPU cache: a row pitch that is a multiple of 1 KiB. A
// work-item of gemm_cpu's N class reads a line of each of k such rows (of
// B, or of A transposed), and its neighbours read the same lines; at a
// pitch of 4 KiB they all compete for one set of an 8-way L1 and for a
// few of L2, and the kernel runs far below its rate (BENCHMARKS.md,
// "PoCL 3.1 on an AVX2 machine: GEMM's N blocks").
func pageAliased[T Real](ld int) bool {
	return ld*ElemSize[T]()%1024 == 0
}

// padded enqueues a copy of the rows×cols matrix at off (leading dimension
// ld) of b into a buffer of the call whose rows are an odd number of cache
// lines apart, and returns that buffer, offset and leading dimension.
func (g *GemmLauncher[T]) padded(b *cl.Buffer, off, ld, rows, cols int) (*cl.Buffer, int, int) {
	c := g.c
	pld := oddLinePitch[T](cols)
	w := Alloc[T](c, rows*pld)
	kern := g.kernel("level3.cl", "l3_copy")
	global, local := l3Work(rows, cols)
	c.Run(kern, global, local, l3Int(c, rows), l3Int(c, cols), b, l3Int(c, off), l3Int(c, ld), w, l3Int(c, pld))
	return w, 0, pld
}

// transposed enqueues the transpose of the rows×cols matrix at off
// (leading dimension ld) of b into a buffer of the call, cols×rows with
// its rows an odd number of cache lines apart, and returns that buffer,
// offset and leading dimension.
func (g *GemmLauncher[T]) transposed(b *cl.Buffer, off, ld, rows, cols int) (*cl.Buffer, int, int) {
	c := g.c
	pld := oddLinePitch[T](rows)
	w := Alloc[T](c, cols*pld)
	c.E.CPUTransposed.Add(1)
	kern := g.kernel("level3.cl", "l3_transpose")
	global, local := l3Work(L3CeilDiv(rows, 8), L3CeilDiv(cols, 8))
	c.Run(kern, global, local, l3Int(c, rows), l3Int(c, cols), b, l3Int(c, off), l3Int(c, ld), w, l3Int(c, pld))
	return w, 0, pld
}

// oddLinePitch is the leading dimension, in elements of T, of a copy of
// rows cols long: whole cache lines, an odd number of them.
func oddLinePitch[T Real](cols int) int {
	line := 64 / ElemSize[T]()
	pld := L3CeilDiv(cols, line) * line
	if (pld/line)%2 == 0 {
		pld += line
	}
	return pld
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
func (g *GemmLauncher[T]) scale(m, n int, s T, cb *cl.Buffer, offC, ldc, tri int) {
	c := g.c
	args := []any{l3Int(c, m), l3Int(c, n), s, cb, l3Int(c, offC), l3Int(c, ldc), int32(tri)}
	k := g.kernel("level3.cl", "l3_scale")
	global, local := l3Work(m, n)
	c.Run(k, global, local, args...)
}

// l3Work returns the work sizes of level3.cl's element-wise kernels over an
// m×n matrix: dimension 0 walks the columns (contiguous in row-major
// storage), dimension 1 the rows, in work-groups of 16×4 (64 work-items,
// which every OpenCL device allows).
func l3Work(m, n int) (global, local []int) {
	return []int{Groups(n, 16), Groups(m, 4)}, []int{16, 4}
}

type gemmSpecKey struct {
	prec               int
	cfg                gemm.Config
	tA, tB, vecAligned bool
}

var gemmSpecs struct {
	sync.RWMutex
	M map[gemmSpecKey]*KernelSpec
}

// gemmKernelSpec is the kernel spec of cfg's kernel, memoised: the set of
// configurations in use is small (the tuning database's), and rendering
// some twenty defines on every call costs more than a small GEMM's kernel.
func gemmKernelSpec(prec int, cfg gemm.Config, tA, tB, vecAligned bool) *KernelSpec {
	key := gemmSpecKey{prec, cfg, tA, tB, vecAligned}
	gemmSpecs.RLock()
	s, ok := gemmSpecs.M[key]
	gemmSpecs.RUnlock()
	if ok {
		return s
	}
	s = NewKernelSpec(prec, cfg.Source(), cfg.Kernel, cfg.Defines(tA, tB, vecAligned)...)
	gemmSpecs.Lock()
	if gemmSpecs.M == nil {
		gemmSpecs.M = map[gemmSpecKey]*KernelSpec{}
	}
	if old, ok := gemmSpecs.M[key]; ok {
		s = old
	} else {
		gemmSpecs.M[key] = s
	}
	gemmSpecs.Unlock()
	return s
}

// GemmDevice describes p for the GEMM choice.
func GemmDevice(p platform.Profile) gemm.Device { return profile.Device(p) }

// GemmDev is e's device as the GEMM choice sees it.
func (e *Engine) GemmDev() gemm.Device { return GemmDevice(e.Prof) }

// GemmSpecBuilt reports whether the launcher has made the kernel spec of
// cfg's program for transposes tA, tB (gemm_mma: vecAligned is always
// false). Tests use it.
func GemmSpecBuilt(prec int, cfg gemm.Config, tA, tB bool) bool {
	gemmSpecs.RLock()
	defer gemmSpecs.RUnlock()
	_, ok := gemmSpecs.M[gemmSpecKey{prec, cfg, tA, tB, false}]
	return ok
}
