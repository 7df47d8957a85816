package cllapack

import (
	"runtime"

	"gonum.org/v1/gonum/blas"
	gonumblas "gonum.org/v1/gonum/blas/gonum"

	"github.com/gocompute/opencl/internal/par"
)

// parSolveMin is the least order at which solveTri's substitution runs
// blocked across goroutines (trsvBlocked) rather than as one Dtrsv: below
// it the starts and joins of its n/triBlock steps cost about what the
// split saves (BenchmarkCondSolves times both). A variable so that tests
// can take the blocked path at small orders.
var parSolveMin = 256

// triBlock is the order of the diagonal blocks trsvBlocked steps
// through: each step solves one block alone and then splits the product
// of the block's rows with the rest of x across goroutines, so a larger
// block means fewer joins but a longer serial part (about triBlock/n of
// the work).
const triBlock = 128

// parGrain is the least number of elements of T one goroutine of a
// trsvBlocked step reads: a small product runs on fewer goroutines.
const parGrain = 16 << 10

// solveWorkers returns how many goroutines the substitution of order n
// runs on: 1 (gonum's Dtrsv) below parSolveMin or at GOMAXPROCS 1.
func solveWorkers(n int) int {
	if n < parSolveMin {
		return 1
	}
	return runtime.GOMAXPROCS(0)
}

// trsvBlocked solves op(T)·x = b in place, as gonum's Dtrsv does, for the
// n×n triangular T in the ul triangle of a, in steps of triBlock rows:
//
//	op(T) = T:  x_k = T_kk⁻¹ (b_k − ∑_{j solved} T_kj x_j),  the sum split by rows of block k
//	op(T) = Tᵀ: x_k = T_kk⁻ᵀ b_k;  b_j −= T_kjᵀ x_k for every j not solved,  split by columns
//
// with T_kk solved by Dtrsv. Blocks run forward for L and Uᵀ, backward
// for U and Lᵀ. The products read the rows of T contiguously, as Dtrsv
// does; the answer differs from Dtrsv's by rounding.
func trsvBlocked(ul blas.Uplo, t blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, workers int) {
	forward := (ul == blas.Lower) == (t == blas.NoTrans)
	nblocks := (n + triBlock - 1) / triBlock
	for k := range nblocks {
		if !forward {
			k = nblocks - 1 - k
		}
		r0, r1 := k*triBlock, min((k+1)*triBlock, n)
		c0, c1 := r1, n // the columns of block k's rows off its diagonal block
		if ul == blas.Lower {
			c0, c1 = 0, r0
		}
		if t == blas.NoTrans {
			subRowProducts(r0, r1, c0, c1, a, lda, x, workers)
		}
		gonumblas.Implementation{}.Dtrsv(ul, t, d, r1-r0, a[r0*lda+r0:], lda, x[r0:r1], 1)
		if t == blas.Trans {
			subColProducts(r0, r1, c0, c1, a, lda, x, workers)
		}
	}
}

// subRowProducts sets x_i −= ∑_{c0 ≤ j < c1} a_ij x_j for r0 ≤ i < r1,
// the rows split across goroutines.
func subRowProducts(r0, r1, c0, c1 int, a []float64, lda int, x []float64, workers int) {
	par.For(r1-r0, stepWorkers((r1-r0)*(c1-c0), workers), func(lo, hi int) {
		gonumblas.Implementation{}.Dgemv(blas.NoTrans, hi-lo, c1-c0, -1, a[(r0+lo)*lda+c0:], lda,
			x[c0:c1], 1, 1, x[r0+lo:r0+hi], 1)
	})
}

// subColProducts sets x_j −= ∑_{r0 ≤ i < r1} a_ij x_i for c0 ≤ j < c1,
// the columns split across goroutines.
func subColProducts(r0, r1, c0, c1 int, a []float64, lda int, x []float64, workers int) {
	par.For(c1-c0, stepWorkers((r1-r0)*(c1-c0), workers), func(lo, hi int) {
		gonumblas.Implementation{}.Dgemv(blas.Trans, r1-r0, hi-lo, -1, a[r0*lda+c0+lo:], lda,
			x[r0:r1], 1, 1, x[c0+lo:c0+hi], 1)
	})
}

// stepWorkers returns how many of workers goroutines a product reading
// elems elements of T runs on: at least parGrain each.
func stepWorkers(elems, workers int) int {
	return max(1, min(workers, elems/parGrain))
}
