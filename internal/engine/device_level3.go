package engine

import (
	"sync"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/internal/gemm"
)

// Level 3 device routines. Each precision's method is a thin wrapper around
// one generic function. GEMM runs the kernels of gemm.cl (see gemm.go); the
// others run the kernels of level3.cl, and TRSM is blocked: diagonal blocks
// are solved by substitution, the rest of B is updated with GEMM.

// Stored returns the dimensions of the matrix X stored for op(X), a
// rows×cols matrix: cols×rows when t transposes.
func Stored(t blas.Transpose, rows, cols int) (int, int) {
	if t != blas.NoTrans {
		return cols, rows
	}
	return rows, cols
}

// l3In returns a device buffer the kernels read host from: host itself on
// a device that shares the host's memory (hostOver), else a copy.
func l3In[T Real](c *Call, host []T) *cl.Buffer {
	if c.E.HostShared() {
		return hostOver(c, host, cl.MemReadOnly)
	}
	return Upload(c, host)
}

// l3Dest is the output matrix of a level-3 call on host slices: rows×cols
// with leading dimension ld in host. On a device that shares the host's
// memory the kernels update host itself; if they read it (reads), keep
// holds the block as it was, put back should the call fail, so that the
// CPU finish starts from what it was given (when they do not read it, the
// CPU finish overwrites whatever a failed call left). Elsewhere the
// kernels work on a device copy, read back once every command succeeded.
type l3Dest[T Real] struct {
	host                 []T
	rows, cols, ld, span int
	buf                  *cl.Buffer
	over                 bool
	keep                 []T
}

// keepPools hold the l3Dest copies for reuse ([]float32 and []float64
// behind pointers), so that a factorization's many trailing updates do not
// each allocate (and the collector free) a copy of C.
var keepPools [2]sync.Pool

func keepPool[T Real]() *sync.Pool { return &keepPools[PrecisionOf[T]()/64] }

// getKeep returns a slice of n elements (contents undefined).
func getKeep[T Real](n int) []T {
	if p, ok := keepPool[T]().Get().(*[]T); ok && cap(*p) >= n {
		return (*p)[:n]
	}
	return make([]T, n)
}

func putKeep[T Real](s []T) { keepPool[T]().Put(&s) }

func newL3Dest[T Real](c *Call, host []T, rows, cols, ld int, reads bool) *l3Dest[T] {
	d := &l3Dest[T]{host: host, rows: rows, cols: cols, ld: ld, span: MatSpan(rows, cols, ld)}
	switch {
	case keepTooLarge[T](c, rows, cols, reads):
		c.Fail(ErrKeepTooLarge) // l3_keep.go
	case c.E.HostShared():
		d.over = true
		if reads && c.Err == nil {
			d.keep = getKeep[T](rows * cols)
			CopyBlock(d.keep, cols, host, ld, rows, cols)
		}
		d.buf = hostOver(c, host[:d.span], cl.MemReadWrite)
	case reads:
		d.buf = Upload(c, host[:d.span])
	default:
		d.buf = Alloc[T](c, d.span)
	}
	return d
}

// finish ends the call c; on success the host matrix holds the result
// (from a device copy, scatter writes back what the routine may change).
func (d *l3Dest[T]) finish(c *Call, scatter func(dst, src []T)) error {
	if d.over {
		syncHost[T](c, d.buf, d.span)
		err := c.Finish()
		if d.keep != nil {
			if err != nil {
				CopyBlock(d.host, d.ld, d.keep, d.cols, d.rows, d.cols)
			}
			putKeep(d.keep)
		}
		return err
	}
	out := Download[T](c, d.buf, d.span)
	if err := c.Finish(); err != nil {
		return err
	}
	scatter(d.host, out)
	return nil
}

// gemmSlices is Dgemm and Sgemm on host slices: C = alpha·op(A)·op(B) + beta·C.
func gemmSlices[T Real](e *Engine, name string, tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, cc []T, ldc int) error {
	if e.Plan().Staged() { // pinned staging, pipelined (gemm_pipeline.go)
		return gemmStaged(e, name, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, cc, ldc)
	}
	if m > 1 && e.HostShared() && beta != 0 && m*n*ElemSize[T]() > KeepMaxBytes {
		return gemmKeepSlabs(e, name, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, cc, ldc) // l3_keep.go
	}
	c := Begin[T](e, name)
	at, bt := tA != blas.NoTrans, tB != blas.NoTrans
	dc := newL3Dest(c, cc, m, n, ldc, beta != 0)
	var ab, bb *cl.Buffer
	if k > 0 && !(alpha == 0 && beta == 1) { // otherwise A and B are not read
		ar, ac := Stored(tA, m, k)
		br, bc := Stored(tB, k, n)
		ab = l3In(c, a[:MatSpan(ar, ac, lda)])
		bb = l3In(c, b[:MatSpan(br, bc, ldb)])
	}
	GemmOnDevice(c, at, bt, m, n, k, alpha, ab, 0, lda, bb, 0, ldb, beta, dc.buf, 0, ldc)
	return dc.finish(c, func(dst, src []T) { ScatterMat(dst, src, m, n, ldc) })
}

// symm is Dsymm and Ssymm: C = alpha·A·B + beta·C (left) or
// C = alpha·B·A + beta·C (right) for a symmetric A.
func symm[T Real](e *Engine, name string, s blas.Side, ul blas.Uplo, m, n int, alpha T, a []T, lda int, b []T, ldb int, beta T, cc []T, ldc int) error {
	c := Begin[T](e, name)
	left := s == blas.Left
	ka := n
	if left {
		ka = m
	}
	dc := newL3Dest(c, cc, m, n, ldc, beta != 0)
	var ab, bb *cl.Buffer
	if alpha != 0 {
		ab = l3In(c, a[:MatSpan(ka, ka, lda)])
		bb = l3In(c, b[:MatSpan(m, n, ldb)])
	}
	SymmOnDevice(c, left, ul == blas.Upper, m, n, alpha, ab, lda, bb, ldb, beta, dc.buf, ldc)
	return dc.finish(c, func(dst, src []T) { ScatterMat(dst, src, m, n, ldc) })
}

// The enqueue-only layer of symm, syrk, syr2k, trmm and trsm: operands are
// device buffers holding the matrices from element 0; errors are recorded
// in c. The host-slice routines and the device-resident API call them.

// L3RouteMode is how symm, syrk, syr2k and trmm run on the device.
type L3RouteMode int

const (
	L3Auto    L3RouteMode = iota // by size (viaGemm)
	L3Direct                     // level3.cl's one-element-per-work-item kernels
	L3ViaGemm                    // the tuned GEMM kernel plus an adapting kernel
)

// L3GemmMin is the least m, n and k for which symm, syrk and syr2k take
// the GEMM route: the direct kernels read their operands from global
// memory once per element of the result, while the tuned GEMM kernel
// reuses them from local memory and registers, which outweighs the route's
// extra work (the whole square for syrk, an expanded copy of A for symm)
// from small sizes up. On PoCL here (`go test -bench Level3Route`), n = 64:
// 1.5× (syrk) to 5× (syr2k) faster, n = 256: 7× to 21×; n = 32 is even.
const L3GemmMin = 64

// viaGemm reports whether an m×n result with inner dimension k takes the
// GEMM route (unless the engine's l3Route forces one).
func (e *Engine) viaGemm(m, n, k int) bool {
	via := min(m, n, k) >= L3GemmMin
	switch e.L3Route {
	case L3Direct:
		via = false
	case L3ViaGemm:
		via = true
	}
	if via {
		e.L3ViaGemm.Add(1)
	}
	return via
}

// SymmOnDevice enqueues C = alpha·A·B + beta·C (left) or alpha·B·A + beta·C
// for a symmetric A of which the upper or lower triangle is read. With
// alpha == 0, A and B are not read (and may be nil).
func SymmOnDevice[T Real](c *Call, left, upper bool, m, n int, alpha T, a *cl.Buffer, lda int, b *cl.Buffer, ldb int, beta T, cb *cl.Buffer, ldc int) {
	g := NewGemmLauncher[T](c)
	if alpha == 0 {
		g.scale(m, n, beta, cb, 0, ldc, triFull)
		return
	}
	ka := n
	if left {
		ka = m
	}
	if c.E.viaGemm(m, n, ka) {
		// GEMM route: the full symmetric A, then one GEMM.
		f := Alloc[T](c, ka*ka)
		kern := g.kernel("level3.cl", "l3_sym_expand")
		global, local := l3Work(ka, ka)
		c.Run(kern, global, local, l3Int(c, ka), int32(l3Bool(upper)), a, l3Int(c, lda), f)
		if left {
			GemmOnDevice(c, false, false, m, n, m, alpha, f, 0, m, b, 0, ldb, beta, cb, 0, ldc)
		} else {
			GemmOnDevice(c, false, false, m, n, n, alpha, b, 0, ldb, f, 0, n, beta, cb, 0, ldc)
		}
		return
	}
	k := g.kernel("level3.cl", "symm")
	global, local := l3Work(m, n)
	c.Run(k, global, local, int32(l3Bool(left)), int32(l3Bool(upper)), l3Int(c, m), l3Int(c, n),
		alpha, a, l3Int(c, lda), b, l3Int(c, ldb), beta, cb, l3Int(c, ldc))
}

// syrkReadsC reports whether syrk reads C even when beta == 0 (gonum
// multiplies the lower triangle by beta with a transpose).
func syrkReadsC[T Real](alpha T, upper, trans bool) bool { return alpha != 0 && !upper && trans }

// SyrkOnDevice enqueues the upper or lower triangle of C = alpha·A·Aᵀ +
// beta·C (or alpha·Aᵀ·A + beta·C when trans). With alpha == 0, A is not
// read.
func SyrkOnDevice[T Real](c *Call, upper, trans bool, n, k int, alpha T, a *cl.Buffer, lda int, beta T, cb *cl.Buffer, ldc int) {
	g := NewGemmLauncher[T](c)
	if alpha == 0 {
		g.scale(n, n, beta, cb, 0, ldc, l3Tri(upper))
		return
	}
	if k > 0 && c.E.viaGemm(n, n, k) {
		// GEMM route: T = alpha·op(A)·op(A)ᵀ over the whole square, then
		// its triangle merged into C.
		t := Alloc[T](c, n*n)
		GemmOnDevice(c, trans, !trans, n, n, k, alpha, a, 0, lda, a, 0, lda, 0, t, 0, n)
		triMerge(g, upper, false, n, t, beta, cb, ldc, syrkReadsC(alpha, upper, trans))
		return
	}
	// k may be 0 here: gonum then still multiplies the lower triangle by
	// beta with a transpose (mulbeta), and assigns otherwise.
	kern := g.kernel("level3.cl", "syrk")
	global, local := l3Work(n, n)
	c.Run(kern, global, local, int32(l3Bool(upper)), int32(l3Bool(trans)), l3Int(c, n), l3Int(c, k),
		alpha, a, l3Int(c, lda), beta, cb, l3Int(c, ldc), int32(l3Bool(syrkReadsC(alpha, upper, trans))))
}

// Syr2kOnDevice enqueues the upper or lower triangle of
// C = alpha·(A·Bᵀ + B·Aᵀ) + beta·C (or alpha·(Aᵀ·B + Bᵀ·A) + beta·C when
// trans). With alpha == 0 or k == 0, A and B are not read.
func Syr2kOnDevice[T Real](c *Call, upper, trans bool, n, k int, alpha T, a *cl.Buffer, lda int, b *cl.Buffer, ldb int, beta T, cb *cl.Buffer, ldc int) {
	g := NewGemmLauncher[T](c)
	if alpha == 0 || k == 0 {
		g.scale(n, n, beta, cb, 0, ldc, l3Tri(upper))
		return
	}
	if c.E.viaGemm(n, n, k) {
		// GEMM route: T = alpha·op(A)·op(B)ᵀ, and alpha·op(B)·op(A)ᵀ = Tᵀ:
		// C's triangle becomes T + Tᵀ + beta·C.
		t := Alloc[T](c, n*n)
		GemmOnDevice(c, trans, !trans, n, n, k, alpha, a, 0, lda, b, 0, ldb, 0, t, 0, n)
		triMerge(g, upper, true, n, t, beta, cb, ldc, false)
		return
	}
	kern := g.kernel("level3.cl", "syr2k")
	global, local := l3Work(n, n)
	c.Run(kern, global, local, int32(l3Bool(upper)), int32(l3Bool(trans)), l3Int(c, n), l3Int(c, k),
		alpha, a, l3Int(c, lda), b, l3Int(c, ldb), beta, cb, l3Int(c, ldc))
}

// triMerge enqueues level3.cl's l3_tri_merge: the upper or lower
// triangle of C = T (+ Tᵀ when sym2) + beta·C, T n×n with leading
// dimension n.
func triMerge[T Real](g *GemmLauncher[T], upper, sym2 bool, n int, t *cl.Buffer, beta T, cb *cl.Buffer, ldc int, mulbeta bool) {
	c := g.c
	kern := g.kernel("level3.cl", "l3_tri_merge")
	global, local := l3Work(n, n)
	c.Run(kern, global, local, l3Int(c, n), int32(l3Bool(upper)), int32(l3Bool(sym2)), t, l3Int(c, n),
		beta, cb, l3Int(c, ldc), int32(l3Bool(mulbeta)))
}

// TrmmOnDevice enqueues res = alpha·op(A)·B (left) or alpha·B·op(A) for a
// triangular A; res (leading dimension ldb) must not alias B. With
// alpha == 0, A and B are not read.
func TrmmOnDevice[T Real](c *Call, left, upper, trans, unit bool, m, n int, alpha T, a *cl.Buffer, lda int, b *cl.Buffer, ldb int, res *cl.Buffer) {
	g := NewGemmLauncher[T](c)
	if alpha == 0 {
		g.scale(m, n, 0, res, 0, ldb, triFull)
		return
	}
	ka := n
	if left {
		ka = m
	}
	if nb := c.E.trmmBlockSize(); ka > nb && c.E.viaGemm(m, n, ka) {
		trmmViaGemm(g, nb, left, upper, trans, unit, m, n, alpha, a, lda, b, ldb, res)
		return
	}
	trmmBlockOnDevice(g, left, upper, trans, unit, m, n, alpha, a, 0, lda, b, 0, ldb, res, 0)
}

// TrmmBlock is the side of the diagonal blocks of trmm's GEMM route.
const TrmmBlock = 128

// trmmBlockSize is trmmBlock, or the engine's l3Block when set (tests cut
// small matrices into several blocks with it).
func (e *Engine) trmmBlockSize() int {
	if e.L3Block > 0 {
		return e.L3Block
	}
	return TrmmBlock
}

// trmmBlockOnDevice enqueues level3.cl's trmm kernel on the m×n problem
// whose A, B and result start at elements offA, offB and offR.
func trmmBlockOnDevice[T Real](g *GemmLauncher[T], left, upper, trans, unit bool, m, n int, alpha T, a *cl.Buffer, offA, lda int, b *cl.Buffer, offB, ldb int, res *cl.Buffer, offR int) {
	c := g.c
	kern := g.kernel("level3.cl", "trmm")
	global, local := l3Work(m, n)
	c.Run(kern, global, local, int32(l3Bool(left)), int32(l3Bool(upper)), int32(l3Bool(trans)),
		int32(l3Bool(unit)), l3Int(c, m), l3Int(c, n), alpha, a, l3Int(c, offA), l3Int(c, lda),
		b, l3Int(c, offB), l3Int(c, ldb), res, l3Int(c, offR))
}

// trmmViaGemm is trmm's GEMM route: op(A) is cut into diagonal blocks of
// side nb; each block row (left) or column (right) of the result is the
// trmm kernel on its diagonal block, then one GEMM with the part of op(A)
// beside it that holds stored elements (beta = 1 adds it). Only stored
// elements of A are multiplied, as by the direct kernel, so NaN and Inf in
// B spread the same way.
func trmmViaGemm[T Real](g *GemmLauncher[T], nb int, left, upper, trans, unit bool, m, n int, alpha T, a *cl.Buffer, lda int, b *cl.Buffer, ldb int, res *cl.Buffer) {
	c := g.c
	opUpper := upper != trans
	// aAt is the element offset of op(A)[r][p] for the top-left corner
	// (r, p) of a block of op(A), and whether GEMM reads it transposed.
	aAt := func(r, p int) (int, bool) {
		if trans {
			return p*lda + r, true
		}
		return r*lda + p, false
	}
	if left { // res = alpha·op(A)·B, A m×m
		for r0 := 0; r0 < m && c.Err == nil; r0 += nb {
			r1 := min(r0+nb, m)
			mb := r1 - r0
			trmmBlockOnDevice(g, true, upper, trans, unit, mb, n, alpha, a, r0*lda+r0, lda, b, r0*ldb, ldb, res, r0*ldb)
			p0, p1 := 0, r0 // op(A) lower: columns before the block
			if opUpper {
				p0, p1 = r1, m // upper: columns after it
			}
			if p1 > p0 {
				offA, tA := aAt(r0, p0)
				GemmOnDevice(c, tA, false, mb, n, p1-p0, alpha, a, offA, lda, b, p0*ldb, ldb, 1, res, r0*ldb, ldb)
			}
		}
		return
	}
	// res = alpha·B·op(A), A n×n
	for c0 := 0; c0 < n && c.Err == nil; c0 += nb {
		c1 := min(c0+nb, n)
		w := c1 - c0
		trmmBlockOnDevice(g, false, upper, trans, unit, m, w, alpha, a, c0*lda+c0, lda, b, c0, ldb, res, c0)
		p0, p1 := c1, n // op(A) lower: rows after the block
		if opUpper {
			p0, p1 = 0, c0 // upper: rows before it
		}
		if p1 > p0 {
			offA, tB := aAt(p0, c0)
			GemmOnDevice(c, false, tB, m, w, p1-p0, alpha, b, p0, ldb, a, offA, lda, 1, res, c0, ldb)
		}
	}
}

// syrk is Dsyrk and Ssyrk: the ul triangle of C = alpha·A·Aᵀ + beta·C
// (NoTrans) or C = alpha·Aᵀ·A + beta·C.
func syrk[T Real](e *Engine, name string, ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, beta T, cc []T, ldc int) error {
	c := Begin[T](e, name)
	trans := t != blas.NoTrans
	upper := ul == blas.Upper
	dc := newL3Dest(c, cc, n, n, ldc, beta != 0 || syrkReadsC(alpha, upper, trans))
	var ab *cl.Buffer
	if alpha != 0 {
		ar, ac := Stored(t, n, k)
		ab = l3In(c, a[:MatSpan(ar, ac, lda)])
	}
	SyrkOnDevice(c, upper, trans, n, k, alpha, ab, lda, beta, dc.buf, ldc)
	return dc.finish(c, func(dst, src []T) { l3ScatterTri(dst, src, n, ldc, upper) })
}

// syr2k is Dsyr2k and Ssyr2k: the ul triangle of
// C = alpha·(A·Bᵀ + B·Aᵀ) + beta·C (NoTrans) or alpha·(Aᵀ·B + Bᵀ·A) + beta·C.
func syr2k[T Real](e *Engine, name string, ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, cc []T, ldc int) error {
	c := Begin[T](e, name)
	trans := t != blas.NoTrans
	upper := ul == blas.Upper
	dc := newL3Dest(c, cc, n, n, ldc, beta != 0)
	var ab, bb *cl.Buffer
	if alpha != 0 && k != 0 {
		ar, ac := Stored(t, n, k)
		ab = l3In(c, a[:MatSpan(ar, ac, lda)])
		bb = l3In(c, b[:MatSpan(ar, ac, ldb)])
	}
	Syr2kOnDevice(c, upper, trans, n, k, alpha, ab, lda, bb, ldb, beta, dc.buf, ldc)
	return dc.finish(c, func(dst, src []T) { l3ScatterTri(dst, src, n, ldc, upper) })
}

func l3Tri(upper bool) int {
	if upper {
		return triUpper
	}
	return triLower
}

// l3ScatterTri copies the upper or lower triangle (diagonal included) of an
// n×n matrix with leading dimension ld from src into dst; the other
// triangle and the padding are left alone.
func l3ScatterTri[T Real](dst, src []T, n, ld int, upper bool) {
	for i := 0; i < n; i++ {
		lo, hi := 0, i+1
		if upper {
			lo, hi = i, n
		}
		copy(dst[i*ld+lo:i*ld+hi], src[i*ld+lo:i*ld+hi])
	}
}

// trmm is Dtrmm and Strmm: B = alpha·op(A)·B (left) or B = alpha·B·op(A)
// for a triangular A.
func trmm[T Real](e *Engine, name string, s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) error {
	c := Begin[T](e, name)
	left := s == blas.Left
	ka := n
	if left {
		ka = m
	}
	bs := MatSpan(m, n, ldb)
	res := Alloc[T](c, bs)
	var ab, bb *cl.Buffer
	if alpha != 0 {
		ab = l3In(c, a[:MatSpan(ka, ka, lda)])
		bb = l3In(c, b[:bs])
	}
	TrmmOnDevice(c, left, ul == blas.Upper, tA != blas.NoTrans, d == blas.Unit, m, n, alpha, ab, lda, bb, ldb, res)
	out := Download[T](c, res, bs)
	if err := c.Finish(); err != nil {
		return err
	}
	ScatterMat(b, out, m, n, ldb)
	return nil
}

// trsmRowCols is the columns of B each trsm_left_rows work-item solves
// (TRSM_RC).
const trsmRowCols = 32

// TrsmBlock is the order of the diagonal blocks of the blocked TRSM on e's
// device: 64 on CPU devices too, where trsm_left_rows solves a block of 64
// rows as fast as two of 32 and the GEMM between them, and LU's solves of
// 64 rows (cllapack) then take one launch instead of three.
func TrsmBlock(e *Engine) int {
	return 64
}

// Trsm is Dtrsm and Strsm: B = X where op(A)·X = alpha·B (left) or
// X·op(A) = alpha·B, for a triangular A, solved recursively down to
// diagonal blocks of order nb at most: B is first scaled by alpha (as gonum
// does; alpha == 0 assigns zeros); a range of rows (left) or columns
// (right) is split in two, the half solved first is solved, the other half
// is updated with one GEMM (alpha = −1, beta = 1, on buffer offsets) and
// then solved; a diagonal block is solved in place by substitution
// (trsm_left/trsm_right, one work-item per right-hand side). The GEMM
// updates are as few as the blocks and their inner dimension is half the
// range, not nb: the top one multiplies with k = m/2 (left), where a
// right-looking blocked solve makes every update a k = nb GEMM, which runs
// far below a GPU's rate.
func Trsm[T Real](e *Engine, name string, s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int, nb int) error {
	c := Begin[T](e, name)
	left := s == blas.Left
	ka := n
	if left {
		ka = m
	}
	db := newL3Dest(c, b, m, n, ldb, alpha != 0)
	var ab *cl.Buffer
	if alpha != 0 {
		ab = l3In(c, a[:MatSpan(ka, ka, lda)])
	}
	TrsmOnDevice(c, left, ul == blas.Upper, tA != blas.NoTrans, d == blas.Unit, m, n, alpha, ab, lda, db.buf, ldb, nb)
	return db.finish(c, func(dst, src []T) { ScatterMat(dst, src, m, n, ldb) })
}

// TrsmOnDevice enqueues the recursive solve of trsm in place in bb
// (leading dimension ldb). With alpha == 0, A is not read and B is assigned
// zeros without being read.
func TrsmOnDevice[T Real](c *Call, left, upper, trans, unit bool, m, n int, alpha T, ab *cl.Buffer, lda int, bb *cl.Buffer, ldb int, nb int) {
	g := NewGemmLauncher[T](c)
	if alpha != 1 {
		g.scale(m, n, alpha, bb, 0, ldb, triFull)
	}
	if alpha == 0 {
		return
	}
	opUpper := upper != trans
	flags := []any{int32(l3Bool(upper)), int32(l3Bool(trans)), int32(l3Bool(unit))}
	// opA is the element offset of op(A)[i][p] in A.
	opA := func(i, p int) int {
		if trans {
			return p*lda + i
		}
		return i*lda + p
	}
	// update: C -= op(X)·op(Y) on the blocks at the given offsets.
	update := func(tX, tY bool, mm, nn, kk int, x *cl.Buffer, offX, ldx int, y *cl.Buffer, offY, ldy int, offC int) {
		cfg := gemm.Choose(c.E.Tuning, c.E.GemmDev(), c.prec, mm, nn, kk, EngineTensor(c.E))
		g.Gemm(cfg, tX, tY, mm, nn, kk, T(-1), x, offX, ldx, y, offY, ldy, T(1), bb, offC, ldb)
	}
	if left {
		// Rows of X, where op(A)·X = B: top down when op(A) is lower.
		// CPU devices: a run of trsmRowCols columns a work-item.
		kern, global, local := g.kernel("level3.cl", "trsm_left"), Groups(n, 64), 64
		if c.E.Prof.IsCPU() {
			kern, global, local = g.kernel("level3.cl", "trsm_left_rows"), L3CeilDiv(n, trsmRowCols), 1
		}
		trsmRecurse(c, 0, m, nb, !opUpper, func(lo, hi int) {
			args := append(append([]any{}, flags...), l3Int(c, n), l3Int(c, lo), l3Int(c, hi-lo), ab, l3Int(c, lda), bb, l3Int(c, ldb))
			c.Run(kern, []int{global}, []int{local}, args...)
		}, func(done, todo [2]int) {
			// B[todo] -= op(A)[todo, done]·X[done]
			update(trans, false, todo[1]-todo[0], n, done[1]-done[0], ab, opA(todo[0], done[0]), lda, bb, done[0]*ldb, ldb, todo[0]*ldb)
		})
		return
	}
	// Columns of X, where X·op(A) = B: left to right when op(A) is upper.
	kern := g.kernel("level3.cl", "trsm_right")
	trsmRecurse(c, 0, n, nb, opUpper, func(lo, hi int) {
		args := append(append([]any{}, flags...), l3Int(c, m), l3Int(c, lo), l3Int(c, hi-lo), ab, l3Int(c, lda), bb, l3Int(c, ldb))
		c.Run(kern, []int{Groups(m, 64)}, []int{64}, args...)
	}, func(done, todo [2]int) {
		// B[:, todo] -= X[:, done]·op(A)[done, todo]
		update(false, trans, m, todo[1]-todo[0], done[1]-done[0], bb, done[0], ldb, ab, opA(done[0], todo[0]), lda, todo[0])
	})
}

// trsmRecurse solves the range [lo, hi) of unknowns (rows or columns of X)
// of a triangular system, in the order forward (ascending) or backward: a
// range of at most nb by leaf; a longer one is split at splitPoint, the
// half that comes first in that order is solved, the other half is
// updated with the solved one by update(done, todo), then solved. It stops
// once the call has failed.
func trsmRecurse(c *Call, lo, hi, nb int, forward bool, leaf func(lo, hi int), update func(done, todo [2]int)) {
	if c.Err != nil {
		return
	}
	if hi-lo <= nb {
		leaf(lo, hi)
		return
	}
	mid := lo + splitPoint(hi-lo, nb)
	first, second := [2]int{lo, mid}, [2]int{mid, hi}
	if !forward {
		first, second = second, first
	}
	trsmRecurse(c, first[0], first[1], nb, forward, leaf, update)
	update(first, second)
	trsmRecurse(c, second[0], second[1], nb, forward, leaf, update)
}

// splitPoint is where the recursive TRSM cuts a range of length l > nb:
// near its middle, on a multiple of nb, so that the leaves are diagonal
// blocks of order nb (the last one shorter).
func splitPoint(l, nb int) int {
	return max(1, (l/nb+1)/2) * nb
}
