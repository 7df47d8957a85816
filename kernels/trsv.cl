// trsv.cl — the blocked triangular solves M·x = b (trsv, tbsv, tpsv) on
// gonum's row-major dense, band and packed storage, built after common.cl.
// M = op(A) is n×n triangular with band width k (dense and packed: n−1).
//
// The solve walks M's rows in dependency order: position p is row
// row(p) = p when M is lower triangular (forward), n−1−p when it is upper
// (backward), so that in positions M is always lower triangular, and
// M(p, q) is non-zero only for 0 ≤ p−q ≤ k. Positions come in blocks of TS.
// One launch of trsv_step per block: it takes the block [q0, q1) solved by
// the launch before (empty in the first launch), and
//   - every work-group g subtracts that block's part of M·x from the rows
//     [q1 + g·TS, q1 + (g+1)·TS) it reaches (rows below pend, the last
//     row within the band): the GEMV-shaped panel update, M's TS columns
//     read once in coalesced loads (a work-item per column of A's rows for
//     op(A) = A, staged through local memory; a work-item per row of M,
//     walking A's rows, for op(A) = Aᵀ);
//   - work-group 0 then solves the next diagonal block [q1, q1 + TS) in
//     local memory, a barrier per row, and stores it.
// So a solve is ⌈n/TS⌉ launches, and all of A but the diagonal blocks is
// read by the panel updates. Every product inside the band is computed,
// zero or not (no fma), so NaN and Inf spread as in gonum's Go code;
// nothing outside the band or triangle is read.
//
// Defines: TS, the block order and work-group size (default 64); the host
// keeps tile (TS·(TS+1) elements) within the device's local memory.

#pragma OPENCL FP_CONTRACT OFF

#ifndef TS
#define TS 64
#endif

// SV_B: loads a work-item issues together. A load's index is computed
// first (element 0 of a when the element is not wanted) so that the loads
// do not wait on one another; a loop of guarded loads would take one
// memory latency per element.
#define SV_B (TS < 16 ? TS : 16)

#define SV_DENSE 0
#define SV_BAND 1
#define SV_PACKED 2

// sv_at is the index of the stored element (r, c) of A (upper: c ≥ r;
// lower: c ≤ r) in the given storage.
static inline long sv_at(int storage, int upper, int n, int k, int lda, int r, int c)
{
    const long R = r;
    if (storage == SV_PACKED) return upper ? R * n - R * (R - 1) / 2 + (c - r) : R * (R + 1) / 2 + c;
    if (storage == SV_BAND) return R * lda + (upper ? c - r : c - r + k);
    return R * lda + c;
}

__kernel __attribute__((reqd_work_group_size(TS, 1, 1)))
void trsv_step(const int storage, const int upper, const int trans, const int unit,
               const int n, const int k, __global const real* a, const int lda,
               __global real* x, const int offx, const int incx,
               const int q0, const int q1, const int pend)
{
    __local real tile[TS][TS + 1];
    __local real xq[TS];
    const int t = get_local_id(0);
    const int g = get_group_id(0);
    const int fwd = upper == trans;
#define ROW(P) (fwd ? (P) : n - 1 - (P))
#define AT(R, C) sv_at(storage, upper, n, k, lda, (R), (C))
    const int p0 = q1 + g * TS;
    const int p = p0 + t;
    // This work-item's row's right-hand side, as far as it is updated.
    real acc = 0;
    if (p < n && (g == 0 || p < pend)) acc = x[offx + (long)ROW(p) * incx];
    if (q0 < q1) {
        // The panel: acc −= Σ_q M(p, q)·x(q) over the solved block's
        // columns within the band, q ≥ p − k.
        xq[t] = x[offx + (long)ROW(q0 + t) * incx];
        const int qlo = max(0, p - k - q0);
        real s = 0;
        if (trans) {
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int q8 = 0; q8 < TS; q8 += SV_B) {
                real v[SV_B];
                for (int u = 0; u < SV_B; u++) {
                    const int qq = q8 + u;
                    v[u] = a[(p < pend && qq >= qlo) ? AT(ROW(q0 + qq), ROW(p)) : 0];
                }
                for (int u = 0; u < SV_B; u++) {
                    if (p < pend && q8 + u >= qlo) s += v[u] * xq[q8 + u];
                }
            }
        } else {
            // Rows past pend and elements outside the band are loaded
            // as a[0] and never used.
            for (int p8 = 0; p8 < TS; p8 += SV_B) {
                real v[SV_B];
                for (int u = 0; u < SV_B; u++) {
                    const int pr = p0 + p8 + u;
                    v[u] = a[(pr < pend && pr - (q0 + t) <= k) ? AT(ROW(pr), ROW(q0 + t)) : 0];
                }
                for (int u = 0; u < SV_B; u++) tile[p8 + u][t] = v[u];
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (p < pend) {
                for (int qq = qlo; qq < TS; qq++) s += tile[t][qq] * xq[qq];
            }
        }
        acc -= s;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (g != 0) {
        if (p < pend) x[offx + (long)ROW(p) * incx] = acc;
    } else {
    // Work-group 0: the diagonal block [q1, q1 + w), tile(pp, qq) =
    // M(q1 + pp, q1 + qq) for qq ≤ pp in the band (the diagonal unless
    // unit), loaded along A's rows.
    const int w = min(TS, n - q1);
    for (int o8 = 0; o8 < TS; o8 += SV_B) {
        real v[SV_B];
        for (int u = 0; u < SV_B; u++) {
            const int o = o8 + u;
            const int pp = trans ? t : o, qq = trans ? o : t;
            const int in = o < w && pp < w && qq <= pp && pp - qq <= k && !(unit && pp == qq);
            v[u] = a[in ? AT(ROW(q1 + o), ROW(q1 + t)) : 0];
        }
        for (int u = 0; u < SV_B; u++) {
            const int o = o8 + u;
            const int pp = trans ? t : o, qq = trans ? o : t;
            if (o < w && pp < w && qq <= pp) tile[pp][qq] = v[u];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Row s is final at step s: its work-item stores it there (PoCL 3.1
    // runs a store after this loop guarded by t < w on every work-item).
    for (int s = 0; s < w; s++) {
        if (t == s) {
            const real v = unit ? acc : acc / tile[s][s];
            xq[s] = v;
            x[offx + (long)ROW(q1 + s) * incx] = v;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t > s && t < w && t - s <= k) acc -= tile[t][s] * xq[s];
    }
    }
#undef ROW
#undef AT
}
