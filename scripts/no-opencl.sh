#!/usr/bin/env bash
# no-opencl.sh: a program that imports the library starts where no OpenCL
# runtime can be loaded, runs on gonum alone, says so in one line, exits 0
# and gives gonum's answers. examples/mat is built twice (cgo, and
# CGO_ENABLED=0) and run:
#   1. with GOCL_OPENCL_LIBRARY naming a missing file: the setting replaces
#      the library search, so the installed loader is not tried;
#   2. with the setting unset and every libOpenCL the dynamic linker knows
#      hidden (bind-mounted over with /dev/null in a private mount
#      namespace: unshare -rm, no root needed where user namespaces are
#      allowed; skipped with a warning where they are not);
# and its "gonum checksums" line is compared with a run on the OpenCL
# device, when there is one. Exits non-zero on any difference.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf '==> %s\n' "$*" >&2; }
fail() { printf 'no-opencl: %s\n' "$*" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/mat-cgo" ./examples/mat
CGO_ENABLED=0 go build -o "$tmp/mat-nocgo" ./examples/mat
for bin in mat-cgo mat-nocgo; do
	# ldd's output as a string: piped into grep -q, ldd could die of
	# SIGPIPE once grep found the library and, under pipefail, hide it.
	if grep -q libOpenCL <<<"$(ldd "$tmp/$bin" 2>/dev/null)"; then
		fail "$bin links libOpenCL at load time"
	fi
done

n=96
want=""
set +e
out=$("$tmp/mat-cgo" -n $n -reps 1 2>&1)
st=$?
set -e
if grep -q '^mat: no OpenCL device' <<<"$out"; then
	say "WARNING: no OpenCL device here: the runs below are compared with each other only"
else
	[ "$st" -eq 0 ] || fail "the run on the OpenCL device failed (status $st):
$out"
	want=$(grep '^gonum checksums:' <<<"$out") || fail "no checksum line on the device run:
$out"
fi

# check NAME OUTPUT STATUS: exit 0, the one line, the checksums.
check() {
	local name=$1 out=$2 st=$3
	[ "$st" -eq 0 ] || fail "$name: exit status $st:
$out"
	[ "$(grep -c '^mat: no OpenCL device, running on gonum alone: .*no OpenCL runtime found' <<<"$out")" -eq 1 ] ||
		fail "$name: no one-line notice that OpenCL is missing:
$out"
	local got
	got=$(grep '^gonum checksums:' <<<"$out") || fail "$name: no checksum line:
$out"
	if [ -z "$want" ]; then
		want=$got
	elif [ "$got" != "$want" ]; then
		fail "$name: answers differ from gonum's:
 got  $got
 want $want"
	fi
	say "$name: exit 0, on gonum: $(head -n1 <<<"$out" | cut -c1-150)…"
}

for bin in mat-cgo mat-nocgo; do
	set +e
	out=$(GOCL_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1 "$tmp/$bin" -n $n -reps 1 2>&1)
	st=$?
	set -e
	check "$bin, GOCL_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1" "$out" $st
done

if unshare -rm true 2>/dev/null; then
	for bin in mat-cgo mat-nocgo; do
		set +e
		# shellcheck disable=SC2016
		out=$(env -u GOCL_OPENCL_LIBRARY unshare -rm sh -c '
			for f in $(ldconfig -p | awk "/libOpenCL\\.so/ {print \$NF}"); do
				mount --bind /dev/null "$(readlink -f "$f")" || exit 99
			done
			exec "$0" -n '$n' -reps 1' "$tmp/$bin" 2>&1)
		st=$?
		set -e
		check "$bin, default loader hidden" "$out" $st
	done
else
	say "WARNING: unshare -rm is not allowed here: the run with the default loader hidden is skipped"
fi
