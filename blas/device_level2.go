package clblas

import "gonum.org/v1/gonum/blas"

var _ = blas.NoTrans

// Level 2 device routines. Not yet on the device: each returns
// errNotImplemented, so the front end finishes the call on the CPU.

func (dev clDevice64) Dgemv(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	return errNotImplemented
}

func (dev clDevice64) Dgbmv(tA blas.Transpose, m, n, kL, kU int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	return errNotImplemented
}

func (dev clDevice64) Dtrmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) error {
	return errNotImplemented
}

func (dev clDevice64) Dtbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) error {
	return errNotImplemented
}

func (dev clDevice64) Dtpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) error {
	return errNotImplemented
}

func (dev clDevice64) Dtrsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) error {
	return errNotImplemented
}

func (dev clDevice64) Dtbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) error {
	return errNotImplemented
}

func (dev clDevice64) Dtpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) error {
	return errNotImplemented
}

func (dev clDevice64) Dsymv(ul blas.Uplo, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	return errNotImplemented
}

func (dev clDevice64) Dsbmv(ul blas.Uplo, n, k int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) error {
	return errNotImplemented
}

func (dev clDevice64) Dspmv(ul blas.Uplo, n int, alpha float64, ap []float64, x []float64, incX int, beta float64, y []float64, incY int) error {
	return errNotImplemented
}

func (dev clDevice64) Dger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) error {
	return errNotImplemented
}

func (dev clDevice64) Dsyr(ul blas.Uplo, n int, alpha float64, x []float64, incX int, a []float64, lda int) error {
	return errNotImplemented
}

func (dev clDevice64) Dspr(ul blas.Uplo, n int, alpha float64, x []float64, incX int, ap []float64) error {
	return errNotImplemented
}

func (dev clDevice64) Dsyr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) error {
	return errNotImplemented
}

func (dev clDevice64) Dspr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, ap []float64) error {
	return errNotImplemented
}

func (dev clDevice32) Sgemv(tA blas.Transpose, m, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	return errNotImplemented
}

func (dev clDevice32) Sgbmv(tA blas.Transpose, m, n, kL, kU int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	return errNotImplemented
}

func (dev clDevice32) Strmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float32, lda int, x []float32, incX int) error {
	return errNotImplemented
}

func (dev clDevice32) Stbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float32, lda int, x []float32, incX int) error {
	return errNotImplemented
}

func (dev clDevice32) Stpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float32, x []float32, incX int) error {
	return errNotImplemented
}

func (dev clDevice32) Strsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float32, lda int, x []float32, incX int) error {
	return errNotImplemented
}

func (dev clDevice32) Stbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float32, lda int, x []float32, incX int) error {
	return errNotImplemented
}

func (dev clDevice32) Stpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float32, x []float32, incX int) error {
	return errNotImplemented
}

func (dev clDevice32) Ssymv(ul blas.Uplo, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	return errNotImplemented
}

func (dev clDevice32) Ssbmv(ul blas.Uplo, n, k int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) error {
	return errNotImplemented
}

func (dev clDevice32) Sspmv(ul blas.Uplo, n int, alpha float32, ap []float32, x []float32, incX int, beta float32, y []float32, incY int) error {
	return errNotImplemented
}

func (dev clDevice32) Sger(m, n int, alpha float32, x []float32, incX int, y []float32, incY int, a []float32, lda int) error {
	return errNotImplemented
}

func (dev clDevice32) Ssyr(ul blas.Uplo, n int, alpha float32, x []float32, incX int, a []float32, lda int) error {
	return errNotImplemented
}

func (dev clDevice32) Sspr(ul blas.Uplo, n int, alpha float32, x []float32, incX int, ap []float32) error {
	return errNotImplemented
}

func (dev clDevice32) Ssyr2(ul blas.Uplo, n int, alpha float32, x []float32, incX int, y []float32, incY int, a []float32, lda int) error {
	return errNotImplemented
}

func (dev clDevice32) Sspr2(ul blas.Uplo, n int, alpha float32, x []float32, incX int, y []float32, incY int, ap []float32) error {
	return errNotImplemented
}
