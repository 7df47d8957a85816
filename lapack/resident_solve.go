package cllapack

import (
	"fmt"

	"gonum.org/v1/gonum/blas"

	clblas "github.com/gocompute/opencl/blas"
)

// Getrs solves op(A)·X = B on the device, given the LU factorization
// A = P·L·U of the n×n matrix A from Getrf: a holds L (unit lower
// triangular, below the diagonal) and U, ipiv the pivots in gonum's format
// (row i was interchanged with row ipiv[i]); b is the n×nrhs matrix B,
// which X overwrites:
//
//	A·X = B:  X = U⁻¹·L⁻¹·Pᵀ·B   (trans == blas.NoTrans),
//	Aᵀ·X = B: X = P·L⁻ᵀ·U⁻ᵀ·B   (trans == blas.Trans or blas.ConjTrans).
//
// The row interchanges and the two triangular solves are enqueued on the
// resident operations' queue, in order after the operations enqueued
// before them and after the events of wait (with trans == blas.NoTrans,
// where the interchanges come first, Getrs waits for those events on the
// host); the returned event completes when b holds X. Nothing is read
// back. A singular U gives Inf or NaN in X, as Dgetrs does. It
// returns an error for a bad argument (wrapping clblas.ErrInvalidArg or
// clblas.ErrShape: a pivot outside [0, n) among them) or a failure to
// enqueue, after which b's contents are undefined.
func Getrs[T float32 | float64](impl *Implementation, trans blas.Transpose, a *clblas.Matrix[T], ipiv []int, b *clblas.Matrix[T], wait ...*clblas.Event) (*clblas.Event, error) {
	n, err := checkSolve("Getrs", a, b)
	if err == nil && trans != blas.NoTrans && trans != blas.Trans && trans != blas.ConjTrans {
		err = fmt.Errorf("cllapack: Getrs: bad trans %q: %w", rune(trans), clblas.ErrInvalidArg)
	}
	if err == nil {
		err = checkPivots("Getrs", ipiv, n)
	}
	if err != nil {
		return nil, err
	}
	var ev *clblas.Event
	if trans == blas.NoTrans {
		// P·L·U·X = B: the interchanges first, then L, then U.
		ev, err = swapRows(impl, b, ipiv, true, wait)
		if err == nil {
			ev, err = clblas.Trsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, 1, a, b, ev)
		}
		if err == nil {
			ev, err = clblas.Trsm(blas.Left, blas.Upper, blas.NoTrans, blas.NonUnit, 1, a, b, ev)
		}
	} else {
		// Uᵀ·Lᵀ·Pᵀ·X = B: Uᵀ, then Lᵀ, then the interchanges in reverse.
		ev, err = clblas.Trsm(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, 1, a, b, wait...)
		if err == nil {
			ev, err = clblas.Trsm(blas.Left, blas.Lower, blas.Trans, blas.Unit, 1, a, b, ev)
		}
		if err == nil {
			ev, err = swapRows(impl, b, ipiv, false, nil) // after the solves, in queue order
		}
	}
	if err != nil {
		return nil, fmt.Errorf("cllapack: Getrs: %w", err)
	}
	return ev, nil
}

// Potrs solves A·X = B on the device for the symmetric positive definite
// n×n matrix A, given its Cholesky factorization from Potrf (U or L in the
// ul triangle of a); b is the n×nrhs matrix B, which X overwrites:
//
//	Uᵀ·U·X = B  (ul == blas.Upper),
//	L·Lᵀ·X = B  (ul == blas.Lower).
//
// The two triangular solves are enqueued on the resident operations' queue
// after the events of wait; the returned event completes when b holds X.
// It returns an error for a bad argument (wrapping clblas.ErrInvalidArg or
// clblas.ErrShape) or a failure to enqueue.
func Potrs[T float32 | float64](impl *Implementation, ul blas.Uplo, a *clblas.Matrix[T], b *clblas.Matrix[T], wait ...*clblas.Event) (*clblas.Event, error) {
	_, err := checkSolve("Potrs", a, b)
	if err == nil && ul != blas.Upper && ul != blas.Lower {
		err = fmt.Errorf("cllapack: Potrs: bad uplo %q: %w", rune(ul), clblas.ErrInvalidArg)
	}
	if err != nil {
		return nil, err
	}
	first, second := blas.Trans, blas.NoTrans // Uᵀ then U
	if ul == blas.Lower {
		first, second = blas.NoTrans, blas.Trans // L then Lᵀ
	}
	ev, err := clblas.Trsm(blas.Left, ul, first, blas.NonUnit, 1, a, b, wait...)
	if err == nil {
		ev, err = clblas.Trsm(blas.Left, ul, second, blas.NonUnit, 1, a, b, ev)
	}
	if err != nil {
		return nil, fmt.Errorf("cllapack: Potrs: %w", err)
	}
	return ev, nil
}

// checkSolve checks a resident solve's factor a (square) and right-hand
// sides b (as many rows), and returns their order.
func checkSolve[T float32 | float64](op string, a, b *clblas.Matrix[T]) (int, error) {
	if a == nil || b == nil {
		return 0, fmt.Errorf("cllapack: %s: nil matrix: %w", op, clblas.ErrInvalidArg)
	}
	n, c := a.Dims()
	if n != c {
		return 0, fmt.Errorf("cllapack: %s: %d×%d factor is not square: %w", op, n, c, clblas.ErrShape)
	}
	if r, _ := b.Dims(); r != n {
		return 0, fmt.Errorf("cllapack: %s: %d rows of B for a %d×%d factor: %w", op, r, n, n, clblas.ErrShape)
	}
	return n, nil
}

// checkPivots checks that ipiv holds n row numbers in [0, n).
func checkPivots(op string, ipiv []int, n int) error {
	if len(ipiv) != n {
		return fmt.Errorf("cllapack: %s: len(ipiv) = %d for a %d×%d factor: %w", op, len(ipiv), n, n, clblas.ErrInvalidArg)
	}
	for i, p := range ipiv {
		if p < 0 || p >= n {
			return fmt.Errorf("cllapack: %s: ipiv[%d] = %d is not a row of a %d×%d factor: %w", op, i, p, n, n, clblas.ErrInvalidArg)
		}
	}
	return nil
}

// swapRows enqueues the row interchanges of ipiv on the rows of b: in order (i = 0, 1, …) when forward is set,
// as Dlaswp with incX = 1 does, else in reverse order. Either way they run
// as one sequence in order on laswp, the reverse one rewritten by
// reversedPivots (a resident matrix has at least one row and column). It first waits on the host for the events of wait (a
// launch of ours cannot name a resident Event without a user event that
// outlives it); the launches then follow the operations enqueued before
// them on the in-order queue. It returns the event of the last launch.
func swapRows[T float32 | float64](impl *Implementation, b *clblas.Matrix[T], ipiv []int, forward bool, wait []*clblas.Event) (*clblas.Event, error) {
	if err := waitHost(wait); err != nil {
		return nil, err
	}
	n, cols := b.Dims()
	seq := ipiv
	if !forward {
		seq = reversedPivots(ipiv)
	}
	p, err := impl.newPivots(n)
	if err != nil {
		return nil, err
	}
	defer p.release() // OpenCL keeps it until the launches that use it end
	if err := p.upload(impl.blas.Runtime().Queue(), seq, 0, n); err != nil {
		return nil, err
	}
	ev, err := laswpOn(impl, b, p, 0, cols, 0, n, nil)
	if err != nil {
		return nil, err
	}
	return clblas.EventFromCL(ev), nil
}

// waitHost waits on the host for the events of wait (nil ones skipped),
// for the resident operations whose first command cannot take a resident
// Event as a dependency (a buffer write, or a launch of ours).
func waitHost(wait []*clblas.Event) error {
	for _, w := range wait {
		if w == nil {
			continue
		}
		if err := w.Wait(); err != nil {
			return fmt.Errorf("a dependency failed: %w", err)
		}
	}
	return nil
}

// reversedPivots is the sequence of interchanges in gonum's format
// (row i with row q[i] ≥ i, applied for i = 0, 1, …) that permutes rows
// as ipiv's interchanges applied in reverse order (i = n−1, …, 0) do.
// Applied in order, ipiv's put original row idx[r] in row r; in reverse
// they undo that, putting original row r in row idx[r], so that row i
// receives row inv[i] with inv[idx[r]] = r; q then places inv[0], inv[1],
// … in turn, each found where the earlier interchanges left it.
func reversedPivots(ipiv []int) []int {
	n := len(ipiv)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	for i, p := range ipiv {
		idx[i], idx[p] = idx[p], idx[i]
	}
	inv := make([]int, n)
	for r, i := range idx {
		inv[i] = r
	}
	cur, pos := make([]int, n), make([]int, n) // cur[r]: the row now at r; pos: its inverse
	for i := range cur {
		cur[i], pos[i] = i, i
	}
	q := make([]int, n)
	for i := range q {
		j := pos[inv[i]]
		q[i] = j
		cur[i], cur[j] = cur[j], cur[i]
		pos[cur[i]], pos[cur[j]] = i, j
	}
	return q
}
