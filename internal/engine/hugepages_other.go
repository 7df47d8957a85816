//go:build !linux

package engine

import "github.com/gocompute/opencl/cl"

// hugeBuffer reports false: huge pages are asked for on Linux only.
func hugeBuffer(*cl.Context, int) (*cl.Buffer, bool) { return nil, false }
