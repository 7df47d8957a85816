package cllapack

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/testlapack"
)

// solver is what the solve tests call on ours and on gonum's.
type solver interface {
	Dgetrs(blas.Transpose, int, int, []float64, int, []int, []float64, int)
	Dpotrs(blas.Uplo, int, int, []float64, int, []float64, int)
}

func TestDtrtrsGonum(t *testing.T) {
	impl := newTestImpl(t, 16)
	testlapack.DtrtrsTest(t, impl)
}

// TestSolvesMatchGonum compares the device solves with gonum's on a
// factorization of order 130 with 1 and 70 right-hand sides, strided.
func TestSolvesMatchGonum(t *testing.T) {
	impl := newTestImpl(t, 32)
	g := gonum.Implementation{}
	rnd := rand.New(rand.NewPCG(9, 10))
	const n, lda = 130, 133
	for _, nrhs := range []int{1, 70} {
		ldb := nrhs + 1
		b := make([]float64, (n-1)*ldb+nrhs)
		for i := range b {
			b[i] = rnd.NormFloat64()
		}
		solve := func(name string, f func(impl solver, x []float64)) {
			got := append([]float64(nil), b...)
			want := append([]float64(nil), b...)
			f(impl, got)
			f(g, want)
			compare(t, name, n, nrhs, got, want, ldb, 1e-9)
			checkPadding(t, name, n, nrhs, got, b, ldb)
		}
		lu := make([]float64, (n-1)*lda+n)
		for i := range lu {
			lu[i] = rnd.NormFloat64()
		}
		ipiv := make([]int, n)
		g.Dgetrf(n, n, lu, lda, ipiv)
		for _, tr := range []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans} {
			solve("Dgetrs", func(impl solver, x []float64) {
				impl.Dgetrs(tr, n, nrhs, lu, lda, ipiv, x, ldb)
			})
		}
		ch := spd(n, lda, rnd)
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			c := append([]float64(nil), ch...)
			g.Dpotrf(ul, n, c, lda)
			solve("Dpotrs", func(impl solver, x []float64) {
				impl.Dpotrs(ul, n, nrhs, c, lda, x, ldb)
			})
		}
	}
}
