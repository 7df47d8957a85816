package engine

import (
	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/internal/settings"
)

// ZMethod is how complex GEMM forms its products on the device.
type ZMethod int

const (
	// ZAuto lets the engine choose (Engine.zMethod).
	ZAuto ZMethod = iota
	// Z4M forms four real products (one real GEMM of m×2n×2k): each part
	// of C is rounded as gonum's loops round it, up to the order of sums.
	Z4M
	// Z3M forms three real products of m×n×k (Gauss's trick, see
	// kernels/zlevel3.cl): a quarter fewer flops; the imaginary part's
	// rounding error grows with |re| + |im| of the operands.
	Z3M
)

// zgemm3MMin is the smallest dimension from which ZAuto takes the 3M
// method: below it the three smaller real GEMMs fill a GPU worse than the
// one of 4M, and the saved quarter of the flops does not pay (BENCHMARKS.md,
// "Figures behind the code's choices").
const zgemm3MMin = 2048

// zMethod is the method of a complex GEMM of m×n×k on e.
func (e *Engine) zMethod(m, n, k int) ZMethod {
	if e.ZMethod != ZAuto {
		return e.ZMethod
	}
	if min(m, n, k) >= zgemm3MMin {
		return Z3M
	}
	return Z4M
}

// ParseZMethod reads GOCL_COMPLEX_GEMM (settings.ParseComplexGemm's words).
func ParseZMethod(v string) (ZMethod, error) {
	w, err := settings.ParseComplexGemm(v)
	switch w {
	case "4m":
		return Z4M, err
	case "3m":
		return Z3M, err
	}
	return ZAuto, err
}

// zgemm3M enqueues C = alpha·op(A)·op(B) + beta·C by the 3M method
// (ZgemmOnDevice's contract, with alpha ≠ 0 and k ≥ 1): the three real
// planes of op(A) and of alpha·op(B), three real GEMMs into the planes of
// P, and z3_combine. The planes lie densely one after another, so the
// three GEMMs are one batched launch where the kernel allows
// (GemmLauncher.GemmBatch): its kernel is the one chosen for a 3m×n×k
// GEMM, which has as many tiles as the batch.
func zgemm3M[R Real](c *Call, tA, tB blas.Transpose, m, n, k int, alpha, beta complex128, a *cl.Buffer, offA, lda int, b *cl.Buffer, offB, ldb int, cb *cl.Buffer, offC, ldc int) {
	pa, pw := z3Pack[R](c, tA, m, k, 1, a, offA, lda), z3Pack[R](c, tB, k, n, alpha, b, offB, ldb)
	p := Alloc[R](c, 3*m*n)
	if c.E.Z3MSeq {
		for i := range 3 {
			GemmOnDevice(c, false, false, m, n, k, R(1), pa, i*m*k, k, pw, i*k*n, n, R(0), p, i*m*n, n)
		}
	} else {
		cfg := c.E.GemmChoices.Get(c.E.Tuning, c.E.GemmDev(), GemmShape{Prec: c.prec, M: 3 * m, N: n, K: k, Mode: c.E.Tensor})
		NewGemmLauncher[R](c).GemmBatch(cfg, 3, false, false, m, n, k, R(1), pa, 0, k, pw, 0, n, R(0), p, 0, n)
	}
	global, local := l3Work(m, n)
	c.Run(c.Kernel(zFile, "z3_combine"), global, local, l3Int(c, m), l3Int(c, n), R(real(beta)), R(imag(beta)),
		p, int64(m*n), cb, int64(offC), l3Int(c, ldc))
}

// z3Pack enqueues the three real planes (re, im, re + im) of s·op(X),
// op(X) rows×cols, each stored rows×cols with leading dimension cols.
func z3Pack[R Real](c *Call, t blas.Transpose, rows, cols int, s complex128, x *cl.Buffer, offX, ldx int) *cl.Buffer {
	p := Alloc[R](c, 3*rows*cols)
	global, local := l3Work(rows, cols)
	c.Run(c.Kernel(zFile, "z3_pack"), global, local, l3Int(c, rows), l3Int(c, cols), zTrans(t), R(real(s)), R(imag(s)),
		x, int64(offX), l3Int(c, ldx), p, int64(rows*cols))
	return p
}
