package kernels_test

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// The reference: gonum's Go code for each complex kernel, in either
// precision, chosen by the element type.

type cxT interface{ complex64 | complex128 }

type fT interface{ float32 | float64 }

var gonumRef gonum.Implementation

func refAxpy[T cxT](n int, alpha T, x []T, incX int, y []T, incY int) {
	switch x := any(x).(type) {
	case []complex64:
		gonumRef.Caxpy(n, any(alpha).(complex64), x, incX, any(y).([]complex64), incY)
	case []complex128:
		gonumRef.Zaxpy(n, any(alpha).(complex128), x, incX, any(y).([]complex128), incY)
	}
}

func refScal[T cxT](n int, alpha T, x []T, incX int) {
	switch x := any(x).(type) {
	case []complex64:
		gonumRef.Cscal(n, any(alpha).(complex64), x, incX)
	case []complex128:
		gonumRef.Zscal(n, any(alpha).(complex128), x, incX)
	}
}

func refSscal[T cxT, F fT](n int, alpha F, x []T, incX int) {
	switch x := any(x).(type) {
	case []complex64:
		gonumRef.Csscal(n, float32(alpha), x, incX)
	case []complex128:
		gonumRef.Zdscal(n, float64(alpha), x, incX)
	}
}

func refCopy[T cxT](n int, x []T, incX int, y []T, incY int) {
	switch x := any(x).(type) {
	case []complex64:
		gonumRef.Ccopy(n, x, incX, any(y).([]complex64), incY)
	case []complex128:
		gonumRef.Zcopy(n, x, incX, any(y).([]complex128), incY)
	}
}

func refSwap[T cxT](n int, x []T, incX int, y []T, incY int) {
	switch x := any(x).(type) {
	case []complex64:
		gonumRef.Cswap(n, x, incX, any(y).([]complex64), incY)
	case []complex128:
		gonumRef.Zswap(n, x, incX, any(y).([]complex128), incY)
	}
}

func refDot[T cxT](conj bool, n int, x []T, incX int, y []T, incY int) T {
	switch x := any(x).(type) {
	case []complex64:
		if conj {
			return any(gonumRef.Cdotc(n, x, incX, any(y).([]complex64), incY)).(T)
		}
		return any(gonumRef.Cdotu(n, x, incX, any(y).([]complex64), incY)).(T)
	case []complex128:
		if conj {
			return any(gonumRef.Zdotc(n, x, incX, any(y).([]complex128), incY)).(T)
		}
		return any(gonumRef.Zdotu(n, x, incX, any(y).([]complex128), incY)).(T)
	}
	panic("unreachable")
}

func refAsum[T cxT](n int, x []T, incX int) float64 {
	switch x := any(x).(type) {
	case []complex64:
		return float64(gonumRef.Scasum(n, x, incX))
	case []complex128:
		return gonumRef.Dzasum(n, x, incX)
	}
	panic("unreachable")
}

func refNrm2[T cxT](n int, x []T, incX int) float64 {
	switch x := any(x).(type) {
	case []complex64:
		return float64(gonumRef.Scnrm2(n, x, incX))
	case []complex128:
		return gonumRef.Dznrm2(n, x, incX)
	}
	panic("unreachable")
}

func refIamax[T cxT](n int, x []T, incX int) int {
	switch x := any(x).(type) {
	case []complex64:
		return gonumRef.Icamax(n, x, incX)
	case []complex128:
		return gonumRef.Izamax(n, x, incX)
	}
	panic("unreachable")
}

func refGemm[T cxT](tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	switch a := any(a).(type) {
	case []complex64:
		gonumRef.Cgemm(tA, tB, m, n, k, any(alpha).(complex64), a, lda, any(b).([]complex64), ldb, any(beta).(complex64), any(c).([]complex64), ldc)
	case []complex128:
		gonumRef.Zgemm(tA, tB, m, n, k, any(alpha).(complex128), a, lda, any(b).([]complex128), ldb, any(beta).(complex128), any(c).([]complex128), ldc)
	}
}

func refRankK[T cxT](name string, ul blas.Uplo, tr blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	switch a := any(a).(type) {
	case []complex64:
		b, c, al, be := any(b).([]complex64), any(c).([]complex64), any(alpha).(complex64), any(beta).(complex64)
		switch name {
		case "syrk":
			gonumRef.Csyrk(ul, tr, n, k, al, a, lda, be, c, ldc)
		case "herk":
			gonumRef.Cherk(ul, tr, n, k, real(al), a, lda, real(be), c, ldc)
		case "syr2k":
			gonumRef.Csyr2k(ul, tr, n, k, al, a, lda, b, ldb, be, c, ldc)
		case "her2k":
			gonumRef.Cher2k(ul, tr, n, k, al, a, lda, b, ldb, real(be), c, ldc)
		}
	case []complex128:
		b, c, al, be := any(b).([]complex128), any(c).([]complex128), any(alpha).(complex128), any(beta).(complex128)
		switch name {
		case "syrk":
			gonumRef.Zsyrk(ul, tr, n, k, al, a, lda, be, c, ldc)
		case "herk":
			gonumRef.Zherk(ul, tr, n, k, real(al), a, lda, real(be), c, ldc)
		case "syr2k":
			gonumRef.Zsyr2k(ul, tr, n, k, al, a, lda, b, ldb, be, c, ldc)
		case "her2k":
			gonumRef.Zher2k(ul, tr, n, k, al, a, lda, b, ldb, real(be), c, ldc)
		}
	}
}
