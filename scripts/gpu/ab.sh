#!/usr/bin/env bash
# ab.sh: compare revisions on a lent GPU machine in one device call. Builds
# one package's test binary at each revision into .gpu/run, gzipped (four
# stripped blas.test binaries would not fit the 64 MiB the device tool
# carries otherwise), and writes .gpu/run/ab-run.sh, which on that machine
# unpacks them and runs the same test-binary arguments with each, the
# revisions alternating, round after round, so that every revision sees
# the same machine at about the same time.
#
# Usage: scripts/gpu/ab.sh PACKAGE REVISION... -- TEST-BINARY-ARGUMENTS...
#   scripts/gpu/ab.sh blas main mybranch~1 mybranch -- -test.run '^$' \
#     -test.bench 'TrsvShape/[SDZ]/' -test.benchtime 5x -trsv.n 8192 -trsv.shapes f
# then, through the device tool (carry [".gpu/run"]):
#   ROUNDS=2 UNTIL=240 STEP_TIMEOUT=60 bash .gpu/run/ab-run.sh
#
# AB_CACHE, set on the lent machine, is the folder of the revisions'
# program caches, kept between runs of ab-run.sh in one call (default: a
# new one each run; give each run an OUT of its own, since the logs are
# named by round).
#
# AB_DIR (default .gpu/run, which the device tool carries with everything
# under it) is where the binaries and ab-run.sh go: two comparisons, each
# in a folder of its own, can ride one call.
#
# Each revision's binary is named by its short hash; a run's log is
# $OUT/ab_HASH_ROUND.log, and ab-run.sh prints each benchmark line's name
# with its rates (units ending in /s) and ns/op. Each revision keeps a
# program cache of its own, so its first round includes the kernels'
# compilation only where the benchmark's own warm-up does not. After
# ROUNDS rounds (default 2), ab-run.sh starts another while fewer than
# UNTIL seconds (default 0) have passed (a round started just before
# then still runs to its end: leave the call room for one). The rounds
# after the first find the kernels built and take a fraction of the
# first's time, so a call's time left over buys more rounds.
set -euo pipefail
cd "$(dirname "$0")/../.."

usage() {
	echo "usage: scripts/gpu/ab.sh PACKAGE REVISION... -- TEST-BINARY-ARGUMENTS..." >&2
	exit 2
}

[ $# -ge 3 ] || usage
pkg=$1
shift
revs=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	revs+=("$1")
	shift
done
[ ${#revs[@]} -gt 0 ] && [ "${1:-}" = -- ] || usage
shift
[ $# -gt 0 ] || usage
args=("$@")

dir=${AB_DIR:-.gpu/run}
mkdir -p "$dir"
rm -f "$dir"/ab_*.test.gz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; git worktree prune' EXIT
names=()
for rev in "${revs[@]}"; do
	h=$(git rev-parse --short "$rev^{commit}")
	git worktree add -q --detach "$tmp/$h" "$h"
	(cd "$tmp/$h" && go test -c -ldflags='-s -w' -o "$tmp/$h.test" "./$pkg")
	gzip -c "$tmp/$h.test" >"$dir/ab_$h.test.gz"
	git worktree remove --force "$tmp/$h"
	names+=("$h")
	echo "$rev: $h"
done

{
	echo '#!/usr/bin/env bash'
	echo '# Written by scripts/gpu/ab.sh; see there.'
	echo 'set -uo pipefail'
	echo 'here=$(cd "$(dirname "$0")" && pwd)'
	echo 'out=${OUT:-$here/out}'
	echo 'mkdir -p "$out"'
	echo '# The image does not list NVIDIA'"'"'s OpenCL driver.'
	echo 'if [ -e /usr/lib/libnvidia-opencl.so.1 ] && [ -d /etc/OpenCL/vendors ]; then'
	echo '	echo /usr/lib/libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd'
	echo 'fi'
	echo 'export LD_LIBRARY_PATH=$here${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}'
	echo 'export GOCL_DEVICE=${GOCL_DEVICE:-nvidia}'
	printf 'names=(%s)\n' "${names[*]}"
	printf 'args=(%s)\n' "$(printf '%q ' "${args[@]}")"
	cat <<'EOF'
bin=$(mktemp -d)
for h in "${names[@]}"; do
	gunzip -c "$here/ab_$h.test.gz" >"$bin/$h.test" && chmod +x "$bin/$h.test"
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
r=0
while [ $r -lt "${ROUNDS:-2}" ] || [ $SECONDS -lt "${UNTIL:-0}" ]; do
	r=$((r + 1))
	for h in "${names[@]}"; do
		log=$out/ab_${h}_$r.log
		GOCL_CACHE_DIR=${AB_CACHE:-$bin}/cache_$h timeout "${STEP_TIMEOUT:-60}" "$bin/$h.test" "${args[@]}" >"$log" 2>&1
		echo "== $h, round $r: exit $?"
		awk '/^Benchmark/ {
			line = $1
			for (i = 3; i <= NF; i++) if ($i ~ /\/s$/ || $i == "ns/op") line = line " " $(i - 1) " " $i
			print line
		}' "$log"
	done
done
EOF
} >"$dir/ab-run.sh"
chmod +x "$dir/ab-run.sh"
du -sh "$dir"
