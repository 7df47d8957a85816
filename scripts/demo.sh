#!/usr/bin/env bash
# demo.sh: install what is missing, then run the examples on the default
# OpenCL device (GOCL_DEVICE chooses another): the device listing, then a
# kernel end to end.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
ensure_deps

say "go run ./examples/devices"
go run ./examples/devices
echo
say "go run ./examples/vecadd"
go run ./examples/vecadd
echo
say "go run ./examples/mat -n ${DEMO_N:-512}   (gonum mat code on gonum's BLAS, then on the device)"
go run ./examples/mat -n "${DEMO_N:-512}"
