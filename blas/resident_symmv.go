package clblas

import (
	"errors"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// The checks and the start of y = alpha·A·x + beta·y for a symmetric or
// Hermitian n×n A, shared by Symv/Hemv (dense), Sbmv/Hbmv (band) and
// Spmv/Hpmv (packed). Each returns the started call and n.

func startSymMV[T Element](op string, ul blas.Uplo, a *Matrix[T], x, y *Vector[T], wait []*Event) (*eng.Call, int, error) {
	if err := errors.Join(checkUplo(op, ul), operands(op, a.storage(), x.storage(), y.storage())); err != nil {
		return nil, 0, err
	}
	n := a.rows
	if a.cols != n || x.n != n || y.n != n {
		return nil, 0, shapeErr(op, "A %d×%d, x %d, y %d", a.rows, a.cols, x.n, y.n)
	}
	c, err := start[T](op, wait, a.st)
	return c, n, err
}

func startBandMV[T Element](op string, ul blas.Uplo, k int, a *Matrix[T], x, y *Vector[T], wait []*Event) (*eng.Call, int, error) {
	if err := errors.Join(checkUplo(op, ul), operands(op, a.storage(), x.storage(), y.storage())); err != nil {
		return nil, 0, err
	}
	n := a.rows
	if k < 0 || a.cols != k+1 || x.n != n || y.n != n {
		return nil, 0, shapeErr(op, "k %d, band storage %d×%d, x %d, y %d", k, a.rows, a.cols, x.n, y.n)
	}
	c, err := start[T](op, wait, a.st)
	return c, n, err
}

func startPackedMV[T Element](op string, ul blas.Uplo, ap, x, y *Vector[T], wait []*Event) (*eng.Call, int, error) {
	if err := errors.Join(checkUplo(op, ul), operands(op, ap.storage(), x.storage(), y.storage())); err != nil {
		return nil, 0, err
	}
	n := x.n
	if err := checkPacked(op, ap, n); err != nil {
		return nil, 0, err
	}
	if y.n != n {
		return nil, 0, shapeErr(op, "x %d, y %d", x.n, y.n)
	}
	c, err := start[T](op, wait, ap.st)
	return c, n, err
}
