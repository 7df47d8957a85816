// gemm_skinny.cl — the skinny-GEMM routes of blas/gemm_skinny.go (built
// after common.cl, which defines real from PRECISION).
//
// GEMV-shaped GEMMs (m == 1 or n == 1) become y = alpha·M·x + beta·y with
// nout outputs and k terms each, for a matrix M given in one of two forms:
//   row form: M(i, p) = Mat[offM + i·ldm + p]  (each output reads a contiguous row)
//   col form: M(i, p) = Mat[offM + p·ldm + i]  (neighbouring outputs read neighbouring
//                                              elements)
// x(p) = X[offX + p·incX], y(i) = Y[offY + i·incY], all increments positive.
// beta == 0 writes y without reading it. Products use fma; the partial sums
// of a work-group are added in a tree, so results agree with a naive loop to
// rounding error.
//
// Split-K: gemm_splitk_reduce sums the S scratch products W[s·m·n + i·n + j]
// (each alpha·op(A)·op(B) over one slice of K) into C:
//   C[offC + i·ldc + j] = beta·C + Σ_s W[...]   (beta == 0: C not read).
//
// Work sizes:
//   gemv_row           local (GV_ROW_WG), global (nout·GV_ROW_WG): one group per output
//   gemv_col           local (GV_COL_X, GV_COL_Y), global (ceil(nout/GV_COL_X)·GV_COL_X,
//                      GV_COL_Y): GV_COL_Y k-lanes per output, reduced in local memory
//   gemm_splitk_reduce local (16, 4), global (ceil(n/16)·16, ceil(m/4)·4)

#define GV_ROW_WG 64
#define GV_COL_X 32
#define GV_COL_Y 8

__kernel __attribute__((reqd_work_group_size(GV_ROW_WG, 1, 1)))
void gemv_row(const int nout, const int k, const real alpha,
              __global const real* restrict Mat, const int offM, const int ldm,
              __global const real* restrict X, const int offX, const int incX,
              const real beta, __global real* Y, const int offY, const int incY)
{
    __local real part[GV_ROW_WG];
    const int i = (int)get_group_id(0);
    const int l = (int)get_local_id(0);
    __global const real* row = Mat + offM + (long)i * ldm;
    __global const real* x = X + offX;
    real s = (real)0;
    if (incX == 1) {
        for (int p = l; p < k; p += GV_ROW_WG) s = fma(row[p], x[p], s);
    } else {
        for (int p = l; p < k; p += GV_ROW_WG) s = fma(row[p], x[(long)p * incX], s);
    }
    part[l] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = GV_ROW_WG / 2; w > 0; w >>= 1) {
        if (l < w) part[l] += part[l + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0 && i < nout) {
        __global real* y = Y + offY + (long)i * incY;
        const real v = alpha * part[0];
        *y = (beta == (real)0) ? v : fma(beta, *y, v);
    }
}

__kernel __attribute__((reqd_work_group_size(GV_COL_X, GV_COL_Y, 1)))
void gemv_col(const int nout, const int k, const real alpha,
              __global const real* restrict Mat, const int offM, const int ldm,
              __global const real* restrict X, const int offX, const int incX,
              const real beta, __global real* Y, const int offY, const int incY)
{
    __local real part[GV_COL_Y][GV_COL_X + 1];
    const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
    const int i = (int)get_group_id(0) * GV_COL_X + lx;
    real s = (real)0;
    if (i < nout) {
        __global const real* col = Mat + offM + i;
        __global const real* x = X + offX;
        for (int p = ly; p < k; p += GV_COL_Y)
            s = fma(col[(long)p * ldm], x[(long)p * incX], s);
    }
    part[ly][lx] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (ly == 0 && i < nout) {
        real t = part[0][lx];
        for (int q = 1; q < GV_COL_Y; q++) t += part[q][lx];
        __global real* y = Y + offY + (long)i * incY;
        const real v = alpha * t;
        *y = (beta == (real)0) ? v : fma(beta, *y, v);
    }
}

__kernel __attribute__((reqd_work_group_size(16, 4, 1)))
void gemm_splitk_reduce(const int m, const int n, const int S,
                        __global const real* restrict W,
                        const real beta, __global real* C, const int offC, const int ldc)
{
    const int j = (int)get_global_id(0), i = (int)get_global_id(1);
    if (i >= m || j >= n) return;
    const long mn = (long)m * n;
    __global const real* w = W + (long)i * n + j;
    real s = w[0];
    for (int q = 1; q < S; q++) s += w[q * mn];
    __global real* c = C + offC + (long)i * ldc + j;
    *c = (beta == (real)0) ? s : fma(beta, *c, s);
}
