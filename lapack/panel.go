package cllapack

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/gocompute/opencl/internal/hostlu"
)

// panelBase is the panel width at or below which getrfPanel calls
// hostlu.Getf2 (gonum's unblocked Dgetf2, its updates by strips of eight
// columns). On a panel buffer that narrow, Dgetf2's rank-one updates run
// along whole short rows, and they beat the recursion's small Dtrsm and
// Dgemm calls even on panels 4096 tall (BENCHMARKS.md, "LU's row
// interchanges and triangular solves by runs of columns").
const panelBase = 64

// getrfPanel is the LU factorization with partial pivoting of the m×n
// panel a (row stride lda, m ≥ n), with gonum's Dgetf2 contract (ipiv
// relative to the panel, false for an exactly zero pivot). Wider than
// panelBase, it splits the columns in two recursively, so that the work
// between the halves is one Dtrsm and one Dgemm instead of rank-one
// updates that read the whole tall panel once per column.
func getrfPanel(m, n int, a []float64, lda int, ipiv []int) bool {
	g := gonum.Implementation{}
	if n <= panelBase {
		return hostlu.Getf2(m, n, a, lda, ipiv)
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

// qrPanelBlock is the width of the sub-panels geqrfPanel factorises with
// gonum's unblocked Dgeqr2.
const qrPanelBlock = 32

// geqrfPanel is the QR factorization of the m×n panel a (row stride lda),
// with gonum's Dgeqr2 contract (R and the reflectors in a, their factors
// in tau, len(tau) == min(m, n)). It works in sub-panels qrPanelBlock wide,
// applying each one's block reflector to the rest of the panel with
// Dlarfb (level 3) instead of one reflector at a time.
func geqrfPanel(m, n int, a []float64, lda int, tau []float64) {
	g := gonum.Implementation{}
	k := min(m, n)
	work := make([]float64, max(n, 1)*qrPanelBlock)
	if k <= qrPanelBlock {
		g.Dgeqr2(m, n, a, lda, tau, work)
		return
	}
	t := make([]float64, qrPanelBlock*qrPanelBlock)
	for i := 0; i < k; i += qrPanelBlock {
		ib := min(qrPanelBlock, k-i)
		g.Dgeqr2(m-i, ib, a[i*lda+i:], lda, tau[i:i+ib], work)
		if i+ib < n {
			g.Dlarft(lapack.Forward, lapack.ColumnWise, m-i, ib, a[i*lda+i:], lda, tau[i:i+ib], t, ib)
			g.Dlarfb(blas.Left, blas.Trans, lapack.Forward, lapack.ColumnWise, m-i, n-i-ib, ib,
				a[i*lda+i:], lda, t, ib, a[i*lda+i+ib:], lda, work, ib)
		}
	}
}

// inFloat64 runs f, one of gonum's float64 routines, on the panel p: on p
// itself when T is float64, else on a float64 copy in *buf (grown as
// needed) that is rounded back into p afterwards.
func inFloat64[T float32 | float64](p []T, buf *[]float64, f func([]float64) bool) bool {
	if q, ok := any(p).([]float64); ok {
		return f(q)
	}
	if cap(*buf) < len(p) {
		*buf = make([]float64, len(p))
	}
	q := (*buf)[:len(p)]
	for i, v := range p {
		q[i] = float64(v)
	}
	ok := f(q)
	for i, v := range q {
		p[i] = T(v)
	}
	return ok
}
