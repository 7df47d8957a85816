package clblas

import (
	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

// Skinny GEMMs (kernels/gemm_skinny.cl). Two shapes leave a tiled GEMM
// kernel with little to do per work-group or few work-groups:
//
//   - m == 1 or n == 1: the product is a matrix-vector product. It is
//     routed to the gemv kernels, which read the matrix operand once with
//     coalesced accesses and reduce in local memory. (The level-2 layer's
//     enqueue-only l2mvOnDevice takes its matrix at element 0 of a buffer;
//     GEMM operands sit at any offset, as TRSM's blocked updates need, so
//     the route has its own kernels that take offsets.)
//   - few work-groups with a long K (the tiles cover C in fewer
//     work-groups than the device has compute units): K is split into S
//     slices, each slice multiplied into its own m×n scratch matrix with
//     alpha and beta = 0 (the chosen tiled kernel, unchanged), then
//     gemm_splitk_reduce computes C = beta·C + Σ slices.

const skinnyFile = "gemm_skinny.cl"

// Work-group shapes; they must match gemm_skinny.cl.
const (
	gemvRowWG    = 64 // GV_ROW_WG
	gemvColX     = 32 // GV_COL_X
	gemvColY     = 8  // GV_COL_Y
	splitKMinK   = 128
	splitKMaxS   = 512
	splitKMaxMem = 64 << 20 // bytes of scratch at most
)

// skinnyRoute applies the GEMV and split-K routes to cfg, the choice for an
// m×n×k GEMM on device p in precision prec.
//
// GEMV: m == 1 or n == 1 on any device. Split-K: when the chosen kernel's
// work-groups do not fill the device (fillsDevice: fewer than 7/8 of the
// compute units) and k is longer than both m and n, S = ceil(2·CUs / work-groups) slices (so that S times the
// work-groups reach twice the compute units), each at least splitKMinK long
// (a multiple of the kernel's K step), at most splitKMaxS slices and
// splitKMaxMem bytes of scratch.
func skinnyRoute(p platform.Profile, prec int, cfg gemmConfig, m, n, k int) gemmConfig {
	if m == 1 || n == 1 {
		cfg.kernel = gemmKernelGEMV
		return cfg
	}
	wg := cfg.workGroups(m, n)
	cus := max(p.ComputeUnits, 1)
	if wg <= 0 || fillsDevice(wg, cus) || k <= max(m, n) || k < 2*splitKMinK {
		return cfg
	}
	s := min(l3CeilDiv(2*cus, wg), k/splitKMinK, splitKMaxS)
	s = min(s, splitKMaxMem/max(m*n*prec/8, 1))
	if s < 2 {
		return cfg
	}
	return withSplitK(cfg, k, s)
}

// withSplitK sets cfg to split K (of length k) into s slices (s+1 when the
// rounding leaves a remainder), each but the last a multiple of the
// kernel's K step.
func withSplitK(cfg gemmConfig, k, s int) gemmConfig {
	step := 16
	switch cfg.kernel {
	case gemmKernelTiled:
		step = cfg.kwg
	case gemmKernelMMA:
		step = cfg.mmaKWG
	}
	step = max(step, 1)
	// Round the slice down, so that there are at least s slices (one more,
	// shorter, at most).
	cfg.kslice = max(k/s/step*step, step)
	cfg.splitK = l3CeilDiv(k, cfg.kslice)
	if cfg.splitK < 2 {
		cfg.splitK, cfg.kslice = 0, 0
	}
	return cfg
}

// workGroups is the number of work-groups cfg's kernel runs for an m×n C
// (for gemm_cpu, groups of cpuLocal work-items).
func (cfg gemmConfig) workGroups(m, n int) int {
	switch cfg.kernel {
	case gemmKernelTiled:
		return l3CeilDiv(m, cfg.mwg) * l3CeilDiv(n, cfg.nwg)
	case gemmKernelMMA:
		return l3CeilDiv(m, cfg.mmaMWG) * l3CeilDiv(n, cfg.mmaNWG)
	case gemmKernelDirect:
		return l3CeilDiv(m, cfg.dm*cfg.dmdimc) * l3CeilDiv(n, cfg.dn*cfg.dndimc)
	case gemmKernelCPU:
		cb := cfg.cpuBlock[0][0]
		return l3CeilDiv(l3CeilDiv(m, max(cb[0], 1))*l3CeilDiv(n, max(cb[1], 1)), max(cfg.cpuLocal, 1))
	}
	return 0
}

// gemv enqueues C = alpha·op(A)·op(B) + beta·C for m == 1 or n == 1 as a
// matrix-vector product (alpha ≠ 0 or the gonum semantics of the GEMM
// kernel with alpha == 0: the products are still formed).
func (g *gemmLauncher[T]) gemv(cfg gemmConfig, tA, tB bool, m, n, k int, alpha T, a *cl.Buffer, offA, lda int, b *cl.Buffer, offB, ldb int, beta T, cb *cl.Buffer, offC, ldc int) {
	c := g.c
	// y = alpha·M·x + beta·y with nout outputs; M(i, p) is
	// mat[offM + i·ldm + p] (rowForm) or mat[offM + p·ldm + i].
	var (
		mat, vec         *cl.Buffer
		offM, ldm        int
		offX, incX, incY int
		nout             int
		rowForm          bool
	)
	if n == 1 {
		// C[i][0] = Σ_p op(A)[i][p]·op(B)[p][0]
		mat, offM, ldm, rowForm = a, offA, lda, !tA
		vec, offX, incX = b, offB, ldb
		if tB {
			incX = 1
		}
		nout, incY = m, ldc
	} else {
		// C[0][j] = Σ_p op(A)[0][p]·op(B)[p][j]
		mat, offM, ldm, rowForm = b, offB, ldb, tB
		vec, offX, incX = a, offA, 1
		if tA {
			incX = lda
		}
		nout, incY = n, 1
	}
	args := []any{l3Int(c, nout), l3Int(c, k), alpha, mat, l3Int(c, offM), l3Int(c, ldm),
		vec, l3Int(c, offX), l3Int(c, incX), beta, cb, l3Int(c, offC), l3Int(c, incY)}
	if rowForm {
		kern := g.kernel(skinnyFile, "gemv_row")
		c.run(kern, []int{nout * gemvRowWG}, []int{gemvRowWG}, args...)
		return
	}
	kern := g.kernel(skinnyFile, "gemv_col")
	c.run(kern, []int{groups(nout, gemvColX), gemvColY}, []int{gemvColX, gemvColY}, args...)
}

// splitK enqueues the GEMM as cfg.splitK slices along K into a scratch
// buffer, then their sum into C.
func (g *gemmLauncher[T]) splitK(cfg gemmConfig, tA, tB bool, m, n, k int, alpha T, a *cl.Buffer, offA, lda int, b *cl.Buffer, offB, ldb int, beta T, cb *cl.Buffer, offC, ldc int) {
	c := g.c
	mn := m * n
	slices := l3CeilDiv(k, cfg.kslice)
	w := alloc[T](c, slices*mn)
	one := cfg
	one.splitK, one.kslice = 0, 0
	for s := 0; s < slices; s++ {
		k0 := s * cfg.kslice
		ks := min(cfg.kslice, k-k0)
		oa, ob := offA+k0, offB+k0*ldb // op(A)[i][k0], op(B)[k0][j]
		if tA {
			oa = offA + k0*lda
		}
		if tB {
			ob = offB + k0
		}
		g.gemm(one, tA, tB, m, n, ks, alpha, a, oa, lda, b, ob, ldb, 0, w, s*mn, n)
	}
	kern := g.kernel(skinnyFile, "gemm_splitk_reduce")
	global, local := l3Work(m, n)
	c.run(kern, global, local, l3Int(c, m), l3Int(c, n), l3Int(c, slices), w, beta, cb, l3Int(c, offC), l3Int(c, ldc))
}

// engineTensor is the tensor-core mode of e.
func engineTensor(e *engine) TensorMode { return e.tensor }
