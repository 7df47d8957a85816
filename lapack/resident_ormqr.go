package cllapack

import (
	"fmt"

	"gonum.org/v1/gonum/blas"

	clblas "github.com/gocompute/opencl/blas"
)

// Ormqr multiplies the m×n matrix c on the device by the orthogonal
// factor Q = H(0)·H(1)···H(k−1) of a QR factorization from Geqrf, or by
// Qᵀ, from either side:
//
//	C = Q·C   side == blas.Left,  trans == blas.NoTrans,
//	C = Qᵀ·C  side == blas.Left,  trans == blas.Trans or blas.ConjTrans,
//	C = C·Q   side == blas.Right, trans == blas.NoTrans,
//	C = C·Qᵀ  side == blas.Right, trans == blas.Trans or blas.ConjTrans.
//
// a holds the reflectors below its diagonal, as Geqrf leaves them (m rows
// for blas.Left, n for blas.Right, at least k columns; what lies on and
// above the diagonal is not read), and tau their k = len(tau) factors, k
// no more than a's rows. Least squares then runs on the device: Qᵀ·B by
// Ormqr, then the top rows by clblas.Trsm with R (see the example). Q
// itself is Orgqr's.
//
// Each block of reflectors is formed on the device as explicit columns V
// and its triangular factor T (from VᵀV, with tau on T's diagonal, as
// geqrfOnDevice forms it), and applied as C −= V·(op(T)·(Vᵀ·C)) from the
// left or C −= ((C·V)·op(T))·Vᵀ from the right, the block nearest C first
// (see qrBlocks). The commands follow those enqueued before them on the
// in-order queue, after the events of wait (waited for on the host: the
// first command is a write); the returned event completes when c holds
// the product. It returns an error for a bad argument (wrapping
// clblas.ErrInvalidArg or clblas.ErrShape) or a failure to enqueue, after
// which c's contents are undefined.
func Ormqr[T float32 | float64](impl *Implementation, side blas.Side, trans blas.Transpose, a *clblas.Matrix[T], tau []T, c *clblas.Matrix[T], wait ...*clblas.Event) (*clblas.Event, error) {
	if err := checkOrmqr(side, trans, a, tau, c); err != nil {
		return nil, err
	}
	err := waitHost(wait)
	var ev *clblas.Event
	if err == nil {
		ev, err = ormqrResident(impl, side, trans, a, tau, c)
	}
	if err != nil {
		return nil, fmt.Errorf("cllapack: Ormqr: %w", err)
	}
	return ev, nil
}

// checkOrmqr checks Ormqr's arguments.
func checkOrmqr[T float32 | float64](side blas.Side, trans blas.Transpose, a *clblas.Matrix[T], tau []T, c *clblas.Matrix[T]) error {
	if side != blas.Left && side != blas.Right {
		return fmt.Errorf("cllapack: Ormqr: bad side %q: %w", rune(side), clblas.ErrInvalidArg)
	}
	if trans != blas.NoTrans && trans != blas.Trans && trans != blas.ConjTrans {
		return fmt.Errorf("cllapack: Ormqr: bad trans %q: %w", rune(trans), clblas.ErrInvalidArg)
	}
	if a == nil || c == nil {
		return fmt.Errorf("cllapack: Ormqr: nil matrix: %w", clblas.ErrInvalidArg)
	}
	nq, ka := a.Dims()
	mc, nc := c.Dims()
	if side == blas.Left && mc != nq {
		return fmt.Errorf("cllapack: Ormqr: %d rows of C for %d rows of reflectors: %w", mc, nq, clblas.ErrShape)
	}
	if side == blas.Right && nc != nq {
		return fmt.Errorf("cllapack: Ormqr: %d columns of C for %d rows of reflectors: %w", nc, nq, clblas.ErrShape)
	}
	if k := len(tau); k == 0 || k > min(nq, ka) {
		return fmt.Errorf("cllapack: Ormqr: %d reflectors in a %d×%d matrix: %w", k, nq, ka, clblas.ErrInvalidArg)
	}
	return nil
}

// ormqrRun is the device scratch of Ormqr and Orgqr: V (rows of a × nb),
// VᵀV and T (nb×nb), and W and W2 for the products with C (from the left
// nb×n, from the right m×nb; W2 at least nb×nb: larft_t's scratch).
type ormqrRun[T float32 | float64] struct {
	impl                *Implementation
	dv, dg, dt, dw, dw2 *clblas.Matrix[T]
}

// newOrmqrRun allocates the scratch for blocks of nb of the reflectors of
// a (ma rows) applied to an m×n matrix from side. The caller releases it,
// also after an error.
func newOrmqrRun[T float32 | float64](impl *Implementation, side blas.Side, ma, m, n, nb int) (*ormqrRun[T], error) {
	r := &ormqrRun[T]{impl: impl}
	wr, wc := nb, n
	if side == blas.Right {
		wr, wc = m, nb
	}
	for _, s := range []struct {
		p          **clblas.Matrix[T]
		rows, cols int
	}{{&r.dv, ma, nb}, {&r.dg, nb, nb}, {&r.dt, nb, nb}, {&r.dw, wr, wc}, {&r.dw2, max(wr, nb), max(wc, nb)}} {
		var err error
		if *s.p, err = clblas.NewMatrix[T](impl.blas, s.rows, s.cols); err != nil {
			return r, err
		}
	}
	return r, nil
}

// release releases the scratch allocated so far.
func (r *ormqrRun[T]) release() error {
	var ms []*clblas.Matrix[T]
	for _, m := range []*clblas.Matrix[T]{r.dv, r.dg, r.dt, r.dw, r.dw2} {
		if m != nil {
			ms = append(ms, m)
		}
	}
	return releaseAll(ms...)
}

// ormqrResident is Ormqr after its checks.
func ormqrResident[T float32 | float64](impl *Implementation, side blas.Side, trans blas.Transpose, a *clblas.Matrix[T], tau []T, c *clblas.Matrix[T]) (ev *clblas.Event, err error) {
	ma, _ := a.Dims()
	m, n := c.Dims()
	k := len(tau)
	nb := min(impl.nb, k)
	r, err := newOrmqrRun[T](impl, side, ma, m, n, nb)
	defer func() {
		if rerr := r.release(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	if err != nil {
		return nil, err
	}
	tT := blas.Trans
	if trans == blas.NoTrans {
		tT = blas.NoTrans
	}
	for _, i := range qrBlocks(k, nb, side, trans) {
		v, t, err := r.reflector(a, tau, i, min(nb, k-i))
		if err != nil {
			return nil, err
		}
		// H touches the rows (from the left) or columns (from the right)
		// of C from i on.
		var cv *clblas.Matrix[T]
		if side == blas.Left {
			cv, err = c.View(i, 0, m-i, n)
		} else {
			cv, err = c.View(0, i, m, n-i)
		}
		if err != nil {
			return nil, err
		}
		if ev, err = r.apply(side, tT, v, t, cv); err != nil {
			return nil, err
		}
	}
	return ev, nil
}

// reflector forms the block of the ib reflectors from column i of a as V
// and T, views of the scratch.
func (r *ormqrRun[T]) reflector(a *clblas.Matrix[T], tau []T, i, ib int) (v, t *clblas.Matrix[T], err error) {
	if v, err = r.formV(a, i, ib); err != nil {
		return nil, nil, err
	}
	if t, err = r.formT(v, tau[i:i+ib]); err != nil {
		return nil, nil, err
	}
	return v, t, nil
}

// apply applies the block reflector H = I − V·T·Vᵀ (tT == blas.NoTrans)
// or Hᵀ to cv from side, returning the last command's event:
//
//	H·C = C − V·(T·(Vᵀ·C)),  C·H = C − ((C·V)·T)·Vᵀ.
func (r *ormqrRun[T]) apply(side blas.Side, tT blas.Transpose, v, t, cv *clblas.Matrix[T]) (*clblas.Event, error) {
	m, n := cv.Dims()
	ib, _ := t.Dims()
	wr, wc := ib, n
	if side == blas.Right {
		wr, wc = m, ib
	}
	w, err := r.dw.View(0, 0, wr, wc)
	if err != nil {
		return nil, err
	}
	w2, err := r.dw2.View(0, 0, wr, wc)
	if err != nil {
		return nil, err
	}
	if side == blas.Left {
		if _, err := clblas.Gemm(blas.Trans, blas.NoTrans, 1, v, cv, 0, w); err != nil {
			return nil, err
		}
		if _, err := clblas.Gemm(tT, blas.NoTrans, 1, t, w, 0, w2); err != nil {
			return nil, err
		}
		return clblas.Gemm(blas.NoTrans, blas.NoTrans, -1, v, w2, 1, cv)
	}
	if _, err := clblas.Gemm(blas.NoTrans, blas.NoTrans, 1, cv, v, 0, w); err != nil {
		return nil, err
	}
	if _, err := clblas.Gemm(blas.NoTrans, tT, 1, w, t, 0, w2); err != nil {
		return nil, err
	}
	return clblas.Gemm(blas.NoTrans, blas.Trans, -1, w2, v, 1, cv)
}

// formV writes the ib reflectors from column i of a as the explicit
// (m−i)×ib columns of V (a view of dv): the unit lower triangle on top is
// the identity multiplied by a's strictly lower part (Trmm with a unit
// diagonal reads nothing else), the rows below it a's own, copied by a
// product with the identity.
func (r *ormqrRun[T]) formV(a *clblas.Matrix[T], i, ib int) (*clblas.Matrix[T], error) {
	m, _ := a.Dims()
	mp := m - i
	v, err := r.dv.View(0, 0, mp, ib)
	if err != nil {
		return nil, err
	}
	top, err := r.dv.View(0, 0, ib, ib)
	if err != nil {
		return nil, err
	}
	if _, err := top.Write(identity[T](ib)); err != nil {
		return nil, err
	}
	a1, err := a.View(i, i, ib, ib)
	if err != nil {
		return nil, err
	}
	if _, err := clblas.Trmm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, 1, a1, top); err != nil {
		return nil, err
	}
	if mp == ib {
		return v, nil
	}
	a2, err := a.View(i+ib, i, mp-ib, ib)
	if err != nil {
		return nil, err
	}
	bottom, err := r.dv.View(ib, 0, mp-ib, ib)
	if err != nil {
		return nil, err
	}
	eye, err := r.dg.View(0, 0, ib, ib) // the Gram matrix's place, free until formT
	if err != nil {
		return nil, err
	}
	if _, err := eye.Write(identity[T](ib)); err != nil {
		return nil, err
	}
	if _, err := clblas.Gemm(blas.NoTrans, blas.NoTrans, 1, a2, eye, 0, bottom); err != nil {
		return nil, err
	}
	return v, nil
}

// formT forms the block reflector's T (a view of dt) from G = VᵀV and the
// factors tau on its diagonal, by larft_t (each reflector its own leaf).
func (r *ormqrRun[T]) formT(v *clblas.Matrix[T], tau []T) (*clblas.Matrix[T], error) {
	ib := len(tau)
	g, err := r.dg.View(0, 0, ib, ib)
	if err != nil {
		return nil, err
	}
	if err := gemm(r.impl, blas.Trans, blas.NoTrans, 1, v, v, 0, g); err != nil {
		return nil, err
	}
	t, err := r.dt.View(0, 0, ib, ib)
	if err != nil {
		return nil, err
	}
	diag := make([]T, ib*ib)
	for j, x := range tau {
		diag[j*ib+j] = x
	}
	if _, err := t.Write(diag); err != nil {
		return nil, err
	}
	gb, goff, err := g.Buffer()
	if err != nil {
		return nil, err
	}
	tb, toff, err := t.Buffer()
	if err != nil {
		return nil, err
	}
	yb, yoff, err := r.dw2.Buffer()
	if err != nil {
		return nil, err
	}
	err = launch[T](r.impl, "larft_t", []int{potfWG}, []int{potfWG}, int32(ib), int32(1),
		gb, int64(goff), int32(g.Stride()), tb, int64(toff), int32(t.Stride()), yb, int64(yoff), int32(r.dw2.Stride()))
	return t, err
}

// identity is the n×n identity, row-major.
func identity[T float32 | float64](n int) []T {
	eye := make([]T, n*n)
	for i := range n {
		eye[i*n+i] = 1
	}
	return eye
}
