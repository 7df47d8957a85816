// level1.cl — BLAS level 1 kernels (vector-vector), built after common.cl
// with PRECISION=32|64 and the launch defines below; every other option
// (the Givens flag, alpha == 0 in scal) is a kernel argument.
//
// Vectors follow gonum's convention for strided storage: element i of x is
// x[offx + i*incx], where offx is 0 for incx > 0 and (n-1)*|incx| for
// incx < 0. Offsets are long and index products are computed in long, so a
// vector may span more than 2^31 elements; n itself is an int.
//
// Launch: every kernel but the one-work-item ones runs over a grid that
// fills the device a few times over (the host sizes it), and each
// work-item walks the vector with a grid stride. Two paths, chosen per call
// by a test every work-item makes alike:
//  - unit stride (every inc is 1) with the operands equally aligned to
//    L1_VW elements: whole vectors of L1_VW elements are loaded through
//    aligned vector pointers, L1_UNROLL of them before any is stored (so
//    each work-item has several loads in flight); the elements before the
//    first aligned address and after the last whole vector are done one by
//    one. The alignment is read from the addresses themselves, so views at
//    any offset and buffers over host memory are safe: nothing outside
//    elements [0, n) is read or written.
//  - anything else (strides, negative increments, differently aligned
//    operands): one element at a time.
//
// Reductions (dot, dsdot, asum, nrm2, iamax) are two passes on the device:
// the _part kernels leave one partial per work-group, and a _fin (or
// sum_parts) kernel run as one work-group merges them and writes the
// result to an element of a buffer, so the host reads back one value, or
// nothing when the result feeds the next kernel. Local sizes are powers of
// two. For a given device, n and alignment the order of every sum is fixed,
// so results are deterministic.
//
// Results follow gonum's Go code, including NaN and Inf: products are not
// contracted into fma (gonum's amd64 code does not fuse them either), zero
// is never a reason to skip work except where gonum skips it (scal with
// alpha == 0 assigns zeros).
//
// Defines (the host takes them from the tuning database or derives them
// from the device profile):
//   L1_VW      elements per vector load: 1, 2, 4, 8 or 16 (default 1)
//   L1_UNROLL  vectors a work-item loads before it stores (default 1)
//   L1_BLOCK   1: the unit-stride vector loops give each work-group one
//              run of consecutive vectors (the vectors split evenly over
//              the groups), a work-item's loads a local size apart, for
//              CPUs, where a work-group is a loop on one core and each core
//              then streams through memory in order; 0 (default): a
//              work-item's loads are a grid apart and the grid strides
//              over the vectors. Either way any grid covers the vector.
//   L1_IDX32   1: those loops index in int where the vector is short
//              enough for it (a test per call, alike in every work-item);
//              0 (default): in long.
//   L1_NRM2_D  1: float nrm2 sums its squares in double where the device
//              has fp64 (no scaling needed: see nrm2_part); 0 (default):
//              Blue's three scaled sums in float.
//   L1_LEAN_NRM2   1: fewer instructions per element in nrm2 (plain
//              squares, Blue's sums only where a work-item's elements need
//              them); 0 (default): Blue's three sums throughout.
//   L1_LEAN_IAMAX  1: iamax's selects run only when a lane improves;
//              0 (default): the branch-free form. (The two are apart: on
//              PoCL the lean nrm2 gains and the lean iamax loses.)

#pragma OPENCL FP_CONTRACT OFF

#ifndef L1_VW
#define L1_VW 1
#endif
#ifndef L1_UNROLL
#define L1_UNROLL 1
#endif

#define L1_CAT_(a, b) a##b
#define L1_CAT(a, b) L1_CAT_(a, b)
#if PRECISION == 64
#define L1_BASE double
#else
#define L1_BASE float
#endif
#if L1_VW == 1
typedef real realv;
#define L1_SEL(a, b, c) ((c) ? (b) : (a))
#elif L1_VW == 2 || L1_VW == 4 || L1_VW == 8 || L1_VW == 16
typedef L1_CAT(L1_BASE, L1_VW) realv;
#define L1_SEL(a, b, c) select(a, b, c)
#else
#error "L1_VW must be 1, 2, 4, 8 or 16"
#endif

// L1_SEL1 is select for scalars (whose comparisons give an int, whatever
// the precision); L1_SEL is select for realv.
#define L1_SEL1(a, b, c) ((c) ? (b) : (a))
#define L1_VBYTES ((ulong)L1_VW * sizeof(real))
// L1_FOR_U runs over a work-item's L1_UNROLL vectors, and L1_FOR_U1 over all
// but the first (to fold accumulators together), unrolled, so that the private
// arrays indexed by u stay in registers: PoCL 3.1 kept a loop over them
// and the arrays on the stack, each sum then waiting for its own store.
#define L1_FOR_U _Pragma("unroll") for (int u = 0; u < L1_UNROLL; u++)
#define L1_FOR_U1 _Pragma("unroll") for (int u = 1; u < L1_UNROLL; u++)

#ifndef L1_BLOCK
#define L1_BLOCK 0
#endif
#ifndef L1_IDX32
#define L1_IDX32 0
#endif
#ifndef L1_LEAN_NRM2
#define L1_LEAN_NRM2 0
#endif
#ifndef L1_LEAN_IAMAX
#define L1_LEAN_IAMAX 0
#endif

// L1_VLOOP runs a work-item's share of the nv vectors of a unit-stride
// path: ALL with v the first of L1_UNROLL vectors vin apart (all below the
// end of the share), then ONE with v each vector left over. The body sees
// v and vin (of an index type IT); the caller's gs is the global size.
// Where a work-item's vectors lie depends on L1_BLOCK: with it, its group's
// run of L1_VPER vectors, vin the local size apart; without it, the whole
// vector, a grid apart. Either way each round steps by vout, L1_UNROLL·vin,
// and the rounds leave no vector out: a round stops being whole at a
// vector that is past the end, and every later vector of the work-item's
// share is past it too.
#if L1_BLOCK
#define L1_VPER(NV) (((NV) + (long)get_num_groups(0) - 1) / (long)get_num_groups(0))
#define L1_VSTART(NV) ((long)get_group_id(0) * L1_VPER(NV) + (long)get_local_id(0))
#define L1_VEND(NV) min((long)(NV), ((long)get_group_id(0) + 1) * L1_VPER(NV))
#define L1_VIN ((long)get_local_size(0))
#else
#define L1_VSTART(NV) ((long)get_global_id(0))
#define L1_VEND(NV) ((long)(NV))
#define L1_VIN ((long)gs)
#endif
#define L1_VLOOP_T(IT, NV, ALL, ONE)                                            \
    {                                                                           \
        const IT vin = (IT)L1_VIN, vout = (IT)(L1_UNROLL * vin);                \
        const IT nv_ = (IT)L1_VEND(NV);                                         \
        IT v = (IT)L1_VSTART(NV);                                               \
        for (; v + (L1_UNROLL - 1) * vin < nv_; v += vout) { ALL; }             \
        for (; v < nv_; v += vin) { ONE; }                                      \
    }
#if L1_IDX32
// Every index the loops form is below nv + 2·L1_UNROLL·gs.
#define L1_VLOOP(NV, ALL, ONE)                                                  \
    if ((ulong)(NV) + 2UL * L1_UNROLL * (ulong)gs < (ulong)INT_MAX)             \
        L1_VLOOP_T(int, NV, ALL, ONE)                                           \
    else                                                                        \
        L1_VLOOP_T(long, NV, ALL, ONE)
#else
#define L1_VLOOP(NV, ALL, ONE) L1_VLOOP_T(long, NV, ALL, ONE)
#endif

#define ELEM(p, off, i, inc) (p)[(off) + (long)(i) * (long)(inc)]

// l1_mis is how many bytes p lies past the last L1_VW-element boundary.
static inline ulong l1_mis(const __global real* p)
{
    return (ulong)p % L1_VBYTES;
}

// l1_head is the number of elements before the first aligned one at p (at
// most n).
static inline long l1_head(const __global real* p, int n)
{
    const ulong m = l1_mis(p);
    return m == 0 ? 0 : min((long)n, (long)((L1_VBYTES - m) / sizeof(real)));
}

// l1_hsum is the sum of v's components, pairwise.
static inline real l1_hsum(realv v)
{
#if L1_VW == 1
    return v;
#elif L1_VW == 2
    return v.s0 + v.s1;
#elif L1_VW == 4
    return (v.s0 + v.s1) + (v.s2 + v.s3);
#elif L1_VW == 8
    const real4 w = v.lo + v.hi;
    return (w.s0 + w.s1) + (w.s2 + w.s3);
#else
    const real8 w8 = v.lo + v.hi;
    const real4 w = w8.lo + w8.hi;
    return (w.s0 + w.s1) + (w.s2 + w.s3);
#endif
}

// l1_hmax is the largest of v's components (fmax: a NaN component is
// passed over).
static inline real l1_hmax(realv v)
{
#if L1_VW == 1
    return v;
#elif L1_VW == 2
    return fmax(v.s0, v.s1);
#elif L1_VW == 4
    return fmax(fmax(v.s0, v.s1), fmax(v.s2, v.s3));
#elif L1_VW == 8
    const real4 w = fmax(v.lo, v.hi);
    return fmax(fmax(w.s0, w.s1), fmax(w.s2, w.s3));
#else
    const real8 w8 = fmax(v.lo, v.hi);
    const real4 w = fmax(w8.lo, w8.hi);
    return fmax(fmax(w.s0, w.s1), fmax(w.s2, w.s3));
#endif
}

// ---------------------------------------------------------------------------
// Element-wise kernels.

// L1_TWO is the body of an update of x and y (both of length n, the
// kernel's arguments x, offx, incx, y, offy, incy): with a and b the old
// elements of x and y (b is not read unless RY), the new ones are FX(a, b)
// (stored only if WX) and FY(a, b). FX and FY are macros that work on
// reals and on realv alike.
#define L1_TWO(RY, WX, FX, FY)                                                  \
    const long gid = get_global_id(0), gs = get_global_size(0);                 \
    __global real* px = (__global real*)x + offx;                               \
    __global real* py = y + offy;                                               \
    if (incx == 1 && incy == 1 && l1_mis(px) == l1_mis(py)) {                   \
        const long h = l1_head(py, n);                                          \
        const long nv = (n - h) / L1_VW;                                        \
        for (long i = gid; i < h; i += gs) {                                    \
            const real a = px[i], b = RY ? py[i] : 0;                           \
            if (WX) px[i] = FX(a, b);                                           \
            py[i] = FY(a, b);                                                   \
        }                                                                       \
        for (long i = h + nv * L1_VW + gid; i < n; i += gs) {                   \
            const real a = px[i], b = RY ? py[i] : 0;                           \
            if (WX) px[i] = FX(a, b);                                           \
            py[i] = FY(a, b);                                                   \
        }                                                                       \
        __global realv* vx = (__global realv*)(px + h);                         \
        __global realv* vy = (__global realv*)(py + h);                         \
        realv a[L1_UNROLL];                                                     \
        realv b[L1_UNROLL];                                                     \
        L1_VLOOP(nv,                                                            \
            L1_FOR_U {                                                          \
                a[u] = vx[v + u * vin];                                         \
                b[u] = RY ? vy[v + u * vin] : 0;                                \
            }                                                                   \
            L1_FOR_U {                                                          \
                if (WX) vx[v + u * vin] = FX(a[u], b[u]);                       \
                vy[v + u * vin] = FY(a[u], b[u]);                               \
            },                                                                  \
            a[0] = vx[v];                                                       \
            b[0] = RY ? vy[v] : 0;                                              \
            if (WX) vx[v] = FX(a[0], b[0]);                                     \
            vy[v] = FY(a[0], b[0]))                                             \
        return;                                                                 \
    }                                                                           \
    for (long i = gid; i < n; i += gs) {                                        \
        const real a = px[i * incx], b = RY ? py[i * incy] : 0;                 \
        if (WX) px[i * incx] = FX(a, b);                                        \
        py[i * incy] = FY(a, b);                                                \
    }

#define AXPY_Y(a, b) ((b) + alpha * (a))
#define NONE(a, b) (a)
#define TAKE_A(a, b) (a)
#define ROT_X(a, b) (c * (a) + s * (b))
#define ROT_Y(a, b) (c * (b) - s * (a))
#define ROTM_X(a, b) (flag == -1 ? (a) * h11 + (b) * h12 : flag == 0 ? (a) + (b) * h12 : (a) * h11 + (b))
#define ROTM_Y(a, b) (flag == -1 ? (a) * h21 + (b) * h22 : flag == 0 ? (a) * h21 + (b) : -(a) + (b) * h22)

// l1_axpy: y = alpha*x + y.
static inline void l1_axpy(const int n, const real alpha,
                           __global const real* x, const long offx, const int incx,
                           __global real* y, const long offy, const int incy)
{
    L1_TWO(1, 0, NONE, AXPY_Y)
}

// y = alpha*x + y.
__kernel void axpy(const int n, const real alpha,
                   __global const real* x, const long offx, const int incx,
                   __global real* y, const long offy, const int incy)
{
    l1_axpy(n, alpha, x, offx, incx, y, offy, incy);
}

// l1_scal: x = alpha*x; alpha == 0 assigns zeros (NaN and Inf in x do not
// survive), as gonum's Dscal/Sscal do.
static inline void l1_scal(const int n, const real alpha,
                           __global real* x, const long offx, const int incx)
{
    const long gid = get_global_id(0), gs = get_global_size(0);
    const int zero = alpha == (real)0;
    __global real* px = x + offx;
    if (incx == 1) {
        const long h = l1_head(px, n);
        const long nv = (n - h) / L1_VW;
        for (long i = gid; i < h; i += gs) px[i] = zero ? (real)0 : alpha * px[i];
        for (long i = h + nv * L1_VW + gid; i < n; i += gs) px[i] = zero ? (real)0 : alpha * px[i];
        __global realv* vx = (__global realv*)(px + h);
        if (zero) {
            L1_VLOOP(nv, L1_FOR_U vx[v + u * vin] = (realv)0, vx[v] = (realv)0)
            return;
        }
        realv a[L1_UNROLL];
        L1_VLOOP(nv,
                 L1_FOR_U a[u] = vx[v + u * vin];
                 L1_FOR_U vx[v + u * vin] = alpha * a[u],
                 vx[v] = alpha * vx[v])
        return;
    }
    for (long i = gid; i < n; i += gs) {
        ELEM(x, offx, i, incx) = zero ? (real)0 : alpha * ELEM(x, offx, i, incx);
    }
}

// x = alpha*x (alpha == 0: zeros).
__kernel void scal(const int n, const real alpha,
                   __global real* x, const long offx, const int incx)
{
    l1_scal(n, alpha, x, offx, incx);
}

// y = x.
__kernel void copy(const int n,
                   __global const real* x, const long offx, const int incx,
                   __global real* y, const long offy, const int incy)
{
    L1_TWO(0, 0, NONE, TAKE_A)
}

// x, y = y, x, each element multiplied by one, which the host passes as 1
// where the arithmetic keeps denormals (then every number comes through
// unchanged, and a NaN stays a NaN, though NVIDIA's float arithmetic
// gives every NaN the same bits) and as 0 elsewhere, for the bare
// exchange. NVIDIA's compiler made slower code of the bare exchange than
// of the same loads and stores with arithmetic between them (BENCHMARKS.md,
// "Figures behind the code's choices").
#define SWAP_X(a, b) (one != (real)0 ? (b) * one : (b))
#define SWAP_Y(a, b) (one != (real)0 ? (a) * one : (a))
__kernel void swap(const int n,
                   __global real* x, const long offx, const int incx,
                   __global real* y, const long offy, const int incy, const real one)
{
    L1_TWO(1, 1, SWAP_X, SWAP_Y)
}

// Plane rotation: x, y = c*x + s*y, c*y - s*x.
__kernel void rot(const int n,
                  __global real* x, const long offx, const int incx,
                  __global real* y, const long offy, const int incy,
                  const real c, const real s)
{
    L1_TWO(1, 1, ROT_X, ROT_Y)
}

// Modified Givens rotation with H = [h11 h12; h21 h22]. flag takes gonum's
// blas.Flag values: -1 Rescaling (full H), 0 OffDiagonal (h11 = h22 = 1),
// 1 Diagonal (h12 = 1, h21 = -1). The host never passes -2 (Identity).
__kernel void rotm(const int n,
                   __global real* x, const long offx, const int incx,
                   __global real* y, const long offy, const int incy,
                   const int flag, const real h11, const real h12,
                   const real h21, const real h22)
{
    L1_TWO(1, 1, ROTM_X, ROTM_Y)
}

// ---------------------------------------------------------------------------
// Reductions, first pass (kernel names end in _part; "dot" would clash
// with the OpenCL built-in). Each group writes partial[get_group_id(0)].

// Tree sum of scratch[0..local size) into scratch[0]; every work-item
// must call it.
#define LOCAL_SUM(scratch, lid, ls)                         \
    do {                                                    \
        barrier(CLK_LOCAL_MEM_FENCE);                       \
        for (int s_ = (ls) / 2; s_ > 0; s_ >>= 1) {         \
            if ((lid) < s_) (scratch)[lid] += (scratch)[(lid) + s_]; \
            barrier(CLK_LOCAL_MEM_FENCE);                   \
        }                                                   \
    } while (0)

// L1_GSUM defines NAME(p, g): this work-item's share of the sum of the g
// partials p[0..g) of type T (elements lid, lid + ls, ...), four loads in
// flight at a time (a second pass has few work-items and each load waits
// the memory's full latency). The loads are volatile: in a one-pass
// reduction (below) the partials were written by other work-groups of the
// same launch and must not come from a cache.
#define L1_GSUM(NAME, T)                                                        \
    static inline T NAME(volatile const __global T* p, const int g)            \
    {                                                                           \
        const int lid = get_local_id(0), ls = get_local_size(0);                \
        T acc = 0;                                                              \
        int i = lid;                                                            \
        for (; i + 3 * ls < g; i += 4 * ls) {                                   \
            const T a = p[i], b = p[i + ls], c = p[i + 2 * ls], d = p[i + 3 * ls]; \
            acc += (a + b) + (c + d);                                           \
        }                                                                       \
        for (; i < g; i += ls) acc += p[i];                                     \
        return acc;                                                             \
    }
L1_GSUM(l1_gsum, real)

// One-pass reductions (kernel names end in _one): the first pass and the
// second in one launch. Each work-group writes its partials as in the
// first pass, then takes a ticket: the group that takes the last ticket of
// the launch (every other group's partials are written by then) merges
// them and writes the result, and puts the ticket counter back to 0 for
// the next launch. The counter is one uint per queue that only these
// kernels use, created as 0; launches on one in-order queue never
// overlap, so each finds it at 0.
//
// l1_last reports, to every work-item of the group, whether the group
// took the last ticket. Every work-item must call it, after work-item 0
// has written the group's partials: the fence orders those writes before
// the ticket.
static inline int l1_last(volatile __global uint* ticket, volatile __local int* last)
{
    if (get_local_id(0) == 0) {
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        *last = atomic_inc(ticket) == (uint)get_num_groups(0) - 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    return *last;
}

// l1_done puts the ticket counter back (work-item 0 of the last group,
// once it has read the partials).
static inline void l1_done(volatile __global uint* ticket)
{
    if (get_local_id(0) == 0) atomic_xchg(ticket, 0u);
}

// L1_SUM2 leaves in acc (of type AT, vectors of type AV made from realv by
// CV) the sum of F(x[i], y[i]) over the kernel's x and y; L1_SUM1 that of
// F(x[i]). Both take the unit-stride path when they can.
#define L1_SUM2(AT, AV, CV, F)                                                  \
    const long gid = get_global_id(0), gs = get_global_size(0);                 \
    __global const real* px = x + offx;                                         \
    __global const real* py = y + offy;                                         \
    AT acc = 0;                                                                 \
    if (incx == 1 && incy == 1 && l1_mis(px) == l1_mis(py)) {                   \
        const long h = l1_head(px, n);                                          \
        const long nv = (n - h) / L1_VW;                                        \
        for (long i = gid; i < h; i += gs) acc += F((AT)px[i], (AT)py[i]);      \
        for (long i = h + nv * L1_VW + gid; i < n; i += gs) {                   \
            acc += F((AT)px[i], (AT)py[i]);                                     \
        }                                                                       \
        __global const realv* vx = (__global const realv*)(px + h);             \
        __global const realv* vy = (__global const realv*)(py + h);             \
        AV va[L1_UNROLL];                                                       \
        L1_FOR_U va[u] = 0;                                                     \
        realv a[L1_UNROLL];                                                     \
        realv b[L1_UNROLL];                                                     \
        L1_VLOOP(nv,                                                            \
            L1_FOR_U {                                                          \
                a[u] = vx[v + u * vin];                                         \
                b[u] = vy[v + u * vin];                                         \
            }                                                                   \
            L1_FOR_U va[u] += F(CV(a[u]), CV(b[u])),                            \
            va[0] += F(CV(vx[v]), CV(vy[v])))                                   \
        L1_FOR_U1 va[0] += va[u];                                               \
        acc += L1_HSUM_##AT(va[0]);                                             \
    } else {                                                                    \
        for (long i = gid; i < n; i += gs) {                                    \
            acc += F((AT)ELEM(x, offx, i, incx), (AT)ELEM(y, offy, i, incy));   \
        }                                                                       \
    }

#define L1_SUM1(F)                                                              \
    const long gid = get_global_id(0), gs = get_global_size(0);                 \
    __global const real* px = x + offx;                                         \
    real acc = 0;                                                               \
    if (incx == 1) {                                                            \
        const long h = l1_head(px, n);                                          \
        const long nv = (n - h) / L1_VW;                                        \
        for (long i = gid; i < h; i += gs) acc += F(px[i]);                     \
        for (long i = h + nv * L1_VW + gid; i < n; i += gs) acc += F(px[i]);    \
        __global const realv* vx = (__global const realv*)(px + h);             \
        realv va[L1_UNROLL];                                                    \
        L1_FOR_U va[u] = 0;                                                     \
        realv a[L1_UNROLL];                                                     \
        L1_VLOOP(nv,                                                            \
            L1_FOR_U a[u] = vx[v + u * vin];                                    \
            L1_FOR_U va[u] += F(a[u]),                                          \
            va[0] += F(vx[v]))                                                  \
        L1_FOR_U1 va[0] += va[u];                                               \
        acc += l1_hsum(va[0]);                                                  \
    } else {                                                                    \
        for (long i = gid; i < n; i += gs) acc += F(ELEM(x, offx, i, incx));    \
    }

#define L1_HSUM_real l1_hsum
#define MUL(a, b) ((a) * (b))
#define ID(v) (v)

// L1_ONE_SUM is the end of a one-pass sum whose partials (of type T,
// summed by GSUM) are written: the last group sums them into res[offr].
#define L1_ONE_SUM(T, GSUM)                                                     \
    __local int last;                                                          \
    if (!l1_last(ticket, &last)) return;                                       \
    {                                                                           \
        const int lid = get_local_id(0);                                        \
        __local T* ts = (__local T*)scratch;                                    \
        ts[lid] = GSUM((volatile const __global T*)partial, get_num_groups(0)); \
        LOCAL_SUM(ts, lid, (int)get_local_size(0));                             \
        if (lid == 0) res[offr] = ts[0];                                        \
        l1_done(ticket);                                                        \
    }

// The partial sum of x[i]*y[i] of this work-group, into
// partial[get_group_id(0)].
static inline void dot_group(const int n,
                  __global const real* x, const long offx, const int incx,
                  __global const real* y, const long offy, const int incy,
                  __global real* partial, __local real* scratch)
{
    L1_SUM2(real, realv, ID, MUL)
    const int lid = get_local_id(0);
    scratch[lid] = acc;
    LOCAL_SUM(scratch, lid, (int)get_local_size(0));
    if (lid == 0) partial[get_group_id(0)] = scratch[0];
}

// Partial sums of x[i]*y[i].
__kernel void dot_part(const int n,
                  __global const real* x, const long offx, const int incx,
                  __global const real* y, const long offy, const int incy,
                  __global real* partial, __local real* scratch)
{
    dot_group(n, x, offx, incx, y, offy, incy, partial, scratch);
}

// res[offr] = x·y in one pass.
__kernel void dot_one(const int n,
                  __global const real* x, const long offx, const int incx,
                  __global const real* y, const long offy, const int incy,
                  __global real* partial, volatile __global uint* ticket,
                  __global real* res, const long offr, __local real* scratch)
{
    dot_group(n, x, offx, incx, y, offy, incy, partial, scratch);
    L1_ONE_SUM(real, l1_gsum)
}

// The partial sum of |x[i]| of this work-group.
static inline void asum_group(const int n,
                   __global const real* x, const long offx, const int incx,
                   __global real* partial, __local real* scratch)
{
    L1_SUM1(fabs)
    const int lid = get_local_id(0);
    scratch[lid] = acc;
    LOCAL_SUM(scratch, lid, (int)get_local_size(0));
    if (lid == 0) partial[get_group_id(0)] = scratch[0];
}

// Partial sums of |x[i]|.
__kernel void asum_part(const int n,
                   __global const real* x, const long offx, const int incx,
                   __global real* partial, __local real* scratch)
{
    asum_group(n, x, offx, incx, partial, scratch);
}

// res[offr] = Σ|x[i]| in one pass.
__kernel void asum_one(const int n,
                   __global const real* x, const long offx, const int incx,
                   __global real* partial, volatile __global uint* ticket,
                   __global real* res, const long offr, __local real* scratch)
{
    asum_group(n, x, offx, incx, partial, scratch);
    L1_ONE_SUM(real, l1_gsum)
}

#if PRECISION == 32 && defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#if L1_VW == 1
typedef double doublev;
#define L1_TO_D(v) ((double)(v))
#else
typedef L1_CAT(double, L1_VW) doublev;
#define L1_TO_D(v) L1_CAT(convert_double, L1_VW)(v)
#endif

// l1_hsum_d is l1_hsum for double vectors of L1_VW components.
static inline double L1_HSUM_double(doublev v)
{
#if L1_VW == 1
    return v;
#elif L1_VW == 2
    return v.s0 + v.s1;
#elif L1_VW == 4
    return (v.s0 + v.s1) + (v.s2 + v.s3);
#elif L1_VW == 8
    const double4 w = v.lo + v.hi;
    return (w.s0 + w.s1) + (w.s2 + w.s3);
#else
    const double8 w8 = v.lo + v.hi;
    const double4 w = w8.lo + w8.hi;
    return (w.s0 + w.s1) + (w.s2 + w.s3);
#endif
}

L1_GSUM(l1_gsum_d, double)

// The partial sum of (double)x[i]*(double)y[i] of this work-group.
static inline void dsdot_group(const int n,
                    __global const float* x, const long offx, const int incx,
                    __global const float* y, const long offy, const int incy,
                    __global double* partial, __local double* scratch)
{
    L1_SUM2(double, doublev, L1_TO_D, MUL)
    const int lid = get_local_id(0);
    scratch[lid] = acc;
    LOCAL_SUM(scratch, lid, (int)get_local_size(0));
    if (lid == 0) partial[get_group_id(0)] = scratch[0];
}

// Partial sums of (double)x[i]*(double)y[i] for float vectors (Dsdot,
// Sdsdot). Only compiled where the device has fp64; the host checks the
// profile before it asks for this kernel.
__kernel void dsdot_part(const int n,
                    __global const float* x, const long offx, const int incx,
                    __global const float* y, const long offy, const int incy,
                    __global double* partial, __local double* scratch)
{
    dsdot_group(n, x, offx, incx, y, offy, incy, partial, scratch);
}

// res[offr] = the float64-accumulated x·y of float vectors, in one pass.
__kernel void dsdot_one(const int n,
                    __global const float* x, const long offx, const int incx,
                    __global const float* y, const long offy, const int incy,
                    __global double* partial, volatile __global uint* ticket,
                    __global double* res, const long offr, __local double* scratch)
{
    dsdot_group(n, x, offx, incx, y, offy, incy, partial, scratch);
    L1_ONE_SUM(double, l1_gsum_d)
}

// res[offr] = the sum of the g double partials (one work-group).
__kernel void dsum_parts(const int g, __global const double* partial,
                         __global double* res, const long offr,
                         __local double* scratch)
{
    const int lid = get_local_id(0);
    scratch[lid] = l1_gsum_d(partial, g);
    LOCAL_SUM(scratch, lid, (int)get_local_size(0));
    if (lid == 0) res[offr] = scratch[0];
}
#endif

// Euclidean norm without overflow or underflow: Blue's three sums
// (NRM2_ADD, nrm2_combine in common.cl).
#define NRM2_ONE(v) NRM2_ADD(real, L1_SEL1, fabs(v), big, med, sml)

#if PRECISION == 32 && defined(cl_khr_fp64) && defined(L1_NRM2_D) && L1_NRM2_D
// The squares of floats, summed in double, neither overflow (FLT_MAX² is
// about 1e77, and 2^31 of them fit a double) nor underflow (the smallest
// float's square, about 2e-90, is a normal double), and NaN and Inf come
// out as in Blue's sums: so the double sum needs no scaling, and costs a
// conversion and a product-add per element instead of three selects and
// three of each. The partials are doubles in the host's buffer of 3G
// floats (G of them) and in its local scratch of 3·local floats; the
// kernels declare them double (nrm2_t), so that the device places them
// aligned for doubles (a float pointer cast to double need not be).
#define NRM2_DOUBLE 1
#define NRM2_SQ(v) ((double)(v) * (double)(v))
typedef double nrm2_t;

// The partial sum of the squares of x of this work-group, in double:
// partial[g] for group g.
static inline void nrm2_group(const int n,
                   __global const real* x, const long offx, const int incx,
                   __global nrm2_t* partial, __local nrm2_t* scratch)
{
    const long gid = get_global_id(0), gs = get_global_size(0);
    __global const real* px = x + offx;
    double acc = 0;
    if (incx == 1) {
        const long h = l1_head(px, n);
        const long nv = (n - h) / L1_VW;
        for (long i = gid; i < h; i += gs) acc += NRM2_SQ(px[i]);
        for (long i = h + nv * L1_VW + gid; i < n; i += gs) acc += NRM2_SQ(px[i]);
        __global const realv* vx = (__global const realv*)(px + h);
        doublev va[L1_UNROLL];
        L1_FOR_U va[u] = 0;
        realv a[L1_UNROLL];
        L1_VLOOP(nv,
                 L1_FOR_U a[u] = vx[v + u * vin];
                 L1_FOR_U { const doublev d_ = L1_TO_D(a[u]); va[u] += d_ * d_; },
                 { const doublev d_ = L1_TO_D(vx[v]); va[0] += d_ * d_; })
        L1_FOR_U1 va[0] += va[u];
        acc += L1_HSUM_double(va[0]);
    } else {
        for (long i = gid; i < n; i += gs) acc += NRM2_SQ(px[i * incx]);
    }
    const int lid = get_local_id(0);
    scratch[lid] = acc;
    LOCAL_SUM(scratch, lid, (int)get_local_size(0));
    if (lid == 0) partial[get_group_id(0)] = scratch[0];
}

// res[offr] = the norm of the g double partials: this work-item's share
// of their sum (the caller sums the group's into scratch).
#define NRM2_MERGE(p, g, res, offr, scratch)                                   \
    do {                                                                       \
        const int lid_ = get_local_id(0);                                      \
        (scratch)[lid_] = l1_gsum_d(p, g);                                     \
        LOCAL_SUM(scratch, lid_, (int)get_local_size(0));                      \
        if (lid_ == 0) (res)[offr] = (real)sqrt((scratch)[0]);                 \
    } while (0)
#else
#define NRM2_DOUBLE 0
typedef real nrm2_t;
#endif

// Blue's three sums, on every device and precision: real NRM2 where its
// squares are not summed in double, and complex NRM2 of unit stride
// (znrm2), whose merge needs Inf kept apart from NaN, which one double
// sum cannot do.
//
// With L1_LEAN_NRM2, the unit-stride vector loop sums the plain squares of
// |x| (a product, a sum and a max per element instead of Blue's three of
// each and three selects) while it can prove them exact enough: a
// work-item whose largest |x| is at most NRM2_TBIG cannot overflow, and
// one whose largest |x| is at least NRM2_TLOW loses at most 2^31 squares
// below the smallest normal, under 2^-30 of its sum. A work-item outside
// those bounds (an Inf, huge or only tiny elements; all zeros and NaNs
// need no rescue) reads its vectors again with Blue's three sums. A NaN
// makes the plain sum NaN, as it makes Blue's medium sum.
#if PRECISION == 64
#define NRM2_TLOW 0x1p-465
#else
#define NRM2_TLOW 0x1p-32f
#endif

// The partial sums of squares (big, medium, small) of x of this
// work-group: partial[g], partial[G + g] and partial[2G + g] for group g
// of G.
static inline void nrm2_blue_group(const int n,
                   __global const real* x, const long offx, const int incx,
                   __global real* partial, __local real* scratch)
{
    const long gid = get_global_id(0), gs = get_global_size(0);
    __global const real* px = x + offx;
    real big = 0, med = 0, sml = 0;
    if (incx == 1) {
        const long h = l1_head(px, n);
        const long nv = (n - h) / L1_VW;
        for (long i = gid; i < h; i += gs) NRM2_ONE(px[i]);
        for (long i = h + nv * L1_VW + gid; i < n; i += gs) NRM2_ONE(px[i]);
        __global const realv* vx = (__global const realv*)(px + h);
#if L1_LEAN_NRM2
        realv vb = 0, vm[L1_UNROLL], vmax[L1_UNROLL];
        L1_FOR_U { vm[u] = 0; vmax[u] = 0; }
        realv a[L1_UNROLL];
        L1_VLOOP(nv,
                 L1_FOR_U a[u] = fabs(vx[v + u * vin]);
                 L1_FOR_U { vm[u] += a[u] * a[u]; vmax[u] = L1_SEL(vmax[u], a[u], a[u] > vmax[u]); },
                 a[0] = fabs(vx[v]);
                 vm[0] += a[0] * a[0];
                 vmax[0] = L1_SEL(vmax[0], a[0], a[0] > vmax[0]))
        L1_FOR_U1 {
            vm[0] += vm[u];
            vmax[0] = fmax(vmax[0], vmax[u]);
        }
        const real m = l1_hmax(vmax[0]);
        if (m > NRM2_TBIG || (m > (real)0 && m < NRM2_TLOW)) {
            realv vs = 0;
            vm[0] = 0;
            L1_VLOOP(nv,
                     L1_FOR_U a[u] = fabs(vx[v + u * vin]);
                     L1_FOR_U NRM2_ADD(realv, L1_SEL, a[u], vb, vm[0], vs),
                     a[0] = fabs(vx[v]);
                     NRM2_ADD(realv, L1_SEL, a[0], vb, vm[0], vs))
            sml += l1_hsum(vs);
        }
        big += l1_hsum(vb);
        med += l1_hsum(vm[0]);
#else
        realv vb = 0, vm = 0, vs = 0;
        realv a[L1_UNROLL];
        L1_VLOOP(nv,
                 L1_FOR_U a[u] = fabs(vx[v + u * vin]);
                 L1_FOR_U NRM2_ADD(realv, L1_SEL, a[u], vb, vm, vs),
                 a[0] = fabs(vx[v]);
                 NRM2_ADD(realv, L1_SEL, a[0], vb, vm, vs))
        big += l1_hsum(vb);
        med += l1_hsum(vm);
        sml += l1_hsum(vs);
#endif
    } else {
        for (long i = gid; i < n; i += gs) NRM2_ONE(px[i * incx]);
    }
    const int lid = get_local_id(0);
    const int ls = get_local_size(0);
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

// res[offr] = the norm of the g partial triples of Blue's sums at p, NaN
// where an element was NaN, unless infFirst and one was infinite (then
// +Inf: gonum's Dznrm2); every work-item of the group must call it.
static inline void nrm2_blue_merge(volatile const __global real* p, const int g,
                                   __global real* res, const long offr,
                                   __local real* scratch, const int infFirst)
{
    const int ls = get_local_size(0);
    nrm2_sums3(p, g, scratch);
    if (get_local_id(0) == 0) {
        const real big = scratch[0];
        res[offr] = infFirst && isinf(big) ? (real)INFINITY
                                           : nrm2_combine(big, scratch[ls], scratch[2 * ls]);
    }
}

#if !NRM2_DOUBLE
#define nrm2_group nrm2_blue_group
#define NRM2_MERGE(p, g, res, offr, scratch) nrm2_blue_merge(p, g, res, offr, scratch, 0)
#endif

// Partial sums of squares of x (nrm2_group's).
__kernel void nrm2_part(const int n,
                   __global const real* x, const long offx, const int incx,
                   __global nrm2_t* partial, __local nrm2_t* scratch)
{
    nrm2_group(n, x, offx, incx, partial, scratch);
}

// res[offr] = the norm of the g partial triples (one work-group), or of
// the g double partials.
__kernel void nrm2_fin(const int g, __global const nrm2_t* partial,
                       __global real* res, const long offr,
                       __local nrm2_t* scratch)
{
    NRM2_MERGE(partial, g, res, offr, scratch);
}

// res[offr] = ‖x‖₂ in one pass.
__kernel void nrm2_one(const int n,
                   __global const real* x, const long offx, const int incx,
                   __global nrm2_t* partial, volatile __global uint* ticket,
                   __global real* res, const long offr, __local nrm2_t* scratch)
{
    __local int last;
    nrm2_group(n, x, offx, incx, partial, scratch);
    if (!l1_last(ticket, &last)) return;
    NRM2_MERGE(partial, (int)get_num_groups(0), res, offr, scratch);
    l1_done(ticket);
}

// The norm of a complex vector of unit stride is that of its n = 2·len
// reals, x at real offset offx, by Blue's sums in this precision; the
// merge puts +Inf before NaN, as gonum's Dznrm2 and Scnrm2 do.
__kernel void znrm2_part(const int n, __global const real* x, const long offx,
                         __global real* partial, __local real* scratch)
{
    nrm2_blue_group(n, x, offx, 1, partial, scratch);
}

__kernel void znrm2_fin(const int g, __global const real* partial,
                        __global real* res, const long offr, __local real* scratch)
{
    nrm2_blue_merge(partial, g, res, offr, scratch, 1);
}

__kernel void znrm2_one(const int n, __global const real* x, const long offx,
                        __global real* partial, volatile __global uint* ticket,
                        __global real* res, const long offr, __local real* scratch)
{
    __local int last;
    nrm2_blue_group(n, x, offx, 1, partial, scratch);
    if (!l1_last(ticket, &last)) return;
    nrm2_blue_merge(partial, (int)get_num_groups(0), res, offr, scratch, 1);
    l1_done(ticket);
}

// Index of the largest |x[i]|, the first on ties. gonum's Idamax keeps
// the first strict maximum of |x| starting from |x[0]|, so a NaN never
// wins, except at index 0, where it is never beaten: then the answer is 0
// and no work-item looks further. A work-item or group that sees no
// element holds (-1, INT_MAX). Each work-item visits its indices in
// ascending order, so a strict > keeps the first of equals; merges break
// ties by the smaller index.
#define AMAX_TAKE(a, i)                                                     \
    do {                                                                    \
        const real a_ = (a);                                                \
        const int i_ = (i);                                                 \
        if (a_ > best || (a_ == best && i_ < bidx)) {                       \
            best = a_;                                                      \
            bidx = i_;                                                      \
        }                                                                   \
    } while (0)

// On the vector path each lane keeps its own best |x| (vbest) and the
// vector it came from (vidx, -1 for none), updated without branches; a
// lane sees its elements in ascending order (a work-item's vectors ascend,
// within a round and from one round to the next), so a strict > keeps the
// first of equals, and a NaN never wins. The lanes join best and bidx at
// the end, ties going to the smaller index as everywhere.
#if PRECISION == 64
#define L1_INT long
#else
#define L1_INT int
#endif
typedef L1_INT l1int;
#if L1_VW == 1
typedef l1int l1intv;
#define AMAX_SEL(a, b, c) ((c) ? (b) : (a))
#else
typedef L1_CAT(L1_INT, L1_VW) l1intv;
#define AMAX_SEL(a, b, c) select(a, b, c)
#endif
#if L1_VW == 1
#define AMAX_ANY(c) (c)
#else
#define AMAX_ANY(c) any(c)
#endif
// With L1_LEAN_IAMAX the two selects run only when a lane of the vector beats
// its best so far, which in most data grows rare as a work-item goes on:
// a comparison per element instead of a comparison and two selects.
#if L1_LEAN_IAMAX
#define AMAX_VSTEP(a, vi)                                                      \
    do {                                                                       \
        const realv a_ = (a);                                                  \
        if (AMAX_ANY(a_ > vbest)) {                                            \
            vidx = AMAX_SEL(vidx, (l1intv)((l1int)(vi)), a_ > vbest);          \
            vbest = AMAX_SEL(vbest, a_, a_ > vbest);                           \
        }                                                                      \
    } while (0)
#else
#define AMAX_VSTEP(a, vi)                                                      \
    do {                                                                       \
        const realv a_ = (a);                                                  \
        vidx = AMAX_SEL(vidx, (l1intv)((l1int)(vi)), a_ > vbest);              \
        vbest = AMAX_SEL(vbest, a_, a_ > vbest);                               \
    } while (0)
#endif

// amax_publish reduces the work-group's (best, bidx) pairs and writes the
// group's into pmax[get_group_id(0)] and pidx[get_group_id(0)]. Every
// work-item of the group must call it.
static inline void amax_publish(const real best, const int bidx, __global real* pmax, __global int* pidx,
                                __local real* lmax, __local int* lidx)
{
    argmax_local(lmax, lidx, best, bidx);
    if (get_local_id(0) == 0) {
        pmax[get_group_id(0)] = lmax[0];
        pidx[get_group_id(0)] = lidx[0];
    }
}

// The (max |x|, first index) pair of this work-group, into
// pmax[get_group_id(0)] and pidx[get_group_id(0)].
static inline void iamax_group(const int n,
                    __global const real* x, const long offx, const int incx,
                    __global real* pmax, __global int* pidx,
                    __local real* lmax, __local int* lidx)
{
    const long gid = get_global_id(0), gs = get_global_size(0);
    __global const real* px = x + offx;
    real best = -1;
    int bidx = INT_MAX;
    if (n > 0 && isnan(px[0])) {
        best = INFINITY;
        bidx = 0;
    } else if (incx == 1) {
        const long h = l1_head(px, n);
        const long nv = (n - h) / L1_VW;
        for (long i = gid; i < h; i += gs) AMAX_TAKE(fabs(px[i]), (int)i);
        __global const realv* vx = (__global const realv*)(px + h);
        realv a[L1_UNROLL];
        realv vbest = (realv)(-1);
        l1intv vidx = (l1intv)(-1);
        L1_VLOOP(nv,
                 L1_FOR_U a[u] = fabs(vx[v + u * vin]);
                 L1_FOR_U AMAX_VSTEP(a[u], v + u * vin),
                 a[0] = fabs(vx[v]);
                 AMAX_VSTEP(a[0], v))
        const real* bl = (const real*)&vbest;
        const l1int* il = (const l1int*)&vidx;
        for (int k = 0; k < L1_VW; k++) {
            if (il[k] >= 0) AMAX_TAKE(bl[k], (int)(h + (long)il[k] * L1_VW + k));
        }
        for (long i = h + nv * L1_VW + gid; i < n; i += gs) AMAX_TAKE(fabs(px[i]), (int)i);
    } else {
        for (long i = gid; i < n; i += gs) AMAX_TAKE(fabs(px[i * incx]), (int)i);
    }
    amax_publish(best, bidx, pmax, pidx, lmax, lidx);
}

// Partial (max |x|, first index) pairs, one per group.
__kernel void iamax_part(const int n,
                    __global const real* x, const long offx, const int incx,
                    __global real* pmax, __global int* pidx,
                    __local real* lmax, __local int* lidx)
{
    iamax_group(n, x, offx, incx, pmax, pidx, lmax, lidx);
}

#define AMAX_MERGE(a, j)                                                    \
    do {                                                                    \
        if ((a) > best || ((a) == best && (j) < bidx)) {                    \
            best = (a);                                                     \
            bidx = (j);                                                     \
        }                                                                   \
    } while (0)

// res[offr] = the index of the best of the g partial pairs at pmax and
// pidx; -1 if no partial saw an element. Every work-item of the group
// must call it; four pairs in flight at a time, as in l1_gsum.
static inline void iamax_merge(volatile const __global real* pmax, volatile const __global int* pidx,
                               const int g, __global int* res, const long offr,
                               __local real* lmax, __local int* lidx)
{
    const int lid = get_local_id(0), ls = get_local_size(0);
    real best = -1;
    int bidx = INT_MAX;
    int i = lid;
    for (; i + 3 * ls < g; i += 4 * ls) {
        const real a0 = pmax[i], a1 = pmax[i + ls], a2 = pmax[i + 2 * ls], a3 = pmax[i + 3 * ls];
        const int j0 = pidx[i], j1 = pidx[i + ls], j2 = pidx[i + 2 * ls], j3 = pidx[i + 3 * ls];
        AMAX_MERGE(a0, j0);
        AMAX_MERGE(a1, j1);
        AMAX_MERGE(a2, j2);
        AMAX_MERGE(a3, j3);
    }
    for (; i < g; i += ls) {
        const real a = pmax[i];
        const int j = pidx[i];
        AMAX_MERGE(a, j);
    }
    argmax_local(lmax, lidx, best, bidx);
    if (lid == 0) res[offr] = lidx[0] == INT_MAX ? -1 : lidx[0];
}

// res[offr] = the index of the best of the g partial pairs (one
// work-group); -1 if no partial saw an element (n == 0 is answered by the
// host).
__kernel void iamax_fin(const int g, __global const real* pmax, __global const int* pidx,
                        __global int* res, const long offr,
                        __local real* lmax, __local int* lidx)
{
    iamax_merge(pmax, pidx, g, res, offr, lmax, lidx);
}

// res[offr] = the index of the first largest |x[i]| in one pass.
__kernel void iamax_one(const int n,
                    __global const real* x, const long offx, const int incx,
                    __global real* pmax, __global int* pidx, volatile __global uint* ticket,
                    __global int* res, const long offr,
                    __local real* lmax, __local int* lidx)
{
    __local int last;
    iamax_group(n, x, offx, incx, pmax, pidx, lmax, lidx);
    if (!l1_last(ticket, &last)) return;
    iamax_merge(pmax, pidx, (int)get_num_groups(0), res, offr, lmax, lidx);
    l1_done(ticket);
}

// ---------------------------------------------------------------------------
// Scalars kept on the device (the resident API's DotTo, Div, AxpyBy and
// ScalBy): a scalar is one element s[offs] of a buffer, so iterations such
// as conjugate gradients chain without reading it back.

// Second stage of a sum on the device: res[offr] = the sum of the g
// partials, by one work-group (a power-of-two local size).
__kernel void sum_parts(const int g, __global const real* partial,
                        __global real* res, const long offr,
                        __local real* scratch)
{
    const int lid = get_local_id(0);
    scratch[lid] = l1_gsum(partial, g);
    LOCAL_SUM(scratch, lid, (int)get_local_size(0));
    if (lid == 0) res[offr] = scratch[0];
}

// res[offr] = a[offa] / b[offb] (one work-item).
__kernel void div_scalar(__global const real* a, const long offa,
                         __global const real* b, const long offb,
                         __global real* res, const long offr)
{
    res[offr] = a[offa] / b[offb];
}

// y = (alpha*s)*x + y, s = s[offs] read once per work-item; s must not be
// an element of y.
__kernel void axpy_dev(const int n, const real alpha,
                       __global const real* s, const long offs,
                       __global const real* x, const long offx, const int incx,
                       __global real* y, const long offy, const int incy)
{
    l1_axpy(n, alpha * s[offs], x, offx, incx, y, offy, incy);
}

// x = (alpha*s)*x with scal's rule for a zero factor; s must not be an
// element of x.
__kernel void scal_dev(const int n, const real alpha,
                       __global const real* s, const long offs,
                       __global real* x, const long offx, const int incx)
{
    l1_scal(n, alpha * s[offs], x, offx, incx);
}

// ---------------------------------------------------------------------------
// Complex vectors of unit stride (complex level 1's AXPY, SCAL, DOT and
// IAMAX; NRM2 is znrm2 above, COPY, SWAP, the real-alpha SCAL and ASUM the
// real kernels above, over their 2n reals). A complex vector of n
// elements is 2n reals, each element its real part then its imaginary part
// (Go's complex64 and complex128); x and y point at reals and offx and
// offy count reals, while n counts complex elements.
//
// The unit-stride path loads Z_VW reals, Z_VW/2 whole elements, at a time:
// L1_VW, or 2 where L1_VW is 1. With are and aim the parts of alpha,
// alpha·x is are·x + aim·x̃ lane by lane, where x̃ has each element's parts
// exchanged and the new real part negated: (−Im x, Re x). That is Go's
// complex product term by term (ar·xr + (−(ai·xi)) is ar·xr − ai·xi
// exactly, signed zeros included). The elements before the first aligned
// vector and after the last whole one, and every element of vectors whose
// addresses are not equally aligned, take the same arithmetic one element
// at a time.

#if L1_VW == 1
#define Z_VW 2
#else
#define Z_VW L1_VW
#endif
typedef L1_CAT(L1_BASE, Z_VW) realz;
#if PRECISION == 64
typedef L1_CAT(long, Z_VW) zmask; // a comparison of realz
#else
typedef L1_CAT(int, Z_VW) zmask;
#endif
#define Z_VBYTES ((ulong)Z_VW * sizeof(real))
#define Z_EBYTES ((ulong)2 * sizeof(real))
#if Z_VW == 2
#define Z_SWAP(v) ((v).s10)
#define Z_ALT ((realz)(-1, 1))
#define Z_EVEN(v) ((v).s0)
#define Z_ODD(v) ((v).s1)
#elif Z_VW == 4
#define Z_SWAP(v) ((v).s1032)
#define Z_ALT ((realz)(-1, 1, -1, 1))
#define Z_EVEN(v) ((v).s0 + (v).s2)
#define Z_ODD(v) ((v).s1 + (v).s3)
#elif Z_VW == 8
#define Z_SWAP(v) ((v).s10325476)
#define Z_ALT ((realz)(-1, 1, -1, 1, -1, 1, -1, 1))
#define Z_EVEN(v) (((v).s0 + (v).s2) + ((v).s4 + (v).s6))
#define Z_ODD(v) (((v).s1 + (v).s3) + ((v).s5 + (v).s7))
#else
#define Z_SWAP(v) ((v).s1032547698badcfe)
#define Z_ALT ((realz)(-1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1))
#define Z_EVEN(v) ((((v).s0 + (v).s2) + ((v).s4 + (v).s6)) + (((v).s8 + (v).sa) + ((v).sc + (v).se)))
#define Z_ODD(v) ((((v).s1 + (v).s3) + ((v).s5 + (v).s7)) + (((v).s9 + (v).sb) + ((v).sd + (v).sf)))
#endif

// z_head is the number of elements before the first element at p aligned
// to Z_VW reals (at most n; n where no element is, as when p is not even
// aligned to an element).
static inline long z_head(const __global real* p, int n)
{
    const ulong m = (ulong)p % Z_VBYTES;
    if (m == 0) return 0;
    if (m % Z_EBYTES != 0) return n;
    return min((long)n, (long)((Z_VBYTES - m) / Z_EBYTES));
}

// Z_SPLIT sets h, the elements before the vectors, and nv, the whole
// vectors, of two vectors at px and py: no vectors unless both are
// equally aligned.
#define Z_SPLIT(px, py, n, h, nv)                                               \
    long h = (n), nv = 0;                                                       \
    if ((ulong)(px) % Z_VBYTES == (ulong)(py) % Z_VBYTES) {                     \
        h = z_head(py, n);                                                      \
        nv = 2 * ((n) - h) / Z_VW;                                              \
    }

// z_mul is alpha·v lane by lane; z_mul1 the same for one element.
static inline realz z_mul(const real are, const real aim, const realz v)
{
    return are * v + aim * (Z_SWAP(v) * Z_ALT);
}

static inline real2 z_mul1(const real are, const real aim, const real2 v)
{
    return are * v + aim * (real2)(-v.y, v.x);
}

// y = alpha·x + y. The host skips alpha == 0, as gonum does.
__kernel void zaxpy(const int n, const real are, const real aim,
                    __global const real* x, const long offx,
                    __global real* y, const long offy)
{
    const long gid = get_global_id(0), gs = get_global_size(0);
    __global const real* px = x + offx;
    __global real* py = y + offy;
    Z_SPLIT(px, py, n, h, nv)
    const long t = h + nv * (Z_VW / 2);
    for (long i = gid; i < h; i += gs) vstore2(vload2(i, py) + z_mul1(are, aim, vload2(i, px)), i, py);
    for (long i = t + gid; i < n; i += gs) vstore2(vload2(i, py) + z_mul1(are, aim, vload2(i, px)), i, py);
    __global const realz* vx = (__global const realz*)(px + 2 * h);
    __global realz* vy = (__global realz*)(py + 2 * h);
    realz a[L1_UNROLL];
    realz b[L1_UNROLL];
    L1_VLOOP(nv,
             L1_FOR_U {
                 a[u] = vx[v + u * vin];
                 b[u] = vy[v + u * vin];
             }
             L1_FOR_U vy[v + u * vin] = b[u] + z_mul(are, aim, a[u]),
             vy[v] = vy[v] + z_mul(are, aim, vx[v]))
}

// x = alpha·x; alpha == 0 assigns zeros (NaN and Inf in x do not
// survive), as gonum's Zscal and Cscal do.
__kernel void zscal(const int n, const real are, const real aim,
                    __global real* x, const long offx)
{
    const long gid = get_global_id(0), gs = get_global_size(0);
    const int zero = are == (real)0 && aim == (real)0;
    __global real* px = x + offx;
    Z_SPLIT(px, px, n, h, nv)
    const long t = h + nv * (Z_VW / 2);
    for (long i = gid; i < h; i += gs) vstore2(zero ? (real2)0 : z_mul1(are, aim, vload2(i, px)), i, px);
    for (long i = t + gid; i < n; i += gs) vstore2(zero ? (real2)0 : z_mul1(are, aim, vload2(i, px)), i, px);
    __global realz* vx = (__global realz*)(px + 2 * h);
    if (zero) {
        L1_VLOOP(nv, L1_FOR_U vx[v + u * vin] = (realz)0, vx[v] = (realz)0)
        return;
    }
    realz a[L1_UNROLL];
    L1_VLOOP(nv,
             L1_FOR_U a[u] = vx[v + u * vin];
             L1_FOR_U vx[v + u * vin] = z_mul(are, aim, a[u]),
             vx[v] = z_mul(are, aim, vx[v]))
}

// z_dot1 is the term of one element pair of a dot product: x·y, or
// conj(x)·y with conj.
static inline real2 z_dot1(const int conj, const real2 a, const real2 b)
{
    return conj ? (real2)(a.x * b.x + a.y * b.y, a.x * b.y - a.y * b.x)
                : (real2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// The partial sum of x·y (conj: conj(x)·y) of this work-group, into
// partial[get_group_id(0)]. On the vector path each lane keeps two sums,
// of x·y (p) and of x·ỹ (q), ỹ with each element's parts exchanged; the
// real part is then p's even lanes minus its odd ones (plus, with conj)
// and the imaginary part q's even lanes plus its odd ones (minus, with
// conj). Those are the terms of the complex products, summed in another
// order.
static inline void zdot_group(const int n, const int conj,
                   __global const real* x, const long offx,
                   __global const real* y, const long offy,
                   __global real2* partial, __local real2* scratch)
{
    const long gid = get_global_id(0), gs = get_global_size(0);
    __global const real* px = x + offx;
    __global const real* py = y + offy;
    Z_SPLIT(px, py, n, h, nv)
    const long t = h + nv * (Z_VW / 2);
    real2 acc = 0;
    for (long i = gid; i < h; i += gs) acc += z_dot1(conj, vload2(i, px), vload2(i, py));
    for (long i = t + gid; i < n; i += gs) acc += z_dot1(conj, vload2(i, px), vload2(i, py));
    __global const realz* vx = (__global const realz*)(px + 2 * h);
    __global const realz* vy = (__global const realz*)(py + 2 * h);
    realz p[L1_UNROLL], q[L1_UNROLL];
    L1_FOR_U { p[u] = 0; q[u] = 0; }
    realz a[L1_UNROLL];
    realz b[L1_UNROLL];
    L1_VLOOP(nv,
             L1_FOR_U {
                 a[u] = vx[v + u * vin];
                 b[u] = vy[v + u * vin];
             }
             L1_FOR_U {
                 p[u] += a[u] * b[u];
                 q[u] += a[u] * Z_SWAP(b[u]);
             },
             p[0] += vx[v] * vy[v];
             q[0] += vx[v] * Z_SWAP(vy[v]))
    L1_FOR_U1 {
        p[0] += p[u];
        q[0] += q[u];
    }
    const real pe = Z_EVEN(p[0]), po = Z_ODD(p[0]), qe = Z_EVEN(q[0]), qo = Z_ODD(q[0]);
    acc += conj ? (real2)(pe + po, qe - qo) : (real2)(pe - po, qe + qo);
    const int lid = get_local_id(0);
    scratch[lid] = acc;
    LOCAL_SUM(scratch, lid, (int)get_local_size(0));
    if (lid == 0) partial[get_group_id(0)] = scratch[0];
}

L1_GSUM(z_gsum, real2)

// Partial sums of x·y or conj(x)·y.
__kernel void zdot_part(const int n, const int conj,
                        __global const real* x, const long offx,
                        __global const real* y, const long offy,
                        __global real2* partial, __local real2* scratch)
{
    zdot_group(n, conj, x, offx, y, offy, partial, scratch);
}

// res[offr] = x·y or conj(x)·y in one pass (res and offr in complex
// elements).
__kernel void zdot_one(const int n, const int conj,
                       __global const real* x, const long offx,
                       __global const real* y, const long offy,
                       __global real2* partial, volatile __global uint* ticket,
                       __global real2* res, const long offr, __local real2* scratch)
{
    zdot_group(n, conj, x, offx, y, offy, partial, scratch);
    L1_ONE_SUM(real2, z_gsum)
}

// res[offr] = the sum of the g complex partials, by one work-group.
__kernel void zsum_parts(const int g, __global const real2* partial,
                         __global real2* res, const long offr,
                         __local real2* scratch)
{
    const int lid = get_local_id(0);
    scratch[lid] = z_gsum(partial, g);
    LOCAL_SUM(scratch, lid, (int)get_local_size(0));
    if (lid == 0) res[offr] = scratch[0];
}

// IAMAX of a complex vector of unit stride: the first element with the
// largest |Re| + |Im| (gonum's Izamax, NaN rules included), on the vector
// path of iamax_group. A vector of Z_VW reals holds Z_VW/2 elements, whose
// measures are its even lanes plus its odd lanes (realzh); each of those
// lanes keeps its own best, as iamax_group's lanes do.
#if Z_VW == 2
typedef real realzh;
typedef l1int l1intzh;
#define ZH_SEL(a, b, c) ((c) ? (b) : (a))
#else
#if Z_VW == 4
#define Z_VWH 2
#elif Z_VW == 8
#define Z_VWH 4
#else
#define Z_VWH 8
#endif
typedef L1_CAT(L1_BASE, Z_VWH) realzh;
typedef L1_CAT(L1_INT, Z_VWH) l1intzh;
#define ZH_SEL(a, b, c) select(a, b, c)
#endif

// ZAMAX_VSTEP folds the measures s of vector vi into vbest and vidx.
#define ZAMAX_VSTEP(s, vi)                                                     \
    do {                                                                       \
        const realzh s_ = (s);                                                 \
        vidx = ZH_SEL(vidx, (l1intzh)((l1int)(vi)), s_ > vbest);               \
        vbest = ZH_SEL(vbest, s_, s_ > vbest);                                 \
    } while (0)

// z_abs1 is |Re v| + |Im v|.
static inline real z_abs1(const real2 v) { return fabs(v.x) + fabs(v.y); }

// The (largest measure, first index) pair of this work-group's elements of
// the n elements at x + offx (offx in reals), into pmax[g] and pidx[g].
static inline void ziamax_group(const int n, __global const real* x, const long offx,
                                __global real* pmax, __global int* pidx,
                                __local real* lmax, __local int* lidx)
{
    const long gid = get_global_id(0), gs = get_global_size(0);
    __global const real* px = x + offx;
    real best = -1;
    int bidx = INT_MAX;
    if (n > 0 && isnan(z_abs1(vload2(0, px)))) {
        best = INFINITY;
        bidx = 0;
    } else {
        const long h = z_head(px, n);
        const long nv = 2 * (n - h) / Z_VW;
        for (long i = gid; i < h; i += gs) AMAX_TAKE(z_abs1(vload2(i, px)), (int)i);
        __global const realz* vx = (__global const realz*)(px + 2 * h);
        realz a[L1_UNROLL];
        realzh vbest = (realzh)(-1);
        l1intzh vidx = (l1intzh)(-1);
        L1_VLOOP(nv,
                 L1_FOR_U a[u] = fabs(vx[v + u * vin]);
                 L1_FOR_U ZAMAX_VSTEP(a[u].even + a[u].odd, v + u * vin),
                 a[0] = fabs(vx[v]);
                 ZAMAX_VSTEP(a[0].even + a[0].odd, v))
        const real* bl = (const real*)&vbest;
        const l1int* il = (const l1int*)&vidx;
        for (int k = 0; k < Z_VW / 2; k++) {
            if (il[k] >= 0) AMAX_TAKE(bl[k], (int)(h + (long)il[k] * (Z_VW / 2) + k));
        }
        for (long i = h + nv * (Z_VW / 2) + gid; i < n; i += gs) AMAX_TAKE(z_abs1(vload2(i, px)), (int)i);
    }
    amax_publish(best, bidx, pmax, pidx, lmax, lidx);
}

// Partial (largest measure, first index) pairs, one per group (iamax_fin
// merges them).
__kernel void ziamax_part(const int n, __global const real* x, const long offx,
                          __global real* pmax, __global int* pidx,
                          __local real* lmax, __local int* lidx)
{
    ziamax_group(n, x, offx, pmax, pidx, lmax, lidx);
}

// res[offr] = the index of the first element of largest measure, in one
// pass.
__kernel void ziamax_one(const int n, __global const real* x, const long offx,
                         __global real* pmax, __global int* pidx, volatile __global uint* ticket,
                         __global int* res, const long offr,
                         __local real* lmax, __local int* lidx)
{
    __local int last;
    ziamax_group(n, x, offx, pmax, pidx, lmax, lidx);
    if (!l1_last(ticket, &last)) return;
    iamax_merge(pmax, pidx, (int)get_num_groups(0), res, offr, lmax, lidx);
    l1_done(ticket);
}
