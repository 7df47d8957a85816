/*
 * level3.cl — level-3 BLAS kernels other than GEMM (which lives in gemm.cl):
 * SYMM, SYRK, SYR2K, TRMM, the diagonal-block solves of the blocked TRSM, and
 * the scaling of a matrix or of one triangle of it. Compiled after common.cl
 * (which defines `real` from PRECISION).
 *
 * Storage is row-major (gonum's): element (i, j) of a matrix X with leading
 * dimension ldx is X[i*ldx + j]; offsets are computed in 64 bits. Side, uplo,
 * transpose and diagonal are int arguments (0/1), not defines, so one program
 * per precision serves every combination.
 *
 * Element-wise kernels run one work-item per element of the result:
 * get_global_id(0) is the column j, get_global_id(1) the row i; the host
 * rounds the global size up, so every kernel checks its bounds.
 *
 * beta == 0 (and s == 0 in l3_scale) assigns: the old value is not read, so
 * NaN and Inf already in C do not survive, as gonum does.
 */

#define ZERO ((real)0)

/* Triangle selectors (the host's triFull, triUpper, triLower). */
#define TRI_FULL 0
#define TRI_UPPER 1
#define TRI_LOWER 2

/* C = s·C on an m×n matrix at offC, or on the upper (j ≥ i) or lower
 * (j ≤ i) triangle of a square one. s == 0 assigns zeros. */
__kernel void l3_scale(const int m, const int n, const real s,
                       __global real* C, const int offC, const int ldc,
                       const int tri)
{
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i >= m || j >= n) return;
  if ((tri == TRI_UPPER && j < i) || (tri == TRI_LOWER && j > i)) return;
  __global real* c = C + offC + (long)i * ldc + j;
  *c = (s == ZERO) ? ZERO : s * *c;
}

/* B = A for m×n matrices (B at offset 0, leading dimension ldb): gemm_cpu's
 * operand re-laid with rows that are not a multiple of a page apart
 * (GemmLauncher.padded). An element a work-item; a row a work-item, a loop
 * that clang turns into memcpy, crashed Oclgrind 21.10 when it counts
 * instructions. */
__kernel void l3_copy(const int m, const int n,
                      __global const real* A, const int offA, const int lda,
                      __global real* B, const int ldb)
{
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i >= m || j >= n) return;
  B[(long)i * ldb + j] = A[offA + (long)i * lda + j];
}

/* B = Aᵀ: the n×m matrix B (at offset 0, leading dimension ldb) from the
 * m×n matrix A at offA: gemm_cpu's transposed operand re-laid untransposed
 * (GemmLauncher.transposed). A work-item takes an 8×8 block: inside both
 * matrices, A's eight rows loaded whole and B's eight written whole (the
 * transpose in registers), at their edges element by element. */
#define L3_TCOL(r, c) ((real8)(r[0].s##c, r[1].s##c, r[2].s##c, r[3].s##c, \
                                r[4].s##c, r[5].s##c, r[6].s##c, r[7].s##c))
__kernel void l3_transpose(const int m, const int n,
                           __global const real* A, const int offA, const int lda,
                           __global real* B, const int ldb)
{
  const int j0 = get_global_id(0) * 8;
  const int i0 = get_global_id(1) * 8;
  if (i0 >= m || j0 >= n) return;
  __global const real* a = A + offA + (long)i0 * lda + j0;
  __global real* b = B + (long)j0 * ldb + i0;
  if (i0 + 8 <= m && j0 + 8 <= n) {
    real8 r[8];
    for (int q = 0; q < 8; q++) {
      r[q] = vload8(0, a + q * (long)lda);
    }
    vstore8(L3_TCOL(r, 0), 0, b + 0 * (long)ldb);
    vstore8(L3_TCOL(r, 1), 0, b + 1 * (long)ldb);
    vstore8(L3_TCOL(r, 2), 0, b + 2 * (long)ldb);
    vstore8(L3_TCOL(r, 3), 0, b + 3 * (long)ldb);
    vstore8(L3_TCOL(r, 4), 0, b + 4 * (long)ldb);
    vstore8(L3_TCOL(r, 5), 0, b + 5 * (long)ldb);
    vstore8(L3_TCOL(r, 6), 0, b + 6 * (long)ldb);
    vstore8(L3_TCOL(r, 7), 0, b + 7 * (long)ldb);
    return;
  }
  const int mi = min(8, m - i0), nj = min(8, n - j0);
  for (int q = 0; q < nj; q++) {
    for (int p = 0; p < mi; p++) {
      b[q * (long)ldb + p] = a[p * (long)lda + q];
    }
  }
}

/* The epilogue of every element kernel: C = alpha·s + beta·C. */
static inline void l3_store(__global real* c, const real alpha, const real s, const real beta)
{
  *c = (beta == ZERO) ? alpha * s : fma(beta, *c, alpha * s);
}

/*
 * GEMM with alpha == 0 and k ≥ 1, as gonum computes it when op(B) is not
 * Bᵀ with A untransposed (that case is gemm.cl's kernel with alpha = 0):
 * C = beta·C (beta == 0 assigns), then every row i whose row of op(A) holds
 * a NaN or an infinity becomes NaN, because gonum adds (alpha·a_il)·B[l][:]
 * to row i for every a_il whose product with alpha is not exactly 0.
 * One work-item per row of C.
 */
__kernel void l3_gemm_alpha0(const int m, const int n, const int k, const int transA,
                             __global const real* A, const int offA, const int lda,
                             const real beta, __global real* C, const int offC, const int ldc)
{
  const int i = get_global_id(0);
  if (i >= m) return;
  __global const real* a = A + offA + (transA ? (long)i : (long)i * lda);
  const long as = transA ? (long)lda : 1;
  int bad = 0;
  for (int p = 0; p < k; p++) bad |= !isfinite(a[p * as]);
  __global real* c = C + offC + (long)i * ldc;
  for (int j = 0; j < n; j++) c[j] = bad ? (real)NAN : (beta == ZERO ? ZERO : beta * c[j]);
}

/*
 * SYMM: C = alpha·A·B + beta·C (left != 0, A is m×m) or
 *       C = alpha·B·A + beta·C (left == 0, A is n×n),
 * A symmetric with only its upper (upper != 0) or lower triangle stored;
 * B and C are m×n.
 *
 * Row r of the symmetric matrix (r = i on the left, j on the right, by
 * symmetry) is read as A[r][p] where (r, p) is in the stored triangle and as
 * A[p][r] elsewhere: for p < r the element is in the lower triangle, for
 * p ≥ r in the upper one.
 */
__kernel void symm(const int left, const int upper, const int m, const int n,
                   const real alpha, __global const real* A, const int lda,
                   __global const real* B, const int ldb,
                   const real beta, __global real* C, const int ldc)
{
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i >= m || j >= n) return;
  const int r = left ? i : j;
  const int K = left ? m : n;
  /* the other operand: B[p][j] on the left, B[i][p] on the right */
  __global const real* x = left ? B + j : B + (long)i * ldb;
  const long xs = left ? (long)ldb : 1;
  __global const real* arow = A + (long)r * lda; /* arow[p]         = A[r][p] */
  __global const real* acol = A + r;             /* acol[(long)p*lda] = A[p][r] */
  real s = ZERO;
  if (upper) {
    for (int p = 0; p < r; p++) s = fma(acol[(long)p * lda], x[p * xs], s);
    for (int p = r; p < K; p++) s = fma(arow[p], x[p * xs], s);
  } else {
    for (int p = 0; p < r; p++) s = fma(arow[p], x[p * xs], s);
    for (int p = r; p < K; p++) s = fma(acol[(long)p * lda], x[p * xs], s);
  }
  l3_store(C + (long)i * ldc + j, alpha, s, beta);
}

/*
 * SYRK: the uplo triangle of C = alpha·A·Aᵀ + beta·C (trans == 0, A is n×k)
 * or C = alpha·Aᵀ·A + beta·C (trans != 0, A is k×n); C is n×n and its other
 * triangle is not touched. Row i of op(A) starts at A + i·lda (stride 1)
 * without transpose and at A + i (stride lda) with it. k may be 0.
 * mulbeta != 0 multiplies C by beta even when beta == 0, as gonum does for
 * the lower triangle with a transpose (NaN and Inf in C then give NaN).
 */
__kernel void syrk(const int upper, const int trans, const int n, const int k,
                   const real alpha, __global const real* A, const int lda,
                   const real beta, __global real* C, const int ldc,
                   const int mulbeta)
{
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i >= n || j >= n || (upper ? j < i : j > i)) return;
  const long st = trans ? (long)lda : 1;
  __global const real* ai = A + (trans ? (long)i : (long)i * lda);
  __global const real* aj = A + (trans ? (long)j : (long)j * lda);
  real s = ZERO;
  for (int p = 0; p < k; p++) s = fma(ai[p * st], aj[p * st], s);
  __global real* c = C + (long)i * ldc + j;
  if (mulbeta) *c = fma(beta, *c, alpha * s);
  else l3_store(c, alpha, s, beta);
}

/*
 * SYR2K: the uplo triangle of C = alpha·(A·Bᵀ + B·Aᵀ) + beta·C (trans == 0,
 * A and B are n×k) or C = alpha·(Aᵀ·B + Bᵀ·A) + beta·C (trans != 0, A and B
 * are k×n). The other triangle of C is not touched.
 */
__kernel void syr2k(const int upper, const int trans, const int n, const int k,
                    const real alpha, __global const real* A, const int lda,
                    __global const real* B, const int ldb,
                    const real beta, __global real* C, const int ldc)
{
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i >= n || j >= n || (upper ? j < i : j > i)) return;
  const long sa = trans ? (long)lda : 1;
  const long sb = trans ? (long)ldb : 1;
  __global const real* ai = A + (trans ? (long)i : (long)i * lda);
  __global const real* aj = A + (trans ? (long)j : (long)j * lda);
  __global const real* bi = B + (trans ? (long)i : (long)i * ldb);
  __global const real* bj = B + (trans ? (long)j : (long)j * ldb);
  real s = ZERO;
  for (int p = 0; p < k; p++) {
    s = fma(ai[p * sa], bj[p * sb], s);
    s = fma(bi[p * sb], aj[p * sa], s);
  }
  l3_store(C + (long)i * ldc + j, alpha, s, beta);
}

/*
 * TRMM: Out = alpha·op(A)·B (left != 0, A is m×m) or Out = alpha·B·op(A)
 * (left == 0, A is n×n), A triangular (upper/lower stored triangle, unit
 * diagonal not read when unit != 0), op(A) = A or Aᵀ (trans). B and Out are
 * m×n with leading dimension ldb; Out is a separate buffer since every
 * element of the result reads a whole row or column of B. A, B and Out
 * start at element offA, offB and offOut of their buffers (the GEMM route
 * runs this kernel on diagonal blocks).
 *
 * op(A) is upper triangular when upper != trans. On the left, Out[i][j] sums
 * op(A)[i][p]·B[p][j] over p ≥ i (op(A) upper) or p ≤ i; on the right,
 * B[i][p]·op(A)[p][j] over p ≤ j (upper) or p ≥ j. With r = i (left) or j
 * (right), the off-diagonal terms are p > r when left == (op(A) upper), else
 * p < r; op(A)'s row r (left) or column r (right) is walked by base + p·stride.
 */
__kernel void trmm(const int left, const int upper, const int trans, const int unit,
                   const int m, const int n, const real alpha,
                   __global const real* A0, const int offA, const int lda,
                   __global const real* B0, const int offB, const int ldb,
                   __global real* Out0, const int offOut)
{
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i >= m || j >= n) return;
  __global const real* A = A0 + offA;
  __global const real* B = B0 + offB;
  __global real* Out = Out0 + offOut;
  const int r = left ? i : j;
  const int K = left ? m : n;
  /* left:  op(A)[r][p] = trans ? A[p][r] : A[r][p]
   * right: op(A)[p][r] = trans ? A[r][p] : A[p][r] */
  const int rowwise = left ? !trans : trans; /* A[r][p]: base r·lda, stride 1 */
  __global const real* a = A + (rowwise ? (long)r * lda : (long)r);
  const long as = rowwise ? 1 : (long)lda;
  __global const real* x = left ? B + j : B + (long)i * ldb;
  const long xs = left ? (long)ldb : 1;
  const int opUpper = (upper != 0) != (trans != 0);
  const int after = (left != 0) == opUpper;
  const int lo = after ? r + 1 : 0;
  const int hi = after ? K : r;
  real s = ZERO;
  for (int p = lo; p < hi; p++) s = fma(a[p * as], x[p * xs], s);
  s = unit ? s + x[r * xs] : fma(a[r * as], x[r * xs], s);
  Out[(long)i * ldb + j] = alpha * s;
}

/*
 * TRSM diagonal blocks. The host solves op(A)·X = B (left) or X·op(A) = B
 * (right) block by block (B already scaled by alpha): these kernels solve
 * one diagonal block of op(A) in place, by substitution, and the host updates
 * the rest of B with GEMM.
 *
 * trsm_left: rows [r0, r0+nb) of B (n columns), one work-item per column j:
 *   op(A) lower: forward,  x_i = (b_i − Σ_{r0≤p<i}    op(A)[i][p]·x_p) / op(A)[i][i]
 *   op(A) upper: backward, x_i = (b_i − Σ_{i<p<r0+nb} op(A)[i][p]·x_p) / op(A)[i][i]
 */
/* trsm_left_step gives step t of a left diagonal block's substitution:
 * the row i it solves and the rows [lo, hi) solved before it. */
static inline void trsm_left_step(int opUpper, int r0, int nb, int t,
                                  int *i, int *lo, int *hi)
{
  *i = opUpper ? r0 + nb - 1 - t : r0 + t;
  *lo = opUpper ? *i + 1 : r0;
  *hi = opUpper ? r0 + nb : *i;
}

/* trsm_left_col solves one column x (a stride of xs) of a left diagonal
 * block; op(A)[i][p] = A[i·ri + p·rp]. */
static inline void trsm_left_col(int opUpper, int unit, int r0, int nb,
                                 __global const real* A, long ri, long rp,
                                 __global real* x, long xs)
{
  for (int t = 0; t < nb; t++) {
    int i, lo, hi;
    trsm_left_step(opUpper, r0, nb, t, &i, &lo, &hi);
    __global const real* ar = A + i * ri;
    real s = x[i * xs];
    for (int p = lo; p < hi; p++) s = fma(-ar[p * rp], x[p * xs], s);
    if (!unit) s /= ar[i * rp];
    x[i * xs] = s;
  }
}

__kernel void trsm_left(const int upper, const int trans, const int unit,
                        const int n, const int r0, const int nb,
                        __global const real* A, const int lda,
                        __global real* B, const int ldb)
{
  const int j = get_global_id(0);
  if (j >= n) return;
  const int opUpper = (upper != 0) != (trans != 0);
  /* op(A)[i][p] = A[i·lda + p] (no transpose) or A[p·lda + i] */
  const long ri = trans ? 1 : (long)lda;
  const long rp = trans ? (long)lda : 1;
  trsm_left_col(opUpper, unit, r0, nb, A, ri, rp, B + j, ldb);
}

/*
 * trsm_left_rows: trsm_left for CPU devices, a run of TRSM_RC neighbouring
 * columns a work-item instead of one column: row i of the run is formed
 * from the rows before it, so every load and store walks along a row of B
 * and the inner loop is over neighbouring elements. One column a
 * work-item walks down a column, a new cache line at each element. A whole
 * run is held in four real8 (ld8's moves join into vector ones); a private
 * array indexed up to a run's length would live in memory, one scalar
 * multiply-add at a time. The last run, if shorter, goes a column at a
 * time.
 */
#define TRSM_RC 32
__kernel void trsm_left_rows(const int upper, const int trans, const int unit,
                             const int n, const int r0, const int nb,
                             __global const real* A, const int lda,
                             __global real* B, const int ldb)
{
  const int c0 = get_global_id(0) * TRSM_RC;
  const int nc = min(TRSM_RC, n - c0);
  if (nc <= 0) return;
  const int opUpper = (upper != 0) != (trans != 0);
  const long ri = trans ? 1 : (long)lda;
  const long rp = trans ? (long)lda : 1;
  if (nc < TRSM_RC) {
    for (int c = 0; c < nc; c++)
      trsm_left_col(opUpper, unit, r0, nb, A, ri, rp, B + c0 + c, ldb);
    return;
  }
  for (int t = 0; t < nb; t++) {
    int i, lo, hi;
    trsm_left_step(opUpper, r0, nb, t, &i, &lo, &hi);
    __global const real* ar = A + i * ri;
    __global real* xi = B + (long)i * ldb + c0;
    real8 s0 = ld8(xi), s1 = ld8(xi + 8), s2 = ld8(xi + 16), s3 = ld8(xi + 24);
    for (int p = lo; p < hi; p++) {
      const real8 a = (real8)(-ar[p * rp]);
      __global const real* xp = B + (long)p * ldb + c0;
      s0 = fma(a, ld8(xp), s0);
      s1 = fma(a, ld8(xp + 8), s1);
      s2 = fma(a, ld8(xp + 16), s2);
      s3 = fma(a, ld8(xp + 24), s3);
    }
    if (!unit) {
      const real8 d = (real8)(ar[i * rp]);
      s0 /= d;
      s1 /= d;
      s2 /= d;
      s3 /= d;
    }
    st8(s0, xi);
    st8(s1, xi + 8);
    st8(s2, xi + 16);
    st8(s3, xi + 24);
  }
}

/*
 * trsm_right: columns [c0, c0+nb) of B (m rows), one work-item per row i;
 * B[i][j] = Σ_p X[i][p]·op(A)[p][j], so
 *   op(A) upper: forward,  x_j = (b_j − Σ_{c0≤p<j}    x_p·op(A)[p][j]) / op(A)[j][j]
 *   op(A) lower: backward, x_j = (b_j − Σ_{j<p<c0+nb} x_p·op(A)[p][j]) / op(A)[j][j]
 */
__kernel void trsm_right(const int upper, const int trans, const int unit,
                         const int m, const int c0, const int nb,
                         __global const real* A, const int lda,
                         __global real* B, const int ldb)
{
  const int i = get_global_id(0);
  if (i >= m) return;
  __global real* x = B + (long)i * ldb;
  const int opUpper = (upper != 0) != (trans != 0);
  /* op(A)[p][j] = A[p·lda + j] (no transpose) or A[j·lda + p] */
  const long cj = trans ? (long)lda : 1;
  const long cp = trans ? 1 : (long)lda;
  for (int t = 0; t < nb; t++) {
    const int j = opUpper ? c0 + t : c0 + nb - 1 - t;
    const int lo = opUpper ? c0 : j + 1;
    const int hi = opUpper ? j : c0 + nb;
    __global const real* ac = A + j * cj;
    real s = x[j];
    for (int p = lo; p < hi; p++) s = fma(-ac[p * cp], x[p], s);
    if (!unit) s /= ac[j * cp];
    x[j] = s;
  }
}

/*
 * The GEMM route of SYMM, SYRK and SYR2K (device_level3.go): for large
 * problems the host runs the tuned GEMM kernel and these kernels adapt its
 * input or output.
 *
 * l3_sym_expand: F (n×n, leading dimension n) = the symmetric matrix whose
 * upper (upper != 0) or lower triangle A holds; the other triangle of A is
 * not read. One work-item per element of F.
 */
__kernel void l3_sym_expand(const int n, const int upper,
                            __global const real* A, const int lda,
                            __global real* F)
{
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i >= n || j >= n) return;
  const int stored = upper ? j >= i : j <= i;
  F[(long)i * n + j] = stored ? A[(long)i * lda + j] : A[(long)j * lda + i];
}

/*
 * l3_tri_merge: the upper or lower triangle of C = T + beta·C, or of
 * C = T + Tᵀ + beta·C when sym2 != 0 (SYR2K: T = alpha·A·Bᵀ, and
 * alpha·B·Aᵀ = Tᵀ). T is n×n with leading dimension ldt. beta == 0
 * assigns unless mulbeta != 0 (gonum's lower-triangle SYRK with a
 * transpose multiplies C by beta even then, so NaN in C survives), as the
 * direct kernels do. The other triangle of C is not touched.
 */
__kernel void l3_tri_merge(const int n, const int upper, const int sym2,
                           __global const real* T, const int ldt,
                           const real beta, __global real* C, const int ldc,
                           const int mulbeta)
{
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i >= n || j >= n || (upper ? j < i : j > i)) return;
  real t = T[(long)i * ldt + j];
  if (sym2) t += T[(long)j * ldt + i];
  __global real* c = C + (long)i * ldc + j;
  *c = (beta == ZERO && !mulbeta) ? t : fma(beta, *c, t);
}
