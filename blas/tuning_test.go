package clblas

import (
	eng "github.com/gocompute/opencl/internal/engine"

	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/gocompute/opencl/internal/gemm"
)

// gemmRefOf returns gonum's GEMM in precision T.
func gemmRefOf[T eng.Real]() l3API[T] {
	switch any(T(0)).(type) {
	case float64:
		return any(l3F64{gonum.Implementation{}}).(l3API[T])
	default:
		return any(l3F32{gonum.Implementation{}}).(l3API[T])
	}
}

// runGemmConfigAll runs cfg through the launcher for every transpose
// combination and shape, with unaligned buffer offsets, padded leading
// dimensions, beta = 0 over NaN and beta ≠ 0, and compares with gonum.
func runGemmConfigAll[T eng.Real](t *testing.T, e *eng.Engine, what string, cfg gemm.Config, shapes [][3]int, tol float64) {
	t.Helper()
	for _, tA := range []bool{false, true} {
		for _, tB := range []bool{false, true} {
			runGemmConfig[T](t, e, what, cfg, tA, tB, shapes, tol)
		}
	}
}

// runGemmConfig is runGemmConfigAll for one transpose combination.
func runGemmConfig[T eng.Real](t *testing.T, e *eng.Engine, what string, cfg gemm.Config, ta, tb bool, shapes [][3]int, tol float64) {
	t.Helper()
	rnd := rand.New(rand.NewPCG(11, 12))
	tA, tB := blas.NoTrans, blas.NoTrans
	if ta {
		tA = blas.Trans
	}
	if tb {
		tB = blas.Trans
	}
	for _, sh := range shapes {
		m, n, k := sh[0], sh[1], sh[2]
		_, ac := eng.Stored(tA, m, k)
		_, bc := eng.Stored(tB, k, n)
		g := gemmLaunch{m: m, n: n, k: k, tA: tA, tB: tB,
			lda: ac + 1 + rnd.IntN(3), ldb: bc + 1 + rnd.IntN(3), ldc: n + 1 + rnd.IntN(3),
			offA: 1 + rnd.IntN(5), offB: 1 + rnd.IntN(5), offC: 1 + rnd.IntN(5)}
		checkGemmLaunch[T](t, e, what, cfg, g, rnd, tol)
	}
}

// gemmLaunch is one GEMM given straight to the launcher: shape,
// transposes, leading dimensions and where the matrices start in their
// buffers.
type gemmLaunch struct {
	m, n, k          int
	tA, tB           blas.Transpose
	lda, ldb, ldc    int
	offA, offB, offC int
}

// checkGemmLaunch runs cfg's GEMM through the launcher on random matrices
// placed g.offA, g.offB, g.offC elements into their buffers, with
// (alpha, beta) = (1.5, 0) over a C of NaN and (−0.5, 0.25), and compares
// with gonum; nothing before offC may be written.
func checkGemmLaunch[T eng.Real](t *testing.T, e *eng.Engine, what string, cfg gemm.Config, g gemmLaunch, rnd *rand.Rand, tol float64) {
	t.Helper()
	m, n, k := g.m, g.n, g.k
	ar, ac := eng.Stored(g.tA, m, k)
	br, bc := eng.Stored(g.tB, k, n)
	a := l3Mat[T](ar, ac, g.lda, l3Rand(rnd, false))
	b := l3Mat[T](br, bc, g.ldb, l3Rand(rnd, false))
	c := l3Mat[T](m, n, g.ldc, l3Rand(rnd, false))
	checkGemmLaunchOn(t, e, what, cfg, g, a, b, c, [][2]float64{{1.5, 0}, {-0.5, 0.25}}, tol)
}

// checkGemmLaunchOn is checkGemmLaunch on the given A, B and C (stored as g
// says, without the offsets), for each {alpha, beta} of albe.
func checkGemmLaunchOn[T eng.Real](t *testing.T, e *eng.Engine, what string, cfg gemm.Config, g gemmLaunch, a, b, c []T, albe [][2]float64, tol float64) {
	t.Helper()
	m, n, k := g.m, g.n, g.k
	ref := gemmRefOf[T]()
	for _, ab := range albe {
		alpha, beta := T(ab[0]), T(ab[1])
		want := slices.Clone(c)
		ref.gemm(g.tA, g.tB, m, n, k, alpha, a, g.lda, b, g.ldb, beta, want, g.ldc)
		cc := eng.Begin[T](e, "gemm-launch-test")
		abuf := eng.Upload(cc, append(make([]T, g.offA), a...))
		bbuf := eng.Upload(cc, append(make([]T, g.offB), b...))
		cin := append(make([]T, g.offC), c...)
		if beta == 0 {
			for i := range c {
				cin[g.offC+i] = T(math.NaN())
			}
		}
		cb := eng.Upload(cc, cin)
		eng.NewGemmLauncher[T](cc).Gemm(cfg, g.tA == blas.Trans, g.tB == blas.Trans, m, n, k, alpha,
			abuf, g.offA, g.lda, bbuf, g.offB, g.ldb, beta, cb, g.offC, g.ldc)
		out := eng.Download[T](cc, cb, len(cin))
		if err := cc.Finish(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		desc := fmt.Sprintf("%s tA=%c tB=%c m=%d n=%d k=%d lda=%d ldb=%d ldc=%d off=%d,%d,%d alpha=%v beta=%v",
			what, g.tA, g.tB, m, n, k, g.lda, g.ldb, g.ldc, g.offA, g.offB, g.offC, alpha, beta)
		for i := 0; i < g.offC; i++ {
			if out[i] != 0 {
				t.Fatalf("%s: wrote before offC", desc)
			}
		}
		l3Compare(t, desc, out[g.offC:], want, c, m, n, g.ldc, l3All, tol)
	}
}

// tunedPrograms plans the programs (define sets) that run every gemm.cl
// configuration in cfgs in all four transpose combinations. gemm.cl is
// compiled whole, so one program carries a gemm_tiled, a gemm_direct and a
// gemm_cpu set at once: program i runs transpose combination i mod 4 with
// tiled set ⌊i/4⌋ mod T, direct set ⌊i/4⌋ mod D and CPU set ⌊i/4⌋ mod C,
// 4·max(T, D, C) programs in all. They are built with -cl-opt-disable,
// which PoCL compiles about 8 times faster (the shipped PoCL sets also run
// optimized, in the rest of the suite).
func tunedPrograms(cfgs []gemm.Config) (progs []gemm.Config, trans [][2]bool) {
	var tiled, direct, cpu []gemm.Config
	seen := map[string]bool{}
	for _, c := range cfgs {
		// Each kernel's own fields decide whether a set is new.
		var key string
		switch c.Kernel {
		case gemm.KernelTiled:
			key = fmt.Sprint(c.Kernel, c.MWG, c.NWG, c.KWG, c.MDIMC, c.NDIMC, c.VWM, c.VWN, c.VWA, c.VWB, c.PADA, c.PADB, c.DoubleBuffer)
		case gemm.KernelDirect:
			key = fmt.Sprint(c.Kernel, c.DM, c.DN, c.DMDIMC, c.DNDIMC)
		case gemm.KernelCPU:
			key = fmt.Sprint(c.Kernel, c.CPUVec, c.CPUVecs, c.CPUBlock, c.CPULocal)
		}
		if key == "" || seen[key] {
			continue
		}
		seen[key] = true
		switch c.Kernel {
		case gemm.KernelTiled:
			tiled = append(tiled, c)
		case gemm.KernelDirect:
			direct = append(direct, c)
		case gemm.KernelCPU:
			cpu = append(cpu, c)
		}
	}
	if len(tiled) == 0 || len(direct) == 0 || len(cpu) == 0 {
		return nil, nil
	}
	n := 4 * max(len(tiled), len(direct), len(cpu))
	for i := 0; i < n; i++ {
		j := i / 4
		p := tiled[j%len(tiled)]
		d, c := direct[j%len(direct)], cpu[j%len(cpu)]
		p.DM, p.DN, p.DMDIMC, p.DNDIMC = d.DM, d.DN, d.DMDIMC, d.DNDIMC
		p.CPUVec, p.CPUVecs, p.CPUBlock, p.CPULocal = c.CPUVec, c.CPUVecs, c.CPUBlock, c.CPULocal
		p.NoOpt = true
		progs = append(progs, p)
		trans = append(trans, [2]bool{i%4 >= 2, i%2 == 1})
	}
	return progs, trans
}

// TestGemmTunedConfigs runs every gemm.cl configuration the database and
// the derived defaults can choose (every device's gemm_tiled, gemm_direct
// and gemm_cpu sets, and the sets derived for unknown GPUs and CPUs) on the
// test device, in both precisions and all four transpose combinations,
// against gonum, with unaligned offsets and padded leading dimensions, on
// odd shapes that cross every tile's edges (see tunedPrograms).
func TestGemmTunedConfigs(t *testing.T) {
	e := testEngine(t)
	shapes := [][3]int{{37, 67, 45}, {130, 259, 19}}
	for _, prec := range []int{64, 32} {
		progs, trans := tunedPrograms(gemm.AllTuned(prec))
		if len(progs) == 0 {
			t.Fatalf("prec %d: no configurations", prec)
		}
		for i, p := range progs {
			tA, tB := trans[i][0], trans[i][1]
			for _, kern := range []string{gemm.KernelCPU, gemm.KernelDirect, gemm.KernelTiled} {
				cfg := p
				cfg.Kernel = kern
				name := fmt.Sprintf("f%d/%s/%s", prec, cfg.Name(), transName(tA, tB))
				t.Run(name, func(t *testing.T) {
					if prec == 64 {
						if !e.Prof.FP64 {
							t.Skip("the device has no fp64")
						}
						runGemmConfig[float64](t, e, name, cfg, tA, tB, shapes, 1e-12)
					} else {
						runGemmConfig[float32](t, e, name, cfg, tA, tB, shapes, 1e-4)
					}
				})
			}
		}
	}
}

func transName(tA, tB bool) string {
	n := func(b bool) string {
		if b {
			return "T"
		}
		return "N"
	}
	return n(tA) + n(tB)
}

// TestGemmMMAEmulated runs gemm_mma.cl with MMA_EMULATE=1, which carries
// out the tensor-core instructions' fragment layouts in portable OpenCL C,
// in both precisions and all four transposes, on odd shapes. PoCL compiles
// the emulation of the database's tiles (16 fragments per warp, 4–8 warps)
// for many minutes, so the test runs a reduced tile with the same
// structure: 2×2 warps (wr, wc ≠ 0), two fragments per warp along n, two
// K sub-steps per slice in double precision, a 3-stage cp.async ring (done
// with plain copies) and ragged edges in every direction. The CP_VEC=1
// sets (16-byte copies, swizzled [m][k] / [n][k] tiles) run through
// runCPVec, on aligned operands and on unaligned ones that must fall back
// to CP_VEC=0; their K steps cover every swizzle of the reduced tile
// (double KWG 8: two keys, 4: none; float KWG 8: two keys, 16: four) and
// copy loops with as many 16-byte groups as threads (double KWG 8) and
// fewer (the bounds-checked round: double KWG 4, float KWG 8).
func TestGemmMMAEmulated(t *testing.T) {
	e := testEngine(t)
	shapes := [][3]int{{37, 70, 13}, {66, 33, 21}}
	for _, v := range []struct {
		prec     int
		splitRaw bool
		cpVec    bool
		kwg      int
		mmaK     int  // double: the k of each mma.sync (0: 4)
		mix      bool // ISSUE_MIX: copies spread between the mma.sync
		kmSwz    bool // KM_SWZ: CP_VEC's k-major tiles unpadded, swizzled
		pipe     bool // PIPE_FRAG: fragments a sub-step ahead
	}{{64, false, false, 8, 0, false, false, false}, {32, false, false, 8, 0, false, false, false}, {32, true, false, 8, 0, false, false, false},
		{64, false, true, 8, 0, false, false, false}, {64, false, true, 4, 0, false, false, false}, {32, false, true, 8, 0, false, false, false}, {32, false, true, 16, 0, false, false, false},
		{64, false, false, 8, 8, false, false, false}, {64, false, false, 16, 16, false, false, false}, {64, false, true, 16, 8, false, false, false},
		{64, false, false, 8, 0, true, false, false}, {64, false, true, 8, 8, true, false, false}, {32, false, false, 8, 0, true, false, false}, {32, true, true, 16, 0, true, false, false},
		{64, false, true, 8, 0, true, true, false}, {64, false, true, 4, 0, false, true, false}, {32, false, true, 8, 0, false, true, false}, {32, true, true, 16, 0, true, true, false},
		// PIPE_FRAG: two sub-steps per tile (KWG 8), one (KWG 4; MMA_K 8 with
		// KWG 8: the odd count moves register sets), with and without the
		// spread copies.
		{64, false, false, 8, 0, false, false, true}, {64, false, true, 8, 0, true, false, true}, {64, false, true, 4, 0, true, false, true},
		{64, false, false, 8, 8, false, false, true}, {64, false, true, 16, 8, true, false, true},
		// The H200's 3xTF32 entry: K steps of 32, unpadded swizzled tiles.
		{32, true, true, 32, 0, false, true, false}} {
		prec := v.prec
		cfg := emulatedMMAConfig(prec, v.kwg)
		cfg.SplitRaw, cfg.CPVec, cfg.MMAK = v.splitRaw, v.cpVec, v.mmaK
		cfg.IssueMix, cfg.KMSwz, cfg.PipeFrag = v.mix, v.kmSwz, v.pipe
		// The tensor-core result itself, not its FP32 recomputation.
		cfg.NoRedo = prec == 32
		shapes := shapes
		if v.mix || v.pipe || v.kwg >= 32 {
			// ISSUE_MIX's spread copies run for K tiles wholly inside k
			// at least STAGES tiles ahead: a long k with a ragged end
			// (and more than one K tile of 32).
			shapes = [][3]int{{37, 70, 61}, {66, 33, 45}}
		}
		runEmulatedMMAConfig(t, e, prec, cfg, shapes)
	}
	// WARPS_K: each warp tile held by K groups of warps whose sums meet in
	// local memory. In double at KWG 8 the A stage buffers hold 6 of a
	// work-item's 8 accumulators for a group, so that sum runs in rounds.
	for _, v := range []struct {
		prec, kwg, mmaK, wk int
		cpVec, splitRaw     bool
		mix, kmSwz          bool
	}{
		{64, 8, 0, 2, false, false, false, false},
		{64, 16, 8, 2, true, false, true, false},
		{32, 16, 0, 2, false, false, true, false},
		{32, 32, 0, 2, true, true, false, true},
		{32, 32, 0, 4, true, true, false, true},
	} {
		cfg := emulatedMMAConfig(v.prec, v.kwg)
		cfg.MMAK, cfg.WarpsK, cfg.CPVec, cfg.SplitRaw = v.mmaK, v.wk, v.cpVec, v.splitRaw
		cfg.IssueMix, cfg.KMSwz, cfg.NoRedo = v.mix, v.kmSwz, v.prec == 32
		runEmulatedMMAConfig(t, e, v.prec, cfg, [][3]int{{37, 70, 61}, {66, 33, 45}})
	}
}

// emulatedMMAConfig returns the reduced tensor-core tile the emulated
// tests run (see TestGemmMMAEmulated): 32×32 work-group tiles of 16×16
// warps, K steps of kwg, on the emulation with the compiler's
// optimisations off.
func emulatedMMAConfig(prec, kwg int) gemm.Config {
	cfg := gemm.MMADefaults(gemm.Base(prec, 8), prec)
	cfg.MMAMWG, cfg.MMANWG, cfg.MMAKWG, cfg.WM, cfg.WN = 32, 32, kwg, 16, 16
	cfg.MMAEmulate, cfg.NoOpt = true, true
	return cfg
}

// runEmulatedMMAConfig runs cfg in precision prec against gonum on shapes
// as the subtest f<prec>/<cfg's name>: it must be valid for the device;
// CP_VEC=1 configurations go through runCPVec (aligned and unaligned
// operands), the others through runGemmConfigAll. fp64 is skipped on a
// device without it.
func runEmulatedMMAConfig(t *testing.T, e *eng.Engine, prec int, cfg gemm.Config, shapes [][3]int) {
	t.Helper()
	name := fmt.Sprintf("f%d/%s", prec, cfg.Name())
	t.Run(name, func(t *testing.T) {
		if err := gemm.Valid(e.GemmDev(), prec, false, false, cfg); err != nil {
			t.Fatalf("gemm.Valid: %v", err)
		}
		switch {
		case prec == 64 && !e.Prof.FP64:
			t.Skip("the device has no fp64")
		case prec == 64 && cfg.CPVec:
			runCPVec[float64](t, e, name, cfg, shapes, 1e-12)
		case prec == 64:
			runGemmConfigAll[float64](t, e, name, cfg, shapes, 1e-12)
		case cfg.CPVec:
			runCPVec[float32](t, e, name, cfg, shapes, 1e-5)
		default:
			// 3xTF32 is about as accurate as FP32 FMA.
			runGemmConfigAll[float32](t, e, name, cfg, shapes, 1e-5)
		}
	})
}

// TestGemmMMACPVecDevice runs the tensor-core kernel with CP_VEC=1 and the
// database's tiles (and the small tile) on a device that has tensor cores (NVIDIA sm_80+; it
// skips elsewhere: TestGemmMMAEmulated covers the index logic there), in
// both precisions and all four transposes, on aligned operands and on
// unaligned ones that must fall back to CP_VEC=0 (see runCPVec), on shapes
// with ragged edges in m, n and k.
func TestGemmMMACPVecDevice(t *testing.T) {
	e := testEngine(t)
	if !gemm.TensorCapable(e.GemmDev()) {
		t.Skipf("%s has no tensor cores", e.Prof.Name)
	}
	shapes := [][3]int{{300, 203, 77}, {129, 65, 1001}}
	for _, v := range []struct {
		prec  int
		small bool // the small tile (mma_small.go)
	}{{64, false}, {32, false}, {64, true}, {32, true}} {
		prec := v.prec
		cfg, ok := gemm.MMA(gemm.Builtin(), e.GemmDev(), prec, 4096, 4096, gemm.TensorTF32x3, gemm.Base(prec, 8))
		if !ok {
			t.Fatalf("prec %d: no gemm_mma choice on %s", prec, e.Prof.Name)
		}
		if v.small {
			if cfg, ok = gemm.MMASmall(e.GemmDev(), prec, cfg); !ok {
				t.Fatalf("prec %d: no small gemm_mma tile on %s", prec, e.Prof.Name)
			}
		}
		cfg.CPVec = true
		cfg.NoRedo = prec == 32
		name := fmt.Sprintf("f%d/%s", prec, cfg.Name())
		t.Run(name, func(t *testing.T) {
			if prec == 64 {
				runCPVec[float64](t, e, name, cfg, shapes, 1e-12)
			} else {
				runCPVec[float32](t, e, name, cfg, shapes, 1e-5)
			}
		})
	}
}

// runCPVec runs a CP_VEC=1 gemm_mma configuration through the launcher in
// every transpose combination and shape, twice: on operands aligned for
// 16-byte copies (offsets and leading dimensions multiples of 2 doubles or
// 4 floats, the leading dimensions padded), which must run the CP_VEC=1
// program — runCPVec is its only user, so the program's spec exists only
// if the launcher chose it — and on operands with an odd leading dimension
// of A and an odd offset of B, which must fall back to the CP_VEC=0
// program — or, for float (3xTF32 runs only with 16-byte copies), to the
// FMA kernel of the base fields (the emulated 16-byte copy writes NaN where
// its source is not 16-byte aligned, so running CP_VEC=1 there fails the
// comparison).
func runCPVec[T eng.Real](t *testing.T, e *eng.Engine, what string, cfg gemm.Config, shapes [][3]int, tol float64) {
	t.Helper()
	prec := eng.PrecisionOf[T]()
	v := 16 / (prec / 8)
	up := func(x int) int { return (x + v - 1) / v * v }
	rnd := rand.New(rand.NewPCG(13, 14))
	for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
		for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			ta, tb := tA == blas.Trans, tB == blas.Trans
			for _, sh := range shapes {
				m, n, k := sh[0], sh[1], sh[2]
				_, ac := eng.Stored(tA, m, k)
				_, bc := eng.Stored(tB, k, n)
				aligned := gemmLaunch{m: m, n: n, k: k, tA: tA, tB: tB,
					lda: up(ac) + v, ldb: up(bc) + v, ldc: n + 1, offA: v, offB: 2 * v, offC: 3}
				checkGemmLaunch[T](t, e, what+" aligned", cfg, aligned, rnd, tol)
				if !gemmSpecBuilt(prec, cfg, ta, tb) {
					t.Errorf("%s %s: aligned operands did not run the CP_VEC=1 program", what, transName(ta, tb))
				}
				unaligned := aligned
				unaligned.lda, unaligned.offB = up(ac)+1, 1
				checkGemmLaunch[T](t, e, what+" unaligned", cfg, unaligned, rnd, tol)
				fallback := cfg.WithoutCPVec(prec)
				switch {
				case prec == 64 && (fallback.Kernel != gemm.KernelMMA || fallback.CPVec):
					t.Errorf("%s: the double fallback is %s, want gemm_mma with CP_VEC=0", what, fallback.Name())
				case prec == 32 && fallback.Kernel != gemm.KernelTiled:
					t.Errorf("%s: the float fallback is %s, want the FMA kernel", what, fallback.Name())
				case !gemmSpecBuilt(prec, fallback, ta, tb):
					t.Errorf("%s %s: unaligned operands did not run the fallback program %s", what, transName(ta, tb), fallback.Name())
				}
			}
		}
	}
}

// TestGemmMMANonFinite: 3xTF32 with Inf, NaN and values near FLT_MAX in
// its inputs gives what an FP32 GEMM gives (the kernel computes the tiles
// whose results are not finite again with FP32 FMAs), in every transpose;
// tiles without them keep the tensor-core result. With K groups of warps
// (WARPS_K) a group's non-finite sum reaches the check through group 0's.
func TestGemmMMANonFinite(t *testing.T) {
	e := testEngine(t)
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	for _, v := range []struct {
		cpVec, splitRaw bool
		kwg, warpsK     int
	}{{false, false, 8, 0}, {true, false, 8, 0}, {true, true, 8, 0}, {true, true, 16, 2}} {
		cpVec, splitRaw := v.cpVec, v.splitRaw
		cfg := gemm.MMADefaults(gemm.Base(32, 8), 32)
		cfg.MMAMWG, cfg.MMANWG, cfg.MMAKWG, cfg.WM, cfg.WN = 32, 32, v.kwg, 16, 16
		cfg.MMAEmulate, cfg.NoOpt, cfg.CPVec, cfg.SplitRaw, cfg.WarpsK = true, true, cpVec, splitRaw, v.warpsK
		rnd := rand.New(rand.NewPCG(17, 18))
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				g := gemmLaunch{m: 70, n: 66, k: 21, tA: tA, tB: tB, offA: 4, offB: 8, offC: 3}
				ar, ac := eng.Stored(tA, g.m, g.k)
				br, bc := eng.Stored(tB, g.k, g.n)
				g.lda, g.ldb, g.ldc = ac+4, bc+4, g.n+1
				a := l3Mat[float32](ar, ac, g.lda, l3Rand(rnd, false))
				b := l3Mat[float32](br, bc, g.ldb, l3Rand(rnd, false))
				c := l3Mat[float32](g.m, g.n, g.ldc, l3Rand(rnd, false))
				// op(A)(i, p) and op(B)(p, j) in their storage.
				setA := func(i, p int, v float32) {
					if tA == blas.Trans {
						i, p = p, i
					}
					a[i*g.lda+p] = v
				}
				setB := func(p, j int, v float32) {
					if tB == blas.Trans {
						p, j = j, p
					}
					b[p*g.ldb+j] = v
				}
				setA(3, 5, inf)              // row 3 of C: ±Inf, or NaN where B's row 5 has a zero
				setA(40, 0, -inf)            // row 40
				setB(7, 50, nan)             // column 50: NaN
				setB(11, 20, 0)              // a zero in a row no Inf meets
				setA(65, 9, math.MaxFloat32) // its big part rounds to Inf
				setB(5, 10, 0)               // (3, 10): Inf·0 = NaN
				name := fmt.Sprintf("cpvec=%v splitraw=%v warpsk=%d %s", cpVec, splitRaw, v.warpsK, transName(tA == blas.Trans, tB == blas.Trans))
				// alpha ≤ 1: gonum multiplies alpha into A's element first,
				// and 1.5·MaxFloat32 would overflow there but not in a GEMM
				// that scales the sum.
				checkGemmLaunchOn(t, e, name, cfg, g, a, b, c, [][2]float64{{1, 0}, {-0.5, 0.25}}, 1e-5)
			}
		}
	}
}

// gemmSpecBuilt reports whether gemmKernelSpec has made the spec of cfg's
// program for transposes tA, tB (gemm_mma: vecAligned is always false).
func gemmSpecBuilt(prec int, cfg gemm.Config, tA, tB bool) bool {
	return eng.GemmSpecBuilt(prec, cfg, tA, tB)
}

// TestGemmMMACPVecAligned checks the launcher's choice between gemm_mma's
// CP_VEC=1 and CP_VEC=0 programs, and gemm.Valid's rule for CP_VEC.
func TestGemmMMACPVecAligned(t *testing.T) {
	on := gemm.MMADefaults(gemm.Base(64, 8), 64)
	on.CPVec = true
	off := on
	off.CPVec = false
	for _, tc := range []struct {
		cfg                  gemm.Config
		prec                 int
		over                 bool
		offA, lda, offB, ldb int
		want                 bool
	}{
		{on, 64, false, 0, 64, 0, 64, true},
		{on, 64, false, 2, 6, 4, 10, true}, // multiples of 2 doubles
		{on, 64, false, 1, 64, 0, 64, false},
		{on, 64, false, 0, 63, 0, 64, false},
		{on, 64, false, 0, 64, 3, 64, false},
		{on, 64, false, 0, 64, 0, 65, false},
		{on, 64, true, 0, 64, 0, 64, false}, // a buffer over Go memory
		{off, 64, false, 0, 64, 0, 64, false},
		{on, 32, false, 4, 8, 12, 1028, true}, // multiples of 4 floats
		{on, 32, false, 2, 8, 4, 8, false},
		{on, 32, false, 0, 6, 0, 8, false},
		{on, 32, false, 0, 8, 0, 10, false},
	} {
		if got := tc.cfg.MMACPVec(tc.prec, tc.over, tc.offA, tc.lda, tc.offB, tc.ldb); got != tc.want {
			t.Errorf("cpVec %v prec %d over %v off %d,%d ld %d,%d: %v, want %v",
				tc.cfg.CPVec, tc.prec, tc.over, tc.offA, tc.offB, tc.lda, tc.ldb, got, tc.want)
		}
	}
	if d := on.Defines(false, false, false); !slices.Contains(d, "CP_VEC=1") {
		t.Errorf("defines %v: no CP_VEC=1", d)
	}
	if d := off.Defines(false, false, false); slices.ContainsFunc(d, func(s string) bool { return strings.HasPrefix(s, "CP_VEC") }) {
		t.Errorf("defines %v: CP_VEC with cpVec off", d)
	}
	if cfg := gemm.MMAConfig(gemm.Base(64, 8), 64, map[string]int{"CP_VEC": 1}); !cfg.CPVec {
		t.Errorf("gemm.MMAConfig: CP_VEC=1 not read")
	}
	// The swizzled tiles need KWG a power of two (on a device with local
	// memory to spare, so that only that rule can refuse).
	big := profH200
	big.LocalMemBytes = 1 << 20
	for _, kwg := range []int{4, 8, 12, 16, 20, 32} {
		for _, cfg := range []gemm.Config{on, off} {
			cfg.MMAKWG = kwg
			err := gemm.Valid(eng.GemmDevice(big), 64, false, false, cfg)
			want := !cfg.CPVec || kwg&(kwg-1) == 0
			if (err == nil) != want || (err != nil && !strings.Contains(err.Error(), "CP_VEC")) {
				t.Errorf("KWG %d, cpVec %v: gemm.Valid %v", kwg, cfg.CPVec, err)
			}
		}
	}
}

// TestGemmSkinnyRoutes runs the GEMV and split-K routes on the test device
// against gonum: the GEMV route as gemm.Choose picks it, split-K forced
// (a CPU device never needs it) with the device's own kernel per slice.
func TestGemmSkinnyRoutes(t *testing.T) {
	e := testEngine(t)
	gemv := [][3]int{{1, 300, 200}, {300, 1, 200}, {1, 1, 77}, {1, 37, 1}}
	split := [][3]int{{64, 48, 5000}, {5, 3, 700}}
	for _, prec := range []int{64, 32} {
		t.Run(fmt.Sprintf("f%d", prec), func(t *testing.T) {
			if prec == 64 && !e.Prof.FP64 {
				t.Skip("the device has no fp64")
			}
			cfg := gemm.Choose(gemm.Builtin(), e.GemmDev(), prec, 1, 300, 200, gemm.TensorAuto)
			if cfg.Kernel != gemm.KernelGEMV {
				t.Fatalf("1×300×200: %s, want the gemv route", cfg.Kernel)
			}
			sk := gemm.WithSplitK(gemm.Choose(gemm.Builtin(), e.GemmDev(), prec, 64, 48, 5000, gemm.TensorAuto), 5000, 7)
			sk.NoOpt = true
			if sk.SplitK < 2 {
				t.Fatalf("gemm.WithSplitK: %+v", sk)
			}
			if prec == 64 {
				runGemmConfigAll[float64](t, e, "gemv", cfg, gemv, 1e-12)
				runGemmConfigAll[float64](t, e, "split-K", sk, split, 1e-12)
			} else {
				runGemmConfigAll[float32](t, e, "gemv", cfg, gemv, 1e-4)
				runGemmConfigAll[float32](t, e, "split-K", sk, split, 1e-4)
			}
		})
	}
}

// TestTensorOption checks that New takes the tensor-core mode from
// WithTensorCores, else from GOCL_TENSOR.
func TestTensorOption(t *testing.T) {
	newTestImpl(t) // skips without a device
	t.Setenv(envTensor, "off")
	for _, tc := range []struct {
		opts []Option
		want TensorMode
	}{{nil, TensorOff}, {[]Option{WithTensorCores(TensorTF32x3)}, TensorTF32x3}, {[]Option{WithTensorCores(TensorAuto)}, TensorAuto}} {
		impl, err := New(append(tc.opts, WithOffload(Always))...)
		if err != nil {
			t.Fatalf("New: %v", err)
		}
		d, ok := openclDevice[float32](impl)
		if !ok {
			t.Fatal("the float32 device is not the OpenCL engine")
		}
		if got := d.E.Tensor; got != gemm.Tensor(tc.want) {
			t.Errorf("%d options: tensor mode %v, want %v", len(tc.opts), got, tc.want)
		}
		if err := impl.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
	}
}

// TestTensorModeValues: the engine takes a TensorMode as the gemm.Tensor of
// the same value, so the two must agree.
func TestTensorModeValues(t *testing.T) {
	for _, tc := range []struct {
		m TensorMode
		g gemm.Tensor
	}{{TensorAuto, gemm.TensorAuto}, {TensorOff, gemm.TensorOff}, {TensorTF32x3, gemm.TensorTF32x3}} {
		if gemm.Tensor(tc.m) != tc.g {
			t.Errorf("%v is gemm.Tensor %d, want %d", tc.m, gemm.Tensor(tc.m), tc.g)
		}
		if p, err := gemm.ParseTensor(tc.m.String()); err != nil || p != tc.g {
			t.Errorf("gemm.ParseTensor(%q) = %d, %v; want %d", tc.m, p, err, tc.g)
		}
	}
}
