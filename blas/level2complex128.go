package clblas

import "gonum.org/v1/gonum/blas"

// Zgemv computes one of
//
//	y = alpha * A * x + beta * y   if trans = blas.NoTrans
//	y = alpha * Aᵀ * x + beta * y  if trans = blas.Trans
//	y = alpha * Aᴴ * x + beta * y  if trans = blas.ConjTrans
//
// where A is an m×n dense matrix, x and y are vectors, and alpha and beta
// are scalars.
func (impl *Implementation) Zgemv(trans blas.Transpose, m, n int, alpha complex128, a []complex128, lda int, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	native.Zgemv(trans, m, n, alpha, a, lda, x, incX, beta, y, incY)
	impl.complexOnCPU("Zgemv", m > 0 && n > 0 && !(alpha == 0 && beta == 1))
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
	native.Zgbmv(trans, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
	impl.complexOnCPU("Zgbmv", m > 0 && n > 0 && !(alpha == 0 && beta == 1))
}

// Ztrmv computes one of
//
//	x = A * x   if trans = blas.NoTrans
//	x = Aᵀ * x  if trans = blas.Trans
//	x = Aᴴ * x  if trans = blas.ConjTrans
//
// where A is an n×n triangular matrix and x is a vector.
func (impl *Implementation) Ztrmv(uplo blas.Uplo, trans blas.Transpose, diag blas.Diag, n int, a []complex128, lda int, x []complex128, incX int) {
	native.Ztrmv(uplo, trans, diag, n, a, lda, x, incX)
	impl.complexOnCPU("Ztrmv", n > 0)
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
	native.Ztbmv(uplo, trans, diag, n, k, a, lda, x, incX)
	impl.complexOnCPU("Ztbmv", n > 0)
}

// Ztpmv computes one of
//
//	x = A * x   if trans = blas.NoTrans
//	x = Aᵀ * x  if trans = blas.Trans
//	x = Aᴴ * x  if trans = blas.ConjTrans
//
// where A is an n×n triangular matrix in packed form and x is a vector.
func (impl *Implementation) Ztpmv(uplo blas.Uplo, trans blas.Transpose, diag blas.Diag, n int, ap []complex128, x []complex128, incX int) {
	native.Ztpmv(uplo, trans, diag, n, ap, x, incX)
	impl.complexOnCPU("Ztpmv", n > 0)
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
	native.Ztrsv(uplo, trans, diag, n, a, lda, x, incX)
	impl.complexOnCPU("Ztrsv", n > 0)
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
	native.Ztbsv(uplo, trans, diag, n, k, a, lda, x, incX)
	impl.complexOnCPU("Ztbsv", n > 0)
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
	native.Ztpsv(uplo, trans, diag, n, ap, x, incX)
	impl.complexOnCPU("Ztpsv", n > 0)
}

// Zhemv computes
//
//	y = alpha * A * x + beta * y
//
// where A is an n×n Hermitian matrix, x and y are vectors, and alpha and
// beta are scalars. The imaginary parts of the diagonal of A are ignored
// and assumed to be zero.
func (impl *Implementation) Zhemv(uplo blas.Uplo, n int, alpha complex128, a []complex128, lda int, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	native.Zhemv(uplo, n, alpha, a, lda, x, incX, beta, y, incY)
	impl.complexOnCPU("Zhemv", n > 0 && !(alpha == 0 && beta == 1))
}

// Zhbmv computes
//
//	y = alpha * A * x + beta * y
//
// where A is an n×n Hermitian band matrix with k super-diagonals, x and y
// are vectors, and alpha and beta are scalars. The imaginary parts of the
// diagonal of A are ignored and assumed to be zero.
func (impl *Implementation) Zhbmv(uplo blas.Uplo, n, k int, alpha complex128, a []complex128, lda int, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	native.Zhbmv(uplo, n, k, alpha, a, lda, x, incX, beta, y, incY)
	impl.complexOnCPU("Zhbmv", n > 0 && !(alpha == 0 && beta == 1))
}

// Zhpmv computes
//
//	y = alpha * A * x + beta * y
//
// where A is an n×n Hermitian matrix in packed form, x and y are vectors,
// and alpha and beta are scalars. The imaginary parts of the diagonal of A
// are ignored and assumed to be zero.
func (impl *Implementation) Zhpmv(uplo blas.Uplo, n int, alpha complex128, ap []complex128, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	native.Zhpmv(uplo, n, alpha, ap, x, incX, beta, y, incY)
	impl.complexOnCPU("Zhpmv", n > 0 && !(alpha == 0 && beta == 1))
}

// Zgeru computes the rank-one update
//
//	A += alpha * x * yᵀ
//
// where A is an m×n dense matrix, x and y are vectors, and alpha is a
// scalar.
func (impl *Implementation) Zgeru(m, n int, alpha complex128, x []complex128, incX int, y []complex128, incY int, a []complex128, lda int) {
	native.Zgeru(m, n, alpha, x, incX, y, incY, a, lda)
	impl.complexOnCPU("Zgeru", m > 0 && n > 0 && alpha != 0)
}

// Zgerc computes the rank-one update
//
//	A += alpha * x * yᴴ
//
// where A is an m×n dense matrix, x and y are vectors, and alpha is a
// scalar.
func (impl *Implementation) Zgerc(m, n int, alpha complex128, x []complex128, incX int, y []complex128, incY int, a []complex128, lda int) {
	native.Zgerc(m, n, alpha, x, incX, y, incY, a, lda)
	impl.complexOnCPU("Zgerc", m > 0 && n > 0 && alpha != 0)
}

// Zher computes the Hermitian rank-one update
//
//	A += alpha * x * xᴴ
//
// where A is an n×n Hermitian matrix, x is a vector, and alpha is a real
// scalar. The imaginary parts of the diagonal of A are set to zero.
func (impl *Implementation) Zher(uplo blas.Uplo, n int, alpha float64, x []complex128, incX int, a []complex128, lda int) {
	native.Zher(uplo, n, alpha, x, incX, a, lda)
	impl.complexOnCPU("Zher", n > 0 && alpha != 0)
}

// Zhpr computes the Hermitian rank-one update
//
//	A += alpha * x * xᴴ
//
// where A is an n×n Hermitian matrix in packed form, x is a vector, and
// alpha is a real scalar. The imaginary parts of the diagonal of A are set
// to zero.
func (impl *Implementation) Zhpr(uplo blas.Uplo, n int, alpha float64, x []complex128, incX int, ap []complex128) {
	native.Zhpr(uplo, n, alpha, x, incX, ap)
	impl.complexOnCPU("Zhpr", n > 0 && alpha != 0)
}

// Zher2 computes the Hermitian rank-two update
//
//	A += alpha * x * yᴴ + conj(alpha) * y * xᴴ
//
// where A is an n×n Hermitian matrix, x and y are vectors, and alpha is a
// scalar. The imaginary parts of the diagonal of A are set to zero.
func (impl *Implementation) Zher2(uplo blas.Uplo, n int, alpha complex128, x []complex128, incX int, y []complex128, incY int, a []complex128, lda int) {
	native.Zher2(uplo, n, alpha, x, incX, y, incY, a, lda)
	impl.complexOnCPU("Zher2", n > 0 && alpha != 0)
}

// Zhpr2 computes the Hermitian rank-two update
//
//	A += alpha * x * yᴴ + conj(alpha) * y * xᴴ
//
// where A is an n×n Hermitian matrix in packed form, x and y are vectors,
// and alpha is a scalar. The imaginary parts of the diagonal of A are set
// to zero.
func (impl *Implementation) Zhpr2(uplo blas.Uplo, n int, alpha complex128, x []complex128, incX int, y []complex128, incY int, ap []complex128) {
	native.Zhpr2(uplo, n, alpha, x, incX, y, incY, ap)
	impl.complexOnCPU("Zhpr2", n > 0 && alpha != 0)
}
