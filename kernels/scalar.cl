// scalar.cl — operations on scalars kept in device memory (one element of
// a vector), so that an iteration can normalise without a host round trip.
// Each kernel runs as a single work-item: the work is a handful of flops,
// and what matters is that it stays in queue order on the device.

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
