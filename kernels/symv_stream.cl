// symv_stream.cl — the symmetric matrix-vector product on a stored
// triangle read once, streamed through registers (for GPUs), for both the
// dense (symv) and the band (sbmv) storage; built after common.cl and
// level1.cl (realv, L1_VW, l1_mis, l1_hsum, and for complex elements
// the Z_ lane macros).
//
// Element A(i, j) of the stored triangle lies at a[i·ld + j + off]: the
// dense triangle has ld = lda, off = 0, k = n−1; gonum's upper band has
// ld = lda−1, off = 0 and its lower band ld = lda−1, off = k (row i's
// band is contiguous from A(i, i) or A(i, i−k)); the packed triangle
// (SS_PACKED) has k = n−1 and rows of their own (SS_AT). Stored means
// 0 ≤ j−i ≤ k (upper) or 0 ≤ i−j ≤ k (lower), with i, j < n; nothing
// else is read.
//
// The matrix is cut into SS_TB×SS_TB tiles, SS_TB = SS_TX·SS_EV (SS_EV
// elements in a vector load: L1_VW, or L1_VW/2 complex ones): tile
// (bi, q) at diagonal distance d = |q − bi| < nd. Work-group (c, q) takes
// block column q and the tiles of diagonals [c·SS_CH, (c+1)·SS_CH) down
// (lower) or up (upper) from the diagonal tile. Work-item (lx, ly) owns
// the SS_EV columns q·SS_TB + lx·SS_EV + [0, SS_EV) and, in each tile, the
// rows ly, ly + SS_TY, ...: it loads its piece of each row in one vector
// load (a row's pieces across lx are one coalesced read) and uses it
// twice:
//   - A(i, j)·x(i) added to the columns' sums in registers, kept across
//     the group's tiles and reduced over ly at the end: cpart[c·n + j];
//   - A(i, j)·x(j) summed over the piece, the SS_TX pieces of a row
//     reduced in local memory (double buffered: one barrier per tile):
//     rpart[d·n + i].
// The diagonal tile's diagonal goes to the row sums only. symv_fin then
// sets y(i) = alpha·(Σ_d rpart[d·n + i] + Σ_c cpart[c·n + i]) + beta·y(i)
// over the slots that tiles of i's block wrote.
//
// The triangular product (trmv) takes one of the two sums: what says
// which are computed (1: the row sums, A·x; 2: the column sums, Aᵀ·x;
// 3: both, symv), dg where the diagonal goes (0: nowhere, a unit
// diagonal, whose x(i) symv_fin adds; 1: the row sums; 2: the columns').
//
// Tiles wholly inside the stored triangle and the matrix, with aligned
// rows (vec, and a itself aligned), take the vector loads; the others go
// element by element, each element tested, so that no product is taken
// of an element outside the triangle (its value could be NaN).
//
// Defines: SS_TX, SS_TY (work-group shape; SS_TY divides SS_TB), SS_CH
// (tiles per work-group), SS_CPLX (complex elements, below).

// Contraction is allowed: the stream's sums are taken in an order of
// their own, so gonum's rounding is not reproduced step by step whatever
// the contraction, and fused products shorten the double-precision inner
// loop (BENCHMARKS.md, "Figures behind the code's choices"). Only GPUs
// run this file; CPU devices take level2.cl's tiles.
#pragma OPENCL FP_CONTRACT ON

// Complex matrices (SS_CPLX: Hermitian hemv and hbmv, complex trmv): an
// element is a real2 (its real part, then its imaginary part), a, x, y,
// rpart and cpart point at reals while every index and offset counts
// elements, and a vector load of L1_VW reals holds SS_EV = L1_VW/2
// elements. Products are Go's complex products term by term: alpha·v is
// are·v + aim·ṽ lane by lane (level1.cl's z_mul), a row piece's sum is
// zdot's even-minus-odd and even-plus-odd lanes. conj (an argument) has
// the column sums take conj(A(i, j)): Aᴴ·x, and the Hermitian product's
// other triangle. With both sums (what 3) the matrix is Hermitian, and
// its diagonal's imaginary part is taken as zero, as gonum does.
#ifdef SS_CPLX
typedef real2 elem;
#define SS_EV (L1_VW / 2)
#define SS_RE 2
#define SS_LD(p, i) vload2((i), (p))
#define SS_ST(p, i, v) vstore2((v), (i), (p))
static inline real2 ss_mul(const real2 a, const real2 b)
{
    return (real2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
#define SS_CJ(v) (conj ? (real2)((v).x, -(v).y) : (v))
#define SS_VCJ(v) (conj ? (v) * -Z_ALT : (v))
#define SS_HERM(v, i, j) \
    if (what == 3 && (i) == (j)) (v).y = 0
// v·s lane by lane, s one element.
static inline realv ss_vmul(const realv v, const real2 s)
{
    return s.x * v + s.y * (Z_SWAP(v) * Z_ALT);
}
// Σ_e v_e·w_e over the vectors' elements.
static inline real2 ss_hdot(const realv v, const realv w)
{
    const realv p = v * w, q = v * Z_SWAP(w);
    return (real2)(Z_EVEN(p) - Z_ODD(p), Z_EVEN(q) + Z_ODD(q));
}
#define SS_SCALAR(s) const real s##_re, const real s##_im
#define SS_VAL(s) ((real2)(s##_re, s##_im))
#define SS_IS(s, v) (s##_re == (real)(v) && s##_im == (real)0)
#else
typedef real elem;
#define SS_EV L1_VW
#define SS_RE 1
#define SS_LD(p, i) ((p)[i])
#define SS_ST(p, i, v) ((p)[i] = (v))
#define ss_mul(a, b) ((a) * (b))
#define SS_CJ(v) (v)
#define SS_VCJ(v) (v)
#define SS_HERM(v, i, j)
#define ss_vmul(v, s) ((v) * (s))
#define ss_hdot(v, w) l1_hsum((v) * (w))
#define SS_SCALAR(s) const real s
#define SS_VAL(s) (s)
#define SS_IS(s, v) ((s) == (real)(v))
#endif
// SS_AT is the index of A(i, j) in a: i·ld + off + j, or with SS_PACKED
// (spmv, hpmv, tpmv) gonum's packed triangle of order n, whose upper rows
// hold A(i, i…n−1) and lower ones A(i, 0…i) (ld and off unused). SS_VLD is
// the vector of row i's elements from j0: an aligned load, or for packed
// rows, which are not aligned, vloadn, which needs only a real's
// alignment.
#ifdef SS_PACKED
#define SS_AT(i, j) ((upper ? (long)(i) * (2L * n - (i) - 1) / 2 : (long)(i) * ((i) + 1) / 2) + (j))
#if L1_VW == 1
#define SS_VLD(a, i, ld, off, j0) ((a)[SS_AT(i, j0)])
#else
#define SS_VLD(a, i, ld, off, j0) L1_CAT(vload, L1_VW)(0, (a) + SS_RE * SS_AT(i, j0))
#endif
#else
#define SS_AT(i, j) ((long)(i) * ld + off + (j))
#define SS_VLD(a, i, ld, off, j0) (*(__global const realv*)((a) + SS_RE * SS_AT(i, j0)))
#endif
// SS_ALIGNED says whether whole tiles may take SS_VLD: vec (the host's
// word on ld and off) and a aligned, or any packed triangle.
#ifdef SS_PACKED
#define SS_ALIGNED(a, vec) (vec)
#else
#define SS_ALIGNED(a, vec) ((vec) && l1_mis(a) == 0)
#endif

#ifndef SS_TX
#define SS_TX 32
#endif
#ifndef SS_TY
#define SS_TY 8
#endif
#ifndef SS_CH
#define SS_CH 4
#endif
#define SS_TB (SS_TX * SS_EV)
#define SS_RPT (SS_TB / SS_TY)

// ss_stored says whether A(i, j) is in the stored triangle and the matrix.
static inline int ss_stored(int i, int j, int n, int k, int upper)
{
    const int dd = upper ? j - i : i - j;
    return i < n && j < n && dd >= 0 && dd <= k;
}

__kernel __attribute__((reqd_work_group_size(SS_TX, SS_TY, 1)))
void symv_stream(const int n, const int k, const int upper, const int nb, const int nd,
                 __global const real* a, const int ld, const int off,
                 __global const real* x, const int offx, const int incx,
                 __global real* rpart, __global real* cpart, const int vec,
                 const int what, const int dg, const int conj)
{
    const int rows = what & 1, cols = what & 2;
    // Row pieces' sums of two tiles; at the end, the columns' sums of the
    // SS_TY slices (SS_TY·SS_TB ≤ 2·SS_TB·(SS_TX + 1): the host checks).
    __local elem lrow[2 * SS_TB * (SS_TX + 1)];
#define SS_LROW(b, r, t) lrow[((b) * SS_TB + (r)) * (SS_TX + 1) + (t)]
    const int lx = get_local_id(0), ly = get_local_id(1);
    // Chunk c has nb − c·SS_CH groups: the block columns with a tile at
    // distance c·SS_CH.
    int g = get_group_id(0), c = 0;
    while (g >= nb - c * SS_CH) {
        g -= nb - c * SS_CH;
        c++;
    }
    const int q = upper ? c * SS_CH + g : g;
    const int d0 = c * SS_CH, d1 = min(d0 + SS_CH, nd);
    const int jq = q * SS_TB, j0 = jq + lx * SS_EV;
    // x of the work-item's columns.
    realv xcv;
    elem* xc = (elem*)&xcv;
    for (int e = 0; e < SS_EV; e++) xc[e] = j0 + e < n ? SS_LD(x, offx + (long)(j0 + e) * incx) : (elem)0;
    realv cacc = 0;
    elem* cp = (elem*)&cacc;
    const int aligned = SS_ALIGNED(a, vec);
    int buf = 0;
    for (int d = d0; d < d1; d++) {
        const int bi = upper ? q - d : q + d;
        if (bi < 0 || bi >= nb) break; // the same for the whole group
        const int i0 = bi * SS_TB;
        const int dlo = upper ? jq - (i0 + SS_TB - 1) : i0 - (jq + SS_TB - 1);
        const int dhi = upper ? jq + SS_TB - 1 - i0 : i0 + SS_TB - 1 - jq;
        const int full = aligned && i0 + SS_TB <= n && jq + SS_TB <= n && dlo >= 0 && dhi <= k;
        if (full) {
            realv v[SS_RPT];
            elem xi[SS_RPT];
            for (int u = 0; u < SS_RPT; u++) {
                const long i = i0 + ly + u * SS_TY;
                v[u] = SS_VLD(a, i, ld, off, j0);
                xi[u] = SS_LD(x, offx + i * incx);
            }
            if (cols) {
                for (int u = 0; u < SS_RPT; u++) cacc += ss_vmul(SS_VCJ(v[u]), xi[u]);
            }
            if (rows) {
                for (int u = 0; u < SS_RPT; u++) SS_LROW(buf, ly + u * SS_TY, lx) = ss_hdot(v[u], xcv);
            }
        } else {
            for (int u = 0; u < SS_RPT; u++) {
                const int r = ly + u * SS_TY, i = i0 + r;
                const elem xi = i < n ? SS_LD(x, offx + (long)i * incx) : (elem)0;
                elem s = 0;
                for (int e = 0; e < SS_EV; e++) {
                    const int j = j0 + e;
                    if (ss_stored(i, j, n, k, upper)) {
                        elem v = SS_LD(a, SS_AT(i, j));
                        SS_HERM(v, i, j);
                        if (rows && (i != j || dg == 1)) s += ss_mul(v, xc[e]);
                        if (cols && (i != j || dg == 2)) cp[e] += ss_mul(SS_CJ(v), xi);
                    }
                }
                SS_LROW(buf, r, lx) = s;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        // Row sums of the tile; lrow[buf] is written again two tiles on,
        // after the next barrier, which every work-item reaches only
        // after these reads.
        for (int r = ly * SS_TX + lx; rows && r < SS_TB; r += SS_TX * SS_TY) {
            elem s = 0;
            for (int t = 0; t < SS_TX; t++) s += SS_LROW(buf, r, t);
            if (i0 + r < n) SS_ST(rpart, (long)d * n + i0 + r, s);
        }
        buf ^= 1;
    }
    if (!cols) return; // the same for the whole group
    barrier(CLK_LOCAL_MEM_FENCE); // the last tile's row sums read
    for (int e = 0; e < SS_EV; e++) lrow[(ly * SS_TX + lx) * SS_EV + e] = cp[e];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (ly == 0) {
        for (int e = 0; e < SS_EV; e++) {
            elem s = 0;
            for (int w = 0; w < SS_TY; w++) s += lrow[(w * SS_TX + lx) * SS_EV + e];
            if (j0 + e < n) SS_ST(cpart, (long)c * n + j0 + e, s);
        }
    }
#undef SS_LROW
}

// symv_walk is symv_stream's mirror: work-group (c, bi) takes block row
// bi and the tiles of diagonals [c·SS_CH, (c+1)·SS_CH) right (upper) or
// left (lower) of the diagonal tile, so that its rows stay and its
// columns change: work-item (lx, ly) keeps the sums of its rows' pieces
// in registers across the tiles (reduced over lx once, at the end:
// rpart[c·n + i]) and reduces the tile's column sums over ly in local
// memory, a tile at a time (SS_TY values a column rather than SS_TX a
// row: cpart[d·n + j]). Same arguments as symv_stream.
__kernel __attribute__((reqd_work_group_size(SS_TX, SS_TY, 1)))
void symv_walk(const int n, const int k, const int upper, const int nb, const int nd,
               __global const real* a, const int ld, const int off,
               __global const real* x, const int offx, const int incx,
               __global real* rpart, __global real* cpart, const int vec,
               const int what, const int dg, const int conj)
{
    __local elem lcs[2 * SS_TY * SS_TB];    // two tiles' column sums by slice
    __local elem lrs[SS_TB * (SS_TX + 1)]; // the rows' sums by lane, at the end
    const int rows = what & 1, cols = what & 2;
    const int lx = get_local_id(0), ly = get_local_id(1);
    int g = get_group_id(0), c = 0;
    while (g >= nb - c * SS_CH) {
        g -= nb - c * SS_CH;
        c++;
    }
    const int bi = upper ? g : c * SS_CH + g;
    const int d0 = c * SS_CH, d1 = min(d0 + SS_CH, nd);
    const int i0 = bi * SS_TB;
    elem xi[SS_RPT], racc[SS_RPT];
    for (int u = 0; u < SS_RPT; u++) {
        const int i = i0 + ly + u * SS_TY;
        xi[u] = i < n ? SS_LD(x, offx + (long)i * incx) : (elem)0;
        racc[u] = 0;
    }
    const int aligned = SS_ALIGNED(a, vec);
    int buf = 0;
    for (int d = d0; d < d1; d++) {
        const int q = upper ? bi + d : bi - d;
        if (q < 0 || q >= nb) break; // the same for the whole group
        const int jq = q * SS_TB, j0 = jq + lx * SS_EV;
        const int dlo = upper ? jq - (i0 + SS_TB - 1) : i0 - (jq + SS_TB - 1);
        const int dhi = upper ? jq + SS_TB - 1 - i0 : i0 + SS_TB - 1 - jq;
        const int full = aligned && i0 + SS_TB <= n && jq + SS_TB <= n && dlo >= 0 && dhi <= k;
        realv xcv, cs = 0;
        elem* xc = (elem*)&xcv;
        elem* cp = (elem*)&cs;
        for (int e = 0; e < SS_EV; e++) xc[e] = j0 + e < n ? SS_LD(x, offx + (long)(j0 + e) * incx) : (elem)0;
        if (full) {
            realv v[SS_RPT];
            for (int u = 0; u < SS_RPT; u++) v[u] = SS_VLD(a, i0 + ly + u * SS_TY, ld, off, j0);
            if (cols) {
                for (int u = 0; u < SS_RPT; u++) cs += ss_vmul(SS_VCJ(v[u]), xi[u]);
            }
            if (rows) {
                for (int u = 0; u < SS_RPT; u++) racc[u] += ss_hdot(v[u], xcv);
            }
        } else {
            for (int u = 0; u < SS_RPT; u++) {
                const int i = i0 + ly + u * SS_TY;
                for (int e = 0; e < SS_EV; e++) {
                    const int j = j0 + e;
                    if (ss_stored(i, j, n, k, upper)) {
                        elem v = SS_LD(a, SS_AT(i, j));
                        SS_HERM(v, i, j);
                        if (rows && (i != j || dg == 1)) racc[u] += ss_mul(v, xc[e]);
                        if (cols && (i != j || dg == 2)) cp[e] += ss_mul(SS_CJ(v), xi[u]);
                    }
                }
            }
        }
        if (cols) { // the same for the whole group
            for (int e = 0; e < SS_EV; e++) lcs[(buf * SS_TY + ly) * SS_TB + lx * SS_EV + e] = cp[e];
            barrier(CLK_LOCAL_MEM_FENCE);
            // lcs's half buf is written again two tiles on, after the
            // next barrier, which every work-item reaches after these
            // reads.
            for (int t = ly * SS_TX + lx; t < SS_TB; t += SS_TX * SS_TY) {
                elem s = 0;
                for (int w = 0; w < SS_TY; w++) s += lcs[(buf * SS_TY + w) * SS_TB + t];
                if (jq + t < n) SS_ST(cpart, (long)d * n + jq + t, s);
            }
            buf ^= 1;
        }
    }
    if (!rows) return; // the same for the whole group
    for (int u = 0; u < SS_RPT; u++) lrs[(ly + u * SS_TY) * (SS_TX + 1) + lx] = racc[u];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int r = ly * SS_TX + lx; r < SS_TB; r += SS_TX * SS_TY) {
        elem s = 0;
        for (int t = 0; t < SS_TX; t++) s += lrs[r * (SS_TX + 1) + t];
        if (i0 + r < n) SS_ST(rpart, (long)c * n + i0 + r, s);
    }
}

// symv_fin: y(i) = alpha·s + beta·y(i) (beta == 0 assigns), s the sum of
// the slots tiles of i's block b wrote: after symv_stream rpart[d·n + i]
// for the tiles (b, b ± d) of the matrix, cpart[c·n + i] for the chunks
// of block column b; after symv_walk (walk) rpart[c·n + i] for the
// chunks of block row b, cpart[d·n + i] for the tiles (b ∓ d, b).
// Work-groups of SF_TX elements by SF_TY slices of the slots, added in
// local memory.
#define SF_TX 32
#define SF_TY 8
__kernel __attribute__((reqd_work_group_size(SF_TX, SF_TY, 1)))
void symv_fin(const int n, const int upper, const int nb, const int nd, SS_SCALAR(alpha),
              __global const real* rpart, __global const real* cpart,
              SS_SCALAR(beta), __global real* y, const int offy, const int incy,
              const int what, const int unit, __global const real* x, const int offx, const int incx,
              const int walk)
{
    __local elem sums[SF_TY][SF_TX + 1];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int i = get_group_id(0) * SF_TX + lx;
    elem s = 0;
    if (i < n) {
        // Slot t of a kind holds the tile or chunk at diagonal distance
        // t·step from block b.
        const int b = i / SS_TB;
        const int nch = (nd + SS_CH - 1) / SS_CH;
        const int rn = walk ? nch : nd, rstep = walk ? SS_CH : 1;
        const int cn = walk ? nd : nch, cstep = walk ? 1 : SS_CH;
        for (int t = ly; (what & 1) && t < rn; t += SF_TY) {
            if (upper ? b + t * rstep < nb : b - t * rstep >= 0) s += SS_LD(rpart, (long)t * n + i);
        }
        for (int t = ly; (what & 2) && t < cn; t += SF_TY) {
            if (upper ? b - t * cstep >= 0 : b + t * cstep < nb) s += SS_LD(cpart, (long)t * n + i);
        }
    }
    sums[ly][lx] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (ly != 0 || i >= n) return;
    elem t = 0;
    for (int w = 0; w < SF_TY; w++) t += sums[w][lx];
    if (unit) t += SS_LD(x, offx + (long)i * incx);
    // beta == 0 assigns; beta == 1 leaves y as it is (for a complex y
    // 1·y is not y where a part is infinite).
    const long iy = offy + (long)i * incy;
    const elem yb = SS_IS(beta, 0) ? (elem)0 : SS_IS(beta, 1) ? SS_LD(y, iy) : ss_mul(SS_VAL(beta), SS_LD(y, iy));
    SS_ST(y, iy, yb + ss_mul(SS_VAL(alpha), t));
}
