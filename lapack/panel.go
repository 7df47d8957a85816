package cllapack

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/gonum"
)

// panelBase is the panel width at or below which getrfPanel calls gonum's
// unblocked Dgetf2.
const panelBase = 16

// getrfPanel is the LU factorization with partial pivoting of the m×n
// panel a (row stride lda, m ≥ n), with gonum's Dgetf2 contract (ipiv
// relative to the panel, false for an exactly zero pivot). It splits the
// columns in two recursively, so that most of the work is in one Dtrsm and
// one Dgemm per level instead of Dgetf2's n rank-one updates, which read
// the whole tall panel once per column.
func getrfPanel(m, n int, a []float64, lda int, ipiv []int) bool {
	g := gonum.Implementation{}
	if n <= panelBase {
		return g.Dgetf2(m, n, a, lda, ipiv)
	}
	bi := blas64.Implementation()
	n1 := n / 2
	n2 := n - n1
	ok := getrfPanel(m, n1, a, lda, ipiv[:n1])
	// The left half's interchanges on the right half, then
	// A12 = L11⁻¹·A12 and A22 −= A21·A12.
	g.Dlaswp(n2, a[n1:], lda, 0, n1-1, ipiv[:n1], 1)
	bi.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, n1, n2, 1, a, lda, a[n1:], lda)
	bi.Dgemm(blas.NoTrans, blas.NoTrans, m-n1, n2, n1, -1, a[n1*lda:], lda, a[n1:], lda, 1, a[n1*lda+n1:], lda)
	if !getrfPanel(m-n1, n2, a[n1*lda+n1:], lda, ipiv[n1:]) {
		ok = false
	}
	for i := n1; i < n; i++ {
		ipiv[i] += n1
	}
	// The right half's interchanges on the left half.
	g.Dlaswp(n1, a, lda, n1, n-1, ipiv, 1)
	return ok
}
