// gemv.cl — the dense general matrix-vector products for GPUs, on gonum's
// row-major storage, built after common.cl and level1.cl (whose launch
// defines, L1_VW and L1_UNROLL, vector type realv and alignment helpers it
// uses). Both orientations read A once, in coalesced vector loads where the
// rows are aligned alike:
//   gemv_n        y(i) = alpha·A(i,:)·x + beta·y(i): one work-group per row
//                 (a triangle's: two rows of lengths adding up to n),
//                 its work-items striding along the row, reduced in local
//                 memory (the dot-product orientation);
//   gemv_t_part   the transposed product's partial sums: work-group (gx, gy)
//                 takes GT_TX·L1_VW consecutive columns (a work-item each
//                 L1_VW of them, so a row's piece is one coalesced read) of
//                 row block gy, its GT_TY row slices reduced in local memory,
//                 and writes part[gy·n + j] (the axpy orientation, its rows
//                 tiled over work-items and groups);
//   gemv_t_fin    y(j) = alpha·Σ_gy part[gy·n + j] + beta·y(j).
// beta == 0 assigns (y is not read). Every product is computed (no fma), so
// NaN and Inf spread as in gonum's Go code. The local sizes are the
// host's: gemv_n any power of two, gemv_t_part (GT_TX, GT_TY).
//
// Defines: GT_TX, GT_TY (gemv_t_part's work-group shape; default 64×4),
// GT_U (gemv_t_part's rows in flight per work-item; default 4), GR_U
// (ger_rows', syr_rows' and zher_rows'; default 4), ZGR_U (zger_rows';
// default 2), GT_ONE (gemv_t_part, gbmv_t_part and zgemv_t_part add up
// their partial sums themselves, below; no gemv_t_fin).

#ifndef GT_TX
#define GT_TX 64
#endif
#ifndef GT_TY
#define GT_TY 4
#endif
#ifndef GT_U
#define GT_U 4
#endif
#ifndef GR_U
#define GR_U 4
#endif
#ifndef ZGR_U
#define ZGR_U 2
#endif

// gemv_finish stores y(i) = alpha·s + beta·y(i) (beta == 0: alpha·s),
// adding alpha·s only if the sum had terms.
static inline void gemv_finish(__global real* y, long iy, real alpha, real s, real beta, int terms)
{
    real r = (beta == (real)0) ? (real)0 : beta * y[iy];
    if (terms) r += alpha * s;
    y[iy] = r;
}

// gemv_n_row is gemv_n's work on row i.
static inline void gemv_n_row(const int i, const int n0, const real alpha,
                              __global const real* a, const int lda,
                              __global const real* x, const int offx, const int incx,
                              const real beta, __global real* y, const int offy, const int incy,
                              const int tri, const int upper, const int unit, const int skipdiag,
                              __local real* scratch)
{
    const int lid = get_local_id(0);
    const int ls = get_local_size(0);
    // Row i's columns [lo, hi): all of them, or its part of the stored
    // triangle (without the diagonal for skipdiag, or unit, whose 1 is
    // added as x(i) at the end).
    int lo = 0, hi = n0;
    if (tri) {
        const int e = skipdiag || unit;
        if (upper) {
            lo = i + e;
        } else {
            hi = i + 1 - e;
        }
    }
    const int n = max(hi - lo, 0);
    const int diag = tri && unit && !skipdiag;
    __global const real* row = a + (long)i * lda + lo;
    __global const real* px = x + offx + (long)lo * incx;
    real acc = 0;
    if (incx == 1 && l1_mis(row) == l1_mis(px)) {
        const long h = l1_head(row, n);
        const long nv = (n - h) / L1_VW;
        for (long j = lid; j < h; j += ls) acc += row[j] * px[j];
        for (long j = h + nv * L1_VW + lid; j < n; j += ls) acc += row[j] * px[j];
        __global const realv* va = (__global const realv*)(row + h);
        __global const realv* vx = (__global const realv*)(px + h);
        realv vs[L1_UNROLL];
        L1_FOR_U vs[u] = 0;
        long v = lid;
        for (; v + (L1_UNROLL - 1) * ls < nv; v += L1_UNROLL * ls) {
            realv p[L1_UNROLL], q[L1_UNROLL];
            L1_FOR_U {
                p[u] = va[v + u * ls];
                q[u] = vx[v + u * ls];
            }
            L1_FOR_U vs[u] += p[u] * q[u];
        }
        for (; v < nv; v += ls) vs[0] += va[v] * vx[v];
        L1_FOR_U1 vs[0] += vs[u];
        acc += l1_hsum(vs[0]);
    } else {
        for (long j = lid; j < n; j += ls) acc += row[j] * px[j * incx];
    }
    scratch[lid] = acc;
    LOCAL_SUM(scratch, lid, ls);
    if (lid == 0) {
        const real d = diag ? x[offx + (long)i * incx] : (real)0;
        gemv_finish(y, offy + (long)i * incy, alpha, scratch[0] + d, beta, n > 0 || diag);
    }
}

// gemv_n: work-group g takes row g; for a triangle (whose rows grow or
// shrink by one element each) the host launches half as many groups and
// group g takes rows g and m-1-g too, so every group reads about n
// elements.
__kernel void gemv_n(const int m, const int n0, const real alpha,
                     __global const real* a, const int lda,
                     __global const real* x, const int offx, const int incx,
                     const real beta, __global real* y, const int offy, const int incy,
                     const int tri, const int upper, const int unit, const int skipdiag,
                     __local real* scratch)
{
    const int g = get_group_id(0);
    gemv_n_row(g, n0, alpha, a, lda, x, offx, incx, beta, y, offy, incy, tri, upper, unit, skipdiag, scratch);
    const int g2 = m - 1 - g;
    if (tri && g2 > g) { // the same for the whole group
        barrier(CLK_LOCAL_MEM_FENCE); // scratch[0] read before it is reused
        gemv_n_row(g2, n0, alpha, a, lda, x, offx, incx, beta, y, offy, incy, tri, upper, unit, skipdiag, scratch);
    }
}

// GT_ONE builds gemv_t_part and gbmv_t_part as one launch that also does
// gemv_t_fin's work: they take these parameters after their own.
#ifdef GT_ONE
#define GT_ONE_PARAMS , volatile __global uint* tickets, const int terms, const real alpha, \
    const real beta, __global real* y, const int offy, const int incy, const int unit
#define GT_ONE_ARGS , tickets, terms, alpha, beta, y, offy, incy, unit
#else
#define GT_ONE_PARAMS
#define GT_ONE_ARGS
#endif

// GT_TREE adds the GT_TY slices of ls (GT_TY rows of GT_TX, work-item
// (lx, ly)'s at ly·GT_TX + lx) into its first row.
#define GT_TREE(ls)                                                          \
    for (int w = GT_TY / 2; w > 0; w >>= 1) {                                \
        if (ly < w) ls[ly * GT_TX + lx] += ls[(ly + w) * GT_TX + lx];        \
        barrier(CLK_LOCAL_MEM_FENCE);                                        \
    }

#ifdef GT_ONE
// gt_take takes the ticket of the group's column piece once every
// work-item has fenced its partials, and returns the number of row blocks
// whose partials the group must add: all of them (get_num_groups(1)) in
// the group that took the piece's last ticket, else 0.
static inline int gt_take(volatile __global uint* tickets, __local int* last)
{
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0 && get_local_id(1) == 0)
        *last = atomic_inc(tickets + get_group_id(0)) == (uint)get_num_groups(1) - 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    return *last ? (int)get_num_groups(1) : 0;
}

// GT_SUM_ROWS adds to t[0…W) the reals c0 + c of rows ly, ly + GT_TY, …
// below nb of p (rows of len reals), leaving out those at or past len;
// four rows at a time, their loads issued before they are added, so that
// they are in flight together (volatile loads keep their order, and one
// at a time each would wait for the last).
#define GT_SUM_ROWS(t, W, p, len, c0, nb)                                               \
    {                                                                                   \
        int g = ly;                                                                     \
        for (; g + 3 * GT_TY < (nb); g += 4 * GT_TY) {                                  \
            real v_[4][W];                                                              \
            for (int u = 0; u < 4; u++) {                                               \
                for (int c = 0; c < (W); c++)                                           \
                    v_[u][c] = (c0) + c < (len) ? (p)[(long)(g + u * GT_TY) * (len) + (c0) + c] : 0; \
            }                                                                           \
            for (int c = 0; c < (W); c++) t[c] += (v_[0][c] + v_[1][c]) + (v_[2][c] + v_[3][c]); \
        }                                                                               \
        for (; g < (nb); g += GT_TY) {                                                  \
            for (int c = 0; c < (W); c++) {                                             \
                if ((c0) + c < (len)) t[c] += (p)[(long)g * (len) + (c0) + c];          \
            }                                                                           \
        }                                                                               \
    }
#endif

// gemv_t_end adds a work-group's GT_TY slices of acc (its work-item's sums
// of columns j0…j0+L1_VW−1) in local memory ls and writes them to row gy of
// part. With GT_ONE the group then takes its column piece's ticket (after
// every work-item has fenced its writes, so that all of them come before
// the ticket): the group that takes the last of the piece's
// get_num_groups(1) tickets adds the piece's partials, row by row in every
// GT_TY-th row and then across the slices, as gemv_t_fin does, writes y
// there and puts the ticket back to 0 for the next launch. The partials
// are read through a volatile pointer, from memory rather than from a
// cache line another group's read left behind. The tickets are one uint a
// piece, created as 0, used by these kernels alone on one in-order queue,
// so each launch finds them at 0. No barrier sits in a branch: every
// group runs the merge's loops, empty in groups that are not last.
static inline void gemv_t_end(realv acc, __local realv* ls, __global real* part, const int gy, const int n,
                              const long j0, __local int* last,
                              __global const real* x, const int offx, const int incx GT_ONE_PARAMS)
{
    const int lx = get_local_id(0), ly = get_local_id(1);
    ls[ly * GT_TX + lx] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    GT_TREE(ls)
    if (ly == 0 && j0 < n) {
        const realv s = ls[lx];
        const real* sp = (const real*)&s;
        for (int c = 0; c < L1_VW && j0 + c < n; c++) part[(long)gy * n + j0 + c] = sp[c];
    }
#ifdef GT_ONE
    const int nb = gt_take(tickets, last);
    volatile __global const real* p = part;
    realv v = 0;
    real* t = (real*)&v;
    GT_SUM_ROWS(t, L1_VW, p, n, j0, nb)
    barrier(CLK_LOCAL_MEM_FENCE); // ls[lx] read above before it is reused
    ls[ly * GT_TX + lx] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    GT_TREE(ls)
    if (nb > 0 && ly == 0) {
        const realv s = ls[lx];
        const real* sp = (const real*)&s;
        for (int c = 0; c < L1_VW && j0 + c < n; c++) {
            const long j = j0 + c;
            real r = sp[c];
            if (unit) r += x[offx + j * incx];
            gemv_finish(y, offy + j * incy, alpha, r, beta, j < terms);
        }
        if (lx == 0) atomic_xchg(tickets + get_group_id(0), 0u);
    }
#endif
}

// gemv_t_part: rows [gy·rpb, min(m, (gy+1)·rpb)) of the m×n A, weighted by
// x, summed per column into part[gy·n + j]; with tri, only the rows of
// column j in the stored triangle (upper: i ≤ j, lower: i ≥ j; the
// diagonal left out for skipdiag or unit). The vector loads need every
// row's piece aligned: A at an aligned address and lda a multiple of
// L1_VW (the host checks lda, the kernel the address), else elements;
// rows where only some of a piece's columns are in the triangle go
// element by element too.
__kernel __attribute__((reqd_work_group_size(GT_TX, GT_TY, 1)))
void gemv_t_part(const int m, const int n, const int rpb,
                 __global const real* a, const int lda,
                 __global const real* x, const int offx, const int incx,
                 __global real* part, const int vec,
                 const int tri, const int upper, const int skipdiag GT_ONE_PARAMS)
{
    __local realv lsum[GT_TY * GT_TX]; // flat: the sums index it as ly·GT_TX + lx
    __local int last[1];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int gy = get_group_id(1);
    const long j0 = ((long)get_group_id(0) * GT_TX + lx) * L1_VW;
    const long i0 = (long)gy * rpb, i1 = min((long)m, i0 + rpb);
    const long e = skipdiag;
    // Rows where the whole piece is in the triangle, [fa, fb), and where
    // some of it is, [pa, pb).
    long fa = i0, fb = i1, pa = i0, pb = i0;
    if (tri && upper) {
        fb = min(i1, j0 - e + 1);
        pa = max(i0, fb);
        pb = min(i1, j0 + L1_VW - e);
    } else if (tri) {
        fa = max(i0, j0 + L1_VW - 1 + e);
        pa = max(i0, j0 + e);
        pb = min(i1, fa);
    }
    const int full = vec && l1_mis(a) == 0 && j0 + L1_VW <= n;
    realv acc = 0;
    real t[L1_VW];
    for (int c = 0; c < L1_VW; c++) t[c] = 0;
    if (j0 < n) {
        if (full) {
            // GT_U rows at a time into GT_U sums, so that each work-item
            // has GT_U loads in flight rather than one.
            realv accs[GT_U];
            for (int u = 0; u < GT_U; u++) accs[u] = 0;
            long i = fa + ly;
            for (; i + (GT_U - 1) * GT_TY < fb; i += GT_U * GT_TY) {
                realv v[GT_U];
                real xv[GT_U];
                for (int u = 0; u < GT_U; u++) {
                    v[u] = *(__global const realv*)(a + (i + u * GT_TY) * lda + j0);
                    xv[u] = x[offx + (i + u * GT_TY) * incx];
                }
                for (int u = 0; u < GT_U; u++) accs[u] += v[u] * xv[u];
            }
            for (; i < fb; i += GT_TY) {
                accs[0] += *(__global const realv*)(a + i * lda + j0) * x[offx + i * incx];
            }
            // Pairwise: ((a0 + a1) + (a2 + a3)) for four.
            for (int w = 1; w < GT_U; w <<= 1) {
                for (int u = 0; u + w < GT_U; u += 2 * w) accs[u] += accs[u + w];
            }
            acc = accs[0];
        } else {
            // Element by element over every row with a column in the
            // triangle: the full rows, then the partial ones below.
            for (long i = fa + ly; i < fb; i += GT_TY) {
                const real xi = x[offx + i * incx];
                for (int c = 0; c < L1_VW && j0 + c < n; c++) t[c] += a[i * lda + j0 + c] * xi;
            }
        }
        for (long i = pa + ly; i < pb; i += GT_TY) {
            const real xi = x[offx + i * incx];
            for (int c = 0; c < L1_VW && j0 + c < n; c++) {
                const long j = j0 + c;
                if (upper ? i <= j - e : i >= j + e) t[c] += a[i * lda + j] * xi;
            }
        }
        real* ap = (real*)&acc;
        for (int c = 0; c < L1_VW; c++) ap[c] += t[c];
    }
    gemv_t_end(acc, lsum, part, gy, n, j0, last, x, offx, incx GT_ONE_ARGS);
}

// gbmv_t_part: the transposed band product's partial sums, as
// gemv_t_part's over the m×n band A with kl sub- and ku super-diagonals
// in gonum's band storage, A(i, j) at a[i·lda + kl + j − i], that is
// at a[i·(lda−1) + kl + j]: a row's piece of consecutive columns is
// consecutive, and its rows are aligned alike when lda−1 and kl are
// multiples of L1_VW (vec; the kernel checks a). Work-group (gx, gy)
// takes GT_TX·L1_VW columns from J0 and the gy-th of nb slices of rpb
// rows of the rows the band reaches there, [max(0, J0 − ku), …), and
// writes part[gy·n + j] (zero where its slice has no row of the band).
// Rows where the whole piece is in the band take vector loads, the rows
// at the band's two edges go element by element; nothing outside the
// band is read.
__kernel __attribute__((reqd_work_group_size(GT_TX, GT_TY, 1)))
void gbmv_t_part(const int m, const int n, const int kl, const int ku, const int rpb,
                 __global const real* a, const int lda,
                 __global const real* x, const int offx, const int incx,
                 __global real* part, const int vec GT_ONE_PARAMS)
{
    __local realv lsum[GT_TY * GT_TX]; // flat: the sums index it as ly·GT_TX + lx
    __local int last[1];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int gy = get_group_id(1);
    const long J0 = (long)get_group_id(0) * GT_TX * L1_VW;
    const long j0 = J0 + (long)lx * L1_VW;
    const long ld = lda - 1;
    const long r0 = max(0L, J0 - ku) + (long)gy * rpb;
    const long i0 = r0, i1 = min((long)m, min(r0 + rpb, J0 + GT_TX * L1_VW + kl));
    // Rows where all of the piece is in the band, [fa, fb); those where
    // some of it is: [ta, fa) above and [fb, tb) below.
    const long ta = max(i0, j0 - ku), tb = min(i1, j0 + L1_VW + kl);
    const long fa = min(tb, max(ta, j0 + L1_VW - 1 - ku)), fb = max(fa, min(tb, j0 + kl + 1));
    const int full = vec && l1_mis(a) == 0 && j0 + L1_VW <= n;
    realv acc = 0;
    real t[L1_VW];
    for (int c = 0; c < L1_VW; c++) t[c] = 0;
    if (j0 < n) {
        long i = fa + ly;
        if (full) {
            realv accs[GT_U];
            for (int u = 0; u < GT_U; u++) accs[u] = 0;
            for (; i + (GT_U - 1) * GT_TY < fb; i += GT_U * GT_TY) {
                realv v[GT_U];
                real xv[GT_U];
                for (int u = 0; u < GT_U; u++) {
                    v[u] = *(__global const realv*)(a + (i + u * GT_TY) * ld + kl + j0);
                    xv[u] = x[offx + (i + u * GT_TY) * incx];
                }
                for (int u = 0; u < GT_U; u++) accs[u] += v[u] * xv[u];
            }
            for (; i < fb; i += GT_TY) {
                accs[0] += *(__global const realv*)(a + i * ld + kl + j0) * x[offx + i * incx];
            }
            for (int w = 1; w < GT_U; w <<= 1) {
                for (int u = 0; u + w < GT_U; u += 2 * w) accs[u] += accs[u + w];
            }
            acc = accs[0];
        }
        // The full rows without vector loads, then the edges'.
        for (; i < fb; i += GT_TY) {
            const real xi = x[offx + i * incx];
            for (int c = 0; c < L1_VW && j0 + c < n; c++) t[c] += a[i * ld + kl + j0 + c] * xi;
        }
        for (long e = 0; e < 2; e++) {
            const long ea = e ? fb : ta, eb = e ? tb : fa;
            for (long i = ea + ly; i < eb; i += GT_TY) {
                const real xi = x[offx + i * incx];
                for (int c = 0; c < L1_VW && j0 + c < n; c++) {
                    const long j = j0 + c;
                    if (j - i <= ku && i - j <= kl) t[c] += a[i * ld + kl + j] * xi;
                }
            }
        }
        real* ap = (real*)&acc;
        for (int c = 0; c < L1_VW; c++) ap[c] += t[c];
    }
    gemv_t_end(acc, lsum, part, gy, n, j0, last, x, offx, incx GT_ONE_ARGS);
}

// gemv_t_fin: y(j) = alpha·(Σ_{g < nb} part[g·n + j] + (unit ? x(j) : 0))
// + beta·y(j) (a unit diagonal's 1 times x(j)); the sums of columns
// j < terms had terms (a band's columns past its last row have none).
// Work-groups of GF_TX columns by GF_TY slices of the partials: each
// work-item sums every GF_TY-th partial of its column (two at a time, so
// that each has loads in flight), and the slices are added in local
// memory. With hundreds of partials per column (SYMV's) a work-item per
// column would wait on one load after another.
#define GF_TX 32
#define GF_TY 8
__kernel __attribute__((reqd_work_group_size(GF_TX, GF_TY, 1)))
void gemv_t_fin(const int terms, const int n, const int nb, const real alpha,
                __global const real* part,
                const real beta, __global real* y, const int offy, const int incy,
                const int unit, __global const real* x, const int offx, const int incx)
{
    __local real sums[GF_TY][GF_TX + 1];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int j = get_group_id(0) * GF_TX + lx;
    real s0 = 0, s1 = 0;
    if (j < n) {
        int g = ly;
        for (; g + GF_TY < nb; g += 2 * GF_TY) {
            s0 += part[(long)g * n + j];
            s1 += part[(long)(g + GF_TY) * n + j];
        }
        if (g < nb) s0 += part[(long)g * n + j];
    }
    sums[ly][lx] = s0 + s1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (ly != 0 || j >= n) return;
    real s = 0;
    for (int q = 0; q < GF_TY; q++) s += sums[q][lx];
    if (unit) s += x[offx + (long)j * incx];
    gemv_finish(y, offy + (long)j * incy, alpha, s, beta, j < terms);
}

// RK_PACKED builds syr_rows for packed storage (SPR, SPR2): row r of the
// triangle, indexed by column, starts at RK_ROW (gonum's upper packed rows
// hold A(r, r…n−1), its lower ones A(r, 0…r)), and lda is not read. Packed
// rows are not aligned, so the vector path loads and stores them with
// vloadn and vstoren, which need only an element's alignment.
#ifdef RK_PACKED
#define RK_ROW(a, r, lda, n, upper) \
    ((a) + ((upper) ? (long)(r) * (2L * (n) - (r) - 1) / 2 : (long)(r) * ((r) + 1) / 2))
#if L1_VW == 1
#define RK_VLD(p) (*(p))
#define RK_VST(v, p) (*(p) = (v))
#else
#define RK_VLD(p) L1_CAT(vload, L1_VW)(0, (p))
#define RK_VST(v, p) L1_CAT(vstore, L1_VW)((v), 0, (p))
#endif
#else
#define RK_ROW(a, r, lda, n, upper) ((a) + (long)(r) * (lda))
#define RK_VLD(p) (*(__global const realv*)(p))
#define RK_VST(v, p) (*(__global realv*)(p) = (v))
#endif

// syr_row is syr_rows' row r of its columns j0… (L1_VW of them, fewer at
// the end): A(r, c) += t·y(c) (syr: t = alpha·x(r), y is x), or
// A(r, c) += alpha·(x(r)·y(c) + x(c)·y(r)) (two), as gonum computes them,
// for the columns c of the stored triangle (upper: c ≥ r). A row whose
// columns all lie in the triangle is one vector load and store where full
// says the piece is aligned (xv, yv: x's and y's elements there).
static inline void syr_row(const int r, const long j0, const int n, const int upper, const int two,
                           const real alpha, const int skipzero, const int full,
                           __global const real* px, const int incx,
                           __global const real* py, const int incy,
                           __global real* a, const int lda, const realv xv, const realv yv)
{
    const real xr = px[(long)r * incx];
    const real yr = two ? py[(long)r * incy] : 0;
    const real t = alpha * xr;
    if (!two && skipzero && t == (real)0) return;
    __global real* row = RK_ROW(a, r, lda, n, upper);
    // The row's columns in the triangle: upper c ≥ r, lower c ≤ r.
    const long lo = upper ? max(j0, (long)r) : j0;
    const long hi = upper ? min(j0 + L1_VW, (long)n) : min(j0 + L1_VW, (long)r + 1);
    if (full && lo == j0 && hi == j0 + L1_VW) {
        RK_VST(RK_VLD(row + j0) + (two ? alpha * (xr * yv + xv * yr) : t * yv), row + j0);
        return;
    }
    for (long c = lo; c < hi; c++) {
        const real yc = py[c * incy];
        row[c] += two ? alpha * (xr * yc + px[c * incx] * yr) : t * yc;
    }
}

// syr_rows: the stored triangle of the dense (or, with RK_PACKED, packed)
// symmetric n×n A (upper: the elements (r, c) with c ≥ r) += alpha·x·xᵀ (syr: y is x; the rows whose
// alpha·x(r) is zero are skipped when skipzero, gonum's rule) or
// alpha·(x·yᵀ + y·xᵀ) (two). Dimension 0 takes L1_VW-column pieces of the
// rows, as ger_rows does (vec: lda is a multiple of L1_VW; the kernel
// checks the addresses); group row gy takes the rows gy·h … gy·h+h−1 of
// its columns' part of the triangle, strided over its work-items, and
// returns at once where that part has none of them, so that the grid
// covers the square and the work-groups the triangle.
__kernel void syr_rows(const int upper, const int two, const int skipzero, const int n, const real alpha,
                       __global const real* x, const int offx, const int incx,
                       __global const real* y, const int offy, const int incy,
                       __global real* a, const int lda, const int vec, const int h)
{
    const long j0 = (long)get_global_id(0) * L1_VW;
    if (j0 >= n) return;
    // The rows that hold columns j0… in the triangle.
    const long tlo = upper ? 0 : j0;
    const long thi = upper ? min(j0 + L1_VW, (long)n) : n;
    const long b0 = (long)get_group_id(1) * h;
    const int lo = (int)max(tlo, b0), hi = (int)min(thi, b0 + h);
    if (lo >= hi) return;
    __global const real* px = x + offx;
    __global const real* py = two ? y + offy : px;
    const int iy = two ? incy : incx;
#ifdef RK_PACKED
    const int aok = 1;
#else
    const int aok = vec && l1_mis(a) == 0;
#endif
    const int full = aok && incx == 1 && iy == 1 && l1_mis(px) == 0 && l1_mis(py) == 0 && j0 + L1_VW <= n;
    realv xv = 0, yv = 0;
    if (full) {
        yv = *(__global const realv*)(py + j0);
        xv = *(__global const realv*)(px + j0);
    }
    const int ls = get_local_size(1);
    int r = lo + get_local_id(1);
    // The rows whose columns all lie in the triangle (upper r ≤ j0, lower
    // r ≥ j0 + L1_VW − 1), GR_U at a time, all loaded before any is
    // stored (ger_rows' reason).
    const int flo = upper ? lo : max(lo, (int)(j0 + L1_VW - 1));
    const int fhi = upper ? min(hi, (int)j0 + 1) : hi;
    if (full)
        for (; r < flo; r += ls)
            syr_row(r, j0, n, upper, two, alpha, skipzero, full, px, incx, py, iy, a, lda, xv, yv);
    if (full && r >= flo)
        for (; r + (GR_U - 1) * ls < fhi; r += GR_U * ls) {
            realv v[GR_U];
            real xr[GR_U], yr[GR_U];
            for (int u = 0; u < GR_U; u++) {
                const long rr = r + u * ls;
                xr[u] = px[rr * incx];
                yr[u] = two ? py[rr * iy] : 0;
                v[u] = RK_VLD(RK_ROW(a, rr, lda, n, upper) + j0);
            }
            for (int u = 0; u < GR_U; u++) {
                const real t = alpha * xr[u];
                if (!two && skipzero && t == (real)0) continue;
                RK_VST(v[u] + (two ? alpha * (xr[u] * yv + xv * yr[u]) : t * yv),
                       RK_ROW(a, r + u * ls, lda, n, upper) + j0);
            }
        }
    for (; r < hi; r += ls)
        syr_row(r, j0, n, upper, two, alpha, skipzero, full, px, incx, py, iy, a, lda, xv, yv);
}

// ger_rows: A(r, :) += (alpha·x(r))·y for the dense m×n A, skipping rows
// whose alpha·x(r) is zero when skipzero (gonum's rule for the routine).
// Dimension 0 takes L1_VW-column pieces of a row (one vector load and
// store when A's rows and y are aligned: vec says lda is a multiple of
// L1_VW, the kernel checks the addresses), dimension 1 strides over rows,
// so each work-item loads its piece of y once.
__kernel void ger_rows(const int m, const int n, const real alpha, const int skipzero,
                       __global const real* x, const int offx, const int incx,
                       __global const real* y, const int offy, const int incy,
                       __global real* a, const int lda, const int vec)
{
    const long j0 = (long)get_global_id(0) * L1_VW;
    if (j0 >= n) return;
    __global const real* py = y + offy;
    const int full = vec && incy == 1 && l1_mis(a) == 0 && l1_mis(py) == 0 && j0 + L1_VW <= n;
    realv yv = 0;
    if (full) yv = *(__global const realv*)(py + j0);
    const int gs = get_global_size(1);
    int r = get_global_id(1);
    if (full) {
        // GR_U rows at a time, all loaded before any is stored, so that
        // each work-item has GR_U loads in flight (the compiler cannot
        // move a load past a store to the same buffer).
        for (; r + (GR_U - 1) * gs < m; r += GR_U * gs) {
            realv v[GR_U];
            real t[GR_U];
            for (int u = 0; u < GR_U; u++) {
                const long rr = r + u * gs;
                t[u] = alpha * x[offx + rr * incx];
                v[u] = *(__global const realv*)(a + rr * lda + j0);
            }
            for (int u = 0; u < GR_U; u++) {
                if (skipzero && t[u] == (real)0) continue;
                *(__global realv*)(a + (long)(r + u * gs) * lda + j0) = v[u] + t[u] * yv;
            }
        }
    }
    for (; r < m; r += gs) {
        const real t = alpha * x[offx + (long)r * incx];
        if (skipzero && t == (real)0) continue;
        __global real* row = a + (long)r * lda;
        if (full) {
            __global realv* p = (__global realv*)(row + j0);
            *p += t * yv;
        } else {
            for (int c = 0; c < L1_VW && j0 + c < n; c++) row[j0 + c] += t * py[(j0 + c) * incy];
        }
    }
}

// zger_rows: the complex rank-1 updates of the dense m×n A, as ger_rows
// does the real one, on the reals of complex vectors and matrices (x, y
// and a point at reals, offx, offy and lda count reals, incx and incy
// complex elements; level1.cl's complex section gives realz, Z_VW and
// z_mul). Dimension 0 takes pieces of Z_VW/2 columns, dimension 1 strides
// over rows. gonum's order of operations:
//  - geru (conj == 0): t = alpha·x(r) for each row r whose x(r) is not
//    zero, then A(r, c) += t·y(c);
//  - gerc (conj != 0): t(c) = alpha·conj(y(c)) for each column c whose
//    y(c) is not zero, then A(r, c) += t(c)·x(r).
// A product u·s of a piece u and a scalar s is u·Re s + ũ·Im s lane by
// lane, ũ with each element's parts exchanged and the new real part
// negated: exactly Go's terms.
__kernel void zger_rows(const int m, const int n, const real are, const real aim, const int conj,
                        __global const real* x, const int offx, const int incx,
                        __global const real* y, const int offy, const int incy,
                        __global real* a, const int lda, const int vec)
{
    const long j0 = (long)get_global_id(0) * (Z_VW / 2);
    if (j0 >= n) return;
    __global const real* py = y + offy;
    const int full = vec && incy == 1 && (ulong)a % Z_VBYTES == 0 && (ulong)py % Z_VBYTES == 0 &&
                     j0 + Z_VW / 2 <= n;
    // The piece's factor u (y's elements for geru, t(c) for gerc) and ũ,
    // and for gerc the lanes of the columns it updates.
    realz u = 0, w = 0;
    zmask keep = 0;
    if (full) {
        const realz yz = *(__global const realz*)(py + 2 * j0);
        u = conj ? z_mul(are, aim, yz * -Z_ALT) : yz;
        w = Z_SWAP(u) * Z_ALT;
        keep = (yz != (realz)0) | (Z_SWAP(yz) != (realz)0);
    }
    const int gs = get_global_size(1);
    int r = get_global_id(1);
    if (full) {
        // ZGR_U rows at a time, all loaded before any is stored.
        for (; r + (ZGR_U - 1) * gs < m; r += ZGR_U * gs) {
            realz v[ZGR_U];
            real2 xr[ZGR_U];
            for (int k = 0; k < ZGR_U; k++) {
                const long rr = r + k * gs;
                xr[k] = vload2(0, x + offx + 2 * rr * incx);
                v[k] = *(__global const realz*)(a + rr * lda + 2 * j0);
            }
            for (int k = 0; k < ZGR_U; k++) {
                __global realz* p = (__global realz*)(a + (long)(r + k * gs) * lda + 2 * j0);
                if (conj) {
                    *p = select(v[k], v[k] + (u * xr[k].x + w * xr[k].y), keep);
                } else if (xr[k].x != (real)0 || xr[k].y != (real)0) {
                    const real2 t = z_mul1(are, aim, xr[k]);
                    *p = v[k] + (u * t.x + w * t.y);
                }
            }
        }
    }
    for (; r < m; r += gs) {
        const real2 xr = vload2(0, x + offx + 2 * (long)r * incx);
        if (!conj && xr.x == (real)0 && xr.y == (real)0) continue;
        __global real* row = a + (long)r * lda;
        const real2 t = z_mul1(are, aim, xr);
        if (full) {
            __global realz* p = (__global realz*)(row + 2 * j0);
            const realz v = *p;
            *p = conj ? select(v, v + (u * xr.x + w * xr.y), keep) : v + (u * t.x + w * t.y);
            continue;
        }
        for (int c = 0; c < Z_VW / 2 && j0 + c < n; c++) {
            const real2 yc = vload2(0, py + 2 * (j0 + c) * incy);
            if (!conj) {
                vstore2(vload2(j0 + c, row) + z_mul1(t.x, t.y, yc), j0 + c, row);
            } else if (yc.x != (real)0 || yc.y != (real)0) {
                const real2 tc = z_mul1(are, aim, (real2)(yc.x, -yc.y));
                vstore2(vload2(j0 + c, row) + z_mul1(tc.x, tc.y, xr), j0 + c, row);
            }
        }
    }
}

// zgemv_finish stores the complex y(j) = alpha·s + beta·y(j) at py
// (beta == 0 assigns, beta == 1 keeps y(j) as it is, alpha·s is added
// only if the sum had terms).
static inline void zgemv_finish(__global real* py, const real are, const real aim, const real2 s,
                                const real bre, const real bim, const int terms)
{
    real2 r = 0;
    if (bre == (real)1 && bim == (real)0) {
        r = vload2(0, py);
    } else if (bre != (real)0 || bim != (real)0) {
        r = z_mul1(bre, bim, vload2(0, py));
    }
    if (terms) r += z_mul1(are, aim, s);
    vstore2(r, 0, py);
}

// GT_ONE builds zgemv_t_part, too, as one launch that also does
// zgemv_t_fin's work, with these parameters after its own.
#ifdef GT_ONE
#define ZGT_ONE_PARAMS , volatile __global uint* tickets, const int terms, const real are, const real aim, \
    const real bre, const real bim, __global real* y, const int offy, const int incy
#define ZGT_ONE_ARGS , tickets, terms, are, aim, bre, bim, y, offy, incy
#else
#define ZGT_ONE_PARAMS
#define ZGT_ONE_ARGS
#endif

// zgemv_t_end is gemv_t_end for zgemv_t_part's complex sums (Z_VW/2
// columns a work-item, two reals a partial).
static inline void zgemv_t_end(realz acc, __local realz* ls, __global real* part, const int gy, const int n,
                               const long j0, __local int* last ZGT_ONE_PARAMS)
{
    const int lx = get_local_id(0), ly = get_local_id(1);
    ls[ly * GT_TX + lx] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    GT_TREE(ls)
    if (ly == 0 && j0 < n) {
        const realz s = ls[lx];
        const real* sp = (const real*)&s;
        for (int c = 0; c < Z_VW / 2 && j0 + c < n; c++)
            vstore2((real2)(sp[2 * c], sp[2 * c + 1]), (long)gy * n + j0 + c, part);
    }
#ifdef GT_ONE
    const int nb = gt_take(tickets, last);
    volatile __global const real* p = part;
    realz v = 0;
    real* t = (real*)&v;
    GT_SUM_ROWS(t, Z_VW, p, 2 * n, 2 * j0, nb)
    barrier(CLK_LOCAL_MEM_FENCE); // ls[lx] read above before it is reused
    ls[ly * GT_TX + lx] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    GT_TREE(ls)
    if (nb > 0 && ly == 0) {
        const realz s = ls[lx];
        const real* sp = (const real*)&s;
        for (int c = 0; c < Z_VW / 2 && j0 + c < n; c++) {
            zgemv_finish(y + offy + 2 * (j0 + c) * incy, are, aim, (real2)(sp[2 * c], sp[2 * c + 1]), bre, bim, terms);
        }
        if (lx == 0) atomic_xchg(tickets + get_group_id(0), 0u);
    }
#endif
}

// zgemv_t_part: the complex transposed product's partial sums, as
// gemv_t_part's for a dense general A with no triangle, on reals (a, x
// point at reals, lda and offx count reals, incx complex elements): rows
// [gy·rpb, min(m, (gy+1)·rpb)) of the m×n complex A, times x, summed per
// column into the complex part[gy·n + j], of A(i, j)·x(i) or, with conj,
// conj(A(i, j))·x(i). A work-item takes Z_VW/2 columns. On the vector
// path it sums p = Σ v·Re x(i) and q = Σ v·Im x(i) over its row pieces v,
// and forms the complex sums once: p + q̃ (q̃ with each element's parts
// exchanged, the new real part negated), or, with conj, p̄ + q with q's
// parts exchanged (p̄ with the imaginary parts negated): the terms of the
// complex products, summed in another order. The host sends only finite
// operands here (complex_finite.go), where the order changes nothing but
// rounding.
__kernel __attribute__((reqd_work_group_size(GT_TX, GT_TY, 1)))
void zgemv_t_part(const int m, const int n, const int rpb, const int conj,
                  __global const real* a, const int lda,
                  __global const real* x, const int offx, const int incx,
                  __global real* part, const int vec ZGT_ONE_PARAMS)
{
    __local realz lsum[GT_TY * GT_TX]; // flat: the sums index it as ly·GT_TX + lx
    __local int last[1];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int gy = get_group_id(1);
    const long j0 = ((long)get_group_id(0) * GT_TX + lx) * (Z_VW / 2);
    const long i0 = (long)gy * rpb, i1 = min((long)m, i0 + rpb);
    const int full = vec && (ulong)a % Z_VBYTES == 0 && j0 + Z_VW / 2 <= n;
    realz acc = 0;
    if (j0 < n && full) {
        realz p[GT_U], q[GT_U];
        for (int u = 0; u < GT_U; u++) p[u] = q[u] = 0;
        long i = i0 + ly;
        for (; i + (GT_U - 1) * GT_TY < i1; i += GT_U * GT_TY) {
            realz v[GT_U];
            real2 xv[GT_U];
            for (int u = 0; u < GT_U; u++) {
                v[u] = *(__global const realz*)(a + (i + u * GT_TY) * lda + 2 * j0);
                xv[u] = vload2(0, x + offx + 2 * (i + u * GT_TY) * incx);
            }
            for (int u = 0; u < GT_U; u++) {
                p[u] += v[u] * xv[u].x;
                q[u] += v[u] * xv[u].y;
            }
        }
        for (; i < i1; i += GT_TY) {
            const realz v = *(__global const realz*)(a + i * lda + 2 * j0);
            const real2 xi = vload2(0, x + offx + 2 * i * incx);
            p[0] += v * xi.x;
            q[0] += v * xi.y;
        }
        for (int w = 1; w < GT_U; w <<= 1) {
            for (int u = 0; u + w < GT_U; u += 2 * w) {
                p[u] += p[u + w];
                q[u] += q[u + w];
            }
        }
        acc = conj ? p[0] * -Z_ALT + Z_SWAP(q[0]) : p[0] + Z_SWAP(q[0]) * Z_ALT;
    } else if (j0 < n) {
        real2 t[Z_VW / 2];
        for (int c = 0; c < Z_VW / 2; c++) t[c] = 0;
        for (long i = i0 + ly; i < i1; i += GT_TY) {
            const real2 xi = vload2(0, x + offx + 2 * i * incx);
            for (int c = 0; c < Z_VW / 2 && j0 + c < n; c++) {
                real2 v = vload2(j0 + c, a + i * lda);
                if (conj) v.y = -v.y;
                t[c] += z_mul1(v.x, v.y, xi);
            }
        }
        real* ap = (real*)&acc;
        for (int c = 0; c < Z_VW / 2; c++) {
            ap[2 * c] = t[c].x;
            ap[2 * c + 1] = t[c].y;
        }
    }
    zgemv_t_end(acc, lsum, part, gy, n, j0, last ZGT_ONE_ARGS);
}

// zgemv_t_fin: y(j) = alpha·Σ_{g < nb} part[g·n + j] + beta·y(j) for the
// complex partials of zgemv_t_part (part and y point at reals, offy counts
// reals, incy complex elements): beta == 0 assigns, beta == 1 keeps y(j)
// as it is; terms == 0 (no rows) leaves beta·y(j). The work-groups are
// gemv_t_fin's.
__kernel __attribute__((reqd_work_group_size(GF_TX, GF_TY, 1)))
void zgemv_t_fin(const int terms, const int n, const int nb, const real are, const real aim,
                 __global const real* part,
                 const real bre, const real bim, __global real* y, const int offy, const int incy)
{
    __local real2 sums[GF_TY][GF_TX + 1];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int j = get_group_id(0) * GF_TX + lx;
    real2 s0 = 0, s1 = 0;
    if (j < n) {
        int g = ly;
        for (; g + GF_TY < nb; g += 2 * GF_TY) {
            s0 += vload2((long)g * n + j, part);
            s1 += vload2((long)(g + GF_TY) * n + j, part);
        }
        if (g < nb) s0 += vload2((long)g * n + j, part);
    }
    sums[ly][lx] = s0 + s1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (ly != 0 || j >= n) return;
    real2 s = 0;
    for (int q = 0; q < GF_TY; q++) s += sums[q][lx];
    zgemv_finish(y + offy + 2 * (long)j * incy, are, aim, s, bre, bim, terms);
}

// ZH_PACKED builds zher_rows for packed storage (HPR, HPR2): row r of the
// triangle, in reals and indexed by column, starts at ZH_ROW (RK_ROW's
// rows, two reals an element), lda is not read, and vloadn and vstoren
// take the unaligned pieces. The rank-1 update then has gonum's Zhpr
// arithmetic, not its Zher's: t = (α + 0i)·x(r) (ZH_T), and the diagonal
// gains α·Re(conj(x(r))·x(r)) (ZH_DIAG). Zhpr2 computes as Zher2 does.
#ifdef ZH_PACKED
#define ZH_ROW(a, r, lda, n, upper) \
    ((a) + 2 * ((upper) ? (long)(r) * (2L * (n) - (r) - 1) / 2 : (long)(r) * ((r) + 1) / 2))
#define ZH_VLD(p) L1_CAT(vload, Z_VW)(0, (p))
#define ZH_VST(v, p) L1_CAT(vstore, Z_VW)((v), 0, (p))
#define ZH_T(are, xr) z_mul1((are), (real)0, (xr))
#define ZH_DIAG(are, t, xr) ((are) * ((xr).x * (xr).x - (-(xr).y) * (xr).y))
#else
#define ZH_ROW(a, r, lda, n, upper) ((a) + (long)(r) * (lda))
#define ZH_VLD(p) (*(__global const realz*)(p))
#define ZH_VST(v, p) (*(__global realz*)(p) = (v))
#define ZH_T(are, xr) ((are) * (xr))
#define ZH_DIAG(are, t, xr) z_mul1((t).x, (t).y, (real2)((xr).x, -(xr).y)).x
#endif

// zher_row is zher_rows' row r of its columns j0… (Z_VW/2 of them, fewer
// at the end), the columns c of the stored triangle (upper: c ≥ r), as
// gonum computes them: her (two == 0) takes t = (α·Re x(r), α·Im x(r))
// (alpha real: are) and A(r, c) += t·conj(x(c)); her2 takes t1 = α·x(r),
// t2 = conj(α)·y(r) and A(r, c) += t1·conj(y(c)) + t2·conj(x(c)). The
// diagonal element becomes (Re A(r, r) + Re t·conj(x(r)), 0) (her2: both
// terms' real parts, added in that order). A row gonum skips (x(r) == 0;
// her2: and y(r) == 0) only has the imaginary part of its diagonal
// cleared. A row whose piece lies off the diagonal, in the triangle, is
// one vector load and store where full says the piece is aligned (ux,
// uy: conj(x) and conj(y) there; wx, wy the same with each element's
// parts exchanged and the new real part negated).
static inline void zher_row(const int r, const long j0, const int n, const int upper, const int two,
                            const real are, const real aim, const int full,
                            __global const real* px, const int incx,
                            __global const real* py, const int incy, __global real* a, const int lda,
                            const realz ux, const realz wx, const realz uy, const realz wy)
{
    const real2 xr = vload2(0, px + 2 * (long)r * incx);
    const real2 yr = two ? vload2(0, py + 2 * (long)r * incy) : (real2)0;
    const int skip = xr.x == (real)0 && xr.y == (real)0 && (!two || (yr.x == (real)0 && yr.y == (real)0));
    const real2 t1 = two ? z_mul1(are, aim, xr) : ZH_T(are, xr);
    const real2 t2 = two ? z_mul1(are, -aim, yr) : (real2)0;
    __global real* row = ZH_ROW(a, r, lda, n, upper);
    const long lo = upper ? max(j0, (long)r) : j0;
    const long hi = upper ? min(j0 + Z_VW / 2, (long)n) : min(j0 + Z_VW / 2, (long)r + 1);
    if (full && lo == j0 && hi == j0 + Z_VW / 2 && (r < j0 || r >= j0 + Z_VW / 2)) {
        if (skip) return;
        __global real* p = row + 2 * j0;
        ZH_VST(ZH_VLD(p) + (two ? (uy * t1.x + wy * t1.y) + (ux * t2.x + wx * t2.y) : ux * t1.x + wx * t1.y), p);
        return;
    }
    for (long c = lo; c < hi; c++) {
        const real2 v = vload2(c, row);
        const real2 xc = vload2(0, px + 2 * c * incx);
        if (c == r) {
            real d = v.x;
            if (!skip && two) {
                d = d + z_mul1(t1.x, t1.y, (real2)(yr.x, -yr.y)).x;
                d = d + z_mul1(t2.x, t2.y, (real2)(xr.x, -xr.y)).x;
            } else if (!skip) {
                d = d + ZH_DIAG(are, t1, xr);
            }
            vstore2((real2)(d, 0), c, row);
        } else if (!skip && two) {
            const real2 yc = vload2(0, py + 2 * c * incy);
            vstore2(v + (z_mul1(t1.x, t1.y, (real2)(yc.x, -yc.y)) + z_mul1(t2.x, t2.y, (real2)(xc.x, -xc.y))), c, row);
        } else if (!skip) {
            vstore2(v + z_mul1(t1.x, t1.y, (real2)(xc.x, -xc.y)), c, row);
        }
    }
}

// zher_rows: the stored triangle of the dense (or, with ZH_PACKED, packed)
// Hermitian n×n A += α·x·xᴴ (her, hpr: α real) or α·x·yᴴ + conj(α)·y·xᴴ
// (two), on reals as zger_rows (offx, offy and lda count reals, incx and
// incy complex elements), with syr_rows' launch: dimension 0 takes pieces
// of Z_VW/2 columns, group row gy the rows gy·h … gy·h+h−1 of its
// columns' part of the triangle, strided over its work-items; a group
// whose part has none of them returns at once.
__kernel void zher_rows(const int upper, const int two, const int n, const real are, const real aim,
                        __global const real* x, const int offx, const int incx,
                        __global const real* y, const int offy, const int incy,
                        __global real* a, const int lda, const int vec, const int h)
{
    const long j0 = (long)get_global_id(0) * (Z_VW / 2);
    if (j0 >= n) return;
    const long tlo = upper ? 0 : j0;
    const long thi = upper ? min(j0 + Z_VW / 2, (long)n) : n;
    const long b0 = (long)get_group_id(1) * h;
    const int lo = (int)max(tlo, b0), hi = (int)min(thi, b0 + h);
    if (lo >= hi) return;
    __global const real* px = x + offx;
    __global const real* py = two ? y + offy : px;
    const int iy = two ? incy : incx;
#ifdef ZH_PACKED
    const int aok = 1;
#else
    const int aok = vec && (ulong)a % Z_VBYTES == 0;
#endif
    const int full = aok && incx == 1 && iy == 1 && (ulong)px % Z_VBYTES == 0 && (ulong)py % Z_VBYTES == 0 &&
                     j0 + Z_VW / 2 <= n;
    realz ux = 0, wx = 0, uy = 0, wy = 0;
    if (full) {
        ux = *(__global const realz*)(px + 2 * j0) * -Z_ALT;
        uy = *(__global const realz*)(py + 2 * j0) * -Z_ALT;
        wx = Z_SWAP(ux) * Z_ALT;
        wy = Z_SWAP(uy) * Z_ALT;
    }
    const int ls = get_local_size(1);
    int r = lo + get_local_id(1);
    // The rows whose piece lies off the diagonal in the triangle (upper
    // r < j0, lower r ≥ j0 + Z_VW/2), GR_U at a time, all loaded before
    // any is stored (ger_rows' reason).
    const int flo = upper ? lo : max(lo, (int)(j0 + Z_VW / 2));
    const int fhi = upper ? min(hi, (int)j0) : hi;
    if (full)
        for (; r < flo; r += ls)
            zher_row(r, j0, n, upper, two, are, aim, full, px, incx, py, iy, a, lda, ux, wx, uy, wy);
    if (full && r >= flo)
        for (; r + (GR_U - 1) * ls < fhi; r += GR_U * ls) {
            realz v[GR_U];
            real2 xr[GR_U], yr[GR_U];
            for (int k = 0; k < GR_U; k++) {
                const long rr = r + k * ls;
                xr[k] = vload2(0, px + 2 * rr * incx);
                yr[k] = two ? vload2(0, py + 2 * rr * iy) : (real2)0;
                v[k] = ZH_VLD(ZH_ROW(a, rr, lda, n, upper) + 2 * j0);
            }
            for (int k = 0; k < GR_U; k++) {
                if (xr[k].x == (real)0 && xr[k].y == (real)0 && (!two || (yr[k].x == (real)0 && yr[k].y == (real)0)))
                    continue;
                __global real* p = ZH_ROW(a, r + k * ls, lda, n, upper) + 2 * j0;
                if (two) {
                    const real2 t1 = z_mul1(are, aim, xr[k]), t2 = z_mul1(are, -aim, yr[k]);
                    ZH_VST(v[k] + ((uy * t1.x + wy * t1.y) + (ux * t2.x + wx * t2.y)), p);
                } else {
                    const real2 t = ZH_T(are, xr[k]);
                    ZH_VST(v[k] + (ux * t.x + wx * t.y), p);
                }
            }
        }
    for (; r < hi; r += ls)
        zher_row(r, j0, n, upper, two, are, aim, full, px, incx, py, iy, a, lda, ux, wx, uy, wy);
}

// zgemv_n: the complex y = alpha·A·x + beta·y for the dense general m×n A
// (the dot-product orientation of gemv_n, without triangles), on reals (a,
// x, y point at reals, lda, offx and offy count reals, incx and incy
// complex elements): work-group i takes row i, its work-items striding
// along it; on the unit-stride path each lane sums p = Σ a·x and q = Σ a·x̃
// (x̃: each element's parts exchanged), and the row's sum is p's even lanes
// minus its odd ones and q's even lanes plus its odd ones (zdot's terms).
// beta == 0 assigns, beta == 1 keeps y(i) as it is; n == 0 leaves
// beta·y(i). The host sends only finite operands (complex_finite.go).
__kernel void zgemv_n(const int m, const int n, const real are, const real aim,
                      __global const real* a, const int lda,
                      __global const real* x, const int offx, const int incx,
                      const real bre, const real bim, __global real* y, const int offy, const int incy,
                      __local real2* scratch)
{
    const int i = get_group_id(0);
    const int lid = get_local_id(0), ls = get_local_size(0);
    __global const real* row = a + (long)i * lda;
    __global const real* px = x + offx;
    real2 acc = 0;
    if (incx == 1) {
        Z_SPLIT(row, px, n, h, nv)
        const long t = h + nv * (Z_VW / 2);
        for (long j = lid; j < h; j += ls) acc += z_dot1(0, vload2(j, row), vload2(j, px));
        for (long j = t + lid; j < n; j += ls) acc += z_dot1(0, vload2(j, row), vload2(j, px));
        __global const realz* va = (__global const realz*)(row + 2 * h);
        __global const realz* vx = (__global const realz*)(px + 2 * h);
        realz p[L1_UNROLL], q[L1_UNROLL];
        L1_FOR_U { p[u] = 0; q[u] = 0; }
        long v = lid;
        for (; v + (L1_UNROLL - 1) * ls < nv; v += L1_UNROLL * ls) {
            realz b[L1_UNROLL], c[L1_UNROLL];
            L1_FOR_U {
                b[u] = va[v + u * ls];
                c[u] = vx[v + u * ls];
            }
            L1_FOR_U {
                p[u] += b[u] * c[u];
                q[u] += b[u] * Z_SWAP(c[u]);
            }
        }
        for (; v < nv; v += ls) {
            p[0] += va[v] * vx[v];
            q[0] += va[v] * Z_SWAP(vx[v]);
        }
        L1_FOR_U1 {
            p[0] += p[u];
            q[0] += q[u];
        }
        acc += (real2)(Z_EVEN(p[0]) - Z_ODD(p[0]), Z_EVEN(q[0]) + Z_ODD(q[0]));
    } else {
        for (long j = lid; j < n; j += ls) acc += z_dot1(0, vload2(j, row), vload2(0, px + 2 * j * incx));
    }
    scratch[lid] = acc;
    LOCAL_SUM(scratch, lid, ls);
    if (lid != 0) return;
    __global real* py = y + offy + 2 * (long)i * incy;
    real2 r = 0;
    if (bre == (real)1 && bim == (real)0) {
        r = vload2(0, py);
    } else if (bre != (real)0 || bim != (real)0) {
        r = z_mul1(bre, bim, vload2(0, py));
    }
    if (n > 0) r += z_mul1(are, aim, scratch[0]);
    vstore2(r, 0, py);
}
