// complex_level2.cl — complex level-2 BLAS (matrix-vector products,
// rank updates; the triangular solves are trsv.cl's on GPUs) on gonum's ROW-MAJOR
// storage. Built after common.cl with PRECISION=32|64: a complex number is a real2 (re,
// im), the layout of Go's complex64 and complex128. Everything else
// (transpose, uplo, diag, storage scheme) is a kernel argument, so the file
// is built once per precision.
//
// MATRIX DESCRIPTOR (the leading arguments of zmv), as in level2.cl:
//   int kind     ZKIND_GENERAL (gemv, gbmv), ZKIND_HERMITIAN (hemv, hbmv,
//                hpmv) or ZKIND_TRIANGULAR (trmv, tbmv, tpmv)
//   int storage  ZST_DENSE, ZST_BAND or ZST_PACKED
//   int upper    the stored triangle (Hermitian, triangular)
//   int trans    op(A): 0 A, 1 Aᵀ, 2 Aᴴ (general, triangular)
//   int unit     unit diagonal: A(i,i) is taken as 1 and never read
//   int m, n     general: A is m×n; otherwise A is n×n (m == n)
//   int kl, ku   general: sub/super-diagonals (dense: m-1, n-1);
//                otherwise both k, the band width (dense, packed: n-1)
//   __global const real2* a, int lda
//
// Storage of the stored element (r, c), gonum's conventions:
//   dense                 a[r*lda + c]
//   general band          a[r*lda + c - r + kl]        (r-kl ≤ c ≤ r+ku)
//   upper band            a[r*lda + c - r]             (r ≤ c ≤ r+k)
//   lower band            a[r*lda + c - r + k]         (r-k ≤ c ≤ r)
//   upper packed          a[r*n - r*(r-1)/2 + c - r]   (c ≥ r)
//   lower packed          a[r*(r+1)/2 + c]             (c ≤ r)
//
// The logical matrix M of a descriptor is op(A) (with M(i,i) = 1 for a unit
// diagonal) or the full Hermitian matrix, whose diagonal is the real part of
// the stored one (gonum ignores the imaginary parts there) and whose
// unstored triangle is the conjugate of the stored one. Vectors are
// strided: element j of x is x[offx + j*incx] (offx is where element 0
// lies, so negative increments work as in gonum).
//
// The products (zmv) sum in a different order than gonum's
// Go code; the host sends them only operands and scalars that are finite,
// where the order changes nothing but rounding. The rank updates (zrank)
// form every element with gonum's own arithmetic, zero tests included, so
// NaN and Inf come out as in gonum (in double precision bit for bit; Go
// forms complex64 products in float64, so single precision agrees to
// rounding).

#pragma OPENCL FP_CONTRACT OFF

#define ZKIND_GENERAL 0
#define ZKIND_HERMITIAN 1
#define ZKIND_TRIANGULAR 2

#define ZST_DENSE 0
#define ZST_BAND 1
#define ZST_PACKED 2

#define ZMV_WG 64 // zmv_wg: work-items per element of y

// The updates of zrank, each with gonum's arithmetic.
#define ZR_GERU 0 // A += (α·x(r))·y(c), rows with x(r) == 0 skipped
#define ZR_GERC 1 // A += (α·conj(y(c)))·x(r), columns with y(c) == 0 skipped
#define ZR_HER 2  // Zher, real α
#define ZR_HPR 3  // Zhpr, real α: as Zher but with gonum's Zhpr's products
#define ZR_HER2 4 // Zher2 and Zhpr2

#define ZMAT_PARAMS int kind, int storage, int upper, int trans, int unit, \
	int m, int n, int kl, int ku, __global const real2* a, int lda
#define ZMAT_ARGS kind, storage, upper, trans, unit, m, n, kl, ku, a, lda

// zmul is the complex product a·b, Go's formula.
static inline real2 zmul(const real2 a, const real2 b) {
	return (real2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

static inline real2 zconj(const real2 a) { return (real2)(a.x, -a.y); }

// zbeta_y is y(i) scaled by beta (0 when beta is 0, y(i) when it is 1).
static inline real2 zbeta_y(real bre, real bim, __global const real2* y, long iy) {
	if (bre == (real)0 && bim == (real)0) {
		return (real2)(0, 0);
	}
	if (bre == (real)1 && bim == (real)0) {
		return y[iy];
	}
	return zmul((real2)(bre, bim), y[iy]);
}

// zmul8 is t·v (conjv: t·conj(v)) for the 4 complex numbers of v, parts
// side by side, with zmul's products and sums: the same numbers as zmul
// gives element by element.
static inline real8 zmul8(const real8 v, const real2 t, int conjv) {
	const real8 vs = v.s10325476;
	if (conjv) {
		return v * (real8)(t.x, -t.x, t.x, -t.x, t.x, -t.x, t.x, -t.x) + vs * (real8)(t.y);
	}
	return v * (real8)(t.x) + vs * (real8)(-t.y, t.y, -t.y, t.y, -t.y, t.y, -t.y, t.y);
}

static inline int znonzero(const real2 a) { return a.x != (real)0 || a.y != (real)0; }

// ztri_at is the index of the stored element (r, c) of a triangle with
// band width k (upper: c ≥ r; lower: c ≤ r).
static inline long ztri_at(int storage, int upper, int n, int k, int lda, int r, int c) {
	if (storage == ZST_PACKED) {
		const long R = r;
		return upper ? R * n - R * (R - 1) / 2 + (c - r) : R * (R + 1) / 2 + c;
	}
	if (storage == ZST_BAND) {
		return (long)r * lda + (upper ? c - r : c - r + k);
	}
	return (long)r * lda + c;
}

// zmv_range sets [*lo, *hi), the columns of row i of M inside its band.
static inline void zmv_range(ZMAT_PARAMS, int i, int* lo, int* hi) {
	const int tr = trans != 0;
	if (kind == ZKIND_GENERAL) {
		if (!tr) {
			*lo = max(0, i - kl);
			*hi = (int)min((long)n, (long)i + ku + 1);
		} else {
			*lo = max(0, i - ku);
			*hi = (int)min((long)m, (long)i + kl + 1);
		}
		return;
	}
	if (kind == ZKIND_HERMITIAN) {
		*lo = max(0, i - kl);
		*hi = (int)min((long)n, (long)i + kl + 1);
		return;
	}
	if (upper != tr) { // M is upper triangular
		*lo = i;
		*hi = (int)min((long)n, (long)i + kl + 1);
	} else {
		*lo = max(0, i - kl);
		*hi = i + 1;
	}
}

// zmv_elem is M(i, j) for j in row i's range.
static inline real2 zmv_elem(ZMAT_PARAMS, int i, int j) {
	if (kind == ZKIND_HERMITIAN) {
		if (i == j) {
			return (real2)(a[ztri_at(storage, upper, n, kl, lda, i, i)].x, 0);
		}
		if (upper ? i < j : i > j) {
			return a[ztri_at(storage, upper, n, kl, lda, i, j)];
		}
		return zconj(a[ztri_at(storage, upper, n, kl, lda, j, i)]);
	}
	const int r = trans ? j : i;
	const int c = trans ? i : j;
	real2 v;
	if (kind == ZKIND_GENERAL) {
		long at = (long)r * lda + c;
		if (storage == ZST_BAND) {
			at += kl - r;
		}
		v = a[at];
	} else {
		if (unit && i == j) {
			return (real2)(1, 0);
		}
		v = a[ztri_at(storage, upper, n, kl, lda, r, c)];
	}
	return trans == 2 ? zconj(v) : v;
}

// zmv: y(i) = alpha·Σ_j M(i,j)·x(j) + beta·y(i) for i < nout, one
// work-item per element of y. beta == 0 assigns (y is not read), beta == 1
// adds to y as it is; an empty row leaves beta·y(i). x and y may not alias
// (trmv writes into a scratch vector).
__kernel void zmv(ZMAT_PARAMS, int nout, real are, real aim,
                  __global const real2* x, long offx, int incx,
                  real bre, real bim, __global real2* y, long offy, int incy) {
	const int i = get_global_id(0);
	if (i >= nout) {
		return;
	}
	int lo, hi;
	zmv_range(ZMAT_ARGS, i, &lo, &hi);
	real2 s = (real2)(0, 0);
	for (int j = lo; j < hi; j++) {
		s += zmul(zmv_elem(ZMAT_ARGS, i, j), x[offx + (long)j * incx]);
	}
	const long iy = offy + (long)i * incy;
	real2 r = zbeta_y(bre, bim, y, iy);
	if (hi > lo) {
		r += zmul((real2)(are, aim), s);
	}
	y[iy] = r;
}

// zgemv_rows, zgemv_t_rows and zgemv_t_sum are the dense general products
// for CPU devices, as level2.cl's gemv_rows, gemv_t_rows and gemv_t_sum:
// a work-item walks contiguous memory with 8-lane arithmetic (4 complex
// numbers a vector, their parts side by side) and no barrier.

// zsum8 is Σ a(c)·b(c) from zrow_dot's lane sums: pp of a·b, (ar·br,
// ai·bi) pairs, and px of a·swap(b), (ar·bi, ai·br) pairs.
static inline real2 zsum8(const real8 pp, const real8 px) {
	const real4 e = pp.even - pp.odd, f = px.even + px.odd;
	return (real2)((e.s0 + e.s1) + (e.s2 + e.s3), (f.s0 + f.s1) + (f.s2 + f.s3));
}

// zrow_dot is Σ_{c in [0, n)} row[c]·x(c). With x contiguous, 4 products
// at a time: a·v holds (ar·xr, ai·xi) pairs and a·swap(v) (ar·xi, ai·xr)
// pairs, summed lane by lane and put together at the end.
static inline real2 zrow_dot(__global const real2* row, int n, __global const real2* x, long offx, int incx) {
	real2 s = (real2)(0, 0);
	int c = 0;
	if (incx == 1) {
		__global const real* r = (__global const real*)row;
		__global const real* v = (__global const real*)(x + offx);
		real8 pp = 0, px = 0;
		for (; c + 4 <= n; c += 4) {
			const real8 a = ld8(r + 2 * c), b = ld8(v + 2 * c);
			pp += a * b;
			px += a * b.s10325476;
		}
		s = zsum8(pp, px);
	}
	for (; c < n; c++) {
		s += zmul(row[c], x[offx + (long)c * incx]);
	}
	return s;
}

// ztri_solve_seq is the complex triangular solve for CPU devices: M·x = b
// in place by ONE work-item, as level2.cl's tri_solve_seq, which on a CPU
// beats the GPUs' blocked kernels (trsv.cl), whose work-groups meet at
// barriers. It walks A's stored rows (dense, packed or band storage, k
// diagonals beside the main one; n − 1 in dense and packed storage): for
// op(A) = A a row's solved part is a dot product with x; for Aᵀ and Aᴴ
// (trans 1 and 2) each solved x(i) is subtracted along A's row i, times
// A's elements or their conjugates. Divisions are cdiv_go's, as Go's.
__kernel void ztri_solve_seq(int storage, int upper, int k, int trans, int unit, int n,
                             __global const real2* a, int lda,
                             __global real2* x, long offx, int incx) {
	if (get_global_id(0) != 0) {
		return;
	}
	const int fwd = (upper == (trans != 0)); // op(A) lower triangular
	for (int s = 0; s < n; s++) {
		const int i = fwd ? s : n - 1 - s;
		// The off-diagonal part of A's stored row i: [lo, hi); row[c - base]
		// is A(i, c), from the row's first stored column on.
		const int lo = upper ? i + 1 : max(0, i - k);
		const int hi = upper ? min(n, i + k + 1) : i;
		const int base = upper ? i : lo;
		__global const real2* row = a + ztri_at(storage, upper, n, k, lda, i, base);
		const long ix = offx + (long)i * incx;
		if (!trans) {
			real2 xi = x[ix] - zrow_dot(row + (lo - base), hi - lo, x, offx + (long)lo * incx, incx);
			if (!unit) {
				xi = cdiv_go(xi, row[i - base]);
			}
			x[ix] = xi;
			continue;
		}
		real2 xi = x[ix];
		if (!unit) {
			const real2 d = row[i - base];
			xi = cdiv_go(xi, trans == 2 ? zconj(d) : d);
			x[ix] = xi;
		}
		int c = lo;
		if (incx == 1) {
			// Four elements a step: v·x(i) is v·(xr, xr) + swap(v)·(−xi, xi)
			// lane by lane, and conj(v)·x(i) is v·(xr, −xr) + swap(v)·(xi, xi).
			const real8 re = trans == 2 ? (real8)(xi.x, -xi.x, xi.x, -xi.x, xi.x, -xi.x, xi.x, -xi.x) : (real8)(xi.x);
			const real8 im = trans == 2 ? (real8)(xi.y) : (real8)(-xi.y, xi.y, -xi.y, xi.y, -xi.y, xi.y, -xi.y, xi.y);
			__global real* xp = (__global real*)(x + offx);
			__global const real* rp = (__global const real*)(row - base);
			for (; c + 4 <= hi; c += 4) {
				const real8 v = ld8(rp + 2 * c);
				st8(ld8(xp + 2 * c) - (v * re + v.s10325476 * im), xp + 2 * c);
			}
		}
		for (; c < hi; c++) {
			const real2 v = row[c - base];
			x[offx + (long)c * incx] -= zmul(trans == 2 ? zconj(v) : v, xi);
		}
	}
}

// ztri_solve_flow is ztri_solve_seq for dense and packed triangles spread
// over the launch's work-groups of one work-item: level2.cl's
// tri_solve_flow with complex elements (see there), in blocks of ZFLOW_B
// rows with op(A) = A (the same bytes a row as the real kernel's blocks
// of doubles) and of bt with Aᵀ and Aᴴ (the engine's choice). Divisions
// are cdiv_go's, as Go's.
#define ZFLOW_B 32

static inline void zrow_axpy(__global real2* p, __global const real2* r, real2 t, int conj, int len);
static inline void zrows4_axpy(__global real2* p, __global const real2* r0, __global const real2* r1,
                               __global const real2* r2, __global const real2* r3,
                               real2 x0, real2 x1, real2 x2, real2 x3, int conj, int cl, int ch);

// zflow_row returns A's stored row i as a pointer p with p[c] = A(i, c).
static inline __global const real2* zflow_row(int storage, int upper, int n, int lda,
                                              __global const real2* a, int i) {
	const int base = upper ? i : 0;
	return a + ztri_at(storage, upper, n, n - 1, lda, i, base) - base;
}

// zrows4_dot adds Σ_c r[q][c]·x(c) over the columns [cl, ch) to s[q] for
// the four rows r[q], in one pass: x, contiguous, is loaded once for the
// four, and the four rows' streams are in flight together. A triangle's
// rows in dense storage begin apart, each a new stream for the prefetcher
// to find; one at a time, each row waited for its first lines.
static inline void zrows4_dot(__global const real2* r0, __global const real2* r1, __global const real2* r2,
                              __global const real2* r3, int cl, int ch, __global const real2* x, real2 s[4]) {
	int j = cl;
	// Single columns up to a 64-byte boundary of r0 (in dense storage with
	// whole lines a row, the others' too).
	for (; j < ch && ((ulong)(r0 + j) & 63) != 0; j++) {
		s[0] += zmul(r0[j], x[j]);
		s[1] += zmul(r1[j], x[j]);
		s[2] += zmul(r2[j], x[j]);
		s[3] += zmul(r3[j], x[j]);
	}
	__global const real* xv = (__global const real*)x;
	real8 p0 = 0, q0 = 0, p1 = 0, q1 = 0, p2 = 0, q2 = 0, p3 = 0, q3 = 0;
	for (; j + 4 <= ch; j += 4) {
		const real8 b = ld8(xv + 2 * j), bs = b.s10325476;
		const real8 v0 = ld8((__global const real*)r0 + 2 * j), v1 = ld8((__global const real*)r1 + 2 * j);
		const real8 v2 = ld8((__global const real*)r2 + 2 * j), v3 = ld8((__global const real*)r3 + 2 * j);
		p0 += v0 * b;
		q0 += v0 * bs;
		p1 += v1 * b;
		q1 += v1 * bs;
		p2 += v2 * b;
		q2 += v2 * bs;
		p3 += v3 * b;
		q3 += v3 * bs;
	}
	s[0] += zsum8(p0, q0);
	s[1] += zsum8(p1, q1);
	s[2] += zsum8(p2, q2);
	s[3] += zsum8(p3, q3);
	for (; j < ch; j++) {
		s[0] += zmul(r0[j], x[j]);
		s[1] += zmul(r1[j], x[j]);
		s[2] += zmul(r2[j], x[j]);
		s[3] += zmul(r3[j], x[j]);
	}
}

// zflow_rows adds to part[0:nr] the products of A's rows i to i+nr−1
// with x over their columns in [c0, c1): for a dense triangle with x
// contiguous, four rows in one pass over the columns they all have
// (zrows4_dot), the rest row by row (as level2.cl's flow_rows).
static inline void zflow_rows(int storage, int upper, int n, int lda, __global const real2* a,
                              __global const real2* x, long offx, int incx, int c0, int c1, int i, int nr,
                              real2* part) {
	__global const real2* r[4];
	real2 s[4] = {(real2)(0, 0), (real2)(0, 0), (real2)(0, 0), (real2)(0, 0)};
	for (int q = 0; q < nr; q++) {
		r[q] = zflow_row(storage, upper, n, lda, a, i + q);
	}
	// The columns all nr rows have: row i+q's are [max(c0, i+q+1), c1)
	// (upper) or [c0, min(c1, i+q)) (lower).
	int lo = max(c0, upper ? i + nr : 0), hi = min(c1, upper ? n : i);
	if (storage == ZST_DENSE && nr == 4 && incx == 1 && hi - lo >= 4) {
		zrows4_dot(r[0], r[1], r[2], r[3], lo, hi, x + offx, s);
	} else {
		lo = hi = c0;
	}
	for (int q = 0; q < nr; q++) {
		const int rlo = max(c0, upper ? i + q + 1 : 0), rhi = min(c1, upper ? n : i + q);
		const int to = min(lo, rhi), from = max(hi, rlo);
		if (rlo < to) {
			s[q] += zrow_dot(r[q] + rlo, to - rlo, x, offx + (long)rlo * incx, incx);
		}
		if (from < rhi) {
			s[q] += zrow_dot(r[q] + from, rhi - from, x, offx + (long)from * incx, incx);
		}
		part[q] += s[q];
	}
}

// zflow_gather adds to part[0:bl] (the indices cb…cb+bl−1) the products of
// A's rows there with the x solved by steps [s0, s1), along the rows, four
// a pass (zflow_rows).
static void zflow_gather(int storage, int upper, int n, __global const real2* a, int lda,
                         __global const real2* x, long offx, int incx, int fwd, int cb, int bl,
                         int s0, int s1, real2* part) {
	int c0, c1;
	flow_cols(fwd, n, s0, s1, &c0, &c1);
	for (int p = 0; p < bl; p += 4) {
		zflow_rows(storage, upper, n, lda, a, x, offx, incx, c0, c1, cb + p, min(4, bl - p), part + p);
	}
}

// zflow_gather_t is level2.cl's flow_gather_t with complex elements, op(A)
// = Aᵀ or (conj) Aᴴ: p[c − cb] += op(A(j, c))·x(j) over the solved j in
// [c0, c1) and the block's columns c, four rows a pass (zrows4_axpy).
static void zflow_gather_t(int storage, int upper, int n, int conj, __global const real2* a, int lda,
                           __global const real2* x, long offx, int incx, int cb, int bl, int c0, int c1,
                           __global real2* p) {
	int j = c0;
	for (; j + 4 <= c1; j += 4) {
		__global const real2* r[4];
		real2 xq[4];
		for (int q = 0; q < 4; q++) {
			r[q] = zflow_row(storage, upper, n, lda, a, j + q) + cb;
			xq[q] = x[offx + (long)(j + q) * incx];
		}
		zrows4_axpy(p, r[0], r[1], r[2], r[3], xq[0], xq[1], xq[2], xq[3], conj, 0, bl);
	}
	for (; j < c1; j++) {
		zrow_axpy(p, zflow_row(storage, upper, n, lda, a, j) + cb, x[offx + (long)j * incx], conj, bl);
	}
}

// zflow_solve_t is level2.cl's flow_solve_t with complex elements: blocks
// of bt, their own steps four at a time.
static void zflow_solve_t(int storage, int upper, int conj, int unit, int n, __global const real2* a, int lda,
                          __global real2* x, long offx, int incx, volatile __global uint* ticket,
                          __global real2* p, int bt) {
	const int fwd = upper; // op(A) is lower triangular when A is upper
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
			p[c] = (real2)(0, 0);
		}
		for (int done = 0; done < t;) {
			const int d = flow_solved(ticket, done);
			if (d > done) {
				int c0, c1;
				flow_cols(fwd, n, done * bt, d * bt, &c0, &c1);
				zflow_gather_t(storage, upper, n, conj, a, lda, x, offx, incx, cb, bl, c0, c1, p);
				done = d;
			}
		}
		for (int q0 = 0; q0 < bl; q0 += 4) {
			const int qn = min(4, bl - q0);
			const int g0 = fwd ? cb + q0 : cb + bl - q0 - qn, g1 = g0 + qn;
			for (int q = 0; q < qn; q++) {
				const int i = fwd ? g0 + q : g1 - 1 - q;
				__global const real2* r = zflow_row(storage, upper, n, lda, a, i);
				const long ix = offx + (long)i * incx;
				real2 xi = x[ix] - p[i - cb];
				if (!unit) {
					xi = cdiv_go(xi, conj ? zconj(r[i]) : r[i]);
				}
				x[ix] = xi;
				const int lo = upper ? i + 1 : (qn == 4 ? g0 : cb), hi = upper ? (qn == 4 ? g1 : ce) : i;
				for (int c = lo; c < hi; c++) {
					p[c - cb] += zmul(xi, conj ? zconj(r[c]) : r[c]);
				}
			}
			if (qn == 4) {
				const int lo = upper ? g1 : cb, hi = upper ? ce : g0;
				if (hi > lo) {
					__global const real2* r[4];
					for (int q = 0; q < 4; q++) {
						r[q] = zflow_row(storage, upper, n, lda, a, g0 + q) + cb;
					}
					zrows4_axpy(p, r[0], r[1], r[2], r[3], x[offx + (long)g0 * incx], x[offx + (long)(g0 + 1) * incx],
					            x[offx + (long)(g0 + 2) * incx], x[offx + (long)(g0 + 3) * incx], conj, lo - cb,
					            hi - cb);
				}
			}
		}
		flow_publish(ticket, t);
	}
}

__kernel void ztri_solve_flow(int storage, int upper, int trans, int unit, int n,
                              __global const real2* a, int lda,
                              __global real2* x, long offx, int incx,
                              volatile __global uint* ticket, __global real2* scratch, int bt) {
	if (trans) {
		zflow_solve_t(storage, upper, trans == 2, unit, n, a, lda, x, offx, incx, ticket,
		              scratch + (long)get_group_id(0) * bt, bt);
		return;
	}
	const int fwd = !upper; // op(A) = A lower triangular
	const int nblk = (n + ZFLOW_B - 1) / ZFLOW_B;
	for (;;) {
		const int t = flow_take(ticket, nblk);
		if (t < 0) {
			return;
		}
		const int s0 = t * ZFLOW_B, s1 = min(n, s0 + ZFLOW_B), bl = s1 - s0;
		int cb, ce;
		flow_cols(fwd, n, s0, s1, &cb, &ce);
		real2 part[ZFLOW_B];
		for (int p = 0; p < ZFLOW_B; p++) {
			part[p] = 0;
		}
		for (int done = 0; done < t;) {
			const int d = flow_solved(ticket, done);
			if (d > done) {
				zflow_gather(storage, upper, n, a, lda, x, offx, incx, fwd, cb, bl, done * ZFLOW_B, d * ZFLOW_B, part);
				done = d;
			}
		}
		// The block's own steps, one at a time.
		for (int q = 0; q < bl; q++) {
			const int p = fwd ? q : bl - 1 - q;
			const int i = cb + p;
			zflow_gather(storage, upper, n, a, lda, x, offx, incx, fwd, i, 1, s0, s0 + q, part + p);
			const long ix = offx + (long)i * incx;
			real2 xi = x[ix] - part[p];
			if (!unit) {
				xi = cdiv_go(xi, zflow_row(storage, upper, n, lda, a, i)[i]);
			}
			x[ix] = xi;
		}
		flow_publish(ticket, t);
	}
}

// zgemv_rows: y(i) = alpha·Σ_j A(i,j)·x(j) + beta·y(i), a work-item per row
// of the dense m×n A.
__kernel void zgemv_rows(int m, int n, real are, real aim, __global const real2* a, int lda,
                         __global const real2* x, long offx, int incx,
                         real bre, real bim, __global real2* y, long offy, int incy) {
	const int i = get_global_id(0);
	if (i >= m) {
		return;
	}
	const real2 s = zrow_dot(a + (long)i * lda, n, x, offx, incx);
	const long iy = offy + (long)i * incy;
	real2 r = zbeta_y(bre, bim, y, iy);
	if (n > 0) {
		r += zmul((real2)(are, aim), s);
	}
	y[iy] = r;
}

// zrow_axpy: p[0, len) += op(r[0, len))·t, op the conjugate with conj.
static inline void zrow_axpy(__global real2* p, __global const real2* r, real2 t, int conj, int len) {
	__global real* pr = (__global real*)p;
	__global const real* rr = (__global const real*)r;
	int k = 0;
	for (; k + 4 <= len; k += 4) {
		st8(ld8(pr + 2 * k) + zmul8(ld8(rr + 2 * k), t, conj), pr + 2 * k);
	}
	for (; k < len; k++) {
		p[k] += zmul(t, conj ? zconj(r[k]) : r[k]);
	}
}

// zgemv_t_col: y(j) = alpha·Σ_{g < nb} part[g·n + j] + beta·y(j)
// (alpha·Σ only if m > 0).
static inline void zgemv_t_col(int m, int n, int nb, real are, real aim, __global const real2* part,
                               real bre, real bim, __global real2* y, long offy, int incy, int j) {
	real2 s = (real2)(0, 0);
	for (int g = 0; g < nb; g++) {
		s += part[(long)g * n + j];
	}
	const long iy = offy + (long)j * incy;
	real2 r = zbeta_y(bre, bim, y, iy);
	if (m > 0) {
		r += zmul((real2)(are, aim), s);
	}
	y[iy] = r;
}

// zgemv_t_rows: the partial sums of y(j) = Σ_i op(A(i,j))·x(i), op the
// identity or (conj) the conjugate, in the axpy orientation: work-item g
// adds x(i)·op(A(i, :)) for rows [g·rb, min(m, (g+1)·rb)) into part[g·n …]:
// in double four rows a pass (zrows4_axpy: the partial read and written
// once for the four), then one; in float one (four measured slower on
// PoCL). With the parts side by side, a row's piece a adds a·(xr, ±xr …)
// + swap(a)·(∓xi, xi …). zgemv_t_sum adds the partials, or with one the
// last work-item does (l2_last).
__kernel void zgemv_t_rows(int m, int n, int rb, int conj, __global const real2* a, int lda,
                           __global const real2* x, long offx, int incx, __global real2* part,
                           int one, __global uint* ticket, real are, real aim, real bre, real bim,
                           __global real2* y, long offy, int incy) {
	const int g = get_global_id(0);
	const long i0 = (long)g * rb, i1 = min((long)m, i0 + rb);
	__global real2* p = part + (long)g * n;
	for (int j = 0; j < n; j++) {
		p[j] = (real2)(0, 0);
	}
	long i = i0;
	for (; sizeof(real) == 8 && i + 4 <= i1; i += 4) {
		__global const real2* r = a + i * lda;
		zrows4_axpy(p, r, r + lda, r + 2 * (long)lda, r + 3 * (long)lda, x[offx + i * incx],
		            x[offx + (i + 1) * incx], x[offx + (i + 2) * incx], x[offx + (i + 3) * incx], conj, 0, n);
	}
	for (; i < i1; i++) {
		zrow_axpy(p, a + i * lda, x[offx + i * incx], conj, n);
	}
	if (l2_last(one, ticket)) {
		for (int j = 0; j < n; j++) {
			zgemv_t_col(m, n, get_num_groups(0), are, aim, part, bre, bim, y, offy, incy, j);
		}
		atomic_xchg(ticket, 0u);
	}
}

// zgemv_t_sum: zgemv_t_col, a work-item per element.
__kernel void zgemv_t_sum(int m, int n, int nb, real are, real aim, __global const real2* part,
                          real bre, real bim, __global real2* y, long offy, int incy) {
	const int j = get_global_id(0);
	if (j < n) {
		zgemv_t_col(m, n, nb, are, aim, part, bre, bim, y, offy, incy, j);
	}
}

// zmv_wg is zmv with one work-group of ZMV_WG work-items per element of
// y, which split the row and reduce in local memory: for GPUs, where a
// work-item per row would read A's rows with a stride. (The transposed
// general product keeps zmv: there neighbouring work-items read
// neighbouring columns of a row.)
__kernel __attribute__((reqd_work_group_size(ZMV_WG, 1, 1)))
void zmv_wg(ZMAT_PARAMS, int nout, real are, real aim,
            __global const real2* x, long offx, int incx,
            real bre, real bim, __global real2* y, long offy, int incy) {
	__local real2 part[ZMV_WG];
	const int i = get_group_id(0);
	const int l = get_local_id(0);
	int lo = 0, hi = 0;
	if (i < nout) {
		zmv_range(ZMAT_ARGS, i, &lo, &hi);
	}
	real2 s = (real2)(0, 0);
	for (int j = lo + l; j < hi; j += ZMV_WG) {
		s += zmul(zmv_elem(ZMAT_ARGS, i, j), x[offx + (long)j * incx]);
	}
	part[l] = s;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int w = ZMV_WG / 2; w > 0; w >>= 1) {
		if (l < w) {
			part[l] += part[l + w];
		}
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (l != 0 || i >= nout) {
		return;
	}
	const long iy = offy + (long)i * incy;
	real2 r = zbeta_y(bre, bim, y, iy);
	if (hi > lo) {
		r += zmul((real2)(are, aim), part[0]);
	}
	y[iy] = r;
}

// zband_t is y(j) = alpha·Σ_i op(A)(j, i)·x(i) + beta·y(j), j < n, for
// op(A) = Aᵀ (conj 0) or Aᴴ (conj 1) of the m×n band A with kl sub- and
// ku super-diagonals in general band storage (a triangular band is one
// with kl or ku zero), its diagonal taken as 1 (the stored one unused) if
// unit: for GPUs, as bandmv.cl's band_t, where zmv_wg would read down the
// band a stored row apart. A work-group takes ZBX consecutive columns, so
// that a stored row's piece under them is one coalesced read, and its ZBY
// slices take the rows those columns reach in turn; the slices' sums are
// added in local memory. beta == 0 assigns; a column without terms keeps
// beta·y(j).
#ifndef ZBX
#define ZBX 32
#endif
#ifndef ZBY
#define ZBY 8
#endif

// zband_t_term is op(A)(j, i)·x(i) from the stored v = A(i, j): conj(v)
// for Aᴴ; x(i) itself on a unit diagonal (v then unused).
static inline real2 zband_t_term(real2 v, const real2 xi, const int conj, const int one) {
	if (one) {
		return xi;
	}
	return zmul(conj ? zconj(v) : v, xi);
}

__kernel __attribute__((reqd_work_group_size(ZBX, ZBY, 1)))
void zband_t(int m, int n, int kl, int ku, int conj, int unit, real are, real aim,
             __global const real2* a, int lda, __global const real2* x, long offx, int incx,
             real bre, real bim, __global real2* y, long offy, int incy) {
	__local real2 part[ZBY][ZBX + 1];
	const int tx = get_local_id(0), ty = get_local_id(1);
	const int j0 = get_group_id(0) * ZBX;
	const int j = j0 + tx;
	// The rows any of the group's columns reach, and this column's.
	const int ilo = max(0, j0 - ku);
	const int ihi = (int)min((long)m, (long)j0 + ZBX + kl);
	const int lo = max(0, j - ku);
	const int hi = (int)min((long)m, (long)j + kl + 1);
	real2 s = (real2)(0, 0);
	if (j < n) {
		// Four rows in flight (element 0 of a for a row outside this
		// column's band, so that the loads do not wait on one another),
		// then the rest.
		int i = ilo + ty;
		for (; i + 3 * ZBY < ihi; i += 4 * ZBY) {
			real2 v[4], w[4];
			for (int u = 0; u < 4; u++) {
				const int r = i + u * ZBY;
				v[u] = a[(r >= lo && r < hi) ? (long)r * lda + kl + j - r : 0];
				w[u] = x[offx + (long)r * incx];
			}
			for (int u = 0; u < 4; u++) {
				const int r = i + u * ZBY;
				if (r >= lo && r < hi) {
					s += zband_t_term(v[u], w[u], conj, unit && r == j);
				}
			}
		}
		for (; i < ihi; i += ZBY) {
			if (i >= lo && i < hi) {
				s += zband_t_term(a[(long)i * lda + kl + j - i], x[offx + (long)i * incx], conj, unit && i == j);
			}
		}
	}
	part[ty][tx] = s;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int w = ZBY / 2; w > 0; w >>= 1) {
		if (ty < w) {
			part[ty][tx] += part[ty + w][tx];
		}
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (ty != 0 || j >= n) {
		return;
	}
	const long iy = offy + (long)j * incy;
	real2 r = zbeta_y(bre, bim, y, iy);
	if (hi > lo) {
		r += zmul((real2)(are, aim), part[0][tx]);
	}
	y[iy] = r;
}

// zband_rows, zband_t_rows, zhemv_rows and zband_t_sum are the band,
// Hermitian and triangular products for CPU devices, as level2.cl's
// band_rows, band_t_rows, sym_rows and band_t_sum: a stored row of the
// band, or of the triangle in dense, packed or band storage (taken as a
// band with diagonals on one side: kl = 0 upper, ku = 0 lower; a general
// band as a lower one with k = kl), is contiguous, and a work-item walks
// it in order, 4 complex numbers a vector.

// zband_row_dot is Σ_c A(i,c)·x(c) over row i's stored columns [lo, hi)
// outside [cl, ch), row[c] holding A(i, c), the diagonal taken as 1
// (unit; it never lies in [cl, ch)).
static inline real2 zband_row_dot(__global const real2* row, int unit, int i, int lo, int hi, int cl, int ch,
                                  __global const real2* x, long offx, int incx) {
	real2 s = (real2)(0, 0);
	for (int part = 0; part < 2; part++) {
		const int from = part == 0 ? lo : max(lo, ch), to = part == 0 ? min(hi, cl) : hi;
		if (unit && i >= from && i < to) {
			s += zrow_dot(row + from, i - from, x, offx + from * (long)incx, incx) + x[offx + (long)i * incx];
			s += zrow_dot(row + i + 1, to - i - 1, x, offx + (i + 1) * (long)incx, incx);
		} else if (to > from) {
			s += zrow_dot(row + from, to - from, x, offx + from * (long)incx, incx);
		}
	}
	return s;
}

// zband_rows4 is zband_rows' work for rows i to min(i + 4, m) − 1.
static inline void zband_rows4(int storage, int upper, int m, int n, int kl, int ku, int unit, real are, real aim,
                               __global const real2* a, int lda, __global const real2* x, long offx, int incx,
                               real bre, real bim, __global real2* y, long offy, int incy, int i) {
	const int nr = min(4, m - i);
	__global const real2* r[4];
	for (int q = 0; q < 4; q++) {
		r[q] = a + ztri_at(storage, upper, n, kl, lda, i + min(q, nr - 1), 0); // r[q][c] is A(i+q, c)
	}
	real2 s[4] = {(real2)(0, 0), (real2)(0, 0), (real2)(0, 0), (real2)(0, 0)};
	// The columns the four rows share, a unit diagonal left out.
	int cl = rows4_from(i, kl, unit && upper), ch = rows4_to(i, n, ku, unit && !upper);
	if (nr < 4 || incx != 1 || ch <= cl || storage != ZST_DENSE) {
		cl = ch = 0;
	} else {
		zrows4_dot(r[0], r[1], r[2], r[3], cl, ch, x + offx, s);
	}
	for (int q = 0; q < nr; q++) {
		const int row = i + q;
		const int lo = max(0, row - kl), hi = min(n, row + ku + 1);
		s[q] += zband_row_dot(r[q], unit && row < n, row, lo, hi, cl, ch, x, offx, incx);
		const long iy = offy + (long)row * incy;
		real2 v = zbeta_y(bre, bim, y, iy);
		if (hi > lo) {
			v += zmul((real2)(are, aim), s[q]);
		}
		y[iy] = v;
	}
}

// zband_rows: y(i) = beta·y(i) + alpha·Σ_c A(i,c)·x(c) over row i's stored
// columns, the diagonal taken as 1 (unit): GBMV, TRMV, TBMV and TPMV with
// A. A work-item takes four rows, which in dense storage share one pass
// over the columns they all store (zrows4_dot) when x is contiguous; the
// rest of each row, and every row elsewhere (band and packed rows start
// at different offsets from a line boundary, as in level2.cl's band_rows),
// by zrow_dot. With one, as level2.cl's band_rows: y is contiguous
// scratch, which the work-group that takes the last ticket copies to dst.
__kernel void zband_rows(int storage, int upper, int m, int n, int kl, int ku, int unit, real are, real aim,
                         __global const real2* a, int lda, __global const real2* x, long offx, int incx,
                         real bre, real bim, __global real2* y, long offy, int incy,
                         int one, __global uint* ticket, __global real2* dst, long offd, int incd) {
	const int i = spread_id(triangle(m, n, kl, ku)) * 4;
	if (i < m) {
		zband_rows4(storage, upper, m, n, kl, ku, unit, are, aim, a, lda, x, offx, incx, bre, bim, y, offy, incy, i);
	}
	L2_COPY_LAST(one, ticket, m, y, offy, dst, offd, incd)
}

// zband_part is row block g's partial of zband_t_rows and zhemv_rows, as
// level2.cl's band_part: zeroed over the columns its rows reach, p[j] for
// column j.
static inline __global real2* zband_part(__global real2* part, int g, int rb, int pw, int m, int n, int kl, int ku) {
	const int i0 = g * rb, i1 = min(m, i0 + rb);
	const int c0 = i0 - kl; // the column of p[0]
	__global real2* p = part + (long)g * pw - c0;
	for (int j = max(0, c0); j < min(n, i1 + ku); j++) {
		p[j] = (real2)(0, 0);
	}
	return p;
}

// zband_row_axpy adds op(A(i, c))·xi to p[c] (op the conjugate with conj)
// over row i's stored columns [lo, hi) outside [cl, ch), row[c] holding
// A(i, c), the diagonal taken as 1 (unit; it never lies in [cl, ch)).
static inline void zband_row_axpy(__global real2* p, __global const real2* row, real2 xi, int conj, int unit,
                                  int i, int lo, int hi, int cl, int ch) {
	for (int part = 0; part < 2; part++) {
		const int from = part == 0 ? lo : max(lo, ch), to = part == 0 ? min(hi, cl) : hi;
		if (unit && i >= from && i < to) {
			zrow_axpy(p + from, row + from, xi, conj, i - from);
			zrow_axpy(p + i + 1, row + i + 1, xi, conj, to - i - 1);
			p[i] += xi;
		} else if (to > from) {
			zrow_axpy(p + from, row + from, xi, conj, to - from);
		}
	}
}

// zrows4_axpy adds op(r0[j])·x0 + … + op(r3[j])·x3 to p[j] over the
// columns [cl, ch) in one pass (zrows4_dot's reason: four streams in
// flight, and the partial read and written once for the four rows).
static inline void zrows4_axpy(__global real2* p, __global const real2* r0, __global const real2* r1,
                               __global const real2* r2, __global const real2* r3,
                               real2 x0, real2 x1, real2 x2, real2 x3, int conj, int cl, int ch) {
	int j = cl;
	for (; j < ch && ((ulong)(r0 + j) & 63) != 0; j++) {
		p[j] += (zmul(x0, conj ? zconj(r0[j]) : r0[j]) + zmul(x1, conj ? zconj(r1[j]) : r1[j])) +
		        (zmul(x2, conj ? zconj(r2[j]) : r2[j]) + zmul(x3, conj ? zconj(r3[j]) : r3[j]));
	}
	__global real* pr = (__global real*)p;
	for (; j + 4 <= ch; j += 4) {
		const real8 v0 = ld8((__global const real*)r0 + 2 * j), v1 = ld8((__global const real*)r1 + 2 * j);
		const real8 v2 = ld8((__global const real*)r2 + 2 * j), v3 = ld8((__global const real*)r3 + 2 * j);
		st8(ld8(pr + 2 * j) + ((zmul8(v0, x0, conj) + zmul8(v1, x1, conj)) + (zmul8(v2, x2, conj) + zmul8(v3, x3, conj))),
		    pr + 2 * j);
	}
	for (; j < ch; j++) {
		p[j] += (zmul(x0, conj ? zconj(r0[j]) : r0[j]) + zmul(x1, conj ? zconj(r1[j]) : r1[j])) +
		        (zmul(x2, conj ? zconj(r2[j]) : r2[j]) + zmul(x3, conj ? zconj(r3[j]) : r3[j]));
	}
}

// zband_t_col: y(j) = beta·y(j) + alpha·Σ_g part of column j over the
// partials of zband_t_rows or zhemv_rows that hold it (as level2.cl's
// band_t_col, no test inside the loop).
static inline void zband_t_col(int m, int n, int kl, int ku, int rb, int pw, real are, real aim,
                               __global const real2* part, real bre, real bim, __global real2* y, long offy,
                               int incy, int j) {
	const long iy = offy + (long)j * incy;
	real2 r = zbeta_y(bre, bim, y, iy);
	if (m > 0 && j - ku <= m - 1) {
		const int from = j - ku - rb + 1;
		const int glo = from <= 0 ? 0 : (from + rb - 1) / rb;
		const int ghi = min((m - 1) / rb, (j + kl) / rb);
		real2 s = (real2)(0, 0);
		for (int g = glo; g <= ghi; g++) {
			s += part[(long)g * pw + j - (g * rb - kl)];
		}
		r += zmul((real2)(are, aim), s);
	}
	y[iy] = r;
}

// zband_t_sum: zband_t_col, a work-item per column.
__kernel void zband_t_sum(int m, int n, int kl, int ku, int rb, int pw, real are, real aim,
                          __global const real2* part, real bre, real bim, __global real2* y, long offy, int incy) {
	const int j = get_global_id(0);
	if (j < n) {
		zband_t_col(m, n, kl, ku, rb, pw, are, aim, part, bre, bim, y, offy, incy, j);
	}
}

// zband_t_last: with one, the work-item that takes the launch's last
// ticket (l2_last) does zband_t_sum's work over every column.
static inline void zband_t_last(int one, __global uint* ticket, int m, int n, int kl, int ku, int rb, int pw,
                                real are, real aim, __global const real2* part, real bre, real bim,
                                __global real2* y, long offy, int incy) {
	if (l2_last(one, ticket)) {
		for (int j = 0; j < n; j++) {
			zband_t_col(m, n, kl, ku, rb, pw, are, aim, part, bre, bim, y, offy, incy, j);
		}
		atomic_xchg(ticket, 0u);
	}
}

// zband_t_rows: the partial sums of op(A)ᵀ·x (op the conjugate with
// conj) over the stored rows: work-item g adds x(i)·op(A(i, :)) for rows
// [g·rb, min(m, (g+1)·rb)) into its partial part[g·pw + j − (g·rb − kl)],
// which holds the columns its rows reach (pw ≥ rb + kl + ku); the
// diagonal taken as 1 (unit). zband_t_sum adds the partials (with one,
// the last work-item: zband_t_last). In dense
// storage four rows share one pass over the columns they all store
// (zrows4_axpy).
__kernel void zband_t_rows(int storage, int upper, int m, int n, int kl, int ku, int rb, int pw,
                           int unit, int conj, __global const real2* a, int lda,
                           __global const real2* x, long offx, int incx, __global real2* part,
                           int one, __global uint* ticket, real are, real aim, real bre, real bim,
                           __global real2* y, long offy, int incy) {
	const int g = spread_id(triangle(m, n, kl, ku));
	const int i0 = g * rb, i1 = min(m, i0 + rb);
	__global real2* p = zband_part(part, g, rb, pw, m, n, kl, ku); // p[j] for column j
	int i = i0;
	for (; storage == ZST_DENSE && i + 4 <= i1; i += 4) {
		__global const real2* r[4];
		real2 xs[4];
		for (int q = 0; q < 4; q++) {
			r[q] = a + ztri_at(storage, upper, n, kl, lda, i + q, 0);
			xs[q] = x[offx + (long)(i + q) * incx];
		}
		// The columns the four rows share, a unit diagonal left out.
		int cl = rows4_from(i, kl, unit && upper), ch = rows4_to(i, n, ku, unit && !upper);
		if (ch > cl) {
			zrows4_axpy(p, r[0], r[1], r[2], r[3], xs[0], xs[1], xs[2], xs[3], conj, cl, ch);
		} else {
			cl = ch = 0;
		}
		for (int q = 0; q < 4; q++) {
			const int row = i + q;
			zband_row_axpy(p, r[q], xs[q], conj, unit && row < n, row, max(0, row - kl), min(n, row + ku + 1), cl, ch);
		}
	}
	for (; i < i1; i++) {
		const real2 xi = x[offx + (long)i * incx];
		__global const real2* row = a + ztri_at(storage, upper, n, kl, lda, i, 0);
		zband_row_axpy(p, row, xi, conj, unit && i < n, i, max(0, i - kl), min(n, i + ku + 1), 0, 0);
	}
	zband_t_last(one, ticket, m, n, kl, ku, rb, pw, are, aim, part, bre, bim, y, offy, incy);
}

// zhemv_piece adds row i's columns [lo, hi) (none of them the diagonal)
// into p, conj(A(i, j))·xi into p[j], and returns Σ_j A(i, j)·x(j) over
// them; row[j] holds A(i, j).
static inline real2 zhemv_piece(__global const real2* row, real2 xi, int lo, int hi,
                                __global const real2* x, long offx, int incx, __global real2* p) {
	real2 s = (real2)(0, 0);
	int j = lo;
	if (incx == 1) {
		__global const real* rr = (__global const real*)row;
		__global const real* xv = (__global const real*)(x + offx);
		__global real* pr = (__global real*)p;
		real8 pp = 0, px = 0;
		for (; j + 4 <= hi; j += 4) {
			const real8 v = ld8(rr + 2 * j), b = ld8(xv + 2 * j);
			pp += v * b;
			px += v * b.s10325476;
			st8(ld8(pr + 2 * j) + zmul8(v, xi, 1), pr + 2 * j);
		}
		s = zsum8(pp, px);
	}
	for (; j < hi; j++) {
		s += zmul(row[j], x[offx + (long)j * incx]);
		p[j] += zmul(xi, zconj(row[j]));
	}
	return s;
}

// zhemv_pair adds rows i and i+1's shared off-diagonal columns [cl, ch)
// into p, in one pass (p and x read once for both rows), and returns
// their sums in s0 and s1; x is contiguous.
static inline void zhemv_pair(__global const real2* r0, __global const real2* r1, real2 x0, real2 x1,
                              int cl, int ch, __global const real2* x, __global real2* p, real2* s0, real2* s1) {
	__global const real* a0 = (__global const real*)r0;
	__global const real* a1 = (__global const real*)r1;
	__global const real* xv = (__global const real*)x;
	__global real* pr = (__global real*)p;
	real8 pp0 = 0, px0 = 0, pp1 = 0, px1 = 0;
	int j = cl;
	for (; j + 4 <= ch; j += 4) {
		const real8 v0 = ld8(a0 + 2 * j), v1 = ld8(a1 + 2 * j), b = ld8(xv + 2 * j), bs = b.s10325476;
		pp0 += v0 * b;
		px0 += v0 * bs;
		pp1 += v1 * b;
		px1 += v1 * bs;
		st8(ld8(pr + 2 * j) + (zmul8(v0, x0, 1) + zmul8(v1, x1, 1)), pr + 2 * j);
	}
	*s0 = zsum8(pp0, px0);
	*s1 = zsum8(pp1, px1);
	for (; j < ch; j++) {
		*s0 += zmul(r0[j], x[j]);
		*s1 += zmul(r1[j], x[j]);
		p[j] += zmul(x0, zconj(r0[j])) + zmul(x1, zconj(r1[j]));
	}
}

// zhemv_quad is zhemv_pair for rows i to i+3: the partial row is read and
// written once for four rows of A, not two.
static inline void zhemv_quad(__global const real2* const r[4], const real2 xr[4], int cl, int ch,
                              __global const real2* x, __global real2* p, real2 s[4]) {
	__global const real* a0 = (__global const real*)r[0];
	__global const real* a1 = (__global const real*)r[1];
	__global const real* a2 = (__global const real*)r[2];
	__global const real* a3 = (__global const real*)r[3];
	__global const real* xv = (__global const real*)x;
	__global real* pr = (__global real*)p;
	real8 pp0 = 0, px0 = 0, pp1 = 0, px1 = 0, pp2 = 0, px2 = 0, pp3 = 0, px3 = 0;
	int j = cl;
	for (; j + 4 <= ch; j += 4) {
		const real8 b = ld8(xv + 2 * j), bs = b.s10325476;
		const real8 v0 = ld8(a0 + 2 * j), v1 = ld8(a1 + 2 * j), v2 = ld8(a2 + 2 * j), v3 = ld8(a3 + 2 * j);
		pp0 += v0 * b;
		px0 += v0 * bs;
		pp1 += v1 * b;
		px1 += v1 * bs;
		pp2 += v2 * b;
		px2 += v2 * bs;
		pp3 += v3 * b;
		px3 += v3 * bs;
		st8(ld8(pr + 2 * j) + ((zmul8(v0, xr[0], 1) + zmul8(v1, xr[1], 1)) + (zmul8(v2, xr[2], 1) + zmul8(v3, xr[3], 1))),
		    pr + 2 * j);
	}
	s[0] = zsum8(pp0, px0);
	s[1] = zsum8(pp1, px1);
	s[2] = zsum8(pp2, px2);
	s[3] = zsum8(pp3, px3);
	for (; j < ch; j++) {
		const real2 xj = x[j];
		for (int q = 0; q < 4; q++) {
			s[q] += zmul(r[q][j], xj);
		}
		p[j] += (zmul(xr[0], zconj(r[0][j])) + zmul(xr[1], zconj(r[1][j]))) +
		        (zmul(xr[2], zconj(r[2][j])) + zmul(xr[3], zconj(r[3][j])));
	}
}

// zhemv_rows: zband_t_rows' partials for a Hermitian band or triangle
// (one triangle stored), each stored row read once for its row and its
// column: for row i, conj(A(i, j))·x(i) into p[j] for its stored j ≠ i,
// and Σ_j A(i, j)·x(j) over them, with Re A(i, i)·x(i), into p[i]. Four
// rows at a time (then two) share one pass over the columns they all
// store.
__kernel void zhemv_rows(int storage, int upper, int n, int kl, int ku, int rb, int pw,
                         __global const real2* a, int lda,
                         __global const real2* x, long offx, int incx, __global real2* part,
                         int one, __global uint* ticket, real are, real aim, real bre, real bim,
                         __global real2* y, long offy, int incy) {
	const int g = spread_id(triangle(n, n, kl, ku));
	const int i0 = g * rb, i1 = min(n, i0 + rb);
	__global real2* p = zband_part(part, g, rb, pw, n, n, kl, ku); // p[j] for column j
	for (int i = i0; i < i1;) {
		const int nr = incx != 1 ? 1 : i + 4 <= i1 ? 4 : i + 2 <= i1 ? 2 : 1;
		// The off-diagonal columns the nr rows share.
		int cl = upper ? i + nr : max(0, i + nr - 1 - kl), ch = upper ? min(n, i + ku + 1) : i;
		real2 s[4] = {(real2)(0, 0), (real2)(0, 0), (real2)(0, 0), (real2)(0, 0)};
		__global const real2* r[4];
		real2 xr[4];
		for (int q = 0; q < nr; q++) {
			r[q] = a + ztri_at(storage, upper, n, kl, lda, i + q, 0);
			xr[q] = x[offx + (long)(i + q) * incx];
		}
		if (nr == 4 && ch > cl) {
			zhemv_quad(r, xr, cl, ch, x + offx, p, s);
		} else if (nr == 2 && ch > cl) {
			zhemv_pair(r[0], r[1], xr[0], xr[1], cl, ch, x + offx, p, &s[0], &s[1]);
		} else {
			cl = ch = 0;
		}
		for (int q = 0; q < nr; q++) {
			const int row = i + q;
			const int lo = upper ? row + 1 : max(0, row - kl), hi = upper ? min(n, row + ku + 1) : row;
			s[q] += (real2)(r[q][row].x * xr[q].x, r[q][row].x * xr[q].y);
			s[q] += zhemv_piece(r[q], xr[q], lo, min(hi, cl), x, offx, incx, p);
			s[q] += zhemv_piece(r[q], xr[q], max(lo, ch), hi, x, offx, incx, p);
			p[row] += s[q];
		}
		i += nr;
	}
	zband_t_last(one, ticket, n, n, kl, ku, rb, pw, are, aim, part, bre, bim, y, offy, incy);
}

// zscale_y: y(i) = beta·y(i), or 0 when beta == 0 (the alpha == 0 case of
// the products, where gonum reads neither A nor x).
__kernel void zscale_y(int n, real bre, real bim, __global real2* y, long offy, int incy) {
	const int i = get_global_id(0);
	if (i >= n) {
		return;
	}
	const long iy = offy + (long)i * incy;
	if (bre == (real)0 && bim == (real)0) {
		y[iy] = (real2)(0, 0);
	} else if (bre != (real)1 || bim != (real)0) {
		y[iy] = zmul((real2)(bre, bim), y[iy]);
	}
}

// zrank_at updates the element (r, c) of the m×n A as zrank's mode says,
// with gonum's arithmetic. The Hermitian modes touch only the stored
// triangle (dense with lda, or packed) and leave the diagonal real: a row
// gonum skips (x(r) == 0, or x(r) == y(r) == 0 for rank 2) still has the
// imaginary part of its diagonal element cleared, as gonum does.
static inline void zrank_at(int mode, int upper, int packed, int n, real are, real aim,
                            __global const real2* x, long offx, int incx,
                            __global const real2* y, long offy, int incy,
                            __global real2* a, int lda, int r, int c) {
	const real2 alpha = (real2)(are, aim);
	const real2 xr = x[offx + (long)r * incx];
	if (mode == ZR_GERU || mode == ZR_GERC) {
		const long at = (long)r * lda + c;
		const real2 yc = y[offy + (long)c * incy];
		if (mode == ZR_GERU && znonzero(xr)) {
			a[at] += zmul(zmul(alpha, xr), yc);
		} else if (mode == ZR_GERC && znonzero(yc)) {
			a[at] += zmul(zmul(alpha, zconj(yc)), xr);
		}
		return;
	}
	if (upper ? c < r : c > r) {
		return;
	}
	const long at = packed ? ztri_at(ZST_PACKED, upper, n, 0, 0, r, c) : (long)r * lda + c;
	const real2 yr = mode == ZR_HER2 ? y[offy + (long)r * incy] : (real2)(0, 0);
	if (!znonzero(xr) && !znonzero(yr)) {
		if (c == r) {
			a[at] = (real2)(a[at].x, 0);
		}
		return;
	}
	if (mode == ZR_HER2) {
		const real2 tmp1 = zmul(alpha, xr);
		const real2 tmp2 = zmul(zconj(alpha), yr);
		if (c == r) {
			a[at] = (real2)(a[at].x + zmul(tmp1, zconj(yr)).x + zmul(tmp2, zconj(xr)).x, 0);
		} else {
			a[at] += zmul(tmp1, zconj(y[offy + (long)c * incy])) + zmul(tmp2, zconj(x[offx + (long)c * incx]));
		}
		return;
	}
	// Zher: tmp = (α·Re x(r), α·Im x(r)); Zhpr: tmp = (α + 0i)·x(r).
	if (c == r) {
		const real d = mode == ZR_HER ? zmul((real2)(are * xr.x, are * xr.y), zconj(xr)).x
		                              : are * zmul(zconj(xr), xr).x;
		a[at] = (real2)(a[at].x + d, 0);
		return;
	}
	const real2 tmp = mode == ZR_HER ? (real2)(are * xr.x, are * xr.y) : zmul((real2)(are, 0), xr);
	a[at] += zmul(tmp, zconj(x[offx + (long)c * incx]));
}

// zrank: the rank-1 and rank-2 updates, one work-item per element (r, c)
// of an m×n grid (dimension 0: c, dimension 1: r), mode one of ZR_*, as
// zrank_at does them.
__kernel void zrank(int mode, int upper, int packed, int m, int n, real are, real aim,
                    __global const real2* x, long offx, int incx,
                    __global const real2* y, long offy, int incy,
                    __global real2* a, int lda) {
	const int c = get_global_id(0);
	const int r = get_global_id(1);
	if (r >= m || c >= n) {
		return;
	}
	zrank_at(mode, upper, packed, n, are, aim, x, offx, incx, y, offy, incy, a, lda, r, c);
}

// zrank_row8 does zrank_at's updates of row r's elements [lo, hi) (none
// of them diagonal in the Hermitian modes) 4 at a time, with x and y
// contiguous, row[c] holding A(r, c), and returns the first column it did
// not do. Each element gets zrank_at's numbers.
static inline int zrank_row8(int mode, real are, real aim, __global const real2* x, __global const real2* y,
                             __global real2* row, int r, int lo, int hi) {
	const real2 alpha = (real2)(are, aim);
	const real2 xr = x[r];
	const real2 yr = mode == ZR_HER2 ? y[r] : (real2)(0, 0);
	__global real* ar = (__global real*)row;
	__global const real* xv = (__global const real*)x;
	__global const real* yv = (__global const real*)y;
	int c = lo;
	switch (mode) {
	case ZR_GERU:
		if (znonzero(xr)) {
			const real2 t = zmul(alpha, xr);
			for (; c + 4 <= hi; c += 4) {
				st8(ld8(ar + 2 * c) + zmul8(ld8(yv + 2 * c), t, 0), ar + 2 * c);
			}
		}
		break;
	case ZR_GERC:
		for (; c + 4 <= hi; c += 4) {
			const real8 yc = ld8(yv + 2 * c);
			if (!znonzero(yc.s01) || !znonzero(yc.s23) || !znonzero(yc.s45) || !znonzero(yc.s67)) {
				break;
			}
			st8(ld8(ar + 2 * c) + zmul8(zmul8(yc, alpha, 1), xr, 0), ar + 2 * c);
		}
		break;
	case ZR_HER2:
		if (znonzero(xr) || znonzero(yr)) {
			const real2 t1 = zmul(alpha, xr), t2 = zmul(zconj(alpha), yr);
			for (; c + 4 <= hi; c += 4) {
				st8(ld8(ar + 2 * c) + (zmul8(ld8(yv + 2 * c), t1, 1) + zmul8(ld8(xv + 2 * c), t2, 1)), ar + 2 * c);
			}
		}
		break;
	default: // ZR_HER, ZR_HPR
		if (znonzero(xr)) {
			const real2 t = mode == ZR_HER ? (real2)(are * xr.x, are * xr.y) : zmul((real2)(are, 0), xr);
			for (; c + 4 <= hi; c += 4) {
				st8(ld8(ar + 2 * c) + zmul8(ld8(xv + 2 * c), t, 1), ar + 2 * c);
			}
		}
	}
	return c;
}

// zrank_row does zrank_at's updates of row r's elements (its stored ones
// in the Hermitian modes) in the columns [from, to), in order, 4 at a time
// off the diagonal from a 64-byte boundary of the row (so that the vector
// stores do not straddle lines) when x and y are contiguous.
static inline void zrank_row(int mode, int upper, int packed, int n, real are, real aim,
                             __global const real2* x, long offx, int incx,
                             __global const real2* y, long offy, int incy,
                             __global real2* a, int lda, int r, int from, int to) {
	const int herm = mode != ZR_GERU && mode != ZR_GERC;
	const int lo = max(from, herm && upper ? r : 0), hi = min(to, herm && !upper ? r + 1 : n);
	if (hi <= lo) {
		return;
	}
	int vlo = lo, vhi = hi; // off the diagonal
	if (herm) {
		vlo = upper ? max(lo, r + 1) : lo;
		vhi = upper ? hi : min(hi, r);
	}
	int c = vlo;
	if (incx == 1 && incy == 1 && vhi > vlo) {
		__global real2* row = a + (packed ? ztri_at(ZST_PACKED, upper, n, 0, 0, r, 0) : (long)r * lda);
		const int cv = min(vhi, vlo + (int)(((64 - ((ulong)(row + vlo) & 63)) & 63) / sizeof(real2)));
		for (; c < cv; c++) {
			zrank_at(mode, upper, packed, n, are, aim, x, offx, incx, y, offy, incy, a, lda, r, c);
		}
		c = zrank_row8(mode, are, aim, x + offx, y + offy, row, r, cv, vhi);
	}
	for (int k = lo; k < vlo; k++) {
		zrank_at(mode, upper, packed, n, are, aim, x, offx, incx, y, offy, incy, a, lda, r, k);
	}
	for (; c < hi; c++) {
		zrank_at(mode, upper, packed, n, are, aim, x, offx, incx, y, offy, incy, a, lda, r, c);
	}
}

// zrank_rows is zrank for CPU devices: a work-item per row r, walking the
// row's elements (its stored ones in the Hermitian modes) in order
// (zrank_row). A general matrix's rows, and a packed triangle's, follow
// each other in memory; a dense triangle's begin apart, and zrank_rows4
// takes them four at a time.
__kernel void zrank_rows(int mode, int upper, int packed, int m, int n, real are, real aim,
                         __global const real2* x, long offx, int incx,
                         __global const real2* y, long offy, int incy,
                         __global real2* a, int lda) {
	const int r = spread_id(mode != ZR_GERU && mode != ZR_GERC);
	if (r < m) {
		zrank_row(mode, upper, packed, n, are, aim, x, offx, incx, y, offy, incy, a, lda, r, 0, n);
	}
}

// zrank_rows4 is zrank_rows for HER and HER2 (mode) on a dense triangle,
// four rows a work-item: the off-diagonal columns all four store, from a
// 64-byte boundary of the first row and a multiple of 4 long, in one pass
// when x and y are contiguous and no row is one gonum skips (x and y
// loaded once for the four, the four rows' streams in flight together),
// the rest by zrank_row. Each element gets zrank_at's numbers.
__kernel void zrank_rows4(int mode, int upper, int m, int n, real are, real aim,
                          __global const real2* x, long offx, int incx,
                          __global const real2* y, long offy, int incy,
                          __global real2* a, int lda) {
	const int r0 = spread_id(1) * 4;
	if (r0 >= m) {
		return;
	}
	const int nr = min(4, m - r0);
	int cl = upper ? r0 + 4 : 0, ch = upper ? n : r0;
	cl = min(ch, cl + (int)(((64 - ((ulong)(a + (long)r0 * lda + cl) & 63)) & 63) / sizeof(real2)));
	ch = cl + (max(ch - cl, 0) / 4) * 4;
	int shared = nr == 4 && incx == 1 && incy == 1 && ch > cl;
	real2 t1[4], t2[4];
	for (int q = 0; q < 4 && shared; q++) {
		const real2 xr = x[offx + r0 + q];
		const real2 yr = mode == ZR_HER2 ? y[offy + r0 + q] : (real2)(0, 0);
		shared = znonzero(xr) || znonzero(yr);
		t1[q] = mode == ZR_HER2 ? zmul((real2)(are, aim), xr) : (real2)(are * xr.x, are * xr.y);
		t2[q] = zmul((real2)(are, -aim), yr);
	}
	if (shared) {
		__global const real* xv = (__global const real*)(x + offx);
		__global const real* yv = (__global const real*)(y + offy);
		__global real* ar = (__global real*)(a + (long)r0 * lda);
		const long ld = 2 * (long)lda;
		for (int c = cl; c < ch; c += 4) {
			const real8 xc = ld8(xv + 2 * c);
			if (mode == ZR_HER2) {
				const real8 yc = ld8(yv + 2 * c);
				for (int q = 0; q < 4; q++) {
					__global real* p = ar + q * ld + 2 * c;
					st8(ld8(p) + (zmul8(yc, t1[q], 1) + zmul8(xc, t2[q], 1)), p);
				}
			} else {
				for (int q = 0; q < 4; q++) {
					__global real* p = ar + q * ld + 2 * c;
					st8(ld8(p) + zmul8(xc, t1[q], 1), p);
				}
			}
		}
	} else {
		cl = ch = 0;
	}
	for (int q = 0; q < nr; q++) {
		zrank_row(mode, upper, 0, n, are, aim, x, offx, incx, y, offy, incy, a, lda, r0 + q, 0, cl);
		zrank_row(mode, upper, 0, n, are, aim, x, offx, incx, y, offy, incy, a, lda, r0 + q, ch, n);
	}
}
