module github.com/gocompute/opencl

go 1.24.0

require (
	github.com/ebitengine/purego v0.10.2
	golang.org/x/sync v0.16.0
	golang.org/x/sys v0.30.0
	gonum.org/v1/gonum v0.17.0
)
