// symv.cl — the dense symmetric matrix-vector product for GPUs, built after
// common.cl; gemv.cl's gemv_t_fin finishes it. The stored triangle is read
// once:
//   symv_part  each work-group takes one SY_TB×SY_TB tile (block row bi,
//              block column bj) of the stored triangle (upper: bj ≥ bi,
//              lower: bj ≤ bi); the grid has one group per such tile and
//              none for the others. It loads the tile into local memory in coalesced
//              row pieces and uses every element twice: A(i,j)·x(j) for
//              y(i) and A(i,j)·x(i) for y(j). The pair of blocks {b, c}
//              owns slot part[c·n + i] for every i of block b, so with nt
//              blocks each y(i) has exactly nt partial sums, written once
//              each (no atomics): the tile's row sums go to
//              part[bj·n + i], its column sums to part[bi·n + j], and a
//              diagonal tile (bi = bj) writes both in one slot, its
//              diagonal counted once.
// gemv_t_fin then sets y(i) = alpha·Σ_c part[c·n + i] + beta·y(i).
// Elements outside the stored triangle are never read.
//
// Defines: SY_TB (tile side, the work-group's width), SY_TY (the
// work-group's height; it divides SY_TB).

#ifndef SY_TB
#define SY_TB 32
#endif
#ifndef SY_TY
#define SY_TY 8
#endif

__kernel __attribute__((reqd_work_group_size(SY_TB, SY_TY, 1)))
void symv_part(const int n, const int upper,
               __global const real* a, const int lda,
               __global const real* x, const int offx, const int incx,
               __global real* part)
{
    __local real tile[SY_TB][SY_TB + 1];
    __local real xr[SY_TB], xc[SY_TB];
    const int lx = get_local_id(0), ly = get_local_id(1);
    // Work-group g takes the triangle's tiles in column-major order (on the
    // H200 faster than row-major, which has the groups running together
    // read whole rows). Upper: block column q holds tiles (0..q, q) and
    // starts at tile q(q+1)/2. Lower: block column bj holds tiles
    // (bj..nt-1, bj); counted from the last tile backwards, column nt-1-q
    // starts at q(q+1)/2 too.
    const int nt = (n + SY_TB - 1) / SY_TB;
    const int g = get_group_id(0);
    const int t = upper ? g : nt * (nt + 1) / 2 - 1 - g;
    int q = (int)((sqrt(8.0f * (float)t + 1.0f) - 1.0f) * 0.5f);
    while (q * (q + 1) / 2 > t) q--;
    while ((q + 1) * (q + 2) / 2 <= t) q++;
    const int r0 = t - q * (q + 1) / 2;
    const int bj = upper ? q : nt - 1 - q;
    const int bi = upper ? r0 : nt - 1 - r0;
    const int diag = bi == bj;
    const int i0 = bi * SY_TB, j0 = bj * SY_TB;
    const int j = j0 + lx;
    // x of the tile's rows (xr) and columns (xc).
    for (int t = ly * SY_TB + lx; t < 2 * SY_TB; t += SY_TB * SY_TY) {
        const int k = t % SY_TB;
        const int g = (t < SY_TB ? i0 : j0) + k;
        const real v = g < n ? x[offx + (long)g * incx] : (real)0;
        if (t < SY_TB) {
            xr[k] = v;
        } else {
            xc[k] = v;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Load the tile by rows, summing A(i,j)·x(i) down column j on the way
    // (a diagonal tile's diagonal left to the row sums).
    real col = 0;
    for (int r = ly; r < SY_TB; r += SY_TY) {
        const int i = i0 + r;
        const int in = i < n && j < n && (!diag || (upper ? lx >= r : lx <= r));
        const real v = in ? a[(long)i * lda + j] : (real)0;
        tile[r][lx] = v;
        if (in && !(diag && lx == r)) col += v * xr[r];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Row lx's sum A(i,:)·x over the columns c ≡ ly (mod SY_TY).
    real row = 0;
    for (int c = ly; c < SY_TB; c += SY_TY) {
        if (j0 + c < n && i0 + lx < n) row += tile[lx][c] * xc[c];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Reduce both over ly, in the tile's memory (2·SY_TY ≤ SY_TB + 1 rows).
    tile[ly][lx] = row;
    tile[SY_TY + ly][lx] = col;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (ly == 0) {
        real rs = 0, cs = 0;
        for (int q = 0; q < SY_TY; q++) {
            rs += tile[q][lx];
            cs += tile[SY_TY + q][lx];
        }
        const int i = i0 + lx;
        if (diag) {
            if (i < n) part[(long)bi * n + i] = rs + cs;
        } else {
            if (i < n) part[(long)bj * n + i] = rs;
            if (j < n) part[(long)bi * n + j] = cs;
        }
    }
}
