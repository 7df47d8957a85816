// lapack.cl — helpers of the device LAPACK (package cllapack), built after
// common.cl with PRECISION=32|64.
//
// Matrices are row-major with row stride lda, as in gonum; offsets are long
// and index products are computed in long, so a matrix may span more than
// 2^31 elements.

#define LASWP_MAX 128          // interchanges laswp turns into one permutation
#define LASWP_SLOTS (2 * LASWP_MAX) // rows such a permutation can move
#define LASWP_COLS 16          // columns of a laswp work-group
#define LASWP_WG 256           // laswp's work-group size (the host's laswpWG)

// laswp applies the row interchanges of one panel, in order: for
// i = k1, …, k2−1 (k2−k1 ≤ LASWP_MAX), row i is exchanged with row
// ipiv[i] (absolute row numbers), over the cols columns starting at
// element off of a. Done one by one, each interchange is a global memory
// round trip after the one before; instead, each work-group turns the
// interchanges into the permutation they make of the rows they touch (in
// local memory: the rows k1…k2−1, then each other row named, once), reads every
// moved element of its LASWP_COLS columns into registers, and writes them
// back permuted. Work-items: LASWP_COLS columns × 16 lanes, each lane
// holding the rows ≡ lane (mod 16) of the moved ones.
__kernel void laswp(__global real *a, long off, int lda, int cols, int k1,
                    int k2, __global const int *ipiv) {
  __local int piv[LASWP_MAX], first[LASWP_MAX], tgt[LASWP_MAX];
  __local int rowOf[LASWP_SLOTS], cont[LASWP_SLOTS];
  __local int nslots;
  const int lid = get_local_id(0);
  const int col = get_group_id(0) * LASWP_COLS + lid % LASWP_COLS;
  const int lane = lid / LASWP_COLS;
  {
    const int c1 = k1, c2 = k2, kb = c2 - c1;
    if (lid < kb)
      piv[lid] = ipiv[c1 + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    // first[t]: the first interchange naming piv[t] when it lies outside
    // the rows c1…c2−1 (whose slots are fixed).
    if (lid < kb) {
      const int p = piv[lid];
      int f = lid;
      if (p < c1 || p >= c2)
        for (int j = 0; j < lid; j++)
          if (piv[j] == p) {
            f = j;
            break;
          }
      first[lid] = f;
      rowOf[lid] = c1 + lid;
    }
    if (lid == 0)
      nslots = kb;
    barrier(CLK_LOCAL_MEM_FENCE);
    // The slot of an outside row: kb + its rank among the outside rows;
    // nslots, kb + their number.
    if (lid < kb) {
      const int p = piv[lid];
      if ((p < c1 || p >= c2) && first[lid] == lid) {
        int r = 0;
        for (int j = 0; j < lid; j++)
          r += (piv[j] < c1 || piv[j] >= c2) && first[j] == j;
        tgt[lid] = kb + r;
        rowOf[kb + r] = p;
        atomic_max(&nslots, kb + r + 1);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < kb) {
      const int p = piv[lid];
      if (p >= c1 && p < c2)
        tgt[lid] = p - c1;
      else if (first[lid] != lid)
        tgt[lid] = tgt[first[lid]];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // cont[s]: the slot whose row ends up in slot s's row. Work-item s
    // follows slot s's row through the interchanges, all of them at once
    // (a chain of kb compares each, where composing the interchanges one
    // after another is a chain of local memory round trips).
    if (lid < nslots) {
      int pos = lid;
      for (int i = 0; i < kb; i++) {
        const int t = tgt[i];
        pos = pos == i ? t : pos == t ? i : pos;
      }
      cont[pos] = lid;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int ns = nslots;
    real vals[LASWP_SLOTS / (LASWP_WG / LASWP_COLS)];
#pragma unroll
    for (int q = 0; q < LASWP_SLOTS / (LASWP_WG / LASWP_COLS); q++) {
      const int t = lane + q * (LASWP_WG / LASWP_COLS);
      vals[q] = col < cols && t < ns ? a[off + (long)rowOf[cont[t]] * lda + col] : 0;
    }
    barrier(CLK_GLOBAL_MEM_FENCE); // every moved element is read
#pragma unroll
    for (int q = 0; q < LASWP_SLOTS / (LASWP_WG / LASWP_COLS); q++) {
      const int t = lane + q * (LASWP_WG / LASWP_COLS);
      if (col < cols && t < ns && cont[t] != t)
        a[off + (long)rowOf[t] * lda + col] = vals[q];
    }
  }
}

// LASWP_RC is how many neighbouring columns a laswp_rows work-item moves.
#define LASWP_RC 64

// laswp_rows applies the same interchanges as laswp, one after another,
// on CPU devices: work-item w takes the columns w·LASWP_RC… of the cols
// from off and exchanges their parts of rows i and ipiv[i] in turn. On a
// CPU the moved rows stay in cache, and laswp's work-groups, which each
// build the whole permutation behind barriers for 16 columns, cost far
// more than the moves. Any k2 − k1; no barriers.
__kernel void laswp_rows(__global real *a, long off, int lda, int cols,
                         int k1, int k2, __global const int *ipiv) {
  const int c0 = get_global_id(0) * LASWP_RC;
  const int nc = min(LASWP_RC, cols - c0);
  if (nc <= 0)
    return;
  for (int i = k1; i < k2; i++) {
    const int p = ipiv[i];
    if (p == i)
      continue;
    __global real *ri = a + off + (long)i * lda + c0;
    __global real *rp = a + off + (long)p * lda + c0;
    for (int c = 0; c < nc; c++) {
      const real t = ri[c];
      ri[c] = rp[c];
      rp[c] = t;
    }
  }
}

// tri_band copies, between the n×n matrix at element off of a (row stride
// lda) and the n×bw matrix at element soff of s (row stride lds), the
// elements strictly on one side of the diagonal and at most bw from it:
// (i, i−t) when lower != 0, else (i, i+t), t = 1, …, bw, held in
// s[soff + i·lds + t−1]. save != 0 copies them into s, else
// back into a. Potrf's trailing updates overwrite that band of the triangle
// it does not reference (a GEMM computes each slab's diagonal square in
// full), and this kernel saves it before and restores it after. One
// work-item per element: dimension 0 is t−1, dimension 1 is i.
__kernel void tri_band(int n, int bw, int lower, int save, __global real *a,
                       long off, int lda, __global real *s, long soff,
                       int lds) {
  int t = get_global_id(0) + 1;
  int i = get_global_id(1);
  if (t > bw || i >= n)
    return;
  int j = lower ? i - t : i + t;
  if (j < 0 || j >= n)
    return;
  __global real *e = a + off + (long)i * lda + j;
  __global real *x = s + soff + (long)i * lds + (t - 1);
  if (save)
    *x = *e;
  else
    *e = *x;
}

#ifndef LU_WG
#define LU_WG 256 // work-items of getf2_leaf's one work-group
#endif
#ifndef LU_BMAX
#define LU_BMAX 64 // the widest panel getf2_leaf factorises
#endif
#ifndef LU_ROWS
// Rows a getf2_leaf work-item updates at once: up to 1024 rows in flight
// per group, within the registers a group of LU_WG may have.
#define LU_ROWS (LU_WG >= 1024 ? 1 : LU_WG >= 512 ? 2 : 4)
#endif
#ifndef LU_BW
// 0: each getf2_leaf work-item updates whole rows of the panel. A power of
// two ≥ the panel's width (≤ 32): LU_BW neighbouring work-items share a
// row, one column each, so that a load or store of the group touches
// LU_WG/LU_BW rows, not one row per work-item (on a GPU, one cache line
// per work-item is what bounds the row-wise update).
#define LU_BW 0
#endif
#if LU_BW > LU_WG
#error "getf2_leaf: LU_BW must not exceed LU_WG"
#endif
#if LU_BW > 0
#define LU_RG (LU_WG / LU_BW) // rows the group's work-items cover at once
#define LU_CROWS 16          // rows a work-item loads at once (LU_BW > 0)
#endif

// lu_col_max returns this work-item's part of the pivot search over column
// c of the m×b panel p (row stride lda), rows c, …, m−1: the largest |x|
// and its first row, NaN counting as −1 (gonum's Idamax never picks a NaN
// but the first element, which getf2_leaf checks itself).
static void lu_col_max(__global const real *p, int lda, int m, int c,
                       real *best, int *bi) {
  *best = -1;
  *bi = c;
  for (int i = c + (int)get_local_id(0); i < m; i += LU_WG) {
    real v = fabs(p[(long)i * lda + c]);
    if (v > *best) {
      *best = v;
      *bi = i;
    }
  }
}

// lu_multiplier is gonum's Dgetf2 multiplier of row i for column c from
// x, that row's element below the pivot d (rd = 1/d, m the panel's rows).
// gonum scales by 1/d when |d| ≥ REAL_MIN; for a tiny or NaN pivot its loop
// divides only row c+1's element, m−c−1 times, and leaves the others, and
// for a zero pivot it scales nothing. *stored says whether the multiplier
// replaces x in the matrix (otherwise x itself is the multiplier).
static inline real lu_multiplier(real x, real d, real rd, int i, int c, int m,
                                 int *stored) {
  *stored = 0;
  if (d == 0)
    return x;
  if (fabs(d) >= REAL_MIN) {
    *stored = 1;
    return x * rd;
  }
  if (i != c + 1)
    return x;
  for (int t = c + 1; t < m; t++)
    x /= d;
  *stored = 1;
  return x;
}

// lu_load_rows loads columns k0 to k0+15 (those < b) of this work-item's
// LU_ROWS rows i0, i0+LU_WG, … (those < m) of the panel p into x, zero
// elsewhere: every load issued before any is used.
static void lu_load_rows(__global const real *p, int lda, int m, int b,
                         int i0, int k0, real x[LU_ROWS][16]) {
#pragma unroll
  for (int r = 0; r < LU_ROWS; r++)
#pragma unroll
    for (int t = 0; t < 16; t++) {
      const int i = i0 + r * LU_WG;
      x[r][t] = i < m && k0 + t < b ? p[(long)i * lda + k0 + t] : 0;
    }
}

// getf2_leaf is gonum's Dgetf2 on the m×b panel (m ≥ b, b ≤ LU_BMAX) at
// element off of a (row stride lda), in one work-group of LU_WG
// work-items that each own the rows lid, lid+LU_WG, …: for each column c,
// the pivot search (a reduction in local memory, the first of equal
// maxima), the interchange of rows c and p over the panel's b columns, the
// scaling of the column below the diagonal by 1/pivot (see below for a
// tiny pivot) and the rank-one update of the columns right of it,
// during which each work-item finds its part of the next column's pivot
// search. ipiv[r0+c] = r0+p (r0: the panel's first row in the matrix the
// row interchanges apply to). An exactly zero pivot is not interchanged
// nor divided by, as in Dgetf2, and sets *info to r0+c+1 unless *info is
// already set.
__kernel void getf2_leaf(int m, int b, __global real *a, long off, int lda,
                         int r0, __global int *ipiv, __global int *info) {
  __local real lmax[LU_WG];
  __local int lidx[LU_WG];
  __local real prow[LU_BMAX];
  const int lid = get_local_id(0);
  __global real *p = a + off;
  real best;
  int bi;
  lu_col_max(p, lda, m, 0, &best, &bi);
  // Every global access of a column step that the next one waits for is
  // a round trip through the memory system, and in this one-work-group
  // kernel those round trips, not bandwidth, are the bound: so each step
  // issues the loads it needs together (the two pivot candidates; rows c
  // and piv; a row's whole width) and never reads back what it wrote.
  for (int c = 0; c < b; c++) {
    argmax_local(lmax, lidx, best, bi);
    int piv = lidx[0];
    const real dc = p[(long)c * lda + c];
    const real dp = p[(long)piv * lda + c];
    if (isnan(dc))
      piv = c;
    const real pv = isnan(dc) ? dc : dp;
    // lmax, lidx and the pivot column are read before they change
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (lid == 0) {
      ipiv[r0 + c] = r0 + piv;
      if (pv == 0 && *info == 0)
        *info = r0 + c + 1;
    }
    const int swap = pv != 0 && piv != c;
    for (int k = lid; k < b; k += LU_WG) {
      const real t = p[(long)c * lda + k];
      const real u = p[(long)piv * lda + k];
      if (swap) {
        p[(long)c * lda + k] = u;
        p[(long)piv * lda + k] = t;
      }
      prow[k] = swap ? u : t;
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    const real d = prow[c];
    const real rd = 1 / d;
    best = -1;
    bi = c + 1;
#if LU_BW > 0
    // Work-item (lid / LU_BW, lid % LU_BW) updates column k = lid % LU_BW
    // (if c < k < b) of the rows lid / LU_BW + c + 1 + LU_RG·q, LU_CROWS at
    // a time; each reads the row's multiplier (column c) itself, from the
    // same cache lines, and the work-item of column c (k == c) writes it
    // scaled once every work-item has read it: the batches are counted
    // alike in every work-item, so that a barrier can part reads and
    // writes.
    const int kc = lid % LU_BW;
    const int nbat = (m - c - 1 + LU_RG * LU_CROWS - 1) / (LU_RG * LU_CROWS);
    for (int q = 0; q < nbat; q++) {
      const int i0 = c + 1 + lid / LU_BW + q * (LU_RG * LU_CROWS);
      real xl[LU_CROWS], xk[LU_CROWS];
#pragma unroll
      for (int r = 0; r < LU_CROWS; r++) {
        const int i = i0 + r * LU_RG;
        xl[r] = i < m ? p[(long)i * lda + c] : 0;
        xk[r] = i < m && kc > c && kc < b ? p[(long)i * lda + kc] : 0;
      }
      barrier(CLK_GLOBAL_MEM_FENCE); // column c is read before it changes
#pragma unroll
      for (int r = 0; r < LU_CROWS; r++) {
        const int i = i0 + r * LU_RG;
        if (i >= m)
          continue;
        int st;
        const real l = lu_multiplier(xl[r], d, rd, i, c, m, &st);
        if (st && kc == c)
          p[(long)i * lda + c] = l;
        if (kc > c && kc < b) {
          const real v = fma(-l, prow[kc], xk[r]);
          p[(long)i * lda + kc] = v;
          if (kc == c + 1 && fabs(v) > best) {
            best = fabs(v);
            bi = i;
          }
        }
      }
    }
#else
    // LU_ROWS of this work-item's rows at a time, each with columns c to
    // c+15 loaded at once (column c is the multiplier); wider panels take
    // the columns past c+15 in further chunks of 16.
    for (int i0 = c + 1 + lid; i0 < m; i0 += LU_WG * LU_ROWS) {
      real l[LU_ROWS];
      {
        real x[LU_ROWS][16];
        lu_load_rows(p, lda, m, b, i0, c, x);
#pragma unroll
        for (int r = 0; r < LU_ROWS; r++) {
          const int i = i0 + r * LU_WG;
          l[r] = x[r][0];
          if (i >= m)
            continue;
          int st;
          l[r] = lu_multiplier(x[r][0], d, rd, i, c, m, &st);
          if (st)
            p[(long)i * lda + c] = l[r];
#pragma unroll
          for (int t = 1; t < 16; t++)
            if (c + t < b)
              p[(long)i * lda + c + t] = fma(-l[r], prow[c + t], x[r][t]);
          if (c + 1 < b) {
            real v = fabs(fma(-l[r], prow[c + 1], x[r][1]));
            if (v > best) {
              best = v;
              bi = i;
            }
          }
        }
      }
      for (int k0 = c + 16; k0 < b; k0 += 16) {
        real x[LU_ROWS][16];
        lu_load_rows(p, lda, m, b, i0, k0, x);
#pragma unroll
        for (int r = 0; r < LU_ROWS; r++) {
          const int i = i0 + r * LU_WG;
          if (i >= m)
            continue;
#pragma unroll
          for (int t = 0; t < 16; t++)
            if (k0 + t < b)
              p[(long)i * lda + k0 + t] = fma(-l[r], prow[k0 + t], x[r][t]);
        }
      }
    }
#endif
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  }
}

#ifndef TRSM_N
#define TRSM_N 64 // the most rows trsm_llu solves (the host's trsmLeaf)
#endif
#define TRSM_WG 256  // trsm_llu's work-group size (the host's trsmWG)
#define TRSM_COLS 32 // columns of B a trsm_llu work-group solves
#define TRSM_RL (TRSM_WG / TRSM_COLS) // work-items on one column
#define TRSM_RPW (TRSM_N / TRSM_RL)   // rows a work-item holds

// trsm_llu solves L·X = B in place for B, L the n1×n1 unit lower
// triangular matrix (n1 ≤ TRSM_N) at element offL of a and B n1×n2 at
// element offB of the same buffer (row stride lda). A work-group takes
// TRSM_COLS columns of B, their rows spread over TRSM_RL work-items a
// column (work-item (rl, jc) holds rows rl, rl + TRSM_RL, … of column jc
// in registers), and solves them right-looking: at step i, x_i is final
// and goes through local memory to its column's work-items, which
// subtract L(r, i)·x_i from their rows r > i. Each x_r receives its terms
// in the order of forward substitution, so the result is the same as
// that of a work-item walking the column alone (and NaN and Inf spread
// the same way); but a step is one multiply-add a row and a barrier, and
// B is read and written once, a row's columns by neighbouring work-items.
__kernel void trsm_llu(int n1, int n2, __global real *a, long offL,
                       long offB, int lda) {
  __local real xi[2][TRSM_COLS];
  const int lid = get_local_id(0);
  const int jc = lid % TRSM_COLS, rl = lid / TRSM_COLS;
  const int j = get_group_id(0) * TRSM_COLS + jc;
  const int col = j < n2;
  __global const real *l = a + offL;
  __global real *b = a + offB + j;
  real x[TRSM_RPW], lv[TRSM_RPW];
#pragma unroll
  for (int q = 0; q < TRSM_RPW; q++) {
    const int r = rl + TRSM_RL * q;
    x[q] = col && r < n1 ? b[(long)r * lda] : 0;
    lv[q] = r < n1 ? l[(long)r * lda] : 0; // L(r, 0), for step 0
  }
  for (int i = 0; i + 1 < n1; i++) {
    const int buf = i & 1;
    if (rl == i % TRSM_RL)
#pragma unroll
      for (int q = 0; q < TRSM_RPW; q++)
        if (q == i / TRSM_RL)
          xi[buf][jc] = x[q];
    barrier(CLK_LOCAL_MEM_FENCE);
    const real v = xi[buf][jc];
#pragma unroll
    for (int q = 0; q < TRSM_RPW; q++) {
      const int r = rl + TRSM_RL * q;
      const real u = fma(-lv[q], v, x[q]);
      x[q] = r > i && r < n1 ? u : x[q];
      // L(r, i+1), for the next step, read while this one finishes.
      lv[q] = r > i + 1 && r < n1 ? l[(long)r * lda + i + 1] : 0;
    }
  }
#pragma unroll
  for (int q = 0; q < TRSM_RPW; q++) {
    const int r = rl + TRSM_RL * q;
    if (col && r >= 1 && r < n1)
      b[(long)r * lda] = x[q];
  }
}

// Two versions of potf2_inv: with POTF_REGS defined (the host's potfRegs,
// for GPUs), each work-item keeps its elements of the block in registers
// (a long compile on PoCL); otherwise the block stays in global memory.
#ifdef POTF_REGS
#ifndef POTF_T
#define POTF_T 8 // elements per work-item along each dimension
#endif
#ifndef POTF_G
#define POTF_G 16 // work-items along each dimension of the group
#endif
#define POTF_N (POTF_G * POTF_T) // the widest block
// potf2_inv factorises the n×n diagonal block (n ≤ POTF_N) at element off of
// a (row stride lda) in place, A = Uᵀ·U (upper != 0, U in the upper
// triangle) or A = L·Lᵀ (L = Uᵀ in the lower triangle), right-looking, in
// one work-group of POTF_G×POTF_G work-items, and writes U⁻¹ (or
// L⁻¹ = U⁻ᵀ) into the n×n block at element ioff of inv (row stride ldi),
// zero outside its triangle. The other triangle of a is not touched.
// U(r, c) and X(r, c) = U⁻¹(r, c) address either triangle. Work-item
// (gr, gc) keeps the elements (gr+G·s, gc+G·t), s, t < POTF_T, G = POTF_G,
// in registers for the whole kernel, so that a step costs no global
// memory round trip.
// The inverse is computed in the same steps as the factor: X·U = I solved
// column by column, right-looking, X(:, c) = (e_c − Σ_{p<c} X(:, p)·U(p, c))
// / U(c, c). Row j of U is needed only at step j, so at that step it goes
// to a and its registers start holding row j of X; a register (r, c),
// r ≤ c, holds U(r, c) being updated before step r and X(r, c) being
// accumulated after it, final after step c. Step j sends row j (U) and
// column j (X, above the diagonal) through local memory, two buffers used
// in turn, so that one barrier a step suffices: the next step writes the
// other buffer, and the one after it comes after the next barrier.
// A diagonal element that is not positive (or NaN) is left in place with
// the rows below it as far as they were updated, sets *info to
// ibase+column+1 and makes the inverse zero; when *info is already set the
// kernel only zeroes the inverse, so that Potrf's later GEMMs, multiplying
// by it, change nothing.
#define U_(r, c) a[off + (upper ? (long)(r) * lda + (c) : (long)(c) * lda + (r))]
#define X_(r, c) inv[ioff + (upper ? (long)(r) * ldi + (c) : (long)(c) * ldi + (r))]
// potf_steps runs the steps described above on the n×n block held in v by
// work-item (gr, gc) (see potf2_inv), lrow and lcol being 2·POTF_N reals
// of local memory each, zero at the start. With wr set, row j of U goes to
// a at step j (U_); without it nothing is written, so that many
// work-groups may factorise the same block (potrf_row). It returns the
// column that failed, n if none did; v then holds X where no step failed.
static inline int potf_steps(int n, int upper, int gr, int gc,
                             real v[POTF_T][POTF_T], __local real *lrow,
                             __local real *lcol, __global real *a, long off,
                             int lda, int wr) {
  // A step's update is the same for every element, written as selects,
  // not branches: the work-items of a warp hold elements on both sides of
  // row and column j, and branches would run every side one after
  // another. Step j changes only the columns from j on, so it skips the
  // blocks left of j's (t < tj), a branch the same in every work-item.
  // A failing step leaves through the loop's condition: PoCL miscompiles
  // a return or break out of a loop with barriers.
  int fj = n;
  for (int j = 0; j < n && fj == n; j++) {
    __local real *row = lrow + (j & 1) * POTF_N, *col = lcol + (j & 1) * POTF_N;
    const int jr = j % POTF_G, tj = j / POTF_G;
    // Row j from column j on, and column j (above the diagonal), into
    // local memory from their owners.
#pragma unroll
    for (int t = 0; t < POTF_T; t++) {
      if (t < tj)
        continue;
#pragma unroll
      for (int s = 0; s <= t; s++) {
        const int r = gr + POTF_G * s, c = gc + POTF_G * t;
        if (r == j)
          row[c] = v[s][t];
        if (c == j)
          col[r] = v[s][t];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const real d = row[j]; // the same in every work-item
    if (!(d > 0)) {
      fj = j;
      continue;
    }
    const real sd = sqrt(d), rs = 1 / sd; // Dpotf2 scales by 1/ajj
    // uc: U(j, c) of the own columns; w: U(j, r) of the own rows below
    // row j, X(r, j) of those above it (final).
    real uc[POTF_T], w[POTF_T];
#pragma unroll
    for (int s = 0; s < POTF_T; s++) {
      const int r = gr + POTF_G * s, c = gc + POTF_G * s;
      uc[s] = row[c] * rs;
      w[s] = (r < j ? col[r] : row[r]) * rs;
    }
    // Row j of U is final: to a (its registers start holding X's row j).
    if (wr && gr == jr)
#pragma unroll
      for (int t = 0; t < POTF_T; t++) {
        const int c = gc + POTF_G * t;
        if (t >= tj && c >= j && c < n)
          U_(j, c) = c == j ? sd : uc[t];
      }
#pragma unroll
    for (int t = 0; t < POTF_T; t++) {
      if (t < tj)
        continue;
#pragma unroll
      for (int s = 0; s <= t; s++) {
        const int r = gr + POTF_G * s, c = gc + POTF_G * t;
        // r < j: X(r, c) −= X(r, j)·U(j, c); r > j: U(r, c) −=
        // U(j, r)·U(j, c), and garbage below the diagonal (never read);
        // column j above the diagonal: X(r, j); row j: X's row j.
        const real upd = fma(-w[s], uc[t], v[s][t]);
        const real rowj = c == j ? rs : -rs * uc[t];
        real x = c > j ? upd : v[s][t];
        x = c == j && r < j ? w[s] : x;
        v[s][t] = r == j && c >= j ? rowj : x;
      }
    }
  }
  return fj;
}

__kernel void potf2_inv(int n, int upper, __global real *a, long off, int lda,
                        __global real *inv, long ioff, int ldi,
                        __global int *info, int ibase) {
  __local real lrow[2 * POTF_N]; // row j of the block (U), two buffers
  __local real lcol[2 * POTF_N]; // column j of the block (X above the diagonal)
  const int lid = get_local_id(0);
  const int tx = lid % POTF_G, ty = lid / POTF_G;
  // Neighbouring work-items touch neighbouring elements of the storage.
  const int gr = upper ? ty : tx, gc = upper ? tx : ty;
  // Only the blocks (s, t) with s ≤ t hold elements of the triangle: for
  // s > t, r ≥ G·s > G·t + G − 1 ≥ c. Those below stay zero, untouched.
  real v[POTF_T][POTF_T];
#pragma unroll
  for (int s = 0; s < POTF_T; s++)
#pragma unroll
    for (int t = 0; t < POTF_T; t++) {
      const int r = gr + POTF_G * s, c = gc + POTF_G * t;
      v[s][t] = s <= t && r < n && c < n && r <= c ? U_(r, c) : 0;
    }
  // Step j writes only the entries of row and column j that it uses;
  // the rest are read as well (and discarded), so none is left
  // uninitialised.
  for (int e = lid; e < 2 * POTF_N; e += POTF_G * POTF_G) {
    lrow[e] = 0;
    lcol[e] = 0;
  }
  // fj is the column that failed, n if none did (or *info was set).
  int failed = *info != 0, fj = n;
  // *info is read before work-item 0 sets it; local memory is zero.
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (!failed) {
    fj = potf_steps(n, upper, gr, gc, v, lrow, lcol, a, off, lda, 1);
    failed = fj < n;
  }
  if (fj < n && lid == 0)
    *info = ibase + fj + 1;
#pragma unroll
  for (int s = 0; s < POTF_T; s++)
#pragma unroll
    for (int t = 0; t < POTF_T; t++) {
      const int r = gr + POTF_G * s, c = gc + POTF_G * t;
      if (r < n && c < n) {
        // After a failure at fj, rows fj… still hold U, as far as it got.
        if (s <= t && r >= fj && r <= c)
          U_(r, c) = v[s][t];
        X_(r, c) = failed || r > c ? 0 : v[s][t];
      }
    }
}
#undef U_
#undef X_
#undef POTF_N
#else
// potf2_inv factorises the n×n diagonal block at element off of a (row
// stride lda) in place, A = Uᵀ·U (upper != 0, U in the upper triangle) or
// A = L·Lᵀ (L = Uᵀ in the lower triangle), right-looking, in one
// work-group of 256 work-items (a 16×16 grid), and writes U⁻¹ (or L⁻¹ =
// U⁻ᵀ) into the n×n block at element ioff of inv (row stride ldi), zero
// outside its triangle. The other triangle of a is not touched. U(r, c)
// and X(r, c) = U⁻¹(r, c) address either triangle. A diagonal element that
// is not positive (or NaN) is left in place, sets *info to ibase+column+1
// and makes the inverse zero; when *info is already set the kernel only
// zeroes the inverse, so that Potrf's later GEMMs, multiplying by it,
// change nothing.
#define U_(r, c) a[off + (upper ? (long)(r) * lda + (c) : (long)(c) * lda + (r))]
#define X_(r, c) inv[ioff + (upper ? (long)(r) * ldi + (c) : (long)(c) * ldi + (r))]
#define POTF_KB 128 // columns of X per reduction round
__kernel void potf2_inv(int n, int upper, __global real *a, long off, int lda,
                        __global real *inv, long ioff, int ldi,
                        __global int *info, int ibase) {
  __local real red[16 * POTF_KB];
  const int lid = get_local_id(0);
  const int tx = lid % 16, ty = lid / 16;
  // Grid coordinates along the storage's rows and columns, so that
  // neighbouring work-items touch neighbouring elements.
  const int gr = upper ? ty : tx, gc = upper ? tx : ty;
  int failed = *info != 0;
  barrier(CLK_GLOBAL_MEM_FENCE); // *info is read before work-item 0 sets it
  for (int j = 0; j < n && !failed; j++) {
    const real d = U_(j, j);
    if (!(d > 0)) {
      failed = 1;
      if (lid == 0)
        *info = ibase + j + 1;
      break;
    }
    const real s = sqrt(d);
    barrier(CLK_GLOBAL_MEM_FENCE); // every work-item has read U(j, j)
    for (int c = j + 1 + lid; c < n; c += 256)
      U_(j, c) = U_(j, c) / s;
    if (lid == 0)
      U_(j, j) = s;
    barrier(CLK_GLOBAL_MEM_FENCE);
    // The trailing triangle: U(r, c) −= U(j, r)·U(j, c), j < r ≤ c.
    for (int r = j + 1 + gr; r < n; r += 16)
      for (int c = j + 1 + gc; c < n; c += 16)
        if (c >= r)
          U_(r, c) = fma(-U_(j, r), U_(j, c), U_(r, c));
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
  // X = U⁻¹, row i after rows i+1, …: X(i, i) = 1/U(i, i) and, for k > i,
  // X(i, k) = −(Σ_{i<p≤k} U(i, p)·X(p, k))/U(i, i); work-item (tx, ty) sums
  // the terms p ≡ ty (mod 16) of the columns k ≡ tx (mod 16), and the
  // group adds the 16 partial sums of each column in local memory.
  for (int i = n - 1; i >= 0 && !failed; i--) {
    const real uii = U_(i, i);
    for (int kb = i + 1; kb < n; kb += POTF_KB) {
      const int ke = min(n, kb + POTF_KB);
      real acc[POTF_KB / 16];
      for (int q = 0; q < POTF_KB / 16; q++)
        acc[q] = 0;
      for (int p = i + 1 + ty; p < ke; p += 16) {
        const real u = U_(i, p);
        for (int q = 0; q < POTF_KB / 16; q++) {
          const int k = kb + tx + 16 * q;
          if (k < ke && p <= k)
            acc[q] = fma(u, X_(p, k), acc[q]);
        }
      }
      for (int q = 0; q < POTF_KB / 16; q++)
        red[ty * POTF_KB + tx + 16 * q] = acc[q];
      barrier(CLK_LOCAL_MEM_FENCE);
      if (lid < POTF_KB && kb + lid < ke) {
        real t = 0;
        for (int y = 0; y < 16; y++)
          t += red[y * POTF_KB + lid];
        X_(i, kb + lid) = -t / uii;
      }
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
    if (lid == 0)
      X_(i, i) = 1 / uii;
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
  // Zero below X's diagonal, or all of X after a failure.
  for (int e = lid; e < n * n; e += 256) {
    const int r = e / n, c = e % n;
    if (failed || r > c)
      X_(r, c) = 0;
  }
}
#undef U_
#undef X_
#undef POTF_KB
#endif

// copy_ok copies U12 from Potrf's scratch into the matrix: of the
// rows×cols matrix at element soff of s (row stride lds), into the one at
// element doff of d (row stride ldd), the elements of each step's rows
// right of the step's diagonal block. The views start at column shift of
// a block row of height h, factorised in steps of nb rows; step b
// (r / nb; with lower the views are the transposes, and it is c / nb, the
// column from r) ends at column e = min((b+1)·nb, h) of the block row.
// A step's rows are not copied if *info is set at most upto + e (a
// diagonal block up to the step's own is not positive definite; a later
// block's failure, which the look-ahead may set while this copy runs,
// does not stop it). One work-item per element: dimension 0 is the
// column, 1 the row.
__kernel void copy_ok(int rows, int cols, __global const real *s, long soff,
                      int lds, __global real *d, long doff, int ldd,
                      __global const int *info, int upto, int nb, int h,
                      int shift, int lower) {
  const int c = get_global_id(0);
  const int r = get_global_id(1);
  if (c >= cols || r >= rows)
    return;
  const int e = min(((lower ? c : r) / nb + 1) * nb, h);
  const int failed = *info;
  if ((lower ? r : c) + shift < e || (failed != 0 && failed <= upto + e))
    return;
  d[doff + (long)r * ldd + c] = s[soff + (long)r * lds + c];
}

// eye_cols writes columns diag… of the identity into the rows×cols matrix
// at element off of a (row stride lda): element (r, c) becomes 1 where
// r = c + diag, 0 elsewhere (Orgqr). One work-item per element: dimension
// 0 is the column, 1 the row.
__kernel void eye_cols(int rows, int cols, __global real *a, long off,
                       int lda, int diag) {
  const int c = get_global_id(0);
  const int r = get_global_id(1);
  if (c < cols && r < rows)
    a[off + (long)r * lda + c] = r == c + diag ? 1 : 0;
}

#ifndef QR_B
#define QR_B 8 // the widest panel geqr2_leaf factorises (8, 16 or 32)
#endif
#define QR_WG 256 // geqr2_leaf's work-group size
#ifndef QR_ROWS
// Rows a geqr2_leaf work-item loads at once in a column's pass.
#define QR_ROWS (QR_B <= 8 ? 4 : QR_B <= 16 ? 2 : 1)
#endif

// qr_ssq adds |x| to a scaled sum of squares (scale, ssq): Σ = scale²·ssq.
static void qr_ssq(real x, real *sc, real *sq) {
  x = fabs(x);
  if (x != 0 || isnan(x)) {
    if (*sc < x || isnan(x)) {
      *sq = 1 + *sq * (*sc / x) * (*sc / x);
      *sc = x;
    } else {
      *sq += (x / *sc) * (x / *sc);
    }
  }
}

#define QR_R (QR_B + 2) // reals per work-item in geqr2_leaf's reduction
// Work-items whose sums geqr2_leaf reduces in local memory (≤ 18 KiB).
#define QR_RED (QR_B > 16 ? 64 : 128)

// ssq_merge merges the scaled sum of squares (s2, q2) into (*s1, *q1):
// both rescaled to the larger scale (NaN if either is NaN). Where the
// scales are equal, or one side is empty (scale 0), and all is finite,
// the rescaling factors are exactly 1 or 0: those cases skip its
// divisions and give the same bits (in the grid kernels' trees of
// merges, almost every scale is 1, and a division at each level was
// most of the tree's time).
static void ssq_merge(real *s1, real *q1, real s2, real q2) {
  if (isfinite(*s1) && isfinite(s2) && isfinite(*q1) && isfinite(q2)) {
    if (*s1 == s2 && s2 > 0) {
      *q1 += q2;
      return;
    }
    if (s2 == 0 && *s1 > 0)
      return;
    if (*s1 == 0 && s2 > 0) {
      *s1 = s2;
      *q1 = q2;
      return;
    }
  }
  real sm = fmax(*s1, s2);
  if (isnan(*s1) || isnan(s2))
    sm = NAN;
  if (sm > 0)
    *q1 = *q1 * (*s1 / sm) * (*s1 / sm) + q2 * (s2 / sm) * (s2 / sm);
  *s1 = sm;
}

// ssq_merge_at merges the scaled sum of squares at j of the local
// arrays (lsc, lsq) into the one at i.
static void ssq_merge_at(__local real *lsc, __local real *lsq, int i, int j) {
  real s1 = lsc[i], q1 = lsq[i];
  ssq_merge(&s1, &q1, lsc[j], lsq[j]);
  lsc[i] = s1;
  lsq[i] = q1;
}

// qr_merge merges the scaled sum of squares (s2, q2) into the one at
// x[QR_B], x[QR_B+1].
static void qr_merge(__local real *x, real s2, real q2) {
  real s1 = x[QR_B], q1 = x[QR_B + 1];
  ssq_merge(&s1, &q1, s2, q2);
  x[QR_B] = s1;
  x[QR_B + 1] = q1;
}

// geqr2_leaf is gonum's Dgeqr2 on the m×b panel (m ≥ b, b ≤ QR_B) at
// element off of a (row stride lda), in one work-group of QR_WG work-items
// (rows split as in getf2_leaf), with three outputs besides the panel:
// tau[0:b] (at element toff of tau), the reflectors as explicit columns
// (unit diagonal, zero above; column c at column vc0+c of v, rows 0 to
// vr0+m, the panel's rows starting at vr0, row stride ldv, from element
// voff) and the panel's b×b triangular factor T (Dlarft, forward,
// columnwise; at element tfoff of t, row stride ldt).
//
// One pass over the rows per column. With x = P[c+1:m, c], the pass
// before column c's has summed, over those rows, the scaled sum of
// squares of x (for its norm), x·P[c+1:m, k] for k > c and
// V[c+1:m, k]·x for k < c, and the group reduces them in local memory at
// once. Then the reflector (Dlarfg, without its rescaling of tiny norms)
// v = [1; scal·x] gives v·P[c:m, k] = P[c, k] + scal·(x·P[c+1:m, k]) and
// likewise v_k·v, for T, and column c's pass scales x into v and applies
// H = I − tau·v·vᵀ to the columns right of c while it sums for column c+1.
__kernel void geqr2_leaf(int m, int b, __global real *a, long off, int lda,
                         __global real *tau, long toff, __global real *v,
                         long voff, int ldv, int vr0, int vc0,
                         __global real *t, long tfoff, int ldt) {
  __local real red[QR_RED * QR_R];
  const int lid = get_local_id(0);
  __global real *p = a + off;
  real acc[QR_B], sc = 0, sq = 1;
  for (int k = 0; k < QR_B; k++)
    acc[k] = 0;
  // Column 0's sums, over rows 1, …, m−1.
  for (int i = 1 + lid; i < m; i += QR_WG) {
    __global real *row = p + (long)i * lda;
    real x[QR_B];
#pragma unroll
    for (int k = 0; k < QR_B; k++)
      x[k] = k < b ? row[k] : 0;
    qr_ssq(x[0], &sc, &sq);
#pragma unroll
    for (int k = 1; k < QR_B; k++)
      acc[k] = fma(x[0], x[k], acc[k]);
  }
  for (int c = 0; c < b; c++) {
    // Reduce the sums: the dots added, (scale, ssq) merged. The group's
    // work-items beyond the first QR_RED hand theirs, QR_RED at a time, to
    // the first QR_RED, which add them in registers, so that red holds
    // QR_RED sums (local memory is 32 KiB on some devices); then those
    // are reduced in red.
    for (int g = QR_WG / QR_RED - 1; g > 0; g--) {
      if (lid >= g * QR_RED && lid < (g + 1) * QR_RED) {
        __local real *x = red + (lid - g * QR_RED) * QR_R;
#pragma unroll
        for (int k = 0; k < QR_B; k++)
          if (k < b)
            x[k] = acc[k];
        x[QR_B] = sc;
        x[QR_B + 1] = sq;
      }
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      if (lid < QR_RED) {
        __local real *x = red + lid * QR_R;
#pragma unroll
        for (int k = 0; k < QR_B; k++)
          if (k < b)
            acc[k] += x[k];
        ssq_merge(&sc, &sq, x[QR_B], x[QR_B + 1]);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid < QR_RED) {
      __local real *x = red + lid * QR_R;
#pragma unroll
      for (int k = 0; k < QR_B; k++)
        if (k < b)
          x[k] = acc[k];
      x[QR_B] = sc;
      x[QR_B + 1] = sq;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = QR_RED / 2; s > 0; s >>= 1) {
      if (lid < s) {
        __local real *x = red + lid * QR_R, *y = red + (lid + s) * QR_R;
        for (int k = 0; k < b; k++)
          x[k] += y[k];
        qr_merge(x, y[QR_B], y[QR_B + 1]);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    const real xnorm = red[QR_B] == 0 ? 0 : red[QR_B] * sqrt(red[QR_B + 1]);
    const real alpha = p[(long)c * lda + c];
    real beta = alpha, tc = 0, scal = 1;
    if (xnorm != 0 && c + 1 < m) {
      beta = -copysign(hypot(alpha, xnorm), alpha);
      tc = (beta - alpha) / beta;
      scal = 1 / (alpha - beta);
    }
    // w[k] = v·P[c:m, k] for k > c, v_k·v for k < c.
    real w[QR_B];
#pragma unroll
    for (int k = 0; k < QR_B; k++)
      w[k] = k < b && k != c ? fma(scal, red[k], p[(long)c * lda + k]) : 0;
    // T[0:c, c] = −tc·T[0:c, 0:c]·w[0:c], T[c][c] = tc, zero below: row r
    // of T is only ever written and read by work-item r.
    for (int r = lid; r < b; r += QR_WG) {
      real s = 0;
      if (r < c) {
#pragma unroll
        for (int q = 0; q < QR_B; q++)
          if (q >= r && q < c)
            s = fma(t[tfoff + (long)r * ldt + q], w[q], s);
        s *= -tc;
      } else if (r == c) {
        s = tc;
      }
      t[tfoff + (long)r * ldt + c] = s;
    }
    // red, alpha and row c are read before they change.
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (lid == 0)
      tau[toff + c] = tc;
    sc = 0;
    sq = 1;
    for (int k = 0; k < QR_B; k++)
      acc[k] = 0;
    const int nx = c + 1; // the next column
    // QR_ROWS rows of this work-item at a time, in registers, their loads
    // issued together: each batch is one round trip through the memory
    // system, the bound of this one-work-group kernel on a GPU.
    for (int i0 = c + lid; i0 < m; i0 += QR_WG * QR_ROWS) {
      real x[QR_ROWS][QR_B];
#pragma unroll
      for (int r = 0; r < QR_ROWS; r++)
#pragma unroll
        for (int k = 0; k < QR_B; k++) {
          const int i = i0 + r * QR_WG;
          x[r][k] = i < m && k < b ? p[(long)i * lda + k] : 0;
        }
#pragma unroll
      for (int r = 0; r < QR_ROWS; r++) {
        const int i = i0 + r * QR_WG;
        if (i >= m)
          continue;
        __global real *row = p + (long)i * lda;
        // Columns c and nx picked by unrolled compares: a private array
        // indexed at run time would live in (slow) private memory.
        real vi = 1, y = 0;
#pragma unroll
        for (int k = 0; k < QR_B; k++)
          if (k == c && i > c)
            vi = x[r][k];
        if (i > c) {
          if (tc != 0) {
            vi *= scal;
            row[c] = vi;
          }
        } else {
          row[c] = beta;
        }
#pragma unroll
        for (int k = 0; k < QR_B; k++) {
          if (k > c && k < b) {
            x[r][k] = fma(-tc * vi, w[k], x[r][k]);
            row[k] = x[r][k];
          }
          if (k == nx)
            y = x[r][k];
        }
        v[voff + (long)(vr0 + i) * ldv + vc0 + c] = vi;
        if (i > nx && nx < b) {
          qr_ssq(y, &sc, &sq);
#pragma unroll
          for (int k = 0; k < QR_B; k++)
            if (k != nx)
              acc[k] = fma(k == c ? vi : x[r][k], y, acc[k]);
        }
      }
    }
    for (int i = lid; i < vr0 + c; i += QR_WG)
      v[voff + (long)i * ldv + vc0 + c] = 0;
  }
}
#undef QR_R

// larft_t forms the n×n triangular factor T of a block reflector (Dlarft,
// forward, columnwise) from G = VᵀV (n×n at element goff of g, row stride
// ldg; its upper triangle is read) and the factors of its leaves, in place
// in t (at element tfoff, row stride ldt): the diagonal blocks lw wide
// (the last one narrower) already hold the T of their reflectors alone,
// as geqr2_leaf and geqrf_grid write them. Blocks are merged in pairs,
// doubling: for a block of s reflectors at o and the next one (s2 ≤ s)
// at o + s, H₁·H₂ = I − [V₁ V₂]·[T₁, −T₁V₁ᵀV₂T₂; 0, T₂]·[V₁ V₂]ᵀ, so
// T[o:o+s, o+s:o+s+s2] = −T₁·(G[o:o+s, o+s:o+s+s2]·T₂). Every pair of a
// level is formed at once, in two phases through the scratch y (Y =
// G₁₂·T₂ at the same place as T₁₂, from element yoff, row stride ldy):
// log₂(n/lw) levels of a few dependent products each, where a block
// column at a time took n/lw steps of up to n. The entries below the
// diagonal blocks are zeroed. One work-group.
// larft_pair maps larft_t's element e of a level of blocks s wide to its
// pair's first row and column o and the element (i, j) of T₁₂, and
// reports whether that element lies within T (the last pair's second
// block may be narrower, or missing).
static int larft_pair(long e, int s, int n, int *o, int *i, int *j) {
  *o = (int)(e / ((long)s * s)) * 2 * s;
  *i = (int)(e % ((long)s * s)) / s;
  *j = (int)(e % s);
  return *o + s + *j < n;
}

__kernel void larft_t(int n, int lw, __global const real *g, long goff,
                      int ldg, __global real *t, long tfoff, int ldt,
                      __global real *y, long yoff, int ldy) {
  const int lid = get_local_id(0);
  const int wg = get_local_size(0);
  for (long e = lid; e < (long)n * n; e += wg) {
    const int r = e / n, c = e % n;
    if (r / lw > c / lw)
      t[tfoff + (long)r * ldt + c] = 0;
  }
  for (int s = lw; s < n; s *= 2) {
    const int pairs = (n + 2 * s - 1) / (2 * s);
    for (long e = lid; e < (long)pairs * s * s; e += wg) {
      int o, i, j;
      if (!larft_pair(e, s, n, &o, &i, &j))
        continue;
      const int r = o + i, c = o + s + j;
      real acc = 0; // Y[i, j] = Σ_{p ≤ j} G[r, o+s+p]·T₂[p, j]
      for (int p = 0; p <= j; p++)
        acc = fma(g[goff + (long)r * ldg + o + s + p], t[tfoff + (long)(o + s + p) * ldt + c], acc);
      y[yoff + (long)r * ldy + c] = acc;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (long e = lid; e < (long)pairs * s * s; e += wg) {
      int o, i, j;
      if (!larft_pair(e, s, n, &o, &i, &j))
        continue;
      const int r = o + i, c = o + s + j;
      real acc = 0; // T₁₂[i, j] = −Σ_{p ≥ i} T₁[i, p]·Y[p, j]
      for (int p = i; p < s; p++)
        acc = fma(t[tfoff + (long)r * ldt + o + p], y[yoff + (long)(o + p) * ldy + c], acc);
      t[tfoff + (long)r * ldt + c] = -acc;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
}

// ---------------------------------------------------------------------------
// Panels in one launch across work-groups (GPUs only).
//
// A panel step that runs in one work-group runs on one compute unit while
// the rest of the device waits, and a step split into launches pays a
// launch per column. The kernels below spread a panel's rows over as many
// work-groups as the device has compute units and meet at a grid barrier
// once a column. OpenCL does not promise that the work-groups of a launch
// run at the same time, so the host launches no more groups than the
// device has compute units, each alone on one, and the barrier gives up
// after spin polls: it then sets sync[0], every group leaves, and the host
// redoes the factorization another way. Nothing is read across groups
// except through the parity-double-buffered scratch published before a
// barrier, read through grid_ld (so not from a stale cache),
// and every row of the panel is written only by the group that owns it.

#ifndef GRID_WG
#define GRID_WG 256 // work-items of a grid kernel's work-group
#endif
#define GRID_BMAX 128 // the widest panel getrf_grid factorises
#if GRID_BMAX > GRID_WG
#error "GRID_BMAX must not exceed GRID_WG: a work-item loads one column"
#endif
#ifndef GRID_CROWS
#define GRID_CROWS 8 // rows a getrf_grid work-item loads at once
#endif

// grid_ld and grid_ldi read what another group published before the
// last grid barrier, from the memory all groups share, never from a cache
// of this compute unit that may hold an older value. With GRID_CG
// (NVIDIA's GPUs) they are PTX ld.global.cg loads (cached in L2 only),
// which the hardware keeps in flight together, so a work-item issues a
// batch of them and waits once; a C volatile load there is issued only
// after the one before it has returned. Elsewhere they are volatile
// loads.
#ifdef GRID_CG
static inline real grid_ld(volatile __global const real *p) {
  real v;
#if PRECISION == 64
  asm volatile("ld.global.cg.f64 %0, [%1];" : "=d"(v) : "l"((ulong)p) : "memory");
#else
  asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"((ulong)p) : "memory");
#endif
  return v;
}
static inline int grid_ldi(volatile __global const int *p) {
  int v;
  asm volatile("ld.global.cg.s32 %0, [%1];" : "=r"(v) : "l"((ulong)p) : "memory");
  return v;
}
#else
static inline real grid_ld(volatile __global const real *p) { return *p; }
static inline int grid_ldi(volatile __global const int *p) { return *p; }
#endif

// With GRID_TIMING (NVIDIA's GPUs, benchmarks only) the grid kernels take
// one more argument, gtime, and work-item 0 of the last group (whose rows
// are below the diagonal to the panel's end; the first group's are soon
// all above it, and it waits at the barrier for the others) adds there the
// SM cycles (PTX %clock64) its columns spent in each phase (GT(k) closes
// phase k): where a column's time goes, which no profiler of NVIDIA's
// OpenCL shows.
#ifdef GRID_TIMING
#define GRID_TPHASES 6
#define GT_ARG , __global real *gtime
static inline ulong grid_clock(void) {
  ulong t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
  return t;
}
#define GT_INIT                                                               \
  ulong gt[GRID_TPHASES];                                                     \
  for (int u = 0; u < GRID_TPHASES; u++)                                      \
    gt[u] = 0;                                                                \
  ulong gt0 = grid_clock();
#define GT(k)                                                                 \
  {                                                                           \
    const ulong gt1 = grid_clock();                                           \
    gt[k] += gt1 - gt0;                                                       \
    gt0 = gt1;                                                                \
  }
#define GT_SAVE                                                               \
  if (get_group_id(0) == get_num_groups(0) - 1 && get_local_id(0) == 0)       \
    for (int u = 0; u < GRID_TPHASES; u++)                                    \
      gtime[u] += (real)gt[u];
#else
#define GT_ARG
#define GT_INIT
#define GT(k)
#define GT_SAVE
#endif

// grid_argmax is argmax_local for getrf_grid's work-groups: with
// GRID_SHFL (NVIDIA's GPUs, warps of 32) each warp reduces its pairs by
// PTX shuffles and one warp the warps' results, two barriers instead of
// one a halving. Pairs are ordered by value, then smallest index, and no
// value is NaN, so any order of reduction gives argmax_local's answer.
#ifdef GRID_SHFL
static inline int shfl_down_i(int v, int d) {
  int r;
  asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(d));
  return r;
}
static inline real shfl_down_real(real v, int d) {
#if PRECISION == 64
  int2 h = as_int2(v);
  h.x = shfl_down_i(h.x, d);
  h.y = shfl_down_i(h.y, d);
  return as_double(h);
#else
  return as_float(shfl_down_i(as_int(v), d));
#endif
}
static inline void warp_argmax(real *v, int *i) {
  for (int d = 16; d > 0; d >>= 1) {
    const real v2 = shfl_down_real(*v, d);
    const int i2 = shfl_down_i(*i, d);
    if (v2 > *v || (v2 == *v && i2 < *i)) {
      *v = v2;
      *i = i2;
    }
  }
}
static void grid_argmax(__local real *lmax, __local int *lidx, real best,
                        int bi) {
  const int lid = get_local_id(0);
  warp_argmax(&best, &bi);
  if ((lid & 31) == 0) {
    lmax[lid >> 5] = best;
    lidx[lid >> 5] = bi;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 32) {
    real v = lid < GRID_WG / 32 ? lmax[lid] : -INFINITY;
    int i = lid < GRID_WG / 32 ? lidx[lid] : INT_MAX;
    warp_argmax(&v, &i);
    if (lid == 0) {
      lmax[0] = v;
      lidx[0] = i;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

#else
#define grid_argmax argmax_local
#endif

// GRID_FAILED is the bit of a barrier's arrival count (sync[1]) that says
// the barrier has failed: a group gave up waiting, or found that the
// groups' memory was not ordered at it. The groups read it with the count,
// in one load; sync[0] says why, for the host.
#define GRID_FAILED (1 << 30)

// grid_fail fails the barrier sync for every group, and for the host with
// reason why (1: a group gave up waiting; 3: a pivot outside the panel).
static void grid_fail(volatile __global int *sync, int why) {
  atomic_xchg(sync, why);
  atomic_or(sync + 1, GRID_FAILED);
}

// grid_fence is the fence around a group's arrival at the barrier. It is
// OpenCL's mem_fence, which NVIDIA's compiler makes a fence at the
// work-group's scope (membar.cta): the barrier relies on the published
// stores and the atomics reaching L2 and on grid_ld reading from there,
// which grid_probe checks before a device's first grid launch. PTX's
// ordering at the GPU's scope, which would promise it, made the barriers
// slower each way it was tried: an acquire-release fence, acquire loads
// for the polls, acquire-release atomics for the arrivals (docs/notes.md).
static inline void grid_fence(void) { mem_fence(CLK_GLOBAL_MEM_FENCE); }

// grid_arrive is grid_sync's first half: the group's arrival, after its
// published stores. It returns, in work-item 0, the arrival count its
// increment saw, for grid_wait; the group's work between the two halves
// must not be what other groups read.
static int grid_arrive(volatile __global int *sync, __local int *ok) {
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  int s = 0;
  if (get_local_id(0) == 0 && *ok) {
    grid_fence();
    s = atomic_inc(sync + 1) + 1;
  }
  return s;
}

// grid_wait is grid_sync's second half: work-item 0 polls from the count
// s that grid_arrive returned until target, or gives up.
static int grid_wait(volatile __global int *sync, int s, int target, int spin,
                     __local int *ok) {
  if (get_local_id(0) == 0 && *ok) {
    for (int n = 0; (s & GRID_FAILED) == 0 && s < target; n++) {
      if (n >= spin) {
        grid_fail(sync, 1);
        s = GRID_FAILED;
        break;
      }
      s = grid_ldi(sync + 1);
    }
    grid_fence();
    *ok = (s & GRID_FAILED) == 0;
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  return *ok;
}

// grid_sync is the grid barrier: the groups' target-th meeting (target
// counts arrivals at sync[1], G a meeting), or the give-up described
// above. It returns 0 once the barrier has failed, in every work-item of
// the group (ok is the group's flag in local memory). The arrival count
// comes back from the group's own increment, so the last group to arrive
// does not poll, and a poll is one load: the count carries the failure
// bit (GRID_FAILED). The flag the barrier returns is the one read with the
// count that completed it: a group that gives up after that fails the
// barrier for the host, which discards the launch's work (gridFailed).
static int grid_sync(volatile __global int *sync, int target, int spin,
                     __local int *ok) {
  return grid_wait(sync, grid_arrive(sync, ok), target, spin, ok);
}

// grid_probe meets at the grid barrier sync rounds times and checks that
// what the groups published before each barrier is what every group reads
// after it, in the way getrf_grid publishes and reads (scratch of two
// parities, GRID_WG values a group a round, plain stores, grid_ld's loads):
// the host's check, before a first grid kernel, that the device runs a
// launch's work-groups together and orders their memory at the barrier.
// A stale value sets sync[0] to 2. xs holds 2·G·GRID_WG values.
__kernel void grid_probe(volatile __global int *sync, int rounds, int spin,
                         __global int *xs) {
  __local int ok;
  const int lid = get_local_id(0), g = get_group_id(0), G = get_num_groups(0);
  volatile __global const int *vs = xs;
  if (lid == 0)
    ok = 1;
  for (int r = 1; r <= rounds; r++) {
    xs[((r & 1) * G + g) * GRID_WG + lid] = r * GRID_WG + lid;
    grid_sync(sync, r * G, spin, &ok);
    const int h = (g + r) % G; // another group's values each round
    if (grid_ldi(vs + ((r & 1) * G + h) * GRID_WG + lid) != r * GRID_WG + lid)
      atomic_xchg(sync, 2);
  }
}

// getrf_grid_elem is element (i, k) of the panel p as published: with
// cd ≥ 0, columns past cd + 1 have not taken column cd's update yet, so
// it is applied here, with the multiplier stored at (i, cd) and uk, the
// pivot row's element k, as the update itself will apply it.
static inline real getrf_grid_elem(__global const real *p, int lda, int i,
                                   int k, real uk, int cd) {
  const real x = p[(long)i * lda + k];
  return cd >= 0 && k > cd + 1 ? fma(-p[(long)i * lda + cd], uk, x) : x;
}

// getrf_grid_publish publishes, into the scratch of parity q, this group's
// candidate for column cn's pivot (the largest |x| of its rows, first
// row among equals, from each work-item's best and bi) with a copy of that
// row, and, from the group that owns row cn, a copy of row cn (their
// elements by getrf_grid_elem with cd and uk, the pivot row's element
// lid: a work-item copies one column, b ≤ GRID_WG). Scratch layout (G
// groups, b columns): xs holds the candidates' values [2][G], the copies
// of row cn [2][b] and the candidates' rows [2][G][b]; xi the candidates'
// rows' numbers [2][G].
static void getrf_grid_publish(__global const real *p, int lda, int b, int lo,
                               int hi, int cn, int q, real best, int bi,
                               __global real *xs, __global int *xi,
                               __local real *lmax, __local int *lidx,
                               real uk, int cd) {
  const int lid = get_local_id(0), g = get_group_id(0), G = get_num_groups(0);
  grid_argmax(lmax, lidx, best, bi);
  const int row = lidx[0];
  if (lid == 0) {
    xs[q * G + g] = lmax[0];
    xi[q * G + g] = row;
  }
  __global real *crow = xs + 2 * G + q * b;
  __global real *cand = xs + 2 * G + 2 * b + ((long)q * G + g) * b;
  const int k = lid;
  if (k < b && row >= lo && row < hi)
    cand[k] = getrf_grid_elem(p, lda, row, k, uk, cd);
  if (k < b && cn >= lo && cn < hi)
    crow[k] = getrf_grid_elem(p, lda, cn, k, uk, cd);
}

// getrf_grid_abandon gives the panel's columns c0 to b−1, whose pivots a
// failed launch never chose, the pivots of no interchange, so that the
// row interchanges enqueued after it stay within the matrix (the host
// discards the factorization).
static void getrf_grid_abandon(__global int *ipiv, int r0, int c0, int b) {
  if (get_group_id(0) == 0)
    for (int c = c0 + (int)get_local_id(0); c < b; c += GRID_WG)
      ipiv[r0 + c] = r0 + c;
}

// getrf_grid is getf2_leaf's factorization (gonum's Dgetf2, the same
// pivots, scaling and updates) of the m×b panel at element off of a (row
// stride lda; b ≤ GRID_BMAX, b ≤ bw, bw a power of two ≤ GRID_WG) by G
// work-groups of GRID_WG, group g owning rows g·rpg to (g+1)·rpg − 1: for
// each column c, every group reduces the published candidates to the
// pivot row, the owners of rows c and p exchange them, and every group
// scales its rows below c and updates their column c+1 (a row a
// work-item), publishes its candidate for column c+1 and arrives at the
// grid barrier; it updates its rows' other columns while the other groups
// arrive, work-item (lid / bw, lid % bw) taking column lid % bw of the
// group's rows lid / bw, lid / bw + GRID_WG/bw, …, GRID_CROWS at a time.
// The launch's barrier is syncs[2·sp] (the failure flag) and
// syncs[2·sp+1] (the arrival count), both 0 at the launch; ipiv and info
// as for getf2_leaf.
__kernel void getrf_grid(int m, int b, int bw, int rpg, __global real *a,
                         long off, int lda, int r0, __global int *ipiv,
                         __global int *info, volatile __global int *syncs,
                         int sp, int spin, __global real *xs,
                         __global int *xi GT_ARG) {
  __local real lmax[GRID_WG];
  __local int lidx[GRID_WG];
  __local real prow[GRID_BMAX];
  __local real crow[GRID_BMAX];
  __local int ok;
  const int lid = get_local_id(0), g = get_group_id(0), G = get_num_groups(0);
  if (lid == 0)
    ok = 1;
  const int lo = g * rpg, hi = min(m, lo + rpg);
  const int kc = lid % bw, rl = lid / bw, rg = GRID_WG / bw;
  __global real *p = a + off;
  volatile __global int *sync = syncs + 2 * sp;
  volatile __global const real *vs = xs;
  volatile __global const int *vi = xi;

  real best = -1;
  int bi = 0;
  for (int i = lo + lid; i < hi; i += GRID_WG) {
    const real v = fabs(p[(long)i * lda]);
    if (v > best) {
      best = v;
      bi = i;
    }
  }
  getrf_grid_publish(p, lda, b, lo, hi, 0, 0, best, bi, xs, xi, lmax, lidx, 0,
                     -1);
  // After a failed barrier the groups go on meeting at every barrier
  // (PoCL miscompiles a return out of a loop with barriers) but write
  // nothing to the panel: live is 0 in all of the group's work-items.
  int live = grid_sync(sync, G, spin, &ok);
  int from = live ? b : 0; // the first column whose pivot was not chosen
  GT_INIT
  for (int c = 0; c < b; c++) {
    const int q = c & 1;
    // The pivot: the first of the groups' equal largest candidates.
    grid_argmax(lmax, lidx, lid < G ? grid_ld(vs + q * G + lid) : -1,
                lid < G ? grid_ldi(vi + q * G + lid) : c);
    int piv = lidx[0];
    GT(0)
    if (piv < c || piv >= m) {
      // Not a row of the panel below c: the device did not order the
      // groups' memory at the barrier. Fail the launch, move nothing.
      if (lid == 0)
        grid_fail(sync, 3);
      piv = c;
    }
    volatile __global const real *vc = vs + 2 * G + q * b;
    volatile __global const real *vp = vs + 2 * G + 2 * b + ((long)q * G + piv / rpg) * b;
    // Rows c and piv, and their elements in column c, in one batch of
    // loads (which row becomes row c is decided after).
    const real dc = grid_ld(vc + c);
    const real dp0 = grid_ld(vp + c);
    // (GRID_BMAX ≤ GRID_WG: a work-item loads column lid of both rows.)
    const int k = lid;
    const real tk = k < b ? grid_ld(vc + k) : 0;
    const real uk = k < b ? grid_ld(vp + k) : 0;
    const real dp = piv == c ? dc : dp0;
    if (isnan(dc))
      piv = c;
    const real pv = isnan(dc) ? dc : dp;
    const int swap = pv != 0 && piv != c;
    if (k < b) {
      crow[k] = tk;
      prow[k] = swap ? uk : tk;
    }
    if (g == 0 && lid == 0 && live) {
      ipiv[r0 + c] = r0 + piv;
      if (pv == 0 && *info == 0)
        *info = r0 + c + 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (swap && live)
      for (int k = lid; k < b; k += GRID_WG) {
        if (c >= lo && c < hi)
          p[(long)c * lda + k] = prow[k];
        if (piv >= lo && piv < hi)
          p[(long)piv * lda + k] = crow[k];
      }
    barrier(CLK_GLOBAL_MEM_FENCE);
    const real d = prow[c];
    const real rd = 1 / d;
    best = -1;
    bi = c + 1;
    GT(1)
    const int i1 = max(lo, c + 1);
    // Columns c and c+1 first, a row a work-item: the multipliers, and
    // column c+1's update and candidate. The group then publishes and
    // arrives at the barrier, and updates its other columns while the
    // other groups arrive (the published rows apply that update
    // themselves, getrf_grid_elem).
    for (int i = i1 + lid; live && i < hi; i += GRID_WG) {
      const real x0 = p[(long)i * lda + c];
      const real x1 = c + 1 < b ? p[(long)i * lda + c + 1] : 0;
      int st;
      const real l = lu_multiplier(x0, d, rd, i, c, m, &st);
      if (st)
        p[(long)i * lda + c] = l;
      if (c + 1 < b) {
        const real v = fma(-l, prow[c + 1], x1);
        p[(long)i * lda + c + 1] = v;
        if (fabs(v) > best) {
          best = fabs(v);
          bi = i;
        }
      }
    }
    GT(2)
    if (c + 1 == b)
      continue;
    barrier(CLK_GLOBAL_MEM_FENCE); // columns c and c+1 are visible to the group
    getrf_grid_publish(p, lda, b, lo, hi, c + 1, q ^ 1, best, bi, xs, xi, lmax,
                       lidx, lid < b ? prow[lid] : 0, c);
    const int arrived = grid_arrive(sync, &ok);
    GT(3)
    const int nbat = hi > i1 && live ? (hi - i1 + rg * GRID_CROWS - 1) / (rg * GRID_CROWS) : 0;
    for (int t = 0; t < nbat; t++) {
      const int i0 = i1 + rl + t * (rg * GRID_CROWS);
      real xl[GRID_CROWS], xk[GRID_CROWS];
#pragma unroll
      for (int r = 0; r < GRID_CROWS; r++) {
        const int i = i0 + r * rg;
        xl[r] = i < hi && kc > c + 1 && kc < b ? p[(long)i * lda + c] : 0;
        xk[r] = i < hi && kc > c + 1 && kc < b ? p[(long)i * lda + kc] : 0;
      }
#pragma unroll
      for (int r = 0; r < GRID_CROWS; r++)
        if (i0 + r * rg < hi && kc > c + 1 && kc < b)
          p[(long)(i0 + r * rg) * lda + kc] = fma(-xl[r], prow[kc], xk[r]);
    }
    if (!grid_wait(sync, arrived, (c + 2) * G, spin, &ok) && live) {
      live = 0;
      from = c + 1;
    }
    GT(4)
  }
  GT_SAVE
  getrf_grid_abandon(ipiv, r0, from, b);
}

#define GRID_QSUM (GRID_BMAX + 2) // a group's published sums in geqrf_grid

// geqrf_grid_publish publishes, into the scratch of parity q, this group's
// sums for column cn's reflector: for each column k, acc (the work-item's
// part for its column kc) added over the work-items of that column, and
// the scaled sum of squares (sc, sq) of the work-items of column cn merged;
// and, from the group that owns row cn, a copy of row cn. Scratch layout
// (G groups, b columns): xs holds the sums [2][G][b+2] (b dots, then scale
// and sum of squares), then the copies of row cn [2][b]. lred, lsc, lsq
// are local scratch of GRID_WG.
static void geqrf_grid_publish(__global const real *p, int lda, int b, int bw,
                               int lo, int hi, int cn, int q, real acc,
                               real sc, real sq, __global real *xs,
                               __local real *lred, __local real *lsc,
                               __local real *lsq) {
  const int lid = get_local_id(0), g = get_group_id(0), G = get_num_groups(0);
  const int kc = lid % bw, rl = lid / bw, rg = GRID_WG / bw;
  lred[lid] = acc;
  lsc[lid] = sc;
  lsq[lid] = sq;
  barrier(CLK_LOCAL_MEM_FENCE);
  __global real *sums = xs + (long)(q * G + g) * (b + 2);
  if (rl == 0 && kc < b) {
    real s = 0;
    for (int r = 0; r < rg; r++)
      s += lred[r * bw + kc];
    sums[kc] = s;
    if (kc == cn) {
      real s1 = 0, q1 = 1;
      for (int r = 0; r < rg; r++)
        ssq_merge(&s1, &q1, lsc[r * bw + kc], lsq[r * bw + kc]);
      sums[b] = s1;
      sums[b + 1] = q1;
    }
  }
  __global real *crow = xs + 2L * G * (b + 2) + q * b;
  if (cn >= lo && cn < hi)
    for (int k = lid; k < b; k += GRID_WG)
      crow[k] = p[(long)cn * lda + k];
}

#ifdef GRID_QR_SPLIT
// geqrf_grid_total adds, over the G groups, the sums published for column
// c (scratch of parity q) that this group takes: of the items column k's
// dot products, k = c+1, …, b−1, and column c's scaled sum of squares
// (item b), the group g takes the t-th for t ≡ g (mod G). Its work-items
// load a group's sums each and add them in a tree in local memory (lred,
// lsc, lsq: GRID_WG each), and work-item 0 writes the total into the
// totals of parity q, after the sums and the copies of row c in xs:
// [2][b+2], the dot products, then the scale and the sum of squares. One
// group adds each total, so every group reads the same one after the grid
// barrier; a total's terms are loaded in one batch (geqrf_grid_add, every
// group adding all G·b sums itself, takes G/8 rounds of loads a column).
static void geqrf_grid_total(int b, int c, int q, __global real *xs,
                             __local real *lred, __local real *lsc,
                             __local real *lsq) {
  const int lid = get_local_id(0), g = get_group_id(0), G = get_num_groups(0);
  volatile __global const real *sums = xs + (long)q * G * (b + 2);
  __global real *tot = xs + 2L * G * (b + 2) + 2 * b + q * (b + 2);
  const int items = b - c; // columns c+1, …, b−1, then the sum of squares
  for (int t = g; t < items; t += G) {
    const int k = t + 1 < items ? c + 1 + t : b;
    real s = 0, s1 = 0, q1 = 1;
    for (int h = lid; h < G; h += GRID_WG) {
      if (k < b) {
        s += grid_ld(sums + (long)h * (b + 2) + k);
      } else {
        const real hs = grid_ld(sums + (long)h * (b + 2) + b);
        const real hq = grid_ld(sums + (long)h * (b + 2) + b + 1);
        ssq_merge(&s1, &q1, hs, hq);
      }
    }
    lred[lid] = s;
    lsc[lid] = s1;
    lsq[lid] = q1;
    barrier(CLK_LOCAL_MEM_FENCE);
    // The tree from the first level that adds a loaded sum (work-items
    // from G on hold nothing).
    int w0 = GRID_WG / 2;
    while (w0 > 1 && w0 >= G)
      w0 >>= 1;
    for (int w = w0; w > 0; w >>= 1) {
      if (lid < w) {
        if (k < b)
          lred[lid] += lred[lid + w];
        else
          ssq_merge_at(lsc, lsq, lid, lid + w);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
      if (k < b) {
        tot[k] = lred[0];
      } else {
        tot[b] = lsc[0];
        tot[b + 1] = lsq[0];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE); // lred, lsc and lsq are read before the next item
  }
}

#else
// geqrf_grid_add is geqrf_grid_total's alternative for few groups, with
// no second grid barrier: every group adds all the groups' sums for column
// c (scratch of parity q), in the same order, into red (the dot products,
// then at GRID_BMAX the scale and the sum of squares), and reads the copy
// of row c into rowc. A work-item loads 8 groups' sums before it adds
// them, so a column takes G/8 rounds of loads (16 or 32 at once measured
// no faster); with many groups the second barrier costs less than those.
// lsc and lsq are local scratch of GRID_WG.
static void geqrf_grid_add(int b, int q, __global real *xs, __local real *red,
                           __local real *rowc, __local real *lsc,
                           __local real *lsq) {
  const int lid = get_local_id(0), G = get_num_groups(0);
  volatile __global const real *sums = xs + (long)q * G * (b + 2);
  if (lid < b) {
    real s = 0;
    for (int h0 = 0; h0 < G; h0 += 8) {
      real x[8];
#pragma unroll
      for (int u = 0; u < 8; u++)
        x[u] = h0 + u < G ? grid_ld(sums + (long)(h0 + u) * (b + 2) + lid) : 0;
#pragma unroll
      for (int u = 0; u < 8; u++)
        if (h0 + u < G)
          s += x[u];
    }
    red[lid] = s;
    rowc[lid] = grid_ld((volatile __global const real *)xs + 2L * G * (b + 2) + q * b + lid);
  }
  // The scaled sums of squares, merged by the upper half of the group
  // (b ≤ GRID_WG/2): a group's each, then a tree in local memory. One
  // work-item merging all G of them, a division each, took longer than
  // the dot products' loads.
  const int up = GRID_WG / 2, u = lid - up;
  real s1 = 0, q1 = 1;
  if (u >= 0)
    for (int h = u; h < G; h += up)
      ssq_merge(&s1, &q1, grid_ld(sums + (long)h * (b + 2) + b), grid_ld(sums + (long)h * (b + 2) + b + 1));
  lsc[lid] = s1;
  lsq[lid] = q1;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int w = up / 2; w > 0; w >>= 1) {
    if (u >= 0 && u < w)
      ssq_merge_at(lsc, lsq, lid, lid + w);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (u == 0) {
    red[GRID_BMAX] = lsc[lid];
    red[GRID_BMAX + 1] = lsq[lid];
  }
}
#endif

// qr_col_ssq sets (sc, sq), the scaled sum of squares of a work-item's
// rows i0 + rl, i0 + rl + rg, … below hi and below row k of column k
// (the rows' sum the update loop took), from their plain sum
// of squares s2 and largest magnitude mx where no square can overflow or
// lose the sum to underflow (scale 1), else from the column as stored, by
// qr_ssq: a division an element, which in the update loop kept the
// group's other work-items waiting for one work-item's chain of them.
#if PRECISION == 64
#define QR_SQ_HI 1e140
#define QR_SQ_LO 1e-140
#else
#define QR_SQ_HI 1e15f
#define QR_SQ_LO 1e-15f
#endif
static void qr_col_ssq(__global const real *p, int lda, int i0, int hi,
                       int rl, int rg, int k, real s2, real mx, real *sc,
                       real *sq) {
  if (!isnan(s2) && mx <= QR_SQ_HI && (mx >= QR_SQ_LO || mx == 0)) {
    *sc = mx == 0 ? 0 : 1;
    *sq = mx == 0 ? 1 : s2;
    return;
  }
  *sc = 0;
  *sq = 1;
  for (int i = i0 + rl; i < hi; i += rg)
    if (i > k)
      qr_ssq(p[(long)i * lda + k], sc, sq);
}

// geqrf_grid is geqr2_leaf's factorization (gonum's Dgeqr2 with Dlarfg
// without its rescaling of tiny norms) of the m×b panel at element off of
// a (row stride lda; b ≤ GRID_BMAX, b ≤ bw, bw a power of two ≤ GRID_WG)
// by G work-groups of GRID_WG, group g owning rows g·rpg to
// (g+1)·rpg − 1: each group publishes, over its rows below column c's
// diagonal, the scaled sum of squares of column c and its products with
// every column; after the grid barrier, built with GRID_QR_SPLIT, the
// groups add the sums over the groups, each total by one group
// (geqrf_grid_total), and meet again, and every group reads the totals;
// otherwise every group adds all the sums itself (geqrf_grid_add). Each
// group then forms the reflector v = [1; scal·x] and w_k = v·P[c:m, k] =
// P[c, k] + scal·(x·P[c+1:m, k]) from them and the published row c, and
// updates its rows (P −= tau·v·wᵀ), summing for column c+1 as it goes.
// Outputs besides
// the panel: tau[0:b] (from element toff), the reflectors as explicit
// columns (unit diagonal, zero above; column c at column c of v, rows 0
// to m−1, from element voff, row stride ldv) and the diagonal of the
// panel's T (tau, at element tfoff of t, row stride ldt; larft_t forms the
// rest from VᵀV). Work-item (lid / bw, lid % bw) takes column lid % bw of
// the group's rows lid / bw, lid / bw + GRID_WG/bw, …; barrier and failure
// as for getrf_grid (syncs[2·sp], syncs[2·sp+1]).
__kernel void geqrf_grid(int m, int b, int bw, int rpg, __global real *a,
                         long off, int lda, __global real *tau, long toff,
                         __global real *v, long voff, int ldv,
                         __global real *t, long tfoff, int ldt,
                         volatile __global int *syncs, int sp, int spin,
                         __global real *xs GT_ARG) {
  __local real lred[GRID_WG], lsc[GRID_WG], lsq[GRID_WG];
  __local real red[GRID_QSUM], rowc[GRID_BMAX];
  __local int ok;
  const int lid = get_local_id(0), g = get_group_id(0), G = get_num_groups(0);
  if (lid == 0)
    ok = 1;
  const int lo = g * rpg, hi = min(m, lo + rpg);
  const int kc = lid % bw, rl = lid / bw, rg = GRID_WG / bw;
  __global real *p = a + off;
  volatile __global int *sync = syncs + 2 * sp;
  volatile __global const real *vs = xs;

  // Column 0's sums, over rows 1, …, m−1.
  real acc = 0, sc = 0, sq = 1;
  for (int i = max(lo, 1) + rl; i < hi; i += rg) {
    const real x0 = p[(long)i * lda];
    if (kc == 0)
      qr_ssq(x0, &sc, &sq);
    else if (kc < b)
      acc = fma(x0, p[(long)i * lda + kc], acc);
  }
  geqrf_grid_publish(p, lda, b, bw, lo, hi, 0, 0, acc, sc, sq, xs, lred, lsc, lsq);
  int meet = 1; // grid barriers so far
  int live = grid_sync(sync, G, spin, &ok);
  GT_INIT
  for (int c = 0; c < b; c++) {
    const int q = c & 1;
#ifdef GRID_QR_SPLIT
    {
      geqrf_grid_total(b, c, q, xs, lred, lsc, lsq);
      GT(5)
      if (!grid_sync(sync, ++meet * G, spin, &ok))
        live = 0;
      // The totals and row c, in one batch of loads.
      volatile __global const real *tot = vs + 2L * G * (b + 2) + 2 * b + q * (b + 2);
      if (lid < b) {
        red[lid] = grid_ld(tot + lid);
        rowc[lid] = grid_ld(vs + 2L * G * (b + 2) + q * b + lid);
      }
      if (lid == GRID_WG - 1) {
        red[GRID_BMAX] = grid_ld(tot + b);
        red[GRID_BMAX + 1] = grid_ld(tot + b + 1);
      }
    }
#else
    geqrf_grid_add(b, q, xs, red, rowc, lsc, lsq);
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    GT(0)
    const real xnorm = red[GRID_BMAX] == 0 ? 0 : red[GRID_BMAX] * sqrt(red[GRID_BMAX + 1]);
    const real alpha = rowc[c];
    real beta = alpha, tc = 0, scal = 1;
    if (xnorm != 0 && c + 1 < m) {
      beta = -copysign(hypot(alpha, xnorm), alpha);
      tc = (beta - alpha) / beta;
      scal = 1 / (alpha - beta);
    }
    // w_k for this work-item's column and for column c+1.
    const real wk = kc > c && kc < b ? fma(scal, red[kc], rowc[kc]) : 0;
    const real wn = c + 1 < b ? fma(scal, red[c + 1], rowc[c + 1]) : 0;
    if (live) {
      if (g == 0 && lid == 0) {
        tau[toff + c] = tc;
        t[tfoff + (long)c * ldt + c] = tc;
      }
      // Row c, V's column c above the diagonal and its unit.
      if (c >= lo && c < hi && kc >= c && kc < b && rl == 0)
        p[(long)c * lda + kc] = kc == c ? beta : fma(-tc, wk, rowc[kc]);
      for (int i = lo + lid; i < min(hi, c + 1); i += GRID_WG)
        v[voff + (long)i * ldv + c] = i == c ? 1 : 0;
    }
    acc = 0;
    sc = 0;
    sq = 1;
    real s2 = 0, mx = 0; // column c+1's plain sum of squares and largest |y|
    GT(1)
    const int i1 = max(lo, c + 1);
    const int nbat = hi > i1 && live ? (hi - i1 + rg * GRID_CROWS - 1) / (rg * GRID_CROWS) : 0;
    for (int u = 0; u < nbat; u++) {
      const int i0 = i1 + rl + u * (rg * GRID_CROWS);
      real xc[GRID_CROWS], xn[GRID_CROWS], xk[GRID_CROWS];
#pragma unroll
      for (int r = 0; r < GRID_CROWS; r++) {
        const int i = i0 + r * rg;
        xc[r] = i < hi ? p[(long)i * lda + c] : 0;
        xn[r] = i < hi && c + 1 < b ? p[(long)i * lda + c + 1] : 0;
        xk[r] = i < hi && kc > c && kc < b ? p[(long)i * lda + kc] : 0;
      }
      barrier(CLK_GLOBAL_MEM_FENCE); // columns c and c+1 are read before they change
#pragma unroll
      for (int r = 0; r < GRID_CROWS; r++) {
        const int i = i0 + r * rg;
        if (i >= hi)
          continue;
        const real vi = tc != 0 ? xc[r] * scal : xc[r];
        if (kc == c) {
          if (tc != 0)
            p[(long)i * lda + c] = vi;
          v[voff + (long)i * ldv + c] = vi;
        }
        const real yn = fma(-tc * vi, wn, xn[r]); // column c+1, updated
        if (kc > c && kc < b) {
          const real y = fma(-tc * vi, wk, xk[r]);
          p[(long)i * lda + kc] = y;
          if (i > c + 1 && kc > c + 1)
            acc = fma(yn, y, acc);
        }
        if (i > c + 1 && kc == c + 1) {
          s2 = fma(yn, yn, s2);
          mx = fmax(mx, fabs(yn));
        }
      }
    }
    if (kc == c + 1 && c + 1 < b)
      qr_col_ssq(p, lda, i1, hi, rl, rg, c + 1, s2, mx, &sc, &sq);
    GT(2)
    if (c + 1 == b)
      continue;
    barrier(CLK_GLOBAL_MEM_FENCE); // the group's updates are visible to it
    geqrf_grid_publish(p, lda, b, bw, lo, hi, c + 1, q ^ 1, acc, sc, sq, xs, lred, lsc, lsq);
    GT(3)
    if (!grid_sync(sync, ++meet * G, spin, &ok))
      live = 0;
    GT(4)
  }
  GT_SAVE
}

// ---------------------------------------------------------------------------
// Cholesky's block row in one launch across work-groups (GPUs only).
#ifdef POTF_REGS
#define PR_N (POTF_G * POTF_T) // the step's width: potf_steps' widest block
#define PR_WG (POTF_G * POTF_G)
// PR_KC is how many rows of U12 are staged in local memory at a time:
// at steps 32 columns wide, all 32 (a quarter of the barriers of 8, in
// 2·32·32 elements of local memory), faster there on an H100
// (BENCHMARKS.md, "Figures behind the code's choices"); 8 at other
// widths, where deeper stages were not measured. It never exceeds PR_N:
// the products read rows k0 + k < PR_KC of xs, which has PR_N.
#define PR_KC (PR_N == 32 ? 32 : 8)
// PR_CHUNK adds to acc (real[POTF_T][POTF_T], work-item (gr, gc)'s rows
// r = gr + POTF_G·s and columns c = gc + POTF_G·t) the products of the
// chunk staged in st: P(k, r) at st[k·PR_N + r], Q(k, c) at
// st[(PR_KC + k)·PR_N + c], k < PR_KC.
#define PR_CHUNK(acc)                                                         \
  _Pragma("unroll") for (int k_ = 0; k_ < PR_KC; k_++)                        \
    _Pragma("unroll") for (int s_ = 0; s_ < POTF_T; s_++)                     \
      _Pragma("unroll") for (int t_ = 0; t_ < POTF_T; t_++)                   \
        acc[s_][t_] = fma(st[k_ * PR_N + gr + POTF_G * s_],                   \
                          st[(PR_KC + k_) * PR_N + gc + POTF_G * t_],         \
                          acc[s_][t_]);

// PR_NOTPD is the bit of a step's counter D that says its diagonal block
// is not positive definite: the groups stop there, and the launch has not
// failed (GRID_FAILED).
#define PR_NOTPD (1 << 29)

// pr_fail fails every wait of a potrf_row launch: the reason 1 (a group
// gave up waiting) in sync[0] for the host, and GRID_FAILED in each of the
// nw counters after it, so that every group waiting there leaves.
static void pr_fail(volatile __global int *sync, int nw) {
  atomic_xchg(sync, 1);
  for (int w = 1; w <= nw; w++)
    atomic_or(sync + w, GRID_FAILED);
}

// pr_post adds one to the counter sync[w] (or sets the bit notpd there),
// if add, once the group's stores before it are visible to the other
// groups; the whole group calls it.
static void pr_post(volatile __global int *sync, int w, int add, int notpd) {
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (add && get_local_id(0) == 0) {
    grid_fence();
    if (notpd)
      atomic_or(sync + w, PR_NOTPD);
    else
      atomic_inc(sync + w);
  }
}

// The block row's element (r, c) in Upper terms (r, c counted from the
// block row's diagonal element at off), laid out as the matrix is.
#define PA_(r, c) a[off + (upper ? (long)(r) * lda + (c) : (long)(c) * lda + (r))]

// PR_LDN is how many elements of a staged chunk (PR_KC rows of PR_N
// columns) each work-item moves.
#define PR_LDN ((PR_KC * PR_N + PR_WG - 1) / PR_WG)

// pr_load reads a work-item's elements of rows k0… (PR_KC of them, those
// from kn on as zero) of the block row's columns c0… (those from cn on as
// zero) into x, through grid_ld when cg (another group wrote them in this
// launch); pr_store puts them into st (st[k·PR_N + c]). Loading the next
// chunk before the products of the current one keeps its loads in flight
// behind them.
static void pr_load(real x[PR_LDN], __global real *a, long off, int lda,
                    int upper, int k0, int kn, int c0, int cn, int cg) {
#pragma unroll
  for (int u = 0; u < PR_LDN; u++) {
    const int e = get_local_id(0) + u * PR_WG;
    // Neighbouring work-items read neighbouring elements of the storage.
    const int k = upper ? e / PR_N : e % PR_KC, c = upper ? e % PR_N : e / PR_KC;
    real v = 0;
    if (e < PR_KC * PR_N && k0 + k < kn && c0 + c < cn)
      v = cg ? grid_ld(&PA_(k0 + k, c0 + c)) : PA_(k0 + k, c0 + c);
    x[u] = v;
  }
}

static void pr_store(__local real *st, const real x[PR_LDN], int upper) {
#pragma unroll
  for (int u = 0; u < PR_LDN; u++) {
    const int e = get_local_id(0) + u * PR_WG;
    const int k = upper ? e / PR_N : e % PR_KC, c = upper ? e % PR_N : e / PR_KC;
    if (e < PR_KC * PR_N)
      st[k * PR_N + c] = x[u];
  }
}

// The helpers below are macros, not functions: PoCL's LLVM 15 crashes
// inlining a function that takes the private array acc (in
// getUnderlyingObject), and its build of one that took &ok lost work-item
// 0's store to ok. They use the kernel's names (lid, ok, sync, a, off, ...).

// PR_WAIT waits, in work-item 0, until the counter sync[w] reaches target,
// giving up after spin polls (pr_fail), and leaves ok (local, the group's)
// 0 once the launch has failed or the counter says PR_NOTPD.
#define PR_WAIT(w, target)                                                    \
  {                                                                           \
    const int ok_ = ok;                                                       \
    barrier(CLK_LOCAL_MEM_FENCE); /* every work-item has read ok */          \
    if (lid == 0 && ok_) {                                                    \
      const int stop_ = GRID_FAILED | PR_NOTPD;                               \
      int c_ = grid_ldi(sync + (w));                                          \
      for (int k_ = 0; (c_ & stop_) == 0 && c_ < (target); k_++) {            \
        if (k_ >= spin) {                                                     \
          pr_fail(sync, nw);                                                  \
          c_ = GRID_FAILED;                                                   \
          break;                                                              \
        }                                                                     \
        c_ = grid_ldi(sync + (w));                                            \
      }                                                                       \
      grid_fence();                                                           \
      ok = (c_ & stop_) == 0;                                                 \
    }                                                                         \
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);                      \
  }

// PR_PROD sets acc (real[POTF_T][POTF_T]) to P(:, r)ᵀ·Q(:, c) over the kb
// rows from row i of the block row (none: acc zero), P the PR_N columns from pc and Q those
// from qc (columns from cols on are zero), for work-item (gr, gc)'s rows
// r = gr + POTF_G·s and columns c = gc + POTF_G·t, through the staging
// st. P is read through grid_ld (another group's columns); Q is the
// group's own.
#define PR_PROD(acc, pc, qc, kb)                                              \
  {                                                                           \
    for (int s_ = 0; s_ < POTF_T; s_++)                                       \
      for (int t_ = 0; t_ < POTF_T; t_++)                                     \
        acc[s_][t_] = 0;                                                      \
    real xp_[PR_LDN], xq_[PR_LDN];                                            \
    pr_load(xp_, a, off, lda, upper, i, i + (kb), pc, cols, 1);               \
    pr_load(xq_, a, off, lda, upper, i, i + (kb), qc, cols, 0);               \
    for (int k0 = 0; k0 < (kb); k0 += PR_KC) {                                \
      barrier(CLK_LOCAL_MEM_FENCE);                                           \
      pr_store(st, xp_, upper);                                               \
      pr_store(st + PR_KC * PR_N, xq_, upper);                                \
      barrier(CLK_LOCAL_MEM_FENCE);                                           \
      if (k0 + PR_KC < (kb)) {                                                \
        pr_load(xp_, a, off, lda, upper, i + k0 + PR_KC, i + (kb), pc, cols, 1); \
        pr_load(xq_, a, off, lda, upper, i + k0 + PR_KC, i + (kb), qc, cols, 0); \
      }                                                                       \
      PR_CHUNK(acc)                                                           \
    }                                                                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                             \
  }

// PR_FACTOR factorises diagonal block tb (bn wide, at row and column c0 of
// the block row) held in v with potf_steps, U into the matrix, when own
// (bn is taken as 0 otherwise, so that every group reaches the same
// barriers' code), and then publishes X = U⁻¹ into xbuf's block tb and
// adds to its counter D (sync[1+tb]); a block that is not positive
// definite sets *info, keeps its rows as far as they got (as potf2_inv)
// and sets PR_NOTPD there instead.
#define PR_FACTOR(v, tb, c0, bn, own)                                         \
  {                                                                           \
    for (int e_ = lid; e_ < 4 * PR_N; e_ += PR_WG)                            \
      lrc[e_] = 0;                                                            \
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE); /* v is read */     \
    const int n_ = (own) ? (bn) : 0;                                          \
    const int fj_ = potf_steps(n_, upper, gr, gc, v, lrc, lrc + 2 * PR_N, a,  \
                               off + (long)(c0) * lda + (c0), lda, 1);        \
    _Pragma("unroll") for (int p_ = 0; p_ < POTF_T; p_++)                     \
      _Pragma("unroll") for (int q_ = 0; q_ < POTF_T; q_++) {                 \
        const int r_ = gr + POTF_G * p_, c_ = gc + POTF_G * q_;               \
        if (n_ > 0 && fj_ < n_ && p_ <= q_ && r_ >= fj_ && r_ <= c_ && c_ < n_) \
          PA_((c0) + r_, (c0) + c_) = v[p_][q_];                              \
        if (n_ > 0 && fj_ == n_)                                              \
          xbuf[(long)(tb) * PR_N * PR_N + r_ * PR_N + c_] =                   \
              r_ <= c_ && c_ < n_ ? v[p_][q_] : 0;                            \
      }                                                                       \
    if (n_ > 0 && fj_ < n_ && lid == 0)                                       \
      *info = ibase + (c0) + fj_ + 1;                                         \
    pr_post(sync, 1 + (tb), n_ > 0, fj_ < n_);                                \
  }

// potrf_row factorises, in one launch, the block row of Cholesky's
// right-looking factorization whose diagonal element is at off: in Upper
// terms its h rows and cols columns (h a multiple of PR_N unless cols =
// h), A = Uᵀ·U (upper != 0) or, for Lower, the transposed block column.
// It runs the steps of factorRow (potrf_device.go) without a launch a
// step: step s takes the PR_N rows from i = s·PR_N; U12 = U11⁻ᵀ·A12 is
// formed in tiles of PR_N columns with X = U11⁻¹, and the rows below the
// step in the block row updated, A22 −= U12ᵀ·U12.
//
// Tile t holds columns t·PR_N…; group g owns the tiles t ≡ g (mod G) and
// is the only one to write them. The tiles up to S−1 (S steps) hold the
// block row's diagonal blocks. Diagonal block s+1 is factorised (and
// inverted) by its tile's owner during step s, as soon as that tile has
// its U12 of step s, while the other groups finish step s (look-ahead
// inside the launch). Two counters a step order the groups:
// - D[s] (sync[1+s]): X of diagonal block s is in xbuf and its rows of U
//   in the matrix; every group waits for it before step s;
// - P[s] (sync[1+S+s]): so many tiles of the diagonal range have their U12
//   of step s; a group updates the rows of its tiles below the step once
//   all S−1−s have (row r's update takes U12(:, r)).
// Group 0 factorises diagonal block 0 first. A group waits at most spin
// polls (pr_wait, pr_fail). A diagonal block that is not positive
// definite (or NaN) stops every group at its step, with *info set to
// ibase + its column + 1 and the factor complete before it. A launch after
// one whose factor failed (*info set, at most ibase) does nothing. xbuf
// holds S·PR_N² reals; syncs, from element sb, 1+2S ints, zero at the
// start.
__kernel __attribute__((reqd_work_group_size(PR_WG, 1, 1))) void
potrf_row(int h, int cols, int upper, __global real *a, long off, int lda,
          __global int *info, int ibase, __global real *xbuf,
          volatile __global int *syncs, int sb, int spin GT_ARG) {
  __local real xs[PR_N * PR_N];      // X of the step: X(k, r) at k·PR_N + r
  __local real st[2 * PR_KC * PR_N]; // staged rows
  __local real lrc[4 * PR_N];        // potf_steps' rows and columns
  __local int ok;
  const int lid = get_local_id(0), g = get_group_id(0), G = get_num_groups(0);
  const int tx = lid % POTF_G, ty = lid / POTF_G;
  const int gr = upper ? ty : tx, gc = upper ? tx : ty;
  const int S = (h + PR_N - 1) / PR_N, T = (cols + PR_N - 1) / PR_N;
  const int nw = 2 * S; // counters: D[s] at 1+s, P[s] at 1+S+s
  volatile __global int *sync = syncs + sb; // this block row's
  if (lid == 0) {
    const int prior = *info;
    ok = prior == 0 || prior > ibase;
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  {
    // Diagonal block 0, by group 0. The loop below is left through its
    // condition only (PoCL miscompiles a return or break out of a loop
    // with barriers), and the whole group reaches each of its barriers.
    const int own = ok && g == 0, b0 = min(PR_N, h);
    real v[POTF_T][POTF_T];
#pragma unroll
    for (int p = 0; p < POTF_T; p++)
#pragma unroll
      for (int q = 0; q < POTF_T; q++) {
        const int r = gr + POTF_G * p, c = gc + POTF_G * q;
        v[p][q] = own && p <= q && c < b0 && r <= c ? PA_(r, c) : 0;
      }
    PR_FACTOR(v, 0, 0, b0, own)
  }
  GT_INIT
  // No barrier below is inside a branch, only inside loops whose trip
  // counts are the same in the whole group: a group skips work by empty
  // loops and zero sizes. (PoCL copies the code after each barrier in a
  // branch, once per path to it; with branches inside loops here, its
  // build of this kernel took eight minutes.)
  for (int s = 0; s < S && ok; s++) {
    const int i = s * PR_N, ib = min(PR_N, h - i);
    PR_WAIT(1 + s, 1)
    const int go = ok; // the same in the group (PR_WAIT ends in a barrier)
    GT(0)
    for (int e = lid; go && e < PR_N * PR_N; e += PR_WG)
      xs[e] = grid_ld(&xbuf[(long)s * PR_N * PR_N + e]);
    barrier(CLK_LOCAL_MEM_FENCE);
    GT(1)
    // U12 of the own tiles right of the diagonal block, s+1 first.
    const int t0 = s + 1 + ((g - (s + 1)) % G + G) % G;
    for (int t = go ? t0 : T; t < T; t += G) {
      const int c0 = t * PR_N;
      real acc[POTF_T][POTF_T];
#pragma unroll
      for (int p = 0; p < POTF_T; p++)
#pragma unroll
        for (int q = 0; q < POTF_T; q++)
          acc[p][q] = 0;
      real xb[PR_LDN];
      pr_load(xb, a, off, lda, upper, i, i + ib, c0, cols, 0);
      for (int k0 = 0; k0 < ib; k0 += PR_KC) {
        barrier(CLK_LOCAL_MEM_FENCE);
        pr_store(st, xb, upper);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (k0 + PR_KC < ib)
          pr_load(xb, a, off, lda, upper, i + k0 + PR_KC, i + ib, c0, cols, 0);
#pragma unroll
        for (int k = 0; k < PR_KC; k++)
#pragma unroll
          for (int p = 0; p < POTF_T; p++)
#pragma unroll
            for (int q = 0; q < POTF_T; q++)
              acc[p][q] = fma(xs[(k0 + k) * PR_N + gr + POTF_G * p],
                              st[k * PR_N + gc + POTF_G * q], acc[p][q]);
      }
      barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE); // U12 replaces A12
#pragma unroll
      for (int p = 0; p < POTF_T; p++)
#pragma unroll
        for (int q = 0; q < POTF_T; q++) {
          const int r = gr + POTF_G * p, c = gc + POTF_G * q;
          if (r < ib && c0 + c < cols)
            PA_(i + r, c0 + c) = acc[p][q];
        }
      // A tile of the diagonal range has its U12 of step s out.
      pr_post(sync, 1 + S + s, t < S, 0);
      // Tile s+1's owner: the next diagonal block as step s leaves it,
      // factorised here (the others run the same code on no rows).
      const int own = t == s + 1 && t < S, bn = own ? min(PR_N, h - c0) : 0;
      PR_PROD(acc, c0, c0, own ? ib : 0)
      real v[POTF_T][POTF_T];
#pragma unroll
      for (int p = 0; p < POTF_T; p++)
#pragma unroll
        for (int q = 0; q < POTF_T; q++) {
          const int r = gr + POTF_G * p, c = gc + POTF_G * q;
          v[p][q] = p <= q && r <= c && c < bn ? PA_(c0 + r, c0 + c) - acc[p][q] : 0;
        }
      PR_FACTOR(v, t, c0, bn, own)
    }
    GT(2)
    // The own tiles' rows below the step in the block row, once every
    // tile of the diagonal range has its U12 (no wait where there are none).
    const int t2 = t0 == s + 1 ? t0 + G : t0;
    const int rows = go && t2 < T && s + 1 < S;
    PR_WAIT(1 + S + s, rows ? S - 1 - s : 0)
    const int go2 = rows && ok;
    GT(3)
    // The loads of each product's next chunk, or of the next product's
    // first (block row u+1), are issued before this chunk's products, and
    // a product's elements of A before its chunks: each product waits on
    // global memory once, not at each of its loads.
    for (int t = go2 ? t2 : T; t < T; t += G) {
      const int c0 = t * PR_N, u1 = min(t, S - 1);
      real xp[PR_LDN], xq[PR_LDN];
      pr_load(xp, a, off, lda, upper, i, i + ib, (s + 1) * PR_N, cols, 1);
      pr_load(xq, a, off, lda, upper, i, i + ib, c0, cols, 0);
      for (int u = s + 1; u <= u1; u++) {
        const int r0 = u * PR_N;
        real acc[POTF_T][POTF_T], old[POTF_T][POTF_T];
#pragma unroll
        for (int p = 0; p < POTF_T; p++)
#pragma unroll
          for (int q = 0; q < POTF_T; q++) {
            const int r = gr + POTF_G * p, c = gc + POTF_G * q;
            acc[p][q] = 0;
            old[p][q] = r0 + r < h && c0 + c < cols && (u < t || r <= c) ? PA_(r0 + r, c0 + c) : 0;
          }
        for (int k0 = 0; k0 < ib; k0 += PR_KC) {
          barrier(CLK_LOCAL_MEM_FENCE);
          pr_store(st, xp, upper);
          pr_store(st + PR_KC * PR_N, xq, upper);
          barrier(CLK_LOCAL_MEM_FENCE);
          const int more = k0 + PR_KC < ib, k1 = more ? k0 + PR_KC : 0;
          if (more || u < u1) {
            pr_load(xp, a, off, lda, upper, i + k1, i + ib, more ? r0 : r0 + PR_N, cols, 1);
            pr_load(xq, a, off, lda, upper, i + k1, i + ib, c0, cols, 0);
          }
          PR_CHUNK(acc)
        }
#pragma unroll
        for (int p = 0; p < POTF_T; p++)
#pragma unroll
          for (int q = 0; q < POTF_T; q++) {
            const int r = gr + POTF_G * p, c = gc + POTF_G * q;
            if (r0 + r < h && c0 + c < cols && (u < t || r <= c))
              PA_(r0 + r, c0 + c) = old[p][q] - acc[p][q];
          }
      }
    }
    GT(4)
  }
  GT_SAVE
}
#undef PA_
#undef PR_N
#undef PR_WG
#undef PR_KC
#undef PR_LDN
#undef PR_NOTPD
#undef PR_WAIT
#undef PR_PROD
#undef PR_FACTOR
#undef PR_CHUNK
#endif
