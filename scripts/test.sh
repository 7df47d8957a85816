#!/usr/bin/env bash
# test.sh: install what is missing, then run the whole check: go vet, gofmt,
# staticcheck, the test suite with the race detector on the default OpenCL
# device (a missing device is a failure, not a skip), each fuzz target for a
# bounded time, and the cl and platform tests again with PoCL listing two
# devices. Exits non-zero if any step fails; the go test output comes last.
#
# Environment: GOCL_DEVICE picks the device (default: the best one);
# STATICCHECK=0 skips staticcheck; OCLGRIND=0 skips the Oclgrind step
# (scripts/oclgrind.sh); GO_TEST_FLAGS adds flags to go test;
# FUZZTIME is the budget per fuzz target (default 30000x executions, 0 skips fuzzing).
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
ensure_deps clblast # the clblast build is part of the check

STATICCHECK_VERSION=v0.8.2 # works with the go 1.24 module and the go 1.26 toolchain
failed=()

say "go vet ./... ./cmd/...   (cmd/ is a module of its own; go.work joins them)"
go vet ./... ./cmd/... || failed+=("go vet")

say "gofmt -l ."
unformatted=$(gofmt -l . 2>&1)
if [ -n "$unformatted" ]; then
	printf 'not gofmt-formatted (run gofmt -w):\n%s\n' "$unformatted" >&2
	failed+=("gofmt")
fi

if [ "${STATICCHECK:-1}" != 0 ]; then
	if ! staticcheck -version 2>/dev/null | grep -q "(${STATICCHECK_VERSION#v})"; then
		say "go install honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION"
		go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION" ||
			say "WARNING: could not install staticcheck $STATICCHECK_VERSION; going on without it"
	fi
	if command -v staticcheck >/dev/null 2>&1; then
		say "staticcheck ./... ./cmd/..."
		staticcheck ./... ./cmd/... || failed+=("staticcheck")
	else
		say "WARNING: staticcheck not available; skipped"
	fi
fi

# OpenCL is loaded at run time: the module builds without cgo (no C
# compiler, no OpenCL headers), cross-compiles, and starts without OpenCL.
say "CGO_ENABLED=0 go build ./... && CGO_ENABLED=0 go vet ./..."
{ CGO_ENABLED=0 go build ./... && CGO_ENABLED=0 go vet ./...; } || failed+=("CGO_ENABLED=0 build")
for target in darwin/arm64 windows/amd64; do
	say "GOOS=${target%/*} GOARCH=${target#*/} go build ./... && go vet ./cl/"
	{ GOOS=${target%/*} GOARCH=${target#*/} go build ./... && GOOS=${target%/*} GOARCH=${target#*/} go vet ./cl/; } ||
		failed+=("build for $target")
done
say "scripts/no-opencl.sh (examples/mat with the OpenCL loader unavailable)"
./scripts/no-opencl.sh || failed+=("no-OpenCL run")

if [ ${#failed[@]} -gt 0 ]; then
	say "FAILED so far: ${failed[*]} (running the tests anyway)"
fi

# The BLAS conformance tests on Oclgrind, a simulated GPU that checks every
# memory access, API call and (in a second pass) local-memory race. Its
# passes simulate on one host thread each and the main suite below mostly
# compiles kernels on one, so on the 2-core CI machine the step runs in
# the background beside the suite; its output is printed after the
# suite's steps, and its exit status counts as theirs do.
oclgrind_pid=""
if [ "${OCLGRIND:-1}" != 0 ]; then
	oclgrind_log=$(mktemp)
	say "scripts/oclgrind.sh (in the background; its output comes after the other steps)"
	./scripts/oclgrind.sh >"$oclgrind_log" 2>&1 &
	oclgrind_pid=$!
fi

# The blas package's slowest tests, most of their time PoCL building
# kernel variants (the device zoo, the emulated tensor-core GEMM, the tuned
# configurations, the canaries, level 1's launch shapes, the symmetric
# products' stream shapes, the triangular solves' schedules), run in a
# process of their own, then the fuzz targets and the clblast build's
# tests, beside the rest of the suite: one test process at a time leaves
# a core of the 2-core CI machine idle once Oclgrind's passes end. The two
# lines' outputs are printed one after the other; every failure counts.
BLAS_SLOW='^(TestDeviceZoo|TestGemmMMAEmulated|TestGemmTunedConfigs|TestCanaries|TestLevel1ShapeVariants|TestSymvKernels|TestZstreamKernels|TestTrsv.*)$'
side_failed=$(mktemp)
side_log=$(mktemp)
side_line() {
	# shellcheck disable=SC2086
	say "GOCL_REQUIRE_DEVICE=1 go test -race -count=1 -run '$BLAS_SLOW' ./blas"
	GOCL_REQUIRE_DEVICE=1 go test -race -count=1 -timeout 45m -run "$BLAS_SLOW" ${GO_TEST_FLAGS:-} ./blas ||
		echo "go test ./blas -run (the slow tests)" >>"$side_failed"

	# Each fuzz target runs for a bounded time on the default device; a
	# crasher is written to <package>/testdata/fuzz/<target>/, where it
	# stays once fixed. FUZZTIME sets the budget per target (default
	# 30000x, 10–25 s here; 0 skips fuzzing). A count, not a duration: with a
	# duration, Go 1.26's fuzz coordinator can report its own deadline as
	# a failure on a loaded machine ("context deadline exceeded" with no
	# crasher; golang/go#75804, fixed in Go 1.27).
	if [ "${FUZZTIME:-30000x}" != 0 ]; then
		for target in blas:FuzzDropIn blas:FuzzResident lapack:FuzzLapack; do
			pkg=./${target%%:*} target=${target#*:}
			say "GOCL_REQUIRE_DEVICE=1 go test -run '^\$' -fuzz '^$target\$' -fuzztime ${FUZZTIME:-30000x} $pkg"
			GOCL_REQUIRE_DEVICE=1 go test -run '^$' -fuzz "^$target\$" -fuzztime "${FUZZTIME:-30000x}" "$pkg" ||
				echo "fuzz $target" >>"$side_failed"
		done
	fi

	# shellcheck disable=SC2086
	say "GOCL_REQUIRE_DEVICE=1 go test -race -count=1 -tags clblast ./internal/clblast/ ./cmd/bench/"
	go vet -tags clblast ./internal/clblast/ ./cmd/bench/ &&
		GOCL_REQUIRE_DEVICE=1 go test -race -count=1 -tags clblast -timeout 10m ${GO_TEST_FLAGS:-} ./internal/clblast/ ./cmd/bench/ ||
		echo "go test -tags clblast" >>"$side_failed"
}
say "the blas package's slow tests, fuzzing and the clblast build (in the background; their output comes after the suite's)"
side_line >"$side_log" 2>&1 &
side_pid=$!

# The blas package builds hundreds of kernel programs on an empty cache
# (a new CI machine): on a loaded 2-core machine that alone has taken more
# than the default 10 minutes, hence the longer limit.
others=$(go list ./... ./cmd/... | grep -v -x 'github.com/gocompute/opencl/blas')
# shellcheck disable=SC2086
say "GOCL_REQUIRE_DEVICE=1 go test -race -count=1 ./... ./cmd/... (the blas package without its slow tests)"
GOCL_REQUIRE_DEVICE=1 go test -race -count=1 -p 1 -timeout 45m ${GO_TEST_FLAGS:-} $others ||
	failed+=("go test ./...")
# shellcheck disable=SC2086
GOCL_REQUIRE_DEVICE=1 go test -race -count=1 -timeout 45m -skip "$BLAS_SLOW" ${GO_TEST_FLAGS:-} ./blas ||
	failed+=("go test ./blas")

# PoCL lists as many CPU devices as POCL_DEVICES names: two, so the
# multi-device tests run (they skip on a one-device machine).
# shellcheck disable=SC2086
say "POCL_DEVICES=\"pthread pthread\" GOCL_REQUIRE_DEVICE=1 go test -race -count=1 ./cl/... ./platform/..."
POCL_DEVICES="pthread pthread" GOCL_REQUIRE_DEVICE=1 go test -race -count=1 -p 1 -timeout 10m ${GO_TEST_FLAGS:-} ./cl/... ./platform/... ||
	failed+=("go test (two PoCL devices)")
# One Implementation over both: split GEMMs, a slow and a failing device.
# shellcheck disable=SC2086
say "POCL_DEVICES=\"pthread pthread\" GOCL_REQUIRE_DEVICE=1 go test -race -count=1 -run 'TestMulti' ./blas"
POCL_DEVICES="pthread pthread" GOCL_REQUIRE_DEVICE=1 go test -race -count=1 -run 'TestMulti' -timeout 5m ${GO_TEST_FLAGS:-} ./blas ||
	failed+=("go test ./blas -run TestMulti (two PoCL devices)")

# The cl and platform tests once more without cgo: calls then go through
# purego instead of the small C function (the race detector needs cgo).
# shellcheck disable=SC2086
say "CGO_ENABLED=0 GOCL_REQUIRE_DEVICE=1 go test -count=1 ./cl/... ./platform/..."
CGO_ENABLED=0 GOCL_REQUIRE_DEVICE=1 go test -count=1 -p 1 -timeout 10m ${GO_TEST_FLAGS:-} ./cl/... ./platform/... ||
	failed+=("go test (CGO_ENABLED=0)")

wait "$side_pid"
say "the slow blas tests, fuzzing and the clblast build: their output:"
cat "$side_log" >&2
if [ -s "$side_failed" ]; then
	mapfile -t more <"$side_failed"
	failed+=("${more[@]}")
fi
rm -f "$side_log" "$side_failed"

if [ -n "$oclgrind_pid" ]; then
	wait "$oclgrind_pid"
	rc=$?
	say "scripts/oclgrind.sh: exit $rc; its output:"
	cat "$oclgrind_log" >&2
	rm -f "$oclgrind_log"
	[ "$rc" -eq 0 ] || failed+=("oclgrind")
fi

if [ ${#failed[@]} -gt 0 ]; then
	say "FAILED: ${failed[*]}"
	exit 1
fi
