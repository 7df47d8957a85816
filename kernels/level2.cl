// level2.cl — level-2 BLAS (matrix-vector products, triangular solves and
// rank updates) on gonum's ROW-MAJOR storage. Compiled after common.cl with
// PRECISION=32|64; everything else (transpose, uplo, diag, storage scheme)
// is a kernel argument, so the whole file is built once per precision.
//
// MATRIX DESCRIPTOR (the leading arguments of mv)
//   int kind     KIND_GENERAL (gemv, gbmv), KIND_SYMMETRIC (symv, sbmv, spmv)
//                or KIND_TRIANGULAR (trmv, tbmv, tpmv, trsv, tbsv, tpsv)
//   int storage  ST_DENSE, ST_BAND or ST_PACKED
//   int upper    the stored triangle (symmetric, triangular)
//   int trans    op(A) = Aᵀ (general, triangular)
//   int unit     unit diagonal: A(i,i) is taken as 1 and never read
//   int m, n     general: A is m×n; otherwise A is n×n (m == n)
//   int kl, ku   general: sub/super-diagonals (dense: m-1, n-1);
//                otherwise both k, the band width (dense, packed: n-1)
//   __global const real* a, int lda
//
// Storage of the stored element (r, c), gonum's conventions:
//   dense                 a[r*lda + c]
//   general band          a[r*lda + c - r + kl]        (r-kl ≤ c ≤ r+ku)
//   upper band            a[r*lda + c - r]             (r ≤ c ≤ r+k)
//   lower band            a[r*lda + c - r + k]         (r-k ≤ c ≤ r)
//   upper packed          a[r*n - r*(r-1)/2 + c - r]   (c ≥ r)
//   lower packed          a[r*(r+1)/2 + c]             (c ≤ r)
//
// The logical matrix M of a descriptor is op(A) (general, triangular, with
// M(i,i) = 1 for a unit diagonal) or the full symmetric matrix. Row i of M
// has its (possibly) non-zero entries in columns [lo, hi) given by mv_range;
// every product inside that range is computed, even with zero operands, so
// NaN and Inf propagate as in gonum's Go code. Vectors are strided: element
// j of x is x[offx + j*incx] (offx is where element 0 lies, so negative
// increments work as in gonum). Indices are int, offsets long.

#pragma OPENCL FP_CONTRACT OFF

#define KIND_GENERAL 0
#define KIND_SYMMETRIC 1
#define KIND_TRIANGULAR 2

#define ST_DENSE 0
#define ST_BAND 1
#define ST_PACKED 2

// L2_ROWS is how many rows band_rows' work-items take, and sym_rows' and
// the flow solves' gather (flow_rows) in one pass: 4, or 8 where the
// engine defines it so (l2RowsPass: devices with 32 vector registers).
#ifndef L2_ROWS
#define L2_ROWS 4
#endif

#define MV_WG 64   // mv: work-items per output element

#define MAT_PARAMS int kind, int storage, int upper, int trans, int unit, \
	int m, int n, int kl, int ku, __global const real* a, int lda
#define MAT_ARGS kind, storage, upper, trans, unit, m, n, kl, ku, a, lda

// tri_at is the index of the stored element (r, c) of a triangle with band
// width k (upper: c ≥ r; lower: c ≤ r).
static inline long tri_at(int storage, int upper, int n, int k, int lda, int r, int c) {
	if (storage == ST_PACKED) {
		long R = r;
		return upper ? R * n - R * (R - 1) / 2 + (c - r) : R * (R + 1) / 2 + c;
	}
	if (storage == ST_BAND) {
		return (long)r * lda + (upper ? c - r : c - r + k);
	}
	return (long)r * lda + c;
}

// mv_range sets [*lo, *hi), the columns of row i of M inside its band.
static inline void mv_range(MAT_PARAMS, int i, int* lo, int* hi) {
	if (kind == KIND_GENERAL) {
		if (!trans) {
			*lo = max(0, i - kl);
			*hi = (int)min((long)n, (long)i + ku + 1);
		} else {
			*lo = max(0, i - ku);
			*hi = (int)min((long)m, (long)i + kl + 1);
		}
		return;
	}
	if (kind == KIND_SYMMETRIC) {
		*lo = max(0, i - kl);
		*hi = (int)min((long)n, (long)i + kl + 1);
		return;
	}
	if (upper != trans) { // M is upper triangular
		*lo = i;
		*hi = (int)min((long)n, (long)i + kl + 1);
	} else {
		*lo = max(0, i - kl);
		*hi = i + 1;
	}
}

// mv_elem is M(i, j) for j in row i's range.
static inline real mv_elem(MAT_PARAMS, int i, int j) {
	if (kind == KIND_GENERAL) {
		int r = trans ? j : i;
		int c = trans ? i : j;
		long at = (long)r * lda + c;
		if (storage == ST_BAND) {
			at += kl - r;
		}
		return a[at];
	}
	if (kind == KIND_SYMMETRIC) {
		int lo = min(i, j), hi = max(i, j);
		return upper ? a[tri_at(storage, 1, n, kl, lda, lo, hi)]
		             : a[tri_at(storage, 0, n, kl, lda, hi, lo)];
	}
	if (unit && i == j) {
		return (real)1;
	}
	int r = trans ? j : i;
	int c = trans ? i : j;
	return a[tri_at(storage, upper, n, kl, lda, r, c)];
}

// mv: y(i) = alpha·Σ_j M(i,j)·x(j) + beta·y(i) for i < nout, one work-group
// of MV_WG work-items per i, which split the row and reduce in local memory.
// beta == 0 assigns (y is not read); an empty row leaves beta·y(i). x and y
// may not alias (trmv writes into a scratch vector).
__kernel __attribute__((reqd_work_group_size(MV_WG, 1, 1)))
void mv(MAT_PARAMS, int nout, real alpha,
        __global const real* x, int offx, int incx,
        real beta, __global real* y, int offy, int incy) {
	__local real part[MV_WG];
	const int i = get_group_id(0);
	const int l = get_local_id(0);
	int lo, hi;
	mv_range(MAT_ARGS, i, &lo, &hi);
	real s = 0;
	for (int j = lo + l; j < hi; j += MV_WG) {
		s += mv_elem(MAT_ARGS, i, j) * x[offx + (long)j * incx];
	}
	part[l] = s;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int w = MV_WG / 2; w > 0; w >>= 1) {
		if (l < w) {
			part[l] += part[l + w];
		}
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (l == 0 && i < nout) {
		const long iy = offy + (long)i * incy;
		real r = (beta == 0) ? (real)0 : beta * y[iy];
		if (hi > lo) {
			r += alpha * part[0];
		}
		y[iy] = r;
	}
}

// sum8 is the sum of v's elements, by halves.
static inline real sum8(real8 v) {
	const real4 h = v.lo + v.hi;
	const real2 q = h.lo + h.hi;
	return q.lo + q.hi;
}

// row_dot is Σ_{c in [lo, hi)} row[c - base]·x(c), 16 products at a time
// into two vectors of 8 partial sums (added at the end) when x is
// contiguous: two sums, so that each addition need not wait for the one
// before (one float8 sum is a vector register, which one chain of
// additions leaves mostly idle).
static inline real row_dot(__global const real* row, int base, int lo, int hi,
                           __global const real* x, int offx, int incx) {
	real s = 0;
	int c = lo;
	if (incx == 1) {
		__global const real* xp = x + offx;
		// Single products up to a 64-byte boundary of the row, so that
		// the vector loads of the row do not straddle cache lines.
		for (; c < hi && ((ulong)(row + (c - base)) & 63) != 0; c++) {
			s += row[c - base] * xp[c];
		}
		real8 acc = 0, acc2 = 0;
		for (; c + 16 <= hi; c += 16) {
			acc += ld8(row + (c - base)) * ld8(xp + c);
			acc2 += ld8(row + (c - base) + 8) * ld8(xp + c + 8);
		}
		for (; c + 8 <= hi; c += 8) {
			acc += ld8(row + (c - base)) * ld8(xp + c);
		}
		s += sum8(acc + acc2);
	}
	for (; c < hi; c++) {
		s += row[c - base] * x[offx + (long)c * incx];
	}
	return s;
}

// cols32_add adds xi times the 32 elements at r to the four vector sums
// acc (the 32-column pieces of gemv_cols: four sums are what
// a work-item keeps in registers while it walks down A a row per load).
static void cols32_add(real8 acc[4], __global const real* r, real xi) {
	acc[0] += ld8(r + 0) * xi;
	acc[1] += ld8(r + 8) * xi;
	acc[2] += ld8(r + 16) * xi;
	acc[3] += ld8(r + 24) * xi;
}

// cols32_store writes the four vector sums acc into t[0:32].
static void cols32_store(const real8 acc[4], real* t) {
	vstore8(acc[0], 0, t);
	vstore8(acc[1], 1, t);
	vstore8(acc[2], 2, t);
	vstore8(acc[3], 3, t);
}

// tri_solve_seq is the triangular solve for CPU devices: M·x = b in place by
// ONE work-item, which on a CPU beats a work-group that meets at a barrier
// for every row. It walks A's stored rows, contiguous in dense, packed and
// band storage (k diagonals beside the main one; n − 1 in dense and packed
// storage), as gonum's Go code does: for op(A) = A a row's solved part is a
// dot product with x (forward for lower, backward for upper); for
// op(A) = Aᵀ each solved x(i) is subtracted along A's row i (backward for
// lower, forward for upper).
__kernel void tri_solve_seq(int storage, int upper, int k, int trans, int unit, int n,
                            __global const real* a, int lda,
                            __global real* x, int offx, int incx) {
	if (get_global_id(0) != 0) {
		return;
	}
	const int fwd = (upper == trans); // op(A) lower triangular
	for (int s = 0; s < n; s++) {
		const int i = fwd ? s : n - 1 - s;
		// The off-diagonal part of A's stored row i: [lo, hi).
		const int lo = upper ? i + 1 : max(0, i - k);
		const int hi = upper ? min(n, i + k + 1) : i;
		// row[c - base] is A(i, c), from the row's first stored column
		// (the diagonal, upper) on.
		const int base = upper ? i : lo;
		__global const real* row = a + tri_at(storage, upper, n, k, lda, i, base);
		const long ix = offx + (long)i * incx;
		if (!trans) {
			real xi = x[ix] - row_dot(row, base, lo, hi, x, offx, incx);
			if (!unit) {
				xi /= row[i - base];
			}
			x[ix] = xi;
		} else {
			real xi = x[ix];
			if (!unit) {
				xi /= row[i - base];
				x[ix] = xi;
			}
			int c = lo;
			if (incx == 1) {
				for (; c + 8 <= hi; c += 8) {
					st8(ld8(x + offx + c) - ld8(row + (c - base)) * xi, x + offx + c);
				}
			}
			for (; c < hi; c++) {
				x[offx + (long)c * incx] -= row[c - base] * xi;
			}
		}
	}
}

// tri_solve_flow is tri_solve_seq for dense and packed triangles spread over
// the launch's work-groups of one work-item, for CPU devices whose
// work-groups run side by side and see each other's writes (the engine's
// one-launch setting). The solve's steps (the rows of op(A) in the order
// they are solved) go in blocks, each taken by ticket (ticket[0]) by the
// next free work-item. A block first gathers what op(A)·x owes it from
// the blocks already solved (ticket[1] counts them; they finish in order)
// as these appear, so that while one work-item solves a block another
// reads A for the next. Then the block is solved alone, its x published,
// and the count raised. A work-item waits only for blocks of smaller
// tickets, held by work-items already running, so the launch cannot
// deadlock. The last work-item to leave (ticket[2]) puts the three
// counters back to 0.
//
// With op(A) = A a block's rows are A's: blocks of FLOW_B, each row's sum
// along its stored row. With op(A) = Aᵀ a block's rows are A's columns,
// which A's rows cross: the block gathers along the rows of A solved
// before it, each over the block's columns, into its sums in scratch
// (the engine's, bt a work-item). There blocks are bt wide (the engine's
// choice), so that each row's piece is long enough for the core's
// prefetchers to stream: with pieces of 64 a row of storage apart they
// were the solve's limit.
#define FLOW_B 64

static inline void row_axpy(__global real* p, __global const real* r, real t, int len);
static inline void rows8_axpy_at(__global real* p, __global const real* rq[8], __global const real* x, int offx,
                                 int incx, int i0, int cl, int ch, int onp);

// flow_row returns A's stored row i as a pointer p with p[c] = A(i, c).
static inline __global const real* flow_row(int storage, int upper, int n, int lda,
                                            __global const real* a, int i) {
	const int base = upper ? i : 0;
	return a + tri_at(storage, upper, n, n - 1, lda, i, base) - base;
}

// rows_sums adds the lanes of row q's vector sum dq to s[q] for the k
// rows (4 or 8) of sym_rows_k and rows_dot.
static inline void rows_sums(int k, real s[8], real8 d0, real8 d1, real8 d2, real8 d3, real8 d4, real8 d5, real8 d6,
                             real8 d7) {
	s[0] += sum8(d0);
	s[1] += sum8(d1);
	s[2] += sum8(d2);
	s[3] += sum8(d3);
	if (k == 8) {
		s[4] += sum8(d4);
		s[5] += sum8(d5);
		s[6] += sum8(d6);
		s[7] += sum8(d7);
	}
}

// rows_dot adds Σ_c rq[q][c]·x[c] over the columns [cl, ch) to s[q]
// for the k rows rq (4 or 8; a constant where it is called, as in
// sym_rows_k), one pass for them all (x read once), from a 64-byte
// boundary of the first.
static inline void rows_dot(int k, __global const real* rq[8], __global const real* x, int cl, int ch, real s[8]) {
	real8 d0 = 0, d1 = 0, d2 = 0, d3 = 0, d4 = 0, d5 = 0, d6 = 0, d7 = 0;
	int c = cl;
	for (; c < ch && ((ulong)(rq[0] + c) & 63) != 0; c++) {
		for (int q = 0; q < k; q++) {
			s[q] += rq[q][c] * x[c];
		}
	}
	for (; c + 8 <= ch; c += 8) {
		const real8 xc = ld8(x + c);
		d0 += ld8(rq[0] + c) * xc;
		d1 += ld8(rq[1] + c) * xc;
		d2 += ld8(rq[2] + c) * xc;
		d3 += ld8(rq[3] + c) * xc;
		if (k == 8) {
			d4 += ld8(rq[4] + c) * xc;
			d5 += ld8(rq[5] + c) * xc;
			d6 += ld8(rq[6] + c) * xc;
			d7 += ld8(rq[7] + c) * xc;
		}
	}
	for (; c < ch; c++) {
		for (int q = 0; q < k; q++) {
			s[q] += rq[q][c] * x[c];
		}
	}
	rows_sums(k, s, d0, d1, d2, d3, d4, d5, d6, d7);
}

// flow_rows adds to part[0:nr] the products of A's rows i to i+nr−1
// with x over their columns in [c0, c1): for a dense triangle with x
// contiguous, L2_ROWS rows in one pass over the columns they all have
// (rows_dot: x read once for them, their streams in flight together),
// the rest row by row (packed rows, which start a different distance
// apart, lost with the shared pass).
static inline void flow_rows(int storage, int upper, int n, int lda, __global const real* a,
                             __global const real* x, int offx, int incx, int c0, int c1, int i, int nr,
                             real* part) {
	__global const real* rq[8];
	real s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
	for (int q = 0; q < nr; q++) {
		rq[q] = flow_row(storage, upper, n, lda, a, i + q);
	}
	// The columns all nr rows have: row i+q's are [max(c0, i+q+1), c1)
	// (upper) or [c0, min(c1, i+q)) (lower).
	int lo = max(c0, upper ? i + nr : 0), hi = min(c1, upper ? n : i);
	if (storage == ST_DENSE && nr == L2_ROWS && incx == 1 && hi - lo >= 8) {
		rows_dot(L2_ROWS, rq, x + offx, lo, hi, s);
	} else {
		lo = hi = c0;
	}
	for (int q = 0; q < nr; q++) {
		const int rlo = max(c0, upper ? i + q + 1 : 0), rhi = min(c1, upper ? n : i + q);
		if (rlo < min(lo, rhi)) {
			s[q] += row_dot(rq[q], 0, rlo, min(lo, rhi), x, offx, incx);
		}
		if (max(hi, rlo) < rhi) {
			s[q] += row_dot(rq[q], 0, max(hi, rlo), rhi, x, offx, incx);
		}
		part[q] += s[q];
	}
}

// flow_gather adds to part[0:bl] (the indices cb…cb+bl−1) the products of
// A's rows there with the x solved by steps [s0, s1), along the rows,
// L2_ROWS a pass (flow_rows).
static void flow_gather(int storage, int upper, int n, __global const real* a, int lda,
                        __global const real* x, int offx, int incx, int fwd, int cb, int bl,
                        int s0, int s1, real* part) {
	int c0, c1;
	flow_cols(fwd, n, s0, s1, &c0, &c1);
	for (int p = 0; p < bl; p += L2_ROWS) {
		flow_rows(storage, upper, n, lda, a, x, offx, incx, c0, c1, cb + p, min(L2_ROWS, bl - p), part + p);
	}
}

// flow_gather_t adds to p[0:bl] (x's indices cb…cb+bl−1) the products of
// op(A) = Aᵀ's rows there with the x solved at [c0, c1): down A's columns,
// that is, along A's rows j in [c0, c1) over the block's columns, each
// row's piece whole (all of [cb, cb + bl) lies on its side of the
// diagonal), eight rows a pass (rows8_axpy_at: p loaded and stored once
// for the eight, their streams in flight together), the rest one by one.
static void flow_gather_t(int storage, int upper, int n, __global const real* a, int lda,
                          __global const real* x, int offx, int incx, int cb, int bl, int c0, int c1,
                          __global real* p) {
	int j = c0;
	for (; j + 8 <= c1; j += 8) {
		__global const real* rq[8];
		for (int q = 0; q < 8; q++) {
			rq[q] = flow_row(storage, upper, n, lda, a, j + q) + cb;
		}
		rows8_axpy_at(p, rq, x, offx, incx, j, 0, bl, 1);
	}
	for (; j < c1; j++) {
		row_axpy(p, flow_row(storage, upper, n, lda, a, j) + cb, x[offx + (long)j * incx], bl);
	}
}

// flow_solve_t is tri_solve_flow for op(A) = Aᵀ: blocks of bt steps by
// ticket, each gathering into p (its work-item's bt elements of scratch)
// what the rows of A solved before it owe its columns, then solving its
// own steps.
static void flow_solve_t(int storage, int upper, int unit, int n, __global const real* a, int lda,
                         __global real* x, int offx, int incx, volatile __global uint* ticket, __global real* p,
                         int bt) {
	const int fwd = upper; // Aᵀ is lower triangular when A is upper
	const int nblk = (n + bt - 1) / bt;
	for (;;) {
		const int t = flow_take(ticket, nblk);
		if (t < 0) {
			return;
		}
		const int s0 = t * bt, s1 = min(n, s0 + bt), bl = s1 - s0;
		int cb, ce;
		flow_cols(fwd, n, s0, s1, &cb, &ce);
		for (int c = 0; c < bl; c++) {
			p[c] = 0;
		}
		for (int done = 0; done < t;) {
			const int d = flow_solved(ticket, done);
			if (d > done) {
				int c0, c1;
				flow_cols(fwd, n, done * bt, d * bt, &c0, &c1);
				flow_gather_t(storage, upper, n, a, lda, x, offx, incx, cb, bl, c0, c1, p);
				done = d;
			}
		}
		// The block's own steps, eight at a time: each of the eight adds
		// to the rest of the eight as it is solved, then the eight rows
		// add to the block's columns after them in one pass.
		for (int q0 = 0; q0 < bl; q0 += 8) {
			const int qn = min(8, bl - q0);
			// The eight steps' indices: [g0, g1).
			const int g0 = fwd ? cb + q0 : cb + bl - q0 - qn, g1 = g0 + qn;
			for (int q = 0; q < qn; q++) {
				const int i = fwd ? g0 + q : g1 - 1 - q;
				__global const real* r = flow_row(storage, upper, n, lda, a, i);
				const long ix = offx + (long)i * incx;
				real xi = x[ix] - p[i - cb];
				if (!unit) {
					xi /= r[i];
				}
				x[ix] = xi;
				const int lo = upper ? i + 1 : (qn == 8 ? g0 : cb), hi = upper ? (qn == 8 ? g1 : ce) : i;
				for (int c = lo; c < hi; c++) {
					p[c - cb] += r[c] * xi;
				}
			}
			if (qn == 8) {
				const int lo = upper ? g1 : cb, hi = upper ? ce : g0;
				if (hi > lo) {
					__global const real* rq[8];
					for (int q = 0; q < 8; q++) {
						rq[q] = flow_row(storage, upper, n, lda, a, g0 + q) + cb;
					}
					rows8_axpy_at(p, rq, x, offx, incx, g0, lo - cb, hi - cb, 1);
				}
			}
		}
		flow_publish(ticket, t);
	}
}

__kernel void tri_solve_flow(int storage, int upper, int trans, int unit, int n,
                             __global const real* a, int lda,
                             __global real* x, int offx, int incx,
                             volatile __global uint* ticket, __global real* scratch, int bt) {
	if (trans) {
		flow_solve_t(storage, upper, unit, n, a, lda, x, offx, incx, ticket, scratch + (long)get_group_id(0) * bt, bt);
		return;
	}
	const int fwd = !upper; // op(A) = A lower triangular
	const int nblk = (n + FLOW_B - 1) / FLOW_B;
	for (;;) {
		const int t = flow_take(ticket, nblk);
		if (t < 0) {
			return;
		}
		const int s0 = t * FLOW_B, s1 = min(n, s0 + FLOW_B), bl = s1 - s0;
		int cb, ce;
		flow_cols(fwd, n, s0, s1, &cb, &ce);
		real part[FLOW_B];
		for (int p = 0; p < FLOW_B; p++) {
			part[p] = 0;
		}
		for (int done = 0; done < t;) {
			const int d = flow_solved(ticket, done);
			if (d > done) {
				flow_gather(storage, upper, n, a, lda, x, offx, incx, fwd, cb, bl, done * FLOW_B, d * FLOW_B, part);
				done = d;
			}
		}
		// The block's own steps, one at a time.
		for (int q = 0; q < bl; q++) {
			const int p = fwd ? q : bl - 1 - q;
			const int i = cb + p;
			flow_gather(storage, upper, n, a, lda, x, offx, incx, fwd, i, 1, s0, s0 + q, part + p);
			const long ix = offx + (long)i * incx;
			real xi = x[ix] - part[p];
			if (!unit) {
				xi /= flow_row(storage, upper, n, lda, a, i)[i];
			}
			x[ix] = xi;
		}
		flow_publish(ticket, t);
	}
}

// rank1_cols adds t·y(c) to row[c] for c in [from, to): rank_rows'
// columns one by one.
static inline void rank1_cols(__global real* row, int from, int to, real t,
                              __global const real* y, int offy, int incy) {
	for (int c = from; c < to; c++) {
		row[c] += t * y[offy + (long)c * incy];
	}
}

// rank2_cols adds alpha·(xr·y(c) + x(c)·yr) to row[c] for c in [from, to):
// rank_rows' rank-2 columns one by one.
static inline void rank2_cols(__global real* row, int from, int to, real alpha, real xr, real yr,
                              __global const real* x, int offx, int incx,
                              __global const real* y, int offy, int incy) {
	for (int c = from; c < to; c++) {
		const real xc = x[offx + (long)c * incx];
		const real yc = y[offy + (long)c * incy];
		row[c] += alpha * (xr * yc + xc * yr);
	}
}

// rank_row does rank_rows' update of row r over its columns [lo, hi),
// row[c] holding A(r, c): 8 at a time from a 64-byte boundary of the row
// (so that the vector stores do not straddle lines) when y (and, for rank
// 2, x) is contiguous, the columns before it and after the last whole 8
// one by one.
static inline void rank_row(int two, int skipzero, int r, int lo, int hi, real alpha,
                            __global const real* x, int offx, int incx,
                            __global const real* y, int offy, int incy, __global real* row) {
	if (hi <= lo) {
		return;
	}
	const real xr = x[offx + (long)r * incx];
	const int cv = min(hi, lo + (int)(((64 - ((ulong)(row + lo) & 63)) & 63) / sizeof(real)));
	int c = lo;
	if (two) {
		const real yr = y[offy + (long)r * incy];
		if (incx == 1 && incy == 1) {
			rank2_cols(row, lo, cv, alpha, xr, yr, x, offx, 1, y, offy, 1);
			for (c = cv; c + 8 <= hi; c += 8) {
				const real8 xc = ld8(x + offx + c);
				const real8 yc = ld8(y + offy + c);
				st8(ld8(row + c) + alpha * (xr * yc + xc * yr), row + c);
			}
		}
		rank2_cols(row, c, hi, alpha, xr, yr, x, offx, incx, y, offy, incy);
		return;
	}
	const real t = alpha * xr;
	if (skipzero && t == 0) {
		return;
	}
	if (incy == 1) {
		rank1_cols(row, lo, cv, t, y, offy, 1);
		for (c = cv; c + 8 <= hi; c += 8) {
			st8(ld8(row + c) + t * ld8(y + offy + c), row + c);
		}
	}
	rank1_cols(row, c, hi, t, y, offy, incy);
}

// rank4_single does rank4_cols' update of the columns [from, to) one by
// one.
static inline void rank4_single(int two, real alpha, const real t[4], const real xr[4], const real yr[4],
                                __global const real* x, __global const real* y, __global real* const rw[4],
                                int from, int to) {
	for (int c = from; c < to; c++) {
		for (int q = 0; q < 4; q++) {
			rw[q][c] += two ? alpha * (xr[q] * y[c] + x[c] * yr[q]) : t[q] * y[c];
		}
	}
}

// rank4_cols does rank_rows' update of the four rows r0 … r0+3 (rw[q][c]
// holding A(r0+q, c)) over the columns [cl, ch) they all store, in one
// pass: y (and x) loaded once for the four, the four rows' streams in
// flight together (a triangle's rows begin apart, each a new stream for
// the prefetcher to find). xr and yr are the rows' x(r) and y(r); y (and,
// for rank 2, x) is contiguous from y[0] (x[0]); no row is one Dsyr
// skips. Each element gets rank_row's numbers.
static inline void rank4_cols(int two, int cl, int ch, real alpha, const real xr[4], const real yr[4],
                              __global const real* x, __global const real* y, __global real* const rw[4]) {
	const real t[4] = {alpha * xr[0], alpha * xr[1], alpha * xr[2], alpha * xr[3]};
	const int cv = min(ch, cl + (int)(((64 - ((ulong)(rw[0] + cl) & 63)) & 63) / sizeof(real)));
	rank4_single(two, alpha, t, xr, yr, x, y, rw, cl, cv);
	__global real* const rw0 = rw[0];
	__global real* const rw1 = rw[1];
	__global real* const rw2 = rw[2];
	__global real* const rw3 = rw[3];
	int c = cv;
	for (; c + 8 <= ch; c += 8) {
		const real8 yc = ld8(y + c);
		if (two) {
			const real8 xc = ld8(x + c);
			st8(ld8(rw0 + c) + alpha * (xr[0] * yc + xc * yr[0]), rw0 + c);
			st8(ld8(rw1 + c) + alpha * (xr[1] * yc + xc * yr[1]), rw1 + c);
			st8(ld8(rw2 + c) + alpha * (xr[2] * yc + xc * yr[2]), rw2 + c);
			st8(ld8(rw3 + c) + alpha * (xr[3] * yc + xc * yr[3]), rw3 + c);
		} else {
			st8(ld8(rw0 + c) + t[0] * yc, rw0 + c);
			st8(ld8(rw1 + c) + t[1] * yc, rw1 + c);
			st8(ld8(rw2 + c) + t[2] * yc, rw2 + c);
			st8(ld8(rw3 + c) + t[3] * yc, rw3 + c);
		}
	}
	rank4_single(two, alpha, t, xr, yr, x, y, rw, c, ch);
}

// rank_rows: the rank-1 and rank-2 updates on CPU devices (see gemv_rows;
// GPUs take gemv.cl's ger_rows and syr_rows). A work-item takes a row r,
// walking its stored columns [lo, hi) — contiguous in dense and in packed
// storage — with rank_row. A general matrix's rows, and a packed
// triangle's, follow each other in memory, one stream; a dense triangle's
// begin apart, and rank_rows4 takes them four at a time.
//   tri      0: general A (ger); 1: only the stored triangle (upper or not)
//   packed   A is a packed triangle (spr, spr2), else dense with lda
//   two      A(r,c) += alpha·(x(r)·y(c) + x(c)·y(r))            (syr2, spr2)
//            else A(r,c) += (alpha·x(r))·y(c)                 (ger, syr, spr;
//            syr and spr pass x as y)
//   skipzero the rank-1 row is skipped when alpha·x(r) == 0 (gonum's Dsyr)
__kernel void rank_rows(int tri, int upper, int packed, int two, int skipzero,
                        int m, int n, real alpha,
                        __global const real* x, int offx, int incx,
                        __global const real* y, int offy, int incy,
                        __global real* a, int lda) {
	const int r = spread_id(tri);
	if (r >= m) {
		return;
	}
	const int lo = (tri && upper) ? r : 0;
	const int hi = (tri && !upper) ? r + 1 : n;
	__global real* row = a + (packed ? tri_at(ST_PACKED, upper, n, 0, 0, r, lo) : (long)r * lda + lo) - lo; // row[c] is A(r, c)
	rank_row(two, skipzero, r, lo, hi, alpha, x, offx, incx, y, offy, incy, row);
}

// rank_rows4 is rank_rows for a dense triangle (syr, syr2), four rows a
// work-item.
__kernel void rank_rows4(int upper, int two, int skipzero, int m, int n, real alpha,
                         __global const real* x, int offx, int incx,
                         __global const real* y, int offy, int incy,
                         __global real* a, int lda) {
	const int r0 = spread_id(1) * 4;
	if (r0 >= m) {
		return;
	}
	const int nr = min(4, m - r0);
	__global real* rw[4]; // rw[q][c] is A(r0+q, c)
	real xr[4], yr[4];
	for (int q = 0; q < 4; q++) {
		const int r = r0 + min(q, nr - 1);
		rw[q] = a + (long)r * lda;
		xr[q] = x[offx + (long)r * incx];
		yr[q] = y[offy + (long)r * incy];
	}
	// The columns all four rows store.
	int cl = upper ? r0 + 3 : 0, ch = upper ? n : r0 + 1;
	int shared = nr == 4 && incy == 1 && (!two || incx == 1) && ch > cl;
	for (int q = 0; q < 4 && shared && !two; q++) {
		shared = !(skipzero && alpha * xr[q] == 0);
	}
	if (shared) {
		rank4_cols(two, cl, ch, alpha, xr, yr, x + offx, y + offy, rw);
	} else {
		cl = ch = 0;
	}
	for (int q = 0; q < nr; q++) {
		const int r = r0 + q;
		const int lo = upper ? r : 0, hi = upper ? n : r + 1;
		rank_row(two, skipzero, r, lo, min(hi, cl), alpha, x, offx, incx, y, offy, incy, rw[q]);
		rank_row(two, skipzero, r, max(lo, ch), hi, alpha, x, offx, incx, y, offy, incy, rw[q]);
	}
}

// gemv_rows and gemv_cols are the dense general products for CPU devices
// (PoCL and the like), where a work-group is a loop on one core and the
// local-memory reductions of mv and gemv.cl's kernels cost more than they save: a
// work-item walks contiguous memory with 8-wide vector arithmetic and no
// barrier. Each sum is a sequence of 8-lane partial sums added at the end
// (no fma: level2.cl keeps gonum's separate multiply and add).

// gemv_rows: y(i) = alpha·Σ_j A(i,j)·x(j) + beta·y(i), one work-item per
// row i of the dense m×n A.
__kernel void gemv_rows(int m, int n, real alpha, __global const real* a, int lda,
                        __global const real* x, int offx, int incx,
                        real beta, __global real* y, int offy, int incy) {
	const int i = get_global_id(0);
	if (i >= m) {
		return;
	}
	const real s = row_dot(a + (long)i * lda, 0, 0, n, x, offx, incx);
	const long iy = offy + (long)i * incy;
	real r = (beta == 0) ? (real)0 : beta * y[iy];
	if (n > 0) {
		r += alpha * s;
	}
	y[iy] = r;
}

// gemv_cols: y(j) = alpha·Σ_i A(i,j)·x(i) + beta·y(j) (the transposed
// product of the dense m×n A), one work-item per 32 consecutive columns,
// reading 32-element pieces of each row: a work-item walks down A a row
// apart per load, so its pieces are as wide as four vector sums keep in
// registers (8 columns a work-item ran at half the rate: a new line and
// page per 64 bytes).
__kernel void gemv_cols(int m, int n, real alpha, __global const real* a, int lda,
                        __global const real* x, int offx, int incx,
                        real beta, __global real* y, int offy, int incy) {
	const int j0 = get_global_id(0) * 32;
	if (j0 >= n) {
		return;
	}
	real t[32];
	if (j0 + 32 <= n) {
		real8 acc[4] = {0, 0, 0, 0};
		for (int i = 0; i < m; i++) {
			cols32_add(acc, a + (long)i * lda + j0, x[offx + (long)i * incx]);
		}
		cols32_store(acc, t);
	} else {
		for (int c = 0; c < 32; c++) {
			t[c] = 0;
		}
		for (int i = 0; i < m; i++) {
			const real xi = x[offx + (long)i * incx];
			for (int c = 0; c < n - j0; c++) {
				t[c] += a[(long)i * lda + j0 + c] * xi;
			}
		}
	}
	for (int c = 0; c < min(32, n - j0); c++) {
		const long iy = offy + (long)(j0 + c) * incy;
		real r = (beta == 0) ? (real)0 : beta * y[iy];
		if (m > 0) {
			r += alpha * t[c];
		}
		y[iy] = r;
	}
}

// row_axpy: p[0, len) += r[0, len)·t.
static inline void row_axpy(__global real* p, __global const real* r, real t, int len) {
	int k = 0;
	for (; k + 8 <= len; k += 8) {
		st8(ld8(p + k) + ld8(r + k) * t, p + k);
	}
	for (; k < len; k++) {
		p[k] += r[k] * t;
	}
}

// sym_row adds row i of a symmetric band or triangle (as sym_rows takes
// it) outside the columns [cl, ch) into p: x(i)·A(i, j) into p[j] for
// j ≠ i, and Σ_j A(i, j)·x(j) into p[i].
static inline void sym_row(int storage, int upper, int n, int kl, int ku, __global const real* a, int lda,
                           __global const real* x, int offx, int incx, __global real* p, int i, int cl, int ch) {
	__global const real* row = a + tri_at(storage, upper, n, kl, lda, i, 0); // row[j] is A(i, j)
	const int lo = max(0, i - kl), hi = min(n, i + ku + 1);
	const real xi = x[offx + (long)i * incx];
	real s = 0;
	for (int part = 0; part < 2; part++) {
		const int from = part == 0 ? lo : max(lo, ch), to = part == 0 ? min(hi, cl) : hi;
		for (int j = from; j < to; j++) {
			const real t = row[j];
			s += t * x[offx + (long)j * incx];
			if (j != i) {
				p[j] += t * xi;
			}
		}
	}
	p[i] += s;
}

// sym_col adds column j of the k rows rq (4 or 8, as sym_rows_k takes
// them) to their sums s and to p[j].
static inline void sym_col(int k, __global const real* rq[8], __global const real* x, __global real* p, int j,
                           const real xq[8], real s[8]) {
	const real xj = x[j];
	for (int q = 0; q < k; q++) {
		s[q] += rq[q][j] * xj;
	}
	real t = (rq[0][j] * xq[0] + rq[1][j] * xq[1]) + (rq[2][j] * xq[2] + rq[3][j] * xq[3]);
	if (k == 8) {
		t += (rq[4][j] * xq[4] + rq[5][j] * xq[5]) + (rq[6][j] * xq[6] + rq[7][j] * xq[7]);
	}
	p[j] += t;
}

// sym_rows_k adds the k rows (4 or 8) from i (as sym_rows takes them)
// into p, the off-diagonal columns they all store in one pass, 8 at a
// time, and the rest row by row; x is contiguous. k is a constant where
// it is called, so the eight rows' code folds away for four: the sums
// are named vectors, not an array, which PoCL kept in memory.
static inline void sym_rows_k(int k, int storage, int upper, int n, int kl, int ku, __global const real* a,
                              int lda, __global const real* x, __global real* p, int i) {
	// The columns all k rows store, diagonals left out.
	const int cl = upper ? i + k : max(0, i + k - 1 - kl);
	const int ch = upper ? min(n, i + ku + 1) : i;
	__global const real* rq[8];
	real xq[8], s[8];
	for (int q = 0; q < k; q++) {
		rq[q] = a + tri_at(storage, upper, n, kl, lda, i + q, 0);
		xq[q] = x[i + q];
		s[q] = 0;
	}
	real8 d0 = 0, d1 = 0, d2 = 0, d3 = 0, d4 = 0, d5 = 0, d6 = 0, d7 = 0;
	int j = cl;
	// Single columns up to a 64-byte boundary of row i (in dense storage
	// the others' too), so that the vector loads do not straddle lines.
	for (; j < ch && ((ulong)(rq[0] + j) & 63) != 0; j++) {
		sym_col(k, rq, x, p, j, xq, s);
	}
	for (; j + 8 <= ch; j += 8) {
		const real8 xj = ld8(x + j);
		const real8 a0 = ld8(rq[0] + j), a1 = ld8(rq[1] + j), a2 = ld8(rq[2] + j), a3 = ld8(rq[3] + j);
		d0 += a0 * xj;
		d1 += a1 * xj;
		d2 += a2 * xj;
		d3 += a3 * xj;
		real8 t = (a0 * xq[0] + a1 * xq[1]) + (a2 * xq[2] + a3 * xq[3]);
		if (k == 8) {
			const real8 a4 = ld8(rq[4] + j), a5 = ld8(rq[5] + j), a6 = ld8(rq[6] + j), a7 = ld8(rq[7] + j);
			d4 += a4 * xj;
			d5 += a5 * xj;
			d6 += a6 * xj;
			d7 += a7 * xj;
			t += (a4 * xq[4] + a5 * xq[5]) + (a6 * xq[6] + a7 * xq[7]);
		}
		st8(ld8(p + j) + t, p + j);
	}
	for (; j < ch; j++) {
		sym_col(k, rq, x, p, j, xq, s);
	}
	rows_sums(k, s, d0, d1, d2, d3, d4, d5, d6, d7);
	for (int q = 0; q < k; q++) {
		p[i + q] += s[q];
		sym_row(storage, upper, n, kl, ku, a, lda, x, 0, 1, p, i + q, cl, max(ch, cl));
	}
}

// rows4_axpy adds x0·r[j] + x1·r[lda + j] + x2·r[2·lda + j] + x3·r[3·lda + j]
// to p[j] over the columns [cl, ch), four dense rows from r in one pass
// (the four rows' streams in flight together; see complex_level2.cl's
// zrows4_dot), from a 64-byte boundary of the first.
static inline void rows4_axpy(__global real* p, __global const real* r, int lda, real x0, real x1, real x2,
                              real x3, int cl, int ch) {
	__global const real* r1 = r + lda;
	__global const real* r2 = r1 + lda;
	__global const real* r3 = r2 + lda;
	int j = cl;
	for (; j < ch && ((ulong)(r + j) & 63) != 0; j++) {
		p[j] += (r[j] * x0 + r1[j] * x1) + (r2[j] * x2 + r3[j] * x3);
	}
	for (; j + 8 <= ch; j += 8) {
		st8(ld8(p + j) + ((ld8(r + j) * x0 + ld8(r1 + j) * x1) + (ld8(r2 + j) * x2 + ld8(r3 + j) * x3)), p + j);
	}
	for (; j < ch; j++) {
		p[j] += (r[j] * x0 + r1[j] * x1) + (r2[j] * x2 + r3[j] * x3);
	}
}

// rows8_at is Σ_q rq[q][j]·xq[q] over the eight rows, summed as
// rows8_axpy's vectors sum them.
static inline real rows8_at(__global const real* rq[8], const real xq[8], int j) {
	return ((rq[0][j] * xq[0] + rq[1][j] * xq[1]) + (rq[2][j] * xq[2] + rq[3][j] * xq[3])) +
	       ((rq[4][j] * xq[4] + rq[5][j] * xq[5]) + (rq[6][j] * xq[6] + rq[7][j] * xq[7]));
}

// rows8_axpy_at is rows8_axpy for the eight rows rq[q] (rq[q][j] is
// A(i0 + q, j)) wherever each starts: band_t_rows' rows of a dense or
// packed triangle or of a band, each from tri_at.
static inline void rows8_axpy_at(__global real* p, __global const real* rq[8], __global const real* x, int offx,
                                 int incx, int i0, int cl, int ch, int onp) {
	real xq[8];
	for (int q = 0; q < 8; q++) {
		xq[q] = x[offx + (long)(i0 + q) * incx];
	}
	const ulong mask = onp ? 8 * sizeof(real) - 1 : 63;
	int j = cl;
	for (; j < ch && ((ulong)((onp ? (__global const real*)p : rq[0]) + j) & mask) != 0; j++) {
		p[j] += rows8_at(rq, xq, j);
	}
	for (; j + 8 <= ch; j += 8) {
		st8(ld8(p + j) + (((ld8(rq[0] + j) * xq[0] + ld8(rq[1] + j) * xq[1]) + (ld8(rq[2] + j) * xq[2] + ld8(rq[3] + j) * xq[3])) +
		                  ((ld8(rq[4] + j) * xq[4] + ld8(rq[5] + j) * xq[5]) + (ld8(rq[6] + j) * xq[6] + ld8(rq[7] + j) * xq[7]))), p + j);
	}
	for (; j < ch; j++) {
		p[j] += rows8_at(rq, xq, j);
	}
}

// rows8_axpy is rows4_axpy for the eight rows from r (lda apart), x(i)
// of row i at x[offx + i·incx] for i = i0…i0+7, from a 64-byte boundary
// of the first row, or with onp from a boundary of 8 elements of p: band
// rows, whose pieces start one element further along the partial each
// row, take their passes on p's boundaries, so that a pass reads p's
// vectors where the pass before stored them (a load straddling two
// earlier stores waits for them to reach the cache).
static inline void rows8_axpy(__global real* p, __global const real* r, int lda, __global const real* x, int offx,
                              int incx, int i0, int cl, int ch, int onp) {
	__global const real* rq[8];
	for (int q = 0; q < 8; q++) {
		rq[q] = r + (long)q * lda;
	}
	rows8_axpy_at(p, rq, x, offx, incx, i0, cl, ch, onp);
}

// gemv_t_cols8: y(j) = alpha·Σ_{g < nb} part[g·n + j] + beta·y(j) (beta
// == 0 assigns; alpha·Σ only if m > 0) for the columns j0 … j0+7 below n.
static inline void gemv_t_cols8(int m, int n, int nb, real alpha, __global const real* part,
                                real beta, __global real* y, int offy, int incy, int j0) {
	for (int j = j0; j < min(n, j0 + 8); j++) {
		real s = 0;
		for (int g = 0; g < nb; g++) {
			s += part[(long)g * n + j];
		}
		const long iy = offy + (long)j * incy;
		real r = (beta == 0) ? (real)0 : beta * y[iy];
		if (m > 0) {
			r += alpha * s;
		}
		y[iy] = r;
	}
}

// gemv_t_rows: the transposed product's partial sums on CPU devices, in
// the axpy orientation: work-item g takes rows [g·rb, min(m, (g+1)·rb)) of
// the dense m×n A and adds x(i)·A(i, :) for each into part[g·n …], eight
// rows at a time (then four, then one), so that it reads A's rows whole
// and in order (a prefetcher's stream) and its partial row stays in
// cache, loaded and stored once for eight rows; gemv_t_sum then adds the
// partial rows, or with one the last work-item does (l2_last). gemv_cols
// instead walks down A a row apart per load, a new page every row once
// rows are a page long. part is the engine's scratch, apart from a and x
// (restrict: its stores cannot change them).
__kernel void gemv_t_rows(int m, int n, int rb, __global const real* restrict a, int lda,
                          __global const real* restrict x, int offx, int incx, __global real* restrict part,
                          int one, __global uint* ticket, real alpha, real beta, __global real* y, int offy,
                          int incy) {
	const int g = get_global_id(0);
	const long i0 = (long)g * rb, i1 = min((long)m, i0 + rb);
	__global real* p = part + (long)g * n;
	int j = 0;
	for (; j + 8 <= n; j += 8) {
		st8((real8)0, p + j);
	}
	for (; j < n; j++) {
		p[j] = 0;
	}
	long i = i0;
	for (; i + 8 <= i1; i += 8) {
		rows8_axpy(p, a + i * lda, lda, x, offx, incx, i, 0, n, 0);
	}
	for (; i + 4 <= i1; i += 4) {
		rows4_axpy(p, a + i * lda, lda, x[offx + i * incx], x[offx + (i + 1) * incx], x[offx + (i + 2) * incx],
		           x[offx + (i + 3) * incx], 0, n);
	}
	for (; i < i1; i++) {
		const real x0 = x[offx + i * incx];
		__global const real* r0 = a + i * lda;
		row_axpy(p, r0, x0, n);
	}
	if (l2_last(one, ticket)) {
		for (int j0 = 0; j0 < n; j0 += 8) {
			gemv_t_cols8(m, n, get_num_groups(0), alpha, part, beta, y, offy, incy, j0);
		}
		atomic_xchg(ticket, 0u);
	}
}

// gemv_t_sum: gemv_t_cols8 over the partials of gemv_t_rows' nb row
// blocks, a work-item per 8 columns.
__kernel void gemv_t_sum(int m, int n, int nb, real alpha, __global const real* part,
                         real beta, __global real* y, int offy, int incy) {
	gemv_t_cols8(m, n, nb, alpha, part, beta, y, offy, incy, get_global_id(0) * 8);
}

// band_rows, band_t_rows, sym_rows and band_t_sum are the band, symmetric
// and triangular products for CPU devices. In gonum's row-major band storage
// row i of the m×n band A holds A(i, j) for j in [i − kl, i + ku] at
// a[i·lda + kl + j − i], so a row's band is contiguous, as a triangle's
// rows are in dense and packed storage, which the kernels take as a band
// with n − 1 diagonals on one side. A symmetric or triangular matrix
// stores one triangle: kl = 0 (upper) or ku = 0 (lower). Every product
// inside the band is computed once (twice in sym_rows, for its row and its
// column; no fma), so NaN and Inf spread as in mv; an output without terms
// keeps b, as in gonum.

// band_row_dot is Σ_c A(i,c)·x(c) over row i's stored columns [lo, hi)
// outside [cl, ch), row[c] holding A(i, c), the diagonal taken as 1
// (unit; it never lies in [cl, ch)).
static inline real band_row_dot(__global const real* row, int unit, int i, int lo, int hi, int cl, int ch,
                                __global const real* x, int offx, int incx) {
	real s = 0;
	for (int part = 0; part < 2; part++) {
		const int from = part == 0 ? lo : max(lo, ch), to = part == 0 ? min(hi, cl) : hi;
		if (unit && i >= from && i < to) {
			s += row_dot(row, 0, from, i, x, offx, incx) + x[offx + (long)i * incx];
			s += row_dot(row, 0, i + 1, to, x, offx, incx);
		} else if (to > from) {
			s += row_dot(row, 0, from, to, x, offx, incx);
		}
	}
	return s;
}

// band_rows_k is band_rows' work for rows i to min(i + k, m) − 1 (k is 4
// or 8).
static inline void band_rows_k(int k, int storage, int upper, int m, int n, int kl, int ku, int unit, real alpha,
                               __global const real* a, int lda, __global const real* x, int offx, int incx,
                               real beta, __global real* y, int offy, int incy, int i) {
	const int nr = min(k, m - i);
	__global const real* r[8];
	real s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
	for (int q = 0; q < nr; q++) {
		r[q] = a + tri_at(storage, upper, n, kl, lda, i + q, 0); // r[q][c] is A(i+q, c)
	}
	// The columns the k rows share, a unit diagonal left out.
	int cl = unit && upper ? i + k : max(0, i + k - 1 - kl), ch = rows4_to(i, n, ku, unit && !upper);
	// Dense storage only: there the rows' loads fall alike on the lines,
	// where band and packed rows start a different distance apart.
	if (nr < k || incx != 1 || ch <= cl || storage != ST_DENSE) {
		cl = ch = 0;
	} else {
		rows_dot(k, r, x + offx, cl, ch, s);
	}
	for (int q = 0; q < nr; q++) {
		const int row = i + q;
		const int lo = max(0, row - kl), hi = min(n, row + ku + 1);
		s[q] += band_row_dot(r[q], unit && row < n, row, lo, hi, cl, ch, x, offx, incx);
		const long iy = offy + (long)row * incy;
		real v = (beta == 0) ? (real)0 : beta * y[iy];
		if (hi > lo) {
			v += alpha * s[q];
		}
		y[iy] = v;
	}
}

// band_rows: y(i) = b(i) + alpha·Σ_j A(i,j)·x(j) over row i's stored
// columns for a band or a triangle in dense or packed storage (as
// band_t_rows takes them), with b = beta·y(i) (0 when beta == 0) and the
// diagonal taken as 1 (unit): GBMV, TRMV and TBMV. A work-item takes
// L2_ROWS rows, which in dense storage share one pass over the columns
// they all store (x read once for them) when x is contiguous; the rest of each
// row, and every row elsewhere, by row_dot. With one (l2_last), y is
// scratch, contiguous, and work-item 0 of the work-group that takes the
// launch's last ticket copies it to dst: TRMV, TBMV and TPMV in place in
// one launch, where every row has read x before x is written.
__kernel void band_rows(int storage, int upper, int m, int n, int kl, int ku, int unit, real alpha,
                        __global const real* a, int lda,
                        __global const real* x, int offx, int incx,
                        real beta, __global real* y, int offy, int incy,
                        int one, __global uint* ticket, __global real* dst, int offd, int incd) {
	const int i = spread_id(triangle(m, n, kl, ku)) * L2_ROWS;
	if (i < m) {
		band_rows_k(L2_ROWS, storage, upper, m, n, kl, ku, unit, alpha, a, lda, x, offx, incx, beta, y, offy, incy, i);
	}
	L2_COPY_LAST(one, ticket, m, y, offy, dst, offd, incd)
}

// band_part is row block g's partial of band_t_rows and sym_rows, rows
// [g·rb, min(m, (g+1)·rb)), zeroed over the columns they reach: p[j] for
// column j.
static inline __global real* band_part(__global real* part, int g, int rb, int pw, int m, int n, int kl, int ku) {
	const int i0 = g * rb, i1 = min(m, i0 + rb);
	const int c0 = i0 - kl; // the column of p[0]
	__global real* p = part + (long)g * pw - c0;
	for (int j = max(0, c0); j < min(n, i1 + ku); j++) {
		p[j] = 0;
	}
	return p;
}

// band_row_axpy adds x(i)·A(i, j) into p[j] over row i's stored columns
// outside [cl, ch), the diagonal taken as 1 (unit; it never lies in
// [cl, ch)).
static inline void band_row_axpy(int storage, int upper, int m, int n, int kl, int ku, int unit,
                                 __global const real* a, int lda, __global const real* x, int offx, int incx,
                                 __global real* p, int i, int cl, int ch) {
	const real xi = x[offx + (long)i * incx];
	const long r0 = tri_at(storage, upper, n, kl, lda, i, 0); // a[r0 + j] is A(i, j)
	const int lo = max(0, i - kl), hi = min(n, i + ku + 1);
	for (int part = 0; part < 2; part++) {
		const int from = part == 0 ? lo : max(lo, ch), to = part == 0 ? min(hi, cl) : hi;
		if (unit && i < n && i >= from && i < to) {
			row_axpy(p + from, a + (r0 + from), xi, i - from);
			row_axpy(p + i + 1, a + (r0 + i + 1), xi, to - i - 1);
			p[i] += xi;
		} else if (to > from) {
			row_axpy(p + from, a + (r0 + from), xi, to - from);
		}
	}
}

// band_t_col: y(j) = b(j) + alpha·Σ_g part of column j over the partials
// of band_t_rows or sym_rows that hold it, with b = beta·y(j) (0 when
// beta == 0).
static inline void band_t_col(int m, int n, int kl, int ku, int rb, int pw, real alpha,
                              __global const real* part, real beta, __global real* y, int offy, int incy, int j) {
	const long iy = offy + (long)j * incy;
	real r = (beta == 0) ? (real)0 : beta * y[iy];
	// Column j has terms in rows [max(0, j − ku), min(m − 1, j + kl)];
	// partial g holds columns [g·rb − kl, min(m, (g+1)·rb) + ku), so the
	// partials of [glo, ghi] hold column j. No test inside the loop: PoCL
	// ran this loop about eight times slower with its loads conditional.
	if (m > 0 && j - ku <= m - 1) {
		const int from = j - ku - rb + 1;
		const int glo = from <= 0 ? 0 : (from + rb - 1) / rb;
		const int ghi = min((m - 1) / rb, (j + kl) / rb);
		real s = 0;
		for (int g = glo; g <= ghi; g++) {
			s += part[(long)g * pw + j - (g * rb - kl)];
		}
		r += alpha * s;
	}
	y[iy] = r;
}

// band_t_sum: band_t_col, a work-item per column.
__kernel void band_t_sum(int m, int n, int kl, int ku, int rb, int pw, real alpha,
                         __global const real* part, real beta, __global real* y, int offy, int incy) {
	const int j = get_global_id(0);
	if (j < n) {
		band_t_col(m, n, kl, ku, rb, pw, alpha, part, beta, y, offy, incy, j);
	}
}

// band_t_last: with one, the work-item that takes the launch's last ticket
// (l2_last) does band_t_sum's work over every column.
static inline void band_t_last(int one, __global uint* ticket, int m, int n, int kl, int ku, int rb, int pw,
                               real alpha, __global const real* part, real beta, __global real* y, int offy,
                               int incy) {
	if (l2_last(one, ticket)) {
		for (int j = 0; j < n; j++) {
			band_t_col(m, n, kl, ku, rb, pw, alpha, part, beta, y, offy, incy, j);
		}
		atomic_xchg(ticket, 0u);
	}
}

// BAND_PASS8 is the fewest diagonals (kl + ku) of a band whose rows
// band_t_rows takes eight a pass.
#define BAND_PASS8 256

// band_t_rows: the partial sums of Aᵀ·x for a band, or a triangle in dense
// or packed storage (kl or ku n − 1; storage and upper as tri_at takes
// them, a general band as a lower one with k = kl), in the axpy orientation
// of gemv_t_rows: work-item g takes rows [g·rb, min(m, (g+1)·rb)) and adds
// x(i)·A(i, :) over each row's stored columns into its partial part[g·pw +
// j − (g·rb − kl)], which holds the columns its rows reach (pw ≥ rb + kl +
// ku); band_t_sum adds the partials (with one, the last work-item:
// band_t_last). The diagonal is taken as 1 with unit.
// Eight rows of a dense triangle (then four) share one pass over the
// columns they all store (rows8_axpy, rows4_axpy), so that the partial is
// read and written once per eight elements of A; so do eight rows of a
// wide band or of a packed triangle, whose rows start a different
// distance apart, on p's own boundaries (rows8_axpy_at with onp).
__kernel void band_t_rows(int storage, int upper, int m, int n, int kl, int ku, int rb, int pw,
                          int unit, __global const real* a, int lda,
                          __global const real* x, int offx, int incx, __global real* part,
                          int one, __global uint* ticket, real alpha, real beta, __global real* y, int offy,
                          int incy) {
	const int tri = triangle(m, n, kl, ku);
	const int g = spread_id(tri);
	const int i0 = g * rb, i1 = min(m, i0 + rb);
	__global real* p = band_part(part, g, rb, pw, m, n, kl, ku); // p[j] for column j
	int i = i0;
	// Bands narrower than BAND_PASS8 columns keep a row a pass: there the
	// columns left to each row's own pass (up to 7 of its ends) cost more
	// than the shared pass saves.
	const int band = storage == ST_BAND && kl + ku >= BAND_PASS8;
	const int packed = tri && storage == ST_PACKED;
	for (; ((tri && storage == ST_DENSE) || band || packed) && i + 8 <= i1; i += 8) {
		// The columns the eight rows share, a unit diagonal left out.
		int cl = unit && upper ? i + 8 : max(0, i + 7 - kl), ch = min(n, unit && !upper ? i : i + ku + 1);
		if (ch > cl) {
			__global const real* rq[8];
			for (int q = 0; q < 8; q++) {
				rq[q] = a + tri_at(storage, upper, n, kl, lda, i + q, 0);
			}
			rows8_axpy_at(p, rq, x, offx, incx, i, cl, ch, band || packed);
		} else {
			cl = ch = 0;
		}
		for (int q = 0; q < 8; q++) {
			band_row_axpy(storage, upper, m, n, kl, ku, unit, a, lda, x, offx, incx, p, i + q, cl, ch);
		}
	}
	for (; tri && storage == ST_DENSE && i + 4 <= i1; i += 4) {
		// The columns the four rows share, a unit diagonal left out.
		int cl = rows4_from(i, kl, unit && upper), ch = rows4_to(i, n, ku, unit && !upper);
		if (ch > cl) {
			rows4_axpy(p, a + (long)i * lda, lda, x[offx + (long)i * incx], x[offx + (long)(i + 1) * incx],
			           x[offx + (long)(i + 2) * incx], x[offx + (long)(i + 3) * incx], cl, ch);
		} else {
			cl = ch = 0;
		}
		for (int q = 0; q < 4; q++) {
			band_row_axpy(storage, upper, m, n, kl, ku, unit, a, lda, x, offx, incx, p, i + q, cl, ch);
		}
	}
	for (; i < i1; i++) {
		band_row_axpy(storage, upper, m, n, kl, ku, unit, a, lda, x, offx, incx, p, i, 0, 0);
	}
	band_t_last(one, ticket, m, n, kl, ku, rb, pw, alpha, part, beta, y, offy, incy);
}

// sym_rows: band_t_rows' partials for a symmetric band or triangle (dense,
// packed or band storage, one triangle stored: kl = 0 or ku = 0), with
// each stored row read once for both its row and its column: work-item g
// takes rows [g·rb, min(n, (g+1)·rb)); for row i it adds x(i)·A(i, j) into
// p[j] for its stored j ≠ i (the column sums of the triangle not stored)
// and Σ_j A(i, j)·x(j) over its stored j into p[i] (its row). band_t_sum
// (or with one band_t_last) then gives y = beta·y + alpha·Σ partials.
// L2_ROWS rows at a time (then four) share one pass over the columns they
// all store, so that the partial is read and written once per that many
// elements of A.
__kernel void sym_rows(int storage, int upper, int n, int kl, int ku, int rb, int pw,
                       __global const real* a, int lda,
                       __global const real* x, int offx, int incx, __global real* part,
                       int one, __global uint* ticket, real alpha, real beta, __global real* y, int offy,
                       int incy) {
	const int g = spread_id(triangle(n, n, kl, ku));
	const int i0 = g * rb, i1 = min(n, i0 + rb);
	__global real* p = band_part(part, g, rb, pw, n, n, kl, ku); // p[j] for column j
	int i = i0;
	if (incx == 1) {
		__global const real* xp = x + offx;
#if L2_ROWS == 8
		for (; i + 8 <= i1; i += 8) {
			sym_rows_k(8, storage, upper, n, kl, ku, a, lda, xp, p, i);
		}
#endif
		for (; i + 4 <= i1; i += 4) {
			sym_rows_k(4, storage, upper, n, kl, ku, a, lda, xp, p, i);
		}
	}
	for (; i < i1; i++) {
		sym_row(storage, upper, n, kl, ku, a, lda, x, offx, incx, p, i, i, i);
	}
	band_t_last(one, ticket, n, n, kl, ku, rb, pw, alpha, part, beta, y, offy, incy);
}

// scale_y: y(i) = beta·y(i), or 0 when beta == 0 (the alpha == 0 case of
// the matrix-vector products, where gonum reads neither A nor x).
__kernel void scale_y(int n, real beta, __global real* y, int offy, int incy) {
	const int i = get_global_id(0);
	if (i >= n) {
		return;
	}
	const long iy = offy + (long)i * incy;
	y[iy] = (beta == 0) ? (real)0 : beta * y[iy];
}
