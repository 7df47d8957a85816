package engine

import (
	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

// Buffers of CPU devices live in the host's memory, and a GEMM that
// walks a column of a large matrix touches a new 4 KiB page at every
// row: past the TLB's reach each of those loads waits for a page walk.
// The kernel backs memory with 2 MiB pages where it is asked to (Linux's
// transparent huge pages in their default "madvise" mode), so on CPU
// devices buffers of at least hugeMin bytes are created over anonymous
// memory taken for them and so advised (hugepages_linux.go); elsewhere,
// or when that fails, they are ordinary buffers (BENCHMARKS.md, "PoCL 3.1
// on an AVX2 machine: buffers on huge pages").

// hugeMin is the least size of a buffer of a CPU device created over
// huge pages. Its memory is taken in whole huge pages, so a smaller one
// could hold twice its size or more.
const hugeMin = 4 << 20

// CreateBuffer creates a read-write buffer of size bytes in ctx for the
// device prof describes: over huge pages on a CPU device when size is at
// least hugeMin, else an ordinary one.
func CreateBuffer(ctx *cl.Context, prof platform.Profile, size int) (*cl.Buffer, error) {
	if prof.IsCPU() && size >= hugeMin {
		if b, ok := hugeBuffer(ctx, size); ok {
			return b, nil
		}
	}
	return ctx.CreateBuffer(cl.MemReadWrite, size)
}
