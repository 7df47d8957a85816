package cllapack

import (
	"errors"

	"gonum.org/v1/gonum/blas"

	clblas "github.com/gocompute/opencl/blas"
)

// Dgetrf computes the LU factorization with partial pivoting of the m×n
// matrix A,
//
//	A = P·L·U,
//
// where P is a permutation, L is unit lower triangular (lower trapezoidal
// if m > n) and U upper triangular (upper trapezoidal if m < n); L and U
// overwrite A. Row i was interchanged with row ipiv[i] (zero-based, as in
// gonum); len(ipiv) must be min(m, n). It returns false, as gonum's Dgetrf
// does, if U has an exactly zero diagonal element (A is singular); the
// factorization is completed all the same.
//
// Calls with arguments gonum rejects are forwarded to gonum's Dgetrf, which
// panics with its messages; so are calls the offload policy keeps on the
// CPU, and matrices holding NaN or Inf (keepChecked): gonum's Dtrsm and
// Dgemm skip a zero multiplier where the device's products form 0·Inf,
// which is NaN.
func (impl *Implementation) Dgetrf(m, n int, a []float64, lda int, ipiv []int) (ok bool) {
	mn := min(m, n)
	valid := mn > 0 && lda >= n && len(a) >= (m-1)*lda+n && len(ipiv) == mn
	if !valid || !impl.offload(mn) {
		return impl.Implementation.Dgetrf(m, n, a, lda, ipiv)
	}
	h := impl.hostMatrix(m, n, a, lda)
	s := h.keepChecked()
	defer s.free()
	ok, err := impl.getrfDevice(h, ipiv, s)
	if errors.Is(err, errNonFinite) {
		return impl.Implementation.Dgetrf(m, n, a, lda, ipiv)
	}
	if err != nil {
		impl.fellBack("Dgetrf", err)
		s.restore(a, lda)
		return impl.Implementation.Dgetrf(m, n, a, lda, ipiv)
	}
	s.wait()
	impl.onDevice.Add(1)
	return ok
}

// getrfDevice uploads h's matrix, factorises it on the device and reads
// the factors back into it once s holds its copy.
func (impl *Implementation) getrfDevice(h *hostMatrix, ipiv []int, s *saved) (ok bool, err error) {
	defer h.done()
	d, err := h.upload()
	if err != nil {
		return false, err
	}
	ok, err = getrf(impl, d, ipiv)
	if err == nil && s != nil && !s.finite() {
		err = errNonFinite
	}
	if err == nil {
		err = h.download(d, "Dgetrf")
	}
	return ok, h.finish("Dgetrf", err, putScratch(impl, d))
}

// getrf is the LU factorization of the resident matrix d: getrfDevice,
// or getrfHost when impl.hostPanel or impl.hostLU is set.
func getrf[T float32 | float64](impl *Implementation, d *clblas.Matrix[T], ipiv []int) (ok bool, err error) {
	if impl.hostPanel || impl.hostLU {
		return getrfHost(impl, d, ipiv)
	}
	return getrfDevice(impl, d, ipiv)
}

// getrfHost is the blocked right-looking LU factorization of the resident
// matrix d with the panels on the host: each (m−j)×nb column panel is read back and factorised by
// gonum's Dgetf2, its row interchanges applied on the device to every
// column (the panel's own are then overwritten), the panel written back, and then
// the block row of U is solved with Trsm and the trailing matrix updated
// with Gemm. The update of the next panel's columns is enqueued first and
// that panel read back at once (look-ahead), so that the CPU factorises it
// while the device updates the rest. With impl.luOuter above nb the
// updates of the columns right of a column block of luOuter wait for the
// block's last panel and are then one TRSM and one GEMM with k = luOuter,
// as in getrfDevice; inside the block each panel updates the block's
// columns right of it. len(ipiv) is min(m, n).
func getrfHost[T float32 | float64](impl *Implementation, d *clblas.Matrix[T], ipiv []int) (ok bool, err error) {
	m, n := d.Dims()
	mn := min(m, n)
	piv, err := impl.newPivots(mn)
	if err != nil {
		return false, err
	}
	defer func() {
		if rerr := piv.release(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	q := impl.blas.Runtime().Queue()
	nb := min(impl.luBlock(), mn)
	outer := nb
	if impl.luOuter > nb {
		outer = impl.luOuter / nb * nb
	}
	// Two panel buffers: the CPU works on one while the next panel is read
	// into the other. A buffer's earlier Write is ahead of the read into
	// it in the queue, and the CPU writes to it only after that read.
	bufs := [2][]T{make([]T, m*nb), make([]T, m*nb)}
	var conv []float64 // float64 room for float32 panels
	var pending *clblas.Event
	ok = true
	for j, cur := 0, 0; j < mn; j, cur = j+nb, 1-cur {
		jb := min(nb, mn-j)
		p := bufs[cur][:(m-j)*jb]
		pv, err := d.View(j, j, m-j, jb)
		if err != nil {
			return false, err
		}
		if pending != nil {
			err = pending.Wait()
		} else {
			err = pv.Read(p)
		}
		if err != nil {
			return false, err
		}
		if !inFloat64(p, &conv, func(p []float64) bool { return getrfPanel(m-j, jb, p, jb, ipiv[j:j+jb]) }) {
			ok = false
		}
		for i := j; i < j+jb; i++ {
			ipiv[i] += j
		}
		// The interchanges go over every column in one launch, the
		// panel's own too (rows j… there, which the write below
		// replaces with the factorised panel).
		if err := piv.upload(q, ipiv, j, jb); err != nil {
			return false, err
		}
		if err := laswpDevice(impl, d, piv, 0, n, j, jb); err != nil {
			return false, err
		}
		if _, err := pv.Write(p); err != nil {
			return false, err
		}
		pending = nil
		if j+jb < n {
			jbn := min(nb, max(mn-j-jb, 0))
			// Inside a column block the update stops at the block's end;
			// after its last panel the columns right of it take the
			// whole block's.
			b0, end, w := j, n, jb
			if bEnd := min(j/outer*outer+outer, mn); j+jb < bEnd {
				end = bEnd
			} else {
				b0 = j / outer * outer
				w = j + jb - b0
			}
			pending, err = getrfUpdate(d, m, end, b0, w, jbn, bufs[1-cur])
			if err != nil {
				return false, err
			}
		}
	}
	// Wait for the last panel's write: its buffer may be reused or freed
	// once this returns.
	return ok, impl.blas.Runtime().Queue().Finish()
}

// getrfUpdate enqueues, for the step at row and column j with a panel jb
// wide, U12 = L11⁻¹·A12, then A22 −= L21·U12 on the next panel's jbn
// columns and the read of that panel into next, then the same update of
// the columns right of it. The event is the read's (nil when there is no
// next panel).
func getrfUpdate[T float32 | float64](d *clblas.Matrix[T], m, n, j, jb, jbn int, next []T) (*clblas.Event, error) {
	k := j + jb // first row and column of the trailing matrix
	l11, err := d.View(j, j, jb, jb)
	if err != nil {
		return nil, err
	}
	a12, err := d.View(j, k, jb, n-k)
	if err != nil {
		return nil, err
	}
	if _, err := clblas.Trsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, 1, l11, a12); err != nil {
		return nil, err
	}
	if k >= m {
		return nil, nil
	}
	l21, err := d.View(k, j, m-k, jb)
	if err != nil {
		return nil, err
	}
	var ev *clblas.Event
	if jbn > 0 {
		if err := gemmUpdate(d, l21, j, k, m-k, jb, jbn); err != nil {
			return nil, err
		}
		c1, err := d.View(k, k, m-k, jbn)
		if err != nil {
			return nil, err
		}
		if ev, err = c1.ReadAsync(next[:(m-k)*jbn]); err != nil {
			return nil, err
		}
	}
	if n-k > jbn {
		if err := gemmUpdate(d, l21, j, k+jbn, m-k, jb, n-k-jbn); err != nil {
			return nil, err
		}
	}
	return ev, nil
}

// gemmUpdate enqueues A[k0:k0+r, c0:c0+c] −= L21·A[j:j+jb, c0:c0+c], where
// k0 = j+jb is the first trailing row.
func gemmUpdate[T float32 | float64](d, l21 *clblas.Matrix[T], j, c0, r, jb, c int) error {
	u, err := d.View(j, c0, jb, c)
	if err != nil {
		return err
	}
	cv, err := d.View(j+jb, c0, r, c)
	if err != nil {
		return err
	}
	_, err = clblas.Gemm(blas.NoTrans, blas.NoTrans, -1, l21, u, 1, cv)
	return err
}
