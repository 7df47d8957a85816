#!/usr/bin/env bash
# plan.sh: the measurements of the open GPU work, run on the lent machine
# from the folder scripts/gpu/build.sh fills. Each argument names a plan;
# each step has its own time limit, so a step that hangs still leaves the
# others' results. Logs go to $OUT (or ./out).
#
#   issue5   GEMM from Go slices at 8192: plain slices and HostSlice,
#            with the transfer split, gonum at 2048 for the ×gonum ratio,
#            and the host-copy, strided-copy and rect-DMA rates (-xfer)
#   hostslice GEMM from HostSlices at 8192 (5 repetitions)
#   compare  this build's tuning database against old_tuning.json (the one
#            build.sh was given with OLD_TUNING=file), all transposes, and
#            the accuracy report
#   issue6   DGEMM and 3xTF32 SGEMM on the tensor cores next to cuBLAS
#            (PyTorch on that machine) and CLBlast, SGEMM's accuracy, the
#            SPLIT_RAW variant of 3xTF32 (speed and accuracy)
#   sweep    bounded searches of gemm_mma's parameter space for each
#            precision (DGEMM tiles; 3xTF32 SPLIT_RAW and K steps)
#   sweep-cpvec the same with 16-byte copies (CP_VEC=1): 3xTF32 in NN and
#            NT, DGEMM
#   mmak     DGEMM with f64 mma.sync m16n8k8 / m16n8k16 (MMA_K), against k4
#   probe    the CUDA tools there; the cached gemm_mma PTX, assembled
#            (registers, spills) and disassembled where ptxas and cuobjdump
#            exist (run it after a plan that built gemm_mma programs)
#   mmak2    MMA_K=8 against 4 with and without CP_VEC, 3-5 stages, NN and TN
#   mix      ISSUE_MIX=1 against 0 (DGEMM NN/TN, 3xTF32 NN/NT)
#   deep     CP_VEC=1 with one stage more (unpadded k-major tiles)
#   pipe     PIPE_FRAG=1 against 0 for DGEMM (NN, TN); 32×32 warp tiles
#   tf32     3xTF32 with a third stage (KM_SWZ=1); 64×32 warp tiles
#   cmp64    compare for DGEMM only (all transposes, this build's database
#            against old_tuning.json)
#   numa     why DGEMM's uploads from HostSlices run at 41 GB/s (SGEMM's at
#            54, -xfer's at 55) and upload and download share 55 GB/s: the
#            host's NUMA and PCIe layout, the same transfers through CUDA
#            (PyTorch), -xfer (with the kernel-copy probes), DGEMM at 4096
#            and 8192 from HostSlices, and both bound to each NUMA node
#   xfer     the host-copy, strided-copy and rect-DMA rates (bench -xfer)
#   duplex   bench -duplex 512: uploads and downloads issued together in
#            several ways, with the commands' device timestamps; then GEMM
#            8192 from HostSlices with every command's timeline
#   rect     the rect rates by row width, fresh and after staged DGEMM calls
#            (bench -duplex-after), and DGEMM with 1024² tiles
#   rectsrc  BenchmarkRectConditions: a column panel's rect upload right
#            after, 20 ms after and during a resident DGEMM
#   rectgemm BenchmarkRectDuringGemm (rect rates by row width, idle and
#            under a kernel), and DGEMM from HostSlices in NN, NT, TN
#   slab     row slabs (auto) against tiles (slab=off), NN and TN, 4096 and
#            8192, from HostSlices, with timelines; plain slices
#   slab2    the default schedule from HostSlices and plain slices, no
#            timeline file (the issue-5 figures)
#   slabtn   TN from HostSlices: tiles against row slabs of 4096 / 2048 rows
#   slabtn2  TN by the default schedule against tiles, 4096 and 8192
#   slab3    slab height and chunk count for DGEMM 8192 from HostSlices
#   trsm     BenchmarkResidentTrsm, and the same from blas-oldtrsm.test
#            when that is there (a build with an older TRSM, by hand)
#   trans64  the DGEMM entry retuned in all four transpose combinations at
#            once (cmd/tune -trans NN,NT,TN,TT: one tile, switches per
#            combination in the entry's trans field)
#   pipe2    PIPE_FRAG=1 against ISSUE_MIX=1 for DGEMM in NT and TT (pipe
#            measured NN and TN)
#   k16      K steps of 16 (DGEMM) and 32 (3xTF32) in two unpadded stages
#            (KM_SWZ=1: 48 KiB, all the local memory NVIDIA's OpenCL gives
#            a work-group): half the barriers per mma.sync of KWG 8 / 16
#   tests    the blas and cl test suites on the GPU (tensor path on)
#   resident resident level 2, TRSM and the CG steps, the GEMM route of symm/syrk/
#            syr2k/trmm, short-k updates from Go slices against gonum (auto's
#            kHalf for GPUs), examples/cg at n = 4096 and examples/mat at 2048
#
# A search names the gemm_mma switches it restricts; a switch added after a
# plan was written widens that plan's search (cmd/tune -where restricts only
# the keys it names).
# Each plan's step limits add up to less than a device call's 10 minutes
# (issue5 6, issue6 10 at worst, sweep 6, tests 7, resident 5): one plan per call when
# time is short.
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

# Host-device transfers through CUDA (PyTorch): each direction alone, both
# at once on two streams, two uploads at once, from pinned memory.
cat >"$out/cudaxfer.py" <<'PY'
import time, torch
n = 512 << 20
h1 = torch.empty(n, dtype=torch.uint8).pin_memory(); h2 = torch.empty(n, dtype=torch.uint8).pin_memory()
d1 = torch.empty(n, dtype=torch.uint8, device="cuda"); d2 = torch.empty(n, dtype=torch.uint8, device="cuda")
s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
def timed(f):
    f(); torch.cuda.synchronize(); best = []
    for _ in range(3):
        t = time.perf_counter(); f(); torch.cuda.synchronize(); best.append(time.perf_counter() - t)
    return n / sorted(best)[1] / 1e9
def up(): d1.copy_(h1, non_blocking=True)
def down(): h1.copy_(d1, non_blocking=True)
def both():
    with torch.cuda.stream(s1): d1.copy_(h1, non_blocking=True)
    with torch.cuda.stream(s2): h2.copy_(d2, non_blocking=True)
def upup():
    with torch.cuda.stream(s1): d1.copy_(h1, non_blocking=True)
    with torch.cuda.stream(s2): d2.copy_(h2, non_blocking=True)
print(f"CUDA upload from pinned:   {timed(up):.1f} GB/s")
print(f"CUDA download into pinned: {timed(down):.1f} GB/s")
print(f"CUDA upload ‖ download:    {timed(both):.1f} GB/s each")
print(f"CUDA upload ‖ upload:      {timed(upup):.1f} GB/s each")
PY

for plan in "$@"; do
	case $plan in
	issue5)
		step i5-hostslice 90 ./bench -sizes 8192 -prec 64,32 -split -pinned -gonum-max 0 -reps 3
		step i5-plain 120 ./bench -sizes 8192 -prec 64,32 -split -gonum-max 2048 -reps 3
		step i5-xfer 60 ./bench -xfer 512
		;;
	issue6)
		step i6-cublas 45 python3 "$out/cublas.py"
		step i6-bench 100 ./bench -sizes 4096,8192 -prec 64 -slices=false -gonum-max 0 -reps 5
		step i6-bench-tf32x3 100 env GOCL_TENSOR=tf32x3 ./bench -sizes 4096,8192 -prec 32 -slices=false -gonum-max 0 -reps 5
		step i6-accuracy 80 ./bench -accuracy -sizes 2048
		# 3xTF32 with unrounded small parts (SPLIT_RAW=1): the database's
		# float tensor entry with it, timed and its accuracy measured.
		python3 - gemm_tuning.json splitraw.json <<'PY'
import json, sys
db = json.load(open(sys.argv[1]))
for d in db["devices"]:
    for e in d.get("entries", []):
        if e.get("kernel") == "gemm_mma" and e.get("precision") == 32:
            e["defines"]["SPLIT_RAW"] = 1
json.dump(db, open(sys.argv[2], "w"), indent=1)
PY
		step i6-splitraw-bench 100 env GOCL_GEMM_TUNING=splitraw.json GOCL_TENSOR=tf32x3 ./bench -sizes 4096,8192 -prec 32 -slices=false -gonum-max 0 -reps 5
		step i6-splitraw-accuracy 80 env GOCL_GEMM_TUNING=splitraw.json ./bench -accuracy -sizes 2048
		;;
	hostslice)
		step i5-hostslice 90 ./bench -sizes 8192 -prec 64,32 -split -pinned -gonum-max 0 -reps 5
		;;
	compare)
		# The database in this build against the one before it
		# (old_tuning.json, when build.sh was given one), all transposes.
		compare_db cmp 100 64,32
		step cmp-accuracy 40 ./bench -accuracy -sizes 2048
		;;
	probe)
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
	cublas)
		step i6-cublas 45 python3 "$out/cublas.py"
		;;
	sweep)
		# DGEMM: wider tiles halve the L2 traffic per flop of 128×64; K steps
		# of 4 with more stages fit them in 48 KiB.
		tune_mma i6-tune64 180 64 NN 'MWG=128|256,NWG=64|128,KWG=4|8,WM=64,WN=32,STAGES=2|3|4|5'
		# 3xTF32: SPLIT_RAW, and K steps of 16 (128×128 tiles fit two
		# stages), which halve the per-slice FP32 accumulation adds.
		tune_mma i6-tune32 180 32 NN 'MWG=128,NWG=128|256,KWG=8|16,WM=64,WN=32|64,STAGES=2|3|4,SPLIT_RAW=0|1'
		;;
	sweep-cpvec)
		# gemm_mma with 16-byte copies: 3xTF32 in NN and NT (NT ran slower
		# than the FMA kernel with the database's tile), and DGEMM.
		for tr in NN NT; do
			tune_mma i6-cpvec32-$tr 60 32 $tr 'MWG=128,NWG=128|256,KWG=8|16,WM=64,WN=32|64,STAGES=2|3|4,CP_VEC=1,SPLIT_RAW=0|1'
		done
		tune_mma i6-cpvec64 60 64 NN 'MWG=128|256,NWG=64|128,KWG=4|8,WM=64,WN=32,STAGES=2|3|4|5,CP_VEC=1'
		;;
	mmak2)
		# f64 m16n8k8 (MMA_K=8) around the first search's best (CP_VEC=1, 3
		# stages: 45 876 against 44 144 for the default at 4096), NN and TN.
		for tr in NN TN; do
			tune_mma i6-mmak2-$tr 75 64 $tr 'MWG=128,NWG=64,KWG=8,WM=64,WN=32,STAGES=3|4|5,CP_VEC=0|1,MMA_K=4|8'
		done
		;;
	mix)
		# ISSUE_MIX=1 (copies spread between the mma.sync) against 0, with
		# and without 16-byte copies and m16n8k8: DGEMM NN and TN, 3xTF32 NN
		# and NT.
		for tr in NN TN; do
			tune_mma i6-mix64-$tr 100 64 $tr 'MWG=128,NWG=64|128,KWG=8,WM=64,WN=32,STAGES=2|3,CP_VEC=0|1,MMA_K=4|8,ISSUE_MIX=0|1'
		done
		for tr in NN NT; do
			tune_mma i6-mix32-$tr 150 32 $tr 'MWG=128,NWG=128,KWG=8|16,WM=64,WN=64,STAGES=2|4,CP_VEC=1,SPLIT_RAW=1,ISSUE_MIX=0|1'
		done
		;;
	deep)
		# CP_VEC=1's unpadded k-major tiles leave room for one more stage:
		# DGEMM 128×64×8 with 4 (48 KiB), with and without ISSUE_MIX; 3xTF32
		# 128×128×16 with 3, ×8 with 3 and 4.
		for tr in NN TN; do
			tune_mma i6-deep64-$tr 60 64 $tr 'MWG=128,NWG=64,KWG=8,WM=64,WN=32,STAGES=3|4,CP_VEC=1,ISSUE_MIX=0|1'
		done
		for tr in NN NT; do
			tune_mma i6-deep32-$tr 80 32 $tr 'MWG=128,NWG=128,KWG=8|16,WM=64,WN=64,STAGES=3|4,CP_VEC=1,SPLIT_RAW=1'
		done
		;;
	pipe)
		# PIPE_FRAG=1 (fragments a K sub-step ahead, the barrier before the
		# last sub-step) against the database's DGEMM entry, with and without
		# ISSUE_MIX and m16n8k8; then the database's entry (which the
		# next commit may switch) with all transposes and the GPU tests.
		for tr in NN TN; do
			tune_mma i6-pipe64-$tr 80 64 $tr 'MWG=128,NWG=64,KWG=8,WM=64,WN=32,STAGES=3,CP_VEC=1,ISSUE_MIX=0|1,PIPE_FRAG=0|1,MMA_K=4|8,KM_SWZ=0'
		done
		# More warps per SM: 32×32 warp tiles (64 accumulator doubles fewer
		# per thread than 64×32), 4 or 8 warps per group.
		tune_mma i6-warps64 80 64 NN 'MWG=64|128,NWG=64,KWG=8,WM=32,WN=32,STAGES=3,CP_VEC=1,ISSUE_MIX=0|1,PIPE_FRAG=0|1,MMA_K=4,KM_SWZ=0'
		;;
	tf32)
		# 3xTF32 with a third stage: KM_SWZ=1 leaves CP_VEC's k-major tiles
		# unpadded, so 3 stages of the database's 128×128×16 tile fit (48 KiB).
		for tr in NN NT; do
			tune_mma i6-tf32-$tr 80 32 $tr 'MWG=128,NWG=128,KWG=16,WM=64,WN=64,STAGES=2|3,CP_VEC=1,SPLIT_RAW=1,ISSUE_MIX=0,KM_SWZ=0|1'
		done
		# More warps per SM: 64×32 warp tiles hold half the accumulators of
		# 64×64 (the database's tile uses 255 registers and spills, so only 2
		# groups of 4 warps fit on an SM).
		tune_mma i6-tf32-occ 80 32 NN 'MWG=64|128,NWG=64|128,KWG=16,WM=64,WN=32,STAGES=3,CP_VEC=1,SPLIT_RAW=1,ISSUE_MIX=0,KM_SWZ=0'
		;;
	cmp64)
		compare_db cmp64 60 64
		;;
	xfer)
		step i5-xfer 60 ./bench -xfer 512
		;;
	numa)
		{
			lscpu | grep -i -E 'numa|socket|model name|^cpu\(s\)'
			numactl -H 2>&1 | head -12
			nvidia-smi topo -m 2>&1 | head -8
			nvidia-smi -q 2>&1 | grep -i -A12 'PCI$' | head -40
			cat /sys/bus/pci/devices/*/numa_node 2>/dev/null | sort | uniq -c
		} >"$out/numa-host.txt" 2>&1
		# The same transfers through CUDA (PyTorch): whether the bus and
		# the host carry upload and download at full speed at once, which
		# NVIDIA's OpenCL does not (27 GB/s each way at once, 55 alone).
		step numa-cuda 60 python3 "$out/cudaxfer.py"
		step numa-xfer 60 ./bench -xfer 512
		step numa-dgemm 40 ./bench -sizes 4096,8192 -prec 64 -split -pinned -gonum-max 0 -reps 2
		# Bound to each NUMA node (numactl, or taskset with lscpu's CPU
		# lists: first touch then places the memory on that node).
		for node in 0 1; do
			cpus=$(lscpu -p=CPU,NODE 2>/dev/null | awk -F, -v n=$node '!/^#/ && $2 == n {printf "%s%s", s, $1; s=","}')
			[ -n "$cpus" ] || continue
			if command -v numactl >/dev/null; then
				bind=(numactl --cpunodebind=$node --membind=$node)
			else
				bind=(taskset -c "$cpus")
			fi
			step numa-bind-$node 60 "${bind[@]}" ./bench -sizes 8192 -prec 64 -split -pinned -gonum-max 0 -reps 2
			step numa-xfer-$node 40 "${bind[@]}" ./bench -xfer 512
		done
		;;
	slab)
		# The row-slab schedule (default for op(B) not transposed, n, k ≥
		# 4096) against the tile schedule (slab=off), from HostSlices and
		# from plain slices, with every command's timeline.
		for sl in auto off; do
			step slab-$sl 120 env GOCL_GEMM_PIPELINE=slab=$sl,timeline=$out/timeline-slab-$sl.log ./bench -sizes 4096,8192 -prec 64,32 -trans NN,TN -split -pinned -gonum-max 0 -reps 3
		done
		step slab-plain 120 ./bench -sizes 8192 -prec 64,32 -split -gonum-max 0 -reps 3
		;;
	slab3)
		# Slab height and chunk count for DGEMM 8192 from HostSlices.
		for v in tile=512,slab=4 tile=1024,slab=4 tile=512,slab=2 tile=1024,slab=2 tile=512,slab=8; do
			step slab3-$v 40 env GOCL_GEMM_PIPELINE=$v ./bench -sizes 8192 -prec 64 -split -pinned -gonum-max 0 -reps 3
		done
		;;
	slabtn)
		# DGEMM and SGEMM TN from HostSlices: tiles (the default) against
		# row slabs of 4096 and 2048 rows (A's panels then have rows of
		# 32 / 16 KiB in float64).
		for v in auto tile=4096,slab=4 tile=2048,slab=4; do
			step slabtn-$v 60 env GOCL_GEMM_PIPELINE=$v ./bench -sizes 8192 -prec 64,32 -trans TN -split -pinned -gonum-max 0 -reps 3
		done
		;;
	slabtn2)
		# The default schedule against tiles (slab=off) in TN, 4096 and 8192.
		for v in auto slab=off; do
			step slabtn2-$v 90 env GOCL_GEMM_PIPELINE=$v ./bench -sizes 4096,8192 -prec 64,32 -trans TN -split -pinned -gonum-max 0 -reps 3
		done
		;;
	slab2)
		# The default schedule (row slabs where gemmSlabs picks them),
		# no timeline file: the issue-5 figures.
		step slab2-hostslice 120 ./bench -sizes 4096,8192 -prec 64,32 -split -pinned -gonum-max 0 -reps 5
		step slab2-plain 120 ./bench -sizes 8192 -prec 64,32 -split -gonum-max 2048 -reps 3
		;;
	rectgemm)
		step rectgemm 90 ./blas.test -test.run XXX -test.bench RectDuringGemm -test.benchtime 3x
		step hs-trans 90 ./bench -sizes 8192 -prec 64 -trans NN,NT,TN -split -pinned -gonum-max 0 -reps 2
		;;
	rectsrc)
		step rectcond 90 ./blas.test -test.run XXX -test.bench RectConditions -test.benchtime 5x
		;;
	rect)
		# The rect rates by row width, alone and after staged DGEMM calls
		# in the same process; DGEMM with 1024² tiles (8 KiB rows).
		step rect-fresh 60 ./bench -duplex 512
		step rect-after 90 ./bench -sizes 8192 -prec 64 -split -pinned -gonum-max 0 -reps 2 -duplex 512 -duplex-after
		step tl-t1024 60 env GOCL_GEMM_PIPELINE=tile=1024,timeline=$out/timeline-t1024.log ./bench -sizes 8192 -prec 64 -split -pinned -gonum-max 0 -reps 2
		;;
	duplex)
		step duplex 60 ./bench -duplex 512
		# Every command of the staged GEMM calls from HostSlices, with its
		# device times and rate (GOCL_GEMM_PIPELINE=timeline=FILE).
		for p in 64 32; do
			step tl-$p 60 env GOCL_GEMM_PIPELINE=timeline=$out/timeline-$p.log ./bench -sizes 8192 -prec $p -split -pinned -gonum-max 0 -reps 2
		done
		;;
	trsm)
		# The recursive TRSM against the blocked one before it (build.sh
		# does not build that: blas-oldtrsm.test is put there by hand).
		step trsm-new 60 ./blas.test -test.run XXX -test.bench ResidentTrsm -test.benchtime 50x
		if [ -e blas-oldtrsm.test ]; then
			step trsm-old 60 ./blas-oldtrsm.test -test.run XXX -test.bench ResidentTrsm -test.benchtime 50x
		fi
		;;
	trans64)
		tune_mma i6-trans64 120 64 NN,NT,TN,TT 'MWG=128,NWG=64,KWG=8,WM=64,WN=32,STAGES=3,CP_VEC=1,ISSUE_MIX=0|1,PIPE_FRAG=0|1,MMA_K=4,KM_SWZ=0'
		;;
	pipe2)
		for tr in NT TT; do
			tune_mma i6-pipe2-$tr 40 64 $tr 'MWG=128,NWG=64,KWG=8,WM=64,WN=32,STAGES=3,CP_VEC=1,ISSUE_MIX=0|1,PIPE_FRAG=0|1,MMA_K=4,KM_SWZ=0'
		done
		;;
	k16)
		# Fewer barriers per mma.sync: DGEMM's K step 16 and 3xTF32's 32,
		# which fit only two stages, unpadded (KM_SWZ=1), in 48 KiB.
		for tr in NN TN; do
			tune_mma i6-k16-64-$tr 100 64 $tr 'MWG=64|128,NWG=64|128,KWG=16,WM=64,WN=32,STAGES=2,CP_VEC=1,ISSUE_MIX=0|1,PIPE_FRAG=0|1,MMA_K=4|8|16,KM_SWZ=1'
		done
		for tr in NN NT; do
			tune_mma i6-k32-32-$tr 80 32 $tr 'MWG=64|128,NWG=64|128,KWG=32,WM=64,WN=32|64,STAGES=2,CP_VEC=1,SPLIT_RAW=1,ISSUE_MIX=0,KM_SWZ=1'
		done
		;;
	mmak)
		# DGEMM with f64 mma.sync m16n8k8 / k16 (MMA_K): the tuner checks
		# every candidate against gonum, so a wrong fragment layout shows
		# as ok=false. KWG 16 with 128×64 tiles needs more than 48 KiB at two
		# stages, hence the smaller tiles for MMA_K=16.
		tune_mma i6-mmak8 90 64 NN 'MWG=128,NWG=64|128,KWG=8,WM=64,WN=32,STAGES=2|3|4,MMA_K=4|8'
		tune_mma i6-mmak16 90 64 NN 'MWG=64|128,NWG=32|64,KWG=16,WM=32|64,WN=32,STAGES=2|3,MMA_K=8|16'
		;;
	tests)
		step tests-blas 300 ./blas.test -test.count=1
		step tests-cl 120 ./cl.test -test.count=1
		;;
	resident)
		step res-bench 120 ./blas.test -test.run XXX -test.bench 'ResidentLevel2|Level3Route|ResidentGemmHost|GemmUpdate|ResidentTrsm' -test.benchtime 50x
		step res-cg 60 ./cg -n 4096
		step res-mat 120 ./mat -n 2048 -reps 2
		;;
	*)
		echo "plan.sh: unknown plan $plan (want issue5, hostslice, duplex, rect, rectsrc, rectgemm, slab, slab2, slab3, slabtn, slabtn2, trsm, compare, probe, mmak2, mix, deep, pipe, pipe2, trans64, cmp64, xfer, numa, tf32, k16, issue6, cublas, sweep, sweep-cpvec, mmak, tests, resident)" >&2
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
