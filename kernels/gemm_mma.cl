/*
 * gemm_mma.cl — tensor-core GEMM for NVIDIA devices of compute capability >= 8.0
 * (Ampere, Ada, Hopper), written in OpenCL C 1.2 with inline PTX `mma.sync`.
 *
 * CONTRACT — the same as kernels/gemm.cl (see its header comment)
 * ---------------------------------------------------------------
 * Storage is row-major. With op(X) = X (TRANS?=0) or Xᵀ (TRANS?=1):
 *
 *     C[m×n] = alpha · op(A)[m×k] · op(B)[k×n] + beta · C
 *
 *   op(A)[i][p] = A[offA + i*lda + p] (TRANSA=0)  |  A[offA + p*lda + i] (TRANSA=1)
 *   op(B)[p][j] = B[offB + p*ldb + j] (TRANSB=0)  |  B[offB + j*ldb + p] (TRANSB=1)
 *   C[i][j]     = C[offC + i*ldc + j]
 *
 * Kernel gemm_mma, arguments in this order:
 *   (int m, int n, int k, real alpha,
 *    __global const real* A, int offA, int lda,
 *    __global const real* B, int offB, int ldb,
 *    real beta, __global real* C, int offC, int ldc)
 *
 * - Any m, n, k >= 1 and any ld >= (columns of the stored matrix); ragged edges are
 *   handled inside the kernel (out-of-range elements load as zero, stores are
 *   masked). No alignment of offsets or lds is assumed (all global accesses are
 *   scalar and coalesced) — except with CP_VEC=1, which needs offA, lda, offB and
 *   ldb to be multiples of 2 (double) / 4 (float) elements (see CP_VEC below).
 *   The host handles m==0 || n==0 and alpha==0 || k==0.
 * - beta == 0 writes C without reading it.
 * - 32-bit in-tile index products: ld · max(MWG, NWG, KWG) < 2^31; whole-matrix
 *   offsets (row·ld) are 64-bit.
 *
 * PRECISIONS
 * ----------
 * PRECISION=64 (DGEMM): `mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64` (m8n8k4 is
 *   half rate on Hopper), or its k = 8 / 16 forms (MMA_K=8|16, sm_90 only; one
 *   instruction and one accumulator update per 8 or 16 k instead of 4). Every product
 *   is an exact FP64 FMA; full FP64 accuracy (accumulation order differs from a naive
 *   loop).
 * PRECISION=32 (SGEMM) with TF32X3=1 (default): the 3xTF32 method. Each operand x
 *   is split into big = tf32(x) and small = tf32(x − big) (round to nearest, ties
 *   away: integer add+mask with SPLIT_CVT=0, the default, or cvt.rna.tf32.f32 with
 *   SPLIT_CVT=1 — same result, cvt is much slower); D += small_a·big_b +
 *   big_a·small_b + big_a·big_b through `mma.sync.aligned.m16n8k8.row.col.f32.tf32.
 *   tf32.f32`. ACC_CHUNK=1 (default): the products of one KWG slice go into a zeroed
 *   temporary that is added to the accumulators with IEEE FP32 adds — the tensor
 *   core's own FP32 accumulation truncates, and used over all of K (ACC_CHUNK=0) it
 *   loses more accuracy than an FP32 FMA GEMM; with ACC_CHUNK=1 3xTF32 is more
 *   accurate than FP32 FMA, on scaled inputs too (BENCHMARKS.md, "Figures behind
 *   the code's choices"; `bench -accuracy` measures it).
 *   TF32X3=0 issues big·big only (plain TF32, ~3e-4: NOT a BLAS-accurate SGEMM).
 *   Non-finite inputs: a tile whose 3xTF32 result holds an Inf or a NaN is
 *   computed again with plain FP32 FMAs (see the epilogue), so Inf and NaN come
 *   out as from an FP32 GEMM; NO_EXACT_REDO=1 leaves that out (tests only).
 *
 * FRAGMENTS (PTX ISA, "Matrix Fragments for mma.m16n8k4 / m16n8k8")
 *   lane = 32-lane index in the warp, g = lane>>2, t = lane&3.
 *   f64 m16n8k4 : A (16×4) a0=(g,t) a1=(g+8,t);  B (4×8) b0=(t,g);
 *   f64 m16n8k8/k16 (MMA_K=8|16), as the k4 one repeated every 4 k:
 *                 A a(2q)=(g,t+4q) a(2q+1)=(g+8,t+4q), B bq=(t+4q,g), q < MMA_K/4
 *                 — the layout as we read the ISA guide; not yet run on a GPU
 *                 (the emulation checks the kernel against this layout only);
 *   tf32 m16n8k8: A (16×8) a0=(g,t) a1=(g+8,t) a2=(g,t+4) a3=(g+8,t+4);
 *                 B (8×8) b0=(t,g) b1=(t+4,g);
 *   both        : C/D (16×8) c0=(g,2t) c1=(g,2t+1) c2=(g+8,2t) c3=(g+8,2t+1).
 *
 * TILING AND WORK SIZES
 * ---------------------
 * A work-group computes an MWG×NWG tile of C with (MWG/WM)·(NWG/WN) warps; each warp
 * owns a WM×WN warp tile = (WM/16)×(WN/8) m16n8 accumulator fragments. The K loop
 * steps by KWG. CP_ASYNC=1 (default): a ring of STAGES local buffers is filled with
 * per-element `cp.async.ca.shared.global` (zero-fill at the edges), tile kt+STAGES-1
 * is requested while tile kt is multiplied, one barrier per step; both operands are
 * kept k-major in local memory ([k][m], [k][n], rows padded by PADO = 4 doubles /
 * 8 floats). CP_ASYNC=0: tiles go global -> registers (one step ahead) -> local, with
 * two buffers (DOUBLE_BUFFER=1) or one; A is then kept [m][k] (stride KWG+4) when
 * TRANSA=0 and B [n][k] when TRANSB=1. With these strides every fragment load of a
 * warp is free of bank conflicts.
 *
 * CP_VEC=1 (with CP_ASYNC=1): the tiles are copied in 16-byte groups of CPV = 2
 * doubles / 4 floats, one `cp.async.ca.shared.global [dst], [src], 16, srcsize`
 * each (srcsize = sizeof(real)·valid elements, the rest of the 16 bytes
 * zero-filled, 0 for a group wholly outside the matrix), 2x / 4x fewer copy
 * instructions than CP_VEC=0. CP_VEC_CG=1 issues `cp.async.cg` (L2 only, not
 * cached in L1) instead; .ca is the default because .cg was slower on the H200
 * (BENCHMARKS.md, "Figures behind the code's choices"). A group is CPV
 * elements contiguous in global memory and must be contiguous in local memory too:
 *   TRANSA=1 (A stored k×m) and TRANSB=0 (B stored k×n): the groups run along m / n,
 *     the k-major local layouts above ([k][m], [k][n]) are kept — padded, or
 *     with KM_SWZ=1 unpadded, the row's 32-byte chunks XOR-swizzled by the low
 *     bits of k (KMSWZ below): element (kk, r) sits at kk·MWG + (r ^ KMSWZ(kk)),
 *     and MWG / NWG must be multiples of 128 bytes of elements. With KM_SWZ=1
 *     every layout of CP_VEC=1 is unpadded, so a stage takes KWG·(MWG+NWG)
 *     elements: 3 stages of a 128×128×16 float tile or 4 of a 128×64×8 double
 *     tile fill NVIDIA's 48 KiB exactly. It is off by default because the
 *     swizzled [k][m] A tile made TN slower on the H200 while NN gained little
 *     (BENCHMARKS.md, "Figures behind the code's choices").
 *   TRANSA=0 (A stored m×k) and TRANSB=1 (B stored n×k): the groups run along k, so
 *     that operand is kept [m][k] / [n][k], rows of exactly KWG elements (no pad)
 *     with the k index XOR-swizzled per row: element (r, kk) sits at
 *     r·KWG + (kk ^ SWZK(r)), SWZK(r) = ((r / RPW) % NKEY) · 4, where W = 128 bytes
 *     / sizeof(real) = 16 doubles / 32 floats (one sweep of the 32 banks), RPW =
 *     max(1, W/KWG) rows per sweep and NKEY = min(KWG, W)/4 (KSWZ_W, KSWZ_RPW,
 *     KSWZ_NKEY). The XOR flips k bits >= 2 only, so a 16-byte group (k bits below
 *     log2(CPV) <= 2) stays contiguous and 16-byte aligned, and the row's elements
 *     are only permuted.
 *   Bank conflicts (32 banks × 4 bytes; a fragment load reads rows g = lane>>2 of
 *   a block that starts at a multiple of 8 rows, at k = t + c, t = lane&3, c a
 *   multiple of 4 that is the same for all lanes):
 *     float: one 128-byte wavefront serves all 32 lanes, rows g = 0..7. Row r's
 *       banks start at (r·KWG) mod W, so rows with the same r % RPW share the same
 *       bank window; among 8 rows those are 8/RPW rows with consecutive r / RPW,
 *       hence 8/RPW <= NKEY distinct keys. Within the window a lane's element sits
 *       at bank ((c ^ 4·key) mod W) + t: distinct keys give disjoint 4-bank slots,
 *       so 8 rows × 4 lanes hit 32 distinct banks (KWG 8: keys 0,1 for rows
 *       0-3 / 4-7; 16: four keys; >= 32: eight).
 *     double: 8-byte loads are served per half-warp (rows g = 0..3 or 4..7, W = 16
 *       doubles = 128 bytes); the same argument gives 16 distinct 8-byte slots per
 *       half-warp (KWG 4: rows already in distinct windows, NKEY = 1, no swizzle).
 *     cp.async stores: 8 consecutive lanes (128 bytes, one wavefront for 16-byte
 *     stores) write one contiguous 128-byte run of rows, permuted inside each row:
 *     conflict-free too. (A padded pitch KWG+4, as CP_ASYNC=0 uses, is also
 *     conflict-free for the loads at KWG >= 8 but costs 50% more local memory at
 *     KWG = 8 — the double default would need 49920 B in NN, over NVIDIA's 48 KiB —
 *     and a 2-way conflict on the stores; the swizzle needs less memory than the
 *     k-major layout.)
 *   Requires: offA, lda, offB, ldb multiples of CPV (so every source group is
 *   16-byte aligned; clCreateBuffer memory is), KWG a power of two (the swizzle);
 *   the host falls back to CP_VEC=0 for a call that is not aligned. At the edges
 *   a group partly past m, n or k copies its valid elements and zero-fills the
 *   rest (KWG is a multiple of CPV, so groups never straddle a K tile, but may
 *   straddle k in the last one).
 *
 *   local  = (32·(MWG/WM)·(NWG/WN)·WARPS_K, 1, 1)          (reqd_work_group_size)
 *   global = (ceil(n/NWG) · local[0],  ceil(m/MWG), 1)
 *   defaults: double 128×64 tile, 4 warps: local (128,1,1), global (ceil(n/64)·128,
 *             ceil(m/128)); float 128×256 tile, 8 warps: local (256,1,1), global
 *             (ceil(n/256)·256, ceil(m/128)).
 *
 * Work-groups are re-mapped so that SWZ consecutive work-groups walk down SWZ tile
 * rows before moving right (L2 reuse); SWZ=1 disables this.
 *
 * DEFINES (defaults double / float; measured best on the H200 at n=4096–8192)
 *   PRECISION 64|32 (64), TRANSA 0|1 (0), TRANSB 0|1 (0),
 *   MWG 128/128, NWG 64/256, KWG 8/8, WM 64/64, WN 32/64,
 *   CP_ASYNC 1 (0 = register-staged loads, for devices/compilers without cp.async),
 *   STAGES 3 (2..5, CP_ASYNC=1 only), CP_CVTA 0 (1: convert the local pointer with
 *   cvta.to.shared first; both measured correct on the H200),
 *   CP_VEC 0 (1: 16-byte cp.async groups and, for TRANSA=0 / TRANSB=1, swizzled
 *   [m][k] / [n][k] local layouts; needs CP_ASYNC=1, aligned operands and KWG a
 *   power of two — see CP_VEC=1 above), CP_VEC_CG 0 (1: CP_VEC's copies bypass L1),
 *   KM_SWZ 0 (1, CP_VEC=1 only: k-major tiles unpadded and swizzled; see CP_VEC=1),
 *   ISSUE_MIX 0 (1, CP_ASYNC=1 only: the copies of a K tile inside k are spread
 *   between the step's mma.sync instead of all issued before them; see
 *   ISSUE_PART), DOUBLE_BUFFER 1 (CP_ASYNC=0 only), SWZ 8,
 *   double only: MMA_K 4 (8 or 16: the k of each mma.sync; KWG % MMA_K == 0),
 *   PIPE_FRAG 0 (1, CP_ASYNC=1: fragments loaded a K sub-step ahead into a second
 *   register set, the next tile's first before this tile's last mma.sync, with the
 *   step's barrier ahead of them; not yet measured on a GPU — see the main loop),
 *   float only: TF32X3 1, ACC_CHUNK 1, SPLIT_CVT 0, SPLIT_RAW 0 (see PRECISIONS and
 *     SPLIT below),
 *   MMA_EMULATE 0: 1 replaces every mma.sync, cvt and cp.async by portable OpenCL C
 *     that implements the ISA fragment layouts through local memory (slow; any
 *     OpenCL device, e.g. PoCL — tests the fragment index logic off the GPU). A
 *     16-byte group copy (CP_VEC=1) is emulated by copying the valid elements and
 *     zeroing the rest; it writes NaN instead when the source or destination is
 *     not 16-byte aligned (what cp.async requires), so tests catch a host that
 *     picks CP_VEC=1 for unaligned operands,
 *   MMA_ASM asm: the inline-assembly keyword (clang's OpenCL mode wants __asm__),
 *   GRID_Z 0: what work-group dimension 2 (global (…, …, Z), local (…, 1, 1))
 *     selects. 0: nothing (Z = 1). 1 (split-K): group z multiplies the K tiles
 *     [z·kc, (z+1)·kc), kc = ceil(k / (Z·KWG))·KWG (a slice past k multiplies
 *     nothing and writes zeros), and writes alpha times its partial product to
 *     its own slab of C, C + z·m·ldc: the host passes a scratch buffer with
 *     beta = 0 and sums the Z slabs into the real C afterwards
 *     (gemm_splitk_reduce), so the result does not depend on the order in
 *     which the groups run. 2 (batch): group z computes the z-th of Z products
 *     whose operands follow one another densely: A + z·(stored rows)·lda
 *     (m rows for TRANSA=0, k for TRANSA=1), B + z·(k or n)·ldb, C + z·m·ldc.
 *     Either way a group's z never changes what it computes inside its tile,
 *     only where it reads and writes; the offsets keep CP_VEC's alignment
 *     (kc is a multiple of KWG, and the slabs are whole rows).
 *   ZEXP_B 0: 1 (complex GEMM's 4M product without a packed B; TRANSB=0,
 *     CP_VEC=1 only): B is not the k×n real operand itself but the complex
 *     (k/2)×(n/2) matrix whose real expansion it is, stored as its interleaved
 *     parts ((k/2) rows of n reals, leading dimension ldb): op(B)[2p][2j] =
 *     re b, [2p][2j+1] = im b, [2p+1][2j] = −im b, [2p+1][2j+1] = re b for
 *     b = B(p, j). The local B tile holds the KWG/2 complex rows of a K tile
 *     as copied, and the fragment loads form the odd rows from them (the
 *     parts swapped, one negated: exact). k must be even.
 *   Z3M 0: 1 (with ZEXP_B=1, float only; measurements): the 3M method's three
 *     products of the complex A and B (see Z3M below) instead of the 4M real
 *     product on the same tiles; C is the same interleaved complex matrix.
 *     Needs KWG a multiple of 16, WARPS_K dividing KWG/16, WN of 16.
 *   WARPS_K 1: K groups of warps inside a work-group (intra-group split-K).
 *     The group has WARPS_K·(MWG/WM)·(NWG/WN) warps; warp w belongs to K group
 *     w / ((MWG/WM)·(NWG/WN)) and owns that group's warp tile w % …, so every
 *     warp tile is held by WARPS_K warps, and group q multiplies K sub-steps
 *     [q·KSUBW, (q+1)·KSUBW) of every K tile (KSUBW = KWG/k_mma/WARPS_K). After
 *     the K loop the groups' sums are added into group 0's (through the A
 *     stage buffers, in group order), which alone checks for non-finite
 *     results and writes C. A C of few tiles then has several warps a
 *     compute unit on each tile's K without a second launch to sum slabs
 *     (GRID_Z=1). Needs KSUB divisible by WARPS_K, PIPE_FRAG=0.
 * VALID COMBINATIONS (checked with #error): WM % 16 == 0, WN % 8 == 0, MWG % WM == 0,
 *   NWG % WN == 0, KWG % MMA_K (double) / % 8 (float) == 0, MWG·KWG and NWG·KWG divisible
 *   by the thread count, 2 <= STAGES <= 5; CP_VEC=1: CP_ASYNC=1 and KWG a power of
 *   two (the 16-byte groups per tile need not divide by the thread count: the copy
 *   loop is bounds-checked when they do not). Local memory (NVIDIA OpenCL: 48 KiB
 *   per work-group) = NBUF·(A tile + B tile)·sizeof(real), NBUF = STAGES
 *   (CP_ASYNC=1) or 1 + DOUBLE_BUFFER; k-major tiles are KWG·(MWG+PADO) and
 *   KWG·(NWG+PADO) elements, CP_VEC's [m][k] / [n][k] ones (and with KM_SWZ=1 all
 *   of its tiles) MWG·KWG and NWG·KWG.
 *   Defaults: double 3·8·(132+68)·8 = 38400 B, float 3·8·(136+264)·4 = 38400 B.
 *   Bank-conflict-free strides assume MWG, NWG multiples of 16 and KWG of 8.
 * Registers (ptxas, sm_90a, NN): double default 230, no spills; float default 255
 *   with 0–12 bytes of spills depending on the transposes. The H200 database's
 *   entries (2026-11-30, CUDA 13.0 ptxas on the OpenCL PTX, NN): double with
 *   CP_VEC and ISSUE_MIX 209, no spills; float 128×128×16 with
 *   CP_VEC and SPLIT_RAW 255 with 144 bytes of spills.
 * Without MMA_EMULATE the kernel only builds on NVIDIA's OpenCL for sm_80+; the host
 * must select it only there (vendor NVIDIA and compute capability >= 8.0 from
 * cl_nv_device_attribute_query).
 */

#ifndef PRECISION
#define PRECISION 64
#endif
#if PRECISION == 64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
#ifndef MMA_K
#define MMA_K 4
#endif
#if MMA_K != 4 && MMA_K != 8 && MMA_K != 16
#error "gemm_mma: MMA_K must be 4, 8 or 16"
#endif
#define KMMA MMA_K
#define PADO 4
#define DEF_KWG 8
#define DEF_MWG 128
#define DEF_NWG 64
#define DEF_WM 64
#define DEF_WN 32
#elif PRECISION == 32
typedef float real;
#define KMMA 8
#define PADO 8
#define DEF_KWG 8
#define DEF_MWG 128
#define DEF_NWG 256
#define DEF_WM 64
#define DEF_WN 64
#ifndef TF32X3
#define TF32X3 1
#endif
#else
#error "PRECISION must be 32 or 64"
#endif

#ifndef TRANSA
#define TRANSA 0
#endif
#ifndef TRANSB
#define TRANSB 0
#endif
#ifndef MWG
#define MWG DEF_MWG
#endif
#ifndef NWG
#define NWG DEF_NWG
#endif
#ifndef KWG
#define KWG DEF_KWG
#endif
#ifndef WM
#define WM DEF_WM
#endif
#ifndef WN
#define WN DEF_WN
#endif
#ifndef DOUBLE_BUFFER
#define DOUBLE_BUFFER 1
#endif
#ifndef SWZ
#define SWZ 8
#endif
#ifndef MMA_EMULATE
#define MMA_EMULATE 0
#endif
#ifndef CP_ASYNC
#define CP_ASYNC 1
#endif
#ifndef STAGES
#define STAGES 3
#endif
#ifndef CP_CVTA
#define CP_CVTA 0
#endif
#ifndef CP_VEC
#define CP_VEC 0
#endif
#ifndef CP_VEC_CG
#define CP_VEC_CG 0
#endif
#ifndef ISSUE_MIX
#define ISSUE_MIX 0
#endif
#ifndef KM_SWZ
#define KM_SWZ 0
#endif
#ifndef PIPE_FRAG
#define PIPE_FRAG 0
#endif
#ifndef GRID_Z
#define GRID_Z 0
#endif
#ifndef ZEXP_B
#define ZEXP_B 0
#endif
#ifndef WARPS_K
#define WARPS_K 1
#endif
#ifndef Z3M
#define Z3M 0
#endif
#if Z3M && (!ZEXP_B || PRECISION != 32)
#error "gemm_mma: Z3M=1 needs ZEXP_B=1 and PRECISION=32"
#endif
#if ZEXP_B && (TRANSB != 0 || !CP_VEC)
#error "gemm_mma: ZEXP_B=1 needs TRANSB=0 and CP_VEC=1"
#endif
/* rows of the B tile per K tile, and the real k of one of B's stored rows */
#if ZEXP_B
#define KWB (KWG / 2)
#define KDIV 2
#else
#define KWB KWG
#define KDIV 1
#endif
#if GRID_Z < 0 || GRID_Z > 2
#error "gemm_mma: GRID_Z must be 0, 1 or 2"
#endif
#if PIPE_FRAG && (PRECISION != 64 || !CP_ASYNC)
#error "gemm_mma: PIPE_FRAG=1 is for the double kernel with CP_ASYNC=1"
#endif
#if KM_SWZ && !CP_VEC
#error "gemm_mma: KM_SWZ=1 needs CP_VEC=1"
#endif
#if PRECISION == 32
#ifndef ACC_CHUNK
#define ACC_CHUNK 1
#endif
#ifndef SPLIT_CVT
#define SPLIT_CVT 0
#endif
#ifndef SPLIT_RAW
#define SPLIT_RAW 0
#endif
#endif

#define WARPS_M (MWG / WM)
#define WARPS_N (NWG / WN)
#define WARPS_MN (WARPS_M * WARPS_N) /* warps of one K group: the tile once */
#define NWARPS (WARPS_MN * WARPS_K)
#define NTHREADS (32 * NWARPS)
#define FM (WM / 16)
#define FN (WN / 8)
#define KSUB (KWG / KMMA)
#define KSUBW (KSUB / WARPS_K) /* K sub-steps of a K tile per K group */
#define NT_MN (32 * WARPS_MN)     /* work-items of one K group */
#define ACC_E (FM * FN * 4)        /* accumulator elements a work-item */
/* accumulator elements a work-item hands over per round of the K groups' sum:
 * as many as the A stage buffers hold for a K group */
#define RED_E ((NBUF * ASIZE) / NT_MN < ACC_E ? (NBUF * ASIZE) / NT_MN : ACC_E)
#if WARPS_K < 1 || KSUB % WARPS_K
#error "gemm_mma: WARPS_K must divide KWG / the mma's k"
#endif
#if WARPS_K > 1 && PIPE_FRAG
#error "gemm_mma: PIPE_FRAG=1 needs WARPS_K=1"
#endif
#if Z3M && (KWG % 16 || (KWG / 16) % WARPS_K || FN % 2)
#error "gemm_mma: Z3M=1 needs KWG a multiple of 16, WARPS_K dividing KWG/16 and WN a multiple of 16"
#endif

#if (WM % 16) || (WN % 8) || (MWG % WM) || (NWG % WN) || (KWG % KMMA)
#error "gemm_mma: need WM%16==0, WN%8==0, MWG%WM==0, NWG%WN==0, KWG%KMMA==0"
#endif
#if ((MWG * KWG) % NTHREADS) || ((NWG * KWG) % NTHREADS)
#error "gemm_mma: MWG*KWG and NWG*KWG must be multiples of the thread count"
#endif

#define LPT_A ((MWG * KWG) / NTHREADS)
#define LPT_B ((NWG * KWG) / NTHREADS)
#define PADK 4

#if CP_VEC
#if !CP_ASYNC
#error "gemm_mma: CP_VEC=1 needs CP_ASYNC=1"
#endif
#if KWG & (KWG - 1)
#error "gemm_mma: CP_VEC=1 needs KWG a power of two"
#endif
#define CPV (16 / (int)sizeof(real)) /* elements per 16-byte group */
#if PRECISION == 64
#define KSWZ_W 16 /* elements per 128 bytes (one bank sweep) */
#else
#define KSWZ_W 32
#endif
#define KSWZ_RPW (KSWZ_W > KWG ? KSWZ_W / KWG : 1)
#define KSWZ_NKEY ((KWG < KSWZ_W ? KWG : KSWZ_W) / 4)
/* XOR key of local row r of a swizzled [m][k] / [n][k] tile (see CP_VEC=1 above).
 * Unsigned, so that the divisions by powers of two are shifts and masks and the
 * compiler sees that a fragment row wr + 16i + g (A) or wc + 8j + g (B) has the
 * key of g: KSWZ_RPW·KSWZ_NKEY <= 8. */
#define SWZK(r) ((int)((((uint)(r)) / KSWZ_RPW) % KSWZ_NKEY) << 2)
/* XOR key of row kk of a k-major tile ([k][m] for TRANSA=1, [k][n] for TRANSB=0)
 * with 16-byte copies, which keep those tiles unpadded: a fragment load reads
 * rows kk = t (+ 4q) at 8 (float) or 4 (double, per half-warp) consecutive
 * columns; rows whose kk differ in the two low bits get their 32-byte column
 * chunks XORed apart, so the 4 rows fill the 32 banks once. The XOR moves
 * 32-byte chunks inside a 128-byte run, so 16-byte groups stay whole and
 * aligned and 8 lanes' copies still cover one 128-byte run. Needs MWG and NWG
 * multiples of KSWZ_W (128 bytes of elements). */
#define KMSWZ(kk) (((kk) & 3) * (32 / (int)sizeof(real)))
#if KM_SWZ && ((TRANSA == 1 && MWG % KSWZ_W) || (TRANSB == 0 && NWG % KSWZ_W))
#error "gemm_mma: CP_VEC=1 needs the k-major tile widths (MWG for TRANSA=1, NWG for TRANSB=0) multiples of 128 bytes"
#endif
/* 16-byte groups per tile and per thread (the last round bounds-checked when the
 * groups do not divide by the thread count) */
#define GA ((MWG * KWG) / CPV)
#define GB ((NWG * KWB) / CPV)
#define GPT_A ((GA + NTHREADS - 1) / NTHREADS)
#define GPT_B ((GB + NTHREADS - 1) / NTHREADS)
#endif

#if TRANSA == 0 && CP_VEC /* 16-byte groups along k: local [m][k], swizzled */
#define LDAS KWG
#define ASIZE (MWG * KWG)
#define AS_IDX(r, kk) ((r) * KWG + ((kk) ^ SWZK(r)))
#elif TRANSA == 0 && !CP_ASYNC /* A rows contiguous along k: local [m][k] */
#define LDAS (KWG + PADK)
#define ASIZE (MWG * LDAS)
#define AS_IDX(r, kk) ((r) * LDAS + (kk))
#elif KM_SWZ /* 16-byte groups along m: local [k][m], swizzled */
#define LDAS MWG
#define ASIZE (KWG * MWG)
#define AS_IDX(r, kk) ((kk) * MWG + ((r) ^ KMSWZ(kk)))
#else /* local [k][m] */
#define LDAS (MWG + PADO)
#define ASIZE (KWG * LDAS)
#define AS_IDX(r, kk) ((kk) * LDAS + (r))
#endif
#if TRANSB == 1 && CP_VEC /* 16-byte groups along k: local [n][k], swizzled */
#define LDBS KWG
#define BSIZE (NWG * KWG)
#define BS_IDX(kk, c) ((c) * KWG + ((kk) ^ SWZK(c)))
#elif KM_SWZ /* 16-byte groups along n: local [k][n], swizzled */
#define LDBS NWG
#define BSIZE (KWB * NWG)
#define BS_IDX(kk, c) ((kk) * NWG + ((c) ^ KMSWZ(kk)))
#elif TRANSB == 0 || CP_ASYNC /* B rows contiguous along n: local [k][n] */
#define LDBS (NWG + PADO)
#define BSIZE (KWB * LDBS)
#define BS_IDX(kk, c) ((kk) * LDBS + (c))
#else /* local [n][k] */
#define LDBS (KWG + PADK)
#define BSIZE (NWG * LDBS)
#define BS_IDX(kk, c) ((c) * LDBS + (kk))
#endif

/* element (kk, c) of the K tile of op(B) in local tile Bs_ */
#if ZEXP_B
/* odd k: row kk-1's parts swapped, the real one negated (see ZEXP_B) */
#define BS_GET(Bs_, kk, c) ((((kk) & 1) & ~(c)) ? -(Bs_)[BS_IDX((kk) >> 1, (c) ^ 1)] \
    : (Bs_)[BS_IDX((kk) >> 1, (c) ^ ((kk) & 1))])
#else
#define BS_GET(Bs_, kk, c) (Bs_)[BS_IDX(kk, c)]
#endif

#if CP_ASYNC
#define NBUF STAGES
#elif DOUBLE_BUFFER
#define NBUF 2
#else
#define NBUF 1
#endif

/* ------------------------------------------------------------------------ */
/* The matrix instructions                                                   */
/* ------------------------------------------------------------------------ */
#if MMA_EMULATE
/* Per-warp scratch: EA 16×KMMA (row, k), EB KMMA×8 (k, col). Every call is made
 * by all work-items of the group in uniform control flow, so barriers are legal. */
#define EMU_SCR (16 * KMMA + KMMA * 8)
#if PRECISION == 64
/* f64 m16n8k{4,8,16}: a[2q] = A(g, t+4q), a[2q+1] = A(g+8, t+4q), b[q] = B(t+4q, g)
 * (see FRAGMENTS) */
void emu_mma(__local real* S, real* d, const real* a, const real* b, int lane) {
    const int g = lane >> 2, t = lane & 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int q = 0; q < KMMA / 4; q++) {
        S[g * KMMA + t + 4 * q] = a[2 * q];
        S[(g + 8) * KMMA + t + 4 * q] = a[2 * q + 1];
        S[16 * KMMA + (t + 4 * q) * 8 + g] = b[q];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < 4; i++) {
        const int row = g + (i >> 1) * 8, col = 2 * t + (i & 1);
        real acc = d[i];
        for (int q = 0; q < KMMA; q++) acc = fma(S[row * KMMA + q], S[16 * KMMA + q * 8 + col], acc);
        d[i] = acc;
    }
}
#define MMA_F64(d, a, b) emu_mma(scr, (d), (a), (b), lane)
#else
/* A .tf32 operand as the tensor core reads it: the low 13 bits ignored. */
#define EMU_TF32(u) as_float((u) & 0xffffe000u)
void emu_mma(__local real* S, real* d, const uint* a, const uint* b, int lane) {
    const int g = lane >> 2, t = lane & 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    S[g * 8 + t] = EMU_TF32(a[0]);
    S[(g + 8) * 8 + t] = EMU_TF32(a[1]);
    S[g * 8 + t + 4] = EMU_TF32(a[2]);
    S[(g + 8) * 8 + t + 4] = EMU_TF32(a[3]);
    S[128 + t * 8 + g] = EMU_TF32(b[0]);
    S[128 + (t + 4) * 8 + g] = EMU_TF32(b[1]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < 4; i++) {
        const int row = g + (i >> 1) * 8, col = 2 * t + (i & 1);
        real acc = d[i];
        for (int q = 0; q < 8; q++) acc = fma(S[row * 8 + q], S[128 + q * 8 + col], acc);
        d[i] = acc;
    }
}
#define MMA_TF32(d, a, b) emu_mma(scr, (d), (a), (b), lane)
/* round to nearest, ties away from zero, to 10 explicit mantissa bits */
#define CVT_TF32(dst, x) (dst) = ((as_uint(x) + 0x1000u) & 0xffffe000u)
#endif

#else /* real tensor cores */

/* NVIDIA's OpenCL compiler accepts the `asm` keyword (measured); clang's OpenCL
 * mode only `__asm__` (used for offline PTX inspection: -DMMA_ASM=__asm__). */
#ifndef MMA_ASM
#define MMA_ASM asm
#endif

#if PRECISION == 64 && MMA_K == 4
#define MMA_F64(d, a, b) \
    MMA_ASM("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 " \
        "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" \
        : "+d"((d)[0]), "+d"((d)[1]), "+d"((d)[2]), "+d"((d)[3]) \
        : "d"((a)[0]), "d"((a)[1]), "d"((b)[0]))
#elif PRECISION == 64 && MMA_K == 8
#define MMA_F64(d, a, b) \
    MMA_ASM("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 " \
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" \
        : "+d"((d)[0]), "+d"((d)[1]), "+d"((d)[2]), "+d"((d)[3]) \
        : "d"((a)[0]), "d"((a)[1]), "d"((a)[2]), "d"((a)[3]), "d"((b)[0]), "d"((b)[1]))
#elif PRECISION == 64
#define MMA_F64(d, a, b) \
    MMA_ASM("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 " \
        "{%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3};" \
        : "+d"((d)[0]), "+d"((d)[1]), "+d"((d)[2]), "+d"((d)[3]) \
        : "d"((a)[0]), "d"((a)[1]), "d"((a)[2]), "d"((a)[3]), \
          "d"((a)[4]), "d"((a)[5]), "d"((a)[6]), "d"((a)[7]), \
          "d"((b)[0]), "d"((b)[1]), "d"((b)[2]), "d"((b)[3]))
#else
#define MMA_TF32(d, a, b) \
    MMA_ASM("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 " \
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" \
        : "+f"((d)[0]), "+f"((d)[1]), "+f"((d)[2]), "+f"((d)[3]) \
        : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "r"((b)[0]), "r"((b)[1]))
#define CVT_TF32(dst, x) MMA_ASM("cvt.rna.tf32.f32 %0, %1;" : "=r"(dst) : "f"(x))
#endif

#endif /* MMA_EMULATE */

#if PRECISION == 32
/* x -> big (tf32 bits), small = tf32(x - big) (bits).
 * SPLIT_CVT=1: cvt.rna.tf32.f32 for both; SPLIT_CVT=0: the same rounding (nearest,
 * ties away) done with integer add+and, no conversion instruction.
 * SPLIT_RAW=1 (with SPLIT_CVT=0): big as above, small = x - big handed to the
 * tensor core as it is, FP32 bits: the tensor core reads a .tf32 operand's sign,
 * exponent and top 10 mantissa bits and ignores the low 13 (the behaviour
 * CUTLASS's "round_half_ulp_truncate" conversions rely on), so small is truncated,
 * not rounded, to TF32: 2 integer and 1 FP32 operations per element instead of 4
 * and 1. small = x - big is exact, and its sign varies with x, so the truncation
 * error (< 2^-22 |x|) is not biased. Whether this keeps 3xTF32's accuracy is
 * measured with `bench -accuracy`, not assumed. */
#if SPLIT_CVT
#define SPLIT(x, big, small) { const float x_ = (x); CVT_TF32(big, x_); \
    const float r_ = x_ - as_float(big); CVT_TF32(small, r_); }
#elif SPLIT_RAW
#define SPLIT(x, big, small) { const float x_ = (x); \
    (big) = (as_uint(x_) + 0x1000u) & 0xffffe000u; \
    (small) = as_uint(x_ - as_float(big)); }
#else
#define SPLIT(x, big, small) { const float x_ = (x); \
    (big) = (as_uint(x_) + 0x1000u) & 0xffffe000u; \
    const float r_ = x_ - as_float(big); \
    (small) = (as_uint(r_) + 0x1000u) & 0xffffe000u; }
#endif
#endif

/* ------------------------------------------------------------------------ */
/* Asynchronous global -> local copies (CP_ASYNC=1, sm_80+ cp.async)          */
/* ------------------------------------------------------------------------ */
#if CP_ASYNC
#if PRECISION == 64
#define CPSZ "8"
#else
#define CPSZ "4"
#endif
#if STAGES == 2
#define CPWAIT "0"
#elif STAGES == 3
#define CPWAIT "1"
#elif STAGES == 4
#define CPWAIT "2"
#elif STAGES == 5
#define CPWAIT "3"
#else
#error "STAGES must be 2..5"
#endif
#if MMA_EMULATE
#define CP_ELEM(dst, src, ok) { *(dst) = (ok) ? *(src) : (real)0; }
#if CP_VEC
/* cp.async.cg 16 with src-size 8·nv / 4·nv: the nv valid elements, zeros after;
 * NaN where cp.async's 16-byte alignment of dst and src does not hold */
void cp_vec_emu(__local real* dst, __global const real* src, int nv) {
    const bool al = (((ulong)dst | (ulong)src) & 15) == 0;
    for (int e = 0; e < CPV; e++) dst[e] = !al ? (real)NAN : (e < nv ? src[e] : (real)0);
}
#define CP_VEC16(dst, src, nv) cp_vec_emu((dst), (src), (nv))
#endif
#define CP_COMMIT()
#define CP_WAIT()
#else
/* one element; src-size 0 writes a zero and reads nothing. The integer value of a
 * __local pointer is its .shared address on NVIDIA (CP_CVTA=1 treats it as a
 * generic address instead). */
#if CP_CVTA
#define CP_ELEM(dst, src, ok) MMA_ASM volatile("{ .reg .u64 sa_; cvta.to.shared.u64 sa_, %0; " \
    "cp.async.ca.shared.global [sa_], [%1], " CPSZ ", %2; }" \
    :: "l"((ulong)(dst)), "l"((ulong)(src)), "r"((ok) ? (int)sizeof(real) : 0) : "memory")
#else
#define CP_ELEM(dst, src, ok) MMA_ASM volatile("cp.async.ca.shared.global [%0], [%1], " CPSZ ", %2;" \
    :: "l"((ulong)(dst)), "l"((ulong)(src)), "r"((ok) ? (int)sizeof(real) : 0) : "memory")
#endif
/* one 16-byte group of which nv elements are valid: src-size nv·sizeof(real)
 * bytes are read, the rest of the 16 zero-filled (nv = 0: nothing read) */
#if CP_VEC_CG
#define CPVOP "cp.async.cg.shared.global"
#else
#define CPVOP "cp.async.ca.shared.global"
#endif
#if CP_CVTA
#define CP_VEC16(dst, src, nv) MMA_ASM volatile("{ .reg .u64 sa_; cvta.to.shared.u64 sa_, %0; " \
    CPVOP " [sa_], [%1], 16, %2; }" \
    :: "l"((ulong)(dst)), "l"((ulong)(src)), "r"((nv) * (int)sizeof(real)) : "memory")
#else
#define CP_VEC16(dst, src, nv) MMA_ASM volatile(CPVOP " [%0], [%1], 16, %2;" \
    :: "l"((ulong)(dst)), "l"((ulong)(src)), "r"((nv) * (int)sizeof(real)) : "memory")
#endif
#define CP_COMMIT() MMA_ASM volatile("cp.async.commit_group;" ::: "memory")
#define CP_WAIT() MMA_ASM volatile("cp.async.wait_group " CPWAIT ";" ::: "memory")
#endif
/* The copies of a K tile into local stage buffers Ad/Bd. A_GEOM(e) / B_GEOM(e)
 * give this thread's e-th copy of a tile: its row / column and k inside the
 * tile (ra_, ka_ / cb_, kb_), its offset from the tile's first element (oa_ /
 * ob_) and, for 16-byte groups, how many of its elements lie inside m / n (nva_
 * / nvb_). None of it depends on the tile's place along k, so the compiler keeps
 * it out of the K loop. A_NV / B_NV(k0_) say how much of the copy lies inside
 * the matrix for the tile starting at k0_ (elements of a 16-byte group, or
 * whether the element does), A_NV_ALL / B_NV_ALL the same for a tile wholly
 * inside k.
 * Consecutive threads take consecutive global addresses. A copy with nothing
 * inside the matrix reads nothing and gets the buffer base as a (valid,
 * aligned) dummy source. */
#if CP_VEC
/* CPV-element groups; nv = the group's elements inside the matrix (0..CPV) */
#define CLAMP_CPV(x) ((x) <= 0 ? 0 : (x) >= CPV ? CPV : (x))
#if TRANSA == 0 /* groups along k */
#define A_GEOM(e) const int ia_ = tid + (e) * NTHREADS; \
    const int ra_ = ia_ / (KWG / CPV), ka_ = (ia_ % (KWG / CPV)) * CPV; \
    const int nva_ = ra_ < mrem ? CPV : 0, oa_ = ra_ * lda + ka_
#define A_NV(k0_) (ra_ < mrem ? CLAMP_CPV(k - (k0_) - ka_) : 0)
#else /* groups along m */
#define A_GEOM(e) const int ia_ = tid + (e) * NTHREADS; \
    const int ka_ = ia_ / (MWG / CPV), ra_ = (ia_ % (MWG / CPV)) * CPV; \
    const int nva_ = CLAMP_CPV(mrem - ra_), oa_ = ka_ * lda + ra_
#define A_NV(k0_) ((k0_) + ka_ < k ? nva_ : 0)
#endif
#if TRANSB == 0 /* groups along n */
#define B_GEOM(e) const int ib_ = tid + (e) * NTHREADS; \
    const int kb_ = ib_ / (NWG / CPV), cb_ = (ib_ % (NWG / CPV)) * CPV; \
    const int nvb_ = CLAMP_CPV(nrem - cb_), ob_ = kb_ * ldb + cb_
#define B_NV(k0_) ((k0_) / KDIV + kb_ < k / KDIV ? nvb_ : 0)
#else /* groups along k */
#define B_GEOM(e) const int ib_ = tid + (e) * NTHREADS; \
    const int cb_ = ib_ / (KWG / CPV), kb_ = (ib_ % (KWG / CPV)) * CPV; \
    const int nvb_ = cb_ < nrem ? CPV : 0, ob_ = cb_ * ldb + kb_
#define B_NV(k0_) (cb_ < nrem ? CLAMP_CPV(k - (k0_) - kb_) : 0)
#endif
#define A_NV_ALL nva_
#define B_NV_ALL nvb_
#define NCPA GPT_A
#define NCPB GPT_B
/* copy e of the tile whose first element An / Bn is, NV of its elements valid */
#define ISSUE_A1(Ad, An, e, NV) { A_GEOM(e); if (GA % NTHREADS == 0 || ia_ < GA) { \
    const int nv_ = NV; \
    CP_VEC16((Ad) + AS_IDX(ra_, ka_), nv_ > 0 ? (An) + oa_ : A, nv_); } }
#define ISSUE_B1(Bd, Bn, e, NV) { B_GEOM(e); if (GB % NTHREADS == 0 || ib_ < GB) { \
    const int nv_ = NV; \
    CP_VEC16((Bd) + BS_IDX(kb_, cb_), nv_ > 0 ? (Bn) + ob_ : B, nv_); } }
#else /* CP_VEC=0: one element per copy, both operands k-major */
#if TRANSA == 0
#define A_GEOM(e) const int ia_ = tid + (e) * NTHREADS, ka_ = ia_ % KWG, ra_ = ia_ / KWG; \
    const int oa_ = ra_ * lda + ka_
#else
#define A_GEOM(e) const int ia_ = tid + (e) * NTHREADS, ra_ = ia_ % MWG, ka_ = ia_ / MWG; \
    const int oa_ = ka_ * lda + ra_
#endif
#if TRANSB == 0
#define B_GEOM(e) const int ib_ = tid + (e) * NTHREADS, cb_ = ib_ % NWG, kb_ = ib_ / NWG; \
    const int ob_ = kb_ * ldb + cb_
#else
#define B_GEOM(e) const int ib_ = tid + (e) * NTHREADS, kb_ = ib_ % KWG, cb_ = ib_ / KWG; \
    const int ob_ = cb_ * ldb + kb_
#endif
#define A_NV(k0_) (ra_ < mrem && (k0_) + ka_ < k)
#define B_NV(k0_) (cb_ < nrem && (k0_) + kb_ < k)
#define A_NV_ALL (ra_ < mrem)
#define B_NV_ALL (cb_ < nrem)
#define NCPA LPT_A
#define NCPB LPT_B
#define ISSUE_A1(Ad, An, e, NV) { A_GEOM(e); const bool ok_ = NV; \
    CP_ELEM((Ad) + AS_IDX(ra_, ka_), ok_ ? (An) + oa_ : A, ok_); }
#define ISSUE_B1(Bd, Bn, e, NV) { B_GEOM(e); const bool ok_ = NV; \
    CP_ELEM((Bd) + BS_IDX(kb_, cb_), ok_ ? (Bn) + ob_ : B, ok_); }
#endif /* CP_VEC */
/* the first element of the K tile starting at k0_ */
#if TRANSA == 0
#define A_AT(k0_) (Ap + (k0_))
#else
#define A_AT(k0_) (Ap + (long)(k0_) * lda)
#endif
#if TRANSB == 0
#define B_AT(k0_) (Bp + (long)((k0_) / KDIV) * ldb)
#else
#define B_AT(k0_) (Bp + (k0_))
#endif
/* every copy of K tile kt_, checked against k */
#define ISSUE_A(Ad, kt_) { const int k0_ = (kt_) * KWG; __global const real* At_ = A_AT(k0_); \
    _Pragma("unroll") for (int e = 0; e < NCPA; e++) ISSUE_A1(Ad, At_, e, A_NV(k0_)); }
#define ISSUE_B(Bd, kt_) { const int k0_ = (kt_) * KWG; __global const real* Bt_ = B_AT(k0_); \
    _Pragma("unroll") for (int e = 0; e < NCPB; e++) ISSUE_B1(Bd, Bt_, e, B_NV(k0_)); }

/* ISSUE_MIX=1: the copies of a K tile that lies wholly inside k are issued in
 * NQ parts between the tensor-core instructions of the step before, so a warp's
 * copy work fills the issue slots its mma.sync leave idle instead of delaying
 * the first mma.sync after every barrier. Such a tile needs no k check (NV_ALL);
 * An / Bn point at its first element and advance one K tile per step. Part q
 * holds A's copies e with e % NQ == q and B's with (NCPA + e) % NQ == q (q and
 * NQ are constants: the rest unrolls away). */
#define ISSUE_PART(Ad, Bd, An, Bn, q, NQ) { \
    _Pragma("unroll") for (int e = 0; e < NCPA; e++) if (e % (NQ) == (q)) ISSUE_A1(Ad, An, e, A_NV_ALL); \
    _Pragma("unroll") for (int e = 0; e < NCPB; e++) if ((NCPA + e) % (NQ) == (q)) ISSUE_B1(Bd, Bn, e, B_NV_ALL); }
#endif /* CP_ASYNC */

/* ------------------------------------------------------------------------ */
/* Global -> registers -> local                                              */
/* ------------------------------------------------------------------------ */
/* Load the KWG-slice starting at k0 of the A and B tiles into ra/rb. Ap/Bp point at
 * the tile's (0, k0) element. Consecutive work-items read consecutive addresses. */
#if TRANSA == 0
#define LOAD_A(ra, Ap, k0) { \
    _Pragma("unroll") for (int e = 0; e < LPT_A; e++) { \
        const int idx = tid + e * NTHREADS, kk = idx % KWG, r = idx / KWG; \
        const bool ok = (r < mrem) && (k0 + kk < k); \
        ra[e] = ok ? Ap[r * lda + kk] : (real)0; } }
#define STORE_A(ra, As) { \
    _Pragma("unroll") for (int e = 0; e < LPT_A; e++) { \
        const int idx = tid + e * NTHREADS; \
        As[AS_IDX(idx / KWG, idx % KWG)] = ra[e]; } }
#define STEP_A(Ap) (Ap) += KWG
#else
#define LOAD_A(ra, Ap, k0) { \
    _Pragma("unroll") for (int e = 0; e < LPT_A; e++) { \
        const int idx = tid + e * NTHREADS, r = idx % MWG, kk = idx / MWG; \
        const bool ok = (r < mrem) && (k0 + kk < k); \
        ra[e] = ok ? Ap[kk * lda + r] : (real)0; } }
#define STORE_A(ra, As) { \
    _Pragma("unroll") for (int e = 0; e < LPT_A; e++) { \
        const int idx = tid + e * NTHREADS; \
        As[AS_IDX(idx % MWG, idx / MWG)] = ra[e]; } }
#define STEP_A(Ap) (Ap) += (long)KWG * lda
#endif

#if TRANSB == 0
#define LOAD_B(rb, Bp, k0) { \
    _Pragma("unroll") for (int e = 0; e < LPT_B; e++) { \
        const int idx = tid + e * NTHREADS, c = idx % NWG, kk = idx / NWG; \
        const bool ok = (c < nrem) && (k0 + kk < k); \
        rb[e] = ok ? Bp[kk * ldb + c] : (real)0; } }
#define STORE_B(rb, Bs) { \
    _Pragma("unroll") for (int e = 0; e < LPT_B; e++) { \
        const int idx = tid + e * NTHREADS; \
        Bs[BS_IDX(idx / NWG, idx % NWG)] = rb[e]; } }
#define STEP_B(Bp) (Bp) += (long)KWG * ldb
#else
#define LOAD_B(rb, Bp, k0) { \
    _Pragma("unroll") for (int e = 0; e < LPT_B; e++) { \
        const int idx = tid + e * NTHREADS, kk = idx % KWG, c = idx / KWG; \
        const bool ok = (c < nrem) && (k0 + kk < k); \
        rb[e] = ok ? Bp[c * ldb + kk] : (real)0; } }
#define STORE_B(rb, Bs) { \
    _Pragma("unroll") for (int e = 0; e < LPT_B; e++) { \
        const int idx = tid + e * NTHREADS; \
        Bs[BS_IDX(idx % KWG, idx / KWG)] = rb[e]; } }
#define STEP_B(Bp) (Bp) += KWG
#endif

/* ------------------------------------------------------------------------ */
/* One KWG slice: all fragments of this warp from local memory, then mma       */
/* ------------------------------------------------------------------------ */
/* HOOK(q, NQ) runs after the tensor-core instructions of part q of NQ of the
 * slice (NO_HOOK: nothing; ISSUE_MIX's main loop passes a part of the copies). */
#define NO_HOOK(q, NQ)
#define COMPUTE(As, Bs) COMPUTE_H(As, Bs, NO_HOOK)
#if PRECISION == 64
/* FRAG64: this warp's fragments of K sub-step s_ of the tile in As_/Bs_ into
 * fa_[FM][KMMA/2] and fb_[FN][KMMA/4]. MMA64: their mma.sync, HOOK(q0 + i, NQ)
 * after row i. */
#define FRAG64(fa_, fb_, As_, Bs_, s_) { \
    const int kk = (ks0 + (s_)) * KMMA + t; \
    _Pragma("unroll") for (int i = 0; i < FM; i++) \
    _Pragma("unroll") for (int q = 0; q < KMMA / 4; q++) { \
        fa_[i][2 * q] = (As_)[AS_IDX(wr + i * 16 + g, kk + 4 * q)]; \
        fa_[i][2 * q + 1] = (As_)[AS_IDX(wr + i * 16 + g + 8, kk + 4 * q)]; } \
    _Pragma("unroll") for (int j = 0; j < FN; j++) \
    _Pragma("unroll") for (int q = 0; q < KMMA / 4; q++) \
        fb_[j][q] = BS_GET(Bs_, kk + 4 * q, wc + j * 8 + g); }
#define MMA64(fa_, fb_, HOOK, q0, NQ) { \
    _Pragma("unroll") for (int i = 0; i < FM; i++) { \
        _Pragma("unroll") for (int j = 0; j < FN; j++) \
            MMA_F64(acc[i][j], fa_[i], fb_[j]); \
        HOOK((q0) + i, NQ); } }
#define COMPUTE_H(As, Bs, HOOK) { \
    _Pragma("unroll") for (int s = 0; s < KSUBW; s++) { \
        real fa[FM][KMMA / 2], fb[FN][KMMA / 4]; \
        FRAG64(fa, fb, As, Bs, s); \
        MMA64(fa, fb, HOOK, s * FM, KSUBW * FM); } }
/* PIPE_FRAG=1: the fragments of K sub-step s live in register set s & 1 of
 * fa[2]/fb[2] (see the main loop). */
#define LOADF(As_, Bs_, s_, set_) FRAG64(fa[set_], fb[set_], As_, Bs_, s_)
#define MMAF(set_, HOOK, q0, NQ) MMA64(fa[set_], fb[set_], HOOK, q0, NQ)
#else
#if TF32X3
#define MMA3(d, a, b) MMA_TF32(d, a, b)
#else
#define MMA3(d, a, b) {}
#endif
#if Z3M
/* Z3M=1: the 3M method's three products formed from the complex tiles as
 * ZEXP_B copies them (A: MWG rows of KWG/2 interleaved complex elements; B:
 * KWG/2 complex rows of NWG/2 interleaved ones), in sub-steps of 8 complex k:
 * T1 = Ar·Br, T2 = Ai·Bi, T3 = (Ar+Ai)·(Br+Bi), each in 3xTF32 into a zeroed
 * temporary per K tile, then Re += T1 − T2 and Im += (T3 − T1) − T2 with
 * FP32 adds. A quarter fewer mma.sync than the 4M product on the same tiles;
 * the imaginary part's rounding error follows |Ar|+|Ai| and |Br|+|Bi| rather
 * than the parts. acc[i][j] holds the real parts of complex 8-column
 * fragment j < FNC and acc[i][FNC + j] its imaginary parts (ACC_COL). */
#define KSUBZW (KWG / 16 / WARPS_K)
#define FNC (FN / 2)
#define AZ(As_, r, kc, p) (As_)[AS_IDX(r, 2 * (kc) + (p))]
#define BZ(Bs_, kc, cz, p) (Bs_)[BS_IDX(kc, 2 * (cz) + (p))]
/* the three products' operands from an element's parts: big and small of
 * re, im and re + im */
#define SPLIT3(re_, im_, big_, small_) { const float r3_ = (re_), i3_ = (im_); \
    SPLIT(r3_, big_[0], small_[0]); SPLIT(i3_, big_[1], small_[1]); \
    SPLIT(r3_ + i3_, big_[2], small_[2]); }
#define COMPUTE_H(As, Bs, HOOK) { \
    uint bb[KSUBZW][FNC][2][3], bs_[KSUBZW][FNC][2][3]; \
    _Pragma("unroll") for (int s = 0; s < KSUBZW; s++) { \
        const int kc = (wk * KSUBZW + s) * 8 + t; \
        _Pragma("unroll") for (int j = 0; j < FNC; j++) { \
            const int cz = wc / 2 + j * 8 + g; \
            _Pragma("unroll") for (int h = 0; h < 2; h++) \
                SPLIT3(BZ(Bs, kc + 4 * h, cz, 0), BZ(Bs, kc + 4 * h, cz, 1), bb[s][j][h], bs_[s][j][h]); } } \
    _Pragma("unroll") for (int i = 0; i < FM; i++) { \
        uint ab[KSUBZW][4][3], as_[KSUBZW][4][3]; \
        float tmp[3][FNC][4]; \
        _Pragma("unroll") for (int s = 0; s < KSUBZW; s++) { \
            const int kc = (wk * KSUBZW + s) * 8 + t, r = wr + i * 16 + g; \
            SPLIT3(AZ(As, r, kc, 0), AZ(As, r, kc, 1), ab[s][0], as_[s][0]); \
            SPLIT3(AZ(As, r + 8, kc, 0), AZ(As, r + 8, kc, 1), ab[s][1], as_[s][1]); \
            SPLIT3(AZ(As, r, kc + 4, 0), AZ(As, r, kc + 4, 1), ab[s][2], as_[s][2]); \
            SPLIT3(AZ(As, r + 8, kc + 4, 0), AZ(As, r + 8, kc + 4, 1), ab[s][3], as_[s][3]); } \
        _Pragma("unroll") for (int z = 0; z < 3; z++) \
        _Pragma("unroll") for (int j = 0; j < FNC; j++) { \
            tmp[z][j][0] = 0.0f; tmp[z][j][1] = 0.0f; tmp[z][j][2] = 0.0f; tmp[z][j][3] = 0.0f; } \
        /* the small cross terms first, then big·big, as the real kernel does */ \
        _Pragma("unroll") for (int pass = 0; pass < 2; pass++) \
        _Pragma("unroll") for (int s = 0; s < KSUBZW; s++) \
        _Pragma("unroll") for (int z = 0; z < 3; z++) { \
            const uint fab[4] = {ab[s][0][z], ab[s][1][z], ab[s][2][z], ab[s][3][z]}; \
            const uint fas[4] = {as_[s][0][z], as_[s][1][z], as_[s][2][z], as_[s][3][z]}; \
            _Pragma("unroll") for (int j = 0; j < FNC; j++) { \
                const uint fbb[2] = {bb[s][j][0][z], bb[s][j][1][z]}; \
                const uint fbs[2] = {bs_[s][j][0][z], bs_[s][j][1][z]}; \
                if (pass == 0) { MMA3(tmp[z][j], fab, fbs); MMA3(tmp[z][j], fas, fbb); } \
                else MMA_TF32(tmp[z][j], fab, fbb); } } \
        HOOK(i, FM); \
        _Pragma("unroll") for (int j = 0; j < FNC; j++) \
        _Pragma("unroll") for (int c = 0; c < 4; c++) { \
            acc[i][j][c] += tmp[0][j][c] - tmp[1][j][c]; \
            acc[i][FNC + j][c] += (tmp[2][j][c] - tmp[0][j][c]) - tmp[1][j][c]; } } }
#elif !ACC_CHUNK
/* all three products accumulate straight into acc (the tensor core's own FP32
 * accumulation, which rounds toward zero: ~20x the error of an FMA GEMM) */
#define COMPUTE_H(As, Bs, HOOK) { \
    _Pragma("unroll") for (int s = 0; s < KSUBW; s++) { \
        const int kk = (ks0 + s) * KMMA + t; \
        uint ab[FM][4], as_[FM][4], bb[FN][2], bs_[FN][2]; \
        _Pragma("unroll") for (int i = 0; i < FM; i++) { \
            SPLIT(As[AS_IDX(wr + i * 16 + g, kk)], ab[i][0], as_[i][0]); \
            SPLIT(As[AS_IDX(wr + i * 16 + g + 8, kk)], ab[i][1], as_[i][1]); \
            SPLIT(As[AS_IDX(wr + i * 16 + g, kk + 4)], ab[i][2], as_[i][2]); \
            SPLIT(As[AS_IDX(wr + i * 16 + g + 8, kk + 4)], ab[i][3], as_[i][3]); } \
        _Pragma("unroll") for (int j = 0; j < FN; j++) { \
            SPLIT(BS_GET(Bs, kk, wc + j * 8 + g), bb[j][0], bs_[j][0]); \
            SPLIT(BS_GET(Bs, kk + 4, wc + j * 8 + g), bb[j][1], bs_[j][1]); } \
        _Pragma("unroll") for (int i = 0; i < FM; i++) { \
            _Pragma("unroll") for (int j = 0; j < FN; j++) MMA3(acc[i][j], ab[i], bs_[j]); \
            HOOK(s * FM + i, KSUBW * FM); } \
        _Pragma("unroll") for (int i = 0; i < FM; i++) { \
            _Pragma("unroll") for (int j = 0; j < FN; j++) MMA3(acc[i][j], as_[i], bb[j]); } \
        _Pragma("unroll") for (int i = 0; i < FM; i++) { \
            _Pragma("unroll") for (int j = 0; j < FN; j++) MMA_TF32(acc[i][j], ab[i], bb[j]); } } }
#else
/* ACC_CHUNK=1: the products of one KWG slice are summed by the tensor cores into a
 * zeroed temporary, which is then added to acc with IEEE FP32 adds: the
 * tensor core's truncating accumulation only ever sees KWG terms. */
#define COMPUTE_H(As, Bs, HOOK) { \
    uint bb[KSUBW][FN][2], bs_[KSUBW][FN][2]; \
    _Pragma("unroll") for (int s = 0; s < KSUBW; s++) { \
        const int kk = (ks0 + s) * KMMA + t; \
        _Pragma("unroll") for (int j = 0; j < FN; j++) { \
            SPLIT(BS_GET(Bs, kk, wc + j * 8 + g), bb[s][j][0], bs_[s][j][0]); \
            SPLIT(BS_GET(Bs, kk + 4, wc + j * 8 + g), bb[s][j][1], bs_[s][j][1]); } } \
    _Pragma("unroll") for (int i = 0; i < FM; i++) { \
        uint ab[KSUBW][4], as_[KSUBW][4]; \
        float tmp[FN][4]; \
        _Pragma("unroll") for (int s = 0; s < KSUBW; s++) { \
            const int kk = (ks0 + s) * KMMA + t; \
            SPLIT(As[AS_IDX(wr + i * 16 + g, kk)], ab[s][0], as_[s][0]); \
            SPLIT(As[AS_IDX(wr + i * 16 + g + 8, kk)], ab[s][1], as_[s][1]); \
            SPLIT(As[AS_IDX(wr + i * 16 + g, kk + 4)], ab[s][2], as_[s][2]); \
            SPLIT(As[AS_IDX(wr + i * 16 + g + 8, kk + 4)], ab[s][3], as_[s][3]); } \
        _Pragma("unroll") for (int j = 0; j < FN; j++) { \
            tmp[j][0] = 0.0f; tmp[j][1] = 0.0f; tmp[j][2] = 0.0f; tmp[j][3] = 0.0f; } \
        _Pragma("unroll") for (int s = 0; s < KSUBW; s++) { \
            _Pragma("unroll") for (int j = 0; j < FN; j++) MMA3(tmp[j], ab[s], bs_[s][j]); \
            _Pragma("unroll") for (int j = 0; j < FN; j++) MMA3(tmp[j], as_[s], bb[s][j]); } \
        _Pragma("unroll") for (int s = 0; s < KSUBW; s++) { \
            _Pragma("unroll") for (int j = 0; j < FN; j++) MMA_TF32(tmp[j], ab[s], bb[s][j]); } \
        HOOK(i, FM); \
        _Pragma("unroll") for (int j = 0; j < FN; j++) { \
            acc[i][j][0] += tmp[j][0]; acc[i][j][1] += tmp[j][1]; \
            acc[i][j][2] += tmp[j][2]; acc[i][j][3] += tmp[j][3]; } } }
#endif
#endif

__kernel __attribute__((reqd_work_group_size(NTHREADS, 1, 1)))
void gemm_mma(const int m, const int n, const int kall, const real alpha,
              __global const real* restrict A, const int offA, const int lda,
              __global const real* restrict B, const int offB, const int ldb,
              const real beta, __global real* C, const int offC, const int ldc)
{
#if GRID_Z == 1
    /* split-K: this group's K slice (see GRID_Z) */
    const int zk_ = (int)get_group_id(2), nz_ = (int)get_num_groups(2);
    const int kc_ = ((kall + nz_ * KWG - 1) / (nz_ * KWG)) * KWG;
    const int k0z_ = min(zk_ * kc_, kall);
    const int k = min(kc_, kall - k0z_);
#if TRANSA == 0
    A += k0z_;
#else
    A += (long)k0z_ * lda;
#endif
#if TRANSB == 0
    B += (long)(k0z_ / KDIV) * ldb;
#else
    B += k0z_;
#endif
    C += (long)zk_ * m * ldc;
#elif GRID_Z == 2
    /* batch: this group's product (see GRID_Z) */
    const long zb_ = (long)get_group_id(2);
    const int k = kall;
    A += zb_ * (TRANSA == 0 ? m : k) * lda;
    B += zb_ * (TRANSB == 0 ? k / KDIV : n) * ldb;
    C += zb_ * m * ldc;
#else
    const int k = kall;
#endif
    /* 16-byte aligned: CP_VEC's cp.async groups need it (every stage and row
     * offset is a multiple of 16 bytes) */
    __local real Asm[NBUF * ASIZE] __attribute__((aligned(16)));
    __local real Bsm[NBUF * BSIZE] __attribute__((aligned(16)));
#if PRECISION == 32 && TF32X3 && !NO_EXACT_REDO
#endif

    const int tid = (int)get_local_id(0);
    const int warp = tid >> 5, lane = tid & 31;
    const int g = lane >> 2, t = lane & 3;
    /* K group wk of the warp: it multiplies K sub-steps [ks0, ks0 + KSUBW) of
     * every K tile (see WARPS_K), for the warp tile at (wr, wc) */
#if WARPS_K > 1
    const int wk = warp / WARPS_MN, wt = warp % WARPS_MN;
    const int ks0 = wk * KSUBW;
#else
    const int wk = 0, wt = warp, ks0 = 0; /* compile-time: the code of one K group */
#endif
    const int wr = (wt / WARPS_N) * WM; /* warp tile origin inside the group tile */
    const int wc = (wt % WARPS_N) * WN;
#if MMA_EMULATE
    __local real emu_scr[NWARPS * EMU_SCR];
    __local real* scr = emu_scr + warp * EMU_SCR;
#endif

    /* tile coordinates, grouped by SWZ tile rows for L2 reuse */
    const int ntn = (int)get_num_groups(0), ntm = (int)get_num_groups(1);
    int tm, tn;
#if SWZ > 1
    {
        const int lin = (int)get_group_id(1) * ntn + (int)get_group_id(0);
        const int per = SWZ * ntn, first = (lin / per) * SWZ;
        const int gm = min(ntm - first, SWZ), q = lin % per;
        tm = first + q % gm;
        tn = q / gm;
    }
#else
    tm = (int)get_group_id(1);
    tn = (int)get_group_id(0);
#endif
    const int m0 = tm * MWG, n0 = tn * NWG;
    const int mrem = m - m0, nrem = n - n0;

#if TRANSA == 0
    __global const real* Ap = A + offA + (long)m0 * lda;
#else
    __global const real* Ap = A + offA + m0;
#endif
#if TRANSB == 0
    __global const real* Bp = B + offB + n0;
#else
    __global const real* Bp = B + offB + (long)n0 * ldb;
#endif

    real acc[FM][FN][4];
    _Pragma("unroll") for (int i = 0; i < FM; i++)
    _Pragma("unroll") for (int j = 0; j < FN; j++)
    _Pragma("unroll") for (int c = 0; c < 4; c++) acc[i][j][c] = (real)0;

    const int nk = (k + KWG - 1) / KWG;
#if CP_ASYNC
    /* STAGES-deep ring of local buffers filled by cp.async; one barrier per step.
     * At step kt the copies of tile kt+STAGES-1 go into the buffer that held tile
     * kt-1, which every warp finished reading before this step's barrier. */
    _Pragma("unroll") for (int st = 0; st < STAGES - 1; st++) {
        if (st < nk) {
            ISSUE_A(Asm + st * ASIZE, st);
            ISSUE_B(Bsm + st * BSIZE, st);
        }
        CP_COMMIT();
    }
    int rs = 0, ws = STAGES - 1;
#if ISSUE_MIX || PIPE_FRAG
    /* the first element of the K tile copied next (tile kt+STAGES-1), and one
     * K tile's step */
    __global const real* An = A_AT((STAGES - 1) * KWG);
    __global const real* Bn = B_AT((STAGES - 1) * KWG);
    const long stepA = A_AT(KWG) - Ap, stepB = B_AT(KWG) - Bp;
#endif
#if PIPE_FRAG
    /* The barrier of each step sits before its last K sub-step: once every
     * warp has loaded the fragments of tile kt's last sub-step (so it has left
     * tile kt) and the copies of tile kt+1 have landed, each warp loads tile
     * kt+1's first fragments and only then issues tile kt's last mma.sync, so
     * the next step starts with its fragments in registers. The copies of tile
     * kt+STAGES-1 go into the buffer tile kt-1 left, during the sub-steps
     * before the last (spread between their mma.sync rows with ISSUE_MIX), and
     * are committed before that barrier's wait: the ring and the wait count are
     * those of the loop below. */
    real fa[2][FM][KMMA / 2], fb[2][FN][KMMA / 4];
    CP_WAIT();
    barrier(CLK_LOCAL_MEM_FENCE);
    if (nk > 0) LOADF(Asm, Bsm, 0, 0);
    for (int kt = 0; kt < nk; kt++) {
        __local const real* As = Asm + rs * ASIZE;
        __local const real* Bs = Bsm + rs * BSIZE;
        __local real* Ad = Asm + ws * ASIZE;
        __local real* Bd = Bsm + ws * BSIZE;
        const int nx = (rs + 1 == STAGES) ? 0 : rs + 1; /* tile kt+1's buffer */
        /* spread copies need a sub-step before the last and a tile inside k */
        const bool mix = ISSUE_MIX && KSUB > 1 && (kt + STAGES) * KWG <= k;
        if (!mix && kt + STAGES - 1 < nk) {
            ISSUE_A(Ad, kt + STAGES - 1);
            ISSUE_B(Bd, kt + STAGES - 1);
        }
#define PIPE_HOOK(q, NQ) if (mix) ISSUE_PART(Ad, Bd, An, Bn, q, NQ)
        _Pragma("unroll") for (int s = 0; s < KSUB; s++) {
            if (s + 1 < KSUB) {
                LOADF(As, Bs, s + 1, (s + 1) & 1);
                MMAF(s & 1, PIPE_HOOK, s * FM, (KSUB - 1) * FM);
            } else {
                CP_COMMIT();
                CP_WAIT();                    /* tile kt+1 landed (this thread's copies) */
                barrier(CLK_LOCAL_MEM_FENCE); /* everyone's; everyone left tile kt */
                if (kt + 1 < nk) LOADF(Asm + nx * ASIZE, Bsm + nx * BSIZE, 0, KSUB & 1);
                MMAF(s & 1, NO_HOOK, 0, 1);
            }
        }
#undef PIPE_HOOK
#if KSUB & 1
        /* an odd sub-step count leaves tile kt+1's first fragments in set 1 */
        _Pragma("unroll") for (int i = 0; i < FM; i++)
        _Pragma("unroll") for (int q = 0; q < KMMA / 2; q++) fa[0][i][q] = fa[1][i][q];
        _Pragma("unroll") for (int j = 0; j < FN; j++)
        _Pragma("unroll") for (int q = 0; q < KMMA / 4; q++) fb[0][j][q] = fb[1][j][q];
#endif
        An += stepA;
        Bn += stepB;
        rs = nx;
        ws = (ws + 1 == STAGES) ? 0 : ws + 1;
    }
#else
    for (int kt = 0; kt < nk; kt++) {
        CP_WAIT();                       /* this thread's copies of tile kt landed */
        barrier(CLK_LOCAL_MEM_FENCE);    /* everyone's did; everyone left tile kt-1 */
        {
            __local const real* As = Asm + rs * ASIZE;
            __local const real* Bs = Bsm + rs * BSIZE;
#if ISSUE_MIX
            __local real* Ad = Asm + ws * ASIZE;
            __local real* Bd = Bsm + ws * BSIZE;
            if ((kt + STAGES) * KWG <= k) { /* the next tile exists, inside k */
#define MIX_HOOK(q, NQ) ISSUE_PART(Ad, Bd, An, Bn, q, NQ)
                COMPUTE_H(As, Bs, MIX_HOOK);
#undef MIX_HOOK
            } else {
                if (kt + STAGES - 1 < nk) {
                    ISSUE_A(Ad, kt + STAGES - 1);
                    ISSUE_B(Bd, kt + STAGES - 1);
                }
                COMPUTE(As, Bs);
            }
            CP_COMMIT();
            An += stepA;
            Bn += stepB;
#else
            if (kt + STAGES - 1 < nk) {
                ISSUE_A(Asm + ws * ASIZE, kt + STAGES - 1);
                ISSUE_B(Bsm + ws * BSIZE, kt + STAGES - 1);
            }
            CP_COMMIT();
            COMPUTE(As, Bs);
#endif
        }
        rs = (rs + 1 == STAGES) ? 0 : rs + 1;
        ws = (ws + 1 == STAGES) ? 0 : ws + 1;
    }
#endif /* PIPE_FRAG */
#else
    real ra[LPT_A], rb[LPT_B];

    LOAD_A(ra, Ap, 0);
    LOAD_B(rb, Bp, 0);
    STORE_A(ra, Asm);
    STORE_B(rb, Bsm);
    barrier(CLK_LOCAL_MEM_FENCE);

#if DOUBLE_BUFFER
    for (int kt = 0; kt < nk; kt++) {
        const int cur = kt & 1;
        __local const real* As = Asm + cur * ASIZE;
        __local const real* Bs = Bsm + cur * BSIZE;
        if (kt + 1 < nk) {
            const int k0 = (kt + 1) * KWG;
            STEP_A(Ap);
            STEP_B(Bp);
            LOAD_A(ra, Ap, k0);
            LOAD_B(rb, Bp, k0);
        }
        COMPUTE(As, Bs);
        if (kt + 1 < nk) {
            __local real* An = Asm + (cur ^ 1) * ASIZE;
            __local real* Bn = Bsm + (cur ^ 1) * BSIZE;
            STORE_A(ra, An);
            STORE_B(rb, Bn);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#else
    for (int kt = 0; kt < nk; kt++) {
        if (kt + 1 < nk) {
            const int k0 = (kt + 1) * KWG;
            STEP_A(Ap);
            STEP_B(Bp);
            LOAD_A(ra, Ap, k0);
            LOAD_B(rb, Bp, k0);
        }
        COMPUTE(Asm, Bsm);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (kt + 1 < nk) {
            STORE_A(ra, Asm);
            STORE_B(rb, Bsm);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
#endif

#endif /* CP_ASYNC */

    /* the column inside the group's tile of acc[i][j][c] (Z3M: the real or
     * imaginary part, j / FNC, of complex column wc/2 + (j % FNC)·8 + 2t + (c & 1)) */
#if Z3M
#define ACC_COL(j, c) (2 * (wc / 2 + ((j) % FNC) * 8 + 2 * t + ((c) & 1)) + (j) / FNC)
#else
#define ACC_COL(j, c) (wc + (j) * 8 + 2 * t + ((c) & 1))
#endif

#if WARPS_K > 1
    /* K groups 1 .. WARPS_K-1 hand their sums to group 0 through the A stage
     * buffers (no copy is in flight: the loop waited for the last tile), in
     * rounds of RED_E accumulator elements a work-item, and group 0 adds them
     * in group order. The first barrier of each round also means every warp
     * has left the stage buffers, or group 0 has read the round before. */
#if RED_E < 1
#error "gemm_mma: the A stage buffers hold less than one element a work-item of a K group"
#endif
    {
        __local real* red = Asm;
        const int tmn = tid % NT_MN; /* = wt·32 + lane: the same in every group */
        _Pragma("unroll") for (int e0 = 0; e0 < ACC_E; e0 += RED_E) {
            for (int r = 1; r < WARPS_K; r++) {
                barrier(CLK_LOCAL_MEM_FENCE);
                if (wk == r) {
                    _Pragma("unroll") for (int e = e0; e < e0 + RED_E && e < ACC_E; e++)
                        red[(e - e0) * NT_MN + tmn] = acc[e / (FN * 4)][(e / 4) % FN][e % 4];
                }
                barrier(CLK_LOCAL_MEM_FENCE);
                if (wk == 0) {
                    _Pragma("unroll") for (int e = e0; e < e0 + RED_E && e < ACC_E; e++)
                        acc[e / (FN * 4)][(e / 4) % FN][e % 4] += red[(e - e0) * NT_MN + tmn];
                }
            }
        }
    }
#endif

#if PRECISION == 32 && TF32X3 && !NO_EXACT_REDO
    /* Non-finite inputs break 3xTF32: x = ±Inf splits into big = ±Inf and
     * small = Inf − Inf = NaN, and big·small cross terms make Inf·0 = NaN where
     * an FP32 GEMM gives ±Inf; |x| within 2^-11 of FLT_MAX rounds its big part
     * to Inf. Every such case leaves a non-finite value in acc, so a tile with
     * one is computed again here with plain FP32 FMAs straight from global
     * memory: slow, but it happens only for tiles whose results are Inf or NaN,
     * and then gives the FMA kernel's answer (gonum's semantics). The flag
     * lives in the first word of the A tiles, once every warp is done with
     * them (a variable of its own would take a 16-byte slot of the 48 KiB
     * that 3 stages of a 128×128×16 tile fill exactly). */
    __local volatile int* redo = (__local volatile int*)Asm;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tid == 0) *redo = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (wk == 0) { /* the other K groups' sums are in group 0's */
        uint worst = 0;
        _Pragma("unroll") for (int i = 0; i < FM; i++)
        _Pragma("unroll") for (int j = 0; j < FN; j++)
        _Pragma("unroll") for (int c = 0; c < 4; c++) worst = max(worst, as_uint(acc[i][j][c]) & 0x7fffffffu);
        if (worst >= 0x7f800000u) *redo = 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (*redo && wk == 0) {
        _Pragma("unroll") for (int i = 0; i < FM; i++)
        _Pragma("unroll") for (int j = 0; j < FN; j++)
        _Pragma("unroll") for (int c = 0; c < 4; c++) {
            const int r = wr + i * 16 + g + (c >> 1) * 8;
            const int cc = ACC_COL(j, c);
            if (r < mrem && cc < nrem) {
#if TRANSA == 0
                __global const real* pa = A + offA + (long)(m0 + r) * lda;
                const long sa = 1;
#else
                __global const real* pa = A + offA + (m0 + r);
                const long sa = lda;
#endif
#if TRANSB == 0
                __global const real* pb = B + offB + (n0 + cc);
                const long sb = ldb;
#else
                __global const real* pb = B + offB + (long)(n0 + cc) * ldb;
                const long sb = 1;
#endif
                real sum = 0;
#if ZEXP_B
                /* op(B)[q][n0 + cc] from the complex B (see ZEXP_B) */
                (void)sb;
                const int cz = n0 + cc;
                for (int q = 0; q < k; q++) {
                    const int odd = q & 1;
                    const real bq = pb[(long)(q >> 1) * ldb + (cz ^ odd) - cz];
                    sum = fma(pa[q * sa], (odd & ~cz) ? -bq : bq, sum);
                }
#else
                for (int q = 0; q < k; q++) sum = fma(pa[q * sa], pb[q * sb], sum);
#endif
                acc[i][j][c] = sum;
            }
        }
    }
#endif

    /* epilogue: C = alpha·acc + beta·C, masked (K group 0 holds the sums) */
    if (wk != 0) return;
    _Pragma("unroll") for (int i = 0; i < FM; i++)
    _Pragma("unroll") for (int j = 0; j < FN; j++)
    _Pragma("unroll") for (int c = 0; c < 4; c++) {
        const int r = wr + i * 16 + g + (c >> 1) * 8;
        const int cc = ACC_COL(j, c);
        if (r < mrem && cc < nrem) {
            __global real* p = C + offC + (long)(m0 + r) * ldc + (n0 + cc);
            const real v = alpha * acc[i][j][c];
            *p = (beta == (real)0) ? v : fma(beta, *p, v);
        }
    }
}
