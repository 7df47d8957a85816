package engine

import (
	"fmt"

	"github.com/gocompute/opencl/cl"
)

// The symmetric matrix-vector products streamed through registers
// (kernels/symv_stream.cl): the dense triangle (symv) and the band (sbmv)
// read once in vector loads, each element used for its row and its
// column, tiles of a block column per work-group; symv_fin adds up the
// partial sums.

const symvStreamFile = "symv_stream.cl"

// SymvKernel chooses the dense symv's and sbmv's kernel on GPUs.
type SymvKernel int

const (
	SymvAuto   SymvKernel = iota // the engine's choice (symvKernelFor)
	SymvTiles                    // symv_part / sbmv_tile: a tile in local memory per work-group
	SymvStream                   // symv_stream: register streaming
)

// TrmvKernel chooses the dense trmv's kernel on GPUs.
type TrmvKernel int

const (
	TrmvAuto   TrmvKernel = iota // the engine's choice (trmvKernelFor)
	TrmvGemv                     // gemv_n / gemv_t_part over the triangle
	TrmvStream                   // symv_stream's row or column sums
)

// trmvKernelFor is call c's trmv kernel: the setting when one is made,
// else on GPUs symv_stream's one sum, which on the H200 reads the
// triangle faster than GEMV's kernels in float either way and in double
// transposed, and as fast in double untransposed (BENCHMARKS.md, "NVIDIA
// H200, 2026-12-03"), and elsewhere GEMV's.
func trmvKernelFor(c *Call) TrmvKernel {
	if k := c.E.TrmvKernel; k != TrmvAuto {
		return k
	}
	if L2OnCPU(c) {
		return TrmvGemv
	}
	return TrmvStream
}

// SymvStreamShape is symv_stream's launch shape: Vec elements per vector
// load (L1_VW), a work-group of TX×TY work-items (tiles TX·Vec square,
// TY dividing it) taking Chunk tiles of a block column.
type SymvStreamShape struct {
	Vec, TX, TY, Chunk int
	// Walk: the group walks along a block row (symv_walk: its rows' sums
	// in registers, the columns' reduced a tile at a time) rather than
	// down a block column (symv_stream).
	Walk bool
}

// tile is the shape's tile side.
func (s SymvStreamShape) tile() int { return s.TX * s.Vec }

// localBytes is the local memory symv_stream takes for elements of es
// bytes: two buffers of row pieces' sums (which then hold the columns'
// sums of the TY slices); symv_walk's below.
func (s SymvStreamShape) localBytes(es int) int64 {
	if s.Walk { // symv_walk: two tiles' column sums by slice, the rows' by lane
		return int64((2*s.TY*s.tile() + s.tile()*(s.TX+1)) * es)
	}
	return int64(2 * s.tile() * (s.TX + 1) * es)
}

// valid reports whether symv_stream can take shape s: TY divides the
// tile and the columns' sums fit the row buffers.
func (s SymvStreamShape) valid() bool {
	return s.Vec > 0 && s.TX > 0 && s.TY > 0 && s.Chunk > 0 && s.tile()%s.TY == 0 && s.TY <= 2*(s.TX+1)
}

// symvKernelFor is call c's kernel: the setting when one is made, else
// the stream, but on CPU devices (where only sbmv comes here unless
// L2Portable, and keeps its tiles).
func symvKernelFor(c *Call) SymvKernel {
	if k := c.E.SymvKernel; k != SymvAuto {
		return k
	}
	if L2OnCPU(c) {
		return SymvTiles
	}
	return SymvStream
}

// symvStreamShapeFor is symv_stream's shape (symv_walk's for walk) for
// level 1 shape sh, elements of es bytes (complex ones with cplx) and the
// device's limits, narrowed until the local memory fits three quarters
// of the device's and the group its work-group limit:
//   - real: 128-bit loads (at most sh.Vec elements), tiles 64 elements
//     wide (at most 32 work-items across), groups of 256 work-items.
//     With 4-element loads, 16 work-items across by 16 beat 32 by 8 for
//     SYMV, SBMV and TRMV's row sums on the H200, by up to 1.4× for SBMV
//     (BENCHMARKS.md, "NVIDIA H200, 2026-12-03").
//   - complex: two elements a load (16 bytes in complex64, 32 in
//     complex128), tile rows of 512 bytes, groups of 128 work-items down
//     block columns and 8 rows of work-items along block rows, which
//     beat 256 work-items in HEMV, HBMV and TRMV's column sums and
//     complex128's row sums on the H200 (BENCHMARKS.md, "NVIDIA H200,
//     2026-12-03 (fourteenth session)"); complex64's row sums take
//     chunks of 8 tiles.
//
// Four tiles per group otherwise.
func symvStreamShapeFor(sh L1Shape, localMem int64, maxLocal, es int, walk, cplx bool) SymvStreamShape {
	s := SymvStreamShape{Vec: max(min(sh.Vec, 16/es), 1), Chunk: 4, Walk: walk}
	s.TX = min(64/s.Vec, 32)
	s.TY = 256 / s.TX
	if cplx {
		s.Vec = max(min(sh.Vec, 2), 1)
		s.TX = min(512/(s.Vec*es), 32)
		s.TY = 128 / s.TX
		if walk {
			s.TY = 8
			if es == 8 {
				s.Chunk = 8
			}
		}
	}
	for s.TX > 1 && localMem > 0 && s.localBytes(es) > localMem*3/4 {
		s.TX /= 2
	}
	for maxLocal > 0 && s.TX*s.TY > maxLocal && s.TY > 1 {
		s.TY /= 2
	}
	for !s.valid() && s.TY > 1 {
		s.TY /= 2
	}
	return s
}

// streamOp is the product symv_stream computes on the stored triangle of
// an n×n matrix with band width k: its row sums (what 1), column sums
// (2) or both (3, symmetric or Hermitian); the diagonal in neither (dg 0,
// unit: x(i) added), the rows' (1) or the columns' (2). A complex matrix
// (cplx) has its column sums take conj(A(i, j)) where conj says.
type streamOp struct {
	n, k        int
	upper, unit bool
	what, dg    int
	cplx, conj  bool
	packed      bool // gonum's packed triangle (ld and off unused)
}

// streamOpOf is symv_stream's product for the symmetric (or Hermitian) or
// triangular descriptor d in dense, band or packed storage, and where its
// stored triangle lies: A(i, j) at a[i·ld + j + off], or packed. Row i of
// gonum's band storage is contiguous from A(i, i) (upper) or A(i, i−k)
// (lower). ok is false for general matrices.
func streamOpOf(d L2Mat) (o streamOp, ld, off int, ok bool) {
	if d.kind == l2KindGeneral {
		return o, 0, 0, false
	}
	o = streamOp{n: d.n, k: d.kl, upper: d.upper, unit: d.unit, what: 3, dg: 1, packed: d.storage == L2Packed}
	if d.kind == l2KindTriangular {
		o.what, o.dg = 1, 1
		if d.trans {
			o.what, o.dg = 2, 2
		}
		if d.unit {
			o.dg = 0
		}
	}
	ld = d.Lda
	if d.storage == L2Band {
		ld = d.Lda - 1
		if !d.upper {
			off = d.kl
		}
	}
	return o, ld, off, true
}

// streamMV enqueues y = alpha·op·x + beta·y for the stored triangle at
// a[i·ld + j + off]: symv_stream, then symv_fin. alpha and beta are
// (are, aim) and (bre, bim), their imaginary parts ignored for a real
// matrix; indices and offsets count elements, real or complex.
func streamMV[T Real](c *Call, o streamOp, a *cl.Buffer, ld, off int, are, aim T, x *cl.Buffer, offX, incX int, bre, bim T, y *cl.Buffer, offY, incY int) {
	n := o.n
	if n == 0 {
		return
	}
	es, parts := ElemSize[T](), 1
	if o.cplx {
		es, parts = 2*es, 2
	}
	// One sum only (trmv): the row sums walking along block rows, the
	// column sums down block columns, each kept in registers, with no
	// reduction per tile.
	s := symvStreamShapeFor(l1ShapeOf(c), c.E.Prof.LocalMemBytes, c.E.Prof.MaxWorkGroupSize, es, o.what == 1, o.cplx)
	if sh := c.E.SymvStream; sh.Vec > 0 {
		s = sh
	}
	if !s.valid() {
		c.Fail(fmt.Errorf("clblas: symv_stream: invalid shape %+v", s))
		return
	}
	tb := s.tile()
	nb := L3CeilDiv(n, tb)
	nd := min(1+L3CeilDiv(o.k, tb), nb)
	nch := L3CeilDiv(nd, s.Chunk)
	groups := 0
	for ch := range nch {
		groups += nb - ch*s.Chunk
	}
	// A sum not computed has a one-element buffer, never touched; the
	// sum kept in registers has a slot per chunk, the other per tile.
	rs, cs, kernel := nd, nch, "symv_stream"
	if s.Walk {
		rs, cs, kernel = nch, nd, "symv_walk"
	}
	rn, cn := 1, 1
	if o.what&1 != 0 {
		rn = rs * n
	}
	if o.what&2 != 0 {
		cn = cs * n
	}
	rpart, cpart := Alloc[T](c, parts*rn), Alloc[T](c, parts*cn)
	defs := []string{fmt.Sprintf("L1_VW=%d", parts*s.Vec), fmt.Sprintf("SS_TX=%d", s.TX), fmt.Sprintf("SS_TY=%d", s.TY), fmt.Sprintf("SS_CH=%d", s.Chunk)}
	alpha, beta := []any{are}, []any{bre}
	if o.cplx {
		defs = append(defs, "SS_CPLX")
		alpha, beta = []any{are, aim}, []any{bre, bim}
	}
	vec := l2bool(ld%s.Vec == 0 && off%s.Vec == 0)
	if o.packed {
		defs = append(defs, "SS_PACKED")
		vec = 1
	}
	c.Run(c.Kernel(symvStreamFile, kernel, defs...), []int{groups * s.TX, s.TY}, []int{s.TX, s.TY},
		int32(n), int32(o.k), l2bool(o.upper), int32(nb), int32(nd), a, int32(ld), int32(off), x, int32(offX), int32(incX),
		rpart, cpart, vec, int32(o.what), int32(o.dg), l2bool(o.conj))
	args := append(append([]any{int32(n), l2bool(o.upper), int32(nb), int32(nd)}, alpha...), rpart, cpart)
	args = append(append(args, beta...), y, int32(offY), int32(incY),
		int32(o.what), l2bool(o.unit), x, int32(offX), int32(incX), l2bool(s.Walk))
	c.Run(c.Kernel(symvStreamFile, "symv_fin", defs...), gemvFinGrid(n), gemvFinLocal, args...)
}
