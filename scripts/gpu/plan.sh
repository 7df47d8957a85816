#!/usr/bin/env bash
# plan.sh: the measurements of the open GPU work, run on the lent machine
# from the folder scripts/gpu/build.sh fills. Each argument names a plan;
# each step has its own time limit, so a step that hangs still leaves the
# others' results. Logs go to $OUT (or ./out).
#
#   gemm-peers     resident GEMM at 4096 and 8192, all transposes, both
#                  precisions, beside CLBlast (in the same process) and
#                  cuBLAS (PyTorch); SGEMM's accuracy (bench -accuracy)
#   cublas         cuBLAS alone (PyTorch), for the peers of another call
#   tuning-ab      this build's tuning database against old_tuning.json (the
#                  one build.sh was given with OLD_TUNING=file), all
#                  transposes, both precisions, and the accuracy report
#   tuning-ab64    the same for DGEMM only
#   gemm-slices    GEMM from HostSlices (4096, 8192) and from plain Go slices
#                  (8192, gonum at 2048 for the × gonum ratio) with the
#                  transfer split, by the default schedule
#   slab-ab        row slabs (auto) against tiles (slab=off) from
#                  HostSlices, NN and TN, with every command's timeline
#   transfers      host-copy, strided-copy and rect-DMA rates (bench -xfer)
#   transfers-duplex uploads and downloads issued together in several ways
#                  (bench -duplex), then GEMM 8192 from HostSlices with every
#                  command's timeline
#   rect-rates     rect rates by row width, fresh and after staged DGEMM
#                  calls; DGEMM with 1024² tiles
#   rect-bench     BenchmarkRectConditions and BenchmarkRectDuringGemm (a
#                  panel's rect transfer near and during a resident DGEMM)
#   trsm           BenchmarkResidentTrsm, and the same from blas-oldtrsm.test
#                  when that is there (a build with another TRSM, by hand)
#   routines       resident level 2, TRSM, the GEMM route of symm/syrk/
#                  syr2k/trmm, short-k updates from Go slices against gonum,
#                  examples/cg at n = 4096 and examples/mat at 2048
#   policy         auto against gonum over the full size sweep (level 1 to
#                  10⁷, level 2 to 4096², level 3 to 2048); DGEMV from Go
#                  slices (streamed through pinned staging) in GB/s beside
#                  gonum; host cost of a chain of small resident AXPYs
#   level2-bands   GBMV T's two kernels (band_t, gbmv_t_part at four of
#                  its launches) over kl = ku = 64 to 1024 at n = 2048 to
#                  8192, for gbmvTPartMinBand; every symv_stream shape at
#                  8192; level 2 at 8192 beside CLBlast
#   retune-dgemm   search around the DGEMM entry in all four transposes at
#                  once (one tile, switches per combination)
#   retune-tf32    search around the 3xTF32 entry (K steps of 32, two
#                  unpadded stages), NN and NT
#   ptx            the CUDA tools there; the cached gemm_mma PTX, assembled
#                  (registers, spills) and disassembled where ptxas and
#                  cuobjdump exist (run it after a plan that built programs)
#   tests          the blas and cl test suites on the GPU (tensor path on)
#   lu-outer       resident LU at 4096 and 8192 with its trailing updates
#                  deferred to column blocks (-lapack.luouter 256, 512,
#                  1024) against one update a panel, alternating, beside
#                  cuSOLVER (PyTorch); DGEMM at LU's short k beside the
#                  square one
#   lu             resident LU at 2048 to 8192 beside cuSOLVER, getrf_grid's
#                  phases at 4096; the lapack test suite first
#   devices        the devices' layout, then GEMM from Go slices on each
#                  device alone and on all together (one Implementation):
#                  the NVIDIA GPU with PoCL's CPU device, then every NVIDIA
#                  GPU (GPUS=P:D,P:D overrides nvidia:*), from Go slices
#                  and (DGEMM 16384) from HostSlices
#
# A search names the gemm_mma switches it restricts; a switch added after a
# plan was written widens that plan's search (cmd/tune -where restricts only
# the keys it names).
# Each plan's step limits add up to less than a device call's 10 minutes
# (gemm-peers 5, gemm-slices 4, tests 7, routines 5): one plan per call
# when time is short.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here/out}
mkdir -p "$out"
# The image does not list NVIDIA's OpenCL driver.
if [ -e /usr/lib/libnvidia-opencl.so.1 ] && [ -d /etc/OpenCL/vendors ]; then
	echo /usr/lib/libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
fi
export LD_LIBRARY_PATH=$here${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export GOCL_DEVICE=${GOCL_DEVICE:-nvidia} GOCL_CACHE_DIR=${GOCL_CACHE_DIR:-/tmp/gocl-cache}
cd "$here"

# step NAME SECONDS COMMAND...: run COMMAND with a time limit, log to $out/NAME.txt.
step() {
	local name=$1 secs=$2
	shift 2
	echo "==> $name: $*" | tee "$out/$name.txt"
	timeout "$secs" "$@" >>"$out/$name.txt" 2>&1
	echo "<== $name: exit $?" >>"$out/$name.txt"
}

# tune_mma NAME SECONDS PREC TRANS WHERE: a step that searches gemm_mma at
# n = 4096 in one transpose combination within WHERE (cmd/tune -where), its
# budget 10 s inside the step's limit, the best entries in tuning-NAME.json.
tune_mma() {
	step "$1" "$2" ./tune -kernel mma -prec "$3" -trans "$4" -shapes large=4096 -bar=false -v \
		-budget "$(($2 - 10))s" -where "$5" -out "$out/tuning-$1.json"
}

# compare_db NAME SECONDS PRECS: bench at 4096 and 8192, all transposes,
# with this build's database (NAME-new.txt) and, when build.sh was given
# one, old_tuning.json (NAME-old.txt).
compare_db() {
	local args=(-sizes 4096,8192 -prec "$3" -trans NN,NT,TN,TT -slices=false -gonum-max 0 -reps 5)
	step "$1-new" "$2" ./bench "${args[@]}"
	if [ -e old_tuning.json ]; then
		step "$1-old" "$2" env GOCL_GEMM_TUNING=old_tuning.json ./bench "${args[@]}"
	fi
}

# cuBLAS through PyTorch, written to a file so that step's timeout can run it
# (timeout cannot run a shell function).
cat >"$out/cublas.py" <<'PY'
import sys, time, torch
torch.backends.cuda.matmul.allow_tf32 = False
for n in (4096, 8192):
    for dt in (torch.float64, torch.float32):
        a = torch.rand(n, n, dtype=dt, device="cuda"); b = torch.rand(n, n, dtype=dt, device="cuda")
        for _ in range(3): a @ b
        torch.cuda.synchronize(); reps = 10; t = time.perf_counter()
        for _ in range(reps): a @ b
        torch.cuda.synchronize(); s = (time.perf_counter() - t) / reps
        print(f"cuBLAS {dt} n={n}: {2*n**3/s/1e9:.0f} GFLOP/s")
PY

# cuSOLVER's factorizations through PyTorch (float64, best of five).
cat >"$out/cusolver.py" <<'PY'
import time, torch
for n in (4096, 8192):
    a = torch.rand(n, n, dtype=torch.float64, device="cuda")
    spd = a @ a.T + n * torch.eye(n, dtype=torch.float64, device="cuda")
    for name, f, fl in (("getrf", lambda: torch.linalg.lu_factor(a), 2*n**3/3),
                        ("potrf", lambda: torch.linalg.cholesky(spd), n**3/3),
                        ("geqrf", lambda: torch.geqrf(a), 4*n**3/3)):
        f(); torch.cuda.synchronize(); best = 1e9
        for _ in range(5):
            t = time.perf_counter(); f(); torch.cuda.synchronize(); best = min(best, time.perf_counter() - t)
        print(f"cuSOLVER {name} n={n}: {fl/best/1e9:.0f} GFLOP/s")
PY

for plan in "$@"; do
	case $plan in
	devices)
		# "cpu", not "pocl": PoCL may also list the GPU through its CUDA
		# back end, and "pocl" would then name the same chip twice.
		step devices-layout 20 env GOCL_DEVICE=all ./devices
		step devices-gpu-cpu 200 ./bench -devices nvidia,cpu -sizes 4096,8192 -prec 64,32 -reps 3
		# PoCL on 12 of the 16 cores, the rest left to the GPU's staging
		# copies (the variable's name before and after PoCL 4).
		step devices-gpu-cpu12 100 env POCL_CPU_MAX_CU_COUNT=12 POCL_MAX_PTHREAD_COUNT=12 \
			./bench -devices nvidia,cpu -sizes 8192 -prec 64,32 -reps 3
		step devices-gpus 150 ./bench -devices "${GPUS:-nvidia:*}" -sizes 8192,16384 -prec 64,32 -reps 3
		step devices-gpus-pinned 90 ./bench -devices "${GPUS:-nvidia:*}" -sizes 16384 -prec 64 -reps 3 -pinned
		;;
	gemm-peers)
		step peers-cublas 45 python3 "$out/cublas.py"
		step peers-bench 180 ./bench -sizes 4096,8192 -prec 64,32 -trans NN,NT,TN,TT -slices=false -gonum-max 0 -reps 5
		step peers-accuracy 60 ./bench -accuracy -sizes 2048
		;;
	cublas)
		step cublas 45 python3 "$out/cublas.py"
		;;
	tuning-ab)
		# The database in this build against the one before it
		# (old_tuning.json, when build.sh was given one), all transposes.
		compare_db cmp 100 64,32
		step cmp-accuracy 40 ./bench -accuracy -sizes 2048
		;;
	tuning-ab64)
		compare_db cmp64 60 64
		;;
	gemm-slices)
		# The default schedule (row slabs where gemmSlabs picks them),
		# no timeline file: the figures of BENCHMARKS.md.
		step slices-hostslice 120 ./bench -sizes 4096,8192 -prec 64,32 -split -pinned -gonum-max 0 -reps 5
		step slices-plain 120 ./bench -sizes 8192 -prec 64,32 -split -gonum-max 2048 -reps 3
		;;
	slab-ab)
		# The row-slab schedule (default for op(B) not transposed, n, k ≥
		# 4096) against the tile schedule (slab=off), from HostSlices and
		# from plain slices, with every command's timeline.
		for sl in auto off; do
			step slab-$sl 120 env GOCL_GEMM_PIPELINE=slab=$sl,timeline=$out/timeline-slab-$sl.log ./bench -sizes 4096,8192 -prec 64,32 -trans NN,TN -split -pinned -gonum-max 0 -reps 3
		done
		step slab-plain 120 ./bench -sizes 8192 -prec 64,32 -split -gonum-max 0 -reps 3
		;;
	transfers)
		step xfer 60 ./bench -xfer 512
		;;
	transfers-duplex)
		step duplex 60 ./bench -duplex 512
		# Every command of the staged GEMM calls from HostSlices, with its
		# device times and rate (GOCL_GEMM_PIPELINE=timeline=FILE).
		for p in 64 32; do
			step tl-$p 60 env GOCL_GEMM_PIPELINE=timeline=$out/timeline-$p.log ./bench -sizes 8192 -prec $p -split -pinned -gonum-max 0 -reps 2
		done
		;;
	rect-rates)
		# The rect rates by row width, alone and after staged DGEMM calls
		# in the same process; DGEMM with 1024² tiles (8 KiB rows).
		step rect-fresh 60 ./bench -duplex 512
		step rect-after 90 ./bench -sizes 8192 -prec 64 -split -pinned -gonum-max 0 -reps 2 -duplex 512 -duplex-after
		step tl-t1024 60 env GOCL_GEMM_PIPELINE=tile=1024,timeline=$out/timeline-t1024.log ./bench -sizes 8192 -prec 64 -split -pinned -gonum-max 0 -reps 2
		;;
	rect-bench)
		step rectcond 90 ./blas.test -test.run XXX -test.bench RectConditions -test.benchtime 5x
		step rectgemm 90 ./blas.test -test.run XXX -test.bench RectDuringGemm -test.benchtime 3x
		step hs-trans 90 ./bench -sizes 8192 -prec 64 -trans NN,NT,TN -split -pinned -gonum-max 0 -reps 2
		;;
	trsm)
		# The recursive TRSM against the blocked one before it (build.sh
		# does not build that: blas-oldtrsm.test is put there by hand).
		step trsm-new 60 ./blas.test -test.run XXX -test.bench ResidentTrsm -test.benchtime 50x
		if [ -e blas-oldtrsm.test ]; then
			step trsm-old 60 ./blas-oldtrsm.test -test.run XXX -test.bench ResidentTrsm -test.benchtime 50x
		fi
		;;
	routines)
		step res-bench 120 ./blas.test -test.run XXX -test.bench 'ResidentLevel2|Level3Route|ResidentGemmHost|GemmUpdate|ResidentTrsm' -test.benchtime 50x
		step res-cg 60 ./cg -n 4096
		step res-mat 120 ./mat -n 2048 -reps 2
		;;
	policy)
		step pol-sweep 300 ./blas.test -test.run XXX -test.bench Sweep -test.benchtime 200ms -sweep.full
		step pol-gemv 90 ./blas.test -test.run XXX -test.bench GemvSlices -test.benchtime 20x
		step pol-axpy 60 ./blas.test -test.run XXX -test.bench ResidentAxpy -test.benchtime 20000x -test.benchmem
		;;
	level2-bands)
		# -test.bench matches each level of a benchmark's name on its own:
		# GemvTShape/gbmv-t/<precision>/<launch>.
		for nk in 2048:64 2048:256 4096:128 4096:512 8192:64 8192:256 8192:1024; do
			step "bands-${nk/:/-}" 45 ./blas.test -test.run '^$' \
				-test.bench 'GemvTShape/gbmv-t/./(band_t|auto|0x0.u0.b0.l[12]|64x2.u8.b16|32x4.u8.b8)$' \
				-test.benchtime 200x -gemvt.n "${nk%:*}" -gemvt.k "${nk#*:}"
		done
		step bands-symv 120 ./blas.test -test.run '^$' -test.bench 'SymvShape/(symv|sbmv)/' -test.benchtime 100x -symv.n 8192
		step bands-bench 120 ./bench -level 2 -slices=false -l2n 8192
		;;
	retune-dgemm)
		tune_mma retune-dgemm 120 64 NN,NT,TN,TT 'MWG=128,NWG=64,KWG=8,WM=64,WN=32,STAGES=3,CP_VEC=1,ISSUE_MIX=0|1,PIPE_FRAG=0|1,MMA_K=4,KM_SWZ=0'
		;;
	retune-tf32)
		for tr in NN NT; do
			tune_mma retune-tf32-$tr 80 32 $tr 'MWG=64|128,NWG=64|128,KWG=32,WM=64,WN=32|64,STAGES=2,CP_VEC=1,SPLIT_RAW=1,ISSUE_MIX=0,KM_SWZ=1'
		done
		;;
	ptx)
		# What CUDA tools the machine has (PyTorch's Triton ships ptxas,
		# cuobjdump and nvdisasm), and the PTX NVIDIA's OpenCL built for the
		# programs run so far (the disk cache's .bin files are PTX there),
		# assembled for sm_90a with register and spill counts, and its SASS.
		{
			ls -d /usr/local/cuda*/bin 2>&1
			command -v ncu nsys nvcc ptxas cuobjdump nvdisasm 2>&1
			python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda)' 2>&1
			tdir=$(python3 -c 'import triton, os; print(os.path.dirname(triton.__file__))' 2>/dev/null)
			echo "triton: $tdir"
			[ -n "$tdir" ] && find "$tdir" -name 'ptxas*' -o -name 'cuobjdump*' -o -name 'nvdisasm*' 2>/dev/null
		} >"$out/probe-tools.txt" 2>&1
		ptxas=$(command -v ptxas || find / -path /proc -prune -o -name ptxas -type f -print 2>/dev/null | head -1)
		cuobj=$(command -v cuobjdump || find / -path /proc -prune -o -name cuobjdump -type f -print 2>/dev/null | head -1)
		echo "ptxas=$ptxas cuobjdump=$cuobj" >>"$out/probe-tools.txt"
		mkdir -p "$out/ptx"
		for f in "$GOCL_CACHE_DIR"/*.bin; do
			[ -e "$f" ] || continue
			grep -q 'gemm_mma' "$f" || continue
			b=$(basename "$f" .bin)
			cp "$f" "$out/ptx/$b.ptx"
			if [ -n "$ptxas" ]; then
				"$ptxas" -arch=sm_90a -v -o "$out/ptx/$b.cubin" "$f" >"$out/ptx/$b.ptxas.txt" 2>&1
				[ -n "$cuobj" ] && "$cuobj" -sass "$out/ptx/$b.cubin" >"$out/ptx/$b.sass" 2>&1
				rm -f "$out/ptx/$b.cubin"
			fi
		done
		ls -la "$out/ptx" >>"$out/probe-tools.txt"
		;;
	lu-outer)
		step lu-cusolver 60 python3 "$out/cusolver.py"
		for r in 1 2; do
			for o in 0 256 512 1024; do
				step "lu-outer-$o-$r" 45 ./lapack.test -test.run '^$' -test.bench '^BenchmarkResident$/^Getrf$' \
					-test.benchtime 5x -lapack.sizes 4096,8192 -lapack.luouter "$o"
			done
		done
		step lu-gemm-k 90 ./bench -shapes 8064x8064x128,8064x8064x512,8064x8064x1024 -sizes 8192 -prec 64 -slices=false -gonum-max 0 -reps 5
		;;
	lu)
		# Resident LU at 2048 to 8192 beside cuSOLVER (two rounds), the
		# phases of getrf_grid's columns at 4096; the grid tests and the
		# whole lapack suite first.
		step lu-tests 400 ./lapack.test -test.count=1
		step lu-cusolver 60 python3 "$out/cusolver.py"
		for r in 1 2; do
			step "lu-$r" 40 ./lapack.test -test.run '^$' -test.bench '^BenchmarkResident$/^Getrf$' -test.benchtime 5x -lapack.sizes 2048,4096,8192
		done
		step lu-phases 60 ./lapack.test -test.run '^$' -test.bench 'GridPhases/getrf' -test.benchtime 3x -lapack.sizes 4096
		;;
	tests)
		step tests-blas 300 ./blas.test -test.count=1
		step tests-cl 120 ./cl.test -test.count=1
		;;
	*)
		echo "plan.sh: unknown plan $plan (want gemm-peers, cublas, tuning-ab, tuning-ab64, gemm-slices, slab-ab, transfers, transfers-duplex, rect-rates, rect-bench, trsm, routines, policy, level2-bands, retune-dgemm, retune-tf32, ptx, lu-outer, lu, tests, devices)" >&2
		exit 2
		;;
	esac
done
for f in "$out"/*.txt; do
	echo
	tail -n 25 "$f"
done
# A device call returns at most 8 files from $OUT (and none deeper than two
# folders): past that, everything goes into one archive.
if [ "$(find "$out" -type f | wc -l)" -gt 8 ]; then
	tar czf /tmp/plan-out.tgz -C "$out" . && rm -rf "${out:?}"/* && mv /tmp/plan-out.tgz "$out/plan-out.tgz"
	echo "plan.sh: more than 8 files: all in $out/plan-out.tgz"
fi
