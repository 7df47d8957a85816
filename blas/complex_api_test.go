package clblas_test

import "gonum.org/v1/gonum/blas"

// cxElem is complex64 or complex128; cxReal is the matching float type.
type (
	cxElem interface{ complex64 | complex128 }
	cxReal interface{ float32 | float64 }
)

// capi is the complex BLAS of one precision as function values, so that
// one generic test drives the Z… and the C… routines alike.
type capi[T cxElem, R cxReal] struct {
	dotu, dotc func(n int, x []T, incX int, y []T, incY int) T
	nrm2, asum func(n int, x []T, incX int) R
	iamax      func(n int, x []T, incX int) int
	swap, copy func(n int, x []T, incX int, y []T, incY int)
	axpy       func(n int, alpha T, x []T, incX int, y []T, incY int)
	scal       func(n int, alpha T, x []T, incX int)
	rscal      func(n int, alpha R, x []T, incX int)

	gemv       func(tA blas.Transpose, m, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int)
	gbmv       func(tA blas.Transpose, m, n, kL, kU int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int)
	trmv, trsv func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []T, lda int, x []T, incX int)
	tbmv, tbsv func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []T, lda int, x []T, incX int)
	tpmv, tpsv func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []T, x []T, incX int)
	hemv       func(ul blas.Uplo, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int)
	hbmv       func(ul blas.Uplo, n, k int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int)
	hpmv       func(ul blas.Uplo, n int, alpha T, ap []T, x []T, incX int, beta T, y []T, incY int)
	geru, gerc func(m, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int)
	her        func(ul blas.Uplo, n int, alpha R, x []T, incX int, a []T, lda int)
	hpr        func(ul blas.Uplo, n int, alpha R, x []T, incX int, ap []T)
	her2       func(ul blas.Uplo, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int)
	hpr2       func(ul blas.Uplo, n int, alpha T, x []T, incX int, y []T, incY int, ap []T)
	gemm       func(tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)
	symm, hemm func(s blas.Side, ul blas.Uplo, m, n int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)
	syrk       func(ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, beta T, c []T, ldc int)
	herk       func(ul blas.Uplo, t blas.Transpose, n, k int, alpha R, a []T, lda int, beta R, c []T, ldc int)
	syr2k      func(ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)
	her2k      func(ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta R, c []T, ldc int)
	trmm, trsm func(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int)
}

func api128(b blas.Complex128) capi[complex128, float64] {
	return capi[complex128, float64]{
		dotu: b.Zdotu, dotc: b.Zdotc, nrm2: b.Dznrm2, asum: b.Dzasum, iamax: b.Izamax,
		swap: b.Zswap, copy: b.Zcopy, axpy: b.Zaxpy, scal: b.Zscal, rscal: b.Zdscal,
		gemv: b.Zgemv, gbmv: b.Zgbmv, trmv: b.Ztrmv, trsv: b.Ztrsv, tbmv: b.Ztbmv, tbsv: b.Ztbsv,
		tpmv: b.Ztpmv, tpsv: b.Ztpsv, hemv: b.Zhemv, hbmv: b.Zhbmv, hpmv: b.Zhpmv,
		geru: b.Zgeru, gerc: b.Zgerc, her: b.Zher, hpr: b.Zhpr, her2: b.Zher2, hpr2: b.Zhpr2,
		gemm: b.Zgemm, symm: b.Zsymm, hemm: b.Zhemm, syrk: b.Zsyrk, herk: b.Zherk,
		syr2k: b.Zsyr2k, her2k: b.Zher2k, trmm: b.Ztrmm, trsm: b.Ztrsm,
	}
}

func api64(b blas.Complex64) capi[complex64, float32] {
	return capi[complex64, float32]{
		dotu: b.Cdotu, dotc: b.Cdotc, nrm2: b.Scnrm2, asum: b.Scasum, iamax: b.Icamax,
		swap: b.Cswap, copy: b.Ccopy, axpy: b.Caxpy, scal: b.Cscal, rscal: b.Csscal,
		gemv: b.Cgemv, gbmv: b.Cgbmv, trmv: b.Ctrmv, trsv: b.Ctrsv, tbmv: b.Ctbmv, tbsv: b.Ctbsv,
		tpmv: b.Ctpmv, tpsv: b.Ctpsv, hemv: b.Chemv, hbmv: b.Chbmv, hpmv: b.Chpmv,
		geru: b.Cgeru, gerc: b.Cgerc, her: b.Cher, hpr: b.Chpr, her2: b.Cher2, hpr2: b.Chpr2,
		gemm: b.Cgemm, symm: b.Csymm, hemm: b.Chemm, syrk: b.Csyrk, herk: b.Cherk,
		syr2k: b.Csyr2k, her2k: b.Cher2k, trmm: b.Ctrmm, trsm: b.Ctrsm,
	}
}
