// bandmv.cl — the band matrix-vector products (gbmv, sbmv) for GPUs on
// gonum's row-major band storage, built after common.cl. A is m×n with kl
// sub- and ku super-diagonals: row i stores A(i, j), j ∈ [i−kl, i+ku], at
// a[i·lda + kl + j − i], so a row's band is contiguous and consecutive
// columns of a row are consecutive in memory:
//   band_n  y(i) = alpha·Σ_j A(i,j)·x(j) + beta·y(i): BY rows per work-group,
//           BX work-items striding along each row's band, reduced in
//           local memory (for narrow bands the host takes a small BX);
//   band_t  y(j) = alpha·Σ_i A(i,j)·x(i) + beta·y(j): BX consecutive columns
//           per work-group, so each row's piece is one coalesced read, its
//           rows split over BY slices and reduced in local memory.
// beta == 0 assigns (y is not read); an output without terms keeps
// beta·y. The symmetric band (sbmv) has kernels of its own, below. Every
// product inside the band is computed (no fma), so NaN and Inf spread as
// in gonum's Go code; nothing outside it is read. A triangular band (tbmv)
// is the general band with kl or ku zero; built with BAND_UNIT=1 its
// diagonal is taken as ones and not read.
//
// Defines: BX, BY (the work-group shape; defaults 32×8), BAND_UNIT
// (default 0).

#pragma OPENCL FP_CONTRACT OFF

#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif
#ifndef BAND_UNIT
#define BAND_UNIT 0
#endif

// BAND_AT is A(i, j) inside the band, whose row i is row[·]: 1 on a unit
// diagonal (not read there).
#define BAND_AT(row, i, j) ((BAND_UNIT && (i) == (j)) ? (real)1 : (row)[j])

static inline void band_store(__global real* y, long iy, real alpha, real s, real beta, int terms)
{
    real r = (beta == (real)0) ? (real)0 : beta * y[iy];
    if (terms) r += alpha * s;
    y[iy] = r;
}

__kernel __attribute__((reqd_work_group_size(BX, BY, 1)))
void band_n(const int m, const int n, const int kl, const int ku, const real alpha,
            __global const real* a, const int lda,
            __global const real* x, const int offx, const int incx,
            const real beta, __global real* y, const int offy, const int incy)
{
    __local real part[BY][BX + 1];
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int i = get_group_id(1) * BY + ty;
    real s = 0;
    int terms = 0;
    if (i < m) {
        const int lo = max(0, i - kl);
        const int hi = (int)min((long)n, (long)i + ku + 1);
        terms = hi > lo;
        // row[j] is A(i, j).
        __global const real* row = a + (long)i * lda + kl - i;
        for (int j = lo + tx; j < hi; j += BX) {
            s += BAND_AT(row, i, j) * x[offx + (long)j * incx];
        }
    }
    part[ty][tx] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = BX / 2; w > 0; w >>= 1) {
        if (tx < w) part[ty][tx] += part[ty][tx + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (tx == 0 && i < m) band_store(y, offy + (long)i * incy, alpha, part[ty][0], beta, terms);
}

__kernel __attribute__((reqd_work_group_size(BX, BY, 1)))
void band_t(const int m, const int n, const int kl, const int ku, const real alpha,
            __global const real* a, const int lda,
            __global const real* x, const int offx, const int incx,
            const real beta, __global real* y, const int offy, const int incy)
{
    __local real part[BY][BX + 1];
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int j0 = get_group_id(0) * BX;
    const int j = j0 + tx;
    // The rows any of the group's columns reach, and this column's.
    const int ilo = max(0, j0 - ku);
    const int ihi = (int)min((long)m, (long)j0 + BX + kl);
    const int lo = max(0, j - ku);
    const int hi = (int)min((long)m, (long)j + kl + 1);
    real s = 0;
    if (j < n) {
        // Eight rows in flight (their indices computed first, element 0
        // of a for a row outside this column's band, so that the loads do
        // not wait on one another), then the rest.
        int i = ilo + ty;
        for (; i + 7 * BY < ihi; i += 8 * BY) {
            real v[8], w[8];
            for (int u = 0; u < 8; u++) {
                const int r = i + u * BY;
                v[u] = (BAND_UNIT && r == j) ? (real)1 : a[(r >= lo && r < hi) ? (long)r * lda + kl + j - r : 0];
                w[u] = x[offx + (long)r * incx];
            }
            for (int u = 0; u < 8; u++) {
                const int r = i + u * BY;
                if (r >= lo && r < hi) s += v[u] * w[u];
            }
        }
        for (; i < ihi; i += BY) {
            if (i >= lo && i < hi) s += BAND_AT(a + (long)i * lda + kl - i, i, j) * x[offx + (long)i * incx];
        }
    }
    part[ty][tx] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = BY / 2; w > 0; w >>= 1) {
        if (ty < w) part[ty][tx] += part[ty + w][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (ty == 0 && j < n) {
        band_store(y, offy + (long)j * incy, alpha, part[0][tx], beta, hi > lo);
    }
}

// The symmetric band product reading its stored triangle once (sbmv):
// sbmv_tile takes the ST×ST tile of A at row block I = group 1 and column
// block I ± d (d = group 0; + for the upper triangle, − for the lower),
// loads its elements inside the stored band into local memory in
// coalesced row pieces, and uses each for its row and (off the diagonal)
// for its column: rowpart[(I·D + d)·ST + r] = Σ_c A(r, c)·x(c) over the
// tile's columns, colpart[(I·D + d)·ST + c] = Σ_r A(r, c)·x(r) over its
// rows. sbmv_fin adds, for each y(i), the D row sums of its row block and
// the column sums of the D tiles over its column block, and stores
// alpha·sum + beta·y(i).
//
// Defines: ST (the tile order; the work-group is ST×SY), SY.

#ifndef ST
#define ST 32
#endif
#ifndef SY
#define SY 8
#endif

__kernel __attribute__((reqd_work_group_size(ST, SY, 1)))
void sbmv_tile(const int n, const int k, const int upper, const int nd,
               __global const real* a, const int lda,
               __global const real* x, const int offx, const int incx,
               __global real* rowpart, __global real* colpart)
{
    __local real tile[ST][ST + 1];
    __local real xr[ST], xc[ST];
    __local real red[SY][ST + 1];
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int d = get_group_id(0), bi = get_group_id(1);
    const int r0 = bi * ST;
    const int c0 = upper ? (bi + d) * ST : (bi - d) * ST;
    const long slot = ((long)bi * nd + d) * ST;
    // in(r, c): A(r0 + r, c0 + c) is inside the matrix and the stored
    // band (a tile off the matrix has none: its sums are zero).
#define SB_IN(R, C) (r0 + (R) < n && c0 + (C) >= 0 && c0 + (C) < n && \
    (upper ? (c0 + (C)) - (r0 + (R)) : (r0 + (R)) - (c0 + (C))) >= 0 && \
    (upper ? (c0 + (C)) - (r0 + (R)) : (r0 + (R)) - (c0 + (C))) <= k)
    if (ty == 0) {
        xr[tx] = r0 + tx < n ? x[offx + (long)(r0 + tx) * incx] : (real)0;
        xc[tx] = c0 + tx >= 0 && c0 + tx < n ? x[offx + (long)(c0 + tx) * incx] : (real)0;
    }
    {
        // All of a work-item's loads at once (element 0 of a for one
        // outside the band, never used).
        real v[ST / SY];
        for (int u = 0; u < ST / SY; u++) {
            const int r = ty + u * SY;
            const long i = r0 + r, j = c0 + tx;
            v[u] = a[SB_IN(r, tx) ? i * lda + (upper ? j - i : j - i + k) : 0];
        }
        for (int u = 0; u < ST / SY; u++) tile[ty + u * SY][tx] = v[u];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Row sums: work-item (tx, ty) takes row tx, columns ty, ty + SY, ...
    real s = 0;
    for (int c = ty; c < ST; c += SY) {
        if (SB_IN(tx, c)) s += tile[tx][c] * xc[c];
    }
    red[ty][tx] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (ty == 0) {
        real t = 0;
        for (int q = 0; q < SY; q++) t += red[q][tx];
        rowpart[slot + tx] = t;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Column sums without the diagonal: column tx, rows ty, ty + SY, ...
    s = 0;
    for (int r = ty; r < ST; r += SY) {
        if (SB_IN(r, tx) && r0 + r != c0 + tx) s += tile[r][tx] * xr[r];
    }
    red[ty][tx] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (ty == 0) {
        real t = 0;
        for (int q = 0; q < SY; q++) t += red[q][tx];
        colpart[slot + tx] = t;
    }
#undef SB_IN
}

__kernel void sbmv_fin(const int n, const int upper, const int nd, const int nb, const real alpha,
                       __global const real* rowpart, __global const real* colpart,
                       const real beta, __global real* y, const int offy, const int incy)
{
    const int i = get_global_id(0);
    if (i >= n) return;
    const int bi = i / ST, r = i % ST;
    real s = 0;
    for (int d = 0; d < nd; d++) s += rowpart[((long)bi * nd + d) * ST + r];
    // The tiles over column block bi: row block bi ∓ d at distance d.
    for (int d = 0; d < nd; d++) {
        const int b = upper ? bi - d : bi + d;
        if (b >= 0 && b < nb) s += colpart[((long)b * nd + d) * ST + r];
    }
    const long iy = offy + (long)i * incy;
    y[iy] = ((beta == (real)0) ? (real)0 : beta * y[iy]) + alpha * s;
}
