package cllapack

import (
	"math"

	"gonum.org/v1/gonum/blas"
	gonumblas "gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack"
)

// condFastMin is the least order at which Dgecon, Dpocon and Dtrcon
// solve by plain substitution first (below it gonum's routines run as
// they are).
const condFastMin = 64

// Dgecon estimates the reciprocal condition number of the n×n matrix A,
// in the 1-norm (norm == lapack.MaxColumnSum) or the ∞-norm
// (lapack.MaxRowSum), from its LU factorization by Dgetrf in a and anorm,
// the norm of the original A:
//
//	rcond = 1 / (‖A‖ · ‖A⁻¹‖)
//
// with ‖A⁻¹‖ estimated by gonum's Dlacn2 from solves with L and U. It is
// gonum's Dgecon, whose robust solves (Dlatrs) walk the factor's columns
// (in row-major storage a cache miss an element: mat.LU.Factorize at
// n = 4096 spent more time here than in the factorization); here each
// solve is first a plain substitution by rows (solveTri), kept when it
// stays far from overflow, else redone by Dlatrs, so the estimate agrees
// with gonum's to rounding. Arguments are checked by gonum's Dgecon, which
// every call below condFastMin runs whole.
func (impl *Implementation) Dgecon(norm lapack.MatrixNorm, n int, a []float64, lda int, anorm float64, work []float64, iwork []int) float64 {
	if n < condFastMin || !condArgsOK(n, a, lda, anorm, work, 4*n, iwork) ||
		(norm != lapack.MaxColumnSum && norm != lapack.MaxRowSum) {
		return impl.Implementation.Dgecon(norm, n, a, lda, anorm, work, iwork)
	}
	kase1 := 2
	if norm == lapack.MaxColumnSum {
		kase1 = 1
	}
	dev := impl.triDevice("Dgecon", n, a, lda)
	defer dev.release("Dgecon")
	ainvnm, ok := impl.estimate(n, dlamchS, work, iwork, func(kase int) float64 {
		x := work[:n]
		if kase == kase1 {
			sl := impl.solveTri(dev, blas.Lower, blas.NoTrans, blas.Unit, n, a, lda, x, work[2*n:3*n])
			return sl * impl.solveTri(dev, blas.Upper, blas.NoTrans, blas.NonUnit, n, a, lda, x, work[3*n:4*n])
		}
		su := impl.solveTri(dev, blas.Upper, blas.Trans, blas.NonUnit, n, a, lda, x, work[3*n:4*n])
		return impl.solveTri(dev, blas.Lower, blas.Trans, blas.Unit, n, a, lda, x, work[2*n:3*n]) * su
	})
	return rcondOf(ainvnm, anorm, ok)
}

// Dpocon estimates the reciprocal condition number, in the 1-norm, of the
// symmetric positive definite n×n matrix A from its Cholesky factor by
// Dpotrf in the ul triangle of a and anorm, the 1-norm of the original A,
// as gonum's Dpocon does, with the solves of Dgecon.
func (impl *Implementation) Dpocon(ul blas.Uplo, n int, a []float64, lda int, anorm float64, work []float64, iwork []int) float64 {
	if n < condFastMin || !condArgsOK(n, a, lda, anorm, work, 3*n, iwork) || (ul != blas.Upper && ul != blas.Lower) {
		return impl.Implementation.Dpocon(ul, n, a, lda, anorm, work, iwork)
	}
	first, second := blas.Trans, blas.NoTrans // Uᵀ then U
	if ul == blas.Lower {
		first, second = blas.NoTrans, blas.Trans // L then Lᵀ
	}
	dev := impl.triDevice("Dpocon", n, a, lda)
	defer dev.release("Dpocon")
	ainvnm, ok := impl.estimate(n, dlamchS, work, iwork, func(int) float64 {
		x := work[:n]
		sl := impl.solveTri(dev, ul, first, blas.NonUnit, n, a, lda, x, work[2*n:3*n])
		return sl * impl.solveTri(dev, ul, second, blas.NonUnit, n, a, lda, x, work[2*n:3*n])
	})
	return rcondOf(ainvnm, anorm, ok)
}

// Dtrcon estimates the reciprocal condition number of the n×n triangular
// matrix A in the ul triangle of a (unit diagonal if d is blas.Unit), in
// the 1-norm or the ∞-norm, as gonum's Dtrcon does (mat.QR.Factorize and
// mat.LQ.Factorize call it on their triangular factor), with the solves of
// Dgecon.
func (impl *Implementation) Dtrcon(norm lapack.MatrixNorm, ul blas.Uplo, d blas.Diag, n int, a []float64, lda int, work []float64, iwork []int) float64 {
	if n < condFastMin || !condArgsOK(n, a, lda, 1, work, 3*n, iwork) ||
		(norm != lapack.MaxColumnSum && norm != lapack.MaxRowSum) ||
		(ul != blas.Upper && ul != blas.Lower) || (d != blas.NonUnit && d != blas.Unit) {
		return impl.Implementation.Dtrcon(norm, ul, d, n, a, lda, work, iwork)
	}
	anorm := impl.Dlantr(norm, ul, d, n, n, a, lda, work)
	if !(anorm > 0) {
		return 0
	}
	kase1 := 2
	if norm == lapack.MaxColumnSum {
		kase1 = 1
	}
	dev := impl.triDevice("Dtrcon", n, a, lda)
	defer dev.release("Dtrcon")
	ainvnm, ok := impl.estimate(n, dlamchS*float64(n), work, iwork, func(kase int) float64 {
		t := blas.Trans
		if kase == kase1 {
			t = blas.NoTrans
		}
		return impl.solveTri(dev, ul, t, d, n, a, lda, work[:n], work[2*n:3*n])
	})
	if !ok || ainvnm == 0 {
		return 0
	}
	return (1 / anorm) / ainvnm
}

// condArgsOK reports whether a condition estimate's arguments are ones
// gonum accepts and anorm is finite and positive (gonum's quick returns
// and panics are left to gonum's routines).
func condArgsOK(n int, a []float64, lda int, anorm float64, work []float64, nwork int, iwork []int) bool {
	return n > 0 && lda >= n && len(a) >= (n-1)*lda+n && len(work) >= nwork && len(iwork) >= n &&
		anorm > 0 && !math.IsInf(anorm, 1)
}

// estimate is the reverse-communication loop of gonum's Dgecon, Dpocon
// and Dtrcon: Dlacn2 asks for products with A⁻¹ (kase 1) or A⁻ᵀ (kase 2)
// of work[:n], which solve makes, returning the scales of its solves. It
// returns Dlacn2's estimate of ‖A⁻¹‖, or ok == false where those routines
// give up (a product that scaled would overflow; smlnum is their bound).
func (impl *Implementation) estimate(n int, smlnum float64, work []float64, iwork []int, solve func(kase int) float64) (ainvnm float64, ok bool) {
	var (
		kase  int
		isave [3]int
	)
	for {
		ainvnm, kase = impl.Dlacn2(n, work[n:], work, iwork, ainvnm, kase, &isave)
		if kase == 0 {
			return ainvnm, true
		}
		if scale := solve(kase); scale != 1 {
			ix := gonumblas.Implementation{}.Idamax(n, work, 1)
			if scale == 0 || scale < math.Abs(work[ix])*smlnum {
				return 0, false
			}
			impl.Drscl(n, scale, work, 1)
		}
	}
}

// rcondOf is Dgecon's and Dpocon's answer for an estimate of ‖A⁻¹‖.
func rcondOf(ainvnm, anorm float64, ok bool) float64 {
	if !ok || ainvnm == 0 {
		return 0
	}
	return (1 / ainvnm) / anorm
}

// dlamchS is the safe minimum (LAPACK's dlamch('S')).
const dlamchS = 0x1p-1022

// solveTri solves op(T)·x = b in place for the triangular T in the ul
// triangle of a, as gonum's Dlatrs does with the scale it returns: first
// by plain substitution (on the device where dev holds a, else Dtrsv of
// gonum's Go BLAS, which reads the rows of a contiguously, or from
// parSolveMin on, trsvBlocked, the same split across goroutines), kept
// with scale 1 when every element is finite and far from overflow (so
// that the next solve and Dlacn2's sums cannot overflow either); else x
// is restored and solved by gonum's Dlatrs, which scales it, with cnorm
// as its room for the column norms.
func (impl *Implementation) solveTri(dev *triOnDevice, ul blas.Uplo, t blas.Transpose, d blas.Diag, n int, a []float64, lda int, x, cnorm []float64) float64 {
	b := append([]float64(nil), x...)
	switch workers := solveWorkers(n); {
	case dev.solve(ul, t, d, x, b):
	case workers > 1:
		trsvBlocked(ul, t, d, n, a, lda, x, workers)
	default:
		gonumblas.Implementation{}.Dtrsv(ul, t, d, n, a, lda, x, 1)
	}
	// Far from overflow: room for the sums of n elements that follow, and
	// below 1/dlamchS, past which gonum's estimate gives up.
	limit := math.MaxFloat64 / float64(4*n)
	ok := true
	for _, v := range x {
		if !(math.Abs(v) <= limit) {
			ok = false
			break
		}
	}
	if ok {
		return 1
	}
	copy(x, b)
	return impl.Implementation.Dlatrs(ul, t, d, false, n, a, lda, x, cnorm)
}
