// complex.cl — the complex BLAS kernels: level 1 and a tiled GEMM.
//
// Built after common.cl, whose PRECISION define picks the element type: a
// complex number is a real2 (float2 or double2) holding (re, im), the
// layout of Go's complex64 and complex128, so a Go slice is copied to the
// device as it is. PRECISION=64 needs cl_khr_fp64 (common.cl enables it;
// the host builds it only on devices that report the extension).
//
// Vectors are addressed as in level1.cl: element i of x is
// x[offx + i*incx]; for a negative increment the host passes
// offx = (n-1)*|incx| (gonum's convention: the vector is walked backwards).
// Complex scalars come as two reals (re, im).
//
// Reductions (dotu, dotc, asum, nrm2, iamax) run in two stages on the
// device: a bounded number of work-groups each walk the vector (CX_SPAN:
// with a grid stride, or on CPU devices each work-item one run of it) and
// reduce in local memory (power-of-two local size) to one partial per
// group; a *_finish kernel, one work-group, reduces the partials and
// writes the result into a one-element buffer, so the host reads only the
// answer (or leaves it on the device).
//
// Products are not contracted into fma, as gonum's Go code does not fuse
// them: (a+bi)(c+di) = (ac - bd) + (ad + bc)i, no Annex G recovery of
// infinities, exactly Go's complex multiplication.

#pragma OPENCL FP_CONTRACT OFF

#define CELEM(p, off, i, inc) (p)[(off) + (long)(i) * (long)(inc)]

// CX_RU is how many elements each work-item of the nrm2 and iamax
// reductions loads before it uses any: eight in float, four in double,
// where eight were slower on the H200 (BENCHMARKS.md, "Figures behind the
// code's choices").
#ifndef CX_RU
#if PRECISION == 64
#define CX_RU 4
#else
#define CX_RU 8
#endif
#endif

// cmul is the complex product a·b.
static inline real2 cmul(const real2 a, const real2 b)
{
    return (real2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// cconj is the complex conjugate of a.
static inline real2 cconj(const real2 a) { return (real2)(a.x, -a.y); }

// cabs1 is |Re a| + |Im a|, the measure of gonum's Dzasum and Izamax.
static inline real cabs1(const real2 a) { return fabs(a.x) + fabs(a.y); }

// ---------------------------------------------------------------------------
// Element-wise kernels (one work-item per element, global size ≥ n).

// y = alpha*x + y. The host skips alpha == 0, as gonum does.
__kernel void caxpy(const int n, const real are, const real aim,
                    __global const real2* x, const long offx, const int incx,
                    __global real2* y, const long offy, const int incy)
{
    const long i = get_global_id(0);
    if (i >= n) return;
    CELEM(y, offy, i, incy) += cmul((real2)(are, aim), CELEM(x, offx, i, incx));
}

// x = alpha*x for a complex alpha; alpha == 0 assigns zeros (NaN and Inf
// in x do not survive), as gonum's Zscal does.
__kernel void cscal(const int n, const real are, const real aim,
                    __global real2* x, const long offx, const int incx)
{
    const long i = get_global_id(0);
    if (i >= n) return;
    if (are == (real)0 && aim == (real)0) {
        CELEM(x, offx, i, incx) = (real2)(0, 0);
    } else {
        CELEM(x, offx, i, incx) = cmul((real2)(are, aim), CELEM(x, offx, i, incx));
    }
}

// x = alpha*x for a real alpha (Zdscal, Csscal): both parts scaled, zeros
// assigned for alpha == 0.
__kernel void csscal(const int n, const real alpha,
                     __global real2* x, const long offx, const int incx)
{
    const long i = get_global_id(0);
    if (i >= n) return;
    if (alpha == (real)0) {
        CELEM(x, offx, i, incx) = (real2)(0, 0);
    } else {
        CELEM(x, offx, i, incx) = alpha * CELEM(x, offx, i, incx);
    }
}

// y = x.
__kernel void ccopy(const int n,
                    __global const real2* x, const long offx, const int incx,
                    __global real2* y, const long offy, const int incy)
{
    const long i = get_global_id(0);
    if (i >= n) return;
    CELEM(y, offy, i, incy) = CELEM(x, offx, i, incx);
}

// x ↔ y.
__kernel void cswap(const int n,
                    __global real2* x, const long offx, const int incx,
                    __global real2* y, const long offy, const int incy)
{
    const long i = get_global_id(0);
    if (i >= n) return;
    const real2 t = CELEM(x, offx, i, incx);
    CELEM(x, offx, i, incx) = CELEM(y, offy, i, incy);
    CELEM(y, offy, i, incy) = t;
}

// ---------------------------------------------------------------------------
// Reductions, first stage: one partial per work-group.

// CX_SPAN declares i, end and step, the elements [i, end) a reduction's
// work-item visits, every step-th, in ascending order: with run != 0 one
// run of ⌈n/gs⌉ consecutive elements (CPU devices, where a work-group of
// one work-item is a loop on one core that then streams through memory in
// order), else every gs-th from its global id (GPUs: neighbouring
// work-items read neighbouring elements).
#define CX_SPAN(n, run)                                                      \
    const long gs_ = get_global_size(0), per_ = ((long)(n) + gs_ - 1) / gs_; \
    long i = (run) ? get_global_id(0) * per_ : (long)get_global_id(0);       \
    const long end = (run) ? min((long)(n), i + per_) : (long)(n);           \
    const long step = (run) ? 1 : gs_

// Partial sums of x[i]·y[i] (conjx == 0, dotu) or conj(x[i])·y[i]
// (conjx != 0, dotc).
__kernel void cdot_part(const int n, const int conjx,
                        __global const real2* x, const long offx, const int incx,
                        __global const real2* y, const long offy, const int incy,
                        __global real2* partial, const int run, __local real2* scratch)
{
    const int lid = get_local_id(0);
    const int ls = get_local_size(0);
    real2 acc = (real2)(0, 0);
    CX_SPAN(n, run);
    for (; i < end; i += step) {
        const real2 a = CELEM(x, offx, i, incx);
        acc += cmul(conjx ? cconj(a) : a, CELEM(y, offy, i, incy));
    }
    scratch[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = ls / 2; s > 0; s >>= 1) {
        if (lid < s) scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) partial[get_group_id(0)] = scratch[0];
}

// Partial sums of |Re x[i]| + |Im x[i]|.
__kernel void casum_part(const int n,
                         __global const real2* x, const long offx, const int incx,
                         __global real* partial, const int run, __local real* scratch)
{
    const int lid = get_local_id(0);
    const int ls = get_local_size(0);
    real acc = 0;
    CX_SPAN(n, run);
    for (; i < end; i += step) {
        acc += cabs1(CELEM(x, offx, i, incx));
    }
    scratch[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = ls / 2; s > 0; s >>= 1) {
        if (lid < s) scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) partial[get_group_id(0)] = scratch[0];
}

// CX_NRM2_ADD folds the parts of v into Blue's three sums (common.cl).
#define CX_NRM2_SEL(a, b, c) ((c) ? (b) : (a))
#define CX_NRM2_ADD(v)                                                      \
    do {                                                                    \
        NRM2_ADD(real, CX_NRM2_SEL, fabs((v).x), big, med, sml);            \
        NRM2_ADD(real, CX_NRM2_SEL, fabs((v).y), big, med, sml);            \
    } while (0)

// Partial sums of squares of the parts of x, Blue's three (big, medium,
// small): partial[g], partial[G + g] and partial[2G + g] for group g of G.
// No division or branch per element.
__kernel void cnrm2_part(const int n,
                         __global const real2* x, const long offx, const int incx,
                         __global real* partial, const int run, __local real* scratch)
{
    const int lid = get_local_id(0);
    const int ls = get_local_size(0);
    real big = 0, med = 0, sml = 0;
    CX_SPAN(n, run);
    // CX_RU elements loaded before any is folded in, so that each
    // work-item has CX_RU loads in flight.
    for (; i + (CX_RU - 1) * step < end; i += CX_RU * step) {
        real2 v[CX_RU];
#pragma unroll
        for (int k = 0; k < CX_RU; k++) v[k] = CELEM(x, offx, i + k * step, incx);
#pragma unroll
        for (int k = 0; k < CX_RU; k++) CX_NRM2_ADD(v[k]);
    }
    for (; i < end; i += step) {
        const real2 v = CELEM(x, offx, i, incx);
        CX_NRM2_ADD(v);
    }
    scratch[lid] = big;
    scratch[ls + lid] = med;
    scratch[2 * ls + lid] = sml;
    sum3_local(scratch, lid, ls);
    if (lid == 0) {
        const int g = get_group_id(0), ng = get_num_groups(0);
        partial[g] = scratch[0];
        partial[ng + g] = scratch[ls];
        partial[2 * ng + g] = scratch[2 * ls];
    }
}

// Partial (max |Re|+|Im|, first index) pairs. gonum's Izamax keeps the
// first strict maximum starting from x[0], so a NaN never wins, except at
// index 0, where it is never beaten: index 0 then stands in as +Inf (which
// it beats on ties, being the smallest index). A group that sees no
// element reports (-1, INT_MAX).
__kernel void ciamax_part(const int n,
                          __global const real2* x, const long offx, const int incx,
                          __global real* pmax, __global int* pidx, const int run,
                          __local real* lmax, __local int* lidx)
{
    const int lid = get_local_id(0);
    real best = -1;
    int bidx = INT_MAX;
    CX_SPAN(n, run);
    // CX_RU elements loaded before any is compared (CX_RU loads in
    // flight), then compared in ascending order.
    for (; i + (CX_RU - 1) * step < end; i += CX_RU * step) {
        real2 v[CX_RU];
#pragma unroll
        for (int k = 0; k < CX_RU; k++) v[k] = CELEM(x, offx, i + k * step, incx);
#pragma unroll
        for (int k = 0; k < CX_RU; k++) {
            const long j = i + k * step;
            real a = cabs1(v[k]);
            if (isnan(a)) a = j == 0 ? INFINITY : (real)-1;
            if (a > best) {
                best = a;
                bidx = (int)j;
            }
        }
    }
    for (; i < end; i += step) {
        real a = cabs1(CELEM(x, offx, i, incx));
        if (isnan(a)) a = i == 0 ? INFINITY : (real)-1;
        if (a > best) { // visits ascending indices: keeps the first
            best = a;
            bidx = (int)i;
        }
    }
    argmax_local(lmax, lidx, best, bidx);
    if (lid == 0) {
        pmax[get_group_id(0)] = lmax[0];
        pidx[get_group_id(0)] = lidx[0];
    }
}

// ---------------------------------------------------------------------------
// Reductions, second stage: one work-group reduces the g partials and
// writes the result to res[offr].

__kernel void cdot_finish(const int g, __global const real2* partial,
                          __global real2* res, const long offr, __local real2* scratch)
{
    const int lid = get_local_id(0);
    const int ls = get_local_size(0);
    real2 acc = (real2)(0, 0);
    for (int i = lid; i < g; i += ls) acc += partial[i];
    scratch[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = ls / 2; s > 0; s >>= 1) {
        if (lid < s) scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) res[offr] = scratch[0];
}

__kernel void casum_finish(const int g, __global const real* partial,
                           __global real* res, const long offr, __local real* scratch)
{
    const int lid = get_local_id(0);
    const int ls = get_local_size(0);
    real acc = 0;
    for (int i = lid; i < g; i += ls) acc += partial[i];
    scratch[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = ls / 2; s > 0; s >>= 1) {
        if (lid < s) scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) res[offr] = scratch[0];
}

// res[offr] = the norm of the g partial triples (cnrm2_part's): +Inf where
// a part was infinite, else NaN where one was NaN (gonum's Dznrm2).
__kernel void cnrm2_finish(const int g, __global const real* partial,
                           __global real* res, const long offr, __local real* scratch)
{
    const int ls = get_local_size(0);
    nrm2_sums3(partial, g, scratch);
    if (get_local_id(0) == 0) {
        res[offr] = isinf(scratch[0]) ? INFINITY : nrm2_combine(scratch[0], scratch[ls], scratch[2 * ls]);
    }
}

__kernel void ciamax_finish(const int g,
                            __global const real* pmax, __global const int* pidx,
                            __global int* res, const long offr,
                            __local real* lmax, __local int* lidx)
{
    const int lid = get_local_id(0);
    const int ls = get_local_size(0);
    real best = -1;
    int bidx = INT_MAX;
    for (int i = lid; i < g; i += ls) {
        if (pmax[i] > best || (pmax[i] == best && pidx[i] < bidx)) {
            best = pmax[i];
            bidx = pidx[i];
        }
    }
    argmax_local(lmax, lidx, best, bidx);
    if (lid == 0) res[offr] = lidx[0] == INT_MAX ? -1 : lidx[0];
}

// ---------------------------------------------------------------------------
// GEMM: C = alpha·op(A)·op(B) + beta·C on row-major matrices (gonum's
// layout), op(X) one of X, Xᵀ, Xᴴ (trans 0, 1, 2: blas.NoTrans, Trans,
// ConjTrans). op(A) is m×k, op(B) k×n, C m×n.
//
// Each work-group computes a CTS×CTS tile of C with RTS×RTS work-items
// (RTS = CTS/WPT), each work-item WPT×WPT elements of it, strided by RTS so
// that neighbouring work-items touch neighbouring memory (dimension 0 runs
// along the columns of C). The host launches ceil(n/CTS)·RTS ×
// ceil(m/CTS)·RTS work-items in groups of RTS×RTS. The k dimension is
// walked in CTS-wide slabs staged in local memory with op() applied while
// loading; ragged edges are padded with zeros in local memory, so any m,
// n and k work. A work-group uses 2·CTS² complex numbers of local memory:
// the host picks CTS (and WPT) to fit the device.
//
// beta == 0 overwrites C (NaN in C does not survive); beta == 1 adds
// without multiplying C; alpha == 0 or k == 0 leaves the product out
// entirely, so NaN in A or B does not reach C, as in gonum's Zgemm.

#ifndef CTS
#define CTS 16
#endif
#ifndef WPT
#define WPT 1
#endif
#if CTS % WPT != 0
#error "CTS must be a multiple of WPT"
#endif
#define RTS (CTS / WPT)

// opelem is element (r, c) of op(X) for X row-major with leading
// dimension ld.
static inline real2 opelem(__global const real2* x, const long off, const int ld,
                           const int trans, const int r, const int c)
{
    if (trans == 0) return x[off + (long)r * ld + c];
    const real2 v = x[off + (long)c * ld + r];
    return trans == 2 ? cconj(v) : v;
}

// cgemm_store writes element (row, col) of C from the product r (when
// product is set) and beta. With realbeta, beta is real and scales both
// parts of C (gonum's Zherk and Zher2k), else it multiplies C as a complex
// number.
static inline void cgemm_store(__global real2* cp, const bool product, const real2 r,
                               const real bere, const real beim, const bool realbeta)
{
    if (bere == (real)0 && beim == (real)0) {
        *cp = product ? r : (real2)(0, 0);
    } else if (bere == (real)1 && beim == (real)0) {
        if (product) *cp += r;
    } else {
        const real2 bc = realbeta ? bere * *cp : cmul((real2)(bere, beim), *cp);
        *cp = product ? bc + r : bc;
    }
}

// cgemm_tiles accumulates into acc the work-item's WPT×WPT elements of
// op(A)·op(B) for the CTS×CTS tile of C at (row0, col0), staging CTS-wide
// slabs of k in ta and tb. Every work-item of the group must call it.
static inline void cgemm_tiles(real2 (*acc)[WPT], __local real2 (*ta)[CTS], __local real2 (*tb)[CTS],
                               const int transa, const int transb, const int m, const int n, const int k,
                               __global const real2* a, const long offa, const int lda,
                               __global const real2* b, const long offb, const int ldb,
                               const int row0, const int col0, const bool product)
{
    const int tj = get_local_id(0), ti = get_local_id(1);
    for (int wi = 0; wi < WPT; wi++)
        for (int wj = 0; wj < WPT; wj++) acc[wi][wj] = (real2)(0, 0);

    for (int l0 = 0; product && l0 < k; l0 += CTS) {
        for (int wi = 0; wi < WPT; wi++) {
            for (int wj = 0; wj < WPT; wj++) {
                const int li = ti + wi * RTS, lj = tj + wj * RTS;
                ta[li][lj] = (row0 + li < m && l0 + lj < k)
                    ? opelem(a, offa, lda, transa, row0 + li, l0 + lj) : (real2)(0, 0);
                tb[li][lj] = (l0 + li < k && col0 + lj < n)
                    ? opelem(b, offb, ldb, transb, l0 + li, col0 + lj) : (real2)(0, 0);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const int lmax = min(CTS, k - l0);
        for (int l = 0; l < lmax; l++) {
            real2 bv[WPT];
            for (int wj = 0; wj < WPT; wj++) bv[wj] = tb[l][tj + wj * RTS];
            for (int wi = 0; wi < WPT; wi++) {
                const real2 av = ta[ti + wi * RTS][l];
                for (int wj = 0; wj < WPT; wj++) acc[wi][wj] += cmul(av, bv[wj]);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

__kernel __attribute__((reqd_work_group_size(RTS, RTS, 1)))
void cgemm(const int transa, const int transb,
           const int m, const int n, const int k,
           const real alre, const real alim,
           __global const real2* a, const long offa, const int lda,
           __global const real2* b, const long offb, const int ldb,
           const real bere, const real beim,
           __global real2* c, const long offc, const int ldc)
{
    __local real2 ta[CTS][CTS]; // ta[i][l] = op(A)[row0+i][l0+l]
    __local real2 tb[CTS][CTS]; // tb[l][j] = op(B)[l0+l][col0+j]
    const int tj = get_local_id(0), ti = get_local_id(1);
    const int row0 = get_group_id(1) * CTS, col0 = get_group_id(0) * CTS;
    const bool product = k > 0 && !(alre == (real)0 && alim == (real)0);
    real2 acc[WPT][WPT];
    cgemm_tiles(acc, ta, tb, transa, transb, m, n, k, a, offa, lda, b, offb, ldb, row0, col0, product);

    const real2 alpha = (real2)(alre, alim);
    for (int wi = 0; wi < WPT; wi++) {
        const int row = row0 + ti + wi * RTS;
        if (row >= m) break;
        for (int wj = 0; wj < WPT; wj++) {
            const int col = col0 + tj + wj * RTS;
            if (col >= n) break;
            cgemm_store(c + offc + (long)row * ldc + col, product,
                        product ? cmul(alpha, acc[wi][wj]) : (real2)(0, 0), bere, beim, false);
        }
    }
}

// cgemmt is cgemm for an n×n C of which only the uplo triangle (0 upper,
// 1 lower) is computed and written: the rank-k updates. With herm (Zherk,
// Zher2k) beta is real and the diagonal of C is made real, as gonum does:
// C[i][i] = Re(alpha·op(A)·op(B) + beta·C)[i][i] + 0i. Zsyrk is
// cgemmt(A, Trans of A); Zherk cgemmt(A, ConjTrans of A) with herm; the
// rank-2k updates are two launches, the second with beta = 1. The host
// takes gonum's quick return (alpha == 0 or k == 0, and beta == 1) itself.
__kernel __attribute__((reqd_work_group_size(RTS, RTS, 1)))
void cgemmt(const int uplo, const int herm, const int transa, const int transb,
            const int n, const int k,
            const real alre, const real alim,
            __global const real2* a, const long offa, const int lda,
            __global const real2* b, const long offb, const int ldb,
            const real bere, const real beim,
            __global real2* c, const long offc, const int ldc)
{
    __local real2 ta[CTS][CTS];
    __local real2 tb[CTS][CTS];
    const int tj = get_local_id(0), ti = get_local_id(1);
    const int row0 = get_group_id(1) * CTS, col0 = get_group_id(0) * CTS;
    // A tile wholly outside the triangle has nothing to do; the test is
    // the same for the whole group, so no barrier is left half-reached.
    if (uplo == 0 ? row0 > col0 + CTS - 1 : col0 > row0 + CTS - 1) return;
    const bool product = k > 0 && !(alre == (real)0 && alim == (real)0);
    real2 acc[WPT][WPT];
    cgemm_tiles(acc, ta, tb, transa, transb, n, n, k, a, offa, lda, b, offb, ldb, row0, col0, product);

    const real2 alpha = (real2)(alre, alim);
    for (int wi = 0; wi < WPT; wi++) {
        const int row = row0 + ti + wi * RTS;
        if (row >= n) break;
        for (int wj = 0; wj < WPT; wj++) {
            const int col = col0 + tj + wj * RTS;
            if (col >= n) break;
            if (uplo == 0 ? col < row : col > row) continue;
            __global real2* cp = c + offc + (long)row * ldc + col;
            cgemm_store(cp, product, product ? cmul(alpha, acc[wi][wj]) : (real2)(0, 0), bere, beim, herm);
            if (herm && row == col) (*cp).y = 0;
        }
    }
}
