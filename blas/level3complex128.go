package clblas

import (
	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// Zgemm computes
//
//	C = alpha * op(A) * op(B) + beta * C
//
// where op(X) is one of X, Xᵀ or Xᴴ, op(A) is an m×k matrix, op(B) is a
// k×n matrix, C is an m×n matrix, and alpha and beta are scalars. When
// beta is zero, C is overwritten (NaN in C does not survive).
func (impl *Implementation) Zgemm(tA, tB blas.Transpose, m, n, k int, alpha complex128, a []complex128, lda int, b []complex128, ldb int, beta complex128, c []complex128, ldc int) {
	if l := impl.cxSq.Zgemm; m < l && n < l && k < l {
		native.Zgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	impl.zgemmGated(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// zgemmGated is Zgemm for calls with a dimension at or above its square limit
// (cxSq), apart so that the calls below it, straight to gonum, pay for no
// larger frame; it meets the call's own gate first.
func (impl *Implementation) zgemmGated(tA, tB blas.Transpose, m, n, k int, alpha complex128, a []complex128, lda int, b []complex128, ldb int, beta complex128, c []complex128, ldc int) {
	// zgemmWork's workload with β ≠ 0, written out: the generic call is
	// not inlined here and would cost a small call as much as gonum's.
	if impl.gatedN(prec64, 8*m*n*k, 2*(k*(m+n)+2*m*n)) {
		native.Zgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	if !checkZgemm(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc, (alpha == 0 || k == 0) && beta == 1) {
		return
	}
	if i := zgemmDevice[complex128, float64](impl, "Zgemm", tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc); i < m {
		native.Zgemm(tA, tB, m-i, n, k, alpha, a[eng.OpRow(tA, i, lda):], lda, b, ldb, beta, c[i*ldc:], ldc)
	}
}

// Zsymm computes one of
//
//	C = alpha * A * B + beta * C  if side == blas.Left
//	C = alpha * B * A + beta * C  if side == blas.Right
//
// where A is an n×n or m×m symmetric matrix (only the uplo triangle is
// read), B and C are m×n matrices, and alpha and beta are scalars.
func (impl *Implementation) Zsymm(side blas.Side, uplo blas.Uplo, m, n int, alpha complex128, a []complex128, lda int, b []complex128, ldb int, beta complex128, c []complex128, ldc int) {
	if l := impl.cxSq.Zsymm; m < l && n < l {
		native.Zsymm(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	impl.zsymmGated(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
}

// zsymmGated is Zsymm for calls with a dimension at or above its square limit
// (cxSq), apart so that the calls below it, straight to gonum, pay for no
// larger frame; it meets the call's own gate first.
func (impl *Implementation) zsymmGated(side blas.Side, uplo blas.Uplo, m, n int, alpha complex128, a []complex128, lda int, b []complex128, ldb int, beta complex128, c []complex128, ldc int) {
	if impl.gatedN(prec64, 8*m*n*max(m, n), 2*(max(m, n)*max(m, n)+3*m*n)) {
		native.Zsymm(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	native.Zsymm(side, uplo, m, n, 0, a, lda, b, ldb, 1, c, ldc) // gonum's checks alone
	if m == 0 || n == 0 || alpha == 0 && beta == 1 {
		return
	}
	if !zsymmDevice[complex128, float64](impl, "Zsymm", false, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc) {
		native.Zsymm(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
	}
}

// Zhemm computes one of
//
//	C = alpha * A * B + beta * C  if side == blas.Left
//	C = alpha * B * A + beta * C  if side == blas.Right
//
// where A is an n×n or m×m Hermitian matrix (only the uplo triangle is
// read, and the imaginary parts of its diagonal are taken as zero), B and
// C are m×n matrices, and alpha and beta are scalars.
func (impl *Implementation) Zhemm(side blas.Side, uplo blas.Uplo, m, n int, alpha complex128, a []complex128, lda int, b []complex128, ldb int, beta complex128, c []complex128, ldc int) {
	if l := impl.cxSq.Zhemm; m < l && n < l {
		native.Zhemm(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	impl.zhemmGated(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
}

// zhemmGated is Zhemm for calls with a dimension at or above its square limit
// (cxSq), apart so that the calls below it, straight to gonum, pay for no
// larger frame; it meets the call's own gate first.
func (impl *Implementation) zhemmGated(side blas.Side, uplo blas.Uplo, m, n int, alpha complex128, a []complex128, lda int, b []complex128, ldb int, beta complex128, c []complex128, ldc int) {
	if impl.gatedN(prec64, 8*m*n*max(m, n), 2*(max(m, n)*max(m, n)+3*m*n)) {
		native.Zhemm(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	native.Zhemm(side, uplo, m, n, 0, a, lda, b, ldb, 1, c, ldc) // gonum's checks alone
	if m == 0 || n == 0 || alpha == 0 && beta == 1 {
		return
	}
	if !zsymmDevice[complex128, float64](impl, "Zhemm", true, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc) {
		native.Zhemm(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
	}
}

// Zsyrk computes one of the symmetric rank-k operations
//
//	C = alpha * A * Aᵀ + beta * C  if trans == blas.NoTrans
//	C = alpha * Aᵀ * A + beta * C  if trans == blas.Trans
//
// where A is an n×k or k×n matrix, C is an n×n symmetric matrix (only the
// uplo triangle is referenced), and alpha and beta are scalars.
func (impl *Implementation) Zsyrk(uplo blas.Uplo, trans blas.Transpose, n, k int, alpha complex128, a []complex128, lda int, beta complex128, c []complex128, ldc int) {
	if l := impl.cxSq.Zsyrk; n < l && k < l {
		native.Zsyrk(uplo, trans, n, k, alpha, a, lda, beta, c, ldc)
		return
	}
	impl.zsyrkGated(uplo, trans, n, k, alpha, a, lda, beta, c, ldc)
}

// zsyrkGated is Zsyrk for calls with a dimension at or above its square limit
// (cxSq), apart so that the calls below it, straight to gonum, pay for no
// larger frame; it meets the call's own gate first.
func (impl *Implementation) zsyrkGated(uplo blas.Uplo, trans blas.Transpose, n, k int, alpha complex128, a []complex128, lda int, beta complex128, c []complex128, ldc int) {
	if impl.gatedN(prec64, 8*n*n*k, 2*(2*n*k+2*n*n)) {
		native.Zsyrk(uplo, trans, n, k, alpha, a, lda, beta, c, ldc)
		return
	}
	native.Zsyrk(uplo, trans, n, k, 0, a, lda, 1, c, ldc) // gonum's checks alone
	if n == 0 || (alpha == 0 || k == 0) && beta == 1 {
		return
	}
	if !zrankDevice[complex128, float64](impl, "Zsyrk", false, uplo, trans, n, k, alpha, a, lda, nil, 0, beta, c, ldc) {
		native.Zsyrk(uplo, trans, n, k, alpha, a, lda, beta, c, ldc)
	}
}

// Zherk computes one of the Hermitian rank-k operations
//
//	C = alpha * A * Aᴴ + beta * C  if trans == blas.NoTrans
//	C = alpha * Aᴴ * A + beta * C  if trans == blas.ConjTrans
//
// where A is an n×k or k×n matrix, C is an n×n Hermitian matrix (only the
// uplo triangle is referenced; the imaginary parts of its diagonal are set
// to zero), and alpha and beta are real scalars.
func (impl *Implementation) Zherk(uplo blas.Uplo, trans blas.Transpose, n, k int, alpha float64, a []complex128, lda int, beta float64, c []complex128, ldc int) {
	if l := impl.cxSq.Zherk; n < l && k < l {
		native.Zherk(uplo, trans, n, k, alpha, a, lda, beta, c, ldc)
		return
	}
	impl.zherkGated(uplo, trans, n, k, alpha, a, lda, beta, c, ldc)
}

// zherkGated is Zherk for calls with a dimension at or above its square limit
// (cxSq), apart so that the calls below it, straight to gonum, pay for no
// larger frame; it meets the call's own gate first.
func (impl *Implementation) zherkGated(uplo blas.Uplo, trans blas.Transpose, n, k int, alpha float64, a []complex128, lda int, beta float64, c []complex128, ldc int) {
	if impl.gatedN(prec64, 8*n*n*k, 2*(2*n*k+2*n*n)) {
		native.Zherk(uplo, trans, n, k, alpha, a, lda, beta, c, ldc)
		return
	}
	native.Zherk(uplo, trans, n, k, 0, a, lda, 1, c, ldc) // gonum's checks alone
	if n == 0 || (alpha == 0 || k == 0) && beta == 1 {
		return
	}
	if !zrankDevice[complex128, float64](impl, "Zherk", true, uplo, trans, n, k, complex(alpha, 0), a, lda, nil, 0, complex(beta, 0), c, ldc) {
		native.Zherk(uplo, trans, n, k, alpha, a, lda, beta, c, ldc)
	}
}

// Zsyr2k computes one of the symmetric rank-2k operations
//
//	C = alpha * A * Bᵀ + alpha * B * Aᵀ + beta * C  if trans == blas.NoTrans
//	C = alpha * Aᵀ * B + alpha * Bᵀ * A + beta * C  if trans == blas.Trans
//
// where A and B are n×k or k×n matrices, C is an n×n symmetric matrix
// (only the uplo triangle is referenced), and alpha and beta are scalars.
func (impl *Implementation) Zsyr2k(uplo blas.Uplo, trans blas.Transpose, n, k int, alpha complex128, a []complex128, lda int, b []complex128, ldb int, beta complex128, c []complex128, ldc int) {
	if l := impl.cxSq.Zsyr2k; n < l && k < l {
		native.Zsyr2k(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	impl.zsyr2kGated(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// zsyr2kGated is Zsyr2k for calls with a dimension at or above its square limit
// (cxSq), apart so that the calls below it, straight to gonum, pay for no
// larger frame; it meets the call's own gate first.
func (impl *Implementation) zsyr2kGated(uplo blas.Uplo, trans blas.Transpose, n, k int, alpha complex128, a []complex128, lda int, b []complex128, ldb int, beta complex128, c []complex128, ldc int) {
	if impl.gatedN(prec64, 8*n*n*k, 2*(2*n*k+2*n*n)) {
		native.Zsyr2k(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	native.Zsyr2k(uplo, trans, n, k, 0, a, lda, b, ldb, 1, c, ldc) // gonum's checks alone
	if n == 0 || (alpha == 0 || k == 0) && beta == 1 {
		return
	}
	if !zrankDevice[complex128, float64](impl, "Zsyr2k", false, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc) {
		native.Zsyr2k(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
}

// Zher2k computes one of the Hermitian rank-2k operations
//
//	C = alpha * A * Bᴴ + conj(alpha) * B * Aᴴ + beta * C  if trans == blas.NoTrans
//	C = alpha * Aᴴ * B + conj(alpha) * Bᴴ * A + beta * C  if trans == blas.ConjTrans
//
// where A and B are n×k or k×n matrices, C is an n×n Hermitian matrix
// (only the uplo triangle is referenced; the imaginary parts of its
// diagonal are set to zero), alpha is a scalar and beta is a real scalar.
func (impl *Implementation) Zher2k(uplo blas.Uplo, trans blas.Transpose, n, k int, alpha complex128, a []complex128, lda int, b []complex128, ldb int, beta float64, c []complex128, ldc int) {
	if l := impl.cxSq.Zher2k; n < l && k < l {
		native.Zher2k(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	impl.zher2kGated(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// zher2kGated is Zher2k for calls with a dimension at or above its square limit
// (cxSq), apart so that the calls below it, straight to gonum, pay for no
// larger frame; it meets the call's own gate first.
func (impl *Implementation) zher2kGated(uplo blas.Uplo, trans blas.Transpose, n, k int, alpha complex128, a []complex128, lda int, b []complex128, ldb int, beta float64, c []complex128, ldc int) {
	if impl.gatedN(prec64, 8*n*n*k, 2*(2*n*k+2*n*n)) {
		native.Zher2k(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	native.Zher2k(uplo, trans, n, k, 0, a, lda, b, ldb, 1, c, ldc) // gonum's checks alone
	if n == 0 || (alpha == 0 || k == 0) && beta == 1 {
		return
	}
	if !zrankDevice[complex128, float64](impl, "Zher2k", true, uplo, trans, n, k, alpha, a, lda, b, ldb, complex(beta, 0), c, ldc) {
		native.Zher2k(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
}

// Ztrmm computes one of
//
//	B = alpha * op(A) * B  if side == blas.Left
//	B = alpha * B * op(A)  if side == blas.Right
//
// where op(A) is one of A, Aᵀ or Aᴴ, A is an m×m or n×n triangular matrix,
// B is an m×n matrix, and alpha is a scalar.
func (impl *Implementation) Ztrmm(side blas.Side, uplo blas.Uplo, trans blas.Transpose, diag blas.Diag, m, n int, alpha complex128, a []complex128, lda int, b []complex128, ldb int) {
	if l := impl.cxSq.Ztrmm; m < l && n < l {
		native.Ztrmm(side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb)
		return
	}
	impl.ztrmmGated(side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb)
}

// ztrmmGated is Ztrmm for calls with a dimension at or above its square limit
// (cxSq), apart so that the calls below it, straight to gonum, pay for no
// larger frame; it meets the call's own gate first.
func (impl *Implementation) ztrmmGated(side blas.Side, uplo blas.Uplo, trans blas.Transpose, diag blas.Diag, m, n int, alpha complex128, a []complex128, lda int, b []complex128, ldb int) {
	if impl.gatedN(prec64, 4*m*n*max(m, n), 2*(max(m, n)*max(m, n)/2+2*m*n)) {
		native.Ztrmm(side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb)
		return
	}
	if _, ok := impl.checkTriangular3(side, uplo, trans, diag, m, n, len(a), lda, len(b), ldb); !ok {
		return
	}
	if !ztriDevice[complex128, float64](impl, "Ztrmm", false, side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb) {
		native.Ztrmm(side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb)
	}
}

// Ztrsm solves one of the matrix equations
//
//	op(A) * X = alpha * B  if side == blas.Left
//	X * op(A) = alpha * B  if side == blas.Right
//
// for X, where op(A) is one of A, Aᵀ or Aᴴ, A is an m×m or n×n triangular
// matrix, X and B are m×n matrices (X overwrites B), and alpha is a
// scalar. No test for singularity is made.
func (impl *Implementation) Ztrsm(side blas.Side, uplo blas.Uplo, trans blas.Transpose, diag blas.Diag, m, n int, alpha complex128, a []complex128, lda int, b []complex128, ldb int) {
	if l := impl.cxSq.Ztrsm; m < l && n < l {
		native.Ztrsm(side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb)
		return
	}
	impl.ztrsmGated(side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb)
}

// ztrsmGated is Ztrsm for calls with a dimension at or above its square limit
// (cxSq), apart so that the calls below it, straight to gonum, pay for no
// larger frame; it meets the call's own gate first.
func (impl *Implementation) ztrsmGated(side blas.Side, uplo blas.Uplo, trans blas.Transpose, diag blas.Diag, m, n int, alpha complex128, a []complex128, lda int, b []complex128, ldb int) {
	if impl.gatedN(prec64, 4*m*n*max(m, n), 2*(max(m, n)*max(m, n)/2+2*m*n)) {
		native.Ztrsm(side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb)
		return
	}
	if _, ok := impl.checkTriangular3(side, uplo, trans, diag, m, n, len(a), lda, len(b), ldb); !ok {
		return
	}
	if !ztriDevice[complex128, float64](impl, "Ztrsm", true, side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb) {
		native.Ztrsm(side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb)
	}
}
