package clblas

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/internal/gemm"
)

// TestGemmMMASplitZ runs gemm_mma with split-K across work-group
// dimension 2 (GRID_Z=1, Config.SplitZ) on the emulated tensor cores, in
// both precisions and all four transposes, with and without 16-byte
// copies (aligned and unaligned operands: the float fallback is the
// unsplit FMA kernel). The shapes give slices of whole K tiles, a ragged
// last slice and, for k = 13 in three slices of 8, an empty one that must
// write zeros.
func TestGemmMMASplitZ(t *testing.T) {
	e := testEngine(t)
	for _, v := range []struct {
		prec, kwg, z int
		cpVec, raw   bool
	}{{64, 8, 3, false, false}, {32, 8, 3, false, false}, {64, 8, 2, true, false}, {32, 16, 2, true, true}} {
		prec := v.prec
		cfg := emulatedMMAConfig(prec, v.kwg)
		cfg.CPVec, cfg.SplitRaw = v.cpVec, v.raw
		cfg.NoRedo = prec == 32
		cfg.SplitZ = v.z
		runEmulatedMMAConfig(t, e, prec, cfg, [][3]int{{37, 70, 13}, {66, 33, 45}})
	}
}

// TestGemmMMABatchZ runs three dense GEMMs as one gemm_mma launch
// (GRID_Z=2, GemmLauncher.GemmBatch) on the emulated tensor cores, every
// transpose, with padded leading dimensions and unaligned offsets (the
// float program then falls back to the FMA kernel, one GEMM after
// another), against three gonum GEMMs.
func TestGemmMMABatchZ(t *testing.T) {
	e := testEngine(t)
	for _, v := range []struct {
		prec, kwg int
		cpVec     bool
	}{{64, 8, false}, {32, 8, false}, {32, 16, true}} {
		prec := v.prec
		cfg := emulatedMMAConfig(prec, v.kwg)
		cfg.CPVec = v.cpVec
		cfg.NoRedo = prec == 32
		t.Run(fmt.Sprintf("f%d/%s", prec, cfg.Name()), func(t *testing.T) {
			if prec == 64 && !e.Prof.FP64 {
				t.Skip("the device has no fp64")
			}
			for _, tA := range []bool{false, true} {
				for _, tB := range []bool{false, true} {
					for _, off := range []int{0, 1} {
						if prec == 64 {
							checkGemmBatch[float64](t, e, cfg, tA, tB, 37, 70, 21, off, 1e-12)
						} else {
							checkGemmBatch[float32](t, e, cfg, tA, tB, 37, 70, 21, off, 1e-5)
						}
					}
				}
			}
			if !gemmSpecBuilt(prec, withBatch(cfg, 3), false, false) {
				t.Errorf("no batched program ran")
			}
		})
	}
}

func withBatch(cfg gemm.Config, z int) gemm.Config { cfg.BatchZ = z; return cfg }

// checkGemmBatch runs a batch of three m×n×k GEMMs through
// GemmLauncher.GemmBatch with alpha = 1.5, beta = 0.25 and compares each
// with gonum; off is added to every offset and leading dimension (with
// 16-byte copies, off = 0 keeps the operands aligned, off = 1 does not).
func checkGemmBatch[T eng.Real](t *testing.T, e *eng.Engine, cfg gemm.Config, tA, tB bool, m, n, k, off int, tol float64) {
	t.Helper()
	rnd := rand.New(rand.NewPCG(21, uint64(m+n+k+off)))
	ta, tb := blas.NoTrans, blas.NoTrans
	if tA {
		ta = blas.Trans
	}
	if tB {
		tb = blas.Trans
	}
	ar, ac := eng.Stored(ta, m, k)
	br, bc := eng.Stored(tb, k, n)
	up := func(x int) int { return (x + 3) / 4 * 4 }
	lda, ldb, ldc := up(ac)+4+off, up(bc)+4+off, n+off
	const z = 3
	a := l3Mat[T](z*ar, ac, lda, l3Rand(rnd, false))
	b := l3Mat[T](z*br, bc, ldb, l3Rand(rnd, false))
	c := l3Mat[T](z*m, n, ldc, l3Rand(rnd, false))
	ref := gemmRefOf[T]()
	want := slices.Clone(c)
	for i := range z {
		ref.gemm(ta, tb, m, n, k, 1.5, a[i*ar*lda:], lda, b[i*br*ldb:], ldb, 0.25, want[i*m*ldc:], ldc)
	}
	cc := eng.Begin[T](e, "gemm-batch-test")
	pad := func(x []T) []T { return append(make([]T, 4*off), x...) }
	abuf, bbuf, cbuf := eng.Upload(cc, pad(a)), eng.Upload(cc, pad(b)), eng.Upload(cc, pad(c))
	eng.NewGemmLauncher[T](cc).GemmBatch(cfg, z, tA, tB, m, n, k, 1.5, abuf, 4*off, lda, bbuf, 4*off, ldb, 0.25, cbuf, 4*off, ldc)
	out := eng.Download[T](cc, cbuf, len(c)+4*off)
	if err := cc.Finish(); err != nil {
		t.Fatal(err)
	}
	desc := fmt.Sprintf("%s tA=%v tB=%v off=%d", cfg.Name(), tA, tB, off)
	l3Compare(t, desc, out[4*off:], want, c, z*m, n, ldc, l3All, tol)
}
