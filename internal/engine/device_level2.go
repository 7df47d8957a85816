package engine

import (
	"errors"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
)

// Level 2 device routines. Every routine is one generic function over
// float32 and float64 built on four launchers, one per kernel family of
// kernels/level2.cl:
//
//   - l2mv: y = alpha·M·x + beta·y for a matrix descriptor M (gemv, gbmv,
//     symv, sbmv, spmv); one work-group per element of y, or for the dense
//     transposed gemv a column-per-work-item kernel with coalesced reads.
//   - l2trmv: x = M·x through a scratch vector (trmv, tbmv, tpmv).
//   - l2trsv: the triangular solves (trsv, tbsv, tpsv), blocked
//     (kernels/trsv.cl).
//   - l2rank: the rank-1 and rank-2 updates (ger, syr, spr, syr2, spr2),
//     one work-item per matrix element; only the updated elements are
//     copied back.
//
// Dense, band and packed storage follow gonum's row-major conventions; the
// kernel file documents the index formulas.

const l2File = "level2.cl"

// Kernel constants; they must match level2.cl.
const (
	l2KindGeneral    = 0
	l2KindSymmetric  = 1
	l2KindTriangular = 2

	L2Dense  = 0
	L2Band   = 1
	L2Packed = 2

	l2MVGroup = 64 // MV_WG
	l2RankX   = 16
	l2RankY   = 4

	// l2CPUGroup is the work-group size of the CPU-device kernels
	// gemv_rows, gemv_cols, band_rows, band_t_sum and rank_rows
	// (a work-group is a loop on one core there).
	l2CPUGroup = 16
)

// errL2TooLarge sends calls whose sizes, increments or offsets do not fit
// the kernels' 32-bit int arguments to the CPU.
var errL2TooLarge = errors.New("clblas: level 2 problem too large for 32-bit kernel arguments")

func l2fits(vs ...int) bool {
	for _, v := range vs {
		if v > math.MaxInt32 || v < math.MinInt32 {
			return false
		}
	}
	return true
}

// L2OnCPU reports whether call c takes level 2's CPU-device kernels.
func L2OnCPU(c *Call) bool { return c.E.Prof.IsCPU() && !c.E.L2Portable }

func l2bool(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// l2mat describes the matrix operand of the mv and sv kernels (see the
// MATRIX DESCRIPTOR comment of level2.cl).
type L2Mat struct {
	kind, storage      int
	upper, trans, unit bool
	m, n, kl, ku, Lda  int
}

func (d L2Mat) fits() bool { return l2fits(d.m, d.n, d.kl, d.ku, d.Lda) }

// cpuTriangle reports whether the call runs on a CPU device and d is a
// whole symmetric or triangular matrix in dense or packed storage: the
// case of rowsCPU and triColsCPU over the whole triangle.
func (d L2Mat) cpuTriangle(c *Call) bool {
	return L2OnCPU(c) && (d.kind == l2KindSymmetric || d.kind == l2KindTriangular) &&
		(d.storage == L2Dense || d.storage == L2Packed) && d.kl == d.n-1
}

// storedBand describes d's stored elements (for rowsCPU, triColsCPU and
// symCPU on CPU devices, and the band kernels on the others): a
// general band's diagonals as they are; the stored triangle of a
// symmetric or triangular matrix (band, or dense and packed with k = n − 1)
// as a band with diagonals on one side only, a triangle's unit diagonal
// kept.
func (d L2Mat) storedBand() storedBand {
	t := storedBand{storage: d.storage, upper: d.upper, m: d.m, n: d.n, kl: d.kl, ku: d.ku, unit: d.unit}
	switch {
	case d.kind == l2KindGeneral:
	case d.upper:
		t.kl = 0
	default:
		t.ku = 0
	}
	return t
}

func (d L2Mat) args(a *cl.Buffer) []any {
	return []any{int32(d.kind), int32(d.storage), l2bool(d.upper), l2bool(d.trans), l2bool(d.unit),
		int32(d.m), int32(d.n), int32(d.kl), int32(d.ku), a, int32(d.Lda)}
}

// l2tri returns the descriptor of an n×n triangular matrix with band
// width k in the given storage.
func L2Tri(storage int, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k, lda int) L2Mat {
	return L2Mat{kind: l2KindTriangular, storage: storage, upper: ul == blas.Upper,
		trans: tA != blas.NoTrans, unit: d == blas.Unit, m: n, n: n, kl: k, ku: k, Lda: lda}
}

// l2sym returns the descriptor of an n×n symmetric matrix with band
// width k in the given storage.
func L2Sym(storage int, ul blas.Uplo, n, k, lda int) L2Mat {
	return L2Mat{kind: l2KindSymmetric, storage: storage, upper: ul == blas.Upper, m: n, n: n, kl: k, ku: k, Lda: lda}
}

// The enqueue-only layer: the xxxOnDevice functions enqueue a routine on
// operands already in device buffers (matrices at element 0 of their
// buffer with leading dimension lda; element j of a vector at
// buf[off + j·inc]) and return without waiting; errors are recorded in c.
// The host-slice routines wrap them (upload, enqueue, download, scatter);
// the device-resident API calls them directly.

// L2mvOnDevice enqueues y = alpha·M·x + beta·y, where M (nout×nin) is
// described by d and stored in a. beta == 0 assigns; with alpha == 0
// neither a nor x is read, as in gonum.
func L2mvOnDevice[T Real](c *Call, d L2Mat, a *cl.Buffer, nout, nin int, alpha T, x *cl.Buffer, offX, incX int, beta T, y *cl.Buffer, offY, incY int) {
	if !d.fits() || !l2fits(nout, nin, incX, incY, offX, offY) {
		c.Fail(errL2TooLarge)
		return
	}
	if alpha == 0 {
		k := c.Kernel(l2File, "scale_y")
		c.Run(k, []int{Groups(nout, 64)}, []int{64}, int32(nout), beta, y, int32(offY), int32(incY))
		return
	}
	vecs := []any{x, int32(offX), int32(incX), beta, y, int32(offY), int32(incY)}
	if d.kind == l2KindGeneral && d.storage == L2Dense && L2OnCPU(c) {
		// A CPU device: a work-item per row (or for Aᵀ a block of whole
		// rows) walking contiguous memory, no local-memory reduction.
		args := append([]any{int32(d.m), int32(d.n), alpha, a, int32(d.Lda)}, vecs...)
		if d.trans && c.E.GemvTCPU != GemvTCPUCols {
			gemvTRowsCPU(c, d.m, d.n, a, d.Lda, alpha, x, offX, incX, beta, y, offY, incY)
		} else if d.trans {
			c.Run(c.Kernel(l2File, "gemv_cols"), []int{Groups(L3CeilDiv(nout, 32), l2CPUGroup)}, []int{l2CPUGroup}, args...)
		} else {
			c.Run(c.Kernel(l2File, "gemv_rows"), []int{Groups(nout, l2CPUGroup)}, []int{l2CPUGroup}, args...)
		}
		return
	}
	if d.kind == l2KindSymmetric && (d.cpuTriangle(c) || L2OnCPU(c) && d.storage == L2Band) {
		// A CPU device: each stored row read once, for its row and its
		// column, contiguously.
		symCPU(c, d.storedBand(), a, d.Lda, alpha, x, offX, incX, beta, y, offY, incY)
		return
	}
	if d.kind == l2KindGeneral && d.storage == L2Dense {
		gemvOnDevice(c, d, a, alpha, x, offX, incX, beta, y, offY, incY) // gemv_fast.go
		return
	}
	if d.kind == l2KindSymmetric && d.storage == L2Dense && d.kl == d.n-1 {
		symvOnDevice(c, d, a, alpha, x, offX, incX, beta, y, offY, incY) // gemv_fast.go
		return
	}
	if o, ld, off, ok := streamOpOf(d); ok && d.storage == L2Packed && symvKernelFor(c) == SymvStream {
		streamMV(c, o, a, ld, off, alpha, 0, x, offX, incX, beta, 0, y, offY, incY) // symv_stream.go
		return
	}
	if d.storage == L2Band && L2OnCPU(c) {
		bandCPU(c, d, a, alpha, x, offX, incX, beta, y, offY, incY)
		return
	}
	if d.storage == L2Band {
		bandOnDevice(c, d, a, alpha, x, offX, incX, beta, y, offY, incY) // band_fast.go
		return
	}
	k := c.Kernel(l2File, "mv")
	args := append(append(d.args(a), int32(nout), alpha), vecs...)
	c.Run(k, []int{nout * l2MVGroup}, []int{l2MVGroup}, args...)
}

// L2trmvOnDevice enqueues out = M·x for the n×n triangular descriptor d
// stored in a; out must not alias x (x is read by every row) unless
// TrmvInPlace(c, d).
func L2trmvOnDevice[T Real](c *Call, d L2Mat, a *cl.Buffer, n int, x *cl.Buffer, offX, incX int, out *cl.Buffer, offO, incO int) {
	if !d.fits() || !l2fits(n, incX, offX, incO, offO) {
		c.Fail(errL2TooLarge)
		return
	}
	if d.cpuTriangle(c) {
		// A CPU device: op(A)'s rows are A's stored rows (rowsCPU) or
		// its stored columns (triColsCPU), walked contiguously.
		if d.trans {
			triColsCPU(c, d.storedBand(), a, d.Lda, T(1), x, offX, incX, T(0), out, offO, incO)
			return
		}
		rowsCPU(c, d.storedBand(), a, d.Lda, T(1), x, offX, incX, T(0), out, offO, incO)
		return
	}
	if d.storage == L2Band && L2OnCPU(c) {
		bandCPU(c, d, a, T(1), x, offX, incX, T(0), out, offO, incO)
		return
	}
	if d.storage == L2Dense && d.kl == n-1 || packedTrmvStream(c, d, ElemSize[T]()) {
		trmvOnDevice[T](c, d, a, x, offX, incX, out, offO, incO) // gemv_fast.go
		return
	}
	if d.storage == L2Band {
		bandOnDevice(c, d, a, T(1), x, offX, incX, T(0), out, offO, incO) // band_fast.go
		return
	}
	k := c.Kernel(l2File, "mv")
	args := append(append(d.args(a), int32(n), T(1)), x, int32(offX), int32(incX), T(0), out, int32(offO), int32(incO))
	c.Run(k, []int{n * l2MVGroup}, []int{l2MVGroup}, args...)
}

// TrmvInPlace reports whether the triangular product of descriptor d
// (real, or a complex one's L2Mat) may write op(A)·x over x itself on call
// c's device: on CPU devices the transposed products make every row
// block's partial sums first, and what writes the output (a launch of its
// own, or the last work-item of the same launch, once every other has
// taken its ticket) reads none of x.
func TrmvInPlace(c *Call, d L2Mat) bool {
	return L2OnCPU(c) && d.trans && (d.storage == L2Band || d.cpuTriangle(c))
}

// packedTrmvStream reports whether the packed triangular product of
// descriptor d, elements of es bytes, takes symv_stream: for Aᵀ and Aᴴ,
// whose rows level2.cl's mv and complex_level2.cl's zmv_wg would read
// down the packed columns, and for A in float. On the H200 the stream ran
// STPMV with A at 1.7× mv, but DTPMV at 0.79×, CTPMV and ZTPMV at
// 0.98–0.99× (BENCHMARKS.md, "NVIDIA H200, 2026-12-03 (fourteenth
// session)"); the transposed products were not measured packed, and take
// the stream as the dense ones do, where it runs 2.3–3.8× zmv.
func packedTrmvStream(c *Call, d L2Mat, es int) bool {
	return d.storage == L2Packed && d.kind == l2KindTriangular && trmvKernelFor(c) == TrmvStream && (d.trans || es == 4)
}

// L2trsvOnDevice enqueues the in-place solve M·x = b for the n×n
// triangular descriptor d stored in a: blocked (trsv_blocked.go), or on a
// CPU device for dense and packed storage by one work-item.
func L2trsvOnDevice[T Real](c *Call, d L2Mat, a *cl.Buffer, n int, x *cl.Buffer, offX, incX int) {
	if !d.fits() || !l2fits(n, incX, offX) {
		c.Fail(errL2TooLarge)
		return
	}
	if d.cpuTriangle(c) || L2OnCPU(c) && d.storage == L2Band {
		if g := cpuSolveFlowGroups(c, d, n, false); g > 1 {
			// Blocks of rows by ticket, over every core.
			c.E.L2FlowSolves.Add(1)
			_, defs := l2RowsPass(c)
			bt := flowBlockT(c, n, false)
			scratch := x // unused with op(A) = A
			if d.trans {
				scratch = Alloc[T](c, g*bt)
			}
			c.Run(c.Kernel(l2File, "tri_solve_flow", defs...), []int{g}, []int{1}, int32(d.storage), l2bool(d.upper),
				l2bool(d.trans), l2bool(d.unit), int32(n), a, int32(d.Lda), x, int32(offX), int32(incX),
				c.E.pieceTickets(c, 3), scratch, int32(bt))
			return
		}
		// One work-item, no barrier per row.
		c.Run(c.Kernel(l2File, "tri_solve_seq"), []int{1}, []int{1}, int32(d.storage), l2bool(d.upper), int32(d.kl),
			l2bool(d.trans), l2bool(d.unit), int32(n), a, int32(d.Lda), x, int32(offX), int32(incX))
		return
	}
	trsvBlockedOnDevice[T](c, d.solve(n, 0, ElemSize[T]()), a, x, offX, incX)
}

// cpuFlowBlock and cpuZFlowBlock are the rows of a block of tri_solve_flow
// (FLOW_B) and of ztri_solve_flow (ZFLOW_B) with op(A) = A.
const (
	cpuFlowBlock  = 64
	cpuZFlowBlock = 32
)

// flowBlockT is the width of a block of tri_solve_flow (cplx:
// ztri_solve_flow) with op(A) = Aᵀ or Aᴴ for the solve of order n, the
// kernels' bt. Each block reads the rows of A solved before it over that
// many columns, a row of storage apart, so the wider the block the longer
// the stretch of each row the core's prefetchers see; but the blocks are
// the work the cores share, so there must be enough of them: n over twice
// the compute units, a multiple of 64, kept within [256, 512] (complex128:
// 256, 4 KiB of a row as in double). On PoCL with 2 cores 512 was the
// fastest width in most cases from n = 2048, 256 as fast below; with 16
// cores 256 was faster than 512 (BenchmarkFlowBlockT; BENCHMARKS.md,
// "Figures behind the code's choices"). Engine.FlowBlockT replaces it
// (tests).
func flowBlockT(c *Call, n int, cplx bool) int {
	if c.E.FlowBlockT > 0 {
		return c.E.FlowBlockT
	}
	widest := 512
	if cplx && c.prec == 64 {
		widest = 256
	}
	return min(widest, max(256, n/(2*max(1, c.E.Prof.ComputeUnits))&^63))
}

// cpuSolveFlowGroups is the number of work-groups (of one work-item)
// tri_solve_flow (cplx: its complex twin, ztri_solve_flow) takes for the
// solve of order n with the dense or packed triangle of descriptor d on
// call c's CPU device, or 0 where the solve stays on one work-item
// (tri_solve_seq, ztri_solve_seq): as e.L2SolveFlow says, by default
// where the device's level 1 shape adds level 2's partial sums in one
// launch (OneLaunchL2: its work-groups run alongside each other and see
// each other's writes), and only on the engine's queue, whose counters
// the kernel takes. Bands stay on one work-item: with few diagonals a
// block has little to read before it must wait for the one before, and
// the waits cost more than the second core gives. With op(A) = Aᵀ or Aᴴ
// blocks are flowBlockT wide, so a solve of that order or less is one
// block, on one work-item. The groups are eight a compute unit, since
// PoCL may hand a thread several of a launch's first groups at once (one
// a block at most, and at most e.L2SolveGroups if set). Its three
// counters are the engine's piece tickets (pieceTickets).
func cpuSolveFlowGroups(c *Call, d L2Mat, n int, cplx bool) int {
	if c.q != nil || d.storage == L2Band {
		return 0
	}
	switch c.E.L2SolveFlow {
	case SolveFlowOff:
		return 0
	case SolveFlowAuto:
		if !l1ShapeOf(c).OneLaunchL2 {
			return 0
		}
	}
	block := cpuFlowBlock
	if cplx {
		block = cpuZFlowBlock
	}
	if d.trans {
		block = flowBlockT(c, n, cplx)
	}
	g := min(8*max(1, c.E.Prof.ComputeUnits), L3CeilDiv(n, block))
	if c.E.L2SolveGroups > 0 {
		g = min(g, c.E.L2SolveGroups)
	}
	return g
}

// L2rankOnDevice enqueues a rank-1 (y == nil: x serves as y) or rank-2
// update of the m×n matrix A (dense with lda, or packed).
func L2rankOnDevice[T Real](c *Call, u L2Update, m, n int, alpha T, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int, a *cl.Buffer, lda int) {
	if y == nil {
		y, offY, incY = x, offX, incX
	}
	if !l2fits(m, n, lda, incX, incY, offX, offY) {
		c.Fail(errL2TooLarge)
		return
	}
	if L2OnCPU(c) {
		// A CPU device: a work-item walks a row contiguously, or four of
		// a dense triangle.
		if u.Tri && !u.Packed {
			c.Run(c.Kernel(l2File, "rank_rows4"), []int{Groups(L3CeilDiv(m, 4), l2CPUGroup/4)}, []int{l2CPUGroup / 4},
				l2bool(u.Upper), l2bool(u.Two), l2bool(u.SkipZero),
				int32(m), int32(n), alpha, x, int32(offX), int32(incX), y, int32(offY), int32(incY), a, int32(lda))
			return
		}
		c.Run(c.Kernel(l2File, "rank_rows"), []int{Groups(m, l2CPUGroup)}, []int{l2CPUGroup},
			l2bool(u.Tri), l2bool(u.Upper), l2bool(u.Packed), l2bool(u.Two), l2bool(u.SkipZero),
			int32(m), int32(n), alpha, x, int32(offX), int32(incX), y, int32(offY), int32(incY), a, int32(lda))
		return
	}
	if u.Tri {
		syrOnDevice(c, u.Upper, u.Two, u.SkipZero, u.Packed, n, alpha, x, offX, incX, y, offY, incY, a, lda) // gemv_fast.go
		return
	}
	// A general matrix: BLAS has only the dense rank-1 update (GER).
	gerOnDevice(c, m, n, alpha, u.SkipZero, x, offX, incX, y, offY, incY, a, lda) // gemv_fast.go
}

// Descriptors of the routines' matrices, with the number of elements of
// the matrix's storage that the kernels may read.

func GemvMat(tA blas.Transpose, m, n, lda int) (d L2Mat, nout, nin, span int) {
	d = L2Mat{kind: l2KindGeneral, storage: L2Dense, trans: tA != blas.NoTrans, m: m, n: n, kl: m - 1, ku: n - 1, Lda: lda}
	nout, nin = m, n
	if d.trans {
		nout, nin = n, m
	}
	return d, nout, nin, MatSpan(m, n, lda)
}

func GbmvMat(tA blas.Transpose, m, n, kL, kU, lda int) (d L2Mat, nout, nin, span int) {
	d = L2Mat{kind: l2KindGeneral, storage: L2Band, trans: tA != blas.NoTrans, m: m, n: n, kl: kL, ku: kU, Lda: lda}
	nout, nin = m, n
	if d.trans {
		nout, nin = n, m
	}
	rows := min(m, n+kL)
	return d, nout, nin, lda*(rows-1) + kL + kU + 1
}

// bandSpan is the storage span of an n×n symmetric or triangular band
// matrix with k off-diagonals.
func bandSpan(n, k, lda int) int { return lda*(n-1) + k + 1 }

// PackedLen is the length of a packed n×n triangle.
func PackedLen(n int) int { return n * (n + 1) / 2 }

// outputVec returns the device buffer of the output vector y[:spanY] of
// y = alpha·M·x + beta·y: y's values uploaded when the kernel reads them
// (beta != 0), else only allocated (beta == 0: the kernel assigns every
// element without reading it).
func outputVec[T Elem](c *Call, y []T, spanY int, read bool) *cl.Buffer {
	if !read {
		return Alloc[T](c, spanY)
	}
	return Upload(c, y[:spanY])
}

// l2mv computes y = alpha·M·x + beta·y on host slices, where M (nout×nin)
// is described by d and stored in a (the span the kernel reads).
func l2mv[T Real](e *Engine, name string, d L2Mat, a []T, nout, nin int, alpha T, x []T, incX int, beta T, y []T, incY int) error {
	offX, offY := VecOff(nin, incX), VecOff(nout, incY)
	if !d.fits() || !l2fits(nout, nin, incX, incY, offX, offY) {
		return errL2TooLarge
	}
	spanY := VecSpan(nout, incY)
	c := Begin[T](e, name)
	yb := outputVec(c, y, spanY, beta != 0)
	var ab, xb *cl.Buffer
	if alpha != 0 {
		ab = Upload(c, a)
		xb = Upload(c, x[:VecSpan(nin, incX)])
	}
	L2mvOnDevice(c, d, ab, nout, nin, alpha, xb, offX, incX, beta, yb, offY, incY)
	out := Download[T](c, yb, spanY)
	if err := c.Finish(); err != nil {
		return err
	}
	ScatterVec(y, out, nout, incY)
	return nil
}

// l2trmv computes x = M·x on host slices for the n×n triangular
// descriptor d stored in a. The product goes into a scratch vector, since
// x is read by every row.
func l2trmv[T Real](e *Engine, name string, d L2Mat, a []T, n int, x []T, incX int) error {
	off := VecOff(n, incX)
	if !d.fits() || !l2fits(n, incX, off) {
		return errL2TooLarge
	}
	span := VecSpan(n, incX)
	c := Begin[T](e, name)
	ab := Upload(c, a)
	xb := Upload(c, x[:span])
	ob := Alloc[T](c, span)
	L2trmvOnDevice[T](c, d, ab, n, xb, off, incX, ob, off, incX)
	out := Download[T](c, ob, span)
	if err := c.Finish(); err != nil {
		return err
	}
	ScatterVec(x, out, n, incX)
	return nil
}

// l2trsv solves M·x = b in place on host slices for the n×n triangular
// descriptor d stored in a.
func l2trsv[T Real](e *Engine, name string, d L2Mat, a []T, n int, x []T, incX int) error {
	off := VecOff(n, incX)
	if !d.fits() || !l2fits(n, incX, off) {
		return errL2TooLarge
	}
	span := VecSpan(n, incX)
	c := Begin[T](e, name)
	ab := Upload(c, a)
	xb := Upload(c, x[:span])
	L2trsvOnDevice[T](c, d, ab, n, xb, off, incX)
	out := Download[T](c, xb, span)
	if err := c.Finish(); err != nil {
		return err
	}
	ScatterVec(x, out, n, incX)
	return nil
}

// L2Update selects the rank update: which matrix, which storage, rank 1 or 2.
type L2Update struct {
	Tri      bool // only the stored triangle of a symmetric matrix
	Upper    bool
	Packed   bool
	Two      bool // rank 2: A += alpha·(x·yᵀ + y·xᵀ)
	SkipZero bool // skip row r when alpha·x(r) == 0 (gonum's Dsyr)
}

// l2rank applies a rank-1 (y == nil: x serves as y) or rank-2 update to
// the m×n matrix A (dense with lda, or packed) on host slices, then copies
// back only the elements it updated.
func l2rank[T Real](e *Engine, name string, u L2Update, m, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int) error {
	rank1 := y == nil
	if rank1 {
		y, incY = x, incX
	}
	offX, offY := VecOff(m, incX), VecOff(n, incY)
	span := MatSpan(m, n, lda)
	if u.Packed {
		span = PackedLen(n)
	}
	if !l2fits(m, n, lda, incX, incY, offX, offY) {
		return errL2TooLarge
	}
	c := Begin[T](e, name)
	ab := Upload(c, a[:span])
	xb := Upload(c, x[:VecSpan(m, incX)])
	yb := xb
	if !rank1 {
		yb = Upload(c, y[:VecSpan(n, incY)])
	}
	L2rankOnDevice(c, u, m, n, alpha, xb, offX, incX, yb, offY, incY, ab, lda)
	out := Download[T](c, ab, span)
	if err := c.Finish(); err != nil {
		return err
	}
	switch {
	case u.Packed:
		copy(a[:span], out)
	case u.Tri:
		scatterTri(a, out, n, lda, u.Upper)
	default:
		ScatterMat(a, out, m, n, lda)
	}
	return nil
}

// scatterTri copies the upper or lower triangle of an n×n matrix with
// leading dimension ld from src into dst, leaving the other triangle and
// the padding alone.
func scatterTri[T Real](dst, src []T, n, ld int, upper bool) {
	for i := 0; i < n; i++ {
		lo, hi := 0, i+1
		if upper {
			lo, hi = i, n
		}
		copy(dst[i*ld+lo:i*ld+hi], src[i*ld+lo:i*ld+hi])
	}
}

// The routines.

func gemv[T Real](e *Engine, name string, tA blas.Transpose, m, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) error {
	if alpha != 0 && m > 0 && n > 0 && e.l2Staged() {
		return gemvStaged(e, name, tA != blas.NoTrans, m, n, alpha, a, lda, x, incX, beta, y, incY)
	}
	d, nout, nin, span := GemvMat(tA, m, n, lda)
	return l2mv(e, name, d, a[:span], nout, nin, alpha, x, incX, beta, y, incY)
}

func gbmv[T Real](e *Engine, name string, tA blas.Transpose, m, n, kL, kU int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) error {
	d, nout, nin, span := GbmvMat(tA, m, n, kL, kU, lda)
	return l2mv(e, name, d, a[:span], nout, nin, alpha, x, incX, beta, y, incY)
}

func symv[T Real](e *Engine, name string, ul blas.Uplo, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) error {
	if alpha != 0 && n > 0 && e.l2Staged() {
		return symvStaged(e, name, ul, n, alpha, a, lda, x, incX, beta, y, incY)
	}
	return l2mv(e, name, L2Sym(L2Dense, ul, n, n-1, lda), a[:MatSpan(n, n, lda)], n, n, alpha, x, incX, beta, y, incY)
}

func sbmv[T Real](e *Engine, name string, ul blas.Uplo, n, k int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) error {
	return l2mv(e, name, L2Sym(L2Band, ul, n, k, lda), a[:bandSpan(n, k, lda)], n, n, alpha, x, incX, beta, y, incY)
}

func spmv[T Real](e *Engine, name string, ul blas.Uplo, n int, alpha T, ap []T, x []T, incX int, beta T, y []T, incY int) error {
	return l2mv(e, name, L2Sym(L2Packed, ul, n, n-1, 0), ap[:PackedLen(n)], n, n, alpha, x, incX, beta, y, incY)
}

func trmv[T Real](e *Engine, name string, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []T, lda int, x []T, incX int) error {
	if n > 0 && e.l2Staged() {
		return trmvStaged(e, name, ul, tA, d, n, a, lda, x, incX)
	}
	return l2trmv(e, name, L2Tri(L2Dense, ul, tA, d, n, n-1, lda), a[:MatSpan(n, n, lda)], n, x, incX)
}

func tbmv[T Real](e *Engine, name string, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []T, lda int, x []T, incX int) error {
	return l2trmv(e, name, L2Tri(L2Band, ul, tA, d, n, k, lda), a[:bandSpan(n, k, lda)], n, x, incX)
}

func tpmv[T Real](e *Engine, name string, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []T, x []T, incX int) error {
	return l2trmv(e, name, L2Tri(L2Packed, ul, tA, d, n, n-1, 0), ap[:PackedLen(n)], n, x, incX)
}

func trsv[T Real](e *Engine, name string, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []T, lda int, x []T, incX int) error {
	return l2trsv(e, name, L2Tri(L2Dense, ul, tA, d, n, n-1, lda), a[:MatSpan(n, n, lda)], n, x, incX)
}

func tbsv[T Real](e *Engine, name string, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []T, lda int, x []T, incX int) error {
	return l2trsv(e, name, L2Tri(L2Band, ul, tA, d, n, k, lda), a[:bandSpan(n, k, lda)], n, x, incX)
}

func tpsv[T Real](e *Engine, name string, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []T, x []T, incX int) error {
	return l2trsv(e, name, L2Tri(L2Packed, ul, tA, d, n, n-1, 0), ap[:PackedLen(n)], n, x, incX)
}

func ger[T Real](e *Engine, name string, m, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int) error {
	if m > 0 && n > 0 && e.l2Staged() {
		return gerStaged(e, name, m, n, alpha, x, incX, y, incY, a, lda)
	}
	return l2rank(e, name, L2Update{}, m, n, alpha, x, incX, y, incY, a, lda)
}

func syr[T Real](e *Engine, name string, ul blas.Uplo, n int, alpha T, x []T, incX int, a []T, lda int) error {
	return l2rank(e, name, L2Update{Tri: true, Upper: ul == blas.Upper, SkipZero: true}, n, n, alpha, x, incX, nil, 0, a, lda)
}

func spr[T Real](e *Engine, name string, ul blas.Uplo, n int, alpha T, x []T, incX int, ap []T) error {
	return l2rank(e, name, L2Update{Tri: true, Upper: ul == blas.Upper, Packed: true}, n, n, alpha, x, incX, nil, 0, ap, 0)
}

func syr2[T Real](e *Engine, name string, ul blas.Uplo, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int) error {
	return l2rank(e, name, L2Update{Tri: true, Upper: ul == blas.Upper, Two: true}, n, n, alpha, x, incX, y, incY, a, lda)
}

func spr2[T Real](e *Engine, name string, ul blas.Uplo, n int, alpha T, x []T, incX int, y []T, incY int, ap []T) error {
	return l2rank(e, name, L2Update{Tri: true, Upper: ul == blas.Upper, Packed: true, Two: true}, n, n, alpha, x, incX, y, incY, ap, 0)
}

// GemvTCPU chooses the transposed GEMV's kernel on CPU devices.
type GemvTCPU int

const (
	GemvTCPUAuto GemvTCPU = iota // gemv_t_rows (BENCHMARKS.md: faster than gemv_cols on PoCL)
	GemvTCPUCols                 // gemv_cols: a work-item per 32 columns, down every row
	GemvTCPURows                 // gemv_t_rows, then gemv_t_sum: blocks of whole rows
)

// bandCPU enqueues y = alpha·op(M)·x + beta·y for the general or
// triangular band descriptor d (alpha ≠ 0) on a CPU device, each stored
// row walked contiguously: rowsCPU for M's products, triColsCPU for Mᵀ's.
// A triangular band stores one triangle: no sub-diagonals (upper) or no
// super-diagonals (lower). Symmetric bands take symCPU.
func bandCPU[T Real](c *Call, d L2Mat, a *cl.Buffer, alpha T, x *cl.Buffer, offX, incX int, beta T, y *cl.Buffer, offY, incY int) {
	t := d.storedBand()
	if d.trans {
		triColsCPU(c, t, a, d.Lda, alpha, x, offX, incX, beta, y, offY, incY)
		return
	}
	rowsCPU(c, t, a, d.Lda, alpha, x, offX, incX, beta, y, offY, incY)
}

// storedBand describes the stored rows that rowsCPU and symCPU read, and
// triColsCPU as columns (bandOnDevice and zbandTOnDevice take a
// triangle's as a general band): an m×n band with kl sub- and ku
// super-diagonals, or a triangle in dense or packed storage (kl or ku
// n − 1), in the storage and triangle that level2.cl's tri_at takes, its
// diagonal taken as 1 with unit.
type storedBand struct {
	storage      int
	upper        bool
	m, n, kl, ku int
	unit         bool
}

// rowsCPU enqueues y = beta·y + alpha·A·x over A's stored elements as t
// describes them: band_rows (bandRowsLaunch).
func rowsCPU[T Real](c *Call, t storedBand, a *cl.Buffer, lda int, alpha T, x *cl.Buffer, offX, incX int, beta T, y *cl.Buffer, offY, incY int) {
	k, global, local := bandRowsLaunch(c, t.m)
	c.Run(k, global, local,
		slices.Concat(bandRowsArgs(t, a, lda, alpha, x, offX, incX, beta, y, offY, incY),
			[]any{int32(0), y, y, int32(0), int32(0)})...) // no copy: y stands in for the ticket and dst
}

// l2RowsPass is how many rows band_rows, sym_rows and the flow solves'
// gather take in one pass over the columns they share on a CPU device,
// and the build option that tells them: eight where the device's float vectors are 16 wide
// (AVX-512, whose 32 vector registers hold the eight rows' sums beside
// their loads; BENCHMARKS.md, "Figures behind the code's choices"), four
// elsewhere (AVX2's 16 registers would not), or Engine.RowsCPU where set.
func l2RowsPass(c *Call) (int, []string) {
	if c.E.RowsCPU == 8 || c.E.RowsCPU == 0 && c.E.Prof.PreferredVectorFloat >= 16 {
		return 8, []string{"L2_ROWS=8"}
	}
	return 4, []string{"L2_ROWS=4"}
}

// bandRowsLaunch is band_rows' kernel for a CPU device and its launch over
// m rows: a work-item per l2RowsPass rows, groups of l2CPUGroup rows.
func bandRowsLaunch(c *Call, m int) (k *cl.Kernel, global, local []int) {
	rows, defs := l2RowsPass(c)
	return c.Kernel(l2File, "band_rows", defs...), []int{Groups(L3CeilDiv(m, rows), l2CPUGroup/rows)}, []int{l2CPUGroup / rows}
}

// bandRowsArgs is band_rows' arguments but its copy's (one, ticket, dst).
func bandRowsArgs[T Real](t storedBand, a *cl.Buffer, lda int, alpha T, x *cl.Buffer, offX, incX int, beta T, y *cl.Buffer, offY, incY int) []any {
	return []any{int32(t.storage), l2bool(t.upper), int32(t.m), int32(t.n), int32(t.kl), int32(t.ku), l2bool(t.unit), alpha,
		a, int32(lda), x, int32(offX), int32(incX), beta, y, int32(offY), int32(incY)}
}

// L2trmvThroughScratch enqueues x = M·x for the n×n triangular descriptor
// d stored in a where TrmvInPlace does not allow it (every row of M·x
// reads x): M·x into scratch, then over x. On CPU devices that take
// M's rows by band_rows, with one launch (l2OneTicket) the work-item that
// takes band_rows' last ticket copies the scratch over x, after every row
// has read x; elsewhere CopyOnDevice does, in a launch of its own.
func L2trmvThroughScratch[T Real](c *Call, d L2Mat, a *cl.Buffer, n int, x *cl.Buffer, offX, incX int) {
	tmp := Alloc[T](c, n)
	if !d.trans && (d.cpuTriangle(c) || L2OnCPU(c) && d.storage == L2Band) {
		if one, ticket := l2OneTicket(c, tmp); one {
			if !d.fits() || !l2fits(n, incX, offX) {
				c.Fail(errL2TooLarge)
				return
			}
			t := d.storedBand()
			k, global, local := bandRowsLaunch(c, t.m)
			c.Run(k, global, local,
				slices.Concat(bandRowsArgs(t, a, d.Lda, T(1), x, offX, incX, T(0), tmp, 0, 1),
					[]any{int32(1), ticket, x, int32(offX), int32(incX)})...)
			return
		}
	}
	L2trmvOnDevice[T](c, d, a, n, x, offX, incX, tmp, 0, 1)
	CopyOnDevice[T](c, n, tmp, 0, 1, x, offX, incX)
}

// triColsCPU enqueues y = b + alpha·Aᵀ·x over A's stored elements as t
// describes them: band_t_rows over the row blocks of cpuRowBlocks, each
// adding its rows into a partial that holds the columns they reach, then
// band_t_sum (or band_t_rows' last work-item, l2OneLaunch).
func triColsCPU[T Real](c *Call, t storedBand, a *cl.Buffer, lda int, alpha T, x *cl.Buffer, offX, incX int, beta T, y *cl.Buffer, offY, incY int) {
	nb, rb := cpuRowBlocks(c, t.m)
	pw := rb + t.kl + t.ku
	part := Alloc[T](c, nb*pw)
	one, tail := l2OneLaunch(c, part, alpha, beta, y, offY, incY)
	c.Run(c.Kernel(l2File, "band_t_rows"), []int{nb}, []int{1}, slices.Concat([]any{
		int32(t.storage), l2bool(t.upper), int32(t.m), int32(t.n), int32(t.kl), int32(t.ku), int32(rb), int32(pw),
		l2bool(t.unit), a, int32(lda), x, int32(offX), int32(incX), part}, tail)...)
	if !one {
		bandTSum(c, t, rb, pw, alpha, part, beta, y, offY, incY)
	}
}

// symCPU enqueues y = beta·y + alpha·A·x for the symmetric A whose stored
// triangle t describes: sym_rows over the row blocks of cpuRowBlocks, each
// stored row read once for its row and its column, then band_t_sum (or
// sym_rows' last work-item, l2OneLaunch).
func symCPU[T Real](c *Call, t storedBand, a *cl.Buffer, lda int, alpha T, x *cl.Buffer, offX, incX int, beta T, y *cl.Buffer, offY, incY int) {
	nb, rb := cpuRowBlocks(c, t.m)
	pw := rb + t.kl + t.ku
	part := Alloc[T](c, nb*pw)
	one, tail := l2OneLaunch(c, part, alpha, beta, y, offY, incY)
	_, defs := l2RowsPass(c)
	c.Run(c.Kernel(l2File, "sym_rows", defs...), []int{nb}, []int{1}, slices.Concat([]any{
		int32(t.storage), l2bool(t.upper), int32(t.n), int32(t.kl), int32(t.ku), int32(rb), int32(pw),
		a, int32(lda), x, int32(offX), int32(incX), part}, tail)...)
	if !one {
		bandTSum(c, t, rb, pw, alpha, part, beta, y, offY, incY)
	}
}

// bandTSum enqueues band_t_sum over the partials of band_t_rows or
// sym_rows.
func bandTSum[T Real](c *Call, t storedBand, rb, pw int, alpha T, part *cl.Buffer, beta T, y *cl.Buffer, offY, incY int) {
	c.Run(c.Kernel(l2File, "band_t_sum"), []int{Groups(t.n, l2CPUGroup)}, []int{l2CPUGroup},
		int32(t.m), int32(t.n), int32(t.kl), int32(t.ku), int32(rb), int32(pw), alpha, part,
		beta, y, int32(offY), int32(incY))
}

// l2OneLaunch reports whether the CPU kernels that make partial sums
// (gemv_t_rows, band_t_rows, sym_rows) also add them, in their last
// work-item, saving the launch of gemv_t_sum or band_t_sum (l2OneTicket),
// and returns the kernels' last arguments: one, the ticket, alpha, beta
// and y.
func l2OneLaunch[T Real](c *Call, part *cl.Buffer, alpha, beta T, y *cl.Buffer, offY, incY int) (bool, []any) {
	one, ticket := l2OneTicket(c, part)
	return one, []any{l2bool(one), ticket, alpha, beta, y, int32(offY), int32(incY)}
}

// l2OneTicket reports whether the CPU kernels that make partial sums by
// blocks of rows (level2.cl's and complex_level2.cl's) add them in their
// last work-item: as the GPUs' transposed products, where gemvTOne says so
// (the engine's queue, and the launch setting or the tuning entry's
// OneLaunchL2, which a CPU device's entry sets only where its work-groups
// see each other's writes). The ticket is the queue's one-pass counter,
// or part as a stand-in that the kernels do not touch.
func l2OneTicket(c *Call, part *cl.Buffer) (bool, *cl.Buffer) {
	if !gemvTOne(c, c.E.GemvT) {
		return false, part
	}
	return true, c.E.l1Ticket(c)
}

// gemvTRowsCPU enqueues y = alpha·Aᵀ·x + beta·y for the dense m×n A on a
// CPU device: gemv_t_rows over the row blocks of cpuRowBlocks, then
// gemv_t_sum (or gemv_t_rows' last work-item, l2OneLaunch).
func gemvTRowsCPU[T Real](c *Call, m, n int, a *cl.Buffer, lda int, alpha T, x *cl.Buffer, offX, incX int, beta T, y *cl.Buffer, offY, incY int) {
	nb, rb := cpuRowBlocks(c, m)
	part := Alloc[T](c, nb*n)
	one, tail := l2OneLaunch(c, part, alpha, beta, y, offY, incY)
	c.Run(c.Kernel(l2File, "gemv_t_rows"), []int{nb}, []int{1}, slices.Concat([]any{
		int32(m), int32(n), int32(rb), a, int32(lda), x, int32(offX), int32(incX), part}, tail)...)
	if !one {
		c.Run(c.Kernel(l2File, "gemv_t_sum"), []int{Groups(L3CeilDiv(n, 8), l2CPUGroup)}, []int{l2CPUGroup},
			int32(m), int32(n), int32(nb), alpha, part, beta, y, int32(offY), int32(incY))
	}
}

// cpuRowBlocks splits m rows into nb blocks of rb rows (the last may be
// shorter) for the partial sums of gemv_t_rows and band_t_rows: two
// blocks a compute unit, of at least 16 rows each.
func cpuRowBlocks(c *Call, m int) (nb, rb int) {
	nb = max(min(2*max(c.E.Prof.ComputeUnits, 1), L3CeilDiv(m, 16)), 1)
	rb = max(L3CeilDiv(m, nb), 1)
	return max(L3CeilDiv(m, rb), 1), rb
}
