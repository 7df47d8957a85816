#!/usr/bin/env bash
# oclgrind.sh: the BLAS conformance tests on Oclgrind, a simulated OpenCL
# 1.2 GPU (preferred vector width 1, 32 KiB of local memory, memory of its
# own, no tuning entry) that checks every memory access and API call.
#
# How it runs: Oclgrind's ICD (liboclgrind-rt-icd.so) is registered for the
# test process only, through OCL_ICD_VENDORS pointing at a temporary
# directory, so the test binary sees one device, Oclgrind, and loads it
# through the ordinary ICD loader (this works whether libOpenCL is linked
# or opened at run time; `oclgrind ./blas.test`, which preloads Oclgrind's
# runtime, would not reach a loader opened with dlopen). Oclgrind's options
# are its environment variables (OCLGRIND_CHECK_API for --check-api, and so
# on), and its reports go to a log file of their own (OCLGRIND_LOG).
#
# Two passes:
#  1. conformance: gonum's testblas Float64 suite and our float32 suite,
#     with GOCL_OFFLOAD=always, --check-api and Oclgrind's default
#     out-of-bounds checks, plus tests that force the kernels the Oclgrind
#     device would not choose by itself (see CONFORMANCE below). The
#     device-complete guard (GOCL_TEST_DEVICE_COMPLETE=1) fails the run if
#     any call was finished or kept on the CPU.
#  2. races: --data-races over the GEMM, reduction and triangular kernels
#     at the suites' small sizes.
# Between them, the lapack package's TestKernelsSmall, TestPotrfRows and TestLaswpDevice
# run the kernels of kernels/lapack.cl with --data-races (bounds are
# checked too). Oclgrind simulates on one host thread, so pass 1 runs in
# the background beside the others, which run one after another.
# --uninitialized does not work with a Go program: Oclgrind 21.10's check
# keeps its shadow memory pool per host thread and crashes (SIGSEGV in
# MemoryPool::alloc, from Uninitialized::hostMemoryStore under clFinish)
# when a buffer write is carried out on a thread that has no pool, and Go
# moves goroutines, and so OpenCL calls, between OS threads.
#
# A pass fails if its tests fail or if Oclgrind reported anything at all
# (invalid reads or writes, API errors, races, build errors): its log must
# be empty. Every kernel of kernels/*.cl must have run in a pass but
# those listed in NOT_ON_OCLGRIND, with the reason.
#
# Oclgrind runs one kernel at a time: two host threads enqueueing kernels
# together trip its assertion (Context::notifyKernelBegin), so the tests
# run with -test.parallel 1.
#
# Usage: scripts/oclgrind.sh [go test -run pattern of pass 1]
# Environment: OCLGRIND_ICD (default /usr/lib/oclgrind/liboclgrind-rt-icd.so),
# OCLGRIND_TIMEOUT (seconds per pass, default 1500: on the 2-core CI
# machine the conformance pass takes about 10 minutes by itself, and
# test.sh runs this script beside the main suite), OCLGRIND_RACES_RUN (the
# -run pattern of pass 2).
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
ensure_go

ICD=${OCLGRIND_ICD:-/usr/lib/oclgrind/liboclgrind-rt-icd.so}
TIMEOUT=${OCLGRIND_TIMEOUT:-1500}
[ -e "$ICD" ] || die "Oclgrind's ICD $ICD is missing (apt-get install oclgrind)"

# Pass 1: the conformance suites, and the tests that run the kernels these
# leave out on Oclgrind: TestGemmKernelsSmall forces the GEMM kernels and
# routes Oclgrind's own choice (gemm_tiled) does not take (gemm_direct,
# gemm_cpu, at vector width 1 too, GEMV, split-K); TestLevel3ViaGemmSmall
# runs symm, syrk, syr2k and trmm through GEMM (l3_sym_expand,
# l3_tri_merge); TestResidentScalars and TestNrm2ToSqrtRecip the resident API's scalar kernels
# (axpy_dev, scal_dev, div_scalar, and sum_parts over 16 partials);
# TestComplexLevel3Shared the complex level 3 kernels of zlevel3.cl and
# TestZgemm3MSmall its 3M ones;
# TestLevel1VectorPathNonFinite level 1's vector path on views at
# unaligned offsets (head, whole vectors and tail all read);
# TestLevel1ShapeVariants the same under the launch shapes cmd/tune may
# choose (L1_BLOCK, L1_IDX32, covering grids, odd unrolls);
# TestLevel1ComplexVectorPath complex level 1's unit-stride kernels
# (zaxpy, zscal, zdot_part and zsum_parts; zdot_one under the variants)
# on unaligned views; TestComplexReductionsLong complex.cl's NRM2 and
# IAMAX over several rounds of four loads a work-item;
# TestSymvKernels the dense and band symmetric products with each kernel
# (symv_part and sbmv_tile, symv_stream at several shapes);
# TestGemvTShapes gemv_t_part, ger_rows, gbmv_t_part and TRMV on
# gemv_t_part at several launches, in one launch and two, and band_t; TestSyrRows syr_rows (SYR and SYR2 on a dense
# triangle) at three of those launches, TestSprRows its packed build
# (SPR, SPR2) at the default one; TestZgerRows zger_rows (complex
# GERU and GERC) and TestZgemvKernels zgemv_n, zgemv_t_part and
# zgemv_t_fin (complex GEMV with A, Aᵀ and Aᴴ) at the same three
# (TestZherRows has a pass of its own, below); TestZstreamKernels
# symv_stream's complex build (HEMV, HBMV, TRMV) at its derived
# shape and at a small one along block rows;
# TestTrsvBlockedSplit the triangular solves' split
# schedule (trsv_sol, then trsv_upd), which no device takes by itself, at
# one shape (its whole run takes about 3 minutes on Oclgrind);
# TestTrsvBlockedFlow and TestTrsvFlowRescue the flow schedule (trsv_flow,
# NVIDIA's default) on three work-groups, and its rescue launch after a
# failed one.
# The tests and subtests the races pass runs (below) are not repeated
# here: that pass checks bounds too, and its kernels count as run (the
# coverage check at the end). So TestGemmKernelsSmall,
# TestLevel3ViaGemmSmall, TestResidentScalars, TestGemvTShapes (but for its one-launch variants),
# TestSyrRows and TestComplexLevel2Small run there only, and here
# symv_stream only at the shapes the races pass leaves out.
# (A -run pattern is split at top-level '|' first, then at '/'.)
# The complex level 1 and 2 routines: gonum's testblas for those it calls
# at most a few hundred times, TestComplexLevel2Small (every transpose,
# triangle and diagonal) for the others, TestResidentComplexL12 for the
# resident complex level 1 and 2 operations (packed triangles included:
# Ztpmv's and Ztpsv's testblas take long on Oclgrind).
COMPLEX_LIGHT='(Zaxpy|Zcopy|Zdotc|Zdotu|Zdscal|Zscal|Zswap|Dzasum|Dznrm2|Izamax|Zgerc|Zgeru|Zher|Zher2|Zhpr|Zhpr2|Zhpmv)'
CONFORMANCE=${1:-'^TestTestblas$/.*/^default$|^TestFloat32$|^TestSrotgSrotmg$|^TestNrm2ToSqrtRecip$|^TestNrm2To32$|^TestComplexTestblas$/^always$/^'"$COMPLEX_LIGHT"'$|^TestComplexLevel3Shared$|^TestZgemm3MSmall$|^TestResidentComplexL12$|^TestLevel1VectorPathNonFinite$|^TestLevel1ShapeVariants$|^TestLevel1ComplexVectorPath$|^TestComplexReductionsLong$|^TestSymvKernels$/^kernel=2,2$/^shape=(0x0x0x0|1x8x4x1|2x8x4x4),|^TestGemvTShapes$/^(64x2.u8.b3.l1|8x2.u2.b100.l1)$|^TestSprRows$/^auto$|^TestZgerRows$|^TestZgemvKernels$|^TestZstreamKernels$/^shape=0x0x0x0,|^TestTrsvBlockedSplit$/^ts=4$/^nb=8$/^(float64|complex64|nonfinite)$|^TestTrsvBlockedFlow$/^ts=4$/^groups=3$/^(complex64|nonfinite)$|^TestTrsvFlowRescue$/^groups=3$/^poison=4$/^spin=0$/^float32$'}
# Passes 2 and 3: GEMM, reductions (single and multi-group), triangular
# routines (trsv_inv, trsv_blk, trsv_upd at one split shape: a tile and
# x's block in local memory, and trsv_flow on three work-groups), symv_part
# (Dsymv: its tile and sums share local memory), the band products
# (band_n, band_t, sbmv_tile, and zband_t through TestComplexLevel2Small
# and TestZbandT: sums reduced in local memory) and
# symv_stream at three of its test's seven shapes, one walking (pass 1
# runs the other three).
# The one-pass reductions (level1.cl's _one kernels) are left out: their
# last work-group reads the other groups' partials after an atomic ticket
# and a global fence, an order Oclgrind's race check does not model (it
# reports each of those reads); pass 1 runs them, out-of-bounds checked
# (TestLevel1ShapeVariants); the derived shapes (Oclgrind's) do not.
# For the same reason the transposed GEMV, band and complex GEMV
# products in one launch (gemv.cl's GT_ONE, TestGemvTShapes' variants
# ending in .l1, TestZgemvKernels' 8x2 one) run in pass 1 only; the
# derived shapes take two launches.
# The complex level 3 kernels of zlevel3.cl are left out: each
# work-item writes only its own elements (no local memory, no barriers),
# and their GEMM is the real one raced here (TestComplexLevel3Shared is
# clean under --data-races, 88 s on the CI machine, 2026-12-01).
RACES=${OCLGRIND_RACES_RUN:-'^TestTestblas$/^(Dgemm|Dtrsm|Dtrmm|Dtrsv|Dtbsv|Dtpsv|Ddot|Dnrm2|Dasum|Idamax|Dsymv|Dgbmv|Dsbmv)$/^default$|^TestFloat32$/^(Sgemm|Strsm|Strmm|Strsv|Sdot|Snrm2|Sasum|Isamax|Dsdot)$|^TestGemmKernelsSmall$|^TestLevel3ViaGemmSmall$|^TestResidentScalars$|^TestComplexTestblas$/^always$/^(Zdotc|Dzasum|Dznrm2|Izamax)$|^TestComplexLevel2Small$|^TestZbandT$|^TestSymvKernels$/^kernel=1,1$|^TestSymvKernels$/^kernel=2,2$/^shape=(2x4x2x3|4x4x8x2|1x4x2x3),|^TestGemvTShapes$/^(auto|16x4.u3.b5.l2)$|^TestSyrRows$|^TestZgemvKernels$/^auto$|^TestZstreamKernels$/^shape=1x4x2x3,|^TestTrsvBlockedNonFinite$|^TestTrsvBlockedSplit$/^ts=4$/^nb=12$/^(float64|float32)$|^TestTrsvBlockedFlow$/^ts=4$/^groups=3$/^float64$'}
# Kernels no pass runs, and why.
NOT_ON_OCLGRIND=(
	# NVIDIA PTX (mma.sync, cp.async); chosen only on NVIDIA devices of
	# compute capability >= 8.0. Its portable emulation runs on PoCL
	# (TestGemmMMAEmulated).
	gemm_mma
	# Level 2's kernels for CPU devices (l2OnCPU): Oclgrind is a GPU.
	# PoCL runs them in the main suite.
	tri_solve_seq tri_solve_flow rank_rows rank_rows4 gemv_rows gemv_cols gemv_t_rows gemv_t_sum
	band_rows band_t_rows band_t_sum sym_rows zgemv_rows zgemv_t_rows zgemv_t_sum zrank_rows zrank_rows4
	zband_rows zband_t_rows zhemv_rows zband_t_sum ztri_solve_seq ztri_solve_flow
	# TRSM's diagonal blocks by runs of columns, CPU devices' (TrsmOnDevice).
	trsm_left_rows
	# The complex rank updates one work-item an element: GPUs take them
	# only for matrices whose offsets in reals overflow an int (else
	# gemv.cl's zger_rows and zher_rows), CPU devices zrank_rows, which
	# shares zrank's arithmetic (zrank_at).
	zrank
	# kernels/complex.cl's GEMM: the BLAS runs complex level 3 as real
	# GEMMs (zlevel3.cl), not on it; kernels/complex_test.go runs it on
	# PoCL.
	cgemm cgemmt
	# Complex HER and HER2 (HPR and HPR2 in its packed build) by rows:
	# the pass 'zher' below runs them (TestZherRows), out-of-bounds
	# checked, without Oclgrind's instruction counts, which are how the
	# passes list the kernels that ran: with them, Oclgrind 21.10
	# corrupted its own heap after the first run of this kernel
	# ("corrupted size vs. prev_size", exit 134, 2026-12-03), and without
	# them it runs clean.
	zher_rows
	# The copies of gemm_cpu's operands off page-multiple pitches
	# (GemmLauncher.padded) and untransposed (GemmLauncher.transposed):
	# the pass 'gemmcpu' below runs them (TestGemmCPUBlocks' small
	# shapes), out-of-bounds and race checked, without instruction
	# counts: with them Oclgrind 21.10 crashed in that test
	# ("munmap_chunk(): invalid pointer", a segmentation fault,
	# 2026-12-06), and without them it runs clean.
	l3_copy
	l3_transpose
)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/vendors" "$work/cache"
echo "$ICD" >"$work/vendors/oclgrind.icd"

say "go test -c ./blas ./lapack"
go test -c -o "$work/blas.test" ./blas || die "building the blas tests failed"
go test -c -o "$work/lapack.test" ./lapack || die "building the lapack tests failed"

failed=()
# fail records a failure; the passes run in two background lines (below),
# whose variables do not come back, so failures go to a file.
fail() { echo "$1" >>"$work/failed"; }

# run_pass NAME RUN_PATTERN [VAR=VALUE...]: runs the tests of package
# $PASS_PKG (default blas) matching RUN_PATTERN on Oclgrind with the extra
# Oclgrind settings given and the test binary's flags $PASS_FLAGS; $VENDORS (default: Oclgrind's alone) is the
# directory of ICDs the process sees.
run_pass() {
	local name=$1 pattern=$2 pkg=${PASS_PKG:-blas}
	shift 2
	local log="$work/$name.oclgrind.log" out="$work/$name.out" start=$SECONDS
	say "oclgrind pass '$name' ($*): go test ./$pkg -run '$pattern'"
	(
		cd "$pkg" &&
			env OCL_ICD_VENDORS="${VENDORS:-$work/vendors}" GOCL_DEVICE=oclgrind GOCL_REQUIRE_DEVICE=1 \
				GOCL_OFFLOAD=always GOCL_TEST_DEVICE_COMPLETE=1 GOCL_CACHE_DIR="$work/cache" \
				OCLGRIND_CHECK_API=1 OCLGRIND_LOG="$log" OCLGRIND_INST_COUNTS=1 "$@" \
				timeout "$TIMEOUT" "$work/$pkg.test" -test.parallel 1 -test.count 1 -test.v ${PASS_FLAGS:-} -test.run "$pattern"
	) >"$out" 2>&1
	local rc=$?
	# The test output without Oclgrind's instruction counts, which only
	# say which kernels ran.
	grep -v -E '^(Instructions executed for kernel |  +[0-9,]+ - |$)' "$out" | grep -E -v '^(=== (RUN|PAUSE|CONT)|    --- PASS)' | tail -n 40
	say "pass '$name': exit $rc after $((SECONDS - start)) s"
	if [ "$rc" -ne 0 ]; then
		[ "$rc" -eq 124 ] && say "pass '$name' ran out of time (${TIMEOUT} s)"
		fail "$name: tests"
	fi
	if [ -s "$log" ]; then
		say "pass '$name': Oclgrind reported $(grep -c -E '^(Invalid|Uninitialized|.* data race|Oclgrind - OpenCL runtime error)' "$log") errors; the first ones:"
		head -n 60 "$log" >&2
		fail "$name: Oclgrind errors"
	else
		say "pass '$name': Oclgrind reported nothing (0 errors)"
	fi
	grep -o "^Instructions executed for kernel '[a-z0-9_]*'" "$out" | sed -E "s/.*'(.*)'/\1/" | sort | uniq -c >"$work/$name.kernels"
	say "pass '$name': $(awk '{s += $1} END {print s + 0}' "$work/$name.kernels") kernel runs of $(wc -l <"$work/$name.kernels") kernels"
}

# Oclgrind simulates a device on one host thread, so the passes run in
# two lines side by side of about equal length: the conformance pass,
# then the lapack one; the others one after another. Each line's output is kept and printed when
# both are done.
conformance_line() {
	run_pass conformance "$CONFORMANCE"
	# The device LAPACK's kernels (kernels/lapack.cl), out of bounds and
	# races in one pass (Oclgrind checks bounds with or without the race
	# detector), in the lapack package's small test of all of them,
	# TestPotrfRows, which -test.short trims to two orders, and
	# TestLaswpDevice, which also runs the CPU devices' laswp_rows.
	PASS_PKG=lapack PASS_FLAGS=-test.short run_pass lapack '^(TestKernelsSmall|TestPotrfRows|TestLaswpDevice)$' OCLGRIND_DATA_RACES=1
}

other_line() {
	# zher_rows (see NOT_ON_OCLGRIND): TestZherRows alone, which must pass.
	run_pass zher '^TestZherRows$' OCLGRIND_INST_COUNTS=0 GOCL_TEST_DEVICE_COMPLETE=0
	grep -q -- '^--- PASS: TestZherRows' "$work/zher.out" || fail "zher: TestZherRows did not pass"

	# l3_copy and l3_transpose (see NOT_ON_OCLGRIND): TestGemmCPUBlocks' small shapes,
	# which must pass; it calls the engine, not a BLAS routine, so the
	# device-complete guard has nothing to count.
	run_pass gemmcpu '^TestGemmCPUBlocks$/^small$' OCLGRIND_INST_COUNTS=0 OCLGRIND_DATA_RACES=1 GOCL_TEST_DEVICE_COMPLETE=0
	grep -q -- '^--- PASS: TestGemmCPUBlocks' "$work/gemmcpu.out" || fail "gemmcpu: TestGemmCPUBlocks did not pass"

	run_pass races "$RACES" OCLGRIND_DATA_RACES=1

	# Oclgrind, a GPU with memory of its own, beside PoCL's CPU device: a
	# split leaves the CPU device out and the GPU runs every call whole
	# (TestMultiMixedKinds, which must run, not skip).
	POCL_ICD=${POCL_ICD:-/etc/OpenCL/vendors/pocl.icd}
	if [ -e "$POCL_ICD" ]; then
		mkdir -p "$work/mixed"
		cp "$POCL_ICD" "$work/mixed/"
		echo "$ICD" >"$work/mixed/oclgrind.icd"
		VENDORS="$work/mixed" run_pass mixed '^TestMultiMixedKinds$' GOCL_TEST_DEVICE_COMPLETE=0
		grep -q -- '^--- PASS: TestMultiMixedKinds' "$work/mixed.out" || fail "mixed: TestMultiMixedKinds did not pass"
	else
		fail "mixed: PoCL's ICD $POCL_ICD is missing"
	fi
}

start=$SECONDS
conformance_line >"$work/line1.txt" 2>&1 &
line1=$!
other_line >"$work/line2.txt" 2>&1
wait "$line1"
cat "$work/line1.txt" "$work/line2.txt" >&2
say "both lines of passes done after $((SECONDS - start)) s"

# Every kernel of kernels/*.cl ran in pass 1, the lapack pass or the races
# pass, but those listed above. The lists are read from strings, not
# through pipes into grep -q: under pipefail a writer that grep left
# early dies of SIGPIPE and fails the pipeline, so a kernel that was
# found read as missing (it did, on a loaded machine).
all=$(perl -0ne 'while (/__kernel\b(?:\s+__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\))?\s*void\s+(\w+)/g) {print "$1\n"}' kernels/*.cl | sort -u)
ran=$(awk '{print $2}' "$work/conformance.kernels" "$work/lapack.kernels" "$work/races.kernels" | sort -u)
skipped=$(printf '%s\n' "${NOT_ON_OCLGRIND[@]}")
missing=()
for k in $all; do
	if ! grep -qx -- "$k" <<<"$ran" && ! grep -qx -- "$k" <<<"$skipped"; then
		missing+=("$k")
	fi
done
say "kernels in kernels/*.cl: $(echo "$all" | wc -l); not run on Oclgrind by design: ${NOT_ON_OCLGRIND[*]}"
if [ ${#missing[@]} -gt 0 ]; then
	say "kernels that never ran on Oclgrind: ${missing[*]}"
	failed+=("kernel coverage")
fi
if [ -s "$work/failed" ]; then
	mapfile -t more <"$work/failed"
	failed+=("${more[@]}")
fi

if [ ${#failed[@]} -gt 0 ]; then
	say "oclgrind FAILED: ${failed[*]}"
	exit 1
fi
say "oclgrind: all passes clean"
