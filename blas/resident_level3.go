package clblas

import (
	"errors"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
	eng "github.com/gocompute/opencl/internal/engine"
)

// Device-resident level 3 operations besides Gemm (resident.go). The
// level3.cl kernels take no matrix offsets, so views that do not start at
// element 0 of their storage are staged through packed copies (matIn,
// matOut).

// copyIntoMatrix enqueues the copy of a rows×cols matrix held in src with
// leading dimension ld into m; only m's elements are written.
func copyIntoMatrix[T float32 | float64](c *eng.Call, src *cl.Buffer, ld int, m *Matrix[T]) {
	r := cl.Rect{
		Region:         [3]int{m.cols, m.rows, 1},
		BufferRowPitch: ld,
		HostOrigin:     [3]int{m.off % m.stride, m.off / m.stride, 0},
		HostRowPitch:   m.stride,
	}
	enqueueCopy(c, func(q *cl.Queue) (*cl.Event, error) { return cl.CopyBufferRect[T](q, src, m.st.buf, r) })
}

// symmReal is Symm on real matrices.
func symmReal[T float32 | float64](s blas.Side, ul blas.Uplo, alpha T, a, b *Matrix[T], beta T, c *Matrix[T], wait ...*Event) (*Event, error) {
	const op = "Symm"
	if err := errors.Join(checkSide(op, s), checkUplo(op, ul), operands(op, a.storage(), b.storage(), c.storage())); err != nil {
		return nil, err
	}
	m, n := c.rows, c.cols
	ka := n
	if s == blas.Left {
		ka = m
	}
	if a.rows != ka || a.cols != ka || b.rows != m || b.cols != n {
		return nil, shapeErr(op, "A %d×%d, B %d×%d, C %d×%d", a.rows, a.cols, b.rows, b.cols, m, n)
	}
	if err := checkNoOverlap(op, c.layout(), a.layout(), b.layout()); err != nil {
		return nil, err
	}
	call, err := start[T](op, wait, a.st)
	if err != nil {
		return nil, err
	}
	da, db, dc := matIn(call, a), matIn(call, b), matIn(call, c)
	eng.SymmOnDevice(call, s == blas.Left, ul == blas.Upper, m, n, alpha, da.buf, da.ld, db.buf, db.ld, beta, dc.buf, dc.ld)
	matOut(call, c, dc)
	return finishAsync(call)
}

// rankKShape returns n and k of a Syrk or Syr2k with operand a (n×k, or
// k×n when t transposes) and the n×n c.
func rankKShape[T Element](op string, t blas.Transpose, a, c *Matrix[T]) (n, k int, err error) {
	n, k = a.rows, a.cols
	if t != blas.NoTrans {
		n, k = k, n
	}
	if c.rows != n || c.cols != n {
		return 0, 0, shapeErr(op, "op(A) %d×%d, C %d×%d", n, k, c.rows, c.cols)
	}
	return n, k, nil
}

// syrkReal is Syrk on real matrices.
func syrkReal[T float32 | float64](ul blas.Uplo, t blas.Transpose, alpha T, a *Matrix[T], beta T, c *Matrix[T], wait ...*Event) (*Event, error) {
	const op = "Syrk"
	if err := errors.Join(checkUplo(op, ul), checkTrans(op, t), operands(op, a.storage(), c.storage())); err != nil {
		return nil, err
	}
	n, k, err := rankKShape(op, t, a, c)
	if err != nil {
		return nil, err
	}
	if err := checkNoOverlap(op, c.layout(), a.layout()); err != nil {
		return nil, err
	}
	call, err := start[T](op, wait, a.st)
	if err != nil {
		return nil, err
	}
	da, dc := matIn(call, a), matIn(call, c)
	eng.SyrkOnDevice(call, ul == blas.Upper, t != blas.NoTrans, n, k, alpha, da.buf, da.ld, beta, dc.buf, dc.ld)
	matOut(call, c, dc)
	return finishAsync(call)
}

// syr2kReal is Syr2k on real matrices.
func syr2kReal[T float32 | float64](ul blas.Uplo, t blas.Transpose, alpha T, a, b *Matrix[T], beta T, c *Matrix[T], wait ...*Event) (*Event, error) {
	const op = "Syr2k"
	if err := errors.Join(checkUplo(op, ul), checkTrans(op, t), operands(op, a.storage(), b.storage(), c.storage())); err != nil {
		return nil, err
	}
	n, k, err := rankKShape(op, t, a, c)
	if err != nil {
		return nil, err
	}
	if b.rows != a.rows || b.cols != a.cols {
		return nil, shapeErr(op, "A %d×%d, B %d×%d", a.rows, a.cols, b.rows, b.cols)
	}
	if err := checkNoOverlap(op, c.layout(), a.layout(), b.layout()); err != nil {
		return nil, err
	}
	call, err := start[T](op, wait, a.st)
	if err != nil {
		return nil, err
	}
	da, db, dc := matIn(call, a), matIn(call, b), matIn(call, c)
	eng.Syr2kOnDevice(call, ul == blas.Upper, t != blas.NoTrans, n, k, alpha, da.buf, da.ld, db.buf, db.ld, beta, dc.buf, dc.ld)
	matOut(call, c, dc)
	return finishAsync(call)
}

// triMatStart validates a Trmm or Trsm of the m×n b with the triangular a.
func triMatStart[T Element](op string, s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, b *Matrix[T], wait []*Event) (*eng.Call, error) {
	if err := errors.Join(checkSide(op, s), checkTri(op, ul, tA, d), operands(op, a.storage(), b.storage())); err != nil {
		return nil, err
	}
	ka := b.cols
	if s == blas.Left {
		ka = b.rows
	}
	if a.rows != ka || a.cols != ka {
		return nil, shapeErr(op, "A %d×%d, B %d×%d", a.rows, a.cols, b.rows, b.cols)
	}
	if err := checkNoOverlap(op, b.layout(), a.layout()); err != nil {
		return nil, err
	}
	return start[T](op, wait, a.st)
}

// trmmReal is Trmm on real matrices.
func trmmReal[T float32 | float64](s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, alpha T, a, b *Matrix[T], wait ...*Event) (*Event, error) {
	c, err := triMatStart("Trmm", s, ul, tA, d, a, b, wait)
	if err != nil {
		return nil, err
	}
	m, n := b.rows, b.cols
	da, db := matIn(c, a), matIn(c, b)
	// Whole rows, the last one too: the rect copy into b needs them
	// (cl.CopyBufferRect, as NVIDIA's driver).
	res := eng.Alloc[T](c, m*db.ld)
	eng.TrmmOnDevice(c, s == blas.Left, ul == blas.Upper, tA != blas.NoTrans, d == blas.Unit, m, n, alpha, da.buf, da.ld, db.buf, db.ld, res)
	copyIntoMatrix(c, res, db.ld, b)
	return finishAsync(c)
}

// trsmReal is Trsm on real matrices.
func trsmReal[T float32 | float64](s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, alpha T, a, b *Matrix[T], wait ...*Event) (*Event, error) {
	c, err := triMatStart("Trsm", s, ul, tA, d, a, b, wait)
	if err != nil {
		return nil, err
	}
	da, db := matIn(c, a), matIn(c, b)
	eng.TrsmOnDevice(c, s == blas.Left, ul == blas.Upper, tA != blas.NoTrans, d == blas.Unit, b.rows, b.cols, alpha, da.buf, da.ld, db.buf, db.ld, eng.TrsmBlock(c.E))
	matOut(c, b, db)
	return finishAsync(c)
}
