package clblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

// Device profiles of the selection tests.
var (
	profH200 = platform.Profile{Name: "NVIDIA H200", Vendor: platform.VendorNVIDIA, VendorName: "NVIDIA Corporation",
		Platform: "NVIDIA CUDA", Type: cl.DeviceTypeGPU, ComputeUnits: 132, MaxWorkGroupSize: 1024,
		LocalMemBytes: 48 << 10, LocalMemDedicated: true, FP64: true, ComputeCapability: [2]int{9, 0}}
	profPoCL = platform.Profile{Name: "pthread-skylake-avx512", Vendor: platform.VendorPoCL, Platform: "Portable Computing Language",
		Type: cl.DeviceTypeCPU, ComputeUnits: 2, MaxWorkGroupSize: 4096, LocalMemBytes: 2 << 20, FP64: true,
		// A width the database overrides: the entries must win.
		PreferredVectorFloat: 8, PreferredVectorDouble: 4}
)

// TestTuningDatabase checks what the database chooses for the H200 and for
// PoCL, with the tensor cores off (the FMA kernels of gemm.cl).
func TestTuningDatabase(t *testing.T) {
	type tiledWant struct{ mwg, nwg, kwg, mdimc, ndimc int }
	cases := []struct {
		prec    int
		m, n, k int
		want    tiledWant
	}{
		{32, 8192, 8192, 8192, tiledWant{128, 256, 16, 16, 16}}, // large
		{32, 2048, 2048, 2048, tiledWant{128, 256, 16, 16, 16}}, // large: 128 groups ≈ one wave
		{32, 1024, 1024, 1024, tiledWant{64, 128, 16, 8, 16}},   // medium
		{32, 512, 512, 512, tiledWant{32, 32, 32, 8, 8}},        // small
		{32, 8192, 64, 8192, tiledWant{32, 32, 16, 8, 8}},       // skinny
		{64, 8192, 8192, 8192, tiledWant{128, 128, 8, 16, 16}},
		{64, 1024, 1024, 1024, tiledWant{128, 64, 16, 16, 16}},
		{64, 64, 8192, 8192, tiledWant{64, 64, 16, 16, 16}}, // skinny
	}
	for _, tc := range cases {
		cfg := gemmChoose(builtinTuning(), profH200, tc.prec, tc.m, tc.n, tc.k, TensorOff)
		got := tiledWant{cfg.mwg, cfg.nwg, cfg.kwg, cfg.mdimc, cfg.ndimc}
		if cfg.kernel != gemmKernelTiled || got != tc.want || cfg.splitK != 0 {
			t.Errorf("H200 prec %d %dx%dx%d: %s %+v splitK %d, want gemm_tiled %+v", tc.prec, tc.m, tc.n, tc.k, cfg.kernel, got, cfg.splitK, tc.want)
		}
		// The H200's direct fallback comes from the database too.
		if cfg.dm != 2 || cfg.dn != 4 {
			t.Errorf("H200 prec %d: direct fields %d×%d, want the database's 2×4", tc.prec, cfg.dm, cfg.dn)
		}
		checkGemmConfig(t, fmt.Sprintf("H200 %+v", tc), profH200, tc.prec, cfg)
	}
	// The unaligned "large" case keeps its double buffering off, the
	// medium one on.
	if cfg := gemmChoose(builtinTuning(), profH200, 32, 4096, 4096, 4096, TensorOff); cfg.doubleBuffer {
		t.Errorf("H200 large: DOUBLE_BUFFER=1, the database says 0")
	}

	for _, prec := range []int{32, 64} {
		vec := 16
		if prec == 64 {
			vec = 8
		}
		for _, sh := range [][3]int{{3, 3, 3}, {1000, 1000, 1000}} {
			cfg := gemmChoose(builtinTuning(), profPoCL, prec, sh[0], sh[1], sh[2], TensorAuto)
			if cfg.kernel != gemmKernelCPU || cfg.cpuVecFor(false, false) != vec || cfg.cpuVecFor(true, true) != vec || cfg.cpuVecFor(false, true) != vec {
				t.Fatalf("PoCL prec %d %v: %s vec %d %v, want gemm_cpu vec %d", prec, sh, cfg.kernel, cfg.cpuVec, cfg.cpuVecs, vec)
			}
			want := [2][2][2]int{{{8, 2 * vec}, {4, 4}}, {{8, 2 * vec}, {2 * vec, 8}}}
			if cfg.cpuBlock != want {
				t.Errorf("PoCL prec %d: blocks %v, want %v", prec, cfg.cpuBlock, want)
			}
			checkGemmConfig(t, "PoCL", profPoCL, prec, cfg)
		}
	}
}

// TestTuningUnknownDevices checks the defaults derived for devices the
// database does not know: they fit the device's limits.
func TestTuningUnknownDevices(t *testing.T) {
	gpu := platform.Profile{Name: "Some GPU", Vendor: platform.VendorAMD, Type: cl.DeviceTypeGPU, ComputeUnits: 60,
		MaxWorkGroupSize: 1024, LocalMemBytes: 64 << 10, FP64: true}
	smallWG := gpu
	smallWG.MaxWorkGroupSize = 128
	smallLM := gpu
	smallLM.LocalMemBytes = 12 << 10
	tinyLM := gpu
	tinyLM.LocalMemBytes = 2 << 10
	wg32 := gpu
	wg32.MaxWorkGroupSize = 32
	cpu := platform.Profile{Name: "Some CPU", Type: cl.DeviceTypeCPU, ComputeUnits: 8, MaxWorkGroupSize: 1024,
		LocalMemBytes: 32 << 10, PreferredVectorFloat: 8, PreferredVectorDouble: 4, FP64: true}
	cases := []struct {
		name    string
		prof    platform.Profile
		m, n, k int
		kernel  string
		mwg     int // gemm_tiled's MWG, when kernel is gemm_tiled
	}{
		{"large", gpu, 4096, 4096, 4096, gemmKernelTiled, 128},
		{"medium", gpu, 640, 640, 640, gemmKernelTiled, 64},
		{"small", gpu, 100, 100, 100, gemmKernelTiled, 32},
		{"small wg", smallWG, 4096, 4096, 4096, gemmKernelTiled, 64},
		{"small local memory", smallLM, 4096, 4096, 4096, gemmKernelTiled, 64},
		{"tiny local memory", tinyLM, 4096, 4096, 4096, gemmKernelDirect, 0},
		{"32 work-items", wg32, 4096, 4096, 4096, gemmKernelDirect, 0},
		{"cpu", cpu, 512, 512, 512, gemmKernelCPU, 0},
	}
	for _, tc := range cases {
		for _, prec := range []int{32, 64} {
			what := fmt.Sprintf("%s prec %d", tc.name, prec)
			cfg := gemmChoose(builtinTuning(), tc.prof, prec, tc.m, tc.n, tc.k, TensorAuto)
			if cfg.kernel != tc.kernel || (tc.mwg != 0 && cfg.mwg != tc.mwg) {
				t.Errorf("%s: %s MWG %d, want %s MWG %d", what, cfg.kernel, cfg.mwg, tc.kernel, tc.mwg)
			}
			if cfg.kernel == gemmKernelDirect && cfg.dmdimc*cfg.dndimc > tc.prof.MaxWorkGroupSize {
				t.Errorf("%s: gemm_direct work-group %d×%d > %d", what, cfg.dmdimc, cfg.dndimc, tc.prof.MaxWorkGroupSize)
			}
			checkGemmConfig(t, what, tc.prof, prec, cfg)
		}
	}
	// CPU_VEC follows the device's vector width.
	if cfg := gemmChoose(builtinTuning(), cpu, 32, 64, 64, 64, TensorAuto); cfg.cpuVec != 8 || cfg.cpuBlock[0][0] != [2]int{8, 16} {
		t.Errorf("unknown CPU float: vec %d blocks %v, want 8 and 8×16", cfg.cpuVec, cfg.cpuBlock)
	}
	if cfg := gemmChoose(builtinTuning(), cpu, 64, 64, 64, 64, TensorAuto); cfg.cpuVec != 4 || cfg.cpuBlock[1][1] != [2]int{8, 8} {
		t.Errorf("unknown CPU double: vec %d blocks %v, want 4 and 8×8 (TT)", cfg.cpuVec, cfg.cpuBlock)
	}
}

// TestTensorChoice checks when gemmChoose picks gemm_mma.
func TestTensorChoice(t *testing.T) {
	ampere := profH200
	ampere.Name = "NVIDIA A100-SXM4-80GB" // not in the database: gemm_mma.cl's defaults
	ampere.ComputeCapability = [2]int{8, 0}
	turing := profH200
	turing.Name = "Tesla T4"
	turing.ComputeCapability = [2]int{7, 5}
	amd := profH200
	amd.Name, amd.Vendor, amd.VendorName, amd.ComputeCapability = "AMD Instinct MI210", platform.VendorAMD, "Advanced Micro Devices, Inc.", [2]int{}
	cases := []struct {
		name string
		prof platform.Profile
		mode TensorMode
		prec int
		mn   int
		mma  bool
	}{
		{"H200 dgemm auto", profH200, TensorAuto, 64, 4096, true},
		{"H200 dgemm medium", profH200, TensorAuto, 64, 1024, true},
		{"H200 dgemm skinny", profH200, TensorAuto, 64, 64, false},
		{"H200 dgemm off", profH200, TensorOff, 64, 4096, false},
		{"H200 sgemm auto", profH200, TensorAuto, 32, 4096, true},
		{"A100 sgemm auto", ampere, TensorAuto, 32, 4096, false}, // 3xTF32 opt-in where unmeasured
		{"H200 sgemm tf32x3", profH200, TensorTF32x3, 32, 4096, true},
		{"H200 sgemm off", profH200, TensorOff, 32, 4096, false},
		{"A100 dgemm", ampere, TensorAuto, 64, 4096, true},
		{"T4 dgemm", turing, TensorAuto, 64, 4096, false},
		{"T4 sgemm tf32x3", turing, TensorTF32x3, 32, 4096, false},
		{"AMD dgemm", amd, TensorAuto, 64, 4096, false},
		{"AMD sgemm tf32x3", amd, TensorTF32x3, 32, 4096, false},
	}
	for _, tc := range cases {
		cfg := gemmChoose(builtinTuning(), tc.prof, tc.prec, tc.mn, tc.mn, tc.mn, tc.mode)
		if got := cfg.kernel == gemmKernelMMA; got != tc.mma {
			t.Errorf("%s: kernel %s, want gemm_mma %v", tc.name, cfg.kernel, tc.mma)
		}
		if cfg.kernel != gemmKernelMMA {
			checkGemmConfig(t, tc.name, tc.prof, tc.prec, cfg)
			continue
		}
		// The H200's entries: 16-byte copies in both precisions, DGEMM's
		// spread between the mma.sync (ISSUE_MIX), 3xTF32's not; 3xTF32's
		// tiles unpadded (KM_SWZ), DGEMM's padded.
		if tc.prof.Name == profH200.Name && (!cfg.cpVec || cfg.issueMix != (tc.prec == 64) || cfg.kmSwz != (tc.prec == 32)) {
			t.Errorf("%s: CP_VEC %v ISSUE_MIX %v KM_SWZ %v, want CP_VEC, ISSUE_MIX for DGEMM only, KM_SWZ for 3xTF32 only", tc.name, cfg.cpVec, cfg.issueMix, cfg.kmSwz)
		}
		want := [5]int{128, 64, 8, 64, 32}
		if tc.prec == 32 {
			want = [5]int{128, 64, 32, 64, 32}
		}
		if got := [5]int{cfg.mmaMWG, cfg.mmaNWG, cfg.mmaKWG, cfg.wm, cfg.wn}; got != want {
			t.Errorf("%s: gemm_mma tile %v, want %v", tc.name, got, want)
		}
		global, local := cfg.work(false, false, 1000, 1000)
		wantLocal := 128
		if local[0] != wantLocal || global[0] != l3CeilDiv(1000, want[1])*wantLocal || global[1] != l3CeilDiv(1000, 128) {
			t.Errorf("%s: work sizes %v %v", tc.name, global, local)
		}
		if cfg.mmaLocalBytes(tc.prec) > tc.prof.LocalMemBytes {
			t.Errorf("%s: %d bytes of local memory", tc.name, cfg.mmaLocalBytes(tc.prec))
		}
	}

	// GOCL_TENSOR's words, as New parses them.
	for _, env := range []struct {
		val        string
		mma32, mma bool
	}{{"", true, true}, {"auto", true, true}, {"off", false, false}, {"OFF", false, false}, {"on", true, true}, {"tf32x3", true, true}} {
		mode, err := ParseTensorMode(env.val)
		if err != nil {
			t.Errorf("GOCL_TENSOR=%q: %v", env.val, err)
		}
		if got := gemmChoose(builtinTuning(), profH200, 64, 4096, 4096, 4096, mode).kernel == gemmKernelMMA; got != env.mma {
			t.Errorf("GOCL_TENSOR=%q: DGEMM on gemm_mma %v, want %v", env.val, got, env.mma)
		}
		if got := gemmChoose(builtinTuning(), profH200, 32, 4096, 4096, 4096, mode).kernel == gemmKernelMMA; got != env.mma32 {
			t.Errorf("GOCL_TENSOR=%q: SGEMM on gemm_mma %v, want %v", env.val, got, env.mma32)
		}
	}
	if _, err := ParseTensorMode("bogus"); err == nil {
		t.Errorf("ParseTensorMode(bogus): no error")
	}
}

// TestSkinnyChoice checks the GEMV and split-K routes.
func TestSkinnyChoice(t *testing.T) {
	for _, prof := range []platform.Profile{profH200, profPoCL} {
		for _, sh := range [][3]int{{1, 300, 200}, {300, 1, 200}, {1, 1, 5}} {
			if cfg := gemmChoose(builtinTuning(), prof, 64, sh[0], sh[1], sh[2], TensorAuto); cfg.kernel != gemmKernelGEMV {
				t.Errorf("%s %v: %s, want the gemv route", prof.Name, sh, cfg.kernel)
			}
		}
	}
	for _, prec := range []int{32, 64} {
		cfg := gemmChoose(builtinTuning(), profH200, prec, 64, 48, 5000, TensorAuto)
		if cfg.splitK < 2 {
			t.Fatalf("H200 prec %d 64×48×5000: no split-K (%+v)", prec, cfg)
		}
		if cfg.kslice%cfg.kwg != 0 || cfg.kslice < splitKMinK || (cfg.splitK-1)*cfg.kslice >= 5000 || cfg.splitK*cfg.kslice < 5000 {
			t.Errorf("H200 prec %d: %d slices of %d for k = 5000", prec, cfg.splitK, cfg.kslice)
		}
		// Long enough K: the slices reach twice the compute units.
		cfg = gemmChoose(builtinTuning(), profH200, prec, 64, 64, 100000, TensorAuto)
		if wg := cfg.workGroups(64, 64) * cfg.splitK; wg < 2*profH200.ComputeUnits {
			t.Errorf("H200 prec %d 64×64×100000: %d slices × %d groups < 2×CUs", prec, cfg.splitK, cfg.workGroups(64, 64))
		}
		// No split when the device is full or K is short.
		for _, sh := range [][3]int{{4096, 4096, 100000}, {64, 48, 100}, {64, 48, 5000}} {
			prof := profH200
			if sh == [3]int{64, 48, 5000} {
				prof = profPoCL // two CUs: the CPU kernel's groups fill them
			}
			if cfg := gemmChoose(builtinTuning(), prof, prec, sh[0], sh[1], sh[2], TensorAuto); cfg.splitK != 0 {
				t.Errorf("%s prec %d %v: split-K %d, want none", prof.Name, prec, sh, cfg.splitK)
			}
		}
	}
}

// gemmRefOf returns gonum's GEMM in precision T.
func gemmRefOf[T real]() l3API[T] {
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
func runGemmConfigAll[T real](t *testing.T, e *engine, what string, cfg gemmConfig, shapes [][3]int, tol float64) {
	t.Helper()
	for _, tA := range []bool{false, true} {
		for _, tB := range []bool{false, true} {
			runGemmConfig[T](t, e, what, cfg, tA, tB, shapes, tol)
		}
	}
}

// runGemmConfig is runGemmConfigAll for one transpose combination.
func runGemmConfig[T real](t *testing.T, e *engine, what string, cfg gemmConfig, ta, tb bool, shapes [][3]int, tol float64) {
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
		_, ac := stored(tA, m, k)
		_, bc := stored(tB, k, n)
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
func checkGemmLaunch[T real](t *testing.T, e *engine, what string, cfg gemmConfig, g gemmLaunch, rnd *rand.Rand, tol float64) {
	t.Helper()
	m, n, k := g.m, g.n, g.k
	ar, ac := stored(g.tA, m, k)
	br, bc := stored(g.tB, k, n)
	a := l3Mat[T](ar, ac, g.lda, l3Rand(rnd, false))
	b := l3Mat[T](br, bc, g.ldb, l3Rand(rnd, false))
	c := l3Mat[T](m, n, g.ldc, l3Rand(rnd, false))
	checkGemmLaunchOn(t, e, what, cfg, g, a, b, c, [][2]float64{{1.5, 0}, {-0.5, 0.25}}, tol)
}

// checkGemmLaunchOn is checkGemmLaunch on the given A, B and C (stored as g
// says, without the offsets), for each {alpha, beta} of albe.
func checkGemmLaunchOn[T real](t *testing.T, e *engine, what string, cfg gemmConfig, g gemmLaunch, a, b, c []T, albe [][2]float64, tol float64) {
	t.Helper()
	m, n, k := g.m, g.n, g.k
	ref := gemmRefOf[T]()
	for _, ab := range albe {
		alpha, beta := T(ab[0]), T(ab[1])
		want := slices.Clone(c)
		ref.gemm(g.tA, g.tB, m, n, k, alpha, a, g.lda, b, g.ldb, beta, want, g.ldc)
		cc := begin[T](e, "gemm-launch-test")
		abuf := upload(cc, append(make([]T, g.offA), a...))
		bbuf := upload(cc, append(make([]T, g.offB), b...))
		cin := append(make([]T, g.offC), c...)
		if beta == 0 {
			for i := range c {
				cin[g.offC+i] = T(math.NaN())
			}
		}
		cb := upload(cc, cin)
		newGemmLauncher[T](cc).gemm(cfg, g.tA == blas.Trans, g.tB == blas.Trans, m, n, k, alpha,
			abuf, g.offA, g.lda, bbuf, g.offB, g.ldb, beta, cb, g.offC, g.ldc)
		out := download[T](cc, cb, len(cin))
		if err := cc.finish(); err != nil {
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

// configName describes a configuration in test output.
func configName(cfg gemmConfig) string {
	switch cfg.kernel {
	case gemmKernelTiled:
		return fmt.Sprintf("tiled_%dx%dx%d_%dx%d_v%d%d%d%d_db%d", cfg.mwg, cfg.nwg, cfg.kwg, cfg.mdimc, cfg.ndimc,
			cfg.vwm, cfg.vwn, cfg.vwa, cfg.vwb, l3Bool(cfg.doubleBuffer))
	case gemmKernelDirect:
		return fmt.Sprintf("direct_%dx%d_%dx%d", cfg.dm, cfg.dn, cfg.dmdimc, cfg.dndimc)
	case gemmKernelCPU:
		return fmt.Sprintf("cpu_v%d%v_%v", cfg.cpuVec, cfg.cpuVecs, cfg.cpuBlock)
	case gemmKernelMMA:
		name := fmt.Sprintf("mma_%dx%dx%d_w%dx%d", cfg.mmaMWG, cfg.mmaNWG, cfg.mmaKWG, cfg.wm, cfg.wn)
		if cfg.splitRaw {
			name += "_splitraw"
		}
		if cfg.cpVec {
			name += "_cpvec"
		}
		if cfg.mmaK > 0 {
			name += fmt.Sprintf("_k%d", cfg.mmaK)
		}
		if cfg.issueMix {
			name += "_mix"
		}
		if cfg.kmSwz {
			name += "_kmswz"
		}
		if cfg.pipeFrag {
			name += "_pipe"
		}
		if cfg.stages > 0 {
			name += fmt.Sprintf("_s%d", cfg.stages)
		}
		return name
	}
	return cfg.kernel
}

// tunedPrograms plans the programs (define sets) that run every gemm.cl
// configuration in cfgs in all four transpose combinations. gemm.cl is
// compiled whole, so one program carries a gemm_tiled, a gemm_direct and a
// gemm_cpu set at once: program i runs transpose combination i mod 4 with
// tiled set ⌊i/4⌋ mod T, direct set ⌊i/4⌋ mod D and CPU set ⌊i/4⌋ mod C,
// 4·max(T, D, C) programs in all. They are built with -cl-opt-disable,
// which PoCL compiles about 8 times faster (the shipped PoCL sets also run
// optimized, in the rest of the suite).
func tunedPrograms(cfgs []gemmConfig) (progs []gemmConfig, trans [][2]bool) {
	var tiled, direct, cpu []gemmConfig
	seen := map[string]bool{}
	for _, c := range cfgs {
		// Each kernel's own fields decide whether a set is new.
		var key string
		switch c.kernel {
		case gemmKernelTiled:
			key = fmt.Sprint(c.kernel, c.mwg, c.nwg, c.kwg, c.mdimc, c.ndimc, c.vwm, c.vwn, c.vwa, c.vwb, c.pada, c.padb, c.doubleBuffer)
		case gemmKernelDirect:
			key = fmt.Sprint(c.kernel, c.dm, c.dn, c.dmdimc, c.dndimc)
		case gemmKernelCPU:
			key = fmt.Sprint(c.kernel, c.cpuVec, c.cpuVecs, c.cpuBlock, c.cpuLocal)
		}
		if key == "" || seen[key] {
			continue
		}
		seen[key] = true
		switch c.kernel {
		case gemmKernelTiled:
			tiled = append(tiled, c)
		case gemmKernelDirect:
			direct = append(direct, c)
		case gemmKernelCPU:
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
		p.dm, p.dn, p.dmdimc, p.dndimc = d.dm, d.dn, d.dmdimc, d.dndimc
		p.cpuVec, p.cpuVecs, p.cpuBlock, p.cpuLocal = c.cpuVec, c.cpuVecs, c.cpuBlock, c.cpuLocal
		p.noOpt = true
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
		progs, trans := tunedPrograms(allTunedConfigs(prec))
		if len(progs) == 0 {
			t.Fatalf("prec %d: no configurations", prec)
		}
		for i, p := range progs {
			tA, tB := trans[i][0], trans[i][1]
			for _, kern := range []string{gemmKernelCPU, gemmKernelDirect, gemmKernelTiled} {
				cfg := p
				cfg.kernel = kern
				name := fmt.Sprintf("f%d/%s/%s", prec, configName(cfg), transName(tA, tB))
				t.Run(name, func(t *testing.T) {
					if prec == 64 {
						if !e.prof.FP64 {
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
		cfg := mmaDefaults(gemmBase(prec, 8), prec)
		cfg.mmaMWG, cfg.mmaNWG, cfg.mmaKWG, cfg.wm, cfg.wn = 32, 32, v.kwg, 16, 16
		cfg.mmaEmulate, cfg.noOpt, cfg.splitRaw, cfg.cpVec, cfg.mmaK = true, true, v.splitRaw, v.cpVec, v.mmaK
		cfg.issueMix, cfg.kmSwz, cfg.pipeFrag = v.mix, v.kmSwz, v.pipe
		// The tensor-core result itself, not its FP32 recomputation.
		cfg.noRedo = prec == 32
		shapes := shapes
		if v.mix || v.pipe || v.kwg >= 32 {
			// ISSUE_MIX's spread copies run for K tiles wholly inside k
			// at least STAGES tiles ahead: a long k with a ragged end
			// (and more than one K tile of 32).
			shapes = [][3]int{{37, 70, 61}, {66, 33, 45}}
		}
		name := fmt.Sprintf("f%d/%s", prec, configName(cfg))
		t.Run(name, func(t *testing.T) {
			if err := gemmValid(e.prof, prec, false, false, cfg); err != nil {
				t.Fatalf("gemmValid: %v", err)
			}
			switch {
			case prec == 64 && !e.prof.FP64:
				t.Skip("the device has no fp64")
			case prec == 64 && cfg.cpVec:
				runCPVec[float64](t, e, name, cfg, shapes, 1e-12)
			case prec == 64:
				runGemmConfigAll[float64](t, e, name, cfg, shapes, 1e-12)
			case cfg.cpVec:
				runCPVec[float32](t, e, name, cfg, shapes, 1e-5)
			default:
				// 3xTF32 is about as accurate as FP32 FMA.
				runGemmConfigAll[float32](t, e, name, cfg, shapes, 1e-5)
			}
		})
	}
}

// TestGemmMMACPVecDevice runs the tensor-core kernel with CP_VEC=1 and the
// database's tiles on a device that has tensor cores (NVIDIA sm_80+; it
// skips elsewhere: TestGemmMMAEmulated covers the index logic there), in
// both precisions and all four transposes, on aligned operands and on
// unaligned ones that must fall back to CP_VEC=0 (see runCPVec), on shapes
// with ragged edges in m, n and k.
func TestGemmMMACPVecDevice(t *testing.T) {
	e := testEngine(t)
	if !tensorCapable(e.prof) {
		t.Skipf("%s has no tensor cores", e.prof.Name)
	}
	shapes := [][3]int{{300, 203, 77}, {129, 65, 1001}}
	for _, prec := range []int{64, 32} {
		cfg, ok := mmaGemm(builtinTuning(), e.prof, prec, 4096, 4096, TensorTF32x3, gemmBase(prec, 8))
		if !ok {
			t.Fatalf("prec %d: no gemm_mma choice on %s", prec, e.prof.Name)
		}
		cfg.cpVec = true
		cfg.noRedo = prec == 32
		name := fmt.Sprintf("f%d/%s", prec, configName(cfg))
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
func runCPVec[T real](t *testing.T, e *engine, what string, cfg gemmConfig, shapes [][3]int, tol float64) {
	t.Helper()
	prec := precisionOf[T]()
	v := 16 / (prec / 8)
	up := func(x int) int { return (x + v - 1) / v * v }
	rnd := rand.New(rand.NewPCG(13, 14))
	for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
		for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			ta, tb := tA == blas.Trans, tB == blas.Trans
			for _, sh := range shapes {
				m, n, k := sh[0], sh[1], sh[2]
				_, ac := stored(tA, m, k)
				_, bc := stored(tB, k, n)
				aligned := gemmLaunch{m: m, n: n, k: k, tA: tA, tB: tB,
					lda: up(ac) + v, ldb: up(bc) + v, ldc: n + 1, offA: v, offB: 2 * v, offC: 3}
				checkGemmLaunch[T](t, e, what+" aligned", cfg, aligned, rnd, tol)
				if !gemmSpecBuilt(prec, cfg, ta, tb) {
					t.Errorf("%s %s: aligned operands did not run the CP_VEC=1 program", what, transName(ta, tb))
				}
				unaligned := aligned
				unaligned.lda, unaligned.offB = up(ac)+1, 1
				checkGemmLaunch[T](t, e, what+" unaligned", cfg, unaligned, rnd, tol)
				fallback := cfg.withoutCPVec(prec)
				switch {
				case prec == 64 && (fallback.kernel != gemmKernelMMA || fallback.cpVec):
					t.Errorf("%s: the double fallback is %s, want gemm_mma with CP_VEC=0", what, configName(fallback))
				case prec == 32 && fallback.kernel != gemmKernelTiled:
					t.Errorf("%s: the float fallback is %s, want the FMA kernel", what, configName(fallback))
				case !gemmSpecBuilt(prec, fallback, ta, tb):
					t.Errorf("%s %s: unaligned operands did not run the fallback program %s", what, transName(ta, tb), configName(fallback))
				}
			}
		}
	}
}

// TestGemmMMANonFinite: 3xTF32 with Inf, NaN and values near FLT_MAX in
// its inputs gives what an FP32 GEMM gives (the kernel computes the tiles
// whose results are not finite again with FP32 FMAs), in every transpose;
// tiles without them keep the tensor-core result.
func TestGemmMMANonFinite(t *testing.T) {
	e := testEngine(t)
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	for _, v := range [][2]bool{{false, false}, {true, false}, {true, true}} {
		cpVec, splitRaw := v[0], v[1]
		cfg := mmaDefaults(gemmBase(32, 8), 32)
		cfg.mmaMWG, cfg.mmaNWG, cfg.mmaKWG, cfg.wm, cfg.wn = 32, 32, 8, 16, 16
		cfg.mmaEmulate, cfg.noOpt, cfg.cpVec, cfg.splitRaw = true, true, cpVec, splitRaw
		rnd := rand.New(rand.NewPCG(17, 18))
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				g := gemmLaunch{m: 70, n: 66, k: 21, tA: tA, tB: tB, offA: 4, offB: 8, offC: 3}
				ar, ac := stored(tA, g.m, g.k)
				br, bc := stored(tB, g.k, g.n)
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
				name := fmt.Sprintf("cpvec=%v splitraw=%v %s", cpVec, splitRaw, transName(tA == blas.Trans, tB == blas.Trans))
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
func gemmSpecBuilt(prec int, cfg gemmConfig, tA, tB bool) bool {
	gemmSpecs.RLock()
	defer gemmSpecs.RUnlock()
	_, ok := gemmSpecs.m[gemmSpecKey{prec, cfg, tA, tB, false}]
	return ok
}

// TestGemmMMACPVecAligned checks the launcher's choice between gemm_mma's
// CP_VEC=1 and CP_VEC=0 programs, and gemmValid's rule for CP_VEC.
func TestGemmMMACPVecAligned(t *testing.T) {
	on := mmaDefaults(gemmBase(64, 8), 64)
	on.cpVec = true
	off := on
	off.cpVec = false
	for _, tc := range []struct {
		cfg                  gemmConfig
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
		if got := tc.cfg.mmaCPVec(tc.prec, tc.over, tc.offA, tc.lda, tc.offB, tc.ldb); got != tc.want {
			t.Errorf("cpVec %v prec %d over %v off %d,%d ld %d,%d: %v, want %v",
				tc.cfg.cpVec, tc.prec, tc.over, tc.offA, tc.offB, tc.lda, tc.ldb, got, tc.want)
		}
	}
	if d := on.defines(false, false, false); !slices.Contains(d, "CP_VEC=1") {
		t.Errorf("defines %v: no CP_VEC=1", d)
	}
	if d := off.defines(false, false, false); slices.ContainsFunc(d, func(s string) bool { return strings.HasPrefix(s, "CP_VEC") }) {
		t.Errorf("defines %v: CP_VEC with cpVec off", d)
	}
	if cfg := mmaConfig(gemmBase(64, 8), 64, map[string]int{"CP_VEC": 1}); !cfg.cpVec {
		t.Errorf("mmaConfig: CP_VEC=1 not read")
	}
	// The swizzled tiles need KWG a power of two (on a device with local
	// memory to spare, so that only that rule can refuse).
	big := profH200
	big.LocalMemBytes = 1 << 20
	for _, kwg := range []int{4, 8, 12, 16, 20, 32} {
		for _, cfg := range []gemmConfig{on, off} {
			cfg.mmaKWG = kwg
			err := gemmValid(big, 64, false, false, cfg)
			want := !cfg.cpVec || kwg&(kwg-1) == 0
			if (err == nil) != want || (err != nil && !strings.Contains(err.Error(), "CP_VEC")) {
				t.Errorf("KWG %d, cpVec %v: gemmValid %v", kwg, cfg.cpVec, err)
			}
		}
	}
}

// TestGemmMMAKValid: MMA_K is read from the database, passed as a define
// only when it is not 4, and refused for float, for values other than 4, 8
// and 16, and when KWG is not a multiple of it.
func TestGemmMMAKValid(t *testing.T) {
	if cfg := mmaConfig(gemmBase(64, 8), 64, map[string]int{"MMA_K": 8}); cfg.mmaK != 8 ||
		!slices.Contains(cfg.defines(false, false, false), "MMA_K=8") {
		t.Errorf("mmaConfig/defines: MMA_K=8 lost: %d %v", cfg.mmaK, cfg.defines(false, false, false))
	}
	if d := mmaDefaults(gemmBase(64, 8), 64).defines(false, false, false); slices.ContainsFunc(d, func(s string) bool { return strings.HasPrefix(s, "MMA_K") }) {
		t.Errorf("defines %v: MMA_K without a setting", d)
	}
	big := profH200
	big.LocalMemBytes = 1 << 20
	for _, tc := range []struct {
		prec, mmaK, kwg int
		ok              bool
	}{
		{64, 4, 8, true}, {64, 8, 8, true}, {64, 16, 16, true},
		{64, 16, 8, false}, {64, 12, 24, false}, {32, 8, 8, false},
	} {
		cfg := mmaDefaults(gemmBase(tc.prec, 8), tc.prec)
		cfg.mmaK, cfg.mmaKWG = tc.mmaK, tc.kwg
		if err := gemmValid(big, tc.prec, false, false, cfg); (err == nil) != tc.ok {
			t.Errorf("prec %d MMA_K %d KWG %d: gemmValid %v, want ok %v", tc.prec, tc.mmaK, tc.kwg, err, tc.ok)
		}
	}
}

// TestGemmMMASwitchesValid: the database keys ISSUE_MIX, KM_SWZ and
// PIPE_FRAG reach the defines, and gemmValid turns away the combinations
// the kernel rejects with #error: PIPE_FRAG for float, KM_SWZ without
// CP_VEC, KM_SWZ with tile widths that are not multiples of 128 bytes.
func TestGemmMMASwitchesValid(t *testing.T) {
	cfg := mmaConfig(gemmBase(64, 8), 64, map[string]int{"CP_VEC": 1, "ISSUE_MIX": 1, "KM_SWZ": 1, "PIPE_FRAG": 1})
	for _, want := range []string{"ISSUE_MIX=1", "KM_SWZ=1", "PIPE_FRAG=1"} {
		if d := cfg.defines(false, false, false); !slices.Contains(d, want) {
			t.Errorf("defines %v: %s lost", d, want)
		}
	}
	big := profH200
	big.LocalMemBytes = 1 << 20
	for _, tc := range []struct {
		name    string
		prec    int
		set     func(*gemmConfig)
		wantErr string // "" when valid
	}{
		{"double PIPE_FRAG", 64, func(c *gemmConfig) { c.pipeFrag = true }, ""},
		{"float PIPE_FRAG", 32, func(c *gemmConfig) { c.pipeFrag = true }, "PIPE_FRAG is for the double kernel"},
		{"KM_SWZ with CP_VEC", 64, func(c *gemmConfig) { c.cpVec, c.kmSwz = true, true }, ""},
		{"KM_SWZ alone", 64, func(c *gemmConfig) { c.kmSwz = true }, "KM_SWZ=1 needs CP_VEC=1"},
		{"KM_SWZ, float, 16-wide tile", 32, func(c *gemmConfig) {
			c.cpVec, c.kmSwz, c.mmaMWG, c.mmaNWG, c.mmaKWG, c.wm, c.wn = true, true, 32, 16, 16, 16, 16
		}, "KM_SWZ=1 needs MWG and NWG multiples of 32"},
		{"CP_VEC, float, 16-wide tile", 32, func(c *gemmConfig) {
			c.cpVec, c.mmaMWG, c.mmaNWG, c.mmaKWG, c.wm, c.wn = true, 32, 16, 16, 16, 16
		}, ""},
	} {
		cfg := mmaDefaults(gemmBase(tc.prec, 8), tc.prec)
		tc.set(&cfg)
		err := gemmValid(big, tc.prec, false, false, cfg)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: gemmValid %v, want valid", tc.name, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: gemmValid %v, want an error with %q", tc.name, err, tc.wantErr)
		}
	}
}

// TestGemmSkinnyRoutes runs the GEMV and split-K routes on the test device
// against gonum: the GEMV route as gemmChoose picks it, split-K forced
// (a CPU device never needs it) with the device's own kernel per slice.
func TestGemmSkinnyRoutes(t *testing.T) {
	e := testEngine(t)
	gemv := [][3]int{{1, 300, 200}, {300, 1, 200}, {1, 1, 77}, {1, 37, 1}}
	split := [][3]int{{64, 48, 5000}, {5, 3, 700}}
	for _, prec := range []int{64, 32} {
		t.Run(fmt.Sprintf("f%d", prec), func(t *testing.T) {
			if prec == 64 && !e.prof.FP64 {
				t.Skip("the device has no fp64")
			}
			cfg := gemmChoose(builtinTuning(), e.prof, prec, 1, 300, 200, TensorAuto)
			if cfg.kernel != gemmKernelGEMV {
				t.Fatalf("1×300×200: %s, want the gemv route", cfg.kernel)
			}
			sk := withSplitK(gemmChoose(builtinTuning(), e.prof, prec, 64, 48, 5000, TensorAuto), 5000, 7)
			sk.noOpt = true
			if sk.splitK < 2 {
				t.Fatalf("withSplitK: %+v", sk)
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
		d, ok := impl.dev32.(clDevice32)
		if !ok {
			t.Fatalf("the float32 device is %T", impl.dev32)
		}
		if got := engineTensor(d.e); got != tc.want {
			t.Errorf("%d options: tensor mode %v, want %v", len(tc.opts), got, tc.want)
		}
		if err := impl.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
	}
}

// TestReadTuning: GOCL_GEMM_TUNING's file replaces the embedded database;
// a missing or malformed file is an error naming the variable or the file
// (New then fails, naming the variable).
func TestReadTuning(t *testing.T) {
	embedded, err := readTuning("")
	if err != nil || len(embedded.Devices) == 0 {
		t.Fatalf("embedded database: %d devices, %v", len(embedded.Devices), err)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "db.json")
	if err := os.WriteFile(good, []byte(`{"schema": 1, "devices": [{"match": {"name": "X"}, "entries": []}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := readTuning(good)
	if err != nil || len(db.Devices) != 1 || db.Devices[0].Match.Name != "X" {
		t.Errorf("file database: %+v, %v", db, err)
	}
	if _, err := readTuning(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), envTuning) {
		t.Errorf("missing file: %v, want an error naming %s", err, envTuning)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"devices": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readTuning(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("malformed file: %v, want an error naming it", err)
	}
}

// TestMMATransSwitches: a gemm_mma entry's per-transpose switches
// (tuningEntry.Trans) reach that combination's defines and validity check
// only, leave the tile alone, and a database with a key that may not be
// set per combination, or a bad combination name, is refused on reading.
func TestMMATransSwitches(t *testing.T) {
	base := mmaConfig(gemmBase(64, 8), 64, map[string]int{"MWG": 128, "NWG": 64, "KWG": 8, "WM": 64, "WN": 32, "STAGES": 3, "CP_VEC": 1, "ISSUE_MIX": 1})
	cfg, err := withTrans(base, map[string]map[string]int{"TN": {"ISSUE_MIX": 0, "PIPE_FRAG": 1}, "TT": {"PIPE_FRAG": 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tA, tB    bool
		mix, pipe bool
	}{
		{false, false, true, false}, {false, true, true, false}, // the entry's own
		{true, false, false, true}, // TN: both replaced
		{true, true, true, true},   // TT: ISSUE_MIX kept from the entry
	} {
		d := cfg.defines(tc.tA, tc.tB, false)
		if slices.Contains(d, "ISSUE_MIX=1") != tc.mix || slices.Contains(d, "PIPE_FRAG=1") != tc.pipe {
			t.Errorf("TRANSA %v TRANSB %v: defines %v, want ISSUE_MIX %v PIPE_FRAG %v", tc.tA, tc.tB, d, tc.mix, tc.pipe)
		}
		if !slices.Contains(d, "MWG=128") || !slices.Contains(d, "NWG=64") {
			t.Errorf("TRANSA %v TRANSB %v: defines %v lost the tile", tc.tA, tc.tB, d)
		}
	}
	// PIPE_FRAG is for double: the float check sees the combination's own.
	f32 := mmaDefaults(gemmBase(32, 8), 32)
	f32, err = withTrans(f32, map[string]map[string]int{"NT": {"PIPE_FRAG": 1}})
	if err != nil {
		t.Fatal(err)
	}
	big := profH200
	big.LocalMemBytes = 1 << 20
	if err := gemmValid(big, 32, false, false, f32); err != nil {
		t.Errorf("float NN: %v, want valid", err)
	}
	if err := gemmValid(big, 32, false, true, f32); err == nil || !strings.Contains(err.Error(), "PIPE_FRAG") {
		t.Errorf("float NT with PIPE_FRAG: %v, want an error naming PIPE_FRAG", err)
	}
	// The H200's DGEMM entry: TN fetches its fragments ahead, the other
	// combinations spread their copies.
	h := gemmChoose(builtinTuning(), profH200, 64, 4096, 4096, 4096, TensorAuto)
	if tn, nn := h.forTrans(true, false), h.forTrans(false, false); !tn.pipeFrag || tn.issueMix || nn.pipeFrag || !nn.issueMix {
		t.Errorf("H200 DGEMM: TN PIPE_FRAG %v ISSUE_MIX %v, NN PIPE_FRAG %v ISSUE_MIX %v; want TN 1 0, NN 0 1", tn.pipeFrag, tn.issueMix, nn.pipeFrag, nn.issueMix)
	}
	dir := t.TempDir()
	for name, trans := range map[string]string{
		"key":  `{"TN": {"MWG": 64}}`,
		"comb": `{"TX": {"PIPE_FRAG": 1}}`,
	} {
		path := filepath.Join(dir, name+".json")
		db := `{"schema": 1, "devices": [{"match": {"name": "X"}, "entries": [{"precision": 64, "kernel": "gemm_mma", "defines": {}, "trans": ` + trans + `}]}]}`
		if err := os.WriteFile(path, []byte(db), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readTuning(path); err == nil {
			t.Errorf("database with trans %s: read without error", trans)
		}
	}
}

// TestWithoutCPVec: a call that CP_VEC=1 cannot copy runs a program that
// fits where the CP_VEC=1 one did. With KM_SWZ=1 CP_VEC=1's tiles are all
// unpadded, so 4 stages of a 128×64×8 double tile take exactly 48 KiB; the
// padded CP_VEC=0 tiles would take 49 664 bytes, and the fallback runs 3
// stages. Float falls back to the FMA kernel.
func TestWithoutCPVec(t *testing.T) {
	cfg := mmaConfig(gemmBase(64, 8), 64, map[string]int{"MWG": 128, "NWG": 64, "KWG": 8, "WM": 64, "WN": 32, "STAGES": 4, "CP_VEC": 1, "KM_SWZ": 1})
	if padded := cfg.withKMSwz(false); padded.mmaLocalBytes(64) <= 48<<10 {
		t.Errorf("CP_VEC=1 without KM_SWZ, 4 stages: %d bytes, want over 48 KiB (padded k-major tiles)", padded.mmaLocalBytes(64))
	}
	if got := cfg.mmaLocalBytes(64); got != 48<<10 {
		t.Errorf("CP_VEC=1 128x64x8, 4 stages: %d bytes of local memory, want %d", got, 48<<10)
	}
	fb := cfg.withoutCPVec(64)
	if fb.cpVec || fb.kernel != gemmKernelMMA || fb.stages != 3 || fb.mmaLocalBytes(64) > 48<<10 {
		t.Errorf("double fallback %s: %d bytes, want CP_VEC=0 with 3 stages within 48 KiB", configName(fb), fb.mmaLocalBytes(64))
	}
	three := cfg
	three.stages = 3
	if fb := three.withoutCPVec(64); fb.stages != 3 {
		t.Errorf("3 stages fit padded too, yet the fallback has %d", fb.stages)
	}
	f := mmaConfig(gemmBase(32, 8), 32, map[string]int{"MWG": 128, "NWG": 128, "KWG": 16, "WM": 64, "WN": 64, "STAGES": 3, "CP_VEC": 1, "KM_SWZ": 1})
	if got := f.mmaLocalBytes(32); got != 48<<10 {
		t.Errorf("CP_VEC=1 float 128x128x16, 3 stages: %d bytes, want %d", got, 48<<10)
	}
	if fb := f.withoutCPVec(32); fb.kernel != gemmKernelTiled {
		t.Errorf("float fallback %s, want the FMA kernel", configName(fb))
	}
}

// withKMSwz is cfg with KM_SWZ set to on.
func (cfg gemmConfig) withKMSwz(on bool) gemmConfig {
	cfg.kmSwz = on
	return cfg
}
