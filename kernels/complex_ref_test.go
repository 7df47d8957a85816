package kernels_test

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// The reference: gonum's Go code for each complex kernel, in either
// precision, chosen by the element type.

type cxT interface{ complex64 | complex128 }

type fT interface{ float32 | float64 }

var native gonum.Implementation

func refAxpy[T cxT](n int, alpha T, x []T, incX int, y []T, incY int) {
	switch x := any(x).(type) {
	case []complex64:
		native.Caxpy(n, any(alpha).(complex64), x, incX, any(y).([]complex64), incY)
	case []complex128:
		native.Zaxpy(n, any(alpha).(complex128), x, incX, any(y).([]complex128), incY)
	}
}

func refScal[T cxT](n int, alpha T, x []T, incX int) {
	switch x := any(x).(type) {
	case []complex64:
		native.Cscal(n, any(alpha).(complex64), x, incX)
	case []complex128:
		native.Zscal(n, any(alpha).(complex128), x, incX)
	}
}

func refSscal[T cxT, F fT](n int, alpha F, x []T, incX int) {
	switch x := any(x).(type) {
	case []complex64:
		native.Csscal(n, float32(alpha), x, incX)
	case []complex128:
		native.Zdscal(n, float64(alpha), x, incX)
	}
}

func refCopy[T cxT](n int, x []T, incX int, y []T, incY int) {
	switch x := any(x).(type) {
	case []complex64:
		native.Ccopy(n, x, incX, any(y).([]complex64), incY)
	case []complex128:
		native.Zcopy(n, x, incX, any(y).([]complex128), incY)
	}
}

func refSwap[T cxT](n int, x []T, incX int, y []T, incY int) {
	switch x := any(x).(type) {
	case []complex64:
		native.Cswap(n, x, incX, any(y).([]complex64), incY)
	case []complex128:
		native.Zswap(n, x, incX, any(y).([]complex128), incY)
	}
}

func refDot[T cxT](conj bool, n int, x []T, incX int, y []T, incY int) T {
	switch x := any(x).(type) {
	case []complex64:
		if conj {
			return any(native.Cdotc(n, x, incX, any(y).([]complex64), incY)).(T)
		}
		return any(native.Cdotu(n, x, incX, any(y).([]complex64), incY)).(T)
	case []complex128:
		if conj {
			return any(native.Zdotc(n, x, incX, any(y).([]complex128), incY)).(T)
		}
		return any(native.Zdotu(n, x, incX, any(y).([]complex128), incY)).(T)
	}
	panic("unreachable")
}

func refAsum[T cxT](n int, x []T, incX int) float64 {
	switch x := any(x).(type) {
	case []complex64:
		return float64(native.Scasum(n, x, incX))
	case []complex128:
		return native.Dzasum(n, x, incX)
	}
	panic("unreachable")
}

func refNrm2[T cxT](n int, x []T, incX int) float64 {
	switch x := any(x).(type) {
	case []complex64:
		return float64(native.Scnrm2(n, x, incX))
	case []complex128:
		return native.Dznrm2(n, x, incX)
	}
	panic("unreachable")
}

func refIamax[T cxT](n int, x []T, incX int) int {
	switch x := any(x).(type) {
	case []complex64:
		return native.Icamax(n, x, incX)
	case []complex128:
		return native.Izamax(n, x, incX)
	}
	panic("unreachable")
}

func refGemm[T cxT](tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	switch a := any(a).(type) {
	case []complex64:
		native.Cgemm(tA, tB, m, n, k, any(alpha).(complex64), a, lda, any(b).([]complex64), ldb, any(beta).(complex64), any(c).([]complex64), ldc)
	case []complex128:
		native.Zgemm(tA, tB, m, n, k, any(alpha).(complex128), a, lda, any(b).([]complex128), ldb, any(beta).(complex128), any(c).([]complex128), ldc)
	}
}

func refRankK[T cxT](name string, ul blas.Uplo, tr blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	switch a := any(a).(type) {
	case []complex64:
		b, c, al, be := any(b).([]complex64), any(c).([]complex64), any(alpha).(complex64), any(beta).(complex64)
		switch name {
		case "syrk":
			native.Csyrk(ul, tr, n, k, al, a, lda, be, c, ldc)
		case "herk":
			native.Cherk(ul, tr, n, k, real(al), a, lda, real(be), c, ldc)
		case "syr2k":
			native.Csyr2k(ul, tr, n, k, al, a, lda, b, ldb, be, c, ldc)
		case "her2k":
			native.Cher2k(ul, tr, n, k, al, a, lda, b, ldb, real(be), c, ldc)
		}
	case []complex128:
		b, c, al, be := any(b).([]complex128), any(c).([]complex128), any(alpha).(complex128), any(beta).(complex128)
		switch name {
		case "syrk":
			native.Zsyrk(ul, tr, n, k, al, a, lda, be, c, ldc)
		case "herk":
			native.Zherk(ul, tr, n, k, real(al), a, lda, real(be), c, ldc)
		case "syr2k":
			native.Zsyr2k(ul, tr, n, k, al, a, lda, b, ldb, be, c, ldc)
		case "her2k":
			native.Zher2k(ul, tr, n, k, al, a, lda, b, ldb, real(be), c, ldc)
		}
	}
}
