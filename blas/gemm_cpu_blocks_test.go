package clblas

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/gocompute/opencl/internal/gemm"

	eng "github.com/gocompute/opencl/internal/engine"
)

// TestGemmCPUBlocks runs gemm_cpu through the launcher where the launcher
// reshapes the call: leading dimensions a multiple of 1 KiB (the operands
// its work-items walk down are copied into rows a cache line apart from
// that), transposed operands copied untransposed (edges of the copy's
// 8×8 blocks included), an inner dimension past 512 (launches of 512
// steps, the later ones adding to C) and more rows of C than one launch
// takes, with rows of C past the last whole block of CPU_MB, in every
// transpose combination and both precisions, against gonum. The subtest
// small has only the copies, the transposed ones whatever the GEMM's size
// (scripts/oclgrind.sh runs it); -test.short skips large, whose first
// shape is too small to have its operands transposed and whose last is
// large enough.
func TestGemmCPUBlocks(t *testing.T) {
	e := testEngine(t)
	for _, c := range []struct {
		name   string
		shapes [][3]int
	}{
		{"small", [][3]int{{37, 40, 64}, {130, 67, 45}}},
		{"large", [][3]int{{600, 24, 1100}, {1100, 20, 530}, {300, 100, 1100}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "large" && testing.Short() {
				t.Skip("-test.short")
			}
			if c.name == "small" {
				e.CPUTransposeWork = 1
				defer func() { e.CPUTransposeWork = 0 }()
			}
			before := e.CPUTransposed.Load()
			defer func() {
				// The last shape only: TN and NT copy one operand, TT
				// two, for each of checkGemmLaunch's two products in
				// each precision.
				want := int64(8)
				if e.Prof.FP64 {
					want = 16
				}
				if got := e.CPUTransposed.Load() - before; !t.Failed() && got != want {
					t.Errorf("%d operands copied untransposed, want %d", got, want)
				}
			}()
			t.Run("float64", func(t *testing.T) {
				if !e.Prof.FP64 {
					t.Skip("the device has no fp64")
				}
				gemmCPUBlocksCase[float64](t, e, c.shapes, 1e-12)
			})
			t.Run("float32", func(t *testing.T) { gemmCPUBlocksCase[float32](t, e, c.shapes, 1e-4) })
		})
	}
}

func gemmCPUBlocksCase[T eng.Real](t *testing.T, e *eng.Engine, shapes [][3]int, tol float64) {
	rnd := rand.New(rand.NewPCG(17, 18))
	page := 1024 / eng.ElemSize[T]() // elements in 1 KiB
	for _, tA := range l3Trans {
		for _, tB := range l3Trans {
			for _, sh := range shapes {
				m, n, k := sh[0], sh[1], sh[2]
				cfg := eng.GemmParams(e.Prof, eng.PrecisionOf[T](), m, n, k)
				// Unoptimised, as TestGemmKernelsSmall: the launcher's
				// blocks are what this checks (TestGemmKernels runs the
				// optimised kernel), and PoCL builds such programs
				// many times faster.
				cfg.Kernel, cfg.NoOpt = gemm.KernelCPU, true
				_, ac := eng.Stored(tA, m, k)
				_, bc := eng.Stored(tB, k, n)
				g := gemmLaunch{m: m, n: n, k: k, tA: tA, tB: tB,
					lda: l3RoundUp(ac, page), ldb: l3RoundUp(bc, page), ldc: n + 3,
					offA: 1 + rnd.IntN(5), offB: 1 + rnd.IntN(5), offC: 1 + rnd.IntN(5)}
				checkGemmLaunch[T](t, e, fmt.Sprintf("gemm_cpu %dx%dx%d", m, n, k), cfg, g, rnd, tol)
			}
		}
	}
}

// TestGemmCPUTransposeFault fails the launch of a transposed operand's
// copy (GemmLauncher.transposed) in a drop-in Dgemm with both operands
// transposed, on a CPU device: the call must finish on gonum's code with
// gonum's answer, never leave the copy's scratch to the GEMM.
func TestGemmCPUTransposeFault(t *testing.T) {
	impl, e := privateImpl(t, &recorder{})
	if !e.Prof.IsCPU() {
		t.Skip("the copies are gemm_cpu's, which CPU devices take")
	}
	const m, n, k = 300, 100, 1100
	rnd := rand.New(rand.NewPCG(21, 22))
	av, bv, c := make([]float64, k*m), make([]float64, n*k), make([]float64, m*n)
	for _, s := range [][]float64{av, bv, c} {
		for i := range s {
			s[i] = rnd.Float64()*2 - 1
		}
	}
	want := slices.Clone(c)
	gonum.Implementation{}.Dgemm(blas.Trans, blas.Trans, m, n, k, 1.5, av, m, bv, k, 0.5, want, n)
	var fired atomic.Bool
	before := e.CPUTransposed.Load()
	fail := func(site string) error {
		// The copy counts itself just before its launch.
		if site == "enqueue" && e.CPUTransposed.Load() > before && fired.CompareAndSwap(false, true) {
			return fmt.Errorf("%s: %w", site, errInjected)
		}
		return nil
	}
	e.Fault.Store(&fail)
	defer e.Fault.Store(nil)
	impl.Dgemm(blas.Trans, blas.Trans, m, n, k, 1.5, av, m, bv, k, 0.5, c, n)
	if !fired.Load() {
		t.Fatal("no transposed copy was launched")
	}
	for i := range c {
		if c[i] != want[i] {
			t.Fatalf("element %d = %v after the failed copy, want gonum's %v", i, c[i], want[i])
		}
	}
}
