#!/usr/bin/env bash
# demo.sh: install what is missing, then run the examples on the default
# OpenCL device (GOCL_DEVICE chooses another): the device listing, a first
# run on an empty program cache, a kernel end to end, gonum mat code on the
# device, a chain of products kept on the device, and conjugate gradients
# with its scalars kept on the device.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
ensure_deps

say "go run ./examples/devices"
go run ./examples/devices
echo
say "go run ./examples/firstrun   (a first run on an empty program cache: the log line, Warmup, then the next run)"
go run ./examples/firstrun
echo
say "go run ./examples/vecadd"
go run ./examples/vecadd
echo
say "go run ./examples/mat -n ${DEMO_N:-512}   (gonum mat code on gonum's BLAS, then on the device)"
go run ./examples/mat -n "${DEMO_N:-512}"
echo
say "go run ./examples/chain -n ${DEMO_N:-512} -steps 10   (a chain of products: drop-in on Go slices vs data kept on the device)"
go run ./examples/chain -n "${DEMO_N:-512}" -steps 10
echo
say "go run ./examples/cg -n 1024   (conjugate gradients with every scalar kept on the device)"
go run ./examples/cg -n 1024
