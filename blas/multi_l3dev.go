package clblas

import (
	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// l3Dev is the level 3 routines of one precision on one device, or on the
// CPU, for the split calls (multi_gemm.go): the same parameters as
// gonum's, returning the device's error (nil on the CPU).
type l3Dev[T eng.Real] interface {
	gemm(tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error
	symm(s blas.Side, ul blas.Uplo, m, n int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error
	syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, beta T, c []T, ldc int) error
	syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error
	trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) error
	trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) error
}

// l3Of64 and l3Of32 return member mb's level 3 routines, gonum's for nil.
func l3Of64(mb *member) l3Dev[float64] {
	if mb == nil {
		return cpu64{}
	}
	return dev64{mb.d64}
}

func l3Of32(mb *member) l3Dev[float32] {
	if mb == nil {
		return cpu32{}
	}
	return dev32{mb.d32}
}

type dev64 struct{ d deviceFloat64 }
type dev32 struct{ d deviceFloat32 }
type cpu64 struct{}
type cpu32 struct{}

func (d dev64) gemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	return d.d.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
func (d dev64) symm(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	return d.d.Dsymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
}
func (d dev64) syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) error {
	return d.d.Dsyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
}
func (d dev64) syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	return d.d.Dsyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
func (d dev64) trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, dg blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error {
	return d.d.Dtrmm(s, ul, tA, dg, m, n, alpha, a, lda, b, ldb)
}
func (d dev64) trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, dg blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error {
	return d.d.Dtrsm(s, ul, tA, dg, m, n, alpha, a, lda, b, ldb)
}

func (d dev32) gemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	return d.d.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
func (d dev32) symm(s blas.Side, ul blas.Uplo, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	return d.d.Ssymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
}
func (d dev32) syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int) error {
	return d.d.Ssyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
}
func (d dev32) syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	return d.d.Ssyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
func (d dev32) trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, dg blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error {
	return d.d.Strmm(s, ul, tA, dg, m, n, alpha, a, lda, b, ldb)
}
func (d dev32) trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, dg blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error {
	return d.d.Strsm(s, ul, tA, dg, m, n, alpha, a, lda, b, ldb)
}

func (cpu64) gemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	native.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}
func (cpu64) symm(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	native.Dsymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}
func (cpu64) syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) error {
	native.Dsyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
	return nil
}
func (cpu64) syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	native.Dsyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}
func (cpu64) trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, dg blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error {
	native.Dtrmm(s, ul, tA, dg, m, n, alpha, a, lda, b, ldb)
	return nil
}
func (cpu64) trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, dg blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error {
	native.Dtrsm(s, ul, tA, dg, m, n, alpha, a, lda, b, ldb)
	return nil
}

func (cpu32) gemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	native.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}
func (cpu32) symm(s blas.Side, ul blas.Uplo, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	native.Ssymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}
func (cpu32) syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int) error {
	native.Ssyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
	return nil
}
func (cpu32) syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	native.Ssyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	return nil
}
func (cpu32) trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, dg blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error {
	native.Strmm(s, ul, tA, dg, m, n, alpha, a, lda, b, ldb)
	return nil
}
func (cpu32) trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, dg blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error {
	native.Strsm(s, ul, tA, dg, m, n, alpha, a, lda, b, ldb)
	return nil
}
