// bandmv.cl — the band matrix-vector products (gbmv, sbmv) for GPUs on
// gonum's row-major band storage, built after common.cl. A is m×n with kl
// sub- and ku super-diagonals: row i stores A(i, j), j ∈ [i−kl, i+ku], at
// a[i·lda + kl + j − i], so a row's band is contiguous and consecutive
// columns of a row are consecutive in memory:
//   band_n  y(i) = alpha·Σ_j A(i,j)·x(j) + b(i): BY rows per work-group,
//           BX work-items striding along each row's band, reduced in
//           local memory (for narrow bands the host takes a small BX);
//   band_t  y(j) = alpha·Σ_i A(i,j)·x(i) + b(j): BX consecutive columns
//           per work-group, so each row's piece is one coalesced read, its
//           rows split over BY slices and reduced in local memory.
// b is beta·y (beta == 0: y is not read) or, with accumulate, y itself;
// an output without terms keeps b. With skipdiag the diagonal is left
// out. A symmetric band (sbmv) is band_n over its stored triangle, then
// band_t over the triangle without the diagonal, accumulating: each
// stored element serves its row in the first pass and its column in the
// second. Every product inside the band is computed (no fma), so NaN and
// Inf spread as in gonum's Go code; nothing outside it is read.
//
// Defines: BX, BY (the work-group shape; defaults 32×8).

#pragma OPENCL FP_CONTRACT OFF

#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif

static inline void band_store(__global real* y, long iy, real alpha, real s, real beta, int terms, int accumulate)
{
    real r = accumulate ? y[iy] : (beta == (real)0) ? (real)0 : beta * y[iy];
    if (terms) r += alpha * s;
    y[iy] = r;
}

__kernel __attribute__((reqd_work_group_size(BX, BY, 1)))
void band_n(const int m, const int n, const int kl, const int ku, const real alpha,
            __global const real* a, const int lda,
            __global const real* x, const int offx, const int incx,
            const real beta, __global real* y, const int offy, const int incy,
            const int skipdiag, const int accumulate)
{
    __local real part[BY][BX + 1];
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int i = get_group_id(1) * BY + ty;
    real s = 0;
    int terms = 0;
    if (i < m) {
        const int lo = max(0, i - kl);
        const int hi = (int)min((long)n, (long)i + ku + 1);
        terms = hi - lo - (skipdiag && i < n) > 0;
        // row[j] is A(i, j).
        __global const real* row = a + (long)i * lda + kl - i;
        for (int j = lo + tx; j < hi; j += BX) {
            if (!(skipdiag && j == i)) s += row[j] * x[offx + (long)j * incx];
        }
    }
    part[ty][tx] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = BX / 2; w > 0; w >>= 1) {
        if (tx < w) part[ty][tx] += part[ty][tx + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (tx == 0 && i < m) band_store(y, offy + (long)i * incy, alpha, part[ty][0], beta, terms, accumulate);
}

__kernel __attribute__((reqd_work_group_size(BX, BY, 1)))
void band_t(const int m, const int n, const int kl, const int ku, const real alpha,
            __global const real* a, const int lda,
            __global const real* x, const int offx, const int incx,
            const real beta, __global real* y, const int offy, const int incy,
            const int skipdiag, const int accumulate)
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
        for (int i = ilo + ty; i < ihi; i += BY) {
            if (i >= lo && i < hi && !(skipdiag && i == j)) {
                s += a[(long)i * lda + kl + j - i] * x[offx + (long)i * incx];
            }
        }
    }
    part[ty][tx] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = BY / 2; w > 0; w >>= 1) {
        if (ty < w) part[ty][tx] += part[ty + w][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (ty == 0 && j < n) {
        const int terms = hi - lo - (skipdiag && j < m) > 0;
        band_store(y, offy + (long)j * incy, alpha, part[0][tx], beta, terms, accumulate);
    }
}
