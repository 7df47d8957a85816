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
// op(B) k×n. A work-item takes two neighbouring elements of a row of op(B),
// (p, 2q) and (p, 2q+1), so that each of its two rows of B' gets one store
// of four reals: dimension 0 walks q, dimension 1 walks p. The four-real
// store needs P 4-real aligned (the host's packed buffers start their
// buffer) and ldp a multiple of 4 (ldp = 2n with n even); otherwise the
// stores are scalar.
__kernel void zpack_b(const int k, const int n, const int tb,
                      const real are, const real aim,
                      __global const real2* B, const long offB, const int ldb,
                      __global real* P, const int ldp)
{
    const int j = 2 * get_global_id(0);
    const int p = get_global_id(1);
    if (j >= n || p >= k) return;
    const real2 al = (real2)(are, aim);
    const real2 w = z_mul(al, z_op(B + offB, ldb, tb, p, j));
    __global real* r0 = P + (long)(2 * p) * ldp + 2 * j;
    __global real* r1 = r0 + ldp;
    if (j + 1 < n && (n & 1) == 0 && (ldp & 3) == 0) {
        const real2 v = z_mul(al, z_op(B + offB, ldb, tb, p, j + 1));
        *(__global real4*)r0 = (real4)(w.x, w.y, v.x, v.y);
        *(__global real4*)r1 = (real4)(-w.y, w.x, -v.y, v.x);
        return;
    }
    r0[0] = w.x;
    r0[1] = w.y;
    r1[0] = -w.y;
    r1[1] = w.x;
    if (j + 1 < n) {
        const real2 v = z_mul(al, z_op(B + offB, ldb, tb, p, j + 1));
        r0[2] = v.x;
        r0[3] = v.y;
        r1[2] = -v.y;
        r1[3] = v.x;
    }
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

// zsym_expand writes the full n×n matrix F (leading dimension n) of the
// symmetric (herm == 0) or Hermitian (herm == 1) matrix of which the upper
// or lower triangle of A is stored; a Hermitian diagonal's imaginary parts
// are taken as zero, as gonum's Zhemm does. Dimension 0 walks j,
// dimension 1 walks i.
__kernel void zsym_expand(const int n, const int upper, const int herm,
                          __global const real2* A, const long offA, const int lda,
                          __global real2* F)
{
    const int j = get_global_id(0);
    const int i = get_global_id(1);
    if (i >= n || j >= n) return;
    const int stored = upper ? (j >= i) : (j <= i);
    real2 v = stored ? A[offA + (long)i * lda + j] : A[offA + (long)j * lda + i];
    if (herm) {
        if (i == j) v.y = 0;
        else if (!stored) v.y = -v.y;
    }
    F[(long)i * n + j] = v;
}

// ztri_expand writes the full n×n matrix F (leading dimension n) of the
// upper or lower triangular matrix stored in A: zeros outside the
// triangle, ones on the diagonal when unit.
__kernel void ztri_expand(const int n, const int upper, const int unit,
                          __global const real2* A, const long offA, const int lda,
                          __global real2* F)
{
    const int j = get_global_id(0);
    const int i = get_global_id(1);
    if (i >= n || j >= n) return;
    real2 v = (real2)(0, 0);
    if (i == j && unit) v = (real2)(1, 0);
    else if (upper ? (j >= i) : (j <= i)) v = A[offA + (long)i * lda + j];
    F[(long)i * n + j] = v;
}

// ztri_merge computes the upper or lower triangle of
// C = T (+ T' when sym2) + beta·C, T n×n with leading dimension n, where
// T' is Tᵀ, or Tᴴ when herm; beta == 0 assigns. With herm, beta is real
// and the diagonal's imaginary parts become zero (gonum's Zherk and
// Zher2k). Dimension 0 walks j, dimension 1 walks i.
__kernel void ztri_merge(const int n, const int upper, const int sym2, const int herm,
                         __global const real2* T,
                         const real bre, const real bim,
                         __global real2* C, const long offC, const int ldc)
{
    const int j = get_global_id(0);
    const int i = get_global_id(1);
    if (i >= n || j >= n) return;
    if (upper ? (j < i) : (j > i)) return;
    real2 v = T[(long)i * n + j];
    if (sym2) {
        real2 w = T[(long)j * n + i];
        if (herm) w.y = -w.y;
        v += w;
    }
    __global real2* c = C + offC + (long)i * ldc + j;
    if (bre != 0 || bim != 0) {
        v += herm ? (real2)(bre * c->x, bre * c->y) : z_mul((real2)(bre, bim), *c);
    }
    if (herm && i == j) v.y = 0;
    *c = v;
}

// zcopy_mat copies the m×n matrix S (leading dimension lds) into D.
__kernel void zcopy_mat(const int m, const int n,
                        __global const real2* S, const long offS, const int lds,
                        __global real2* D, const long offD, const int ldd)
{
    const int j = get_global_id(0);
    const int i = get_global_id(1);
    if (i >= m || j >= n) return;
    D[offD + (long)i * ldd + j] = S[offS + (long)i * lds + j];
}

// z_div is a/b by Smith's algorithm, which, like Go's complex division,
// does not overflow where |b| is large.
static inline real2 z_div(const real2 a, const real2 b)
{
    if (fabs(b.x) >= fabs(b.y)) {
        const real r = b.y / b.x, d = b.x + r * b.y;
        return (real2)((a.x + a.y * r) / d, (a.y - a.x * r) / d);
    }
    const real r = b.x / b.y, d = b.y + r * b.x;
    return (real2)((a.x * r + a.y) / d, (a.y * r - a.x) / d);
}

// ztrsm_left solves op(A)[i0:i0+nb, i0:i0+nb]·X = B[i0:i0+nb, :] in place
// for the n columns of B, one work-item per column, where op(A) (one of A,
// Aᵀ, Aᴴ by ta) is lower triangular when lower (forward substitution),
// else upper; unit takes its diagonal as ones. The rows of B outside the
// block have been updated already.
__kernel void ztrsm_left(const int i0, const int nb, const int n, const int lower,
                         const int ta, const int unit,
                         __global const real2* A, const long offA, const int lda,
                         __global real2* B, const long offB, const int ldb)
{
    const int j = get_global_id(0);
    if (j >= n) return;
    __global const real2* a = A + offA;
    __global real2* b = B + offB + j;
    for (int s = 0; s < nb; s++) {
        const int i = lower ? i0 + s : i0 + nb - 1 - s;
        real2 x = b[(long)i * ldb];
        if (lower) {
            for (int p = i0; p < i; p++) x -= z_mul(z_op(a, lda, ta, i, p), b[(long)p * ldb]);
        } else {
            for (int p = i + 1; p < i0 + nb; p++) x -= z_mul(z_op(a, lda, ta, i, p), b[(long)p * ldb]);
        }
        if (!unit) x = z_div(x, z_op(a, lda, ta, i, i));
        b[(long)i * ldb] = x;
    }
}

// ztrsm_right solves X·op(A)[j0:j0+nb, j0:j0+nb] = B[:, j0:j0+nb] in place
// for the m rows of B, one work-item per row, where op(A) is upper
// triangular when upper (columns left to right), else lower.
__kernel void ztrsm_right(const int j0, const int nb, const int m, const int upper,
                          const int ta, const int unit,
                          __global const real2* A, const long offA, const int lda,
                          __global real2* B, const long offB, const int ldb)
{
    const int i = get_global_id(0);
    if (i >= m) return;
    __global const real2* a = A + offA;
    __global real2* b = B + offB + (long)i * ldb;
    for (int s = 0; s < nb; s++) {
        const int j = upper ? j0 + s : j0 + nb - 1 - s;
        real2 x = b[j];
        if (upper) {
            for (int p = j0; p < j; p++) x -= z_mul(b[p], z_op(a, lda, ta, p, j));
        } else {
            for (int p = j + 1; p < j0 + nb; p++) x -= z_mul(b[p], z_op(a, lda, ta, p, j));
        }
        if (!unit) x = z_div(x, z_op(a, lda, ta, j, j));
        b[j] = x;
    }
}

// The "3M" complex product (Gauss's trick: three real products instead of
// four), for large GEMMs where the fourth product's time matters more than
// the larger rounding error of the imaginary part:
//   P1 = Re A·Re W,  P2 = Im A·Im W,  P3 = (Re A + Im A)·(Re W + Im W),
//   C  = beta·C + (P1 − P2) + (P3 − P1 − P2)·i,   W = alpha·op(B).
// z3_pack writes the three real planes (re, im, re + im) of op(X)
// (rows×cols, alpha times it when scaled) with leading dimension cols, the
// planes plane elements apart. Dimension 0 walks j, dimension 1 walks i.
__kernel void z3_pack(const int rows, const int cols, const int t,
                      const real are, const real aim,
                      __global const real2* X, const long offX, const int ldx,
                      __global real* P, const long plane)
{
    const int j = get_global_id(0);
    const int i = get_global_id(1);
    if (j >= cols || i >= rows) return;
    const real2 w = z_mul((real2)(are, aim), z_op(X + offX, ldx, t, i, j));
    const long at = (long)i * cols + j;
    P[at] = w.x;
    P[plane + at] = w.y;
    P[2 * plane + at] = w.x + w.y;
}

// z3_combine finishes the 3M product: C = beta·C + (P1 − P2) + (P3 − P1 −
// P2)·i on the m×n C, the products P1, P2, P3 stored m×n (leading
// dimension n) plane elements apart. beta == 0 assigns (C is not read).
// Dimension 0 walks j, dimension 1 walks i.
__kernel void z3_combine(const int m, const int n, const real bre, const real bim,
                         __global const real* P, const long plane,
                         __global real2* C, const long offC, const int ldc)
{
    const int j = get_global_id(0);
    const int i = get_global_id(1);
    if (j >= n || i >= m) return;
    const long at = (long)i * n + j;
    const real p1 = P[at], p2 = P[plane + at], p3 = P[2 * plane + at];
    real2 r = (real2)(p1 - p2, p3 - p1 - p2);
    __global real2* c = C + offC + (long)i * ldc + j;
    if (bre != (real)0 || bim != (real)0) r += z_mul((real2)(bre, bim), *c);
    *c = r;
}
