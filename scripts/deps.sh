#!/usr/bin/env bash
# deps.sh: make sure what building and testing gocompute/opencl needs is
# here: Go >= 1.24, the OpenCL ICD loader and an OpenCL driver (PoCL, which
# runs OpenCL on the CPU) to run the tests, a C compiler for the race
# detector, and, for the CLBlast comparison only, the OpenCL headers and
# CLBlast. The library itself needs none of them to build: OpenCL is
# loaded at run time. Only what is
# missing is installed, with apt-get, which needs root.
#
# The clblast build (-tags clblast: the side-by-side benchmarks of cmd/bench
# and internal/clblast's test) needs CLBlast and pkg-config besides; they
# are asked for only with the argument clblast:
#
#	./scripts/deps.sh            # building, testing, the demo
#	./scripts/deps.sh clblast    # and the clblast build (scripts/test.sh)
#
# Source it (the other scripts do) to get ensure_go and ensure_deps
# [clblast], which also put Go on PATH.

# Debian packages: the ICD loader (libOpenCL.so.1, loaded at run time),
# PoCL's CPU driver, to run the tests and the demo, and Oclgrind, the
# simulated GPU with memory and API checks that scripts/oclgrind.sh runs the
# BLAS conformance tests on.
DEB_PACKAGES=(ocl-icd-libopencl1 pocl-opencl-icd oclgrind)
# What the clblast build (cgo, linked against CLBlast) needs besides: the
# loader's development files, the headers, CLBlast and pkg-config.
DEB_PACKAGES_CLBLAST=(ocl-icd-opencl-dev opencl-headers libclblast-dev pkg-config)

# say prints a step, after the seconds since the script started (where a
# CI run's time goes).
say() { printf '==> [%d s] %s\n' "$SECONDS" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# ensure_go puts a Go toolchain on PATH (it is often installed in
# /usr/local/go/bin without being on PATH) or explains how to get one.
ensure_go() {
	if ! command -v go >/dev/null 2>&1; then
		for d in /usr/local/go/bin "$HOME/go/bin" /usr/lib/go/bin; do
			if [ -x "$d/go" ]; then
				export PATH="$PATH:$d"
				break
			fi
		done
	fi
	if ! command -v go >/dev/null 2>&1; then
		die "Go is not installed (looked on PATH and in /usr/local/go/bin).
  Install Go 1.24 or newer from https://go.dev/dl/ into /usr/local/go
  (Debian 12's golang-go package is 1.19, too old), then run this again."
	fi
	local v
	v=$(go env GOVERSION 2>/dev/null || true)
	v=${v#go}
	local major=${v%%.*} rest=${v#*.}
	local minor=${rest%%.*}
	if [ -n "$major" ] && [ -n "$minor" ] && { [ "$major" -lt 1 ] || { [ "$major" -eq 1 ] && [ "$minor" -lt 21 ]; }; } 2>/dev/null; then
		die "Go $v is too old: this module needs Go 1.24 or newer (Go 1.21+ fetches it by itself). Install a newer Go from https://go.dev/dl/."
	fi
	local gobin
	gobin=$(go env GOPATH)/bin
	case ":$PATH:" in *":$gobin:"*) ;; *) export PATH="$PATH:$gobin" ;; esac
}

# missing_packages prints what of the system needs is absent, as Debian
# package names; with the argument clblast, what the clblast build needs
# too.
missing_packages() {
	local missing=() want=("${DEB_PACKAGES[@]}")
	if [ "${1:-}" = clblast ]; then
		want+=("${DEB_PACKAGES_CLBLAST[@]}")
	fi
	if command -v dpkg >/dev/null 2>&1; then
		local p
		for p in "${want[@]}"; do
			[ "$p" = pkg-config ] && continue # a command, looked for below
			dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
		done
	else
		# Not Debian: look for the files themselves.
		ldconfig -p 2>/dev/null | grep -q 'libOpenCL\.so\.1\b' || missing+=(ocl-icd-libopencl1)
		ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1 || missing+=(pocl-opencl-icd)
		command -v oclgrind >/dev/null 2>&1 || missing+=(oclgrind)
		if [ "${1:-}" = clblast ]; then
			[ -e /usr/include/CL/cl.h ] || missing+=(opencl-headers)
			ldconfig -p 2>/dev/null | grep -q 'libclblast\.so\b' || missing+=(libclblast-dev)
		fi
	fi
	command -v gcc >/dev/null 2>&1 || missing+=(gcc)
	if [ "${1:-}" = clblast ]; then
		command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
	fi
	echo "${missing[*]}"
}

# ensure_deps [clblast] installs what is missing, or says what to install.
ensure_deps() {
	ensure_go
	local missing
	missing=$(missing_packages "${1:-}")
	if [ "${1:-}" != clblast ] && [ "$(missing_packages clblast)" != "$missing" ]; then
		say "not needed here, but the clblast build (-tags clblast) needs besides: ${DEB_PACKAGES_CLBLAST[*]} (./scripts/deps.sh clblast)"
	fi
	if [ -z "$missing" ]; then
		return 0
	fi
	say "missing: $missing"
	if ! command -v apt-get >/dev/null 2>&1; then
		die "apt-get not found, so these cannot be installed here: $missing
  Install with your package manager: the OpenCL ICD loader and its development
  files (libOpenCL.so), the OpenCL headers (CL/cl.h), an OpenCL driver (PoCL
  for the CPU, or your GPU vendor's), a C compiler and pkg-config."
	fi
	if [ "$(id -u)" -ne 0 ]; then
		die "installing needs root. Run this script as root, or first:
  sudo apt-get update && sudo apt-get install -y $missing"
	fi
	say "apt-get install $missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q || die "apt-get update failed"
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing || die "apt-get install $missing failed"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -euo pipefail
	ensure_deps "${1:-}"
	say "ready: $(go version), $(gcc --version | head -n1)"
	if command -v clinfo >/dev/null 2>&1; then clinfo -l; fi
fi
