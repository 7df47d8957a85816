package engine

import (
	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/internal/gemm"
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
// method on every device: there a quarter fewer flops pays for its extra
// launches and passes over the operands (BENCHMARKS.md, "Figures behind
// the code's choices").
const zgemm3MMin = 2048

// Between zgemm3MWaveMin and zgemm3MMin, on tensor-core tiles, ZAuto
// counts the waves each method's GEMM runs in, zgemmGroupsPerCU
// work-groups to a compute unit, and takes 3M where its waves times its
// depth k are fewer than 4M's times 2k. Where both fill the device
// equally the flops saved do not pay for 3M's three extra launches
// (n = 896 on the H200: 4M's 196 work-groups in one wave of depth 2k, 3M's
// 294 in two of depth k); where they fit the same waves 3M's products of
// depth k finish first (n = 768: 144 and 216 work-groups, one wave each
// on 132 compute units). Below zgemm3MWaveMin those launches cost more
// than the product (BENCHMARKS.md, "NVIDIA H200, 2026-12-03"). Two
// work-groups to a compute unit is the occupancy of the H200's 3xTF32
// tiles (about 254 registers a work-item; docs/notes.md, "Nsight Compute
// on 3xTF32") and fits the measurements in both precisions.
const (
	zgemm3MWaveMin   = 768
	zgemmGroupsPerCU = 2
)

// zMethod is the method of a complex GEMM of m×n×k in precision prec on e.
func (e *Engine) zMethod(prec, m, n, k int) ZMethod {
	if e.ZMethod != ZAuto {
		return e.ZMethod
	}
	short := min(m, n, k)
	switch {
	case short >= zgemm3MMin:
		return Z3M
	case short < zgemm3MWaveMin:
		return Z4M
	}
	d := e.GemmDev()
	c4 := e.GemmChoices.Get(e.Tuning, d, GemmShape{Prec: prec, M: m, N: 2 * n, K: 2 * k, Mode: e.Tensor})
	c3 := e.GemmChoices.Get(e.Tuning, d, GemmShape{Prec: prec, M: 3 * m, N: n, K: k, Mode: e.Tensor})
	if c4.Kernel != gemm.KernelMMA || c3.Kernel != gemm.KernelMMA {
		return Z4M
	}
	slots := zgemmGroupsPerCU * max(d.ComputeUnits, 1)
	waves := func(groups int) int { return (groups + slots - 1) / slots }
	if waves(3*c3.WorkGroups(m, n))*k < waves(c4.WorkGroups(m, 2*n))*2*k {
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
