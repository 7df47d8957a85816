package engine

import (
	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
)

// The enqueue-only layer of the complex level 3 routines besides GEMM,
// each built on ZgemmOnDevice (zgemm.go) with the adapting kernels of
// kernels/zlevel3.cl: symm and hemm expand A to a full matrix, syrk, herk,
// syr2k and her2k form the whole square with one GEMM and merge its
// triangle into C, trmm expands A to a full triangular matrix, and trsm
// is solved recursively down to diagonal blocks whose substitution runs
// one work-item per column (left) or row (right), the rest being GEMM
// updates. Operands are device buffers with complex element offsets; R is
// the part type; errors are recorded in c.

// ZMat is a complex matrix operand on the device: buffer, complex element
// offset, leading dimension.
type ZMat struct {
	buf     *cl.Buffer
	off, ld int
}

// at is the operand moved by i rows and j columns.
func (z ZMat) at(i, j int) ZMat { return ZMat{z.buf, z.off + i*z.ld + j, z.ld} }

// zgemmOn is ZgemmOnDevice on ZMat operands.
func zgemmOn[R Real](c *Call, tA, tB blas.Transpose, m, n, k int, alpha, beta complex128, a, b, cm ZMat) {
	ZgemmOnDevice[R](c, tA, tB, m, n, k, alpha, beta, a.buf, a.off, a.ld, b.buf, b.off, b.ld, cm.buf, cm.off, cm.ld)
}

// zrun enqueues kernel name of zlevel3.cl over the element grid of an
// rows×cols matrix.
func zrun(c *Call, name string, rows, cols int, args ...any) {
	k := c.Kernel(zFile, name)
	global, local := l3Work(rows, cols)
	c.Run(k, global, local, args...)
}

// ZsymmOnDevice enqueues C = alpha·A·B + beta·C (left) or alpha·B·A +
// beta·C for the symmetric (herm: Hermitian) A of which the upper or lower
// triangle is stored; C is m×n.
func ZsymmOnDevice[R Real](c *Call, left, upper, herm bool, m, n int, alpha, beta complex128, a, b, cm ZMat) {
	if alpha == 0 {
		ZscaleOnDevice[R](c, m, n, beta, cm.buf, cm.off, cm.ld, triFull, false)
		return
	}
	ka := n
	if left {
		ka = m
	}
	f := ZMat{Alloc[R](c, 2*ka*ka), 0, ka}
	zrun(c, "zsym_expand", ka, ka, l3Int(c, ka), int32(l3Bool(upper)), int32(l3Bool(herm)), a.buf, int64(a.off), l3Int(c, a.ld), f.buf)
	if left {
		zgemmOn[R](c, blas.NoTrans, blas.NoTrans, m, n, m, alpha, beta, f, b, cm)
	} else {
		zgemmOn[R](c, blas.NoTrans, blas.NoTrans, m, n, n, alpha, beta, b, f, cm)
	}
}

// ZrankOnDevice enqueues the upper or lower triangle of the rank-k (b
// unset) or rank-2k update of the n×n C:
//
//	syrk:  C = alpha·op(A)·op(A)ᵀ + beta·C
//	herk:  C = alpha·op(A)·op(A)ᴴ + beta·C
//	syr2k: C = alpha·op(A)·op(B)ᵀ + alpha·op(B)·op(A)ᵀ + beta·C
//	her2k: C = alpha·op(A)·op(B)ᴴ + conj(alpha)·op(B)·op(A)ᴴ + beta·C
//
// where op(X) is X (t == NoTrans) or Xᵀ (syrk, syr2k) or Xᴴ (herk, her2k)
// and is n×k. With herm, beta is real and C's diagonal comes out real.
func ZrankOnDevice[R Real](c *Call, upper, herm bool, t blas.Transpose, n, k int, alpha, beta complex128, a ZMat, b *ZMat, cm ZMat) {
	tri := triLower
	if upper {
		tri = triUpper
	}
	if alpha == 0 || k == 0 {
		ZscaleOnDevice[R](c, n, n, beta, cm.buf, cm.off, cm.ld, tri, herm)
		return
	}
	// T = alpha·op(A)·op(B)ᵀ (or ᴴ) over the whole square; op(B)ᵀ is
	// B stored as given, transposed the other way.
	tB := blas.Trans
	if herm {
		tB = blas.ConjTrans
	}
	if t != blas.NoTrans {
		tB = blas.NoTrans
	}
	second := a
	if b != nil {
		second = *b
	}
	tt := ZMat{Alloc[R](c, 2*n*n), 0, n}
	zgemmOn[R](c, t, tB, n, n, k, alpha, 0, a, second, tt)
	zrun(c, "ztri_merge", n, n, l3Int(c, n), int32(l3Bool(upper)), int32(l3Bool(b != nil)), int32(l3Bool(herm)),
		tt.buf, R(real(beta)), R(imag(beta)), cm.buf, int64(cm.off), l3Int(c, cm.ld))
}

// ZtrmmOnDevice enqueues B = alpha·op(A)·B (left) or B = alpha·B·op(A)
// for the m×n B and the triangular A (upper or lower, unit diagonal when
// unit), through a full copy of A and a GEMM into scratch.
func ZtrmmOnDevice[R Real](c *Call, left, upper, unit bool, tA blas.Transpose, m, n int, alpha complex128, a, b ZMat) {
	ka := n
	if left {
		ka = m
	}
	f := ZMat{Alloc[R](c, 2*ka*ka), 0, ka}
	if alpha != 0 {
		zrun(c, "ztri_expand", ka, ka, l3Int(c, ka), int32(l3Bool(upper)), int32(l3Bool(unit)), a.buf, int64(a.off), l3Int(c, a.ld), f.buf)
	}
	r := ZMat{Alloc[R](c, 2*m*n), 0, n}
	if left {
		zgemmOn[R](c, tA, blas.NoTrans, m, n, m, alpha, 0, f, b, r)
	} else {
		zgemmOn[R](c, blas.NoTrans, tA, m, n, n, alpha, 0, b, f, r)
	}
	zrun(c, "zcopy_mat", m, n, l3Int(c, m), l3Int(c, n), r.buf, int64(0), l3Int(c, n), b.buf, int64(b.off), l3Int(c, b.ld))
}

// ZtrsmOnDevice enqueues the solve op(A)·X = alpha·B (left) or
// X·op(A) = alpha·B for the m×n B (X overwrites B) and the triangular A,
// in diagonal blocks of order nb at most.
func ZtrsmOnDevice[R Real](c *Call, left, upper, unit bool, tA blas.Transpose, m, n int, alpha complex128, a, b ZMat, nb int) {
	if alpha != 1 {
		ZscaleOnDevice[R](c, m, n, alpha, b.buf, b.off, b.ld, triFull, false)
	}
	if alpha == 0 {
		return
	}
	s := ztrsm[R]{c: c, unit: unit, tA: tA, a: a, b: b, nb: nb, m: m, n: n}
	// op(A) is lower triangular when exactly one of "lower" and
	// "transposed" holds.
	s.lower = !upper != (tA != blas.NoTrans)
	if left {
		s.left(0, m)
	} else {
		s.right(0, n)
	}
}

// ztrsm is one complex triangular solve in progress.
type ztrsm[R Real] struct {
	c           *Call
	lower, unit bool
	tA          blas.Transpose
	a, b        ZMat
	nb, m, n    int
}

// opA is the block of op(A) at rows [r0, …), columns [c0, …) as a GEMM
// operand (with s.tA).
func (s *ztrsm[R]) opA(r0, c0 int) ZMat {
	if s.tA == blas.NoTrans {
		return s.a.at(r0, c0)
	}
	return s.a.at(c0, r0)
}

// split is the point that halves [lo, hi) on a multiple of nb.
func (s *ztrsm[R]) split(lo, hi int) int {
	return lo + max(1, (hi-lo)/(2*s.nb))*s.nb
}

// left solves rows [r0, r1) of X.
func (s *ztrsm[R]) left(r0, r1 int) {
	c := s.c
	if r1-r0 <= s.nb {
		k := c.Kernel(zFile, "ztrsm_left")
		ls := L1Local(c.E)
		c.Run(k, []int{Groups(s.n, ls)}, []int{ls}, l3Int(c, r0), l3Int(c, r1-r0), l3Int(c, s.n), int32(l3Bool(s.lower)),
			zTrans(s.tA), int32(l3Bool(s.unit)), s.a.buf, int64(s.a.off), l3Int(c, s.a.ld), s.b.buf, int64(s.b.off), l3Int(c, s.b.ld))
		return
	}
	mid := s.split(r0, r1)
	if s.lower {
		s.left(r0, mid)
		zgemmOn[R](c, s.tA, blas.NoTrans, r1-mid, s.n, mid-r0, -1, 1, s.opA(mid, r0), s.b.at(r0, 0), s.b.at(mid, 0))
		s.left(mid, r1)
		return
	}
	s.left(mid, r1)
	zgemmOn[R](c, s.tA, blas.NoTrans, mid-r0, s.n, r1-mid, -1, 1, s.opA(r0, mid), s.b.at(mid, 0), s.b.at(r0, 0))
	s.left(r0, mid)
}

// right solves columns [c0, c1) of X.
func (s *ztrsm[R]) right(c0, c1 int) {
	c := s.c
	if c1-c0 <= s.nb {
		k := c.Kernel(zFile, "ztrsm_right")
		ls := L1Local(c.E)
		c.Run(k, []int{Groups(s.m, ls)}, []int{ls}, l3Int(c, c0), l3Int(c, c1-c0), l3Int(c, s.m), int32(l3Bool(!s.lower)),
			zTrans(s.tA), int32(l3Bool(s.unit)), s.a.buf, int64(s.a.off), l3Int(c, s.a.ld), s.b.buf, int64(s.b.off), l3Int(c, s.b.ld))
		return
	}
	mid := s.split(c0, c1)
	if !s.lower {
		s.right(c0, mid)
		zgemmOn[R](c, blas.NoTrans, s.tA, s.m, c1-mid, mid-c0, -1, 1, s.b.at(0, c0), s.opA(c0, mid), s.b.at(0, mid))
		s.right(mid, c1)
		return
	}
	s.right(mid, c1)
	zgemmOn[R](c, blas.NoTrans, s.tA, s.m, mid-c0, c1-mid, -1, 1, s.b.at(0, mid), s.opA(mid, c0), s.b.at(0, c0))
	s.right(c0, mid)
}

// ZIn is an input matrix of a complex call on host slices: rows×cols with
// leading dimension ld, or nothing (Data nil) when the call does not read
// it.
type ZIn[T Complex] struct {
	Data           []T
	Rows, Cols, LD int
}

// ZSlices runs one complex call on host slices (R is T's part type): it
// uploads ins (or maps them, on a device sharing the host's memory),
// brings in the rows×cols output out (leading dimension ld), which the
// kernels read and update, enqueues enq and finishes. On success out holds
// the result; otherwise (an error, or nonFinite: the device's result held
// a NaN or an infinity) out is as it was given.
func ZSlices[T Complex, R Real](e *Engine, name string, out []T, rows, cols, ld int, enq func(c *Call, ins []ZMat, out ZMat), ins ...ZIn[T]) (nonFinite bool, err error) {
	c := Begin[T](e, name)
	ms := make([]ZMat, len(ins))
	for i, in := range ins {
		if in.Data != nil {
			ms[i] = ZMat{l3In(c, PartsOf[T, R](in.Data[:MatSpan(in.Rows, in.Cols, in.LD)])), 0, in.LD}
		}
	}
	dc := newL3Dest(c, PartsOf[T, R](out), rows, 2*cols, 2*ld, true)
	enq(c, ms, ZMat{dc.buf, 0, ld})
	return zFinish(c, dc)
}

// ZInput is the ZIn of data, a rows×cols matrix with leading dimension ld.
func ZInput[T Complex](data []T, rows, cols, ld int) ZIn[T] {
	return ZIn[T]{Data: data, Rows: rows, Cols: cols, LD: ld}
}

// ZMatAt is the operand of a complex matrix at complex element off of buf
// with leading dimension ld.
func ZMatAt(buf *cl.Buffer, off, ld int) ZMat { return ZMat{buf, off, ld} }
