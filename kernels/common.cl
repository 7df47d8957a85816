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
