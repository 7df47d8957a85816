package cllapack

import (
	"fmt"

	"gonum.org/v1/gonum/blas"

	clblas "github.com/gocompute/opencl/blas"
)

// Dpotrf computes the Cholesky factorization of the symmetric positive
// definite n×n matrix A held in the ul triangle of a:
//
//	A = Uᵀ·U  if ul == blas.Upper,
//	A = L·Lᵀ  if ul == blas.Lower,
//
// overwriting that triangle with U or L; the other triangle is not
// referenced. It returns false, as gonum's Dpotrf does, if A is not positive
// definite; the factor is then incomplete.
//
// Calls with arguments gonum rejects are forwarded to gonum's Dpotrf, which
// panics with its messages; so are calls the offload policy keeps on the
// CPU.
func (impl *Implementation) Dpotrf(ul blas.Uplo, n int, a []float64, lda int) (ok bool) {
	valid := (ul == blas.Upper || ul == blas.Lower) && n > 0 && lda >= n && len(a) >= (n-1)*lda+n
	if !valid || !impl.offload(n) {
		return impl.Implementation.Dpotrf(ul, n, a, lda)
	}
	s := saveAsync(n, n, a, lda)
	ok, err := impl.potrfDevice(ul, n, a, lda, s)
	if err != nil {
		impl.fellBack("Dpotrf", err)
		s.restore(a, lda)
		return impl.Implementation.Dpotrf(ul, n, a, lda)
	}
	s.wait()
	impl.onDevice.Add(1)
	return ok
}

// potrfDevice is the blocked right-looking Cholesky factorization of the
// resident matrix: each nb×nb diagonal block is read back and factorised by
// gonum's Dpotf2, written back, and then the block row (Upper) or column
// (Lower) beside it is solved with Trsm and the trailing matrix updated
// with Syrk. a is only written by the final read, once s holds its copy.
func (impl *Implementation) potrfDevice(ul blas.Uplo, n int, a []float64, lda int, s *saved) (ok bool, err error) {
	d, err := clblas.NewMatrixFromStrided(impl.blas, n, n, lda, a)
	if err != nil {
		return false, err
	}
	defer func() {
		if rerr := d.Release(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	nb := min(impl.nb, n)
	panel := make([]float64, nb*nb)
	for j := 0; j < n; j += nb {
		jb := min(nb, n-j)
		diag, err := d.View(j, j, jb, jb)
		if err != nil {
			return false, err
		}
		// Read waits for every update enqueued before it, so the panel
		// buffer is free again here.
		if err := diag.Read(panel[:jb*jb]); err != nil {
			return false, err
		}
		if !impl.Dpotf2(ul, jb, panel, jb) {
			// Leave the factor as far as it got, as gonum does: the
			// finished blocks from the device and this block as
			// Dpotf2 left it.
			s.wait()
			if err := d.ReadStrided(a, lda); err != nil {
				return false, err
			}
			for i := range jb {
				copy(a[(j+i)*lda+j:(j+i)*lda+j+jb], panel[i*jb:(i+1)*jb])
			}
			return false, nil
		}
		if _, err := diag.Write(panel[:jb*jb]); err != nil {
			return false, err
		}
		if j+jb < n {
			if err := potrfUpdate(d, diag, ul, n, j, jb); err != nil {
				return false, err
			}
		}
	}
	s.wait()
	if err := d.ReadStrided(a, lda); err != nil {
		return false, fmt.Errorf("cllapack: Dpotrf: reading the factor: %w", err)
	}
	return true, nil
}

// potrfUpdate enqueues the solve of the off-diagonal block of step j and
// the update of the trailing matrix.
func potrfUpdate(d, diag *clblas.Matrix[float64], ul blas.Uplo, n, j, jb int) error {
	r := n - j - jb
	a22, err := d.View(j+jb, j+jb, r, r)
	if err != nil {
		return err
	}
	if ul == blas.Upper {
		// U12 = U11⁻ᵀ·A12, A22 −= U12ᵀ·U12.
		a12, err := d.View(j, j+jb, jb, r)
		if err != nil {
			return err
		}
		if _, err := clblas.Trsm(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, 1, diag, a12); err != nil {
			return err
		}
		_, err = clblas.Syrk(blas.Upper, blas.Trans, -1, a12, 1, a22)
		return err
	}
	// L21 = A21·L11⁻ᵀ, A22 −= L21·L21ᵀ.
	a21, err := d.View(j+jb, j, r, jb)
	if err != nil {
		return err
	}
	if _, err := clblas.Trsm(blas.Right, blas.Lower, blas.Trans, blas.NonUnit, 1, diag, a21); err != nil {
		return err
	}
	_, err = clblas.Syrk(blas.Lower, blas.NoTrans, -1, a21, 1, a22)
	return err
}
