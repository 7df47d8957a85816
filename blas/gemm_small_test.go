package clblas

import (
	eng "github.com/gocompute/opencl/internal/engine"

	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gocompute/opencl/internal/gemm"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

// TestGemmKernelsSmall forces every GEMM kernel and route of the launcher
// on the test device at small odd shapes, in both precisions and all four
// transpose combinations, against gonum: gemm_cpu at vector width 1 (what a
// device whose preferred width is 1 gets: OpenCL C has no 1-wide vector
// types) and 4, gemm_direct, gemm_tiled on unaligned and on aligned operands
// (its VEC_ALIGNED path), the GEMV route, split-K with its reduction and
// gemm_tiled's split in one launch. It
// is small enough for a simulator: scripts/oclgrind.sh runs it on Oclgrind,
// whose own choice is gemm_tiled only.
func TestGemmKernelsSmall(t *testing.T) {
	e := testEngine(t)
	shapes := [][3]int{{19, 13, 11}, {3, 5, 2}}
	for _, prec := range []int{64, 32} {
		t.Run(fmt.Sprintf("gemm/f%d", prec), func(t *testing.T) {
			if prec == 64 && !e.Prof.FP64 {
				t.Skip("the device has no fp64")
			}
			tol := 1e-4
			if prec == 64 {
				tol = 1e-12
			}
			base := gemm.Choose(gemm.Builtin(), eng.GemmDevice(e.Prof), prec, 19, 13, 11, gemm.TensorAuto)
			base.Kernel, base.SplitK, base.KSlice = gemm.KernelTiled, 0, 0
			base.MWG, base.NWG, base.MDIMC, base.NDIMC = 32, 32, 8, 8
			base.NoOpt = true // PoCL builds unoptimised programs many times faster
			for _, vec := range []int{1, 4} {
				cfg := gemm.CPURescale(base, vec)
				for _, kern := range []string{gemm.KernelCPU, gemm.KernelDirect, gemm.KernelTiled} {
					cfg.Kernel = kern
					if err := zooGemmValid(e.Prof, prec, cfg); err != nil {
						t.Fatalf("%s: %v", cfg.Name(), err)
					}
					if kern != gemm.KernelCPU && vec != 1 {
						continue // the same kernels as with vec 1
					}
					smallGemmRuns(t, e, prec, cfg.Name(), cfg, shapes, tol)
				}
				if vec != 1 {
					// gemm_tiled's aligned loads and stores.
					cfg.Kernel = gemm.KernelTiled
					for _, tA := range []bool{false, true} {
						for _, tB := range []bool{false, true} {
							smallGemmAligned(t, e, prec, cfg, tA, tB, tol)
						}
					}
				}
			}
			gemv := base
			gemv.Kernel = gemm.KernelGEMV
			smallGemmRuns(t, e, prec, "gemv", gemv, [][3]int{{1, 13, 11}, {19, 1, 11}, {1, 1, 5}}, tol)
			split := gemm.WithSplitK(base, 40, 3)
			if split.SplitK < 2 {
				t.Fatalf("withSplitK: %+v", split)
			}
			smallGemmRuns(t, e, prec, "split-K", split, [][3]int{{9, 7, 40}, {3, 5, 33}}, tol)
			// gemm_tiled's split in one launch (GRID_Z=1), as chosen and
			// with more slices than K steps: the last slices multiply
			// nothing and must write zeros into their slabs.
			splitZ := base
			splitZ.KWG = 8
			splitZ = gemm.WithSplitZ(splitZ, 40, 3)
			if splitZ.SplitZ < 2 {
				t.Fatalf("WithSplitZ: %+v", splitZ)
			}
			smallGemmRuns(t, e, prec, "split-Z", splitZ, [][3]int{{9, 7, 40}, {3, 5, 33}}, tol)
			splitZ.SplitZ = 7
			smallGemmRuns(t, e, prec, "split-Z, empty slices", splitZ, [][3]int{{9, 7, 40}, {19, 13, 11}}, tol)
		})
	}
}

// smallGemmRuns runs cfg in all four transpose combinations on shapes.
func smallGemmRuns(t *testing.T, e *eng.Engine, prec int, what string, cfg gemm.Config, shapes [][3]int, tol float64) {
	t.Helper()
	for _, tA := range []bool{false, true} {
		for _, tB := range []bool{false, true} {
			if prec == 64 {
				runGemmConfig[float64](t, e, what, cfg, tA, tB, shapes, tol)
			} else {
				runGemmConfig[float32](t, e, what, cfg, tA, tB, shapes, tol)
			}
		}
	}
}

// smallGemmAligned runs gemm_tiled with offsets and leading dimensions
// that are multiples of 8 (VEC_ALIGNED=1).
func smallGemmAligned(t *testing.T, e *eng.Engine, prec int, cfg gemm.Config, ta, tb bool, tol float64) {
	t.Helper()
	tA, tB := blas.NoTrans, blas.NoTrans
	if ta {
		tA = blas.Trans
	}
	if tb {
		tB = blas.Trans
	}
	const m, n, k = 37, 35, 19
	_, ac := eng.Stored(tA, m, k)
	_, bc := eng.Stored(tB, k, n)
	g := gemmLaunch{m: m, n: n, k: k, tA: tA, tB: tB, lda: l3RoundUp(ac, 8), ldb: l3RoundUp(bc, 8), ldc: l3RoundUp(n, 8), offA: 8, offB: 8, offC: 8}
	if !cfg.VecAligned(g.offA, g.lda, g.offB, g.ldb, g.offC, g.ldc) {
		t.Fatalf("%s: aligned operands not taken as aligned", cfg.Name())
	}
	rnd := rand.New(rand.NewPCG(5, 8))
	what := cfg.Name() + "/aligned"
	if prec == 64 {
		checkGemmLaunch[float64](t, e, what, cfg, g, rnd, tol)
	} else {
		checkGemmLaunch[float32](t, e, what, cfg, g, rnd, tol)
	}
}

// TestMultiTypeDeviceChoice: a device that reports itself as
// default|cpu|gpu|accelerator with a preferred vector width of 1
// (Oclgrind) gets the GPU choices: gemm_tiled, staged copies, no host
// memory used in place, level 2's general kernels.
func TestMultiTypeDeviceChoice(t *testing.T) {
	var p platform.Profile
	for _, zp := range zooProfiles() {
		if zp.name == "oclgrind-like" {
			p = zp.p
		}
	}
	if p.Type&cl.DeviceTypeCPU == 0 || p.Type&cl.DeviceTypeGPU == 0 {
		t.Fatalf("the zoo has no Oclgrind-like profile: %+v", p)
	}
	for _, prec := range []int{32, 64} {
		if cfg := zooGemmChoice(p, prec, 512, 512, 512); cfg.Kernel != gemm.KernelTiled {
			t.Errorf("prec %d: %s, want %s", prec, cfg.Name(), gemm.KernelTiled)
		}
	}
	if c := zooEngineChoice(p); c.L2CPU || c.HostShared || !c.Staged || c.TrsmBlock != 64 {
		t.Errorf("engine choice %+v, want a GPU's", c)
	}
}

// TestLevel3ViaGemmSmall runs symm, syrk, syr2k and trmm through their
// GEMM route (l3ViaGemm, with diagonal blocks of 3 so that a small matrix
// has several) at small sizes, in every side, triangle, transpose and
// diagonal, against gonum: the route's own kernels (l3_sym_expand,
// l3_tri_merge) with it. Small enough for a simulator (scripts/oclgrind.sh).
func TestLevel3ViaGemmSmall(t *testing.T) {
	impl, e := privateImpl(t, nil)
	e.L3Route, e.L3Block = eng.L3ViaGemm, 3
	before := e.L3ViaGemm.Load()
	rnd := rand.New(rand.NewPCG(17, 19))
	dev, ref := l3F32{impl}, l3F32{gonum.Implementation{}}
	const m, n, k, tol = 7, 8, 6, 1e-4
	mat := func(r, c int) ([]float32, int) {
		ld := c + 1
		return l3Mat[float32](r, c, ld, l3Rand(rnd, false)), ld
	}
	check := func(what string, got, want, orig []float32, r, c, ld int, written func(i, j int) bool) {
		l3Compare(t, what, got, want, orig, r, c, ld, written, tol)
	}
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		for _, s := range []blas.Side{blas.Left, blas.Right} {
			ka := n
			if s == blas.Left {
				ka = m
			}
			a, lda := mat(ka, ka)
			b, ldb := mat(m, n)
			c, ldc := mat(m, n)
			got, want := slices.Clone(c), slices.Clone(c)
			dev.symm(s, ul, m, n, 1.5, a, lda, b, ldb, 0.5, got, ldc)
			ref.symm(s, ul, m, n, 1.5, a, lda, b, ldb, 0.5, want, ldc)
			check(fmt.Sprintf("symm %c %c", s, ul), got, want, c, m, n, ldc, l3All)
			for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				for _, d := range []blas.Diag{blas.NonUnit, blas.Unit} {
					bb := slices.Clone(b)
					got, want := slices.Clone(bb), slices.Clone(bb)
					dev.trmm(s, ul, tA, d, m, n, -0.5, a, lda, got, ldb)
					ref.trmm(s, ul, tA, d, m, n, -0.5, a, lda, want, ldb)
					check(fmt.Sprintf("trmm %c %c %c %c", s, ul, tA, d), got, want, bb, m, n, ldb, l3All)
				}
			}
		}
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			ar, ac := eng.Stored(tA, n, k)
			a, lda := mat(ar, ac)
			b, ldb := mat(ar, ac)
			c, ldc := mat(n, n)
			got, want := slices.Clone(c), slices.Clone(c)
			dev.syrk(ul, tA, n, k, 1.5, a, lda, 0.5, got, ldc)
			ref.syrk(ul, tA, n, k, 1.5, a, lda, 0.5, want, ldc)
			check(fmt.Sprintf("syrk %c %c", ul, tA), got, want, c, n, n, ldc, l3Triangle(ul))
			got, want = slices.Clone(c), slices.Clone(c)
			dev.syr2k(ul, tA, n, k, 1.5, a, lda, b, ldb, 0.5, got, ldc)
			ref.syr2k(ul, tA, n, k, 1.5, a, lda, b, ldb, 0.5, want, ldc)
			check(fmt.Sprintf("syr2k %c %c", ul, tA), got, want, c, n, n, ldc, l3Triangle(ul))
		}
	}
	if e.L3ViaGemm.Load() == before {
		t.Error("no call took the GEMM route")
	}
}
