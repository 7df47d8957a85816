package cllapack

import (
	"fmt"

	"gonum.org/v1/gonum/blas"

	clblas "github.com/gocompute/opencl/blas"
)

// minSolveRHS is the number of right-hand sides from which Auto sends a
// triangular solve of order at least the crossover to the device: with
// fewer, the solve computes on each element of A about as many times as
// there are right-hand sides, and uploading A costs more than that.
const minSolveRHS = 64

// offloadSolve reports whether a solve of order n with nrhs right-hand
// sides goes to the device.
func (impl *Implementation) offloadSolve(n, nrhs int) bool {
	switch impl.policy {
	case clblas.Always:
		return true
	case clblas.Auto:
		return n >= impl.crossover && nrhs >= minSolveRHS
	}
	return false
}

// trsmStep is one solve op(A)·X = B, X overwriting B, with the ul triangle
// of A.
type trsmStep struct {
	ul blas.Uplo
	t  blas.Transpose
	d  blas.Diag
}

// validSolve reports whether the arguments of a solve are ones gonum
// accepts with a non-empty result; any others are forwarded to gonum.
func validSolve(n, nrhs int, a []float64, lda int, b []float64, ldb int) bool {
	return n > 0 && nrhs > 0 && lda >= n && ldb >= nrhs &&
		len(a) >= (n-1)*lda+n && len(b) >= (n-1)*ldb+nrhs
}

// solveDevice uploads the n×n A and the n×nrhs B, enqueues the steps on
// them and reads X back into b once s holds b's copy.
func (impl *Implementation) solveDevice(n, nrhs int, a []float64, lda int, b []float64, ldb int, s *saved, steps ...trsmStep) (err error) {
	da, err := clblas.NewMatrixFromStrided(impl.blas, n, n, lda, a)
	if err != nil {
		return err
	}
	defer func() {
		if rerr := da.Release(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	db, err := clblas.NewMatrixFromStrided(impl.blas, n, nrhs, ldb, b)
	if err != nil {
		return err
	}
	defer func() {
		if rerr := db.Release(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	for _, st := range steps {
		if _, err := clblas.Trsm(blas.Left, st.ul, st.t, st.d, 1, da, db); err != nil {
			return err
		}
	}
	s.wait()
	if err := db.ReadStrided(b, ldb); err != nil {
		return fmt.Errorf("cllapack: reading the solution: %w", err)
	}
	return nil
}

// Dpotrs solves A·X = B for a symmetric positive definite n×n A given its
// Cholesky factorization from Dpotrf (U or L in the ul triangle of a). B is
// n×nrhs; X overwrites it.
//
// Calls with arguments gonum rejects, empty ones and those the offload
// policy keeps on the CPU are forwarded to gonum's Dpotrs.
func (impl *Implementation) Dpotrs(ul blas.Uplo, n, nrhs int, a []float64, lda int, b []float64, ldb int) {
	if ul != blas.Upper && ul != blas.Lower || !validSolve(n, nrhs, a, lda, b, ldb) || !impl.offloadSolve(n, nrhs) {
		impl.Implementation.Dpotrs(ul, n, nrhs, a, lda, b, ldb)
		return
	}
	// Uᵀ·U·X = B or L·Lᵀ·X = B: two triangular solves with one factor.
	first, second := trsmStep{ul, blas.Trans, blas.NonUnit}, trsmStep{ul, blas.NoTrans, blas.NonUnit}
	if ul == blas.Lower {
		first, second = second, first
	}
	s := saveAsync(n, nrhs, b, ldb)
	if err := impl.solveDevice(n, nrhs, a, lda, b, ldb, s, first, second); err != nil {
		impl.fellBack("Dpotrs", err)
		s.restore(b, ldb)
		impl.Implementation.Dpotrs(ul, n, nrhs, a, lda, b, ldb)
		return
	}
	s.wait()
	impl.onDevice.Add(1)
}

// Dgetrs solves A·X = B (trans == blas.NoTrans) or Aᵀ·X = B (Trans or
// ConjTrans) for an n×n A given its LU factorization and pivots from
// Dgetrf. B is n×nrhs; X overwrites it. The row interchanges of B are done
// on the host, the triangular solves on the device.
//
// Calls with arguments gonum rejects, empty ones and those the offload
// policy keeps on the CPU are forwarded to gonum's Dgetrs.
func (impl *Implementation) Dgetrs(trans blas.Transpose, n, nrhs int, a []float64, lda int, ipiv []int, b []float64, ldb int) {
	okTrans := trans == blas.NoTrans || trans == blas.Trans || trans == blas.ConjTrans
	if !okTrans || !validSolve(n, nrhs, a, lda, b, ldb) || len(ipiv) != n || !impl.offloadSolve(n, nrhs) {
		impl.Implementation.Dgetrs(trans, n, nrhs, a, lda, ipiv, b, ldb)
		return
	}
	s := saveAsync(n, nrhs, b, ldb)
	var err error
	if trans == blas.NoTrans {
		// P·L·U·X = B: X = U⁻¹·L⁻¹·Pᵀ·B. The interchanges wait for the
		// copy, which must hold the original B.
		s.wait()
		impl.Dlaswp(nrhs, b, ldb, 0, n-1, ipiv, 1)
		err = impl.solveDevice(n, nrhs, a, lda, b, ldb, s,
			trsmStep{blas.Lower, blas.NoTrans, blas.Unit},
			trsmStep{blas.Upper, blas.NoTrans, blas.NonUnit})
	} else {
		// Uᵀ·Lᵀ·Pᵀ·X = B: X = P·L⁻ᵀ·U⁻ᵀ·B.
		err = impl.solveDevice(n, nrhs, a, lda, b, ldb, s,
			trsmStep{blas.Upper, blas.Trans, blas.NonUnit},
			trsmStep{blas.Lower, blas.Trans, blas.Unit})
		if err == nil {
			impl.Dlaswp(nrhs, b, ldb, 0, n-1, ipiv, -1)
		}
	}
	if err != nil {
		impl.fellBack("Dgetrs", err)
		s.restore(b, ldb)
		impl.Implementation.Dgetrs(trans, n, nrhs, a, lda, ipiv, b, ldb)
		return
	}
	impl.onDevice.Add(1)
}

// Dtrtrs solves op(A)·X = B for a triangular n×n A (the ul triangle of a,
// with a unit diagonal if d == blas.Unit). B is n×nrhs; X overwrites it. It
// returns false, leaving B alone, if d == blas.NonUnit and A has an exactly
// zero diagonal element, as gonum's Dtrtrs does.
//
// Calls with arguments gonum rejects, empty ones and those the offload
// policy keeps on the CPU are forwarded to gonum's Dtrtrs.
func (impl *Implementation) Dtrtrs(ul blas.Uplo, trans blas.Transpose, d blas.Diag, n, nrhs int, a []float64, lda int, b []float64, ldb int) (ok bool) {
	okArgs := (ul == blas.Upper || ul == blas.Lower) &&
		(trans == blas.NoTrans || trans == blas.Trans || trans == blas.ConjTrans) &&
		(d == blas.NonUnit || d == blas.Unit)
	if !okArgs || !validSolve(n, nrhs, a, lda, b, ldb) || !impl.offloadSolve(n, nrhs) {
		return impl.Implementation.Dtrtrs(ul, trans, d, n, nrhs, a, lda, b, ldb)
	}
	if d == blas.NonUnit {
		for i := range n {
			if a[i*lda+i] == 0 {
				return false
			}
		}
	}
	if trans == blas.ConjTrans {
		trans = blas.Trans
	}
	s := saveAsync(n, nrhs, b, ldb)
	if err := impl.solveDevice(n, nrhs, a, lda, b, ldb, s, trsmStep{ul, trans, d}); err != nil {
		impl.fellBack("Dtrtrs", err)
		s.restore(b, ldb)
		return impl.Implementation.Dtrtrs(ul, trans, d, n, nrhs, a, lda, b, ldb)
	}
	s.wait()
	impl.onDevice.Add(1)
	return true
}
