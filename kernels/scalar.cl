// scalar.cl — operations on scalars kept in device memory (one element of
// a vector), so that an iteration can normalise without a host round trip.
// Each kernel runs as a single work-item: the work is a handful of flops,
// and what matters is that it stays in queue order on the device.

// nrm2_fold folds the partial pair (s2, q2) into (*s1, *q1), where a pair
// stands for s·sqrt(q). A NaN scale wins for good; a zero scale is an
// empty partial.
static inline void nrm2_fold(real* s1, real* q1, real s2, real q2)
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

// res[offr] = the norm the g partial (scale, ssq) pairs stand for: NaN if
// a scale is NaN, +Inf if the largest is infinite, else scale·sqrt(ssq).
__kernel void nrm2_finish(const int g,
                          __global const real* pscale, __global const real* pssq,
                          __global real* res, const long offr)
{
    real scale = 0, ssq = 0;
    for (int i = 0; i < g; i++) {
        nrm2_fold(&scale, &ssq, pscale[i], pssq[i]);
    }
    if (isnan(scale) || isinf(scale)) {
        res[offr] = scale;
    } else {
        res[offr] = scale * sqrt(ssq);
    }
}

// res[offr] = sqrt(a[offa]).
__kernel void sqrt_scalar(__global const real* a, const long offa,
                          __global real* res, const long offr)
{
    res[offr] = sqrt(a[offa]);
}

// res[offr] = 1 / a[offa].
__kernel void recip_scalar(__global const real* a, const long offa,
                           __global real* res, const long offr)
{
    res[offr] = (real)1 / a[offa];
}
