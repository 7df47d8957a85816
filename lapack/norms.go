package cllapack

import (
	"math"
	"runtime"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"

	"github.com/gocompute/opencl/internal/par"
)

// normParMin is the least number of elements of A at which Dlange, Dlansy
// and Dlantr split their sums across goroutines: below it starting and
// joining them costs about as much as the pass over A they share
// (BenchmarkHostNorms times both sides of it). A variable so that tests
// can take the parallel path at small orders.
var normParMin = 256 * 256

// normWorkers returns how many goroutines a norm of an m×n matrix runs
// on: 1 (gonum's routine) below normParMin elements or at GOMAXPROCS 1.
func normWorkers(m, n int) int {
	if m <= 0 || n <= 0 || m*n < normParMin {
		return 1
	}
	return runtime.GOMAXPROCS(0)
}

// normArgsOK reports whether a norm's arguments are ones gonum accepts
// with m, n > 0 and norm is one computed here in parallel (gonum's quick
// returns, panics and the Frobenius norm are left to gonum's routines);
// needWork tells whether the norm uses work[:n].
func normArgsOK(norm lapack.MatrixNorm, m, n int, a []float64, lda int, work []float64, needWork bool) bool {
	return (norm == lapack.MaxAbs || norm == lapack.MaxColumnSum || norm == lapack.MaxRowSum) &&
		m > 0 && n > 0 && lda >= n && len(a) >= (m-1)*lda+n && (!needWork || len(work) >= n)
}

// Dlange returns the norm of the general m×n matrix A:
//
//	lapack.MaxAbs:       max_{i,j} |a_ij|
//	lapack.MaxColumnSum: max_j ∑_i |a_ij| (the 1-norm; work[:n] is left with the column sums)
//	lapack.MaxRowSum:    max_i ∑_j |a_ij| (the ∞-norm)
//	lapack.Frobenius:    (∑_{i,j} a_ij²)^½
//
// It is gonum's Dlange bit for bit, NaN and Inf included: each sum is
// accumulated in gonum's order, and the maximum has math.Max's rules
// (+Inf before NaN). On a large A the rows (MaxAbs, the ∞-norm) or the
// columns (the 1-norm) are split across goroutines; the Frobenius norm,
// small matrices and arguments gonum rejects go to gonum's Dlange.
// mat.LU.Factorize calls it for the norm of A.
func (impl *Implementation) Dlange(norm lapack.MatrixNorm, m, n int, a []float64, lda int, work []float64) float64 {
	workers := normWorkers(m, n)
	if workers == 1 || !normArgsOK(norm, m, n, a, lda, work, norm == lapack.MaxColumnSum) {
		return impl.Implementation.Dlange(norm, m, n, a, lda, work)
	}
	switch norm {
	case lapack.MaxAbs:
		return mathMaxOf(rowParts(m, workers, func(lo, hi int) partMax {
			return geMaxAbs(a[lo*lda:], hi-lo, n, lda)
		}))
	case lapack.MaxRowSum:
		return mathMaxOf(rowParts(m, workers, func(lo, hi int) partMax {
			return geMaxRowSum(a[lo*lda:], hi-lo, n, lda)
		}))
	}
	par.For(n, workers, func(lo, hi int) {
		clear(work[lo:hi])
		for i := range m {
			addAbs(work[lo:hi], a[i*lda+lo:i*lda+hi])
		}
	})
	var p partMax
	for _, v := range work[:n] {
		p.fold(v)
	}
	return mathMaxOf([]partMax{p})
}

// Dlansy returns the norm of the n×n symmetric matrix A held in its ul
// triangle:
//
//	lapack.MaxAbs:                     max_{i,j} |a_ij|
//	lapack.MaxColumnSum, MaxRowSum:    max_i ∑_j |a_ij| (work[:n] is left with the row sums)
//	lapack.Frobenius:                  (∑_{i,j} a_ij²)^½
//
// It is gonum's Dlansy bit for bit: each row sum of the whole symmetric
// A is accumulated in gonum's order (its row's elements by column, as
// gonum's row-by-row pass over the triangle adds them), and a NaN makes
// the answer NaN. On a large A the rows, or the row sums, are split
// across goroutines; the Frobenius norm, small matrices and arguments
// gonum rejects go to gonum's Dlansy. mat.Cholesky.Factorize calls it for
// the norm of A.
func (impl *Implementation) Dlansy(norm lapack.MatrixNorm, ul blas.Uplo, n int, a []float64, lda int, work []float64) float64 {
	workers := normWorkers(n, n)
	if workers == 1 || (ul != blas.Upper && ul != blas.Lower) ||
		!normArgsOK(norm, n, n, a, lda, work, norm != lapack.MaxAbs) {
		return impl.Implementation.Dlansy(norm, ul, n, a, lda, work)
	}
	if norm == lapack.MaxAbs {
		p := firstNaNOrMax(rowParts(n, workers, func(lo, hi int) partMax {
			return trapMaxAbs(ul, blas.NonUnit, lo, hi, n, a, lda)
		}), 0)
		if p.nan {
			return math.NaN()
		}
		return p.v
	}
	par.For(n, workers, func(lo, hi int) {
		if ul == blas.Upper {
			symRowSumsUpper(lo, hi, n, a, lda, work)
		} else {
			symRowSumsLower(lo, hi, n, a, lda, work)
		}
	})
	return maxOrNaN(work[:n])
}

// Dlantr returns the norm of the m×n trapezoidal matrix A held in its ul
// part (with a unit diagonal, not read, if d is blas.Unit):
//
//	lapack.MaxAbs:       max_{i,j} |a_ij|
//	lapack.MaxColumnSum: max_j ∑_i |a_ij| (the 1-norm; work[:n] is left with the column sums)
//	lapack.MaxRowSum:    max_i ∑_j |a_ij| (the ∞-norm)
//	lapack.Frobenius:    (∑_{i,j} a_ij²)^½
//
// It is gonum's Dlantr bit for bit: each sum is accumulated in gonum's
// order, and the NaN returned is gonum's (for MaxAbs, and the ∞-norm with
// d blas.NonUnit, the first NaN met row by row). On a large A the rows
// (MaxAbs, the ∞-norm) or the columns (the 1-norm) are split across
// goroutines; the Frobenius norm, small matrices and arguments gonum
// rejects go to gonum's Dlantr. mat's LU and Cholesky call it when they
// estimate a norm from the factors, and Dtrcon for the norm of A.
func (impl *Implementation) Dlantr(norm lapack.MatrixNorm, ul blas.Uplo, d blas.Diag, m, n int, a []float64, lda int, work []float64) float64 {
	workers := normWorkers(m, n)
	if workers == 1 || (ul != blas.Upper && ul != blas.Lower) || (d != blas.Unit && d != blas.NonUnit) ||
		!normArgsOK(norm, m, n, a, lda, work, norm == lapack.MaxColumnSum) {
		return impl.Implementation.Dlantr(norm, ul, d, m, n, a, lda, work)
	}
	switch norm {
	case lapack.MaxAbs:
		floor := 0.0
		if d == blas.Unit {
			floor = 1
		}
		return firstNaNOrMax(rowParts(m, workers, func(lo, hi int) partMax {
			return trapMaxAbs(ul, d, lo, hi, n, a, lda)
		}), floor).v
	case lapack.MaxRowSum:
		p := firstNaNOrMax(rowParts(m, workers, func(lo, hi int) partMax {
			return trapMaxRowSum(ul, d, lo, hi, m, n, a, lda)
		}), 0)
		if p.nan && d == blas.Unit {
			return math.NaN()
		}
		return p.v
	}
	par.For(n, workers, func(lo, hi int) {
		trapColSums(ul, d, lo, hi, m, n, a, lda, work)
	})
	return maxOrNaN(work[:n])
}
