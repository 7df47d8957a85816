// trsv.cl — the blocked triangular solves M·x = b (trsv, tbsv, tpsv, real
// and complex) on gonum's row-major dense, band and packed storage, built
// after common.cl. M = op(A) is n×n triangular with band width k (dense
// and packed: n−1); op(A) is A, Aᵀ or (complex) Aᴴ.
//
// Elements: real, or with SV_CPLX a complex number as a real2 (re, im),
// the layout of Go's complex64 and complex128. Products and quotients are
// Go's (FP_CONTRACT off; Smith's division with Go's corrections), so the
// complex build is the real one's twin written once.
//
// The solve walks M's rows in dependency order: position p is row
// row(p) = p when M is lower triangular (forward), n−1−p when it is upper
// (backward), so that in positions M is always lower triangular, and
// M(p, q) is non-zero only for 0 ≤ p−q ≤ k.
//
// Positions come in sub-blocks of TS (the work-group size) and launch
// blocks of NB (a multiple of TS):
//   - trsv_inv, one launch, a work-group per sub-block: inverts the
//     sub-block's diagonal block D of M in local memory (row by row,
//     X(i, t) = −Σ_{t≤m<i} M(i, m)·X(m, t) / M(i, i)) into a workspace,
//     with a flag set where D, or its inverse, is not finite, D has a
//     zero on its diagonal or D is ill-conditioned (SV_COND); and copies
//     x (strided) into the workspace's right-hand sides r.
//   - trsv_blk, one launch per launch block [q1, q1 + NB): every
//     work-group solves the whole block in local memory, sub-block after
//     sub-block (x_s = D_s⁻¹·r_s, then r of the later sub-blocks of the
//     block −= their part of M·x_s); work-group 0 stores the block's x;
//     then the work-groups, striding over tiles of TS rows, subtract the
//     block's part of M·x from the r of the rows it reaches (all the rows
//     below; the band's k for tbsv): the GEMV-shaped update, one pass over
//     the panel, A read in coalesced loads.
// So a solve is 1 + ⌈n/NB⌉ launches, with no work-group ever waiting on
// another: each launch needs only what the launches before it wrote. The
// block is solved by every work-group (its NB²/2 elements read by each,
// from the cache), so that none waits for another.
//
// The split schedule solves each launch block once instead, in two
// launches: trsv_sol, one work-group of a work-item per position (or,
// where the device's work-groups are smaller than NB, trsv_blk on a
// single work-group with no rows below), solves the block and stores its
// x; then trsv_upd, the trailing update alone, a work-group per tile of
// rows. A solve is then 1 + 2·⌈n/NB⌉
// launches, but the block's cost no longer grows with the number of
// work-groups, so NB can be several times larger.
//
// Both are latency-bound: every launch waits for the one before, and
// the device is mostly idle in between. The flow schedule makes the
// solve one launch after trsv_inv: trsv_flow's work-groups persist,
// each taking the next sub-block b by ticket (an atomic counter) until
// none is left, so any number of groups, one included, solves them all.
// For b the group starts from r_b (r is only read), subtracts
// M(b, j)·x_j for the earlier sub-blocks j the band reaches, in order,
// each once sub-block j's done flag is set (work-item 0 polls it, then a
// barrier; M's tile is loaded before the wait, as it does not depend on
// x, and x_j is read through volatile loads from xp, a contiguous
// published copy of x, not from a stale cache), solves its diagonal block as
// trsv_blk does (sv_sub), stores x_b in x and in the published copy, and
// sets done[b] after a global fence (on NVIDIA by a release store, the
// polls acquire loads: sv_seen, sv_set). Tickets go out in order and a group
// waits only for smaller ones, held by groups already running, so the
// wait ends on a device whose started work-groups keep running. A wait
// is bounded all the same: one that runs out sets the failure flag, and
// then no group takes another sub-block, nor publishes one whose waits did
// not all end in a published sub-block. A
// second launch, always enqueued after it, of trsv_flow with rescue set
// on one work-group does nothing unless that flag is set, and then
// solves every sub-block again in order from r, which is intact: device
// trouble costs time, not a wrong answer, and the host waits for
// nothing. Only sub-block j's published x crosses work-groups, through
// the flags and fences the grid kernels of lapack.cl rely on.
//
// Rounding and exceptions: a sub-block with its flag set, or whose r is
// not finite, is solved by substitution (a row at a time, as gonum's loop
// does), so a zero or non-finite diagonal, or Inf and NaN in A or b, give
// the Inf and NaN of gonum's code. Only finite, well-conditioned
// sub-blocks with finite right-hand sides use their inverse: there the
// result differs from substitution by rounding, at most about SV_COND
// times substitution's error bound. Every product inside the band is computed, zero or not, so
// NaN and Inf spread as in gonum's code; nothing outside the band or the
// triangle is read.
//
// Defines: TS, the sub-block order and work-group size (default 64); NB,
// the launch block (a multiple of TS, default TS); SV_CPLX for complex
// elements. The host keeps the local tile (TS·(TS+1) elements) and NB
// elements of x within the device's local memory.
//
// Local memory comes as arguments (the tile, x's block, a flag), not as
// kernel-scope __local variables: PoCL 3.1 gave wrong solves, now and then,
// with those when several work-groups ran at once (as in PoCL's issue
// 1218), and always right ones with arguments.
//
// Workspace w (elements): r at [0, nsb·TS), the inverses at
// [nsb·TS, nsb·TS + nsb·TS²) (sub-block b's, column-major: X(i, j) at
// b·TS² + j·TS + i, zero above the diagonal and past the matrix), the flags
// at the nsb elements after them (non-zero: substitute); nsb = ⌈n/TS⌉.
// The flow schedule's int flags (zeroed by trsv_inv, whose sync is
// otherwise empty): the failure flag, the ticket counter, then a done
// flag per sub-block (SV_FAIL, SV_TICKET, SV_DONE).

#pragma OPENCL FP_CONTRACT OFF

#ifndef TS
#define TS 64
#endif
#ifndef NB
#define NB TS
#endif

// SV_COND: the largest ‖D‖∞·‖D⁻¹‖∞ of a diagonal sub-block solved by its
// inverse (the inverse's extra error is about that factor times
// substitution's).
#define SV_COND 256

#define SV_DENSE 0
#define SV_BAND 1
#define SV_PACKED 2

#ifdef SV_CPLX
typedef real2 elem;
#define EZERO ((real2)(0, 0))
#define EONE ((real2)(1, 0))
static inline elem emul(const elem a, const elem b)
{
    return (real2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
static inline int efinite(const elem a) { return isfinite(a.x) && isfinite(a.y); }
static inline int ezero(const elem a) { return a.x == 0 && a.y == 0; }
static inline elem econj(const elem a, const int c) { return c ? (real2)(a.x, -a.y) : a; }
static inline real eabs1(const elem a) { return fabs(a.x) + fabs(a.y); }
#define EREAL(a) ((a).x)
#define ESCAL(r) ((real2)((r), 0))
// ediv is n/m as Go's runtime forms it (common.cl's cdiv_go).
static inline elem ediv(const elem n, const elem m) { return cdiv_go(n, m); }
#else
typedef real elem;
#define EZERO ((real)0)
#define EONE ((real)1)
static inline elem emul(const elem a, const elem b) { return a * b; }
static inline int efinite(const elem a) { return isfinite(a); }
static inline int ezero(const elem a) { return a == 0; }
static inline elem econj(const elem a, const int c) { return a; }
static inline real eabs1(const elem a) { return fabs(a); }
#define EREAL(a) (a)
#define ESCAL(r) (r)
static inline elem ediv(const elem n, const elem m) { return n / m; }
#endif

// sv_at is the index of the stored element (r, c) of A (upper: c ≥ r;
// lower: c ≤ r) in the given storage.
static inline long sv_at(int storage, int upper, int n, int k, int lda, int r, int c)
{
    const long R = r;
    if (storage == SV_PACKED) return upper ? R * n - R * (R - 1) / 2 + (c - r) : R * (R + 1) / 2 + c;
    if (storage == SV_BAND) return R * lda + (upper ? c - r : c - r + k);
    return R * lda + c;
}

#define SV_PARAMS const int storage, const int upper, const int trans, const int unit, \
    const int n, const int k, __global const elem* a, const int lda
#define SV_ARGS storage, upper, trans, unit, n, k, a, lda
#define SV_ROW(P) ((upper == (trans != 0)) ? (P) : n - 1 - (P))
// SV_MIDX is the index in a of M(p, q) for p ≥ q.
#define SV_MIDX(P, Q) (trans ? sv_at(storage, upper, n, k, lda, SV_ROW(Q), SV_ROW(P)) \
                             : sv_at(storage, upper, n, k, lda, SV_ROW(P), SV_ROW(Q)))

// sv_tile loads tile[i][j] = M(p0 + i, c0 + j) for i, j < TS, zero outside
// [p0, pend) × [c0, c0 + cw), the band, the strict lower triangle (diag:
// the diagonal too, unless unit) and the matrix. Every element a
// work-item loads is issued before any is used (the index of an unwanted
// one is 0): a loop of guarded loads would wait for memory once per
// element. A's rows are read along their length: for op(A) = A, work-item
// t takes column c0 + t of each row; for Aᵀ, row p0 + t.
static inline void sv_tile(SV_PARAMS, const int p0, const int pend, const int c0, const int cw,
                           const int diag, __local elem (*tile)[TS + 1])
{
    const int t = get_local_id(0);
    elem v[TS];
    for (int o = 0; o < TS; o++) {
        const int p = trans ? p0 + t : p0 + o, q = trans ? c0 + o : c0 + t;
        const int in = p < pend && q < c0 + cw && q <= p && p - q <= k && (q < p || (diag && !unit));
        v[o] = a[in ? SV_MIDX(p, q) : 0];
    }
    for (int o = 0; o < TS; o++) {
        const int p = trans ? p0 + t : p0 + o, q = trans ? c0 + o : c0 + t;
        const int in = p < pend && q < c0 + cw && q <= p && p - q <= k && (q < p || (diag && !unit));
        tile[p - p0][q - c0] = in ? econj(v[o], trans == 2) : EZERO;
    }
}

// sv_row_dot returns Σ_{lo ≤ c < cw} tile[t][c]·xq[c] over work-item t's
// row of a loaded tile.
static inline elem sv_row_dot(__local elem (*tile)[TS + 1], const int lo, const int cw,
                              __local const elem* xq)
{
    const int t = get_local_id(0);
    elem s = EZERO;
    for (int c = lo; c < cw; c++) s += emul(tile[t][c], xq[c]);
    return s;
}

// sv_panel returns Σ_{c < cw} M(p0 + t, c0 + c)·xq[c] over work-item t's
// row's band (rows below the columns; past pend the result is not used).
// Every work-item of the group calls it (barriers for op(A) = A, whose
// rows it transposes through the tile).
static inline elem sv_panel(SV_PARAMS, const int p0, const int pend, const int c0, const int cw,
                            __local const elem* xq, __local elem (*tile)[TS + 1])
{
    const int t = get_local_id(0);
    const int clo = max(0, p0 + t - k - c0);
    elem s = EZERO;
    if (trans) {
        // Work-item t reads its own row of M along A's rows: no tile.
        const int p = p0 + t;
        elem v[TS];
        for (int o = 0; o < TS; o++) {
            const int q = c0 + o;
            v[o] = a[p < pend && o < cw && p - q <= k ? SV_MIDX(p, q) : 0];
        }
        for (int o = 0; o < TS; o++) {
            if (o >= clo && o < cw) s += emul(econj(v[o], trans == 2), xq[o]);
        }
        return s;
    }
    sv_tile(SV_ARGS, p0, pend, c0, cw, 0, tile);
    barrier(CLK_LOCAL_MEM_FENCE);
    s = sv_row_dot(tile, clo, cw, xq);
    barrier(CLK_LOCAL_MEM_FENCE);
    return s;
}

// trsv_inv: a work-group per sub-block b (see the file's comment).
__kernel __attribute__((reqd_work_group_size(TS, 1, 1)))
void trsv_inv(SV_PARAMS, __global const elem* x, const long offx, const int incx, __global elem* w,
              __global int* sync, const int nsync, __local elem* tl, __local int* badp)
{
    __local elem (*tile)[TS + 1] = (__local elem (*)[TS + 1])tl;
#define bad (*badp)
    const int t = get_local_id(0);
    const int b = get_group_id(0);
    const long nsb = get_num_groups(0);
    const int p0 = b * TS;
    for (long i = p0 + t; i < nsync; i += nsb * TS) sync[i] = 0;
    const int sw = min(TS, n - p0);
    w[p0 + t] = t < sw ? x[offx + (long)SV_ROW(p0 + t) * incx] : EZERO;
    if (t == 0) bad = 0;
    sv_tile(SV_ARGS, p0, p0 + sw, p0, sw, 1, tile);
    barrier(CLK_LOCAL_MEM_FENCE);
    int mine = 0;
    real rs = unit && t < sw ? 1 : 0;
    for (int o = 0; o < TS; o++) {
        mine |= !efinite(tile[o][t]);
        rs += eabs1(tile[t][o]);
    }
    // D's row sums, in the tile's spare column.
    tile[t][TS] = ESCAL(rs);
    // Row i of the inverse from rows < i (already inverted in place) and
    // row i of D: every work-item forms its element before any is stored.
    for (int i = 0; i < sw; i++) {
        const elem d = unit ? EONE : tile[i][i];
        elem v = EZERO;
        if (t < i) {
            elem s = EZERO;
            for (int m = t; m < i; m++) s += emul(tile[i][m], tile[m][t]);
            v = ediv(-s, d);
        } else if (t == i) {
            mine |= ezero(d) || !efinite(d);
            v = ediv(EONE, d);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t <= i) {
            mine |= !efinite(v);
            tile[i][t] = v;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    // An ill-conditioned D (‖D‖∞·‖D⁻¹‖∞ above SV_COND) is solved by
    // substitution too: the inverse's error grows with that product.
    real dmax = 0, xs = 0;
    for (int o = 0; o < TS; o++) {
        dmax = fmax(dmax, EREAL(tile[o][TS]));
        if (o <= t) xs += eabs1(tile[t][o]);
    }
    mine |= !(dmax * xs <= SV_COND);
    if (mine) atomic_or(&bad, 1);
    __global elem* inv = w + nsb * TS + (long)b * TS * TS;
    for (int j = 0; j < TS; j++) inv[j * TS + t] = (t >= j && t < sw) ? tile[t][j] : EZERO;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t == 0) w[nsb * TS + nsb * TS * TS + b] = bad ? EONE : EZERO;
#undef bad
}

// sv_sub solves the sub-block [s, s + sw) of the launch block at q1 in
// place in xb (its r on entry, its x on return): by the inverse, or by
// substitution where the sub-block's flag is set or its r is not finite.
// Every work-item of the group calls it (barriers).
static inline void sv_sub(SV_PARAMS, __global const elem* inv, const int flag, const int q1,
                          const int s, const int sw, __local elem* xb, __local elem (*tile)[TS + 1],
                          __local int* bad)
{
    const int t = get_local_id(0);
    if (t == 0) *bad = flag;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t < sw && !efinite(xb[s + t])) atomic_or(bad, 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int sub = *bad;
    if (!sub) {
        elem d[TS];
        for (int c = 0; c < TS; c++) d[c] = inv[c * TS + t];
        elem v = EZERO;
        for (int c = 0; c < TS; c++) {
            if (c <= t && c < sw) v += emul(d[c], xb[s + c]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t < sw) xb[s + t] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        return;
    }
    sv_tile(SV_ARGS, q1 + s, q1 + s + sw, q1 + s, sw, 1, tile);
    barrier(CLK_LOCAL_MEM_FENCE);
    elem acc = t < sw ? xb[s + t] : EZERO;
    // Row j is final at step j: its work-item stores it there (PoCL 3.1
    // ran a store after such a loop, guarded by t < sw, on every
    // work-item).
    for (int j = 0; j < sw; j++) {
        if (t == j) {
            const elem v = unit ? acc : ediv(acc, tile[j][j]);
            xb[s + j] = v;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t > j && t < sw && t - j <= k) acc -= emul(tile[t][j], xb[s + j]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

// sv_update subtracts the launch block's part of M·x (x's block [q1, q1 +
// bw) in xb) from the r of the rows [q1 + bw, pend), a tile of TS rows at
// a time, the work-groups striding over the tiles. Every work-item of the
// group calls it (barriers).
static inline void sv_update(SV_PARAMS, __global elem* r, const int q1, const int bw, const int pend,
                             __local const elem* xb, __local elem (*tile)[TS + 1])
{
    const int t = get_local_id(0);
    const int g = get_group_id(0);
    const int ng = get_num_groups(0);
    for (int p0 = q1 + bw + g * TS; p0 < pend; p0 += ng * TS) {
        elem u = EZERO;
        for (int c = 0; c < bw; c += TS) {
            // The same for every work-item: a column chunk the band misses.
            if (p0 - (q1 + c + TS - 1) > k) continue;
            u += sv_panel(SV_ARGS, p0, pend, q1 + c, min(TS, bw - c), xb + c, tile);
        }
        if (p0 + t < pend) r[p0 + t] -= u;
    }
}

// trsv_blk: one launch block [q1, q1 + NB) (see the file's comment); pend
// is the end of the rows the block reaches.
__kernel __attribute__((reqd_work_group_size(TS, 1, 1)))
void trsv_blk(SV_PARAMS, __global elem* x, const long offx, const int incx, __global elem* w,
              const int q1, const int pend, __local elem* tl, __local elem* xb, __local int* bad)
{
    __local elem (*tile)[TS + 1] = (__local elem (*)[TS + 1])tl;
    const int t = get_local_id(0);
    const int g = get_group_id(0);
    const long nsb = (n + TS - 1) / TS;
    __global elem* r = w;
    const int bw = min(NB, n - q1);
    for (int i = t; i < NB; i += TS) xb[i] = i < bw ? r[q1 + i] : EZERO;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 0; s < bw; s += TS) {
        const int sw = min(TS, bw - s);
        const long sb = (q1 + s) / TS;
        const int flag = !ezero(w[nsb * TS + nsb * TS * TS + sb]);
        sv_sub(SV_ARGS, w + nsb * TS + sb * TS * TS, flag, q1, s, sw, xb, tile, bad);
        // The later sub-blocks of the launch block the band reaches.
        for (int ro = s + TS; ro < bw && ro - (s + sw - 1) <= k; ro += TS) {
            const elem u = sv_panel(SV_ARGS, q1 + ro, q1 + bw, q1 + s, sw, xb + s, tile);
            if (ro + t < bw) xb[ro + t] -= u;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    if (g == 0) {
        for (int i = t; i < bw; i += TS) x[offx + (long)SV_ROW(q1 + i) * incx] = xb[i];
    }
    sv_update(SV_ARGS, r, q1, bw, pend, xb, tile);
}

// sv_col_sum returns Σ_{lo ≤ c < hi} M(p, q0 + c)·xq[c] (hi ≤ TS), its
// loads issued a few at a time: a work-group of NB work-items cannot hold
// TS elements each in registers.
static inline elem sv_col_sum(SV_PARAMS, const int p, const int q0, const int lo, const int hi,
                              __local const elem* xq)
{
    elem s = EZERO;
    for (int c0 = 0; c0 < TS; c0 += 8) {
        elem v[8];
        for (int o = 0; o < 8; o++) {
            const int c = c0 + o;
            v[o] = a[c >= lo && c < hi ? SV_MIDX(p, q0 + c) : 0];
        }
        for (int o = 0; o < 8; o++) {
            const int c = c0 + o;
            if (c >= lo && c < hi) s += emul(econj(v[o], trans == 2), xq[c]);
        }
    }
    return s;
}

// trsv_sol: the split schedule's solve of the launch block [q1, q1 + NB),
// a work-item per position (work-group NB), sub-block after sub-block:
// the sub-block's work-items form x = D⁻¹·r (or substitute, as sv_sub),
// then every later position of the block subtracts its row's part of
// M·x at once, so the block costs a short step per sub-block and not a
// tile per pair of sub-blocks. Stores the block's x.
__kernel __attribute__((reqd_work_group_size(NB, 1, 1)))
void trsv_sol(SV_PARAMS, __global elem* x, const long offx, const int incx, __global const elem* w,
              const int q1, __local elem* xb, __local int* bad)
{
    const int i = get_local_id(0);
    const long nsb = (n + TS - 1) / TS;
    const int bw = min(NB, n - q1);
    const int p = q1 + i;
    elem acc = i < bw ? w[p] : EZERO;
    for (int s = 0; s < bw; s += TS) {
        const int sw = min(TS, bw - s);
        const int mine = i >= s && i < s + sw;
        const long sb = (q1 + s) / TS;
        if (i == 0) *bad = !ezero(w[nsb * TS + nsb * TS * TS + sb]);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (mine) {
            xb[i] = acc;
            if (!efinite(acc)) atomic_or(bad, 1);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (!*bad) {
            elem v = EZERO;
            if (mine) {
                __global const elem* inv = w + nsb * TS + sb * TS * TS + (i - s);
                for (int c = 0; c <= i - s; c++) v += emul(inv[c * TS], xb[s + c]);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (mine) xb[i] = v;
        } else {
            // Row s + j is final at step j (its work-item stores it).
            for (int j = 0; j < sw; j++) {
                if (i == s + j) xb[i] = unit ? acc : ediv(acc, econj(a[SV_MIDX(p, p)], trans == 2));
                barrier(CLK_LOCAL_MEM_FENCE);
                if (i > s + j && mine && i - (s + j) <= k) acc -= emul(econj(a[SV_MIDX(p, q1 + s + j)], trans == 2), xb[s + j]);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        // The later positions of the block the band reaches.
        if (i >= s + sw && i < bw) acc -= sv_col_sum(SV_ARGS, p, q1 + s, max(0, i - s - k), sw, xb + s);
    }
    if (i < bw) x[offx + (long)SV_ROW(p) * incx] = xb[i];
}

// trsv_upd: the split schedule's trailing update of the launch block
// [q1, q1 + NB), solved and stored in x by a one-group trsv_blk launch
// before it: r[p] −= Σ_q M(p, q)·x_q over the rows [q1 + bw, pend) the
// block reaches. The block is solved once, so this launch can be as wide
// as the rows: a work-group per tile of TS rows (striding when fewer),
// each with x's block in local memory and its tiles of M read once.
__kernel __attribute__((reqd_work_group_size(TS, 1, 1)))
void trsv_upd(SV_PARAMS, __global const elem* x, const long offx, const int incx, __global elem* w,
              const int q1, const int pend, __local elem* tl, __local elem* xb)
{
    __local elem (*tile)[TS + 1] = (__local elem (*)[TS + 1])tl;
    const int t = get_local_id(0);
    const int bw = min(NB, n - q1);
    for (int i = t; i < bw; i += TS) xb[i] = x[offx + (long)SV_ROW(q1 + i) * incx];
    barrier(CLK_LOCAL_MEM_FENCE);
    sv_update(SV_ARGS, w, q1, bw, pend, xb, tile);
}

// The flow schedule's flags (int32 at sync, zeroed by trsv_inv): the
// failure flag, the ticket counter, then sub-block b's done flag.
#define SV_FAIL 0
#define SV_TICKET 1
#define SV_DONE 2

// sv_ticket is the next sub-block this work-group solves (nsb: none):
// the next ticket of the launch, none once a group has failed (or, at
// poison − 1, the ticket a test makes fail); for the rescue (one group),
// the sub-block after prev, none unless a group failed. Every work-item
// of the group calls it (barriers).
static inline int sv_ticket(volatile __global int* sync, const int nsb, const int rescue, const int prev,
                            const int poison, __local int* tk)
{
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        int b = nsb;
        if (rescue) {
            if (sync[SV_FAIL]) b = prev + 1;
        } else if (!sync[SV_FAIL]) {
            b = atomic_inc(sync + SV_TICKET);
            if (b == poison - 1) {
                atomic_xchg(sync + SV_FAIL, 1);
                b = nsb;
            }
        }
        *tk = min(b, nsb);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    return *tk;
}

// sv_seen reads a done flag as the wait's poll, sv_set sets one as the
// publication. With SV_PTX (NVIDIA's GPUs of compute capability 7.0 and
// up, whose PTX has them) they are PTX's acquire load and release store at
// the GPU's scope, which order the sub-block's x with its flag by
// themselves; NVIDIA's OpenCL builds mem_fence as a fence of the
// work-group's scope only. Else a volatile load and a fence and
// atomic exchange.
#ifdef SV_PTX
// NVIDIA's compiler takes the asm keyword (gemm_mma.cl's MMA_ASM); clang's
// OpenCL mode, for offline PTX, only __asm__ (-DSV_ASM=__asm__).
#ifndef SV_ASM
#define SV_ASM asm
#endif
static inline int sv_seen(volatile __global int* f)
{
    int v;
    SV_ASM volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(f) : "memory");
    return v != 0;
}
static inline void sv_set(volatile __global int* f)
{
    SV_ASM volatile("st.release.gpu.global.b32 [%0], %1;" : : "l"(f), "r"(1) : "memory");
}
#else
static inline int sv_seen(volatile __global int* f)
{
    return *f != 0;
}
static inline void sv_set(volatile __global int* f)
{
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_xchg(f, 1);
}
#endif

// sv_wait waits until sub-block j is published: work-item 0 polls its
// done flag (at most spin times, then sets the failure flag) and every
// work-item returns whether j was published (the rescue waits for
// nothing: it solved j itself). The failure flag is read only every
// SV_FAIL_POLLS polls, so that once j's flag is set the group goes on
// after one read: the wait is on the chain's path, sub-block after
// sub-block. A group that sees j published goes on even if the launch
// has failed since; the rescue solves everything again then. Every
// work-item of the group calls it (barriers).
#define SV_FAIL_POLLS 64
static inline int sv_wait(volatile __global int* sync, const int j, const int spin, const int rescue,
                          __local int* ok)
{
    if (get_local_id(0) == 0) {
        int seen = rescue;
        for (int polls = 1; !seen; polls++) {
            seen = sv_seen(sync + SV_DONE + j);
            if (seen || (polls % SV_FAIL_POLLS == 0 && sync[SV_FAIL] != 0)) break;
            if (polls > spin) {
                atomic_xchg(sync + SV_FAIL, 1);
                break;
            }
        }
#ifndef SV_PTX
        mem_fence(CLK_GLOBAL_MEM_FENCE);
#endif
        *ok = seen;
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    return *ok;
}

// trsv_flow: the flow schedule's solve of every sub-block in one launch
// (see the file's comment), persistent work-groups taking sub-blocks by
// ticket; with rescue, one work-group enqueued right after it, which
// solves them all again, in order, if that launch failed. r (w's first
// part) is only read, so the rescue starts from b. xp holds the solved
// sub-blocks contiguously (nsb·TS elements), published to later groups.
// Local: the tile, TS elements of x, three ints.
__kernel __attribute__((reqd_work_group_size(TS, 1, 1)))
void trsv_flow(SV_PARAMS, __global elem* x, const long offx, const int incx, __global const elem* w,
               __global elem* xp, volatile __global int* sync, const int spin, const int poison,
               const int rescue, __local elem* tl, __local elem* xb, __local int* li)
{
    __local elem (*tile)[TS + 1] = (__local elem (*)[TS + 1])tl;
    const int t = get_local_id(0);
    const int nsb = (n + TS - 1) / TS;
    volatile __global const elem* published = xp;
    // After a wait that did not end in a published sub-block the group
    // runs its sub-block to the end (no return out of a loop with
    // barriers) but publishes nothing: live is 0.
    for (int b = sv_ticket(sync, nsb, rescue, -1, poison, li + 2); b < nsb;
         b = sv_ticket(sync, nsb, rescue, b, poison, li + 2)) {
        const int p0 = b * TS;
        const int sw = min(TS, n - p0);
        elem acc = t < sw ? w[p0 + t] : EZERO;
        int live = 1;
        // The earlier sub-blocks the band reaches, in order; the tile of
        // M is loaded before the wait for x's part.
        for (int j = p0 > k ? (p0 - k) / TS : 0; j < b; j++) {
            const int c0 = j * TS;
            sv_tile(SV_ARGS, p0, p0 + sw, c0, TS, 0, tile);
            live &= sv_wait(sync, j, spin, rescue, li + 1);
            xb[t] = published[c0 + t];
            barrier(CLK_LOCAL_MEM_FENCE);
            acc -= sv_row_dot(tile, max(0, p0 + t - k - c0), TS, xb);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (t < sw) xb[t] = acc;
        const long fl = nsb * TS + (long)nsb * TS * TS + b;
        sv_sub(SV_ARGS, w + nsb * TS + (long)b * TS * TS, !ezero(w[fl]), p0, 0, sw, xb, tile, li);
        if (t < sw && live) {
            x[offx + (long)SV_ROW(p0 + t) * incx] = xb[t];
            xp[p0 + t] = xb[t];
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        if (t == 0 && live) sv_set(sync + SV_DONE + b);
    }
}
