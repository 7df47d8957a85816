module github.com/gocompute/opencl

go 1.24.0

require gonum.org/v1/gonum v0.17.0

require golang.org/x/sync v0.16.0
