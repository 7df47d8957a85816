// common.cl — definitions every kernel family includes first.
//
// PRECISION selects the real type: 32 → float, 64 → double (the host only
// builds 64 on devices that report cl_khr_fp64).
#ifndef PRECISION
#define PRECISION 32
#endif

#if PRECISION == 64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
typedef double2 real2;
typedef double4 real4;
typedef double8 real8;
#define REAL_MAX DBL_MAX
#define REAL_MIN DBL_MIN
#elif PRECISION == 32
typedef float real;
typedef float2 real2;
typedef float4 real4;
typedef float8 real8;
#define REAL_MAX FLT_MAX
#define REAL_MIN FLT_MIN
#else
#error "PRECISION must be 32 or 64"
#endif

// argmax_local reduces the work-group's (value, index) pairs, one per
// work-item, to lmax[0] and lidx[0]: the largest value, and the smallest
// index among equal values (BLAS's i?amax keeps the first). Every
// work-item of the group must call it: it holds barriers.
void argmax_local(__local real* lmax, __local int* lidx, real best, int bidx) {
    const int lid = get_local_id(0);
    lmax[lid] = best;
    lidx[lid] = bidx;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s) {
            const real m2 = lmax[lid + s];
            const int i2 = lidx[lid + s];
            if (m2 > lmax[lid] || (m2 == lmax[lid] && i2 < lidx[lid])) {
                lmax[lid] = m2;
                lidx[lid] = i2;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
