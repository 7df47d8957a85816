package clblas

import "gonum.org/v1/gonum/blas"

// checkTriangular3 does the argument checks of [DS]trmm and [DS]trsm in
// gonum's order, given the lengths of a and b. It returns the order k of the
// triangular matrix A and whether there is work to do (m > 0 and n > 0).
func (impl *Implementation) checkTriangular3(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n, lenA, lda, lenB, ldb int) (k int, ok bool) {
	if badSide(s) {
		panic(msgBadSide)
	}
	if badUplo(ul) {
		panic(msgBadUplo)
	}
	if badTrans(tA) {
		panic(msgBadTranspose)
	}
	if badDiag(d) {
		panic(msgBadDiag)
	}
	if m < 0 {
		panic(msgMLT0)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	k = n
	if s == blas.Left {
		k = m
	}
	if lda < max(1, k) {
		panic(msgBadLdA)
	}
	if ldb < max(1, n) {
		panic(msgBadLdB)
	}
	if m == 0 || n == 0 {
		return k, false
	}
	if lenA < lda*(k-1)+k {
		panic(msgShortA)
	}
	if lenB < ldb*(m-1)+n {
		panic(msgShortB)
	}
	return k, true
}

// gateK is the order of the triangular or symmetric A of a level 3 call
// with side s (m for blas.Left, else n), for the gate that such a call
// meets before its checks.
func gateK(s blas.Side, m, n int) int {
	if s == blas.Left {
		return m
	}
	return n
}
