// zlevel3.cl — the complex level 3 BLAS as real GEMMs: the kernels that
// pack complex operands into the real matrices of one real GEMM, and the
// kernels that finish the symmetric, Hermitian and triangular routines.
//
// Built after common.cl, whose PRECISION picks the part type: a complex
// number is a real2 (re, im), the layout of Go's complex64 and complex128.
// Buffers are passed as real2*; offsets and leading dimensions count
// complex elements; matrices are row-major, as gonum's.
//
// The complex product C = op(A)·op(B) (m×k times k×n) is the real product
// of C viewed as an m×2n real matrix (re, im interleaved: C's own storage,
// with twice the leading dimension), op(A) viewed likewise as m×2k, and
// the 2k×2n real matrix B' whose 2×2 block (p, j) is
//
//     [  re w   im w ]
//     [ -im w   re w ]      w = alpha·op(B)[p][j],
//
// since row i of C' then holds Σ_p (re a·re w − im a·im w, re a·im w +
// im a·re w). That is the four real products of the "4M" method in one
// real GEMM of 8mnk flops, with gonum's rounding up to the order of the
// sums. alpha is folded into B' as gonum's NoTrans loops fold it into A.
//
// Complex products are not contracted into fma, as Go's are not:
// (a+bi)(c+di) = (ac − bd) + (ad + bc)i.

#pragma OPENCL FP_CONTRACT OFF

// Transpose selectors (the host's zNoTrans, zTrans, zConjTrans).
#define Z_NOTRANS 0
#define Z_TRANS 1
#define Z_CONJTRANS 2

// z_mul is the complex product a·b.
static inline real2 z_mul(const real2 a, const real2 b)
{
    return (real2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// z_op is element (i, j) of op(X) for X stored row-major at x with leading
// dimension ld.
static inline real2 z_op(__global const real2* x, const long ld, const int t, const int i, const int j)
{
    if (t == Z_NOTRANS) return x[(long)i * ld + j];
    const real2 v = x[(long)j * ld + i];
    return t == Z_CONJTRANS ? (real2)(v.x, -v.y) : v;
}

// zpack_b writes B' (2k×2n, leading dimension ldp reals) from alpha·op(B),
// op(B) k×n. One work-item per element of op(B): dimension 0 walks j,
// dimension 1 walks p.
__kernel void zpack_b(const int k, const int n, const int tb,
                      const real are, const real aim,
                      __global const real2* B, const long offB, const int ldb,
                      __global real* P, const int ldp)
{
    const int j = get_global_id(0);
    const int p = get_global_id(1);
    if (j >= n || p >= k) return;
    const real2 w = z_mul((real2)(are, aim), z_op(B + offB, ldb, tb, p, j));
    __global real* r0 = P + (long)(2 * p) * ldp + 2 * j;
    __global real* r1 = r0 + ldp;
    r0[0] = w.x;
    r0[1] = w.y;
    r1[0] = -w.y;
    r1[1] = w.x;
}

// zpack_a writes op(A) (m×k) packed with leading dimension k, for an A
// that is transposed (a row-major op(A) is already the m×2k real matrix
// the real GEMM reads). Dimension 0 walks p, dimension 1 walks i.
__kernel void zpack_a(const int m, const int k, const int ta,
                      __global const real2* A, const long offA, const int lda,
                      __global real2* X)
{
    const int p = get_global_id(0);
    const int i = get_global_id(1);
    if (p >= k || i >= m) return;
    X[(long)i * k + p] = z_op(A + offA, lda, ta, i, p);
}

// Triangle selectors (the host's triFull, triUpper, triLower).
#define Z_TRI_FULL 0
#define Z_TRI_UPPER 1
#define Z_TRI_LOWER 2

// zscale computes C = beta·C on an m×n matrix, or on the upper (j ≥ i) or
// lower (j ≤ i) triangle of a square one; beta == 0 assigns zeros, so NaN
// and Inf in C do not survive, as gonum does. With herm, beta is real
// (bim is 0) and the diagonal's imaginary parts become zero, as gonum's
// Zherk and Zher2k leave them. Dimension 0 walks j, dimension 1 walks i.
__kernel void zscale(const int m, const int n, const real bre, const real bim,
                     __global real2* C, const long offC, const int ldc,
                     const int tri, const int herm)
{
    const int j = get_global_id(0);
    const int i = get_global_id(1);
    if (i >= m || j >= n) return;
    if ((tri == Z_TRI_UPPER && j < i) || (tri == Z_TRI_LOWER && j > i)) return;
    __global real2* c = C + offC + (long)i * ldc + j;
    real2 v = (real2)(0, 0);
    if (bre != 0 || bim != 0) {
        v = herm ? (real2)(bre * c->x, bre * c->y) : z_mul((real2)(bre, bim), *c);
    }
    if (herm && i == j) v.y = 0;
    *c = v;
}
