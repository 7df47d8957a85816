/*
 * gemm.cl — GEMM kernels for gocompute/opencl (OpenCL C 1.2).
 *
 * CONTRACT (identical for every kernel in this file)
 * --------------------------------------------------
 * Storage is row-major (gonum's). With op(X) = X (TRANS?=0) or Xᵀ (TRANS?=1):
 *
 *     C[m×n] = alpha · op(A)[m×k] · op(B)[k×n] + beta · C
 *
 *   element op(A)[i][p] = A[offA + i*lda + p]   (TRANSA=0, A is m×k, lda ≥ k)
 *                       = A[offA + p*lda + i]   (TRANSA=1, A is k×m, lda ≥ m)
 *   element op(B)[p][j] = B[offB + p*ldb + j]   (TRANSB=0, B is k×n, ldb ≥ n)
 *                       = B[offB + j*ldb + p]   (TRANSB=1, B is n×k, ldb ≥ k)
 *   element C[i][j]     = C[offC + i*ldc + j]   (ldc ≥ n)
 *
 * Kernel arguments, in this order, for gemm_tiled, gemm_direct and gemm_cpu:
 *   (int m, int n, int k, real alpha,
 *    __global const real* A, int offA, int lda,
 *    __global const real* B, int offB, int ldb,
 *    real beta, __global real* C, int offC, int ldc)
 * where real is float (PRECISION=32) or double (PRECISION=64).
 *
 * - Any m, n, k ≥ 1 and any ld ≥ (columns of the stored matrix) work: ragged edges
 *   are handled inside the kernels. The host handles m==0 || n==0 and the gonum
 *   quick returns (alpha==0 or k==0: C = beta·C) itself; the kernels need k ≥ 1.
 * - beta == 0 writes C without reading it (NaN/Inf already in C do not survive).
 * - Results are the exact products accumulated in a different order than a naive
 *   loop (fma per step), so they agree with a reference to rounding error.
 * - Offsets and index products inside one work-group tile are 32-bit: require
 *   ld · max(MWG, NWG, KWG, 64) < 2^31 and every offset < 2^31; whole-matrix
 *   offsets (row·ld) are computed in 64 bits.
 * - All four (TRANSA, TRANSB) combinations are compiled from the same source;
 *   there is no transpose or padding pre-pass.
 *
 * Common defines: PRECISION (32|64, default 32), TRANSA (0|1, default 0),
 * TRANSB (0|1, default 0). fp64 needs cl_khr_fp64 (enabled here when PRECISION=64).
 *
 * KERNELS, WORK SIZES AND DEFINES
 * -------------------------------
 * 1. gemm_tiled — large problems on GPUs. Work-group tile MWG×NWG of C, K step KWG,
 *    each work-item holds a TM×TN register tile (TM = MWG/MDIMC, TN = NWG/NDIMC).
 *    Tiles of op(A) and op(B) are staged k-major in local memory (As[k][m], Bs[k][n],
 *    rows padded by PADA/PADB); the next K slice is prefetched from global memory into
 *    registers while the current slice is multiplied (register double buffering);
 *    with DOUBLE_BUFFER=1 there are two local buffers and one barrier per K step.
 *      local  = (NDIMC, MDIMC)                        (reqd_work_group_size)
 *      global = (ceil(n/NWG)·NDIMC, ceil(m/MWG)·MDIMC)
 *    Defines (defaults): MWG 128, NWG 128, KWG 16 (float) / 8 (double), MDIMC 16, NDIMC 16,
 *      VWM 4 (float) / 2 (double): vector width of the local reads of A and of the
 *            m-direction register sub-tiles; a work-item owns rows
 *            ty·VWM + s·MDIMC·VWM + c  (s < TM/VWM, c < VWM),
 *      VWN 4 / 2: the same for B / columns of C (also the C store vector width):
 *            columns tx·VWN + s·NDIMC·VWN + c,
 *      VWA 4 / 2: global load vector width of A along its contiguous dimension
 *            (k if TRANSA=0, m if TRANSA=1),
 *      VWB 4 / 2: the same for B (n if TRANSB=0, k if TRANSB=1),
 *      PADA 4 / 2, PADB 4 / 2: padding (elements) of each local row,
 *      DOUBLE_BUFFER 1: two local buffers (1) or one with two barriers (0),
 *      VEC_ALIGNED 0: the host sets 1 only if offA and lda are multiples of VWA,
 *            offB and ldb multiples of VWB, offC and ldc multiples of VWN, and no
 *            buffer is one over host memory (CL_MEM_USE_HOST_PTR, which starts where
 *            that memory does; other buffers are aligned); then global loads/stores use aligned
 *            vector types, otherwise vloadN (any alignment) and scalar C stores,
 *      GRID_Z 0: 1 splits K across work-group dimension 2 (global (…, …, Z), local
 *            (…, …, 1)): group z multiplies the K steps [z·kc, (z+1)·kc), kc =
 *            ceil(k / (Z·KWG))·KWG (a slice past k multiplies nothing and writes
 *            zeros), and writes alpha times its partial product to its own slab of C,
 *            C + z·m·ldc; the host passes a scratch buffer with beta = 0 and sums the
 *            slabs into the real C (gemm_splitk_reduce), so that a C of few tiles
 *            with a long K still occupies the device in one launch. kc is a
 *            multiple of KWG and the slabs are whole rows, so VEC_ALIGNED holds
 *            for every slice when it holds for the call.
 *    Valid combinations (checked with #error): MWG % (MDIMC·VWM) == 0,
 *      NWG % (NDIMC·VWN) == 0, (MWG·KWG) % (MDIMC·NDIMC·VWA) == 0,
 *      (NWG·KWG) % (MDIMC·NDIMC·VWB) == 0, the contiguous tile side of A (KWG if
 *      TRANSA=0 else MWG) and of B (NWG if TRANSB=0 else KWG) divisible by VWA/VWB,
 *      PADA a multiple of VWM (and of VWA when TRANSA=1), PADB a multiple of VWN
 *      (and of VWB when TRANSB=0); local memory 2^DOUBLE_BUFFER·KWG·(MWG+PADA+NWG+PADB)
 *      ·sizeof(real) must fit the device; MDIMC·NDIMC ≤ max work-group size.
 *      VW* ∈ {1,2,4,8}. Example: the H200's large fp32 set 128×256×16, 16×16,
 *      DOUBLE_BUFFER=0 needs 16·(132+260)·4 = 25 KB of local memory and 254 registers.
 *    Measured parameter sets per device/precision/shape are in gemm_tuning.json.
 *
 * 2. gemm_direct — small problems, any shape, no local memory. Each work-item
 *    computes DM×DN elements straight from global memory (rows ty + r·DMDIMC,
 *    columns tx + c·DNDIMC inside its group's (DM·DMDIMC)×(DN·DNDIMC) block).
 *      local  = (DNDIMC, DMDIMC)
 *      global = (ceil(n/(DN·DNDIMC))·DNDIMC, ceil(m/(DM·DMDIMC))·DMDIMC)
 *    Defines (defaults): DM 4, DN 4, DMDIMC 16, DNDIMC 16.
 *
 * 3. gemm_cpu — for CPU devices (PoCL): no local memory, no barriers. Each
 *    work-item computes a CPU_MB×CPU_NB block of C with explicit realN vectors of
 *    width CPU_VEC, reading A and B straight from global memory (caches do the
 *    blocking). The vectorised direction follows the storage:
 *      TRANSB=0           : vectors along n   (needs CPU_NB % CPU_VEC == 0)
 *      TRANSA=1, TRANSB=1 : vectors along m   (needs CPU_MB % CPU_VEC == 0)
 *      TRANSA=0, TRANSB=1 : vectors along k (dot products, reduced at the end;
 *                           any CPU_MB, CPU_NB; 4×4 recommended)
 *    Blocks crossing the edge of C take a scalar path, except, with TRANSB=0,
 *    those crossing only its last row (they keep the vector loop, repeating
 *    row m-1 of op(A) and storing the rows inside C). The host splits a call
 *    into launches of at most 512 steps of k (NT aside) and of as many rows
 *    of C as keep their rows of op(A) within 2 MiB, and copies an operand
 *    walked a row a step whose pitch is a multiple of 1 KiB (GemmLauncher's
 *    launch, internal/engine/gemm.go). CPU_VEC ∈ {1,2,4,8,16};
 *    1 is compiled as scalar code (OpenCL C has no real1, vload1 or vstore1).
 *      local  = NULL (let the runtime choose) or (LX,1)
 *      global = (ceil(m/CPU_MB), ceil(n/CPU_NB))      (note: rows first)
 *    Defines (defaults): CPU_VEC 16 (float) / 8 (double), CPU_MB 6, CPU_NB 32 / 16
 *      (when TRANSA=1 && TRANSB=1 the defaults swap: CPU_MB 32/16, CPU_NB 6;
 *       when TRANSA=0 && TRANSB=1: CPU_MB 4, CPU_NB 4). Six rows (columns)
 *      of two vectors are twelve accumulators, which fit the 16 vector
 *      registers of AVX2 and SSE as well as AVX-512's 32.
 */

#ifndef PRECISION
#define PRECISION 32
#endif
#if PRECISION == 64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define REAL double
#define DEFVW 2
#define DEFKWG 8
#define DEFCPUVEC 8
#elif PRECISION == 32
#define REAL float
#define DEFVW 4
#define DEFKWG 16
#define DEFCPUVEC 16
#else
#error "PRECISION must be 32 or 64"
#endif
typedef REAL real;
#define ZERO ((real)0)

#ifndef TRANSA
#define TRANSA 0
#endif
#ifndef TRANSB
#define TRANSB 0
#endif
#ifndef VEC_ALIGNED
#define VEC_ALIGNED 0
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define REALV(w) CAT(REAL, w)

/* ---- vector helpers: move W consecutive reals between memory and a private
 *      scalar array d[o .. o+W) (constant indices after unrolling). ---- */
/* aligned load (pointer cast), Q is the address-space qualifier */
#define LDA_1(Q, d, o, p) { (d)[(o)] = *(p); }
#define LDA_2(Q, d, o, p) { const REALV(2) t_ = *((Q const REALV(2)*)(p)); \
    (d)[(o)] = t_.s0; (d)[(o)+1] = t_.s1; }
#define LDA_4(Q, d, o, p) { const REALV(4) t_ = *((Q const REALV(4)*)(p)); \
    (d)[(o)] = t_.s0; (d)[(o)+1] = t_.s1; (d)[(o)+2] = t_.s2; (d)[(o)+3] = t_.s3; }
#define LDA_8(Q, d, o, p) { const REALV(8) t_ = *((Q const REALV(8)*)(p)); \
    (d)[(o)] = t_.s0; (d)[(o)+1] = t_.s1; (d)[(o)+2] = t_.s2; (d)[(o)+3] = t_.s3; \
    (d)[(o)+4] = t_.s4; (d)[(o)+5] = t_.s5; (d)[(o)+6] = t_.s6; (d)[(o)+7] = t_.s7; }
#define LDALIGNED(W, Q, d, o, p) CAT(LDA_, W)(Q, d, o, p)
/* unaligned global load (vloadN) */
#define LDU_1(d, o, p) { (d)[(o)] = *(p); }
#define LDU_2(d, o, p) { const REALV(2) t_ = vload2(0, (p)); \
    (d)[(o)] = t_.s0; (d)[(o)+1] = t_.s1; }
#define LDU_4(d, o, p) { const REALV(4) t_ = vload4(0, (p)); \
    (d)[(o)] = t_.s0; (d)[(o)+1] = t_.s1; (d)[(o)+2] = t_.s2; (d)[(o)+3] = t_.s3; }
#define LDU_8(d, o, p) { const REALV(8) t_ = vload8(0, (p)); \
    (d)[(o)] = t_.s0; (d)[(o)+1] = t_.s1; (d)[(o)+2] = t_.s2; (d)[(o)+3] = t_.s3; \
    (d)[(o)+4] = t_.s4; (d)[(o)+5] = t_.s5; (d)[(o)+6] = t_.s6; (d)[(o)+7] = t_.s7; }
#define LDUNALIGNED(W, d, o, p) CAT(LDU_, W)(d, o, p)
#if VEC_ALIGNED
#define GLD(W, d, o, p) LDALIGNED(W, __global, d, o, p)
#else
#define GLD(W, d, o, p) LDUNALIGNED(W, d, o, p)
#endif
/* aligned store of d[o .. o+W) */
#define STA_1(Q, p, d, o) { *(p) = (d)[(o)]; }
#define STA_2(Q, p, d, o) { *((Q REALV(2)*)(p)) = (REALV(2))((d)[(o)], (d)[(o)+1]); }
#define STA_4(Q, p, d, o) { *((Q REALV(4)*)(p)) = \
    (REALV(4))((d)[(o)], (d)[(o)+1], (d)[(o)+2], (d)[(o)+3]); }
#define STA_8(Q, p, d, o) { *((Q REALV(8)*)(p)) = (REALV(8))((d)[(o)], (d)[(o)+1], \
    (d)[(o)+2], (d)[(o)+3], (d)[(o)+4], (d)[(o)+5], (d)[(o)+6], (d)[(o)+7]); }
#define STALIGNED(W, Q, p, d, o) CAT(STA_, W)(Q, p, d, o)

/* ======================================================================== */
/* 1. gemm_tiled                                                            */
/* ======================================================================== */
#ifndef MWG
#define MWG 128
#endif
#ifndef NWG
#define NWG 128
#endif
#ifndef KWG
#define KWG DEFKWG
#endif
#ifndef MDIMC
#define MDIMC 16
#endif
#ifndef NDIMC
#define NDIMC 16
#endif
#ifndef VWM
#define VWM DEFVW
#endif
#ifndef VWN
#define VWN DEFVW
#endif
#ifndef VWA
#define VWA DEFVW
#endif
#ifndef VWB
#define VWB DEFVW
#endif
#ifndef PADA
#define PADA DEFVW
#endif
#ifndef PADB
#define PADB DEFVW
#endif
#ifndef DOUBLE_BUFFER
#define DOUBLE_BUFFER 1
#endif

#define TM (MWG / MDIMC)
#define TN (NWG / NDIMC)
#define NTHREADS (MDIMC * NDIMC)
#define LDSA (MWG + PADA)
#define LDSB (NWG + PADB)
#define NLA ((MWG * KWG) / (NTHREADS * VWA))
#define NLB ((NWG * KWG) / (NTHREADS * VWB))
#if DOUBLE_BUFFER
#define NBUF 2
#else
#define NBUF 1
#endif
/* Is the stored matrix contiguous along k? */
#define A_KCONTIG (TRANSA == 0)
#define B_KCONTIG (TRANSB == 1)
#ifndef GRID_Z
#define GRID_Z 0
#endif
#if GRID_Z != 0 && GRID_Z != 1
#error "gemm_tiled: GRID_Z must be 0 or 1"
#endif

#if MWG % (MDIMC * VWM) != 0
#error "gemm_tiled: MWG must be a multiple of MDIMC*VWM"
#endif
#if NWG % (NDIMC * VWN) != 0
#error "gemm_tiled: NWG must be a multiple of NDIMC*VWN"
#endif
#if (MWG * KWG) % (NTHREADS * VWA) != 0
#error "gemm_tiled: MWG*KWG must be a multiple of MDIMC*NDIMC*VWA"
#endif
#if (NWG * KWG) % (NTHREADS * VWB) != 0
#error "gemm_tiled: NWG*KWG must be a multiple of MDIMC*NDIMC*VWB"
#endif
#if (A_KCONTIG && KWG % VWA != 0) || (!A_KCONTIG && MWG % VWA != 0)
#error "gemm_tiled: the contiguous side of the A tile must be a multiple of VWA"
#endif
#if (B_KCONTIG && KWG % VWB != 0) || (!B_KCONTIG && NWG % VWB != 0)
#error "gemm_tiled: the contiguous side of the B tile must be a multiple of VWB"
#endif
#if PADA % VWM != 0 || (!A_KCONTIG && PADA % VWA != 0)
#error "gemm_tiled: PADA must be a multiple of VWM (and of VWA when TRANSA=1)"
#endif
#if PADB % VWN != 0 || (!B_KCONTIG && PADB % VWB != 0)
#error "gemm_tiled: PADB must be a multiple of VWN (and of VWB when TRANSB=0)"
#endif

/* Global -> registers, tile stored contiguous along k: O rows (outer index o),
 * KWG contiguous columns (p). Xt points at element (o=0, p=0) of the tile.
 * orem/krem: rows/columns still inside the matrix; full: no checks needed. */
#define GLOAD_KC(VW, NL, Xt, ld, orem, krem, r, full) \
  _Pragma("unroll") for (int l_ = 0; l_ < (NL); l_++) { \
    const int v_ = tid + l_ * NTHREADS; \
    const int o_ = v_ / (KWG / (VW)); \
    const int p_ = (v_ % (KWG / (VW))) * (VW); \
    __global const real* q_ = (Xt) + o_ * (ld) + p_; \
    if (full) { GLD(VW, r, l_ * (VW), q_); } \
    else { _Pragma("unroll") for (int c_ = 0; c_ < (VW); c_++) \
        r[l_ * (VW) + c_] = (o_ < (orem) && p_ + c_ < (krem)) ? q_[c_] : ZERO; } \
  }
/* registers -> local, k-major (transposing store) */
#define LSTORE_KC(VW, NL, Ls, LDS, r) \
  _Pragma("unroll") for (int l_ = 0; l_ < (NL); l_++) { \
    const int v_ = tid + l_ * NTHREADS; \
    const int o_ = v_ / (KWG / (VW)); \
    const int p_ = (v_ % (KWG / (VW))) * (VW); \
    _Pragma("unroll") for (int c_ = 0; c_ < (VW); c_++) \
      (Ls)[(p_ + c_) * (LDS) + o_] = r[l_ * (VW) + c_]; \
  }
/* Global -> registers, tile stored contiguous along the outer index: KWG rows
 * (p), O contiguous columns (o). */
#define GLOAD_OC(O, VW, NL, Xt, ld, orem, krem, r, full) \
  _Pragma("unroll") for (int l_ = 0; l_ < (NL); l_++) { \
    const int v_ = tid + l_ * NTHREADS; \
    const int p_ = v_ / ((O) / (VW)); \
    const int o_ = (v_ % ((O) / (VW))) * (VW); \
    __global const real* q_ = (Xt) + p_ * (ld) + o_; \
    if (full) { GLD(VW, r, l_ * (VW), q_); } \
    else { _Pragma("unroll") for (int c_ = 0; c_ < (VW); c_++) \
        r[l_ * (VW) + c_] = (o_ + c_ < (orem) && p_ < (krem)) ? q_[c_] : ZERO; } \
  }
#define LSTORE_OC(O, VW, NL, Ls, LDS, r) \
  _Pragma("unroll") for (int l_ = 0; l_ < (NL); l_++) { \
    const int v_ = tid + l_ * NTHREADS; \
    const int p_ = v_ / ((O) / (VW)); \
    const int o_ = (v_ % ((O) / (VW))) * (VW); \
    STALIGNED(VW, __local, (Ls) + p_ * (LDS) + o_, r, l_ * (VW)); \
  }

#if A_KCONTIG
#define LOAD_A(full) GLOAD_KC(VWA, NLA, Ag, lda, mrem, krem, ra, full)
#define STORE_A(Ls) LSTORE_KC(VWA, NLA, Ls, LDSA, ra)
#else
#define LOAD_A(full) GLOAD_OC(MWG, VWA, NLA, Ag, lda, mrem, krem, ra, full)
#define STORE_A(Ls) LSTORE_OC(MWG, VWA, NLA, Ls, LDSA, ra)
#endif
#if B_KCONTIG
#define LOAD_B(full) GLOAD_KC(VWB, NLB, Bg, ldb, nrem, krem, rb, full)
#define STORE_B(Ls) LSTORE_KC(VWB, NLB, Ls, LDSB, rb)
#else
#define LOAD_B(full) GLOAD_OC(NWG, VWB, NLB, Bg, ldb, nrem, krem, rb, full)
#define STORE_B(Ls) LSTORE_OC(NWG, VWB, NLB, Ls, LDSB, rb)
#endif

__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void gemm_tiled(const int m, const int n, const int kall, const real alpha,
                __global const real* restrict A, const int offA, const int lda,
                __global const real* restrict B, const int offB, const int ldb,
                const real beta, __global real* C, const int offC, const int ldc)
{
#if GRID_Z == 1
  /* split-K: this group's K slice (see GRID_Z) */
  const int nz_ = get_num_groups(2);
  const int kc_ = ((kall + nz_ * KWG - 1) / (nz_ * KWG)) * KWG;
  const int k0z_ = min((int)get_group_id(2) * kc_, kall);
  const int k = min(kc_, kall - k0z_);
#if A_KCONTIG
  A += k0z_;
#else
  A += (size_t)k0z_ * lda;
#endif
#if B_KCONTIG
  B += k0z_;
#else
  B += (size_t)k0z_ * ldb;
#endif
  C += (size_t)get_group_id(2) * m * ldc;
#else
  const int k = kall;
#endif
  __local real As[NBUF * KWG * LDSA] __attribute__((aligned(64)));
  __local real Bs[NBUF * KWG * LDSB] __attribute__((aligned(64)));

  const int tx = get_local_id(0);
  const int ty = get_local_id(1);
  const int tid = ty * NDIMC + tx;
  const int m0 = get_group_id(1) * MWG;
  const int n0 = get_group_id(0) * NWG;
  const int mrem = m - m0;
  const int nrem = n - n0;
  const bool fullA = mrem >= MWG;
  const bool fullB = nrem >= NWG;

#if A_KCONTIG
  __global const real* Ag = A + offA + (size_t)m0 * lda;
  const size_t stepA = KWG;
#else
  __global const real* Ag = A + offA + m0;
  const size_t stepA = (size_t)KWG * lda;
#endif
#if B_KCONTIG
  __global const real* Bg = B + offB + (size_t)n0 * ldb;
  const size_t stepB = KWG;
#else
  __global const real* Bg = B + offB + n0;
  const size_t stepB = (size_t)KWG * ldb;
#endif

  real acc[TM * TN];
#pragma unroll
  for (int i = 0; i < TM * TN; i++) acc[i] = ZERO;
  real ra[NLA * VWA];
  real rb[NLB * VWB];

  const int ntiles = (k + KWG - 1) / KWG;
  int krem = k;
  /* prologue: tile 0 -> buffer 0 */
  {
    const bool fk = krem >= KWG;
    if (fullA && fk) { LOAD_A(1) } else { LOAD_A(0) }
    if (fullB && fk) { LOAD_B(1) } else { LOAD_B(0) }
    STORE_A(As);
    STORE_B(Bs);
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  for (int t = 0; t < ntiles; t++) {
#if DOUBLE_BUFFER
    const int cur = t & 1;
#else
    const int cur = 0;
#endif
    const bool more = t + 1 < ntiles;
    if (more) {   /* prefetch the next K slice into registers */
      Ag += stepA;
      Bg += stepB;
      krem -= KWG;
      const bool fk = krem >= KWG;
      if (fullA && fk) { LOAD_A(1) } else { LOAD_A(0) }
      if (fullB && fk) { LOAD_B(1) } else { LOAD_B(0) }
    }
    __local const real* Ac = As + cur * (KWG * LDSA) + ty * VWM;
    __local const real* Bc = Bs + cur * (KWG * LDSB) + tx * VWN;
#pragma unroll
    for (int kk = 0; kk < KWG; kk++) {
      real a[TM];
      real b[TN];
#pragma unroll
      for (int s = 0; s < TM / VWM; s++)
        LDALIGNED(VWM, __local, a, s * VWM, Ac + kk * LDSA + s * (MDIMC * VWM));
#pragma unroll
      for (int s = 0; s < TN / VWN; s++)
        LDALIGNED(VWN, __local, b, s * VWN, Bc + kk * LDSB + s * (NDIMC * VWN));
#pragma unroll
      for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
          acc[i * TN + j] = fma(a[i], b[j], acc[i * TN + j]);
    }
    if (more) {
#if DOUBLE_BUFFER
      STORE_A(As + (cur ^ 1) * (KWG * LDSA));
      STORE_B(Bs + (cur ^ 1) * (KWG * LDSB));
#else
      barrier(CLK_LOCAL_MEM_FENCE);
      STORE_A(As);
      STORE_B(Bs);
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  /* epilogue: C = alpha*acc + beta*C (C not read when beta == 0) */
  __global real* Cg = C + offC + (size_t)m0 * ldc + n0;
  const bool b0 = (beta == ZERO);
#pragma unroll
  for (int i = 0; i < TM; i++) {
    const int row = (i / VWM) * (MDIMC * VWM) + ty * VWM + (i % VWM);
    if (row < mrem) {
      __global real* Crow = Cg + row * ldc;
#pragma unroll
      for (int s = 0; s < TN / VWN; s++) {
        const int col = s * (NDIMC * VWN) + tx * VWN;
        real v[VWN];
#pragma unroll
        for (int c = 0; c < VWN; c++) v[c] = alpha * acc[i * TN + s * VWN + c];
#if VEC_ALIGNED
        if (col + VWN <= nrem) {
          if (!b0) {
            real o[VWN];
            LDALIGNED(VWN, __global, o, 0, Crow + col);
#pragma unroll
            for (int c = 0; c < VWN; c++) v[c] = fma(beta, o[c], v[c]);
          }
          STALIGNED(VWN, __global, Crow + col, v, 0);
        } else
#endif
        {
#pragma unroll
          for (int c = 0; c < VWN; c++) {
            if (col + c < nrem) {
              Crow[col + c] = b0 ? v[c] : fma(beta, Crow[col + c], v[c]);
            }
          }
        }
      }
    }
  }
}

/* ======================================================================== */
/* 2. gemm_direct                                                           */
/* ======================================================================== */
#ifndef DM
#define DM 4
#endif
#ifndef DN
#define DN 4
#endif
#ifndef DMDIMC
#define DMDIMC 16
#endif
#ifndef DNDIMC
#define DNDIMC 16
#endif

__kernel __attribute__((reqd_work_group_size(DNDIMC, DMDIMC, 1)))
void gemm_direct(const int m, const int n, const int k, const real alpha,
                 __global const real* restrict A, const int offA, const int lda,
                 __global const real* restrict B, const int offB, const int ldb,
                 const real beta, __global real* C, const int offC, const int ldc)
{
  const int tx = get_local_id(0);
  const int ty = get_local_id(1);
  const int i0 = get_group_id(1) * (DM * DMDIMC) + ty;
  const int j0 = get_group_id(0) * (DN * DNDIMC) + tx;
  /* Out-of-range rows/columns are clamped to the last valid one (so the k loop
   * needs no checks) and skipped when storing. */
  __global const real* ap[DM];
  __global const real* bp[DN];
#pragma unroll
  for (int r = 0; r < DM; r++) {
    const int i = min(i0 + r * DMDIMC, m - 1);
#if TRANSA
    ap[r] = A + offA + i;
#else
    ap[r] = A + offA + (size_t)i * lda;
#endif
  }
#pragma unroll
  for (int c = 0; c < DN; c++) {
    const int j = min(j0 + c * DNDIMC, n - 1);
#if TRANSB
    bp[c] = B + offB + (size_t)j * ldb;
#else
    bp[c] = B + offB + j;
#endif
  }
  real acc[DM * DN];
#pragma unroll
  for (int q = 0; q < DM * DN; q++) acc[q] = ZERO;
  for (int p = 0; p < k; p++) {
    real a[DM], b[DN];
#pragma unroll
    for (int r = 0; r < DM; r++) {
#if TRANSA
      a[r] = ap[r][(size_t)p * lda];
#else
      a[r] = ap[r][p];
#endif
    }
#pragma unroll
    for (int c = 0; c < DN; c++) {
#if TRANSB
      b[c] = bp[c][p];
#else
      b[c] = bp[c][(size_t)p * ldb];
#endif
    }
#pragma unroll
    for (int r = 0; r < DM; r++)
#pragma unroll
      for (int c = 0; c < DN; c++)
        acc[r * DN + c] = fma(a[r], b[c], acc[r * DN + c]);
  }
  const bool b0 = (beta == ZERO);
#pragma unroll
  for (int r = 0; r < DM; r++) {
    const int i = i0 + r * DMDIMC;
    if (i < m) {
      __global real* crow = C + offC + (size_t)i * ldc;
#pragma unroll
      for (int c = 0; c < DN; c++) {
        const int j = j0 + c * DNDIMC;
        if (j < n) {
          const real v = alpha * acc[r * DN + c];
          crow[j] = b0 ? v : fma(beta, crow[j], v);
        }
      }
    }
  }
}

/* ======================================================================== */
/* 3. gemm_cpu                                                              */
/* ======================================================================== */
#ifndef CPU_VEC
#define CPU_VEC DEFCPUVEC
#endif
#if TRANSA == 1 && TRANSB == 1
#ifndef CPU_MB
#define CPU_MB (2 * CPU_VEC)
#endif
#ifndef CPU_NB
#define CPU_NB 6
#endif
#elif TRANSA == 0 && TRANSB == 1
#ifndef CPU_MB
#define CPU_MB 4
#endif
#ifndef CPU_NB
#define CPU_NB 4
#endif
#else
#ifndef CPU_MB
#define CPU_MB 6
#endif
#ifndef CPU_NB
#define CPU_NB (2 * CPU_VEC)
#endif
#endif
#if CPU_VEC == 1
/* OpenCL C has no 1-wide vector types nor vload1/vstore1: width 1 (a device
 * whose preferred vector width is 1) is the scalar type and plain accesses. */
#define VREAL real
#define VLOADC(o, p) ((p)[(o)])
#define VSTOREC(v, o, p) ((p)[(o)] = (v))
#else
#define VREAL REALV(CPU_VEC)
#define VLOADC CAT(vload, CPU_VEC)
#define VSTOREC CAT(vstore, CPU_VEC)
#endif

#if TRANSB == 0 && CPU_NB % CPU_VEC != 0
#error "gemm_cpu: CPU_NB must be a multiple of CPU_VEC when TRANSB=0"
#endif
#if TRANSA == 1 && TRANSB == 1 && CPU_MB % CPU_VEC != 0
#error "gemm_cpu: CPU_MB must be a multiple of CPU_VEC when TRANSA=1 and TRANSB=1"
#endif

static inline real cpu_hsum(VREAL v)
{
  real s = ZERO;
#pragma unroll
  for (int q = 0; q < CPU_VEC; q++) s += ((real*)&v)[q];
  return s;
}

static inline real cpu_opA(__global const real* A, int offA, int lda, int i, int p)
{
#if TRANSA
  return A[offA + (size_t)p * lda + i];
#else
  return A[offA + (size_t)i * lda + p];
#endif
}
static inline real cpu_opB(__global const real* B, int offB, int ldb, int p, int j)
{
#if TRANSB
  return B[offB + (size_t)j * ldb + p];
#else
  return B[offB + (size_t)p * ldb + j];
#endif
}

__kernel void gemm_cpu(const int m, const int n, const int k, const real alpha,
                       __global const real* restrict A, const int offA, const int lda,
                       __global const real* restrict B, const int offB, const int ldb,
                       const real beta, __global real* C, const int offC, const int ldc)
{
  /* dimension 0 walks down the rows so that neighbouring work-items share the
   * same panel of B (kept in L2) and stream different rows of A */
  const int i0 = get_global_id(0) * CPU_MB;
  const int j0 = get_global_id(1) * CPU_NB;
  if (i0 >= m || j0 >= n) return;
  const bool b0 = (beta == ZERO);

#if TRANSB == 0
  /* A block over the last rows keeps the vector loop: its rows past m
   * repeat row m-1 (read, never stored), so the loop has no branch. */
  const int mr = min(CPU_MB, m - i0);
  if (j0 + CPU_NB > n) {
#else
  if (i0 + CPU_MB > m || j0 + CPU_NB > n) {
#endif
    /* edge block: plain scalar loops */
    for (int i = i0; i < min(i0 + CPU_MB, m); i++) {
      for (int j = j0; j < min(j0 + CPU_NB, n); j++) {
        real s = ZERO;
        for (int p = 0; p < k; p++)
          s = fma(cpu_opA(A, offA, lda, i, p), cpu_opB(B, offB, ldb, p, j), s);
        __global real* c = C + offC + (size_t)i * ldc + j;
        *c = b0 ? alpha * s : fma(beta, *c, alpha * s);
      }
    }
    return;
  }

#if TRANSB == 0
  /* vectors along n: acc[r][u] holds C[i0+r][j0+u*V .. +V) */
#define NV (CPU_NB / CPU_VEC)
  VREAL acc[CPU_MB][NV];
#pragma unroll
  for (int r = 0; r < CPU_MB; r++)
#pragma unroll
    for (int u = 0; u < NV; u++) acc[r][u] = (VREAL)(ZERO);
  __global const real* bp = B + offB + j0;
  /* The k loop, with op(A)[i0+r][p] as AR. */
#define CPU_NLOOP(AR, STEP)                                              \
  for (int p = 0; p < k; p++) {                                          \
    VREAL b[NV];                                                         \
    _Pragma("unroll") for (int u = 0; u < NV; u++)                       \
      b[u] = VLOADC(0, bp + u * CPU_VEC);                                \
    _Pragma("unroll") for (int r = 0; r < CPU_MB; r++) {                 \
      const VREAL a = (VREAL)(AR);                                       \
      _Pragma("unroll") for (int u = 0; u < NV; u++)                     \
        acc[r][u] = fma(a, b[u], acc[r][u]);                             \
    }                                                                    \
    bp += ldb;                                                           \
    STEP;                                                                \
  }
#if TRANSA
  /* A whole block reads op(A)'s rows at fixed offsets from one pointer;
   * the clamped offsets of the last block row took a pointer a row. */
  __global const real* ap = A + offA + i0;
  if (mr == CPU_MB) {
    CPU_NLOOP(ap[r], ap += lda)
  } else {
    CPU_NLOOP(ap[min(r, mr - 1)], ap += lda)
  }
#else
  /* One pointer a row, set before the loop: the row offsets computed
   * inside it went through vector registers and scalar extracts. */
  __global const real* ar[CPU_MB];
#pragma unroll
  for (int r = 0; r < CPU_MB; r++) ar[r] = A + offA + (size_t)(i0 + min(r, mr - 1)) * lda;
  CPU_NLOOP(ar[r][p], (void)0)
#endif
#undef CPU_NLOOP
#pragma unroll
  for (int r = 0; r < CPU_MB; r++) {
    __global real* cp = C + offC + (size_t)(i0 + r) * ldc + j0;
#pragma unroll
    for (int u = 0; u < NV; u++) {
      VREAL v = (VREAL)(alpha) * acc[r][u];
      if (r < mr) {
        if (!b0) v = fma((VREAL)(beta), VLOADC(0, cp + u * CPU_VEC), v);
        VSTOREC(v, 0, cp + u * CPU_VEC);
      }
    }
  }
#undef NV

#elif TRANSA == 1
  /* TRANSA=1, TRANSB=1: vectors along m: acc[c][u] holds C[i0+u*V .. +V)[j0+c] */
#define MV (CPU_MB / CPU_VEC)
  VREAL acc[CPU_NB][MV];
#pragma unroll
  for (int c = 0; c < CPU_NB; c++)
#pragma unroll
    for (int u = 0; u < MV; u++) acc[c][u] = (VREAL)(ZERO);
  __global const real* ap = A + offA + i0;
  __global const real* bp = B + offB + (size_t)j0 * ldb;
  for (int p = 0; p < k; p++) {
    VREAL a[MV];
#pragma unroll
    for (int u = 0; u < MV; u++) a[u] = VLOADC(0, ap + u * CPU_VEC);
#pragma unroll
    for (int c = 0; c < CPU_NB; c++) {
      const VREAL b = (VREAL)(bp[(size_t)c * ldb + p]);
#pragma unroll
      for (int u = 0; u < MV; u++) acc[c][u] = fma(a[u], b, acc[c][u]);
    }
    ap += lda;
  }
#pragma unroll
  for (int c = 0; c < CPU_NB; c++) {
#pragma unroll
    for (int u = 0; u < MV; u++) {
      const VREAL v = (VREAL)(alpha) * acc[c][u];
#pragma unroll
      for (int q = 0; q < CPU_VEC; q++) {
        __global real* cp = C + offC + (size_t)(i0 + u * CPU_VEC + q) * ldc + j0 + c;
        const real x = ((const real*)&v)[q];
        *cp = b0 ? x : fma(beta, *cp, x);
      }
    }
  }
#undef MV

#else
  /* TRANSA=0, TRANSB=1: rows of A and rows of B are both contiguous along k:
   * vectors along k, reduced at the end. */
  VREAL acc[CPU_MB][CPU_NB];
#pragma unroll
  for (int r = 0; r < CPU_MB; r++)
#pragma unroll
    for (int c = 0; c < CPU_NB; c++) acc[r][c] = (VREAL)(ZERO);
  __global const real* ap = A + offA + (size_t)i0 * lda;
  __global const real* bp = B + offB + (size_t)j0 * ldb;
  const int kv = (k / CPU_VEC) * CPU_VEC;
  for (int p = 0; p < kv; p += CPU_VEC) {
    VREAL a[CPU_MB], b[CPU_NB];
#pragma unroll
    for (int r = 0; r < CPU_MB; r++) a[r] = VLOADC(0, ap + (size_t)r * lda + p);
#pragma unroll
    for (int c = 0; c < CPU_NB; c++) b[c] = VLOADC(0, bp + (size_t)c * ldb + p);
#pragma unroll
    for (int r = 0; r < CPU_MB; r++)
#pragma unroll
      for (int c = 0; c < CPU_NB; c++) acc[r][c] = fma(a[r], b[c], acc[r][c]);
  }
#pragma unroll
  for (int r = 0; r < CPU_MB; r++) {
    __global real* cp = C + offC + (size_t)(i0 + r) * ldc + j0;
#pragma unroll
    for (int c = 0; c < CPU_NB; c++) {
      real s = cpu_hsum(acc[r][c]);
      for (int p = kv; p < k; p++)
        s = fma(ap[(size_t)r * lda + p], bp[(size_t)c * ldb + p], s);
      s *= alpha;
      cp[c] = b0 ? s : fma(beta, cp[c], s);
    }
  }
#endif
}
