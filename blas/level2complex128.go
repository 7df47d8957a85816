package clblas

import (
	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// Zgemv computes one of
//
//	y = alpha * A * x + beta * y   if trans = blas.NoTrans
//	y = alpha * Aᵀ * x + beta * y  if trans = blas.Trans
//	y = alpha * Aᴴ * x + beta * y  if trans = blas.ConjTrans
//
// where A is an m×n dense matrix, x and y are vectors, and alpha and beta
// are scalars.
func (impl *Implementation) Zgemv(trans blas.Transpose, m, n int, alpha complex128, a []complex128, lda int, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	if l := impl.cxSq.Zgemv; m < l && n < l {
		native.Zgemv(trans, m, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	impl.zgemvGated(trans, m, n, alpha, a, lda, x, incX, beta, y, incY)
}

// zgemvGated is Zgemv for calls with a dimension at or above its square limit
// (cxSq), apart so that the calls below it, straight to gonum, pay for no
// larger frame; it meets the call's own gate first.
func (impl *Implementation) zgemvGated(trans blas.Transpose, m, n int, alpha complex128, a []complex128, lda int, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	if impl.gatedN(prec64, 8*m*n, 2*(m*n+2*(m+n))) {
		native.Zgemv(trans, m, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	// gonum's checks, in gonum's order: with α = 0 and β = 1 its Zgemv
	// returns right after them, touching nothing.
	native.Zgemv(trans, m, n, 0, a, lda, x, incX, 1, y, incY)
	if m == 0 || n == 0 || (alpha == 0 && beta == 1) {
		return
	}
	lenX, lenY := n, m
	if trans != blas.NoTrans {
		lenX, lenY = m, n
	}
	if impl.offloadCx("Zgemv", work(prec64, 8*fl(m)*fl(n), 2*(fl(m)*fl(n)+fl(lenX)+fl(lenY)*(1+ifNonZero(beta != 0)))), func() bool {
		return cxFinite(alpha, beta) && (alpha == 0 || cxGeneralFinite(a, m, n, 0, 0, lda, false) && cxVecFinite(x, lenX, incX))
	}) {
		err := eng.CxGemv[complex128, float64](impl.eng, "Zgemv", trans, m, n, alpha, a, lda, x, incX, beta, y, incY)
		if err == nil {
			return
		}
		impl.deviceFailed("Zgemv", err)
	}
	native.Zgemv(trans, m, n, alpha, a, lda, x, incX, beta, y, incY)
}

// Zgbmv computes one of
//
//	y = alpha * A * x + beta * y   if trans = blas.NoTrans
//	y = alpha * Aᵀ * x + beta * y  if trans = blas.Trans
//	y = alpha * Aᴴ * x + beta * y  if trans = blas.ConjTrans
//
// where A is an m×n band matrix with kL sub-diagonals and kU
// super-diagonals, x and y are vectors, and alpha and beta are scalars.
func (impl *Implementation) Zgbmv(trans blas.Transpose, m, n, kL, kU int, alpha complex128, a []complex128, lda int, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	if l := impl.cxSq.Zgbmv; m < l && n < l && kL < l && kU < l {
		native.Zgbmv(trans, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	impl.zgbmvGated(trans, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
}

// zgbmvGated is Zgbmv for calls with a dimension at or above its square limit
// (cxSq), apart so that the calls below it, straight to gonum, pay for no
// larger frame; it meets the call's own gate first.
func (impl *Implementation) zgbmvGated(trans blas.Transpose, m, n, kL, kU int, alpha complex128, a []complex128, lda int, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	if impl.gatedN(prec64, 8*min(m, n+kL)*(kL+kU+1), 2*(min(m, n+kL)*(kL+kU+1)+2*(m+n))) {
		native.Zgbmv(trans, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	// gonum's checks only (α = 0, β = 1 returns right after them).
	native.Zgbmv(trans, m, n, kL, kU, 0, a, lda, x, incX, 1, y, incY)
	if m == 0 || n == 0 || (alpha == 0 && beta == 1) {
		return
	}
	lenX, lenY := n, m
	if trans != blas.NoTrans {
		lenX, lenY = m, n
	}
	band := fl(min(m, n+kL)) * fl(kL+kU+1)
	if impl.offloadCx("Zgbmv", work(prec64, 8*band, 2*(band+fl(lenX)+fl(lenY)*(1+ifNonZero(beta != 0)))), func() bool {
		// gonum's Zgbmv forms α·(A·x) even for α = 0.
		return cxFinite(alpha, beta) && cxGeneralFinite(a, m, n, kL, kU, lda, true) && cxVecFinite(x, lenX, incX)
	}) {
		err := eng.CxGbmv[complex128, float64](impl.eng, "Zgbmv", trans, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
		if err == nil {
			return
		}
		impl.deviceFailed("Zgbmv", err)
	}
	native.Zgbmv(trans, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
}

// Ztrmv computes one of
//
//	x = A * x   if trans = blas.NoTrans
//	x = Aᵀ * x  if trans = blas.Trans
//	x = Aᴴ * x  if trans = blas.ConjTrans
//
// where A is an n×n triangular matrix and x is a vector.
func (impl *Implementation) Ztrmv(uplo blas.Uplo, trans blas.Transpose, diag blas.Diag, n int, a []complex128, lda int, x []complex128, incX int) {
	if n < impl.cxLim2.Ztrmv {
		native.Ztrmv(uplo, trans, diag, n, a, lda, x, incX)
		return
	}
	impl.ztrmvGated(uplo, trans, diag, n, a, lda, x, incX)
}

// ztrmvGated is Ztrmv for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) ztrmvGated(uplo blas.Uplo, trans blas.Transpose, diag blas.Diag, n int, a []complex128, lda int, x []complex128, incX int) {
	if !cxCheckTri(eng.L2Dense, uplo, trans, diag, n, n-1, a, lda, x, incX) {
		return
	}
	if impl.offloadCx("Ztrmv", work(prec64, 4*fl(n)*fl(n), 2*(fl(n)*fl(n+1)/2+2*fl(n))), func() bool {
		return cxTriFinite(a, uplo, eng.L2Dense, n, n-1, lda, cxDiag(diag)) && cxVecFinite(x, n, incX)
	}) {
		err := eng.CxTrmv[complex128, float64](impl.eng, "Ztrmv", uplo, trans, diag, n, a, lda, x, incX)
		if err == nil {
			return
		}
		impl.deviceFailed("Ztrmv", err)
	}
	native.Ztrmv(uplo, trans, diag, n, a, lda, x, incX)
}

// Ztbmv computes one of
//
//	x = A * x   if trans = blas.NoTrans
//	x = Aᵀ * x  if trans = blas.Trans
//	x = Aᴴ * x  if trans = blas.ConjTrans
//
// where A is an n×n triangular band matrix with (k+1) diagonals and x is a
// vector.
func (impl *Implementation) Ztbmv(uplo blas.Uplo, trans blas.Transpose, diag blas.Diag, n, k int, a []complex128, lda int, x []complex128, incX int) {
	if l := impl.cxSq.Ztbmv; n < l && k < l {
		native.Ztbmv(uplo, trans, diag, n, k, a, lda, x, incX)
		return
	}
	impl.ztbmvGated(uplo, trans, diag, n, k, a, lda, x, incX)
}

// ztbmvGated is Ztbmv for calls with a dimension at or above its square limit
// (cxSq), apart so that the calls below it, straight to gonum, pay for no
// larger frame; it meets the call's own gate first.
func (impl *Implementation) ztbmvGated(uplo blas.Uplo, trans blas.Transpose, diag blas.Diag, n, k int, a []complex128, lda int, x []complex128, incX int) {
	if impl.gatedN(prec64, 8*n*(k+1), 2*(n*(k+1)+2*n)) {
		native.Ztbmv(uplo, trans, diag, n, k, a, lda, x, incX)
		return
	}
	if !cxCheckTri(eng.L2Band, uplo, trans, diag, n, k, a, lda, x, incX) {
		return
	}
	if impl.offloadCx("Ztbmv", work(prec64, 8*fl(n)*fl(k+1), 2*(fl(n)*fl(k+1)+2*fl(n))), func() bool {
		return cxTriFinite(a, uplo, eng.L2Band, n, k, lda, cxDiag(diag)) && cxVecFinite(x, n, incX)
	}) {
		err := eng.CxTbmv[complex128, float64](impl.eng, "Ztbmv", uplo, trans, diag, n, k, a, lda, x, incX)
		if err == nil {
			return
		}
		impl.deviceFailed("Ztbmv", err)
	}
	native.Ztbmv(uplo, trans, diag, n, k, a, lda, x, incX)
}

// Ztpmv computes one of
//
//	x = A * x   if trans = blas.NoTrans
//	x = Aᵀ * x  if trans = blas.Trans
//	x = Aᴴ * x  if trans = blas.ConjTrans
//
// where A is an n×n triangular matrix in packed form and x is a vector.
func (impl *Implementation) Ztpmv(uplo blas.Uplo, trans blas.Transpose, diag blas.Diag, n int, ap []complex128, x []complex128, incX int) {
	if n < impl.cxLim2.Ztpmv {
		native.Ztpmv(uplo, trans, diag, n, ap, x, incX)
		return
	}
	impl.ztpmvGated(uplo, trans, diag, n, ap, x, incX)
}

// ztpmvGated is Ztpmv for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) ztpmvGated(uplo blas.Uplo, trans blas.Transpose, diag blas.Diag, n int, ap []complex128, x []complex128, incX int) {
	if !cxCheckTri(eng.L2Packed, uplo, trans, diag, n, n-1, ap, 0, x, incX) {
		return
	}
	if impl.offloadCx("Ztpmv", work(prec64, 4*fl(n)*fl(n), 2*(fl(n)*fl(n+1)/2+2*fl(n))), func() bool {
		return cxTriFinite(ap, uplo, eng.L2Packed, n, n-1, 0, cxDiag(diag)) && cxVecFinite(x, n, incX)
	}) {
		err := eng.CxTpmv[complex128, float64](impl.eng, "Ztpmv", uplo, trans, diag, n, ap, x, incX)
		if err == nil {
			return
		}
		impl.deviceFailed("Ztpmv", err)
	}
	native.Ztpmv(uplo, trans, diag, n, ap, x, incX)
}

// Ztrsv solves one of the systems of equations
//
//	A * x = b   if trans = blas.NoTrans
//	Aᵀ * x = b  if trans = blas.Trans
//	Aᴴ * x = b  if trans = blas.ConjTrans
//
// where b and x are n-element vectors (x holds b on entry) and A is an n×n
// triangular matrix. No test for singularity is made.
func (impl *Implementation) Ztrsv(uplo blas.Uplo, trans blas.Transpose, diag blas.Diag, n int, a []complex128, lda int, x []complex128, incX int) {
	if n < impl.cxLim2.Ztrsv {
		native.Ztrsv(uplo, trans, diag, n, a, lda, x, incX)
		return
	}
	impl.ztrsvGated(uplo, trans, diag, n, a, lda, x, incX)
}

// ztrsvGated is Ztrsv for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) ztrsvGated(uplo blas.Uplo, trans blas.Transpose, diag blas.Diag, n int, a []complex128, lda int, x []complex128, incX int) {
	if !cxCheckTri(eng.L2Dense, uplo, trans, diag, n, n-1, a, lda, x, incX) {
		return
	}
	if impl.offloadCx("Ztrsv", work(prec64, 4*fl(n)*fl(n), 2*(fl(n)*fl(n+1)/2+2*fl(n))), func() bool {
		return cxTriFinite(a, uplo, eng.L2Dense, n, n-1, lda, cxDiag(diag)) && cxVecFinite(x, n, incX)
	}) {
		err := eng.CxTrsv[complex128, float64](impl.eng, "Ztrsv", uplo, trans, diag, n, a, lda, x, incX)
		if err == nil {
			return
		}
		impl.deviceFailed("Ztrsv", err)
	}
	native.Ztrsv(uplo, trans, diag, n, a, lda, x, incX)
}

// Ztbsv solves one of the systems of equations
//
//	A * x = b   if trans = blas.NoTrans
//	Aᵀ * x = b  if trans = blas.Trans
//	Aᴴ * x = b  if trans = blas.ConjTrans
//
// where b and x are n-element vectors (x holds b on entry) and A is an n×n
// triangular band matrix with (k+1) diagonals. No test for singularity is
// made.
func (impl *Implementation) Ztbsv(uplo blas.Uplo, trans blas.Transpose, diag blas.Diag, n, k int, a []complex128, lda int, x []complex128, incX int) {
	if l := impl.cxSq.Ztbsv; n < l && k < l {
		native.Ztbsv(uplo, trans, diag, n, k, a, lda, x, incX)
		return
	}
	impl.ztbsvGated(uplo, trans, diag, n, k, a, lda, x, incX)
}

// ztbsvGated is Ztbsv for calls with a dimension at or above its square limit
// (cxSq), apart so that the calls below it, straight to gonum, pay for no
// larger frame; it meets the call's own gate first.
func (impl *Implementation) ztbsvGated(uplo blas.Uplo, trans blas.Transpose, diag blas.Diag, n, k int, a []complex128, lda int, x []complex128, incX int) {
	if impl.gatedN(prec64, 8*n*(k+1), 2*(n*(k+1)+2*n)) {
		native.Ztbsv(uplo, trans, diag, n, k, a, lda, x, incX)
		return
	}
	if !cxCheckTri(eng.L2Band, uplo, trans, diag, n, k, a, lda, x, incX) {
		return
	}
	if impl.offloadCx("Ztbsv", work(prec64, 8*fl(n)*fl(k+1), 2*(fl(n)*fl(k+1)+2*fl(n))), func() bool {
		return cxTriFinite(a, uplo, eng.L2Band, n, k, lda, cxDiag(diag)) && cxVecFinite(x, n, incX)
	}) {
		err := eng.CxTbsv[complex128, float64](impl.eng, "Ztbsv", uplo, trans, diag, n, k, a, lda, x, incX)
		if err == nil {
			return
		}
		impl.deviceFailed("Ztbsv", err)
	}
	native.Ztbsv(uplo, trans, diag, n, k, a, lda, x, incX)
}

// Ztpsv solves one of the systems of equations
//
//	A * x = b   if trans = blas.NoTrans
//	Aᵀ * x = b  if trans = blas.Trans
//	Aᴴ * x = b  if trans = blas.ConjTrans
//
// where b and x are n-element vectors (x holds b on entry) and A is an n×n
// triangular matrix in packed form. No test for singularity is made.
func (impl *Implementation) Ztpsv(uplo blas.Uplo, trans blas.Transpose, diag blas.Diag, n int, ap []complex128, x []complex128, incX int) {
	if n < impl.cxLim2.Ztpsv {
		native.Ztpsv(uplo, trans, diag, n, ap, x, incX)
		return
	}
	impl.ztpsvGated(uplo, trans, diag, n, ap, x, incX)
}

// ztpsvGated is Ztpsv for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) ztpsvGated(uplo blas.Uplo, trans blas.Transpose, diag blas.Diag, n int, ap []complex128, x []complex128, incX int) {
	if !cxCheckTri(eng.L2Packed, uplo, trans, diag, n, n-1, ap, 0, x, incX) {
		return
	}
	if impl.offloadCx("Ztpsv", work(prec64, 4*fl(n)*fl(n), 2*(fl(n)*fl(n+1)/2+2*fl(n))), func() bool {
		return cxTriFinite(ap, uplo, eng.L2Packed, n, n-1, 0, cxDiag(diag)) && cxVecFinite(x, n, incX)
	}) {
		err := eng.CxTpsv[complex128, float64](impl.eng, "Ztpsv", uplo, trans, diag, n, ap, x, incX)
		if err == nil {
			return
		}
		impl.deviceFailed("Ztpsv", err)
	}
	native.Ztpsv(uplo, trans, diag, n, ap, x, incX)
}

// Zhemv computes
//
//	y = alpha * A * x + beta * y
//
// where A is an n×n Hermitian matrix, x and y are vectors, and alpha and
// beta are scalars. The imaginary parts of the diagonal of A are ignored
// and assumed to be zero.
func (impl *Implementation) Zhemv(uplo blas.Uplo, n int, alpha complex128, a []complex128, lda int, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	if n < impl.cxLim2.Zhemv {
		native.Zhemv(uplo, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	impl.zhemvGated(uplo, n, alpha, a, lda, x, incX, beta, y, incY)
}

// zhemvGated is Zhemv for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) zhemvGated(uplo blas.Uplo, n int, alpha complex128, a []complex128, lda int, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	// gonum's checks only (α = 0, β = 1 returns right after them).
	native.Zhemv(uplo, n, 0, a, lda, x, incX, 1, y, incY)
	if n == 0 || (alpha == 0 && beta == 1) {
		return
	}
	if impl.offloadCx("Zhemv", work(prec64, 8*fl(n)*fl(n), 2*(fl(n)*fl(n+1)/2+fl(n)*(2+ifNonZero(beta != 0)))), func() bool {
		return cxFinite(alpha, beta) && (alpha == 0 || cxTriFinite(a, uplo, eng.L2Dense, n, n-1, lda, diagReal) && cxVecFinite(x, n, incX))
	}) {
		err := eng.CxHemv[complex128, float64](impl.eng, "Zhemv", uplo, n, alpha, a, lda, x, incX, beta, y, incY)
		if err == nil {
			return
		}
		impl.deviceFailed("Zhemv", err)
	}
	native.Zhemv(uplo, n, alpha, a, lda, x, incX, beta, y, incY)
}

// Zhbmv computes
//
//	y = alpha * A * x + beta * y
//
// where A is an n×n Hermitian band matrix with k super-diagonals, x and y
// are vectors, and alpha and beta are scalars. The imaginary parts of the
// diagonal of A are ignored and assumed to be zero.
func (impl *Implementation) Zhbmv(uplo blas.Uplo, n, k int, alpha complex128, a []complex128, lda int, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	if l := impl.cxSq.Zhbmv; n < l && k < l {
		native.Zhbmv(uplo, n, k, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	impl.zhbmvGated(uplo, n, k, alpha, a, lda, x, incX, beta, y, incY)
}

// zhbmvGated is Zhbmv for calls with a dimension at or above its square limit
// (cxSq), apart so that the calls below it, straight to gonum, pay for no
// larger frame; it meets the call's own gate first.
func (impl *Implementation) zhbmvGated(uplo blas.Uplo, n, k int, alpha complex128, a []complex128, lda int, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	if impl.gatedN(prec64, 16*n*(k+1), 2*(n*(k+1)+3*n)) {
		native.Zhbmv(uplo, n, k, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	// gonum's checks only (α = 0, β = 1 returns right after them).
	native.Zhbmv(uplo, n, k, 0, a, lda, x, incX, 1, y, incY)
	if n == 0 || (alpha == 0 && beta == 1) {
		return
	}
	if impl.offloadCx("Zhbmv", work(prec64, 16*fl(n)*fl(k+1), 2*(fl(n)*fl(k+1)+fl(n)*(2+ifNonZero(beta != 0)))), func() bool {
		return cxFinite(alpha, beta) && (alpha == 0 || cxTriFinite(a, uplo, eng.L2Band, n, k, lda, diagReal) && cxVecFinite(x, n, incX))
	}) {
		err := eng.CxHbmv[complex128, float64](impl.eng, "Zhbmv", uplo, n, k, alpha, a, lda, x, incX, beta, y, incY)
		if err == nil {
			return
		}
		impl.deviceFailed("Zhbmv", err)
	}
	native.Zhbmv(uplo, n, k, alpha, a, lda, x, incX, beta, y, incY)
}

// Zhpmv computes
//
//	y = alpha * A * x + beta * y
//
// where A is an n×n Hermitian matrix in packed form, x and y are vectors,
// and alpha and beta are scalars. The imaginary parts of the diagonal of A
// are ignored and assumed to be zero.
func (impl *Implementation) Zhpmv(uplo blas.Uplo, n int, alpha complex128, ap []complex128, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	if n < impl.cxLim2.Zhpmv {
		native.Zhpmv(uplo, n, alpha, ap, x, incX, beta, y, incY)
		return
	}
	impl.zhpmvGated(uplo, n, alpha, ap, x, incX, beta, y, incY)
}

// zhpmvGated is Zhpmv for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) zhpmvGated(uplo blas.Uplo, n int, alpha complex128, ap []complex128, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	// gonum's checks only (α = 0, β = 1 returns right after them).
	native.Zhpmv(uplo, n, 0, ap, x, incX, 1, y, incY)
	if n == 0 || (alpha == 0 && beta == 1) {
		return
	}
	if impl.offloadCx("Zhpmv", work(prec64, 8*fl(n)*fl(n), 2*(fl(n)*fl(n+1)/2+fl(n)*(2+ifNonZero(beta != 0)))), func() bool {
		return cxFinite(alpha, beta) && (alpha == 0 || cxTriFinite(ap, uplo, eng.L2Packed, n, n-1, 0, diagReal) && cxVecFinite(x, n, incX))
	}) {
		err := eng.CxHpmv[complex128, float64](impl.eng, "Zhpmv", uplo, n, alpha, ap, x, incX, beta, y, incY)
		if err == nil {
			return
		}
		impl.deviceFailed("Zhpmv", err)
	}
	native.Zhpmv(uplo, n, alpha, ap, x, incX, beta, y, incY)
}

// Zgeru computes the rank-one update
//
//	A += alpha * x * yᵀ
//
// where A is an m×n dense matrix, x and y are vectors, and alpha is a
// scalar.
func (impl *Implementation) Zgeru(m, n int, alpha complex128, x []complex128, incX int, y []complex128, incY int, a []complex128, lda int) {
	if l := impl.cxSq.Zgeru; m < l && n < l {
		native.Zgeru(m, n, alpha, x, incX, y, incY, a, lda)
		return
	}
	impl.zgeruGated(m, n, alpha, x, incX, y, incY, a, lda)
}

// zgeruGated is Zgeru for calls with a dimension at or above its square limit
// (cxSq), apart so that the calls below it, straight to gonum, pay for no
// larger frame; it meets the call's own gate first.
func (impl *Implementation) zgeruGated(m, n int, alpha complex128, x []complex128, incX int, y []complex128, incY int, a []complex128, lda int) {
	if impl.gatedN(prec64, 8*m*n, 2*(2*m*n+m+n)) {
		native.Zgeru(m, n, alpha, x, incX, y, incY, a, lda)
		return
	}
	// gonum's checks only (α = 0 returns right after them).
	native.Zgeru(m, n, 0, x, incX, y, incY, a, lda)
	if m == 0 || n == 0 || alpha == 0 {
		return
	}
	if impl.offloadCx("Zgeru", work(prec64, 8*fl(m)*fl(n), 2*(2*fl(m)*fl(n)+fl(m)+fl(n))), nil) {
		err := eng.CxRank[complex128, float64](impl.eng, "Zgeru", eng.ZrGeru, blas.Upper, false, m, n, alpha, x, incX, y, incY, a, lda)
		if err == nil {
			return
		}
		impl.deviceFailed("Zgeru", err)
	}
	native.Zgeru(m, n, alpha, x, incX, y, incY, a, lda)
}

// Zgerc computes the rank-one update
//
//	A += alpha * x * yᴴ
//
// where A is an m×n dense matrix, x and y are vectors, and alpha is a
// scalar.
func (impl *Implementation) Zgerc(m, n int, alpha complex128, x []complex128, incX int, y []complex128, incY int, a []complex128, lda int) {
	if l := impl.cxSq.Zgerc; m < l && n < l {
		native.Zgerc(m, n, alpha, x, incX, y, incY, a, lda)
		return
	}
	impl.zgercGated(m, n, alpha, x, incX, y, incY, a, lda)
}

// zgercGated is Zgerc for calls with a dimension at or above its square limit
// (cxSq), apart so that the calls below it, straight to gonum, pay for no
// larger frame; it meets the call's own gate first.
func (impl *Implementation) zgercGated(m, n int, alpha complex128, x []complex128, incX int, y []complex128, incY int, a []complex128, lda int) {
	if impl.gatedN(prec64, 8*m*n, 2*(2*m*n+m+n)) {
		native.Zgerc(m, n, alpha, x, incX, y, incY, a, lda)
		return
	}
	// gonum's checks only (α = 0 returns right after them).
	native.Zgerc(m, n, 0, x, incX, y, incY, a, lda)
	if m == 0 || n == 0 || alpha == 0 {
		return
	}
	if impl.offloadCx("Zgerc", work(prec64, 8*fl(m)*fl(n), 2*(2*fl(m)*fl(n)+fl(m)+fl(n))), nil) {
		err := eng.CxRank[complex128, float64](impl.eng, "Zgerc", eng.ZrGerc, blas.Upper, false, m, n, alpha, x, incX, y, incY, a, lda)
		if err == nil {
			return
		}
		impl.deviceFailed("Zgerc", err)
	}
	native.Zgerc(m, n, alpha, x, incX, y, incY, a, lda)
}

// Zher computes the Hermitian rank-one update
//
//	A += alpha * x * xᴴ
//
// where A is an n×n Hermitian matrix, x is a vector, and alpha is a real
// scalar. The imaginary parts of the diagonal of A are set to zero.
func (impl *Implementation) Zher(uplo blas.Uplo, n int, alpha float64, x []complex128, incX int, a []complex128, lda int) {
	if n < impl.cxLim2.Zher {
		native.Zher(uplo, n, alpha, x, incX, a, lda)
		return
	}
	impl.zherGated(uplo, n, alpha, x, incX, a, lda)
}

// zherGated is Zher for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) zherGated(uplo blas.Uplo, n int, alpha float64, x []complex128, incX int, a []complex128, lda int) {
	// gonum's checks only (α = 0 returns right after them).
	native.Zher(uplo, n, 0, x, incX, a, lda)
	if n == 0 || alpha == 0 {
		return
	}
	if impl.offloadCx("Zher", work(prec64, 4*fl(n)*fl(n), 2*(fl(n)*fl(n+1)+fl(n))), nil) {
		err := eng.CxRank[complex128, float64](impl.eng, "Zher", eng.ZrHer, uplo, false, n, n, complex(alpha, 0), x, incX, nil, 0, a, lda)
		if err == nil {
			return
		}
		impl.deviceFailed("Zher", err)
	}
	native.Zher(uplo, n, alpha, x, incX, a, lda)
}

// Zhpr computes the Hermitian rank-one update
//
//	A += alpha * x * xᴴ
//
// where A is an n×n Hermitian matrix in packed form, x is a vector, and
// alpha is a real scalar. The imaginary parts of the diagonal of A are set
// to zero.
func (impl *Implementation) Zhpr(uplo blas.Uplo, n int, alpha float64, x []complex128, incX int, ap []complex128) {
	if n < impl.cxLim2.Zhpr {
		native.Zhpr(uplo, n, alpha, x, incX, ap)
		return
	}
	impl.zhprGated(uplo, n, alpha, x, incX, ap)
}

// zhprGated is Zhpr for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) zhprGated(uplo blas.Uplo, n int, alpha float64, x []complex128, incX int, ap []complex128) {
	// gonum's checks only (α = 0 returns right after them).
	native.Zhpr(uplo, n, 0, x, incX, ap)
	if n == 0 || alpha == 0 {
		return
	}
	if impl.offloadCx("Zhpr", work(prec64, 4*fl(n)*fl(n), 2*(fl(n)*fl(n+1)+fl(n))), nil) {
		err := eng.CxRank[complex128, float64](impl.eng, "Zhpr", eng.ZrHpr, uplo, true, n, n, complex(alpha, 0), x, incX, nil, 0, ap, 0)
		if err == nil {
			return
		}
		impl.deviceFailed("Zhpr", err)
	}
	native.Zhpr(uplo, n, alpha, x, incX, ap)
}

// Zher2 computes the Hermitian rank-two update
//
//	A += alpha * x * yᴴ + conj(alpha) * y * xᴴ
//
// where A is an n×n Hermitian matrix, x and y are vectors, and alpha is a
// scalar. The imaginary parts of the diagonal of A are set to zero.
func (impl *Implementation) Zher2(uplo blas.Uplo, n int, alpha complex128, x []complex128, incX int, y []complex128, incY int, a []complex128, lda int) {
	if n < impl.cxLim2.Zher2 {
		native.Zher2(uplo, n, alpha, x, incX, y, incY, a, lda)
		return
	}
	impl.zher2Gated(uplo, n, alpha, x, incX, y, incY, a, lda)
}

// zher2Gated is Zher2 for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) zher2Gated(uplo blas.Uplo, n int, alpha complex128, x []complex128, incX int, y []complex128, incY int, a []complex128, lda int) {
	// gonum's checks only (α = 0 returns right after them).
	native.Zher2(uplo, n, 0, x, incX, y, incY, a, lda)
	if n == 0 || alpha == 0 {
		return
	}
	if impl.offloadCx("Zher2", work(prec64, 8*fl(n)*fl(n), 2*(fl(n)*fl(n+1)+2*fl(n))), nil) {
		err := eng.CxRank[complex128, float64](impl.eng, "Zher2", eng.ZrHer2, uplo, false, n, n, alpha, x, incX, y, incY, a, lda)
		if err == nil {
			return
		}
		impl.deviceFailed("Zher2", err)
	}
	native.Zher2(uplo, n, alpha, x, incX, y, incY, a, lda)
}

// Zhpr2 computes the Hermitian rank-two update
//
//	A += alpha * x * yᴴ + conj(alpha) * y * xᴴ
//
// where A is an n×n Hermitian matrix in packed form, x and y are vectors,
// and alpha is a scalar. The imaginary parts of the diagonal of A are set
// to zero.
func (impl *Implementation) Zhpr2(uplo blas.Uplo, n int, alpha complex128, x []complex128, incX int, y []complex128, incY int, ap []complex128) {
	if n < impl.cxLim2.Zhpr2 {
		native.Zhpr2(uplo, n, alpha, x, incX, y, incY, ap)
		return
	}
	impl.zhpr2Gated(uplo, n, alpha, x, incX, y, incY, ap)
}

// zhpr2Gated is Zhpr2 for calls at or above its gate, apart so that the calls
// below it, straight to gonum, pay for no larger frame.
func (impl *Implementation) zhpr2Gated(uplo blas.Uplo, n int, alpha complex128, x []complex128, incX int, y []complex128, incY int, ap []complex128) {
	// gonum's checks only (α = 0 returns right after them).
	native.Zhpr2(uplo, n, 0, x, incX, y, incY, ap)
	if n == 0 || alpha == 0 {
		return
	}
	if impl.offloadCx("Zhpr2", work(prec64, 8*fl(n)*fl(n), 2*(fl(n)*fl(n+1)+2*fl(n))), nil) {
		err := eng.CxRank[complex128, float64](impl.eng, "Zhpr2", eng.ZrHer2, uplo, true, n, n, alpha, x, incX, y, incY, ap, 0)
		if err == nil {
			return
		}
		impl.deviceFailed("Zhpr2", err)
	}
	native.Zhpr2(uplo, n, alpha, x, incX, y, incY, ap)
}
