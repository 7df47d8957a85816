package clblas

import (
	eng "github.com/gocompute/opencl/internal/engine"

	"errors"
	"fmt"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
)

// Device-resident level 2 operations, and vector views of matrices.

// Row returns row i of m as a vector view (increment 1) sharing m's
// storage.
func (m *Matrix[T]) Row(i int) (*Vector[T], error) {
	if err := m.storage().check(); err != nil {
		return nil, err
	}
	if i < 0 || i >= m.rows {
		return nil, fmt.Errorf("clblas: Row(%d) of a %d×%d matrix: %w", i, m.rows, m.cols, ErrShape)
	}
	return &Vector[T]{st: m.st, off: m.off + i*m.stride, n: m.cols, inc: 1}, nil
}

// Col returns column j of m as a vector view (increment Stride) sharing
// m's storage.
func (m *Matrix[T]) Col(j int) (*Vector[T], error) {
	if err := m.storage().check(); err != nil {
		return nil, err
	}
	if j < 0 || j >= m.cols {
		return nil, fmt.Errorf("clblas: Col(%d) of a %d×%d matrix: %w", j, m.rows, m.cols, ErrShape)
	}
	return &Vector[T]{st: m.st, off: m.off + j, n: m.rows, inc: m.stride}, nil
}

// storage is the matrix's storage, or nil for a nil matrix.
func (m *Matrix[T]) storage() *storage {
	if m == nil {
		return nil
	}
	return m.st
}

// Argument checks shared by the level 2 and 3 operations.

func checkTrans(routine string, t blas.Transpose) error {
	switch t {
	case blas.NoTrans, blas.Trans, blas.ConjTrans:
		return nil
	}
	return opErr(routine, "transpose %d: %w", t, ErrInvalidArg)
}

func checkUplo(routine string, ul blas.Uplo) error {
	switch ul {
	case blas.Upper, blas.Lower:
		return nil
	}
	return opErr(routine, "uplo %d: %w", ul, ErrInvalidArg)
}

func checkDiag(routine string, d blas.Diag) error {
	switch d {
	case blas.Unit, blas.NonUnit:
		return nil
	}
	return opErr(routine, "diag %d: %w", d, ErrInvalidArg)
}

func checkSide(routine string, s blas.Side) error {
	switch s {
	case blas.Left, blas.Right:
		return nil
	}
	return opErr(routine, "side %d: %w", s, ErrInvalidArg)
}

func checkTri(routine string, ul blas.Uplo, tA blas.Transpose, d blas.Diag) error {
	return errors.Join(checkUplo(routine, ul), checkTrans(routine, tA), checkDiag(routine, d))
}

func shapeErr(routine, format string, args ...any) error {
	return opErr(routine, format+": %w", append(args, ErrShape)...)
}

// enqueueCopy records the event of a device-side copy.
func enqueueCopy(c *eng.Call, copyFn func(q *cl.Queue) (*cl.Event, error)) {
	c.Enqueue("", copyFn)
}

// devMat is a matrix operand of a kernel that takes no matrix offset: the
// matrix's own buffer when the matrix starts at element 0 of it, else a
// packed copy (ld = cols) in a buffer borrowed for the call.
type devMat struct {
	buf    *cl.Buffer
	ld     int
	staged bool
}

func matIn[T Element](c *eng.Call, m *Matrix[T]) devMat {
	if m.off == 0 {
		return devMat{buf: m.st.buf, ld: m.stride}
	}
	b := eng.Alloc[T](c, m.rows*m.cols)
	enqueueCopy(c, func(q *cl.Queue) (*cl.Event, error) { return cl.CopyBufferRect[T](q, m.st.buf, b, m.rect()) })
	return devMat{buf: b, ld: m.cols, staged: true}
}

// matOut copies a staged operand that a kernel updated back into m; only
// m's elements are written, not the padding between its rows.
func matOut[T Element](c *eng.Call, m *Matrix[T], d devMat) {
	if !d.staged {
		return
	}
	r := cl.Rect{
		Region:         [3]int{m.cols, m.rows, 1},
		BufferRowPitch: m.cols,
		HostOrigin:     [3]int{m.off % m.stride, m.off / m.stride, 0},
		HostRowPitch:   m.stride,
	}
	enqueueCopy(c, func(q *cl.Queue) (*cl.Event, error) { return cl.CopyBufferRect[T](q, d.buf, m.st.buf, r) })
}

// packedIn is the packed-triangle operand ap (a contiguous vector): its own
// buffer when it starts at element 0, else a copy.
func packedIn[T Element](c *eng.Call, ap *Vector[T]) devMat {
	if ap.off == 0 {
		return devMat{buf: ap.st.buf}
	}
	b := eng.Alloc[T](c, ap.n)
	enqueueCopy(c, func(q *cl.Queue) (*cl.Event, error) { return cl.CopyBuffer[T](q, ap.st.buf, b, ap.off, 0, ap.n) })
	return devMat{buf: b, staged: true}
}

func packedOut[T Element](c *eng.Call, ap *Vector[T], d devMat) {
	if d.staged {
		enqueueCopy(c, func(q *cl.Queue) (*cl.Event, error) { return cl.CopyBuffer[T](q, d.buf, ap.st.buf, 0, ap.off, ap.n) })
	}
}

// checkPacked checks that ap holds a packed n×n triangle.
func checkPacked[T Element](routine string, ap *Vector[T], n int) error {
	if ap.n != eng.PackedLen(n) || ap.inc != 1 {
		return shapeErr(routine, "packed triangle of %d elements with increment %d for n = %d (want %d, 1)", ap.n, ap.inc, n, eng.PackedLen(n))
	}
	return nil
}

// mvOp enqueues y = alpha·M·x + beta·y for the descriptor d of a matrix
// held in a (band or dense) or ap (packed).
func mvOp[T float32 | float64](c *eng.Call, d eng.L2Mat, a *Matrix[T], ap *Vector[T], nout, nin int, alpha T, x *Vector[T], beta T, y *Vector[T]) (*Event, error) {
	if err := checkNoOverlap(c.Routine, y.layout(), x.layout(), matOrPacked(a, ap)); err != nil {
		c.Finish()
		return nil, err
	}
	var dm devMat
	if a != nil {
		dm = matIn(c, a)
		d.Lda = dm.ld
	} else {
		dm = packedIn(c, ap)
	}
	eng.L2mvOnDevice(c, d, dm.buf, nout, nin, alpha, x.st.buf, x.off, x.inc, beta, y.st.buf, y.off, y.inc)
	return finishAsync(c)
}

// gemvReal is Gemv for real matrices.
func gemvReal[T float32 | float64](tA blas.Transpose, alpha T, a *Matrix[T], x *Vector[T], beta T, y *Vector[T], wait ...*Event) (*Event, error) {
	const op = "Gemv"
	if err := errors.Join(checkTrans(op, tA), operands(op, a.storage(), x.storage(), y.storage())); err != nil {
		return nil, err
	}
	d, nout, nin, _ := eng.GemvMat(tA, a.rows, a.cols, a.stride)
	if x.n != nin || y.n != nout {
		return nil, shapeErr(op, "op(A) %d×%d, x %d, y %d", nout, nin, x.n, y.n)
	}
	c, err := start[T](op, wait, a.st)
	if err != nil {
		return nil, err
	}
	return mvOp(c, d, a, nil, nout, nin, alpha, x, beta, y)
}

// gbmvReal is Gbmv for real matrices.
func gbmvReal[T float32 | float64](tA blas.Transpose, m, n, kL, kU int, alpha T, a *Matrix[T], x *Vector[T], beta T, y *Vector[T], wait ...*Event) (*Event, error) {
	const op = "Gbmv"
	if err := errors.Join(checkTrans(op, tA), operands(op, a.storage(), x.storage(), y.storage())); err != nil {
		return nil, err
	}
	if m <= 0 || n <= 0 || kL < 0 || kU < 0 || a.rows < min(m, n+kL) || a.cols != kL+kU+1 {
		return nil, shapeErr(op, "m %d, n %d, kL %d, kU %d, band storage %d×%d", m, n, kL, kU, a.rows, a.cols)
	}
	d, nout, nin, _ := eng.GbmvMat(tA, m, n, kL, kU, a.stride)
	if x.n != nin || y.n != nout {
		return nil, shapeErr(op, "op(A) %d×%d, x %d, y %d", nout, nin, x.n, y.n)
	}
	c, err := start[T](op, wait, a.st)
	if err != nil {
		return nil, err
	}
	return mvOp(c, d, a, nil, nout, nin, alpha, x, beta, y)
}

// Symv enqueues y = alpha·A·x + beta·y for a symmetric n×n A of which the
// ul triangle is read.
func Symv[T float32 | float64](ul blas.Uplo, alpha T, a *Matrix[T], x *Vector[T], beta T, y *Vector[T], wait ...*Event) (*Event, error) {
	const op = "Symv"
	c, n, err := startSymMV(op, ul, a, x, y, wait)
	if err != nil {
		return nil, err
	}
	return mvOp(c, eng.L2Sym(eng.L2Dense, ul, n, n-1, 0), a, nil, n, n, alpha, x, beta, y)
}

// Sbmv enqueues y = alpha·A·x + beta·y for a symmetric n×n band matrix
// with k off-diagonals, whose ul triangle is in gonum's band storage: a is
// n×(k+1).
func Sbmv[T float32 | float64](ul blas.Uplo, k int, alpha T, a *Matrix[T], x *Vector[T], beta T, y *Vector[T], wait ...*Event) (*Event, error) {
	const op = "Sbmv"
	c, n, err := startBandMV(op, ul, k, a, x, y, wait)
	if err != nil {
		return nil, err
	}
	return mvOp(c, eng.L2Sym(eng.L2Band, ul, n, k, 0), a, nil, n, n, alpha, x, beta, y)
}

// Spmv enqueues y = alpha·A·x + beta·y for a symmetric n×n matrix whose ul
// triangle is packed in ap (a contiguous vector of n(n+1)/2 elements).
func Spmv[T float32 | float64](ul blas.Uplo, alpha T, ap *Vector[T], x *Vector[T], beta T, y *Vector[T], wait ...*Event) (*Event, error) {
	const op = "Spmv"
	c, n, err := startPackedMV(op, ul, ap, x, y, wait)
	if err != nil {
		return nil, err
	}
	return mvOp(c, eng.L2Sym(eng.L2Packed, ul, n, n-1, 0), nil, ap, n, n, alpha, x, beta, y)
}

// triOp enqueues x = M·x (solve false) or the solve M·x = b in place for
// the n×n triangular descriptor d of a matrix held in a or ap.
func triOp[T float32 | float64](c *eng.Call, d eng.L2Mat, a *Matrix[T], ap *Vector[T], x *Vector[T], solve bool) (*Event, error) {
	if err := checkNoOverlap(c.Routine, x.layout(), matOrPacked(a, ap)); err != nil {
		c.Finish()
		return nil, err
	}
	var dm devMat
	if a != nil {
		dm = matIn(c, a)
		d.Lda = dm.ld
	} else {
		dm = packedIn(c, ap)
	}
	n := x.n
	if solve {
		eng.L2trsvOnDevice[T](c, d, dm.buf, n, x.st.buf, x.off, x.inc)
	} else if eng.TrmvInPlace(c, d) {
		eng.L2trmvOnDevice[T](c, d, dm.buf, n, x.st.buf, x.off, x.inc, x.st.buf, x.off, x.inc)
	} else {
		eng.L2trmvThroughScratch[T](c, d, dm.buf, n, x.st.buf, x.off, x.inc)
	}
	return finishAsync(c)
}

// triStart validates a triangular level 2 operation on x with the matrix
// in a (rows × cols, cols = k+1 for band storage, k < 0 for dense) or ap.
func triStart[T Element](op string, ul blas.Uplo, tA blas.Transpose, d blas.Diag, k int, a *Matrix[T], ap *Vector[T], x *Vector[T], wait []*Event) (*eng.Call, error) {
	var st *storage
	if a != nil || ap == nil {
		st = a.storage()
	} else {
		st = ap.storage()
	}
	if err := errors.Join(checkTri(op, ul, tA, d), operands(op, st, x.storage())); err != nil {
		return nil, err
	}
	n := x.n
	switch {
	case ap != nil:
		if err := checkPacked(op, ap, n); err != nil {
			return nil, err
		}
	case k < 0:
		if a.rows != n || a.cols != n {
			return nil, shapeErr(op, "A %d×%d, x %d", a.rows, a.cols, n)
		}
	default:
		if a.rows != n || a.cols != k+1 {
			return nil, shapeErr(op, "k %d, band storage %d×%d, x %d", k, a.rows, a.cols, n)
		}
	}
	return start[T](op, wait, st)
}

// trmvReal is Trmv for real matrices.
func trmvReal[T float32 | float64](ul blas.Uplo, tA blas.Transpose, d blas.Diag, a *Matrix[T], x *Vector[T], wait ...*Event) (*Event, error) {
	c, err := triStart("Trmv", ul, tA, d, -1, a, nil, x, wait)
	if err != nil {
		return nil, err
	}
	return triOp(c, eng.L2Tri(eng.L2Dense, ul, tA, d, x.n, x.n-1, 0), a, nil, x, false)
}

// tbmvReal is Tbmv for real matrices.
func tbmvReal[T float32 | float64](ul blas.Uplo, tA blas.Transpose, d blas.Diag, k int, a *Matrix[T], x *Vector[T], wait ...*Event) (*Event, error) {
	if k < 0 {
		return nil, shapeErr("Tbmv", "k %d", k)
	}
	c, err := triStart("Tbmv", ul, tA, d, k, a, nil, x, wait)
	if err != nil {
		return nil, err
	}
	return triOp(c, eng.L2Tri(eng.L2Band, ul, tA, d, x.n, k, 0), a, nil, x, false)
}

// tpmvReal is Tpmv for real matrices.
func tpmvReal[T float32 | float64](ul blas.Uplo, tA blas.Transpose, d blas.Diag, ap *Vector[T], x *Vector[T], wait ...*Event) (*Event, error) {
	if ap == nil {
		return nil, opErr("Tpmv", "%w", errNilOperand)
	}
	c, err := triStart[T]("Tpmv", ul, tA, d, -1, nil, ap, x, wait)
	if err != nil {
		return nil, err
	}
	return triOp(c, eng.L2Tri(eng.L2Packed, ul, tA, d, x.n, x.n-1, 0), nil, ap, x, false)
}

// trsvReal is Trsv for real matrices.
func trsvReal[T float32 | float64](ul blas.Uplo, tA blas.Transpose, d blas.Diag, a *Matrix[T], x *Vector[T], wait ...*Event) (*Event, error) {
	c, err := triStart("Trsv", ul, tA, d, -1, a, nil, x, wait)
	if err != nil {
		return nil, err
	}
	return triOp(c, eng.L2Tri(eng.L2Dense, ul, tA, d, x.n, x.n-1, 0), a, nil, x, true)
}

// tbsvReal is Tbsv for real matrices.
func tbsvReal[T float32 | float64](ul blas.Uplo, tA blas.Transpose, d blas.Diag, k int, a *Matrix[T], x *Vector[T], wait ...*Event) (*Event, error) {
	if k < 0 {
		return nil, shapeErr("Tbsv", "k %d", k)
	}
	c, err := triStart("Tbsv", ul, tA, d, k, a, nil, x, wait)
	if err != nil {
		return nil, err
	}
	return triOp(c, eng.L2Tri(eng.L2Band, ul, tA, d, x.n, k, 0), a, nil, x, true)
}

// tpsvReal is Tpsv for real matrices.
func tpsvReal[T float32 | float64](ul blas.Uplo, tA blas.Transpose, d blas.Diag, ap *Vector[T], x *Vector[T], wait ...*Event) (*Event, error) {
	if ap == nil {
		return nil, opErr("Tpsv", "%w", errNilOperand)
	}
	c, err := triStart[T]("Tpsv", ul, tA, d, -1, nil, ap, x, wait)
	if err != nil {
		return nil, err
	}
	return triOp(c, eng.L2Tri(eng.L2Packed, ul, tA, d, x.n, x.n-1, 0), nil, ap, x, true)
}

// rankOp enqueues a rank-1 (y == nil) or rank-2 update of the m×n matrix
// held in a (dense) or ap (packed).
func rankOp[T float32 | float64](c *eng.Call, u eng.L2Update, m, n int, alpha T, x, y *Vector[T], a *Matrix[T], ap *Vector[T]) (*Event, error) {
	var yl layout
	if y != nil {
		yl = y.layout()
	}
	if err := checkNoOverlap(c.Routine, matOrPacked(a, ap), x.layout(), yl); err != nil {
		c.Finish()
		return nil, err
	}
	var dm devMat
	if a != nil {
		dm = matIn(c, a)
	} else {
		dm = packedIn(c, ap)
	}
	var yb *cl.Buffer
	var offY, incY int
	if y != nil {
		yb, offY, incY = y.st.buf, y.off, y.inc
	}
	eng.L2rankOnDevice(c, u, m, n, alpha, x.st.buf, x.off, x.inc, yb, offY, incY, dm.buf, dm.ld)
	if a != nil {
		matOut(c, a, dm)
	} else {
		packedOut(c, ap, dm)
	}
	return finishAsync(c)
}

// gerReal is Ger for real matrices.
func gerReal[T float32 | float64](alpha T, x, y *Vector[T], a *Matrix[T], wait ...*Event) (*Event, error) {
	const op = "Ger"
	if err := operands(op, x.storage(), y.storage(), a.storage()); err != nil {
		return nil, err
	}
	if x.n != a.rows || y.n != a.cols {
		return nil, shapeErr(op, "x %d, y %d, A %d×%d", x.n, y.n, a.rows, a.cols)
	}
	c, err := start[T](op, wait, a.st)
	if err != nil {
		return nil, err
	}
	return rankOp(c, eng.L2Update{}, a.rows, a.cols, alpha, x, y, a, nil)
}

// symRank validates a symmetric rank update of the n×n a (or packed ap)
// with x (and y).
func symRank[T float32 | float64](op string, ul blas.Uplo, x, y *Vector[T], a *Matrix[T], ap *Vector[T], wait []*Event) (*eng.Call, error) {
	sts := []*storage{x.storage()}
	if y != nil {
		sts = append(sts, y.storage())
	}
	if ap != nil {
		sts = append(sts, ap.storage())
	} else {
		sts = append(sts, a.storage())
	}
	if err := errors.Join(checkUplo(op, ul), operands(op, sts...)); err != nil {
		return nil, err
	}
	n := x.n
	if y != nil && y.n != n {
		return nil, shapeErr(op, "x %d, y %d", x.n, y.n)
	}
	if ap != nil {
		if err := checkPacked(op, ap, n); err != nil {
			return nil, err
		}
	} else if a.rows != n || a.cols != n {
		return nil, shapeErr(op, "x %d, A %d×%d", n, a.rows, a.cols)
	}
	return start[T](op, wait, sts...)
}

// Syr enqueues A += alpha·x·xᵀ on the ul triangle of the symmetric n×n A.
func Syr[T float32 | float64](ul blas.Uplo, alpha T, x *Vector[T], a *Matrix[T], wait ...*Event) (*Event, error) {
	c, err := symRank("Syr", ul, x, nil, a, nil, wait)
	if err != nil {
		return nil, err
	}
	return rankOp(c, eng.L2Update{Tri: true, Upper: ul == blas.Upper, SkipZero: true}, x.n, x.n, alpha, x, nil, a, nil)
}

// Syr2 enqueues A += alpha·(x·yᵀ + y·xᵀ) on the ul triangle of the
// symmetric n×n A.
func Syr2[T float32 | float64](ul blas.Uplo, alpha T, x, y *Vector[T], a *Matrix[T], wait ...*Event) (*Event, error) {
	if y == nil {
		return nil, opErr("Syr2", "%w", errNilOperand)
	}
	c, err := symRank("Syr2", ul, x, y, a, nil, wait)
	if err != nil {
		return nil, err
	}
	return rankOp(c, eng.L2Update{Tri: true, Upper: ul == blas.Upper, Two: true}, x.n, x.n, alpha, x, y, a, nil)
}

// Spr enqueues A += alpha·x·xᵀ on the symmetric matrix whose ul triangle
// is packed in ap.
func Spr[T float32 | float64](ul blas.Uplo, alpha T, x *Vector[T], ap *Vector[T], wait ...*Event) (*Event, error) {
	if ap == nil {
		return nil, opErr("Spr", "%w", errNilOperand)
	}
	c, err := symRank[T]("Spr", ul, x, nil, nil, ap, wait)
	if err != nil {
		return nil, err
	}
	return rankOp(c, eng.L2Update{Tri: true, Upper: ul == blas.Upper, Packed: true}, x.n, x.n, alpha, x, nil, nil, ap)
}

// Spr2 enqueues A += alpha·(x·yᵀ + y·xᵀ) on the symmetric matrix whose ul
// triangle is packed in ap.
func Spr2[T float32 | float64](ul blas.Uplo, alpha T, x, y *Vector[T], ap *Vector[T], wait ...*Event) (*Event, error) {
	if ap == nil || y == nil {
		return nil, opErr("Spr2", "%w", errNilOperand)
	}
	c, err := symRank[T]("Spr2", ul, x, y, nil, ap, wait)
	if err != nil {
		return nil, err
	}
	return rankOp(c, eng.L2Update{Tri: true, Upper: ul == blas.Upper, Packed: true, Two: true}, x.n, x.n, alpha, x, y, nil, ap)
}
