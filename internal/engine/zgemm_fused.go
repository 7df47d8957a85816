package engine

import (
	"errors"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/internal/gemm"
)

// ZExpand is how complex GEMM's 4M product gets its real B operand.
type ZExpand int

const (
	// ZExpandAuto expands with gemm.MMAExpand's tile where it gives one,
	// and packs elsewhere.
	ZExpandAuto ZExpand = iota
	// ZExpandOn expands B inside the GEMM kernel wherever it can.
	ZExpandOn
	// ZExpandOff always packs B first (zpack_b).
	ZExpandOff
)

// errZExpB is a launch of gemm_mma's complex-B program (ZEXP_B) that the
// call's operands would have turned into another kernel: a bug in the
// caller's checks, failed rather than run on the packed operand's kernel.
var errZExpB = errors.New("clblas: complex GEMM without packed B asked of a kernel that cannot do it")

// zgemmFused enqueues the 4M product C = alpha·A·B + beta·C (both
// untransposed, alpha real) as one real GEMM of m×2n×2k whose B operand
// is the complex B itself, expanded inside gemm_mma (ZEXP_B=1): no packed
// copy of B and one launch fewer than ZgemmOnDevice's packed path. It
// reports false, enqueueing nothing, where that kernel cannot take the call
// (its choice for the real shape is not gemm_mma with 16-byte copies, or
// the operands are not aligned for them, or the product is split along K
// by separate launches), or where Engine.ZExpandB is ZExpandOff, or
// ZExpandAuto and gemm.MMAExpand gives no tile for the product (it then
// runs on that tile, not on the choice). In single precision the kernel
// forms the 3M method's three products where the tile allows (gemm_mma's
// Z3M) unless Engine.ZFused4M asks for the four.
func zgemmFused[R Real](c *Call, tA, tB blas.Transpose, m, n, k int, alpha, beta complex128, a *cl.Buffer, offA, lda int, b *cl.Buffer, offB, ldb int, cb *cl.Buffer, offC, ldc int) bool {
	if c.E.ZExpandB == ZExpandOff || tA != blas.NoTrans || tB != blas.NoTrans || imag(alpha) != 0 {
		return false
	}
	cfg := c.E.GemmChoices.Get(c.E.Tuning, c.E.GemmDev(), GemmShape{Prec: c.prec, M: m, N: 2 * n, K: 2 * k, Mode: c.E.Tensor})
	if cfg.Kernel != gemm.KernelMMA || !cfg.CPVec || cfg.SplitK > 1 ||
		!cfg.MMACPVec(c.prec, len(c.over) > 0, 2*offA, 2*lda, 2*offB, 2*ldb) || !cfg.TiledFits(2*lda, 2*ldb, 2*ldc) {
		return false
	}
	if c.E.ZExpandB == ZExpandAuto {
		x, ok := gemm.MMAExpand(c.E.GemmDev(), c.prec, cfg, m, 2*n)
		if !ok || !x.MMACPVec(c.prec, len(c.over) > 0, 2*offA, 2*lda, 2*offB, 2*ldb) {
			return false
		}
		cfg = x
	}
	cfg.ZExpB = true
	if !c.E.ZFused4M && c.prec == 32 {
		if z := withZ3M(cfg); gemm.Valid(c.E.GemmDev(), c.prec, false, false, z) == nil {
			cfg = z
		}
	}
	br := R(real(beta))
	if imag(beta) != 0 {
		ZscaleOnDevice[R](c, m, n, beta, cb, offC, ldc, triFull, false)
		br = 1
	}
	NewGemmLauncher[R](c).Gemm(cfg, false, false, m, 2*n, 2*k, R(real(alpha)), a, 2*offA, 2*lda, b, 2*offB, 2*ldb, br, cb, 2*offC, 2*ldc)
	c.E.ZFusedRuns.Add(1)
	if cfg.Z3M {
		c.E.ZFused3MRuns.Add(1)
	}
	return true
}

// withZ3M is cfg with gemm_mma's Z3M switch on.
func withZ3M(cfg gemm.Config) gemm.Config { cfg.Z3M = true; return cfg }
