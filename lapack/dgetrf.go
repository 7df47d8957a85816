package cllapack

import (
	"fmt"

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
// CPU.
func (impl *Implementation) Dgetrf(m, n int, a []float64, lda int, ipiv []int) (ok bool) {
	mn := min(m, n)
	valid := mn > 0 && lda >= n && len(a) >= (m-1)*lda+n && len(ipiv) == mn
	if !valid || !impl.offload(mn) {
		return impl.Implementation.Dgetrf(m, n, a, lda, ipiv)
	}
	s := saveAsync(m, n, a, lda)
	ok, err := impl.getrfDevice(m, n, a, lda, ipiv, s)
	if err != nil {
		impl.fellBack("Dgetrf", err)
		s.restore(a, lda)
		return impl.Implementation.Dgetrf(m, n, a, lda, ipiv)
	}
	s.wait()
	impl.onDevice.Add(1)
	return ok
}

// getrfDevice is the blocked right-looking LU factorization of the
// resident matrix: each (m−j)×nb column panel is read back and factorised
// by gonum's Dgetf2, written back, its row interchanges applied on the
// device (one laswp launch a side) to the columns left and right of it, and then the block row of U
// is solved with Trsm and the trailing matrix updated with Gemm. a is only
// written by the final read, once s holds its copy.
func (impl *Implementation) getrfDevice(m, n int, a []float64, lda int, ipiv []int, s *saved) (ok bool, err error) {
	d, err := clblas.NewMatrixFromStrided(impl.blas, m, n, lda, a)
	if err != nil {
		return false, err
	}
	defer func() {
		if rerr := d.Release(); rerr != nil && err == nil {
			err = rerr
		}
	}()
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
	nb := min(impl.nb, mn)
	panel := make([]float64, m*nb)
	ok = true
	for j := 0; j < mn; j += nb {
		jb := min(nb, mn-j)
		pv, err := d.View(j, j, m-j, jb)
		if err != nil {
			return false, err
		}
		// Read waits for every update enqueued before it, so the panel
		// buffer is free again here.
		p := panel[:(m-j)*jb]
		if err := pv.Read(p); err != nil {
			return false, err
		}
		if !impl.Dgetf2(m-j, jb, p, jb, ipiv[j:j+jb]) {
			ok = false
		}
		for i := j; i < j+jb; i++ {
			ipiv[i] += j
		}
		if _, err := pv.Write(p); err != nil {
			return false, err
		}
		if err := piv.upload(q, ipiv, j, jb); err != nil {
			return false, err
		}
		if err := impl.laswpDevice(d, piv, 0, j, j, jb); err != nil {
			return false, err
		}
		if j+jb < n {
			if err := impl.laswpDevice(d, piv, j+jb, n-j-jb, j, jb); err != nil {
				return false, err
			}
			if err := getrfUpdate(d, m, n, j, jb); err != nil {
				return false, err
			}
		}
	}
	s.wait()
	if err := d.ReadStrided(a, lda); err != nil {
		return false, fmt.Errorf("cllapack: Dgetrf: reading the factors: %w", err)
	}
	return ok, nil
}

// getrfUpdate enqueues U12 = L11⁻¹·A12 and A22 −= L21·U12 for the step at
// row and column j with a panel jb wide.
func getrfUpdate(d *clblas.Matrix[float64], m, n, j, jb int) error {
	l11, err := d.View(j, j, jb, jb)
	if err != nil {
		return err
	}
	a12, err := d.View(j, j+jb, jb, n-j-jb)
	if err != nil {
		return err
	}
	if _, err := clblas.Trsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, 1, l11, a12); err != nil {
		return err
	}
	if j+jb >= m {
		return nil
	}
	l21, err := d.View(j+jb, j, m-j-jb, jb)
	if err != nil {
		return err
	}
	a22, err := d.View(j+jb, j+jb, m-j-jb, n-j-jb)
	if err != nil {
		return err
	}
	_, err = clblas.Gemm(blas.NoTrans, blas.NoTrans, -1, l21, a12, 1, a22)
	return err
}
