package clblas

import (
	eng "github.com/gocompute/opencl/internal/engine"

	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gocompute/opencl/internal/gemm"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

// The device zoo: synthetic device profiles (every vector width, local
// memory size and kind, work-group limit, warp width, with and without
// fp64, OpenCL 1.2 and 3.0, unified and discrete memory, and vendor-like
// profiles), every configuration the library would choose for each, and a
// run of each distinct configuration on the test device against gonum.
//
// The test reaches the choice code through the adapters below, and only
// through them: when the choice moves (internal/gemm), re-point these.

// zooGemmChoice is the library's GEMM choice (kernel, parameters, route)
// for device p, precision prec and an m×n×k shape.
func zooGemmChoice(p platform.Profile, prec, m, n, k int) gemm.Config {
	return gemm.Choose(gemm.Builtin(), eng.GemmDevice(p), prec, m, n, k, gemm.TensorAuto)
}

// zooGemmFallback is the configuration a GEMM chosen as cfg falls back to
// when its tile's 32-bit index arithmetic does not hold (gemm_direct with
// the same program's direct fields), and whether there is one.
func zooGemmFallback(cfg gemm.Config) (gemm.Config, bool) {
	if cfg.Kernel != gemm.KernelTiled || cfg.SplitK > 1 {
		return cfg, false
	}
	cfg.Kernel = gemm.KernelDirect
	return cfg, true
}

// zooGemmKey identifies a GEMM configuration: the kernel, its route and
// the defines of its four programs (one per transpose combination).
func zooGemmKey(cfg gemm.Config) string {
	if cfg.Kernel == gemm.KernelGEMV {
		return gemm.KernelGEMV // gemm_skinny.cl's gemv kernels take no defines
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s split %d/%d", cfg.Kernel, cfg.SplitK, cfg.KSlice)
	for _, tA := range []bool{false, true} {
		for _, tB := range []bool{false, true} {
			b.WriteString(" | ")
			b.WriteString(strings.Join(cfg.Defines(tA, tB, false), " "))
		}
	}
	return b.String()
}

// zooGemmValid checks cfg against its kernel's rules and p's limits for
// every transpose combination.
func zooGemmValid(p platform.Profile, prec int, cfg gemm.Config) error {
	if cfg.Kernel == gemm.KernelGEMV {
		return nil
	}
	if cfg.SplitK > 1 {
		cfg.SplitK, cfg.KSlice = 0, 0
	}
	for _, tA := range []bool{false, true} {
		for _, tB := range []bool{false, true} {
			if err := gemm.Valid(eng.GemmDevice(p), prec, tA, tB, cfg); err != nil {
				return fmt.Errorf("tA=%v tB=%v: %w", tA, tB, err)
			}
		}
	}
	return nil
}

// zooRunGemm runs cfg through the GEMM launcher on e for the transpose
// combination (tA, tB) on each shape, against gonum.
func zooRunGemm[T eng.Real](t *testing.T, e *eng.Engine, what string, cfg gemm.Config, tA, tB bool, shapes [][3]int, tol float64) {
	runGemmConfig[T](t, e, what, cfg, tA, tB, shapes, tol)
}

// zooEngineConfig is what the library chooses from a device profile
// outside GEMM's kernel parameters.
type zooEngineConfig struct {
	L1Shape32  eng.L1Shape // level 1 launch shape, float32
	L1Shape64  eng.L1Shape // level 1 launch shape, float64
	L2CPU      bool        // level 2 on its CPU-device kernels
	TrsmBlock  int         // order of TRSM's diagonal blocks
	Staged     bool        // GEMM on host slices through the staged pipeline
	HostShared bool        // host slices used in place (no copies)
	FP64       bool        // Float64 calls may go to the device (policy)
}

// zooL1 is the part of a level 1 shape that decides which kernels are
// built: its number of groups only sizes the grid (any number is valid),
// and keying on it would multiply the engine runs by the compute-unit
// counts.
func zooL1(s eng.L1Shape) eng.L1Shape {
	s.Groups, s.EwGroups = 0, 0
	return s
}

// zooEngineChoice returns the engine-level choices for device p.
func zooEngineChoice(p platform.Profile) zooEngineConfig {
	e := &eng.Engine{Prof: p}
	cm := engineCost(e)
	return zooEngineOf(e, &cm)
}

// zooEngineOf returns the engine-level choices engine e makes, with the
// cost model cm.
func zooEngineOf(e *eng.Engine, cm *costModel) zooEngineConfig {
	return zooEngineConfig{
		L1Shape32:  zooL1(eng.L1ShapeFor(e.Prof, 32)),
		L1Shape64:  zooL1(eng.L1ShapeFor(e.Prof, 64)),
		L2CPU:      eng.L2OnCPU(&eng.Call{E: e}),
		TrsmBlock:  eng.TrsmBlock(e),
		Staged:     e.Plan().Staged(),
		HostShared: e.HostShared(),
		FP64:       decide(Always, cm, work(prec64, 1, 1)),
	}
}

// zooAsDevice makes the engine e choose as if its device were p: the
// profile's limits and kinds replace the test device's, its own limits
// that the zoo cannot exceed stay, and the cost model follows. It returns
// a function that puts the device back.
func zooAsDevice(impl *Implementation, e *eng.Engine, p platform.Profile) (restore func()) {
	old, oldCost := e.Prof, impl.cost
	q := old
	q.Name, q.Vendor, q.VendorName, q.Platform = p.Name, p.Vendor, p.VendorName, p.Platform
	q.Type, q.ComputeUnits, q.WarpSize, q.MaxWorkGroupSize = p.Type, p.ComputeUnits, p.WarpSize, p.MaxWorkGroupSize
	q.LocalMemBytes, q.LocalMemDedicated, q.HostUnifiedMemory = p.LocalMemBytes, p.LocalMemDedicated, p.HostUnifiedMemory
	q.PreferredVectorFloat, q.PreferredVectorDouble = p.PreferredVectorFloat, p.PreferredVectorDouble
	q.FP64 = p.FP64 && old.FP64
	q.OpenCL, q.PlatformVer, q.SubGroups = p.OpenCL, p.PlatformVer, p.SubGroups
	e.Prof = q
	impl.setCost(engineCost(e))
	return func() { e.Prof = old; impl.setCost(oldCost) }
}

// zooProfile is one synthetic device.
type zooProfile struct {
	name string
	p    platform.Profile
}

// zooProfiles returns the zoo: every combination of device type (GPU,
// CPU, and Oclgrind's default|cpu|gpu|accelerator), preferred vector width
// (0, 1, 2, 4, 8, 16, float and double alike), local memory (16, 32, 48,
// 64 KiB, dedicated or emulated), maximum work-group size (64, 128, 256,
// 1024) and fp64; warp width (0, 32, 64), OpenCL version (1.2, 3.0),
// memory (unified, discrete) and compute units (2, 8, 40, 120) taken in
// turn, so that each value meets many others; then vendor-like profiles.
func zooProfiles() []zooProfile {
	types := []struct {
		name string
		t    cl.DeviceType
	}{
		{"gpu", cl.DeviceTypeGPU},
		{"cpu", cl.DeviceTypeCPU},
		{"multi", cl.DeviceTypeDefault | cl.DeviceTypeCPU | cl.DeviceTypeGPU | cl.DeviceTypeAccelerator},
	}
	var out []zooProfile
	i := 0
	for _, ty := range types {
		for _, vec := range []int{0, 1, 2, 4, 8, 16} {
			for _, lm := range []int64{16, 32, 48, 64} {
				for _, ded := range []bool{true, false} {
					for _, wg := range []int{64, 128, 256, 1024} {
						for _, fp64 := range []bool{true, false} {
							p := platform.Profile{
								Name: fmt.Sprintf("zoo-%s-v%d-lm%d-%v-wg%d-fp64%v", ty.name, vec, lm, ded, wg, fp64),
								Type: ty.t, Vendor: platform.VendorUnknown, VendorName: "zoo", Platform: "zoo",
								PreferredVectorFloat: vec, PreferredVectorDouble: vec,
								LocalMemBytes: lm << 10, LocalMemDedicated: ded,
								MaxWorkGroupSize: wg, MaxWorkItemSizes: []int{wg, wg, wg},
								FP64:              fp64,
								WarpSize:          []int{0, 32, 64}[i%3],
								OpenCL:            []cl.Version{{Major: 1, Minor: 2}, {Major: 3, Minor: 0}}[i/3%2],
								HostUnifiedMemory: i/6%2 == 0,
								ComputeUnits:      []int{2, 8, 40, 120}[i/12%4],
								ClockMHz:          1500,
							}
							p.PlatformVer = p.OpenCL
							if !fp64 {
								p.PreferredVectorDouble = 0
							}
							out = append(out, zooProfile{p.Name, p})
							i++
						}
					}
				}
			}
		}
	}
	v := func(maj, min int) cl.Version { return cl.Version{Major: maj, Minor: min} }
	out = append(out,
		// AMD (CDNA-like): 64-wide wavefronts, 64 KiB of LDS, work-groups
		// of 256 by default, width-1 preferred vectors.
		zooProfile{"amd-like", platform.Profile{Name: "AMD Instinct MI210", Vendor: platform.VendorAMD, VendorName: "Advanced Micro Devices, Inc.",
			Platform: "AMD Accelerated Parallel Processing", Type: cl.DeviceTypeGPU, Architecture: "gfx90a", ComputeUnits: 104, ClockMHz: 1700,
			WarpSize: 64, LocalMemBytes: 64 << 10, LocalMemDedicated: true, MaxWorkGroupSize: 256, MaxWorkItemSizes: []int{1024, 1024, 1024},
			FP64: true, SubGroups: true, PreferredVectorFloat: 1, PreferredVectorDouble: 1, OpenCL: v(2, 0), PlatformVer: v(2, 1)}},
		// Intel (Xe-LP-like): integrated, no fp64, sub-groups, OpenCL 3.0.
		zooProfile{"intel-like", platform.Profile{Name: "Intel(R) Iris(R) Xe Graphics", Vendor: platform.VendorIntel, VendorName: "Intel(R) Corporation",
			Platform: "Intel(R) OpenCL Graphics", Type: cl.DeviceTypeGPU, ComputeUnits: 96, ClockMHz: 1300,
			LocalMemBytes: 64 << 10, LocalMemDedicated: true, MaxWorkGroupSize: 512, MaxWorkItemSizes: []int{512, 512, 512},
			SubGroups: true, PreferredVectorFloat: 1, HostUnifiedMemory: true, OpenCL: v(3, 0), PlatformVer: v(3, 0)}},
		// Apple (M-series-like): OpenCL 1.2 only, no fp64, no sub-groups,
		// unified memory.
		zooProfile{"apple-like", platform.Profile{Name: "Apple M2", Vendor: platform.VendorApple, VendorName: "Apple",
			Platform: "Apple", Type: cl.DeviceTypeGPU, ComputeUnits: 10, ClockMHz: 1000,
			LocalMemBytes: 32 << 10, LocalMemDedicated: true, MaxWorkGroupSize: 256, MaxWorkItemSizes: []int{256, 256, 256},
			PreferredVectorFloat: 1, HostUnifiedMemory: true, OpenCL: v(1, 2), PlatformVer: v(1, 2)}},
		// Mali (Valhall-like): local memory in global memory, a work-group
		// limit that is not a power of two, width-4 vectors, no fp64.
		zooProfile{"mali-like", platform.Profile{Name: "Mali-G78", Vendor: platform.VendorARM, VendorName: "ARM",
			Platform: "ARM Platform", Type: cl.DeviceTypeGPU, ComputeUnits: 24, ClockMHz: 850,
			LocalMemBytes: 32 << 10, MaxWorkGroupSize: 384, MaxWorkItemSizes: []int{384, 384, 384},
			SubGroups: true, PreferredVectorFloat: 4, HostUnifiedMemory: true, OpenCL: v(3, 0), PlatformVer: v(3, 0)}},
		// NVIDIA without a tuning entry: the tensor-core choice.
		zooProfile{"nvidia-like", platform.Profile{Name: "NVIDIA GeForce RTX 3080", Vendor: platform.VendorNVIDIA, VendorName: "NVIDIA Corporation",
			Platform: "NVIDIA CUDA", Type: cl.DeviceTypeGPU, ComputeCapability: [2]int{8, 6}, Architecture: "sm_86", ComputeUnits: 68, ClockMHz: 1700,
			WarpSize: 32, LocalMemBytes: 48 << 10, LocalMemDedicated: true, MaxWorkGroupSize: 1024, MaxWorkItemSizes: []int{1024, 1024, 64},
			FP64: true, PreferredVectorFloat: 1, PreferredVectorDouble: 1, OpenCL: v(3, 0), PlatformVer: v(3, 0)}},
		// Oclgrind 21.10 as it reports itself.
		zooProfile{"oclgrind-like", platform.Profile{Name: "Oclgrind Simulator", Vendor: platform.VendorUnknown, VendorName: "University of Bristol",
			Platform: "Oclgrind", Type: cl.DeviceTypeDefault | cl.DeviceTypeCPU | cl.DeviceTypeGPU | cl.DeviceTypeAccelerator, ComputeUnits: 1, ClockMHz: 1,
			LocalMemBytes: 32 << 10, LocalMemDedicated: true, MaxWorkGroupSize: 1024, MaxWorkItemSizes: []int{1024, 1024, 1024},
			FP64: true, PreferredVectorFloat: 1, PreferredVectorDouble: 1, OpenCL: v(1, 2), PlatformVer: v(1, 2)}},
	)
	return out
}

// zooShapes are the shapes whose GEMM choice the zoo records: square ones
// of three sizes (every tile size), GEMV-shaped ones, and a long K over a
// small C (split-K). Only the choice is made at these shapes; the
// configurations run at zooRunShapes (split-K at its own shape, so that
// its slices are as chosen).
var zooShapes = [][3]int{{33, 17, 29}, {640, 640, 640}, {4096, 4096, 4096}, {1, 37, 29}, {37, 1, 29}, {35, 19, 3001}}

// zooRunShapes are small odd shapes that cross the edges of every tile.
var zooRunShapes = [][3]int{{37, 67, 45}, {130, 259, 19}}

// zooGemm is one distinct GEMM configuration of the zoo.
type zooGemm struct {
	prec     int
	cfg      gemm.Config
	shape    [3]int // the shape it was chosen for
	profiles []string
}

// zooGemmConfigs derives every GEMM configuration the library would choose
// for the profiles, deduplicated, with the profiles that chose each; it
// reports configurations that break their kernel's rules or the device's
// limits.
func zooGemmConfigs(t *testing.T, profiles []zooProfile) []*zooGemm {
	t.Helper()
	byKey := map[string]*zooGemm{}
	var out []*zooGemm
	add := func(zp zooProfile, prec int, sh [3]int, cfg gemm.Config) {
		if err := zooGemmValid(zp.p, prec, cfg); err != nil {
			t.Errorf("%s: prec %d %v: %s: %v", zp.name, prec, sh, cfg.Name(), err)
			return
		}
		key := fmt.Sprint(prec, " ", zooGemmKey(cfg))
		z := byKey[key]
		if z == nil {
			z = &zooGemm{prec: prec, cfg: cfg, shape: sh}
			byKey[key] = z
			out = append(out, z)
		}
		if len(z.profiles) < 3 {
			z.profiles = append(z.profiles, zp.name)
		}
	}
	for _, zp := range profiles {
		for _, prec := range []int{32, 64} {
			if prec == 64 && !zp.p.FP64 {
				continue
			}
			for _, sh := range zooShapes {
				cfg := zooGemmChoice(zp.p, prec, sh[0], sh[1], sh[2])
				add(zp, prec, sh, cfg)
				if fb, ok := zooGemmFallback(cfg); ok {
					add(zp, prec, sh, fb)
				}
			}
		}
	}
	return out
}

// TestDeviceZoo derives every configuration the library chooses for the
// zoo's profiles and runs each distinct one on the test device against
// gonum: the GEMM kernels (tiled, direct, CPU, GEMV, split-K) in all four
// transpose combinations on odd shapes, in both precisions, and the
// engine's level 1, 2 and 3 choices through the front end. It fails if a
// configuration does not build or gives a wrong answer. The tensor-core
// kernel (chosen for NVIDIA profiles of compute capability ≥ 8.0) runs
// only on such a device: here its choice is checked against its rules
// and the profile's limits (TestGemmMMAEmulated runs its structure).
func TestDeviceZoo(t *testing.T) {
	start := time.Now()
	profiles := zooProfiles()
	gemms := zooGemmConfigs(t, profiles)
	engines := map[zooEngineConfig][]zooProfile{}
	var engineOrder []zooEngineConfig
	for _, zp := range profiles {
		c := zooEngineChoice(zp.p)
		if _, ok := engines[c]; !ok {
			engineOrder = append(engineOrder, c)
		}
		engines[c] = append(engines[c], zp)
	}
	kinds := map[string]int{}
	for _, z := range gemms {
		kind := z.cfg.Kernel
		if z.cfg.SplitK > 1 {
			kind += "+split-K"
		}
		kinds[kind]++
	}
	t.Logf("device zoo: %d profiles; %d distinct GEMM configurations %v; %d distinct engine configurations",
		len(profiles), len(gemms), kinds, len(engineOrder))
	for _, want := range []string{gemm.KernelTiled, gemm.KernelDirect, gemm.KernelCPU, gemm.KernelGEMV, gemm.KernelMMA} {
		if kinds[want] == 0 {
			t.Errorf("no profile chose %s", want)
		}
	}
	if kinds[gemm.KernelTiled+"+split-K"]+kinds[gemm.KernelCPU+"+split-K"]+kinds[gemm.KernelDirect+"+split-K"] == 0 {
		t.Error("no profile chose split-K")
	}

	e := testEngine(t)
	runs := 0
	for _, prec := range []int{64, 32} {
		if prec == 64 && !e.Prof.FP64 {
			t.Fatal("the test device has no fp64")
		}
		progs := zooPrograms(gemms, prec)
		for i, pr := range progs {
			for _, tr := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
				name := fmt.Sprintf("gemm/f%d/program%d/%s", prec, i, transName(tr[0], tr[1]))
				t.Run(name, func(t *testing.T) {
					for _, r := range pr.runs {
						cfg := pr.cfg
						cfg.Kernel, cfg.SplitK, cfg.KSlice = r.cfg.Kernel, r.cfg.SplitK, r.cfg.KSlice
						what := fmt.Sprintf("%s/%s (chosen for %s)", name, cfg.Name(), strings.Join(r.profiles, ", "))
						shapes := zooRunShapes
						switch {
						case cfg.Kernel == gemm.KernelGEMV:
							shapes = [][3]int{{1, 37, 29}, {37, 1, 29}}
						case cfg.SplitK > 1:
							what += fmt.Sprintf(" split-K %d×%d", cfg.SplitK, cfg.KSlice)
							shapes = [][3]int{r.shape}
						}
						if prec == 64 {
							zooRunGemm[float64](t, e, what, cfg, tr[0], tr[1], shapes, 1e-12)
						} else {
							zooRunGemm[float32](t, e, what, cfg, tr[0], tr[1], shapes, 1e-4)
						}
						runs++
					}
				})
			}
		}
		t.Logf("device zoo: f%d: %d programs × 4 transposes", prec, len(progs))
	}
	for _, c := range engineOrder {
		zooRunEngine(t, c, engines[c][0])
	}
	t.Logf("device zoo: %d kernel runs (each on 2 shapes, 2 alpha/beta pairs) and %d engine configurations in %v",
		runs, len(engineOrder), time.Since(start).Round(time.Second))
}

// zooProgram is one gemm.cl program of the zoo's run and what runs on it.
type zooProgram struct {
	cfg  gemm.Config // the program's defines: one set of each kernel
	runs []*zooGemm  // kernel and route of each run, in run.cfg
}

// zooPrograms packs the distinct kernel parameter sets of gemms in
// precision prec into as few gemm.cl programs as there are sets of the
// kind that has most: gemm.cl compiles gemm_tiled, gemm_direct and
// gemm_cpu together, each from its own defines, so one program can carry a
// tiled, a direct and a CPU set of different configurations (as
// tunedPrograms does). Each set runs once with its own kernel, and once
// more per split-K choice made with it; the GEMV route runs once. Built
// with -cl-opt-disable, which PoCL compiles many times faster.
func zooPrograms(gemms []*zooGemm, prec int) []zooProgram {
	setKey := func(c gemm.Config) string {
		switch c.Kernel {
		case gemm.KernelTiled:
			return fmt.Sprint(c.Kernel, c.MWG, c.NWG, c.KWG, c.MDIMC, c.NDIMC, c.VWM, c.VWN, c.VWA, c.VWB, c.PADA, c.PADB, c.DoubleBuffer)
		case gemm.KernelDirect:
			return fmt.Sprint(c.Kernel, c.DM, c.DN, c.DMDIMC, c.DNDIMC)
		case gemm.KernelCPU:
			return fmt.Sprint(c.Kernel, c.CPUVec, c.CPUVecs, c.CPUBlock, c.CPULocal)
		}
		return c.Kernel
	}
	type set struct {
		cfg  gemm.Config
		runs []*zooGemm
	}
	sets := map[string][]*set{}
	index := map[string]*set{}
	seenRun := map[string]bool{}
	for _, z := range gemms {
		if z.prec != prec || z.cfg.Kernel == gemm.KernelMMA {
			continue // gemm_mma: checked by zooGemmValid; needs an NVIDIA device
		}
		key := setKey(z.cfg)
		st := index[key]
		if st == nil {
			st = &set{cfg: z.cfg}
			index[key] = st
			sets[z.cfg.Kernel] = append(sets[z.cfg.Kernel], st)
		}
		route := fmt.Sprint(key, " split ", z.cfg.SplitK > 1)
		if !seenRun[route] {
			seenRun[route] = true
			st.runs = append(st.runs, z)
		}
	}
	n := max(len(sets[gemm.KernelTiled]), len(sets[gemm.KernelDirect]), len(sets[gemm.KernelCPU]), 1)
	progs := make([]zooProgram, n)
	for i := range progs {
		p := gemm.Base(prec, 8)
		if ts := sets[gemm.KernelTiled]; len(ts) > 0 {
			t := ts[i%len(ts)].cfg
			p.MWG, p.NWG, p.KWG, p.MDIMC, p.NDIMC = t.MWG, t.NWG, t.KWG, t.MDIMC, t.NDIMC
			p.VWM, p.VWN, p.VWA, p.VWB, p.PADA, p.PADB, p.DoubleBuffer = t.VWM, t.VWN, t.VWA, t.VWB, t.PADA, t.PADB, t.DoubleBuffer
		}
		if ds := sets[gemm.KernelDirect]; len(ds) > 0 {
			d := ds[i%len(ds)].cfg
			p.DM, p.DN, p.DMDIMC, p.DNDIMC = d.DM, d.DN, d.DMDIMC, d.DNDIMC
		}
		if cs := sets[gemm.KernelCPU]; len(cs) > 0 {
			c := cs[i%len(cs)].cfg
			p.CPUVec, p.CPUVecs, p.CPUBlock, p.CPULocal = c.CPUVec, c.CPUVecs, c.CPUBlock, c.CPULocal
		}
		p.NoOpt = true
		progs[i].cfg = p
		for _, kind := range []string{gemm.KernelTiled, gemm.KernelDirect, gemm.KernelCPU} {
			if ks := sets[kind]; i < len(ks) {
				progs[i].runs = append(progs[i].runs, ks[i].runs...)
			}
		}
	}
	if gs := sets[gemm.KernelGEMV]; len(gs) > 0 {
		progs[0].runs = append(progs[0].runs, gs[0].runs...)
	}
	return progs
}

// zooNonFinite reports whether a level 3 case has a non-finite scalar or
// operand that the call reads; the drop-in runs such calls on the CPU.
func zooNonFinite(a *args32) bool {
	c := a.c
	if a.beta == 0 {
		c = nil
	}
	return !finite(a.alpha, a.beta) || !finite(a.a...) || !finite(a.b...) || !finite(c...)
}

// zooRunEngine runs the front end on a private implementation whose engine
// chooses as device zp would: level 1 reductions and updates, level 2
// products and solves, and level 3 routines over GEMM, against gonum. A
// profile without fp64 must keep Float64 calls on the CPU (by policy).
func zooRunEngine(t *testing.T, c zooEngineConfig, zp zooProfile) {
	t.Helper()
	impl, e := privateImpl(t, nil)
	unoptimisedOnCPU(e) // before zooAsDevice replaces e.Prof
	restore := zooAsDevice(impl, e, zp.p)
	defer restore()
	if got := zooEngineOf(e, &impl.cost); got != c {
		t.Fatalf("%s: engine chooses %+v, the profile %+v", zp.name, got, c)
	}
	name := fmt.Sprintf("engine/%+v", c)
	t.Run(name, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(3, 5))
		l3 := len(level1Routines32) + len(level2Routines32)
		for r, rt := range slices.Concat(level1Routines32, level2Routines32, level3Routines32) {
			cases := rt.gen(rnd)
			for i, a := range cases {
				if i%7 != 0 { // a sample: every kind of case, a seventh of them
					continue
				}
				if r >= l3 && zooNonFinite(a) {
					continue // the drop-in sends it to gonum (level3_finite.go)
				}
				want, got := a.clone(), a.clone()
				wantRet, wantMsg := call32(&rt, gonumRef{}, want)
				gotRet, gotMsg := call32(&rt, impl, got)
				where := fmt.Sprintf("%s %s case %d (%v)", zp.name, rt.name, i, a)
				tol := 1e-4 * math.Sqrt(float64(max(a.m, a.n, a.k, 0)+1))
				switch {
				case gotMsg != wantMsg:
					t.Errorf("%s: panic %q, gonum %q", where, gotMsg, wantMsg)
				case wantMsg != "":
				case !same32(gotRet, wantRet, tol):
					t.Errorf("%s: got %v, gonum %v", where, gotRet, wantRet)
				default:
					for _, s := range [][2][]float32{{got.x, want.x}, {got.y, want.y}, {got.a, want.a}, {got.b, want.b}, {got.c, want.c}} {
						for j := range s[1] {
							if !same32(float64(s[0][j]), float64(s[1][j]), tol) {
								t.Errorf("%s: element %d = %v, gonum %v", where, j, s[0][j], s[1][j])
								break
							}
						}
					}
				}
			}
		}
		// Every float32 routine ran on the device, none failed; Dsdot
		// and Sdsdot, which accumulate in float64, stay on the CPU by
		// policy where the profile has no fp64.
		for _, rt := range slices.Concat(level1Routines32, level2Routines32, level3Routines32) {
			st := impl.Stats()[rt.name]
			fp64Only := rt.name == "Dsdot" || rt.name == "Sdsdot"
			switch {
			case st.Failed != 0:
				t.Errorf("%s: %s: %d device calls failed", zp.name, rt.name, st.Failed)
			case !c.FP64 && fp64Only && st.Device != 0:
				// Kept on the CPU at the gate, without being counted.
				t.Errorf("%s (no fp64): %s: %d calls on the device; want the CPU", zp.name, rt.name, st.Device)
			case (c.FP64 || !fp64Only) && (st.Device == 0 || st.CPU != 0):
				t.Errorf("%s: %s: %d calls on the device, %d on the CPU; want the device", zp.name, rt.name, st.Device, st.CPU)
			}
		}
		// Float64: on the device where the profile has fp64, on the CPU
		// by policy where it has not; gonum's answer either way.
		rnd64 := rand.New(rand.NewPCG(7, 9))
		const m, n, k = 13, 11, 7
		a, b, c0 := randF64(rnd64, m*k), randF64(rnd64, k*n), randF64(rnd64, m*n)
		before := impl.Stats()["Dgemm"]
		got, want := slices.Clone(c0), slices.Clone(c0)
		impl.Dgemm(blas.NoTrans, blas.Trans, m, n, k, 0.5, a, k, b, k, 2, got, n)
		gonumRef{}.Dgemm(blas.NoTrans, blas.Trans, m, n, k, 0.5, a, k, b, k, 2, want, n)
		for i := range want {
			if d := got[i] - want[i]; d > 1e-12 || d < -1e-12 {
				t.Fatalf("%s: Dgemm C[%d] = %v, gonum %v", zp.name, i, got[i], want[i])
			}
		}
		st := impl.Stats()["Dgemm"]
		dev, cpu := st.Device-before.Device, st.CPU-before.CPU
		if c.FP64 && (dev != 1 || st.Failed != 0) || !c.FP64 && (dev != 0 || cpu != 0) {
			t.Errorf("%s (fp64 %v): Dgemm ran %d times on the device, %d on the CPU, %d failed", zp.name, c.FP64, dev, cpu, st.Failed)
		}
	})
}
