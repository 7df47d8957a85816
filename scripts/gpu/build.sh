#!/usr/bin/env bash
# build.sh: build everything a measurement run on a lent GPU machine needs
# into .gpu/run (git ignores it): bench (with CLBlast), tune, the blas, cl
# and lapack test binaries, libclblast, and plan.sh. That machine has the OpenCL
# driver but no Go toolchain, so nothing is built there.
#
# Arguments name the programs to build (bench, tune, blas.test, cl.test,
# lapack.test, cg, mat, devices); none builds them all, which with the
# tool's own copy of the tracked files comes close to the 64 MiB it
# carries: a plan that needs a few programs should name them.
#
# Then, through the device tool, in ONE call (device time is short):
#   run  carry [".gpu/run"]  command "bash .gpu/run/plan.sh PLAN..."
# plan.sh writes one log per step under $OUT and prints their tails.
#
# To compare revisions (one test binary built at each, run alternating in
# one call), scripts/gpu/ab.sh instead.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=.gpu/run
rm -rf "$dir"
mkdir -p "$dir"
# Without the symbol table and DWARF (-s -w), so that the folder fits what
# the device tool carries (64 MiB); Go's own tables, which profiles use,
# stay.
ld=(-ldflags='-s -w')
want=${*:-bench tune blas.test cl.test lapack.test cg mat devices}
for p in $want; do
	case $p in
	bench) go build "${ld[@]}" -tags clblast -o "$dir/bench" ./cmd/bench ;;
	tune) go build "${ld[@]}" -o "$dir/tune" ./cmd/tune ;;
	*.test) go test -c "${ld[@]}" -o "$dir/$p" "./${p%.test}" ;;
	cg | mat | devices) go build "${ld[@]}" -o "$dir/$p" "./examples/$p" ;;
	*)
		echo "build.sh: unknown program $p" >&2
		exit 2
		;;
	esac
done
lib=$(ls /usr/lib/x86_64-linux-gnu/libclblast.so.1.* 2>/dev/null | head -1 || true)
if [ -n "$lib" ]; then
	cp "$lib" "$dir/libclblast.so.1"
fi
cp scripts/gpu/plan.sh scripts/gpu/profile.sh scripts/gpu/ptxrun.py scripts/gpu/ptxextract.py scripts/gpu/stalls.py scripts/gpu/chain.py kernels/gemm_tuning.json "$dir/"
# OLD_TUNING=file: a tuning database to compare this build's with (plan.sh tuning-ab).
if [ -n "${OLD_TUNING:-}" ]; then
	cp "$OLD_TUNING" "$dir/old_tuning.json"
fi
du -sh "$dir"
