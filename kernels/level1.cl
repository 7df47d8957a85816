// level1.cl — BLAS level 1 kernels (vector-vector), built after common.cl
// with PRECISION=32|64. No other defines: every option (the Givens flag,
// alpha == 0 in scal) is a kernel argument, so the file compiles once per
// precision.
//
// Vectors follow gonum's convention for strided storage: element i of x is
// x[offx + i*incx], where offx is 0 for incx > 0 and (n-1)*|incx| for
// incx < 0. Offsets are long and index products are computed in long, so a
// vector may span more than 2^31 elements; n itself is an int.
//
// Element-wise kernels (axpy, scal, copy, swap, rot, rotm) use one
// work-item per element over a global size rounded up to the work-group
// size. Reductions (dot, dsdot, asum, nrm2, iamax) are the first stage of
// a two-stage reduction: a bounded number of work-groups each walk the
// vector with a grid stride, reduce in local memory (the local size must
// be a power of two) and write one partial result per group; the host
// merges the few partials.
//
// Results follow gonum's Go code, including NaN and Inf: products are not
// contracted into fma (gonum's amd64 code does not fuse them either), zero
// is never a reason to skip work except where gonum skips it (nrm2 skips
// zero elements; scal with alpha == 0 assigns zeros).

#pragma OPENCL FP_CONTRACT OFF

#define ELEM(p, off, i, inc) (p)[(off) + (long)(i) * (long)(inc)]

// ---------------------------------------------------------------------------
// Element-wise kernels.

// y = alpha*x + y.
__kernel void axpy(const int n, const real alpha,
                   __global const real* x, const long offx, const int incx,
                   __global real* y, const long offy, const int incy)
{
    const long i = get_global_id(0);
    if (i >= n) return;
    ELEM(y, offy, i, incy) += alpha * ELEM(x, offx, i, incx);
}

// x = alpha*x; alpha == 0 assigns zeros (NaN and Inf in x do not survive),
// as gonum's Dscal/Sscal do.
__kernel void scal(const int n, const real alpha,
                   __global real* x, const long offx, const int incx)
{
    const long i = get_global_id(0);
    if (i >= n) return;
    if (alpha == (real)0) {
        ELEM(x, offx, i, incx) = (real)0;
    } else {
        ELEM(x, offx, i, incx) *= alpha;
    }
}

// y = x.
__kernel void copy(const int n,
                   __global const real* x, const long offx, const int incx,
                   __global real* y, const long offy, const int incy)
{
    const long i = get_global_id(0);
    if (i >= n) return;
    ELEM(y, offy, i, incy) = ELEM(x, offx, i, incx);
}

// x, y = y, x.
__kernel void swap(const int n,
                   __global real* x, const long offx, const int incx,
                   __global real* y, const long offy, const int incy)
{
    const long i = get_global_id(0);
    if (i >= n) return;
    const real vx = ELEM(x, offx, i, incx);
    ELEM(x, offx, i, incx) = ELEM(y, offy, i, incy);
    ELEM(y, offy, i, incy) = vx;
}

// Plane rotation: x, y = c*x + s*y, c*y - s*x.
__kernel void rot(const int n,
                  __global real* x, const long offx, const int incx,
                  __global real* y, const long offy, const int incy,
                  const real c, const real s)
{
    const long i = get_global_id(0);
    if (i >= n) return;
    const real vx = ELEM(x, offx, i, incx);
    const real vy = ELEM(y, offy, i, incy);
    ELEM(x, offx, i, incx) = c * vx + s * vy;
    ELEM(y, offy, i, incy) = c * vy - s * vx;
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
    const long i = get_global_id(0);
    if (i >= n) return;
    const real vx = ELEM(x, offx, i, incx);
    const real vy = ELEM(y, offy, i, incy);
    real rx, ry;
    if (flag == -1) {
        rx = vx * h11 + vy * h12;
        ry = vx * h21 + vy * h22;
    } else if (flag == 0) {
        rx = vx + vy * h12;
        ry = vx * h21 + vy;
    } else {
        rx = vx * h11 + vy;
        ry = -vx + vy * h22;
    }
    ELEM(x, offx, i, incx) = rx;
    ELEM(y, offy, i, incy) = ry;
}

// ---------------------------------------------------------------------------
// Reductions, first stage (kernel names end in _part; "dot" would clash
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

// Partial sums of x[i]*y[i].
__kernel void dot_part(const int n,
                  __global const real* x, const long offx, const int incx,
                  __global const real* y, const long offy, const int incy,
                  __global real* partial, __local real* scratch)
{
    const int lid = get_local_id(0);
    const int ls = get_local_size(0);
    real acc = 0;
    for (long i = get_global_id(0); i < n; i += get_global_size(0)) {
        acc += ELEM(x, offx, i, incx) * ELEM(y, offy, i, incy);
    }
    scratch[lid] = acc;
    LOCAL_SUM(scratch, lid, ls);
    if (lid == 0) partial[get_group_id(0)] = scratch[0];
}

// Partial sums of |x[i]|.
__kernel void asum_part(const int n,
                   __global const real* x, const long offx, const int incx,
                   __global real* partial, __local real* scratch)
{
    const int lid = get_local_id(0);
    const int ls = get_local_size(0);
    real acc = 0;
    for (long i = get_global_id(0); i < n; i += get_global_size(0)) {
        acc += fabs(ELEM(x, offx, i, incx));
    }
    scratch[lid] = acc;
    LOCAL_SUM(scratch, lid, ls);
    if (lid == 0) partial[get_group_id(0)] = scratch[0];
}

#if PRECISION == 32 && defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// Partial sums of (double)x[i]*(double)y[i] for float vectors (Dsdot,
// Sdsdot). Only compiled where the device has fp64; the host checks the
// profile before it asks for this kernel.
__kernel void dsdot_part(const int n,
                    __global const float* x, const long offx, const int incx,
                    __global const float* y, const long offy, const int incy,
                    __global double* partial, __local double* scratch)
{
    const int lid = get_local_id(0);
    const int ls = get_local_size(0);
    double acc = 0;
    for (long i = get_global_id(0); i < n; i += get_global_size(0)) {
        acc += (double)ELEM(x, offx, i, incx) * (double)ELEM(y, offy, i, incy);
    }
    scratch[lid] = acc;
    LOCAL_SUM(scratch, lid, ls);
    if (lid == 0) partial[get_group_id(0)] = scratch[0];
}
#endif

// Scaled sum of squares: a pair (scale, ssq) stands for scale² · ssq, with
// scale the largest |x| seen, so nothing overflows or underflows before the
// final square root. (0, 0) is the empty set. A NaN element makes scale
// NaN for good; an Inf makes scale Inf (ssq may then be NaN and is
// ignored). The host turns a NaN scale into NaN and an Inf scale into +Inf,
// gonum's answers.

// nrm2_add folds |v| into (*scale, *ssq), skipping zeros as gonum does.
static inline void nrm2_add(real v, real* scale, real* ssq)
{
    const real a = fabs(v);
    if (a == (real)0) return;
    if (isnan(a)) {
        *scale = a;
    } else if (*scale < a) {
        const real r = *scale / a;
        *ssq = (real)1 + *ssq * r * r;
        *scale = a;
    } else {
        const real r = a / *scale;
        *ssq += r * r;
    }
}

// nrm2_merge folds (s2, q2) into (*s1, *q1).
static inline void nrm2_merge(real* s1, real* q1, real s2, real q2)
{
    if (isnan(*s1)) return;
    if (isnan(s2)) {
        *s1 = s2;
        return;
    }
    if (s2 == (real)0) return;
    if (*s1 < s2) {
        const real r = *s1 / s2;
        *q1 = q2 + *q1 * r * r;
        *s1 = s2;
    } else {
        const real r = s2 / *s1;
        *q1 += q2 * r * r;
    }
}

// Partial (scale, ssq) pairs of x.
__kernel void nrm2_part(const int n,
                   __global const real* x, const long offx, const int incx,
                   __global real* pscale, __global real* pssq,
                   __local real* lscale, __local real* lssq)
{
    const int lid = get_local_id(0);
    const int ls = get_local_size(0);
    real scale = 0, ssq = 0;
    for (long i = get_global_id(0); i < n; i += get_global_size(0)) {
        nrm2_add(ELEM(x, offx, i, incx), &scale, &ssq);
    }
    lscale[lid] = scale;
    lssq[lid] = ssq;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = ls / 2; s > 0; s >>= 1) {
        if (lid < s) {
            real s1 = lscale[lid], q1 = lssq[lid];
            nrm2_merge(&s1, &q1, lscale[lid + s], lssq[lid + s]);
            lscale[lid] = s1;
            lssq[lid] = q1;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        pscale[get_group_id(0)] = lscale[0];
        pssq[get_group_id(0)] = lssq[0];
    }
}

// Partial (max |x|, first index) pairs. gonum's Idamax keeps the first
// strict maximum of |x| starting from |x[0]|, so a NaN never wins, except
// at index 0, where it is never beaten: index 0 then stands in as +Inf
// (which it beats on ties, being the smallest index). A group that sees no
// element reports (-1, INT_MAX).
__kernel void iamax_part(const int n,
                    __global const real* x, const long offx, const int incx,
                    __global real* pmax, __global int* pidx,
                    __local real* lmax, __local int* lidx)
{
    const int lid = get_local_id(0);
    real best = -1;
    int bidx = INT_MAX;
    for (long i = get_global_id(0); i < n; i += get_global_size(0)) {
        real a = fabs(ELEM(x, offx, i, incx));
        if (i == 0 && isnan(a)) a = INFINITY;
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
    const int ls = get_local_size(0);
    real acc = 0;
    for (int i = lid; i < g; i += ls) {
        acc += partial[i];
    }
    scratch[lid] = acc;
    LOCAL_SUM(scratch, lid, ls);
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
    const long i = get_global_id(0);
    if (i >= n) return;
    const real a = alpha * s[offs];
    ELEM(y, offy, i, incy) += a * ELEM(x, offx, i, incx);
}

// x = (alpha*s)*x with scal's rule for a zero factor; s must not be an
// element of x.
__kernel void scal_dev(const int n, const real alpha,
                       __global const real* s, const long offs,
                       __global real* x, const long offx, const int incx)
{
    const long i = get_global_id(0);
    if (i >= n) return;
    const real a = alpha * s[offs];
    if (a == (real)0) {
        ELEM(x, offx, i, incx) = (real)0;
    } else {
        ELEM(x, offx, i, incx) *= a;
    }
}
