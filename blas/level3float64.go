package clblas

import (
	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// Dgemm computes C = alpha*op(A)*op(B) + beta*C, where op(X) is X or Xᵀ as
// tA and tB say, op(A) is m×k, op(B) is k×n and C is m×n.
func (impl *Implementation) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if impl.ig.Dgemm.below(m*n*k, k*(m+n)+2*m*n) { // gonum's code does it all, checks included
		native.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	impl.gemmGated64(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// gemmGated64 is Dgemm for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) gemmGated64(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	mn := fl(m) * fl(n)
	w := work(prec64, 2*mn*fl(k), fl(k)*(fl(m)+fl(n))+mn*(1+ifNonZero(beta != 0))).over(k)
	if impl.gated(w) {
		native.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	if badTrans(tA) {
		panic(msgBadTranspose)
	}
	if badTrans(tB) {
		panic(msgBadTranspose)
	}
	if m < 0 {
		panic(msgMLT0)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	if k < 0 {
		panic(msgKLT0)
	}
	aTrans := tA != blas.NoTrans
	if aTrans {
		if lda < max(1, m) {
			panic(msgBadLdA)
		}
	} else if lda < max(1, k) {
		panic(msgBadLdA)
	}
	bTrans := tB != blas.NoTrans
	if bTrans {
		if ldb < max(1, k) {
			panic(msgBadLdB)
		}
	} else if ldb < max(1, n) {
		panic(msgBadLdB)
	}
	if ldc < max(1, n) {
		panic(msgBadLdC)
	}
	if m == 0 || n == 0 {
		return
	}
	if aTrans {
		if len(a) < (k-1)*lda+m {
			panic(msgShortA)
		}
	} else if len(a) < (m-1)*lda+k {
		panic(msgShortA)
	}
	if bTrans {
		if len(b) < (n-1)*ldb+k {
			panic(msgShortB)
		}
	} else if len(b) < (k-1)*ldb+n {
		panic(msgShortB)
	}
	if len(c) < (m-1)*ldc+n {
		panic(msgShortC)
	}
	if (alpha == 0 || k == 0) && beta == 1 {
		return
	}
	// With beta = 0 nothing of C's old contents is needed, so B's scan for
	// NaN and Inf runs beside the device call instead of before it: should
	// it find one, gonum redoes the whole product over what the device wrote.
	scanBeside := beta == 0 && alpha != 0 && !gemmSkipsNone(tA, tB)
	if impl.weigh("Dgemm", w, func() bool {
		return finite(alpha, beta) && (alpha == 0 || gemmSkipsNone(tA, tB) || scanBeside || opFinite(tB, b, k, n, ldb))
	}) {
		scan := scanAside(scanBeside, func() bool { return opFinite(tB, b, k, n, ldb) })
		err := impl.dev64.Gemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		if scan != nil && !<-scan {
			impl.nonFiniteAfter("Dgemm")
			native.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
			return
		}
		if err == nil {
			return
		}
		impl.deviceFailed("Dgemm", err)
		if i := eng.RowsDone(err); i > 0 { // the device finished rows [0, i) of C
			native.Dgemm(tA, tB, m-i, n, k, alpha, a[eng.OpRow(tA, i, lda):], lda, b, ldb, beta, c[i*ldc:], ldc)
			return
		}
	}
	native.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Dsymm computes C = alpha*A*B + beta*C (s == blas.Left) or
// C = alpha*B*A + beta*C (s == blas.Right) for the symmetric matrix A and
// m×n matrices B and C.
func (impl *Implementation) Dsymm(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if k := gateK(s, m, n); impl.ig.Dsymm.below(m*n*k, k*k+3*m*n) {
		native.Dsymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	impl.symmGated64(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
}

// symmGated64 is Dsymm for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) symmGated64(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if badSide(s) {
		panic(msgBadSide)
	}
	if badUplo(ul) {
		panic(msgBadUplo)
	}
	if m < 0 {
		panic(msgMLT0)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	k := n
	if s == blas.Left {
		k = m
	}
	if lda < max(1, k) {
		panic(msgBadLdA)
	}
	if ldb < max(1, n) {
		panic(msgBadLdB)
	}
	if ldc < max(1, n) {
		panic(msgBadLdC)
	}
	if m == 0 || n == 0 {
		return
	}
	if len(a) < lda*(k-1)+k {
		panic(msgShortA)
	}
	if len(b) < ldb*(m-1)+n {
		panic(msgShortB)
	}
	if len(c) < ldc*(m-1)+n {
		panic(msgShortC)
	}
	if alpha == 0 && beta == 1 {
		return
	}
	mn := fl(m) * fl(n)
	if w := work(prec64, 2*mn*fl(k), fl(k)*fl(k)+mn*(2+ifNonZero(beta != 0))).direct(viaGemmEff(0.9, m, n)).over(k); !impl.gated(w) && impl.weigh("Dsymm", w, func() bool {
		return finite(alpha, beta) && (alpha == 0 || triFinite(a, k, lda, ul, false) && matFinite(b, m, n, ldb))
	}) {
		err := impl.dev64.Symm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
		if err == nil {
			return
		}
		impl.deviceFailed("Dsymm", err)
	}
	native.Dsymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Dsyrk computes the ul triangle of C = alpha*A*Aᵀ + beta*C
// (t == blas.NoTrans) or C = alpha*Aᵀ*A + beta*C (otherwise) for the n×n
// symmetric matrix C.
func (impl *Implementation) Dsyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	if impl.ig.Dsyrk.below(n*n*k, n*k+2*n*n) {
		native.Dsyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
		return
	}
	impl.syrkGated64(ul, t, n, k, alpha, a, lda, beta, c, ldc)
}

// syrkGated64 is Dsyrk for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) syrkGated64(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	if badUplo(ul) {
		panic(msgBadUplo)
	}
	if badTrans(t) {
		panic(msgBadTranspose)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	if k < 0 {
		panic(msgKLT0)
	}
	row, col := k, n
	if t == blas.NoTrans {
		row, col = n, k
	}
	if lda < max(1, col) {
		panic(msgBadLdA)
	}
	if ldc < max(1, n) {
		panic(msgBadLdC)
	}
	if n == 0 {
		return
	}
	if len(a) < lda*(row-1)+col {
		panic(msgShortA)
	}
	if len(c) < ldc*(n-1)+n {
		panic(msgShortC)
	}
	if alpha == 0 && beta == 1 {
		// gonum multiplies the triangle by 1 here, which changes nothing.
		return
	}
	nn := fl(n) * fl(n)
	if w := work(prec64, nn*fl(k), fl(n)*fl(k)+nn*(1+ifNonZero(beta != 0))).direct(viaGemmEff(0.5, n, k)).over(k); !impl.gated(w) && impl.weigh("Dsyrk", w, func() bool {
		return finite(alpha, beta) && (alpha == 0 || opFinite(t, a, n, k, lda))
	}) {
		err := impl.dev64.Syrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
		if err == nil {
			return
		}
		impl.deviceFailed("Dsyrk", err)
	}
	native.Dsyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
}

// Dsyr2k computes the ul triangle of C = alpha*A*Bᵀ + alpha*B*Aᵀ + beta*C
// (t == blas.NoTrans) or C = alpha*Aᵀ*B + alpha*Bᵀ*A + beta*C (otherwise)
// for the n×n symmetric matrix C.
func (impl *Implementation) Dsyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if impl.ig.Dsyr2k.below(n*n*k, 2*n*k+2*n*n) {
		native.Dsyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	impl.syr2kGated64(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// syr2kGated64 is Dsyr2k for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) syr2kGated64(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if badUplo(ul) {
		panic(msgBadUplo)
	}
	if badTrans(t) {
		panic(msgBadTranspose)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	if k < 0 {
		panic(msgKLT0)
	}
	row, col := k, n
	if t == blas.NoTrans {
		row, col = n, k
	}
	if lda < max(1, col) {
		panic(msgBadLdA)
	}
	if ldb < max(1, col) {
		panic(msgBadLdB)
	}
	if ldc < max(1, n) {
		panic(msgBadLdC)
	}
	if n == 0 {
		return
	}
	if len(a) < lda*(row-1)+col {
		panic(msgShortA)
	}
	if len(b) < ldb*(row-1)+col {
		panic(msgShortB)
	}
	if len(c) < ldc*(n-1)+n {
		panic(msgShortC)
	}
	if alpha == 0 && beta == 1 {
		// gonum multiplies the triangle by 1 here, which changes nothing.
		return
	}
	nn := fl(n) * fl(n)
	if w := work(prec64, 2*nn*fl(k), 2*fl(n)*fl(k)+nn*(1+ifNonZero(beta != 0))).direct(viaGemmEff(0.9, n, k)).over(k); !impl.gated(w) && impl.weigh("Dsyr2k", w, func() bool {
		return finite(alpha, beta) && (alpha == 0 || opFinite(t, a, n, k, lda) && opFinite(t, b, n, k, ldb))
	}) {
		err := impl.dev64.Syr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		if err == nil {
			return
		}
		impl.deviceFailed("Dsyr2k", err)
	}
	native.Dsyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Dtrmm computes B = alpha*op(A)*B (s == blas.Left) or B = alpha*B*op(A)
// (s == blas.Right) for the triangular matrix A and the m×n matrix B, where
// op(A) is A or Aᵀ as tA says.
func (impl *Implementation) Dtrmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	if k := gateK(s, m, n); impl.ig.Dtrmm.below(m*n*k, k*k+2*m*n) {
		native.Dtrmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	impl.trmmGated64(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

// trmmGated64 is Dtrmm for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) trmmGated64(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	k, ok := impl.checkTriangular3(s, ul, tA, d, m, n, len(a), lda, len(b), ldb)
	if !ok {
		return
	}
	if w := work(prec64, fl(m)*fl(n)*fl(k), fl(k)*fl(k)+2*fl(m)*fl(n)).direct(trmmEff(m, n, k)).over(k); !impl.gated(w) && impl.weigh("Dtrmm", w, func() bool {
		return finite(alpha) && (alpha == 0 || triFinite(a, k, lda, ul, d == blas.Unit) && matFinite(b, m, n, ldb))
	}) {
		err := impl.dev64.Trmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		if err == nil {
			return
		}
		impl.deviceFailed("Dtrmm", err)
	}
	native.Dtrmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

// Dtrsm solves op(A)*X = alpha*B (s == blas.Left) or X*op(A) = alpha*B
// (s == blas.Right) for the triangular matrix A and the m×n matrix X, where
// op(A) is A or Aᵀ as tA says; B is overwritten by X.
func (impl *Implementation) Dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	if k := gateK(s, m, n); impl.ig.Dtrsm.below(m*n*k, k*k+2*m*n) {
		native.Dtrsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	impl.trsmGated64(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

// trsmGated64 is Dtrsm for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) trsmGated64(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	k, ok := impl.checkTriangular3(s, ul, tA, d, m, n, len(a), lda, len(b), ldb)
	if !ok {
		return
	}
	if w := work(prec64, fl(m)*fl(n)*fl(k), fl(k)*fl(k)+2*fl(m)*fl(n)).direct(0.5).over(k); !impl.gated(w) && impl.weigh("Dtrsm", w, func() bool {
		return finite(alpha) && (alpha == 0 || triFinite(a, k, lda, ul, d == blas.Unit) && matFinite(b, m, n, ldb))
	}) {
		err := impl.dev64.Trsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		if err == nil {
			return
		}
		impl.deviceFailed("Dtrsm", err)
	}
	native.Dtrsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}
