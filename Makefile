# gocompute/opencl: common tasks. `make demo` and `make test` install what is
# missing (Go must already be there; it may live in /usr/local/go/bin).

SHELL := /bin/bash
export PATH := $(PATH):/usr/local/go/bin:$(HOME)/go/bin
STATICCHECK_VERSION ?= v0.8.2

.PHONY: all deps demo test lint vet fmt staticcheck devices vecadd bench

all: lint test

deps: ## install what the tests need (ICD loader, PoCL) if missing; ./scripts/deps.sh clblast adds the clblast build's (headers, CLBlast)
	./scripts/deps.sh

demo: ## list the devices, then run a kernel end to end on the default device
	./scripts/demo.sh

test: ## vet, gofmt, staticcheck, go test -race on the device, multi-device tests
	./scripts/test.sh

lint: vet fmt staticcheck

vet:
	go vet ./... ./cmd/...

fmt:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "not gofmt-formatted:"; echo "$$out"; exit 1; fi

staticcheck:
	@command -v staticcheck >/dev/null || go install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	staticcheck ./... ./cmd/...

devices: ## every OpenCL platform and device, and which one Default() picks
	go run ./examples/devices

vecadd:
	go run ./examples/vecadd

bench: ## the benchmarks of every package, on the default device
	go test -run '^$$' -bench . ./...
