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

// inf2one is a signed 1 for an infinity and a signed 0 otherwise.
static inline real inf2one(const real a) { return copysign(isinf(a) ? (real)1 : (real)0, a); }

// cdiv_go is the complex n/m as Go's runtime forms it: Smith's algorithm,
// then, where both parts come out NaN, C99's infinities and zeros (a
// division by zero, an infinite numerator over a finite divisor, a finite
// one over an infinite divisor). Nothing in it is contracted; the files
// after this one set contraction for themselves.
#pragma OPENCL FP_CONTRACT OFF
static inline real2 cdiv_go(const real2 n, const real2 m) {
	real e, f;
	if (fabs(m.x) >= fabs(m.y)) {
		const real ratio = m.y / m.x;
		const real denom = m.x + ratio * m.y;
		e = (n.x + n.y * ratio) / denom;
		f = (n.y - n.x * ratio) / denom;
	} else {
		const real ratio = m.x / m.y;
		const real denom = m.y + ratio * m.x;
		e = (n.x * ratio + n.y) / denom;
		f = (n.y * ratio - n.x) / denom;
	}
	if (!isnan(e) || !isnan(f)) {
		return (real2)(e, f);
	}
	const real a = n.x, b = n.y, c = m.x, d = m.y;
	if (c == 0 && d == 0 && (!isnan(a) || !isnan(b))) {
		return (real2)(copysign((real)INFINITY, c) * a, copysign((real)INFINITY, c) * b);
	}
	if ((isinf(a) || isinf(b)) && isfinite(c) && isfinite(d)) {
		const real a1 = inf2one(a), b1 = inf2one(b);
		return (real2)((real)INFINITY * (a1 * c + b1 * d), (real)INFINITY * (b1 * c - a1 * d));
	}
	if ((isinf(c) || isinf(d)) && isfinite(a) && isfinite(b)) {
		const real c1 = inf2one(c), d1 = inf2one(d);
		return (real2)(0 * (a * c1 + b * d1), 0 * (b * c1 - a * d1));
	}
	return (real2)(e, f);
}
#pragma OPENCL FP_CONTRACT DEFAULT

// ld8 and st8 load and store 8 consecutive elements at any alignment.
// PoCL's vload8 and vstore8 of floats become pairs of 8-byte moves put
// together lane by lane, and of doubles 16-byte ones; element by element,
// the compiler joins them into whole unaligned vector moves.
static inline real8 ld8(const __global real* p) {
	return (real8)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
}

static inline void st8(const real8 v, __global real* p) {
	p[0] = v.s0;
	p[1] = v.s1;
	p[2] = v.s2;
	p[3] = v.s3;
	p[4] = v.s4;
	p[5] = v.s5;
	p[6] = v.s6;
	p[7] = v.s7;
}

// spread_group maps work-group g of ng to the block of work it takes:
// 0, ng−1, 1, ng−2, … from the two ends in turn. A CPU runtime hands each
// thread a run of consecutive groups (PoCL: the first half to one thread,
// the second to the other, on two cores), so over a triangle, whose rows
// shrink from one end to the other, every run then holds long rows and
// short ones alike.
static inline int spread_group(int g, int ng) {
	return (g & 1) ? ng - 1 - (g >> 1) : g >> 1;
}

// spread_id is get_global_id(0), with the work-groups spread as
// spread_group spreads them when spread is set (work-items of a group stay
// consecutive). Kernels over rows spread them over a triangle only: a
// band's rows are alike, so there is nothing to even out, and rows taken
// in order keep each thread on one stream through memory.
static inline int spread_id(int spread) {
	const int g = get_group_id(0);
	return (spread ? spread_group(g, get_num_groups(0)) : g) * get_local_size(0) + get_local_id(0);
}

// triangle reports whether rows [0, m) of the band with kl sub- and ku
// super-diagonals of an m×n matrix form a triangle (one side reaching the
// far corner, the other the diagonal), whose row lengths run from 1 to n.
static inline int triangle(int m, int n, int kl, int ku) {
	return (kl == 0 && ku >= n - 1) || (ku == 0 && kl >= m - 1);
}

// rows4_from and rows4_to bound [from, to), the columns that rows i to
// i+3 of a band with kl sub- and ku super-diagonals (n columns) all store:
// the four-row passes of the row kernels on CPU devices. A unit diagonal
// above (unitup: from past row i+3's) or below (unitlo: to before row
// i's) is left out.
static inline int rows4_from(int i, int kl, int unitup) {
	return unitup ? i + 4 : max(0, i + 3 - kl);
}

static inline int rows4_to(int i, int n, int ku, int unitlo) {
	return min(n, unitlo ? i : i + ku + 1);
}

// flow_cols sets [*c0, *c1), the indices of x solved by steps [s0, s1)
// of a triangular solve on CPU devices (level2.cl's tri_solve_flow and
// complex_level2.cl's twin), forward (fwd) or backward.
static inline void flow_cols(int fwd, int n, int s0, int s1, int* c0, int* c1) {
	*c0 = fwd ? s0 : n - s1;
	*c1 = fwd ? s1 : n - s0;
}

// flow_leave is a flow solve's work-item leaving once no block is left:
// the last of the launch's to leave (ticket[2] counts them) puts its three
// counters (next block, blocks done, leavers) back to 0 for the next solve.
static inline void flow_leave(volatile __global uint* ticket) {
	if (atomic_inc(&ticket[2]) == (uint)get_num_groups(0) - 1) {
		atomic_xchg(&ticket[0], 0u);
		atomic_xchg(&ticket[1], 0u);
		atomic_xchg(&ticket[2], 0u);
	}
}

// flow_take is the next block a flow solve's work-item solves, by ticket
// (ticket[0]), or −1 once none is left (the work-item has left, flow_leave).
static inline int flow_take(volatile __global uint* ticket, int nblk) {
	const int t = (int)atomic_inc(&ticket[0]);
	if (t >= nblk) {
		flow_leave(ticket);
		return -1;
	}
	return t;
}

// flow_solved is how many blocks are solved (ticket[1]; they finish in
// order), done of them already seen: when more are now, a fence orders the
// reads of their x after the count's.
static inline int flow_solved(volatile __global uint* ticket, int done) {
	const int d = (int)ticket[1];
	if (d > done) {
		mem_fence(CLK_GLOBAL_MEM_FENCE);
	}
	return d;
}

// flow_publish says block t is solved, after a fence: its x reaches the
// other work-items before the count does.
static inline void flow_publish(volatile __global uint* ticket, int t) {
	mem_fence(CLK_GLOBAL_MEM_FENCE);
	atomic_xchg(&ticket[1], (uint)(t + 1));
}

// Euclidean norm without overflow or underflow, after Blue's algorithm:
// every |x| falls in one of three ranges, and each range has its own sum of
// squares, scaled by a power of two chosen so that no square and no sum of
// fewer than 2^31 squares overflows or loses its bits to underflow
// ("big" |x| > NRM2_TBIG, scaled by NRM2_SBIG; "small" |x| < NRM2_TSML,
// scaled by NRM2_SSML; the rest unscaled). The three sums add up across
// work-items as they are, with no division per element; nrm2_combine
// makes the norm of them. A NaN lands in the unscaled sum, an Inf in the
// big one (which nothing finite makes infinite), so the sums keep both
// apart: level1.cl's nrm2 puts NaN first, as gonum's Dnrm2 does, and the
// complex norms (level1.cl's znrm2, complex.cl's cnrm2) +Inf, as its
// Dznrm2 does. The float threshold for
// "big" is 2^48 rather than the 2^52 of the usual derivation, so that
// 2^31 unscaled squares still fit in a float.
#if PRECISION == 64
#define NRM2_TSML 0x1p-511
#define NRM2_TBIG 0x1p486
#define NRM2_SSML 0x1p537
#define NRM2_SBIG 0x1p-538
#else
#define NRM2_TSML 0x1p-63f
#define NRM2_TBIG 0x1p48f
#define NRM2_SSML 0x1p75f
#define NRM2_SBIG 0x1p-76f
#endif

// NRM2_ADD folds the |x| in ax (of type T, real or realv, with SEL the
// matching select) into the sums.
#define NRM2_ADD(T, SEL, ax, big, med, sml)                                  \
    do {                                                                     \
        const T hb_ = SEL((T)0, (ax) * NRM2_SBIG, (ax) > NRM2_TBIG);         \
        const T hs_ = SEL((T)0, (ax) * NRM2_SSML, (ax) < NRM2_TSML);         \
        const T hm_ = SEL((ax), (T)0, (ax) > NRM2_TBIG || (ax) < NRM2_TSML); \
        big += hb_ * hb_;                                                    \
        sml += hs_ * hs_;                                                    \
        med += hm_ * hm_;                                                    \
    } while (0)

// nrm2_combine is the norm that the three sums of squares stand for, NaN
// if one of them is (an element was NaN).
static inline real nrm2_combine(real big, real med, real sml)
{
    if (isnan(big) || isnan(med) || isnan(sml)) return NAN;
    if (big > (real)0) {
        // The medium sum is folded in at the big scale; the small one
        // cannot matter.
        return sqrt(big + (med * NRM2_SBIG) * NRM2_SBIG) / NRM2_SBIG;
    }
    if (sml > (real)0) {
        if (med > (real)0) {
            const real ym = sqrt(med), ys = sqrt(sml) / NRM2_SSML;
            const real lo = fmin(ym, ys), hi = fmax(ym, ys);
            const real r = lo / hi;
            return hi * sqrt((real)1 + r * r);
        }
        return sqrt(sml) / NRM2_SSML;
    }
    return sqrt(med);
}

// sum3_local adds up the work-group's three sums (Blue's, one per work-item
// at s[lid], s[ls + lid] and s[2·ls + lid]) into s[0], s[ls] and s[2·ls].
// Every work-item of the group must call it: it holds barriers.
static inline void sum3_local(__local real* s, const int lid, const int ls)
{
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = ls / 2; h > 0; h >>= 1) {
        if (lid < h) {
            s[lid] += s[lid + h];
            s[ls + lid] += s[ls + lid + h];
            s[2 * ls + lid] += s[2 * ls + lid + h];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

// nrm2_sums3 adds up the g partial triples of Blue's sums at p (p[i],
// p[g + i] and p[2g + i] for partial i) into scratch[0], scratch[ls] and
// scratch[2·ls], ls the work-group's size (scratch holds 3·ls). Every
// work-item of the group must call it.
static inline void nrm2_sums3(volatile const __global real* p, const int g, __local real* scratch)
{
    const int lid = get_local_id(0);
    const int ls = get_local_size(0);
    // The three sums in one loop, six loads in flight.
    real big = 0, med = 0, sml = 0;
    int i = lid;
    for (; i + ls < g; i += 2 * ls) {
        const real b0 = p[i], b1 = p[i + ls];
        const real m0 = p[g + i], m1 = p[g + i + ls];
        const real s0 = p[2 * g + i], s1 = p[2 * g + i + ls];
        big += b0 + b1;
        med += m0 + m1;
        sml += s0 + s1;
    }
    if (i < g) {
        big += p[i];
        med += p[g + i];
        sml += p[2 * g + i];
    }
    scratch[lid] = big;
    scratch[ls + lid] = med;
    scratch[2 * ls + lid] = sml;
    sum3_local(scratch, lid, ls);
}

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

// One launch on CPU devices (one != 0): the kernels that make partial
// sums by blocks of rows (level2.cl's gemv_t_rows, band_t_rows, sym_rows
// and complex_level2.cl's twins) then also do the work of the launch that
// adds them (gemv_t_sum, band_t_sum and theirs), and band_rows copies its
// scratch output over x. Each work-group, once its share is written (its
// work-items behind a barrier where there are several), takes a ticket;
// the one that takes the last ticket of the launch (every other share is
// written by then: a CPU device's memory is the host's, which the
// engine's choice of one launch requires) adds the partials into y, or
// copies, and puts the counter back to 0 for the next launch. The counter is the
// engine queue's one-pass ticket (level1.cl's _one kernels share it);
// launches on one in-order queue never overlap. With one == 0 the ticket
// is not touched.
static inline int l2_last(int one, volatile __global uint* ticket) {
	if (!one) {
		return 0;
	}
	mem_fence(CLK_GLOBAL_MEM_FENCE);
	return atomic_inc(ticket) == (uint)get_num_groups(0) - 1;
}

// L2_COPY_LAST ends band_rows and zband_rows: with one, work-item 0 of the
// work-group that takes the launch's last ticket copies the m elements of
// the contiguous scratch y from offy to dst (from offd, a stride of incd)
// and puts the counter back. The barrier, outside the branch on one (the
// same for every work-item), has the group's rows written before its
// ticket.
#define L2_COPY_LAST(one, ticket, m, y, offy, dst, offd, incd)                      \
	barrier(CLK_GLOBAL_MEM_FENCE);                                                 \
	if (get_local_id(0) == 0 && l2_last(one, ticket)) {                            \
		for (int k_ = 0; k_ < (m); k_++) {                                         \
			(dst)[(offd) + (long)k_ * (incd)] = (y)[(offy) + k_];              \
		}                                                                          \
		atomic_xchg(ticket, 0u);                                                   \
	}
