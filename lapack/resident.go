package cllapack

import (
	"fmt"

	"gonum.org/v1/gonum/blas"

	clblas "github.com/gocompute/opencl/blas"
)

// Potrf computes in place the Cholesky factorization of the symmetric
// positive definite n×n matrix A held in the ul triangle of a, a float32 or
// float64 matrix in the device memory of impl's BLAS implementation:
//
//	A = Uᵀ·U  if ul == blas.Upper,
//	A = L·Lᵀ  if ul == blas.Lower.
//
// Every step runs on the device (see potrf); only whether A was positive
// definite is read back, at the end. It returns ok == false, as Dpotrf
// does, if A is not positive definite (the factor is then complete up to
// the column that failed; the rest of the triangle is left as the updates
// before it made it), and an error for a bad
// argument (wrapping clblas.ErrInvalidArg or clblas.ErrShape) or a device
// failure, after which a's contents are undefined. It returns when the
// factorization is done.
func Potrf[T float32 | float64](impl *Implementation, ul blas.Uplo, a *clblas.Matrix[T]) (ok bool, err error) {
	if ul != blas.Upper && ul != blas.Lower {
		return false, fmt.Errorf("cllapack: Potrf: bad uplo %q: %w", rune(ul), clblas.ErrInvalidArg)
	}
	if a == nil {
		return false, fmt.Errorf("cllapack: Potrf: nil matrix: %w", clblas.ErrInvalidArg)
	}
	r, c := a.Dims()
	if r != c {
		return false, fmt.Errorf("cllapack: Potrf: %d×%d matrix is not square: %w", r, c, clblas.ErrShape)
	}
	if r == 0 {
		return true, nil
	}
	ok, err = potrf(impl, ul, a)
	if err != nil {
		return false, fmt.Errorf("cllapack: Potrf: %w", err)
	}
	return ok, nil
}

// Getrf computes in place the LU factorization with partial pivoting,
// A = P·L·U, of the m×n float32 or float64 matrix a in the device memory
// of impl's BLAS implementation, with the pivots in gonum's format in ipiv
// (len(ipiv) == min(m, n)). Every step, the panels included, runs on the
// device (see getrfDevice); only the pivots are read back, at the end. It
// returns ok == false, as Dgetrf does, if U has an exactly zero diagonal
// element (the factorization is completed all the same), and an error for a
// bad argument (wrapping clblas.ErrInvalidArg) or a device failure, after
// which a's contents are undefined. It returns when the factorization is
// done.
func Getrf[T float32 | float64](impl *Implementation, a *clblas.Matrix[T], ipiv []int) (ok bool, err error) {
	if a == nil {
		return false, fmt.Errorf("cllapack: Getrf: nil matrix: %w", clblas.ErrInvalidArg)
	}
	m, n := a.Dims()
	if len(ipiv) != min(m, n) {
		return false, fmt.Errorf("cllapack: Getrf: len(ipiv) = %d for a %d×%d matrix: %w", len(ipiv), m, n, clblas.ErrInvalidArg)
	}
	if min(m, n) == 0 {
		return true, nil
	}
	ok, err = getrf(impl, a, ipiv)
	if err != nil {
		return false, fmt.Errorf("cllapack: Getrf: %w", err)
	}
	return ok, nil
}

// Geqrf computes in place the QR factorization A = Q·R of the m×n float32
// or float64 matrix a in the device memory of impl's BLAS implementation,
// stored as Dgeqrf stores it (R on and above the diagonal, the reflectors
// below it, their factors in tau, len(tau) == min(m, n)). Every step, the
// panels included, runs on the device (see geqrfOnDevice); only tau is
// read back, at the end. It returns an error for a bad argument (wrapping
// clblas.ErrInvalidArg) or a device failure, after which a's contents are
// undefined. It returns when the factorization is done.
//
// The panel kernels form products of unscaled columns, which overflow or
// underflow for elements beyond about 1e±150 in float64 (1e±19 in
// float32) where gonum's reflectors do not. Dgeqrf scales such a matrix by
// a power of two first, or leaves it to gonum; Geqrf does not look at a,
// so a caller with such elements scales it by a power of two before the
// call (R then carries the scale; the reflectors and tau do not).
func Geqrf[T float32 | float64](impl *Implementation, a *clblas.Matrix[T], tau []T) error {
	if a == nil {
		return fmt.Errorf("cllapack: Geqrf: nil matrix: %w", clblas.ErrInvalidArg)
	}
	m, n := a.Dims()
	if len(tau) != min(m, n) {
		return fmt.Errorf("cllapack: Geqrf: len(tau) = %d for a %d×%d matrix: %w", len(tau), m, n, clblas.ErrInvalidArg)
	}
	var err error
	switch d := any(a).(type) {
	case *clblas.Matrix[float64]:
		err = impl.geqrf(d, any(tau).([]float64)) // host panels where impl.hostPanel asks
	default:
		err = geqrfOnDevice(impl, a, tau) // float32: no host panels (gonum has none)
	}
	if err != nil {
		return fmt.Errorf("cllapack: Geqrf: %w", err)
	}
	return nil
}
