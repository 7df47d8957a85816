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

// TestGemmMMAZExpB runs gemm_mma's complex-B program (ZEXP_B=1: complex
// GEMM's 4M real product with B expanded inside the kernel, not packed)
// on the emulated tensor cores, in both precisions, with one and with
// three K slices (GRID_Z=1), on ragged shapes, against a real GEMM of the
// same A and B's explicit real expansion. In float, one case puts
// infinities in A with the FP32 recomputation of non-finite tiles on, so
// that its reads of the complex B are checked too.
func TestGemmMMAZExpB(t *testing.T) {
	e := testEngine(t)
	for _, v := range []struct {
		prec, kwg, z       int
		raw, inf, mix, swz bool
	}{{64, 8, 0, false, false, false, false}, {64, 8, 3, false, false, false, false}, {32, 8, 0, false, false, false, false},
		{32, 16, 2, true, false, false, false}, {32, 8, 0, false, true, false, false},
		// The H200's entries' switches: copies spread between the
		// mma.sync (double), unpadded swizzled k-major tiles (float).
		{64, 8, 0, false, false, true, false}, {32, 32, 0, true, false, false, true}} {
		prec := v.prec
		cfg := emulatedMMAConfig(prec, v.kwg)
		cfg.CPVec, cfg.SplitRaw, cfg.SplitZ = true, v.raw, v.z
		cfg.NoRedo = prec == 32 && !v.inf
		cfg.IssueMix, cfg.KMSwz = v.mix, v.swz
		cfg.ZExpB = true
		name := fmt.Sprintf("f%d/%s", prec, cfg.Name())
		if v.inf {
			name += "/inf"
		}
		t.Run(name, func(t *testing.T) {
			if prec == 64 && !e.Prof.FP64 {
				t.Skip("the device has no fp64")
			}
			for _, sh := range [][3]int{{37, 35, 13}, {20, 33, 30}} {
				if prec == 64 {
					checkZExpB[float64](t, e, cfg, sh[0], sh[1], sh[2], v.inf, 1e-12)
				} else {
					checkZExpB[float32](t, e, cfg, sh[0], sh[1], sh[2], v.inf, 1e-5)
				}
			}
			if !gemmSpecBuilt(prec, cfg, false, false) {
				t.Errorf("the ZEXP_B program did not run")
			}
		})
	}
}

// checkZExpB runs the m×2n×2k real GEMM of a complex m×k A and k×n B
// (interleaved parts, padded leading dimensions, offsets of two complex
// elements) through the launcher with cfg, alpha = 1.5 and beta = 0.25,
// and compares with gonum's real GEMM on B's explicit expansion.
func checkZExpB[T eng.Real](t *testing.T, e *eng.Engine, cfg gemm.Config, m, n, k int, inf bool, tol float64) {
	t.Helper()
	rnd := rand.New(rand.NewPCG(31, uint64(m*n+k)))
	even := func(x int) int { return x + x%2 }
	lda, ldb, ldc := 2*(even(k)+2), 2*(even(n)+2), 2*n+3 // reals; 16-byte rows
	fa := l3Rand(rnd, false)
	if inf {
		fa = l3Sprinkle(rnd, true)
	}
	a := l3Mat[T](m, 2*k, lda, fa)
	b := l3Mat[T](k, 2*n, ldb, l3Rand(rnd, false))
	c := l3Mat[T](m, 2*n, ldc, l3Rand(rnd, false))
	// B's real expansion, 2k×2n.
	bx := make([]T, 4*k*n)
	for p := range k {
		for j := range n {
			re, im := b[p*ldb+2*j], b[p*ldb+2*j+1]
			bx[2*p*2*n+2*j], bx[2*p*2*n+2*j+1] = re, im
			bx[(2*p+1)*2*n+2*j], bx[(2*p+1)*2*n+2*j+1] = -im, re
		}
	}
	want := slices.Clone(c)
	gemmRefOf[T]().gemm(blas.NoTrans, blas.NoTrans, m, 2*n, 2*k, 1.5, a, lda, bx, 2*n, 0.25, want, ldc)
	const off = 4 // two complex elements
	pad := func(x []T) []T { return append(make([]T, off), x...) }
	cc := eng.Begin[T](e, "gemm-zexp-test")
	abuf, bbuf, cbuf := eng.Upload(cc, pad(a)), eng.Upload(cc, pad(b)), eng.Upload(cc, pad(c))
	eng.NewGemmLauncher[T](cc).Gemm(cfg, false, false, m, 2*n, 2*k, 1.5, abuf, off, lda, bbuf, off, ldb, 0.25, cbuf, off, ldc)
	out := eng.Download[T](cc, cbuf, len(c)+off)
	if err := cc.Finish(); err != nil {
		t.Fatal(err)
	}
	l3Compare(t, fmt.Sprintf("%s m=%d n=%d k=%d", cfg.Name(), m, n, k), out[off:], want, c, m, 2*n, ldc, l3All, tol)
}

// TestGemmMMAZDevice runs the tensor-core kernel's own instructions (not
// their emulation) with K split across work-group dimension 2, as dense
// batches, and with the complex B expanded in the kernel, on the
// database's tile and the small one, in both precisions; it skips on
// devices without tensor cores (the tests above cover the index logic
// there).
func TestGemmMMAZDevice(t *testing.T) {
	e := testEngine(t)
	if !gemm.TensorCapable(e.GemmDev()) {
		t.Skipf("%s has no tensor cores", e.Prof.Name)
	}
	for _, prec := range []int{64, 32} {
		big, ok := gemm.MMA(gemm.Builtin(), e.GemmDev(), prec, 4096, 4096, gemm.TensorTF32x3, gemm.Base(prec, 8))
		if !ok {
			t.Fatalf("prec %d: no gemm_mma choice on %s", prec, e.Prof.Name)
		}
		small, ok := gemm.MMASmall(e.GemmDev(), prec, big)
		if !ok {
			t.Fatalf("prec %d: no small gemm_mma tile on %s", prec, e.Prof.Name)
		}
		for _, cfg := range []gemm.Config{big, small} {
			cfg.CPVec, cfg.NoRedo = true, prec == 32
			name := fmt.Sprintf("f%d/%s", prec, cfg.Name())
			t.Run(name, func(t *testing.T) {
				split := cfg
				split.SplitZ = 3
				for _, tA := range []bool{false, true} {
					for _, tB := range []bool{false, true} {
						for _, off := range []int{0, 1} {
							if prec == 64 {
								checkGemmBatch[float64](t, e, cfg, tA, tB, 300, 203, 77, off, 1e-12)
							} else {
								checkGemmBatch[float32](t, e, cfg, tA, tB, 300, 203, 77, off, 1e-5)
							}
						}
					}
				}
				zexp := cfg
				zexp.ZExpB = true
				zsplit := zexp
				zsplit.SplitZ = 2
				if prec == 64 {
					runCPVec[float64](t, e, name+"/z3", split, [][3]int{{300, 203, 1001}}, 1e-12)
					checkZExpB[float64](t, e, zexp, 300, 203, 77, false, 1e-12)
					checkZExpB[float64](t, e, zsplit, 129, 65, 501, false, 1e-12)
				} else {
					runCPVec[float32](t, e, name+"/z3", split, [][3]int{{300, 203, 1001}}, 1e-5)
					checkZExpB[float32](t, e, zexp, 300, 203, 77, false, 1e-5)
					checkZExpB[float32](t, e, zsplit, 129, 65, 501, false, 1e-5)
				}
			})
		}
	}
}
