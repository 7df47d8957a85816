package cllapack

import (
	"fmt"

	"gonum.org/v1/gonum/blas"

	clblas "github.com/gocompute/opencl/blas"
)

// Orgqr overwrites the m×n matrix a on the device (m ≥ n) with the first
// n columns of the orthogonal factor Q = H(0)·H(1)···H(k−1) of a QR
// factorization from Geqrf, as Dorgqr does: on entry a holds the k =
// len(tau) ≤ n reflectors below its diagonal, as Geqrf leaves them (what
// lies on and above the diagonal, and in the columns from k on, is not
// read), and tau their factors. With k == 0, Q is the identity.
//
// Q·[I; 0] is formed in place, with no scratch copy of a: the blocks of
// reflectors go last to first, and each is first copied out of a into V
// and T on the device (as Ormqr forms them); then its columns of a (for
// the last block, the first to go, also those from k on) are set to the
// identity's on the device, and the block is applied from the left to the
// rows and columns of a from its first column i on. The columns before i still
// hold the identity's there, which the block leaves alone, and the rows
// before i of the columns from i on are zero, which it does not touch,
// so no product is spent on them. The commands follow those enqueued
// before them on the in-order queue, after the events of wait (waited for
// on the host: the first command is a write); the returned event
// completes when a holds Q. It returns an error for a bad argument
// (wrapping clblas.ErrInvalidArg or clblas.ErrShape) or a failure to
// enqueue, after which a's contents are undefined.
func Orgqr[T float32 | float64](impl *Implementation, a *clblas.Matrix[T], tau []T, wait ...*clblas.Event) (*clblas.Event, error) {
	if a == nil {
		return nil, fmt.Errorf("cllapack: Orgqr: nil matrix: %w", clblas.ErrInvalidArg)
	}
	m, n := a.Dims()
	if n > m {
		return nil, fmt.Errorf("cllapack: Orgqr: %d×%d matrix is wider than tall: %w", m, n, clblas.ErrShape)
	}
	if len(tau) > n {
		return nil, fmt.Errorf("cllapack: Orgqr: %d reflectors in a %d×%d matrix: %w", len(tau), m, n, clblas.ErrInvalidArg)
	}
	err := waitHost(wait)
	var ev *clblas.Event
	if err == nil {
		ev, err = orgqrResident(impl, a, tau)
	}
	if err != nil {
		return nil, fmt.Errorf("cllapack: Orgqr: %w", err)
	}
	return ev, nil
}

// orgqrResident is Orgqr after its checks.
func orgqrResident[T float32 | float64](impl *Implementation, a *clblas.Matrix[T], tau []T) (ev *clblas.Event, err error) {
	m, n := a.Dims()
	k := len(tau)
	if k == 0 {
		return identityColumns(a, 0, n)
	}
	nb := min(impl.nb, k)
	r, err := newOrmqrRun[T](impl, blas.Left, m, m, n, nb)
	defer func() {
		if rerr := r.release(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	if err != nil {
		return nil, err
	}
	hi := n // columns hi… hold Q's already
	for _, i := range qrBlocks(k, nb, blas.Left, blas.NoTrans) {
		v, t, err := r.reflector(a, tau, i, min(nb, k-i))
		if err != nil {
			return nil, err
		}
		// Queued after the commands that copied the reflectors out.
		if err := eyeColumns(impl, a, i, hi); err != nil {
			return nil, err
		}
		hi = i
		cv, err := a.View(i, i, m-i, n-i)
		if err != nil {
			return nil, err
		}
		if ev, err = r.apply(blas.Left, blas.NoTrans, v, t, cv); err != nil {
			return nil, err
		}
	}
	return ev, nil
}

// eyeColumns writes columns lo…hi−1 of the identity into those of a on
// the device (eye_cols), on the resident operations' queue.
func eyeColumns[T float32 | float64](impl *Implementation, a *clblas.Matrix[T], lo, hi int) error {
	m, _ := a.Dims()
	cols, err := a.View(0, lo, m, hi-lo)
	if err != nil {
		return err
	}
	buf, off, err := cols.Buffer()
	if err != nil {
		return err
	}
	return launch[T](impl, "eye_cols", []int{hi - lo, m}, elemLocal, int32(m), int32(hi-lo),
		buf, int64(off), int32(cols.Stride()), int32(lo))
}

// identityColumns writes columns lo…hi−1 of the identity into those of a
// from the host, returning the write's event (Orgqr with no reflectors,
// whose result is this write alone).
func identityColumns[T float32 | float64](a *clblas.Matrix[T], lo, hi int) (*clblas.Event, error) {
	m, _ := a.Dims()
	cols, err := a.View(0, lo, m, hi-lo)
	if err != nil {
		return nil, err
	}
	eye := make([]T, m*(hi-lo))
	for j := range hi - lo {
		eye[(lo+j)*(hi-lo)+j] = 1
	}
	return cols.Write(eye)
}
