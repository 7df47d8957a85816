package engine

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
)

// Complex level 2 device routines, on the kernels of
// kernels/complex_level2.cl: zmv for the products (gemv, gbmv, hemv, hbmv,
// hpmv, and trmv, tbmv, tpmv into a scratch vector), zrank for the rank
// updates; on GPUs the Hermitian products, the dense triangular one and
// the packed one with Aᵀ or Aᴴ take symv_stream.cl's complex build, and
// GEMV and the rank updates gemv.cl's complex kernels. Matrices are described
// as in device_level2.go (L2Mat), with trans 0, 1, 2 for NoTrans, Trans and
// ConjTrans, and the kind l2KindSymmetric standing for Hermitian. The
// triangular solves are trsv.cl's blocked ones (trsv_blocked.go). CPU
// devices take kernels that walk A's stored rows in order (zgemvCPU,
// cxBandCPU, zrank_rows, and ztri_solve_seq for the solves).

const cxL2File = "complex_level2.cl"

// The modes of zrank; they must match complex_level2.cl.
const (
	ZrGeru = 0
	ZrGerc = 1
	ZrHer  = 2
	ZrHpr  = 3
	ZrHer2 = 4

	zmvGroup = 64 // ZMV_WG
)

// CxMat is a complex matrix descriptor: L2Mat's, with trans 0, 1 or 2.
type CxMat struct {
	L2Mat
	conj bool // op(A) = Aᴴ (general, triangular)
}

func (d CxMat) args(a *cl.Buffer) []any {
	return []any{int32(d.kind), int32(d.storage), l2bool(d.upper), d.transCode(), l2bool(d.unit),
		int32(d.m), int32(d.n), int32(d.kl), int32(d.ku), a, int32(d.Lda)}
}

// transCode is op(A) as the kernels take it: 0 A, 1 Aᵀ, 2 Aᴴ.
func (d CxMat) transCode() int32 {
	switch {
	case d.trans && d.conj:
		return 2
	case d.trans:
		return 1
	}
	return 0
}

func CxGeneral(storage int, tA blas.Transpose, m, n, kL, kU, lda int) CxMat {
	return CxMat{L2Mat{kind: l2KindGeneral, storage: storage, trans: tA != blas.NoTrans, m: m, n: n, kl: kL, ku: kU, Lda: lda}, tA == blas.ConjTrans}
}

func CxTri(storage int, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k, lda int) CxMat {
	return CxMat{L2Tri(storage, ul, tA, d, n, k, lda), tA == blas.ConjTrans}
}

func CxHerm(storage int, ul blas.Uplo, n, k, lda int) CxMat {
	return CxMat{L2Sym(storage, ul, n, k, lda), false}
}

// The enqueue-only layer.

// CxMVOnDevice enqueues y = alpha·M·x + beta·y, M (nout×nin) described by
// d and stored in a. With alpha == 0 neither a nor x is read.
func CxMVOnDevice[R Real](c *Call, d CxMat, a *cl.Buffer, nout int, are, aim R, x *cl.Buffer, offX, incX int, bre, bim R, y *cl.Buffer, offY, incY int) {
	if !d.fits() || !l2fits(nout, incX, incY, offX, offY) {
		c.Fail(errL2TooLarge)
		return
	}
	if are == 0 && aim == 0 {
		c.Run(c.Kernel(cxL2File, "zscale_y"), []int{Groups(nout, 64)}, []int{64},
			int32(nout), bre, bim, y, int64(offY), int32(incY))
		return
	}
	if d.kind == l2KindGeneral && d.storage == L2Dense && d.trans && !L2OnCPU(c) && l2fits(2*d.Lda, 2*offX, 2*offY) {
		zgemvTOnDevice(c, d.conj, d.m, d.n, d.Lda, a, are, aim, x, offX, incX, bre, bim, y, offY, incY) // gemv_fast.go
		return
	}
	if d.kind == l2KindGeneral && d.storage == L2Dense && !d.trans && !L2OnCPU(c) && l2fits(2*d.Lda, 2*offX, 2*offY) {
		zgemvNOnDevice(c, d.m, d.n, d.Lda, a, are, aim, x, offX, incX, bre, bim, y, offY, incY) // gemv_fast.go
		return
	}
	if d.kind == l2KindGeneral && d.storage == L2Dense && L2OnCPU(c) {
		zgemvCPU(c, d, a, are, aim, x, offX, incX, bre, bim, y, offY, incY)
		return
	}
	if L2OnCPU(c) {
		cxBandCPU(c, d, a, are, aim, x, offX, incX, bre, bim, y, offY, incY)
		return
	}
	if !c.E.ZbandTOff && d.storage == L2Band && d.trans && d.kind != l2KindSymmetric {
		zbandTOnDevice(c, d, a, are, aim, x, offX, incX, bre, bim, y, offY, incY)
		return
	}
	if o, ld, off, ok := cxStreamOp(c, d); ok {
		streamMV(c, o, a, ld, off, are, aim, x, offX, incX, bre, bim, y, offY, incY) // symv_stream.go
		return
	}
	args := append(d.args(a), int32(nout), are, aim, x, int64(offX), int32(incX), bre, bim, y, int64(offY), int32(incY))
	if L2OnCPU(c) || (d.kind == l2KindGeneral && d.trans) {
		// A work-item per element of y: on a CPU it walks its row
		// contiguously; for op(A) = Aᵀ or Aᴴ neighbours read neighbouring
		// columns.
		c.Run(c.Kernel(cxL2File, "zmv"), []int{Groups(nout, 64)}, []int{64}, args...)
		return
	}
	c.Run(c.Kernel(cxL2File, "zmv_wg"), []int{nout * zmvGroup}, []int{zmvGroup}, args...)
}

// zgemvCPU enqueues y = alpha·op(A)·x + beta·y for the dense general
// descriptor d on a CPU device: zgemv_rows for A; for Aᵀ and Aᴴ
// zgemv_t_rows over the row blocks of cpuRowBlocks, then zgemv_t_sum (or
// zgemv_t_rows' last work-item, l2OneTicket).
func zgemvCPU[R Real](c *Call, d CxMat, a *cl.Buffer, are, aim R, x *cl.Buffer, offX, incX int, bre, bim R, y *cl.Buffer, offY, incY int) {
	xv := []any{x, int64(offX), int32(incX)}
	yv := []any{bre, bim, y, int64(offY), int32(incY)}
	if !d.trans {
		head := []any{int32(d.m), int32(d.n), are, aim, a, int32(d.Lda)}
		c.Run(c.Kernel(cxL2File, "zgemv_rows"), []int{Groups(d.m, l2CPUGroup)}, []int{l2CPUGroup},
			slices.Concat(head, xv, yv)...)
		return
	}
	nb, rb := cpuRowBlocks(c, d.m)
	part := Alloc[R](c, 2*nb*d.n)
	head := []any{int32(d.m), int32(d.n), int32(rb), l2bool(d.conj), a, int32(d.Lda)}
	one, tail := cxOneLaunch(c, part, are, aim, bre, bim, y, offY, incY)
	c.Run(c.Kernel(cxL2File, "zgemv_t_rows"), []int{nb}, []int{1}, slices.Concat(head, xv, []any{part}, tail)...)
	if !one {
		c.Run(c.Kernel(cxL2File, "zgemv_t_sum"), []int{Groups(d.n, l2CPUGroup)}, []int{l2CPUGroup},
			slices.Concat([]any{int32(d.m), int32(d.n), int32(nb), are, aim, part}, yv)...)
	}
}

// cxOneLaunch is l2OneLaunch for complex_level2.cl's kernels: whether
// they add their partials in their last work-item, and their last
// arguments (one, the ticket, alpha, beta and y).
func cxOneLaunch[R Real](c *Call, part *cl.Buffer, are, aim, bre, bim R, y *cl.Buffer, offY, incY int) (bool, []any) {
	one, ticket := l2OneTicket(c, part)
	return one, []any{l2bool(one), ticket, are, aim, bre, bim, y, int64(offY), int32(incY)}
}

// cxBandCPU enqueues y = alpha·M·x + beta·y on a CPU device for every
// descriptor but the dense general one (zgemvCPU's), each stored row of A
// walked contiguously: zband_rows for op(A) = A; otherwise partial sums
// per block of rows (cpuRowBlocks) by zband_t_rows (Aᵀ, Aᴴ) or zhemv_rows
// (Hermitian: each stored row for its row and its column), added by
// zband_t_sum (or their last work-item, l2OneTicket).
func cxBandCPU[R Real](c *Call, d CxMat, a *cl.Buffer, are, aim R, x *cl.Buffer, offX, incX int, bre, bim R, y *cl.Buffer, offY, incY int) {
	t := d.storedBand()
	xv := []any{x, int64(offX), int32(incX)}
	yv := []any{bre, bim, y, int64(offY), int32(incY)}
	band := []any{int32(t.storage), l2bool(t.upper), int32(t.m), int32(t.n), int32(t.kl), int32(t.ku)}
	if d.kind != l2KindSymmetric && !d.trans {
		c.Run(c.Kernel(cxL2File, "zband_rows"), []int{Groups(L3CeilDiv(t.m, 4), l2CPUGroup/4)}, []int{l2CPUGroup / 4},
			slices.Concat(band, []any{l2bool(t.unit), are, aim, a, int32(d.Lda)}, xv, yv,
				[]any{int32(0), y, y, int64(0), int32(0)})...) // no copy: y stands in for the ticket and dst
		return
	}
	nb, rb := cpuRowBlocks(c, t.m)
	pw := rb + t.kl + t.ku
	part := Alloc[R](c, 2*nb*pw)
	blocks := []any{int32(rb), int32(pw)}
	one, tail := cxOneLaunch(c, part, are, aim, bre, bim, y, offY, incY)
	if d.kind == l2KindSymmetric {
		c.Run(c.Kernel(cxL2File, "zhemv_rows"), []int{nb}, []int{1},
			slices.Concat([]any{int32(t.storage), l2bool(t.upper), int32(t.n), int32(t.kl), int32(t.ku)}, blocks,
				[]any{a, int32(d.Lda)}, xv, []any{part}, tail)...)
	} else {
		c.Run(c.Kernel(cxL2File, "zband_t_rows"), []int{nb}, []int{1},
			slices.Concat(band, blocks, []any{l2bool(t.unit), l2bool(d.conj), a, int32(d.Lda)}, xv, []any{part}, tail)...)
	}
	if !one {
		c.Run(c.Kernel(cxL2File, "zband_t_sum"), []int{Groups(t.n, l2CPUGroup)}, []int{l2CPUGroup},
			slices.Concat([]any{int32(t.m), int32(t.n), int32(t.kl), int32(t.ku)}, blocks, []any{are, aim, part}, yv)...)
	}
}

// CxTrmvThroughScratch is L2trmvThroughScratch for the complex triangular
// descriptor d (R the parts' type): op(A)·x into scratch, then over x. On
// CPU devices with A (zband_rows) and one launch (l2OneTicket) the
// work-item that takes zband_rows' last ticket copies the scratch over x;
// elsewhere CxCopyOnDevice does, in a launch of its own.
func CxTrmvThroughScratch[R Real](c *Call, d CxMat, a *cl.Buffer, n int, x *cl.Buffer, offX, incX int) {
	tmp := Alloc[R](c, 2*n)
	if L2OnCPU(c) && d.kind == l2KindTriangular && !d.trans {
		if one, ticket := l2OneTicket(c, tmp); one {
			if !d.fits() || !l2fits(n, incX, offX) {
				c.Fail(errL2TooLarge)
				return
			}
			t := d.storedBand()
			c.Run(c.Kernel(cxL2File, "zband_rows"), []int{Groups(L3CeilDiv(t.m, 4), l2CPUGroup/4)}, []int{l2CPUGroup / 4},
				int32(t.storage), l2bool(t.upper), int32(t.m), int32(t.n), int32(t.kl), int32(t.ku), l2bool(t.unit),
				R(1), R(0), a, int32(d.Lda), x, int64(offX), int32(incX), R(0), R(0), tmp, int64(0), int32(1),
				int32(1), ticket, x, int64(offX), int32(incX))
			return
		}
	}
	CxMVOnDevice(c, d, a, n, R(1), 0, x, offX, incX, 0, 0, tmp, 0, 1)
	CxCopyOnDevice(c, n, tmp, 0, 1, x, offX, incX)
}

// cxStreamOp is symv_stream's complex product for d on GPUs: the
// Hermitian ones in dense, band or packed storage (hemv, hbmv, hpmv) and
// the dense triangular one (trmv) and the packed one with Aᵀ or Aᴴ (tpmv:
// packedTrmvStream), where the kernel settings (symvKernelFor,
// trmvKernelFor) name the stream. Its column sums take conj(A(i, j)) for
// the Hermitian matrix's other triangle and for Aᴴ. (A band triangle
// keeps zmv_wg: on the H200 the stream read a band of n/32 diagonals
// slower, as it does for the real TBMV: BENCHMARKS.md, "NVIDIA H200,
// 2026-12-03 (fourteenth session)".)
func cxStreamOp(c *Call, d CxMat) (o streamOp, ld, off int, ok bool) {
	o, ld, off, ok = streamOpOf(d.L2Mat)
	switch {
	case !ok || L2OnCPU(c):
		return o, 0, 0, false
	case d.kind == l2KindSymmetric && symvKernelFor(c) != SymvStream:
		return o, 0, 0, false
	case d.kind == l2KindTriangular && (d.storage == L2Band || trmvKernelFor(c) != TrmvStream):
		return o, 0, 0, false
	case d.storage == L2Packed && d.kind == l2KindTriangular && !packedTrmvStream(c, d.L2Mat, 0): // complex: Aᵀ and Aᴴ only
		return o, 0, 0, false
	}
	o.cplx, o.conj = true, d.conj || o.what == 3
	return o, ld, off, true
}

// CxSVOnDevice enqueues the in-place solve M·x = b for the triangular
// descriptor d stored in a: on CPU devices dense and packed triangles in
// blocks of rows over every core where cpuSolveFlowGroups allows
// (ztri_solve_flow), else by one work-item (ztri_solve_seq); elsewhere
// blocked (trsv_blocked.go).
func CxSVOnDevice(c *Call, d CxMat, a *cl.Buffer, x *cl.Buffer, offX, incX int) {
	if !d.fits() || !l2fits(incX, offX) {
		c.Fail(errL2TooLarge)
		return
	}
	if L2OnCPU(c) {
		if g := cpuSolveFlowGroups(c, d.L2Mat, d.n, true); g > 1 {
			// Blocks of rows by ticket, over every core.
			c.E.L2FlowSolves.Add(1)
			bt := flowBlockT(c, d.n, true)
			scratch := x // unused with op(A) = A
			if d.trans {
				scratch = Alloc[float64](c, g*bt*c.prec/32) // g·bt complex numbers
			}
			c.Run(c.Kernel(cxL2File, "ztri_solve_flow"), []int{g}, []int{1}, int32(d.storage), l2bool(d.upper),
				d.transCode(), l2bool(d.unit), int32(d.n), a, int32(d.Lda), x, int64(offX), int32(incX),
				c.E.pieceTickets(c, 3), scratch, int32(bt))
			return
		}
		// One work-item, no barrier per row.
		c.Run(c.Kernel(cxL2File, "ztri_solve_seq"), []int{1}, []int{1}, int32(d.storage), l2bool(d.upper), int32(d.kl),
			d.transCode(), l2bool(d.unit), int32(d.n), a, int32(d.Lda), x, int64(offX), int32(incX))
		return
	}
	s := d.solve(d.n, 1, 16)
	if d.conj {
		s.trans = 2
	}
	s.cplx = true
	if c.prec == 32 {
		s.es = 8
		trsvBlockedOnDevice[float32](c, s, a, x, offX, incX)
		return
	}
	trsvBlockedOnDevice[float64](c, s, a, x, offX, incX)
}

// CxRankOnDevice enqueues the update mode (zr*) of the m×n matrix A
// (dense with lda, or packed: then only the ul triangle of the n×n A).
func CxRankOnDevice[R Real](c *Call, mode int, upper, packed bool, m, n int, are, aim R, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int, a *cl.Buffer, lda int) {
	if y == nil {
		y, offY, incY = x, offX, incX
	}
	if !l2fits(m, n, lda, incX, incY, offX, offY) {
		c.Fail(errL2TooLarge)
		return
	}
	if (mode == ZrGeru || mode == ZrGerc) && !packed && !L2OnCPU(c) && l2fits(2*lda, 2*offX, 2*offY) {
		zgerOnDevice(c, mode == ZrGerc, m, n, are, aim, x, offX, incX, y, offY, incY, a, lda) // gemv_fast.go
		return
	}
	// Zher and Zher2 on a dense triangle, Zhpr and Zhpr2 on a packed one.
	if (mode == ZrHer2 || mode == ZrHer && !packed || mode == ZrHpr && packed) && !L2OnCPU(c) && l2fits(2*lda, 2*offX, 2*offY) {
		zherOnDevice(c, upper, mode == ZrHer2, packed, n, are, aim, x, offX, incX, y, offY, incY, a, lda) // gemv_fast.go
		return
	}
	args := []any{int32(mode), l2bool(upper), l2bool(packed), int32(m), int32(n), are, aim,
		x, int64(offX), int32(incX), y, int64(offY), int32(incY), a, int32(lda)}
	if L2OnCPU(c) && (mode == ZrHer || mode == ZrHer2) && !packed {
		// A CPU device, a dense triangle: four rows a work-item.
		c.Run(c.Kernel(cxL2File, "zrank_rows4"), []int{Groups(L3CeilDiv(m, 4), l2CPUGroup/4)}, []int{l2CPUGroup / 4},
			int32(mode), l2bool(upper), int32(m), int32(n), are, aim,
			x, int64(offX), int32(incX), y, int64(offY), int32(incY), a, int32(lda))
		return
	}
	if L2OnCPU(c) {
		// A CPU device: a work-item per row, walking it contiguously.
		c.Run(c.Kernel(cxL2File, "zrank_rows"), []int{Groups(m, l2CPUGroup)}, []int{l2CPUGroup}, args...)
		return
	}
	c.Run(c.Kernel(cxL2File, "zrank"), []int{Groups(n, l2RankX), Groups(m, l2RankY)}, []int{l2RankX, l2RankY}, args...)
}

// The host-slice routines.

// cxMV computes y = alpha·M·x + beta·y on host slices; a is the span of
// the matrix's storage the kernel may read.
func cxMV[C Complex, R Real](e *Engine, name string, d CxMat, a []C, nout, nin int, alpha C, x []C, incX int, beta C, y []C, incY int) error {
	offX, offY := VecOff(nin, incX), VecOff(nout, incY)
	if !d.fits() || !l2fits(nout, nin, incX, incY, offX, offY) {
		return errL2TooLarge
	}
	spanY := VecSpan(nout, incY)
	c := Begin[R](e, name)
	yb := outputVec(c, y, spanY, beta != 0)
	var ab, xb *cl.Buffer
	if alpha != 0 {
		ab = Upload(c, a)
		xb = Upload(c, x[:VecSpan(nin, incX)])
	}
	are, aim := CxParts[C, R](alpha)
	bre, bim := CxParts[C, R](beta)
	CxMVOnDevice(c, d, ab, nout, are, aim, xb, offX, incX, bre, bim, yb, offY, incY)
	out := Download[C](c, yb, spanY)
	if err := c.Finish(); err != nil {
		return err
	}
	cxScatter(y, out, nout, incY)
	return nil
}

// cxTRMV computes x = M·x on host slices for the n×n triangular
// descriptor d, through a scratch vector (x is read by every row).
func cxTRMV[C Complex, R Real](e *Engine, name string, d CxMat, a []C, n int, x []C, incX int) error {
	off := VecOff(n, incX)
	if !d.fits() || !l2fits(n, incX, off) {
		return errL2TooLarge
	}
	span := VecSpan(n, incX)
	c := Begin[R](e, name)
	ab := Upload(c, a)
	xb := Upload(c, x[:span])
	ob := Alloc[C](c, span)
	CxMVOnDevice(c, d, ab, n, R(1), R(0), xb, off, incX, R(0), R(0), ob, off, incX)
	out := Download[C](c, ob, span)
	if err := c.Finish(); err != nil {
		return err
	}
	cxScatter(x, out, n, incX)
	return nil
}

// cxTRSV solves M·x = b in place on host slices for the n×n triangular
// descriptor d.
func cxTRSV[C Complex, R Real](e *Engine, name string, d CxMat, a []C, n int, x []C, incX int) error {
	off := VecOff(n, incX)
	if !d.fits() || !l2fits(n, incX, off) {
		return errL2TooLarge
	}
	span := VecSpan(n, incX)
	c := Begin[R](e, name)
	ab := Upload(c, a)
	xb := Upload(c, x[:span])
	CxSVOnDevice(c, d, ab, xb, off, incX)
	out := Download[C](c, xb, span)
	if err := c.Finish(); err != nil {
		return err
	}
	cxScatter(x, out, n, incX)
	return nil
}

// CxRank applies the update mode (zr*) to the m×n A on host slices (y ==
// nil: x serves as y), then copies back only what it may have changed:
// all of a general A, the ul triangle of a Hermitian one.
func CxRank[C Complex, R Real](e *Engine, name string, mode int, ul blas.Uplo, packed bool, m, n int, alpha C, x []C, incX int, y []C, incY int, a []C, lda int) error {
	rank1 := y == nil
	if rank1 {
		y, incY = x, incX
	}
	offX, offY := VecOff(m, incX), VecOff(n, incY)
	span := MatSpan(m, n, lda)
	if packed {
		span = PackedLen(n)
	}
	if !l2fits(m, n, lda, incX, incY, offX, offY) {
		return errL2TooLarge
	}
	c := Begin[R](e, name)
	ab := Upload(c, a[:span])
	xb := Upload(c, x[:VecSpan(m, incX)])
	yb := xb
	if !rank1 {
		yb = Upload(c, y[:VecSpan(n, incY)])
	}
	are, aim := CxParts[C, R](alpha)
	upper := ul == blas.Upper
	CxRankOnDevice(c, mode, upper, packed, m, n, are, aim, xb, offX, incX, yb, offY, incY, ab, lda)
	out := Download[C](c, ab, span)
	if err := c.Finish(); err != nil {
		return err
	}
	switch {
	case packed:
		copy(a[:span], out)
	case mode == ZrGeru || mode == ZrGerc:
		for i := range m {
			copy(a[i*lda:i*lda+n], out[i*lda:i*lda+n])
		}
	default:
		for i := range n {
			lo, hi := 0, i+1
			if upper {
				lo, hi = i, n
			}
			copy(a[i*lda+lo:i*lda+hi], out[i*lda+lo:i*lda+hi])
		}
	}
	return nil
}

// The routines, by gonum's arguments.

func CxGemv[C Complex, R Real](e *Engine, name string, tA blas.Transpose, m, n int, alpha C, a []C, lda int, x []C, incX int, beta C, y []C, incY int) error {
	nout, nin := m, n
	if tA != blas.NoTrans {
		nout, nin = n, m
	}
	d := CxGeneral(L2Dense, tA, m, n, m-1, n-1, lda)
	return cxMV[C, R](e, name, d, a[:MatSpan(m, n, lda)], nout, nin, alpha, x, incX, beta, y, incY)
}

func CxGbmv[C Complex, R Real](e *Engine, name string, tA blas.Transpose, m, n, kL, kU int, alpha C, a []C, lda int, x []C, incX int, beta C, y []C, incY int) error {
	nout, nin := m, n
	if tA != blas.NoTrans {
		nout, nin = n, m
	}
	span := lda*(min(m, n+kL)-1) + kL + kU + 1
	return cxMV[C, R](e, name, CxGeneral(L2Band, tA, m, n, kL, kU, lda), a[:span], nout, nin, alpha, x, incX, beta, y, incY)
}

func CxHemv[C Complex, R Real](e *Engine, name string, ul blas.Uplo, n int, alpha C, a []C, lda int, x []C, incX int, beta C, y []C, incY int) error {
	return cxMV[C, R](e, name, CxHerm(L2Dense, ul, n, n-1, lda), a[:MatSpan(n, n, lda)], n, n, alpha, x, incX, beta, y, incY)
}

func CxHbmv[C Complex, R Real](e *Engine, name string, ul blas.Uplo, n, k int, alpha C, a []C, lda int, x []C, incX int, beta C, y []C, incY int) error {
	return cxMV[C, R](e, name, CxHerm(L2Band, ul, n, k, lda), a[:bandSpan(n, k, lda)], n, n, alpha, x, incX, beta, y, incY)
}

func CxHpmv[C Complex, R Real](e *Engine, name string, ul blas.Uplo, n int, alpha C, ap []C, x []C, incX int, beta C, y []C, incY int) error {
	return cxMV[C, R](e, name, CxHerm(L2Packed, ul, n, n-1, 0), ap[:PackedLen(n)], n, n, alpha, x, incX, beta, y, incY)
}

func CxTrmv[C Complex, R Real](e *Engine, name string, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []C, lda int, x []C, incX int) error {
	return cxTRMV[C, R](e, name, CxTri(L2Dense, ul, tA, d, n, n-1, lda), a[:MatSpan(n, n, lda)], n, x, incX)
}

func CxTbmv[C Complex, R Real](e *Engine, name string, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []C, lda int, x []C, incX int) error {
	return cxTRMV[C, R](e, name, CxTri(L2Band, ul, tA, d, n, k, lda), a[:bandSpan(n, k, lda)], n, x, incX)
}

func CxTpmv[C Complex, R Real](e *Engine, name string, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []C, x []C, incX int) error {
	return cxTRMV[C, R](e, name, CxTri(L2Packed, ul, tA, d, n, n-1, 0), ap[:PackedLen(n)], n, x, incX)
}

func CxTrsv[C Complex, R Real](e *Engine, name string, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []C, lda int, x []C, incX int) error {
	return cxTRSV[C, R](e, name, CxTri(L2Dense, ul, tA, d, n, n-1, lda), a[:MatSpan(n, n, lda)], n, x, incX)
}

func CxTbsv[C Complex, R Real](e *Engine, name string, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []C, lda int, x []C, incX int) error {
	return cxTRSV[C, R](e, name, CxTri(L2Band, ul, tA, d, n, k, lda), a[:bandSpan(n, k, lda)], n, x, incX)
}

func CxTpsv[C Complex, R Real](e *Engine, name string, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []C, x []C, incX int) error {
	return cxTRSV[C, R](e, name, CxTri(L2Packed, ul, tA, d, n, n-1, 0), ap[:PackedLen(n)], n, x, incX)
}

// zbandTOnDevice enqueues y = alpha·op(A)·x + beta·y for the general or
// triangular band descriptor d with op(A) = Aᵀ or Aᴴ: zband_t on
// work-groups of 32 columns by 8 row slices (fewer slices where the
// device's work-groups are smaller), the triangle as the general band of
// its stored diagonals.
func zbandTOnDevice[R Real](c *Call, d CxMat, a *cl.Buffer, are, aim R, x *cl.Buffer, offX, incX int, bre, bim R, y *cl.Buffer, offY, incY int) {
	t := d.storedBand()
	const bx = 32
	by := bandRows(bx, c.E.Prof.MaxWorkGroupSize)
	k := c.Kernel(cxL2File, "zband_t", fmt.Sprintf("ZBX=%d", bx), fmt.Sprintf("ZBY=%d", by))
	c.Run(k, []int{L3CeilDiv(t.n, bx) * bx, by}, []int{bx, by}, int32(t.m), int32(t.n), int32(t.kl), int32(t.ku),
		l2bool(d.conj), l2bool(d.unit), are, aim, a, int32(d.Lda), x, int64(offX), int32(incX), bre, bim, y, int64(offY), int32(incY))
}
