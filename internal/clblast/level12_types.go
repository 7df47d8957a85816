package clblast

import "github.com/gocompute/opencl/cl"

// Vec is a strided vector in a device buffer: element i at Buf[Off +
// i·Inc], in elements.
type Vec struct {
	Buf      *cl.Buffer
	Off, Inc int
}

// Mat is a row-major matrix in a device buffer: element (i, j) at
// Buf[Off + i·Ld + j], in elements.
type Mat struct {
	Buf     *cl.Buffer
	Off, Ld int
}
