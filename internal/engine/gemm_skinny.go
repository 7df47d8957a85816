package engine

import (
	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/internal/gemm"
)

// gemv enqueues C = alpha·op(A)·op(B) + beta·C for m == 1 or n == 1 as a
// matrix-vector product (alpha ≠ 0 or the gonum semantics of the GEMM
// kernel with alpha == 0: the products are still formed).
func (g *GemmLauncher[T]) gemv(cfg gemm.Config, tA, tB bool, m, n, k int, alpha T, a *cl.Buffer, offA, lda int, b *cl.Buffer, offB, ldb int, beta T, cb *cl.Buffer, offC, ldc int) {
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
		kern := g.kernel(gemm.SourceSkinny, "gemv_row")
		c.Run(kern, []int{nout * gemm.GemvRowWG}, []int{gemm.GemvRowWG}, args...)
		return
	}
	kern := g.kernel(gemm.SourceSkinny, "gemv_col")
	c.Run(kern, []int{Groups(nout, gemm.GemvColX), gemm.GemvColY}, []int{gemm.GemvColX, gemm.GemvColY}, args...)
}

// splitK enqueues the GEMM as cfg.SplitK slices along K into a scratch
// buffer, then their sum into C.
func (g *GemmLauncher[T]) splitK(cfg gemm.Config, tA, tB bool, m, n, k int, alpha T, a *cl.Buffer, offA, lda int, b *cl.Buffer, offB, ldb int, beta T, cb *cl.Buffer, offC, ldc int) {
	c := g.c
	mn := m * n
	slices := L3CeilDiv(k, cfg.KSlice)
	w := Alloc[T](c, slices*mn)
	one := cfg
	one.SplitK, one.KSlice = 0, 0
	for s := 0; s < slices; s++ {
		k0 := s * cfg.KSlice
		ks := min(cfg.KSlice, k-k0)
		oa, ob := offA+k0, offB+k0*ldb // op(A)[i][k0], op(B)[k0][j]
		if tA {
			oa = offA + k0*lda
		}
		if tB {
			ob = offB + k0
		}
		g.Gemm(one, tA, tB, m, n, ks, alpha, a, oa, lda, b, ob, ldb, 0, w, s*mn, n)
	}
	kern := g.kernel(gemm.SourceSkinny, "gemm_splitk_reduce")
	global, local := l3Work(m, n)
	c.Run(kern, global, local, l3Int(c, m), l3Int(c, n), l3Int(c, slices), w, beta, cb, l3Int(c, offC), l3Int(c, ldc))
}

// splitZ enqueues the GEMM as one gemm_mma or gemm_tiled launch of cfg.SplitZ slices
// along K (GRID_Z=1), each into its own m×n slab of a scratch buffer, then
// their sum into C. A call the tensor-core kernel cannot take with its tile
// runs without the split.
func (g *GemmLauncher[T]) splitZ(cfg gemm.Config, tA, tB bool, m, n, k int, alpha T, a *cl.Buffer, offA, lda int, b *cl.Buffer, offB, ldb int, beta T, cb *cl.Buffer, offC, ldc int) {
	c := g.c
	if cfg.CPVec && !cfg.MMACPVec(c.prec, len(c.over) > 0, offA, lda, offB, ldb) {
		cfg = cfg.WithoutCPVec(c.prec) // for float the FMA kernel, unsplit
	}
	if (cfg.Kernel != gemm.KernelMMA && cfg.Kernel != gemm.KernelTiled) || !cfg.TiledFits(lda, ldb, n) {
		// Neither gemm_mma's nor gemm_tiled's program (whose Work alone
		// reads SplitZ), nor will launch make it one.
		g.launch(cfg, tA, tB, m, n, k, alpha, a, offA, lda, b, offB, ldb, beta, cb, offC, ldc)
		return
	}
	w := Alloc[T](c, cfg.SplitZ*m*n)
	g.launch(cfg, tA, tB, m, n, k, alpha, a, offA, lda, b, offB, ldb, 0, w, 0, n)
	kern := g.kernel(gemm.SourceSkinny, "gemm_splitk_reduce")
	global, local := l3Work(m, n)
	c.Run(kern, global, local, l3Int(c, m), l3Int(c, n), l3Int(c, cfg.SplitZ), w, beta, cb, l3Int(c, offC), l3Int(c, ldc))
}

// GemmBatch enqueues batch GEMMs C_z = alpha·op(A_z)·op(B_z) + beta·C_z,
// z < batch, whose operands follow one another densely: A_z starts
// z·(stored rows of op(A))·lda elements after offA (m rows untransposed,
// k transposed), B_z z·(k or n)·ldb after offB, C_z z·m·ldc after offC.
// Where cfg is a gemm_mma choice that takes the call whole (no split, its
// 16-byte copies allowed or not asked for), it is one launch (GRID_Z=2);
// otherwise one Gemm after another.
func (g *GemmLauncher[T]) GemmBatch(cfg gemm.Config, batch int, tA, tB bool, m, n, k int, alpha T, a *cl.Buffer, offA, lda int, b *cl.Buffer, offB, ldb int, beta T, cb *cl.Buffer, offC, ldc int) {
	c := g.c
	if cfg.CPVec && !cfg.MMACPVec(c.prec, len(c.over) > 0, offA, lda, offB, ldb) {
		cfg = cfg.WithoutCPVec(c.prec)
	}
	if batch > 1 && k > 0 && alpha != 0 && cfg.Kernel == gemm.KernelMMA && cfg.SplitZ <= 1 && cfg.SplitK <= 1 &&
		cfg.TiledFits(lda, ldb, ldc) {
		cfg.BatchZ = batch
		g.launch(cfg, tA, tB, m, n, k, alpha, a, offA, lda, b, offB, ldb, beta, cb, offC, ldc)
		return
	}
	ra, rb := m, k
	if tA {
		ra = k
	}
	if tB {
		rb = n
	}
	for z := range batch {
		g.Gemm(cfg, tA, tB, m, n, k, alpha, a, offA+z*ra*lda, lda, b, offB+z*rb*ldb, ldb, beta, cb, offC+z*m*ldc, ldc)
	}
}

// EngineTensor is the tensor-core mode of e.
func EngineTensor(e *Engine) gemm.Tensor { return e.Tensor }
