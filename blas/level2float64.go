package clblas

import (
	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// Dgemv computes y = alpha*A*x + beta*y (tA == blas.NoTrans) or
// y = alpha*Aᵀ*x + beta*y (otherwise) for the m×n matrix A.
func (impl *Implementation) Dgemv(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	// The gate first, on a workload no smaller than the call's (both
	// vectors at their longest): below it, gonum's code does it all.
	if impl.ig.Dgemv.below(m*n, m+n) {
		gemvCPU64(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	impl.gemvGated64(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
}

// gemvGated64 is Dgemv for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) gemvGated64(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	if badTrans(tA) {
		panic(msgBadTranspose)
	}
	if m < 0 {
		panic(msgMLT0)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	if lda < max(1, n) {
		panic(msgBadLdA)
	}
	if incX == 0 {
		panic(msgZeroIncX)
	}
	if incY == 0 {
		panic(msgZeroIncY)
	}
	if m == 0 || n == 0 {
		return
	}
	lenX, lenY := m, n
	if tA == blas.NoTrans {
		lenX, lenY = n, m
	}
	if vecShort(len(x), lenX, incX) {
		panic(msgShortX)
	}
	if vecShort(len(y), lenY, incY) {
		panic(msgShortY)
	}
	if len(a) < lda*(m-1)+n {
		panic(msgShortA)
	}
	if alpha == 0 && beta == 1 {
		return
	}
	if w := work(prec64, 2*fl(m)*fl(n), fl(m)*fl(n)+fl(lenX)+fl(lenY)*(1+ifNonZero(beta != 0))).streamed().hostShares(true); !impl.gated(w) && impl.weigh("Dgemv", w, func() bool { return finite(alpha, beta) }) {
		err := impl.dev64.Gemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
		if err == nil {
			return
		}
		impl.deviceFailed("Dgemv", err)
	}
	// y cut to its span: gonum's float32 gemv writes past it (vecExtent).
	native.Dgemv(tA, m, n, alpha, a, lda, x, incX, beta, y[:vecExtent(lenY, incY)], incY)
}

// Dgbmv computes y = alpha*A*x + beta*y (tA == blas.NoTrans) or
// y = alpha*Aᵀ*x + beta*y (otherwise) for the m×n band matrix A with kL
// sub-diagonals and kU super-diagonals.
func (impl *Implementation) Dgbmv(tA blas.Transpose, m, n, kL, kU int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	if impl.ig.Dgbmv.below(m*(kL+kU+1), m+n) {
		native.Dgbmv(tA, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	impl.gbmvGated64(tA, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
}

// gbmvGated64 is Dgbmv for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) gbmvGated64(tA blas.Transpose, m, n, kL, kU int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	if badTrans(tA) {
		panic(msgBadTranspose)
	}
	if m < 0 {
		panic(msgMLT0)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	if kL < 0 {
		panic(msgKLLT0)
	}
	if kU < 0 {
		panic(msgKULT0)
	}
	if lda < kL+kU+1 {
		panic(msgBadLdA)
	}
	if incX == 0 {
		panic(msgZeroIncX)
	}
	if incY == 0 {
		panic(msgZeroIncY)
	}
	if m == 0 || n == 0 {
		return
	}
	rows := min(m, n+kL)
	if len(a) < lda*(rows-1)+kL+kU+1 {
		panic(msgShortA)
	}
	lenX, lenY := m, n
	if tA == blas.NoTrans {
		lenX, lenY = n, m
	}
	if vecShort(len(x), lenX, incX) {
		panic(msgShortX)
	}
	if vecShort(len(y), lenY, incY) {
		panic(msgShortY)
	}
	if alpha == 0 && beta == 1 {
		return
	}
	band := fl(rows) * fl(kL+kU+1)
	if w := work(prec64, 2*band, band+fl(lenX)+fl(lenY)*(1+ifNonZero(beta != 0))); !impl.gated(w) && impl.weigh("Dgbmv", w, func() bool { return finite(alpha, beta) }) {
		err := impl.dev64.Gbmv(tA, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
		if err == nil {
			return
		}
		impl.deviceFailed("Dgbmv", err)
	}
	native.Dgbmv(tA, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
}

// Dtrmv computes x = A*x (tA == blas.NoTrans) or x = Aᵀ*x (otherwise) for
// the n×n triangular matrix A.
func (impl *Implementation) Dtrmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) {
	if n < impl.lim2.Dtrmv {
		native.Dtrmv(ul, tA, d, n, a, lda, x, incX)
		return
	}
	impl.trmvGated64(ul, tA, d, n, a, lda, x, incX)
}

// trmvGated64 is Dtrmv for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) trmvGated64(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) {
	if !impl.checkTriangular64(ul, tA, d, n, a, lda, x, incX) {
		return
	}
	if w := work(prec64, fl(n)*fl(n), fl(n)*fl(n)+2*fl(n)).streamedTriangle().halfOnCPU(); !impl.gated(w) && impl.weigh("Dtrmv", w, nil) {
		err := impl.dev64.Trmv(ul, tA, d, n, a, lda, x, incX)
		if err == nil {
			return
		}
		impl.deviceFailed("Dtrmv", err)
	}
	native.Dtrmv(ul, tA, d, n, a, lda, x, incX)
}

// Dtrsv solves A*x = b (tA == blas.NoTrans) or Aᵀ*x = b (otherwise) for the
// n×n triangular matrix A; b is given in x and overwritten by the solution.
func (impl *Implementation) Dtrsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) {
	if n < impl.lim2.Dtrsv {
		native.Dtrsv(ul, tA, d, n, a, lda, x, incX)
		return
	}
	if !impl.checkTriangular64(ul, tA, d, n, a, lda, x, incX) {
		return
	}
	if w := work(prec64, fl(n)*fl(n), fl(n)*fl(n)+2*fl(n)); !impl.gated(w) && impl.weigh("Dtrsv", w, nil) {
		err := impl.dev64.Trsv(ul, tA, d, n, a, lda, x, incX)
		if err == nil {
			return
		}
		impl.deviceFailed("Dtrsv", err)
	}
	native.Dtrsv(ul, tA, d, n, a, lda, x, incX)
}

// checkTriangular64 does the argument checks of Dtrmv and Dtrsv in gonum's
// order and reports whether there is work to do (n > 0).
func (impl *Implementation) checkTriangular64(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) bool {
	if badUplo(ul) {
		panic(msgBadUplo)
	}
	if badTrans(tA) {
		panic(msgBadTranspose)
	}
	if badDiag(d) {
		panic(msgBadDiag)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	if lda < max(1, n) {
		panic(msgBadLdA)
	}
	if incX == 0 {
		panic(msgZeroIncX)
	}
	if n == 0 {
		return false
	}
	if len(a) < lda*(n-1)+n {
		panic(msgShortA)
	}
	if vecShort(len(x), n, incX) {
		panic(msgShortX)
	}
	return true
}

// Dtbmv computes x = A*x (tA == blas.NoTrans) or x = Aᵀ*x (otherwise) for
// the n×n triangular band matrix A with k diagonals besides the main one.
func (impl *Implementation) Dtbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) {
	if impl.ig.Dtbmv.below(n*(k+1), n) {
		native.Dtbmv(ul, tA, d, n, k, a, lda, x, incX)
		return
	}
	impl.tbmvGated64(ul, tA, d, n, k, a, lda, x, incX)
}

// tbmvGated64 is Dtbmv for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) tbmvGated64(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) {
	if !impl.checkTriangularBand64(ul, tA, d, n, k, a, lda, x, incX) {
		return
	}
	band := fl(n) * fl(k+1)
	if w := work(prec64, 2*band, band+2*fl(n)); !impl.gated(w) && impl.weigh("Dtbmv", w, nil) {
		err := impl.dev64.Tbmv(ul, tA, d, n, k, a, lda, x, incX)
		if err == nil {
			return
		}
		impl.deviceFailed("Dtbmv", err)
	}
	native.Dtbmv(ul, tA, d, n, k, a, lda, x, incX)
}

// Dtbsv solves A*x = b (tA == blas.NoTrans) or Aᵀ*x = b (otherwise) for the
// n×n triangular band matrix A with k diagonals besides the main one; b is
// given in x and overwritten by the solution.
func (impl *Implementation) Dtbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) {
	if impl.ig.Dtbsv.below(n*(k+1), n) {
		native.Dtbsv(ul, tA, d, n, k, a, lda, x, incX)
		return
	}
	if !impl.checkTriangularBand64(ul, tA, d, n, k, a, lda, x, incX) {
		return
	}
	band := fl(n) * fl(k+1)
	if w := work(prec64, 2*band, band+2*fl(n)); !impl.gated(w) && impl.weigh("Dtbsv", w, nil) {
		err := impl.dev64.Tbsv(ul, tA, d, n, k, a, lda, x, incX)
		if err == nil {
			return
		}
		impl.deviceFailed("Dtbsv", err)
	}
	native.Dtbsv(ul, tA, d, n, k, a, lda, x, incX)
}

// checkTriangularBand64 does the argument checks of Dtbmv and Dtbsv in
// gonum's order and reports whether there is work to do (n > 0).
func (impl *Implementation) checkTriangularBand64(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) bool {
	if badUplo(ul) {
		panic(msgBadUplo)
	}
	if badTrans(tA) {
		panic(msgBadTranspose)
	}
	if badDiag(d) {
		panic(msgBadDiag)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	if k < 0 {
		panic(msgKLT0)
	}
	if lda < k+1 {
		panic(msgBadLdA)
	}
	if incX == 0 {
		panic(msgZeroIncX)
	}
	if n == 0 {
		return false
	}
	if len(a) < lda*(n-1)+k+1 {
		panic(msgShortA)
	}
	if vecShort(len(x), n, incX) {
		panic(msgShortX)
	}
	return true
}

// Dtpmv computes x = A*x (tA == blas.NoTrans) or x = Aᵀ*x (otherwise) for
// the n×n triangular matrix A in packed form.
func (impl *Implementation) Dtpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) {
	if n < impl.lim2.Dtpmv {
		native.Dtpmv(ul, tA, d, n, ap, x, incX)
		return
	}
	impl.tpmvGated64(ul, tA, d, n, ap, x, incX)
}

// tpmvGated64 is Dtpmv for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) tpmvGated64(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) {
	if !impl.checkTriangularPacked64(ul, tA, d, n, ap, x, incX) {
		return
	}
	if w := work(prec64, fl(n)*fl(n), fl(n)*fl(n+1)/2+2*fl(n)); !impl.gated(w) && impl.weigh("Dtpmv", w, nil) {
		err := impl.dev64.Tpmv(ul, tA, d, n, ap, x, incX)
		if err == nil {
			return
		}
		impl.deviceFailed("Dtpmv", err)
	}
	native.Dtpmv(ul, tA, d, n, ap, x, incX)
}

// Dtpsv solves A*x = b (tA == blas.NoTrans) or Aᵀ*x = b (otherwise) for the
// n×n triangular matrix A in packed form; b is given in x and overwritten by
// the solution.
func (impl *Implementation) Dtpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) {
	if n < impl.lim2.Dtpsv {
		native.Dtpsv(ul, tA, d, n, ap, x, incX)
		return
	}
	if !impl.checkTriangularPacked64(ul, tA, d, n, ap, x, incX) {
		return
	}
	if w := work(prec64, fl(n)*fl(n), fl(n)*fl(n+1)/2+2*fl(n)); !impl.gated(w) && impl.weigh("Dtpsv", w, nil) {
		err := impl.dev64.Tpsv(ul, tA, d, n, ap, x, incX)
		if err == nil {
			return
		}
		impl.deviceFailed("Dtpsv", err)
	}
	native.Dtpsv(ul, tA, d, n, ap, x, incX)
}

// checkTriangularPacked64 does the argument checks of Dtpmv and Dtpsv in
// gonum's order and reports whether there is work to do (n > 0).
func (impl *Implementation) checkTriangularPacked64(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) bool {
	if badUplo(ul) {
		panic(msgBadUplo)
	}
	if badTrans(tA) {
		panic(msgBadTranspose)
	}
	if badDiag(d) {
		panic(msgBadDiag)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	if incX == 0 {
		panic(msgZeroIncX)
	}
	if n == 0 {
		return false
	}
	if len(ap) < n*(n+1)/2 {
		panic(msgShortAP)
	}
	if vecShort(len(x), n, incX) {
		panic(msgShortX)
	}
	return true
}

// Dsymv computes y = alpha*A*x + beta*y for the n×n symmetric matrix A.
func (impl *Implementation) Dsymv(ul blas.Uplo, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	if n < impl.lim2.Dsymv {
		native.Dsymv(ul, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	if badUplo(ul) {
		panic(msgBadUplo)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	if lda < max(1, n) {
		panic(msgBadLdA)
	}
	if incX == 0 {
		panic(msgZeroIncX)
	}
	if incY == 0 {
		panic(msgZeroIncY)
	}
	if n == 0 {
		return
	}
	if len(a) < lda*(n-1)+n {
		panic(msgShortA)
	}
	if vecShort(len(x), n, incX) {
		panic(msgShortX)
	}
	if vecShort(len(y), n, incY) {
		panic(msgShortY)
	}
	if alpha == 0 && beta == 1 {
		return
	}
	if w := work(prec64, 2*fl(n)*fl(n), fl(n)*fl(n)+fl(n)*(2+ifNonZero(beta != 0))).streamedTriangle(); !impl.gated(w) && impl.weigh("Dsymv", w, func() bool { return finite(alpha, beta) }) {
		err := impl.dev64.Symv(ul, n, alpha, a, lda, x, incX, beta, y, incY)
		if err == nil {
			return
		}
		impl.deviceFailed("Dsymv", err)
	}
	native.Dsymv(ul, n, alpha, a, lda, x, incX, beta, y, incY)
}

// Dsbmv computes y = alpha*A*x + beta*y for the n×n symmetric band matrix A
// with k diagonals besides the main one.
func (impl *Implementation) Dsbmv(ul blas.Uplo, n, k int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	if impl.ig.Dsbmv.below(n*(k+1), n) {
		native.Dsbmv(ul, n, k, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	if badUplo(ul) {
		panic(msgBadUplo)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	if k < 0 {
		panic(msgKLT0)
	}
	if lda < k+1 {
		panic(msgBadLdA)
	}
	if incX == 0 {
		panic(msgZeroIncX)
	}
	if incY == 0 {
		panic(msgZeroIncY)
	}
	if n == 0 {
		return
	}
	if len(a) < lda*(n-1)+k+1 {
		panic(msgShortA)
	}
	if vecShort(len(x), n, incX) {
		panic(msgShortX)
	}
	if vecShort(len(y), n, incY) {
		panic(msgShortY)
	}
	if alpha == 0 && beta == 1 {
		return
	}
	band := fl(n) * fl(k+1)
	if w := work(prec64, 4*band, band+fl(n)*(2+ifNonZero(beta != 0))); !impl.gated(w) && impl.weigh("Dsbmv", w, func() bool { return finite(alpha, beta) }) {
		err := impl.dev64.Sbmv(ul, n, k, alpha, a, lda, x, incX, beta, y, incY)
		if err == nil {
			return
		}
		impl.deviceFailed("Dsbmv", err)
	}
	native.Dsbmv(ul, n, k, alpha, a, lda, x, incX, beta, y, incY)
}

// Dspmv computes y = alpha*A*x + beta*y for the n×n symmetric matrix A in
// packed form.
func (impl *Implementation) Dspmv(ul blas.Uplo, n int, alpha float64, ap []float64, x []float64, incX int, beta float64, y []float64, incY int) {
	if n < impl.lim2.Dspmv {
		native.Dspmv(ul, n, alpha, ap, x, incX, beta, y, incY)
		return
	}
	if badUplo(ul) {
		panic(msgBadUplo)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	if incX == 0 {
		panic(msgZeroIncX)
	}
	if incY == 0 {
		panic(msgZeroIncY)
	}
	if n == 0 {
		return
	}
	if len(ap) < n*(n+1)/2 {
		panic(msgShortAP)
	}
	if vecShort(len(x), n, incX) {
		panic(msgShortX)
	}
	if vecShort(len(y), n, incY) {
		panic(msgShortY)
	}
	if alpha == 0 && beta == 1 {
		return
	}
	if w := work(prec64, 2*fl(n)*fl(n), fl(n)*fl(n+1)/2+fl(n)*(2+ifNonZero(beta != 0))); !impl.gated(w) && impl.weigh("Dspmv", w, func() bool { return finite(alpha, beta) }) {
		err := impl.dev64.Spmv(ul, n, alpha, ap, x, incX, beta, y, incY)
		if err == nil {
			return
		}
		impl.deviceFailed("Dspmv", err)
	}
	native.Dspmv(ul, n, alpha, ap, x, incX, beta, y, incY)
}

// Dger computes A += alpha*x*yᵀ for the m×n matrix A.
func (impl *Implementation) Dger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	if incX > 0 && incY > 0 && impl.ig.Dger.below(m*n, m+n) {
		native.Dger(m, n, alpha, x, incX, y, incY, a, lda)
		return
	}
	impl.gerGated64(m, n, alpha, x, incX, y, incY, a, lda)
}

// gerGated64 is Dger for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) gerGated64(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	if m < 0 {
		panic(msgMLT0)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	if lda < max(1, n) {
		panic(msgBadLdA)
	}
	if incX == 0 {
		panic(msgZeroIncX)
	}
	if incY == 0 {
		panic(msgZeroIncY)
	}
	if m == 0 || n == 0 {
		return
	}
	if vecShort(len(x), m, incX) {
		panic(msgShortX)
	}
	if vecShort(len(y), n, incY) {
		panic(msgShortY)
	}
	if len(a) < lda*(m-1)+n {
		panic(msgShortA)
	}
	if alpha == 0 {
		return
	}
	if w := work(prec64, 2*fl(m)*fl(n), 2*fl(m)*fl(n)+fl(m)+fl(n)).streamed().halfOnCPU().hostShares(incX > 0 && incY > 0); !impl.gated(w) && impl.weigh("Dger", w, func() bool { return finite(alpha) }) {
		err := impl.dev64.Ger(m, n, alpha, x, incX, y, incY, a, lda)
		if err == nil {
			return
		}
		impl.deviceFailed("Dger", err)
		if i := eng.RowsDone(err); i >= m { // the engine finished A on the host
			return
		} else if i > 0 { // the device updated rows [0, i) of A
			if incX > 0 {
				x = x[i*incX:]
			}
			m, a = m-i, a[i*lda:]
		}
	}
	if incX < 0 || incY < 0 {
		gerNegInc64(m, n, alpha, x, incX, y, incY, a, lda)
		return
	}
	native.Dger(m, n, alpha, x, incX, y, incY, a, lda)
}

// gerNegInc64 computes A += alpha*x*yᵀ as gonum's portable Go code does
// (no element is skipped, so NaN and Inf propagate the same way). It serves
// the calls with a negative increment, which the amd64 assembly behind
// gonum v0.17.0's Dger gets wrong, reading outside x and y
// (gonum/gonum#2105).
func gerNegInc64(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	var kx, ky int
	if incX < 0 {
		kx = (1 - m) * incX
	}
	if incY < 0 {
		ky = (1 - n) * incY
	}
	for i, ix := 0, kx; i < m; i, ix = i+1, ix+incX {
		tmp := alpha * x[ix]
		row := a[i*lda : i*lda+n]
		for j, jy := 0, ky; j < n; j, jy = j+1, jy+incY {
			row[j] += tmp * y[jy]
		}
	}
}

// Dsyr computes A += alpha*x*xᵀ for the n×n symmetric matrix A.
func (impl *Implementation) Dsyr(ul blas.Uplo, n int, alpha float64, x []float64, incX int, a []float64, lda int) {
	if n < impl.lim2.Dsyr {
		native.Dsyr(ul, n, alpha, x, incX, a, lda)
		return
	}
	impl.syrGated64(ul, n, alpha, x, incX, a, lda)
}

// syrGated64 is Dsyr for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) syrGated64(ul blas.Uplo, n int, alpha float64, x []float64, incX int, a []float64, lda int) {
	if badUplo(ul) {
		panic(msgBadUplo)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	if lda < max(1, n) {
		panic(msgBadLdA)
	}
	if incX == 0 {
		panic(msgZeroIncX)
	}
	if n == 0 {
		return
	}
	if vecShort(len(x), n, incX) {
		panic(msgShortX)
	}
	if len(a) < lda*(n-1)+n {
		panic(msgShortA)
	}
	if alpha == 0 {
		return
	}
	if w := work(prec64, fl(n)*fl(n), 2*fl(n)*fl(n)+fl(n)); !impl.gated(w) && impl.weigh("Dsyr", w, func() bool { return finite(alpha) }) {
		err := impl.dev64.Syr(ul, n, alpha, x, incX, a, lda)
		if err == nil {
			return
		}
		impl.deviceFailed("Dsyr", err)
	}
	native.Dsyr(ul, n, alpha, x, incX, a, lda)
}

// Dspr computes A += alpha*x*xᵀ for the n×n symmetric matrix A in packed
// form.
func (impl *Implementation) Dspr(ul blas.Uplo, n int, alpha float64, x []float64, incX int, ap []float64) {
	if n < impl.lim2.Dspr {
		native.Dspr(ul, n, alpha, x, incX, ap)
		return
	}
	impl.sprGated64(ul, n, alpha, x, incX, ap)
}

// sprGated64 is Dspr for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) sprGated64(ul blas.Uplo, n int, alpha float64, x []float64, incX int, ap []float64) {
	if badUplo(ul) {
		panic(msgBadUplo)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	if incX == 0 {
		panic(msgZeroIncX)
	}
	if n == 0 {
		return
	}
	if vecShort(len(x), n, incX) {
		panic(msgShortX)
	}
	if len(ap) < n*(n+1)/2 {
		panic(msgShortAP)
	}
	if alpha == 0 {
		return
	}
	if w := work(prec64, fl(n)*fl(n), fl(n)*fl(n+1)+fl(n)); !impl.gated(w) && impl.weigh("Dspr", w, func() bool { return finite(alpha) }) {
		err := impl.dev64.Spr(ul, n, alpha, x, incX, ap)
		if err == nil {
			return
		}
		impl.deviceFailed("Dspr", err)
	}
	native.Dspr(ul, n, alpha, x, incX, ap)
}

// Dsyr2 computes A += alpha*x*yᵀ + alpha*y*xᵀ for the n×n symmetric matrix
// A.
func (impl *Implementation) Dsyr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	if n < impl.lim2.Dsyr2 {
		native.Dsyr2(ul, n, alpha, x, incX, y, incY, a, lda)
		return
	}
	impl.syr2Gated64(ul, n, alpha, x, incX, y, incY, a, lda)
}

// syr2Gated64 is Dsyr2 for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) syr2Gated64(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	if badUplo(ul) {
		panic(msgBadUplo)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	if lda < max(1, n) {
		panic(msgBadLdA)
	}
	if incX == 0 {
		panic(msgZeroIncX)
	}
	if incY == 0 {
		panic(msgZeroIncY)
	}
	if n == 0 {
		return
	}
	if vecShort(len(x), n, incX) {
		panic(msgShortX)
	}
	if vecShort(len(y), n, incY) {
		panic(msgShortY)
	}
	if len(a) < lda*(n-1)+n {
		panic(msgShortA)
	}
	if alpha == 0 {
		return
	}
	if w := work(prec64, 2*fl(n)*fl(n), 2*fl(n)*fl(n)+2*fl(n)); !impl.gated(w) && impl.weigh("Dsyr2", w, func() bool { return finite(alpha) }) {
		err := impl.dev64.Syr2(ul, n, alpha, x, incX, y, incY, a, lda)
		if err == nil {
			return
		}
		impl.deviceFailed("Dsyr2", err)
	}
	native.Dsyr2(ul, n, alpha, x, incX, y, incY, a, lda)
}

// Dspr2 computes A += alpha*x*yᵀ + alpha*y*xᵀ for the n×n symmetric matrix
// A in packed form.
func (impl *Implementation) Dspr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, ap []float64) {
	if n < impl.lim2.Dspr2 {
		native.Dspr2(ul, n, alpha, x, incX, y, incY, ap)
		return
	}
	impl.spr2Gated64(ul, n, alpha, x, incX, y, incY, ap)
}

// spr2Gated64 is Dspr2 for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) spr2Gated64(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, ap []float64) {
	if badUplo(ul) {
		panic(msgBadUplo)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	if incX == 0 {
		panic(msgZeroIncX)
	}
	if incY == 0 {
		panic(msgZeroIncY)
	}
	if n == 0 {
		return
	}
	if vecShort(len(x), n, incX) {
		panic(msgShortX)
	}
	if vecShort(len(y), n, incY) {
		panic(msgShortY)
	}
	if len(ap) < n*(n+1)/2 {
		panic(msgShortAP)
	}
	if alpha == 0 {
		return
	}
	if w := work(prec64, 2*fl(n)*fl(n), fl(n)*fl(n+1)+2*fl(n)); !impl.gated(w) && impl.weigh("Dspr2", w, func() bool { return finite(alpha) }) {
		err := impl.dev64.Spr2(ul, n, alpha, x, incX, y, incY, ap)
		if err == nil {
			return
		}
		impl.deviceFailed("Dspr2", err)
	}
	native.Dspr2(ul, n, alpha, x, incX, y, incY, ap)
}
