package engine

import (
	"syscall"
	"unsafe"

	"github.com/gocompute/opencl/cl"
)

// hugePage is the size of the huge pages of x86-64 and arm64 with 4 KiB
// base pages.
const hugePage = 2 << 20

// hugeBuffer's two steps, variables so that tests can make either fail.
var (
	takeHugeMem = hugeMem
	overForeign = cl.CreateBufferOverForeign
)

// hugeBuffer creates a buffer of size bytes over hugeMem's memory, given
// back when the driver deletes the buffer. It reports false where the
// memory could not be taken or advised, or the driver refused it; the
// memory is then given back at once.
func hugeBuffer(ctx *cl.Context, size int) (*cl.Buffer, bool) {
	mem, free, err := takeHugeMem(size)
	if err != nil {
		return nil, false
	}
	b, err := overForeign(ctx, cl.MemReadWrite, mem, free)
	if err != nil {
		free()
		return nil, false
	}
	return b, true
}

// hugeMem returns size bytes of anonymous memory that start at a multiple
// of hugePage and are advised MADV_HUGEPAGE to the end of their last huge
// page, and the function that unmaps them.
func hugeMem(size int) (mem []byte, free func(), err error) {
	n := (size + hugePage - 1) / hugePage * hugePage
	m, err := syscall.Mmap(-1, 0, n+hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, nil, err
	}
	p := uintptr(unsafe.Pointer(&m[0]))
	off := int((p+hugePage-1)&^(hugePage-1) - p)
	if err := syscall.Madvise(m[off:off+n], syscall.MADV_HUGEPAGE); err != nil {
		syscall.Munmap(m)
		return nil, nil, err
	}
	return m[off : off+size : off+n], func() { syscall.Munmap(m) }, nil
}
