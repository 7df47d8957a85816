package clblas

import (
	"errors"
	"fmt"
	"sync"

	eng "github.com/gocompute/opencl/internal/engine"
)

// HostSlice is host memory that the device reads and writes by DMA at the
// bus's full speed: pinned (page-locked) memory from the OpenCL driver
// (a CL_MEM_ALLOC_HOST_PTR buffer, mapped), seen from Go as a []T.
//
// GEMM on host slices copies ordinary Go memory into pinned staging memory
// before each upload and out of it after each download; on a host whose
// memory bandwidth is modest those copies, not the bus or the device, set
// the speed (BENCHMARKS.md). Matrices whose data lie in a HostSlice skip
// them: their panels go to and from the device straight from the slice.
// Use Data as the backing of a gonum matrix:
//
//	hs, err := clblas.NewHostSlice[float64](impl, r*c)
//	…
//	defer hs.Release()
//	a := mat.NewDense(r, c, hs.Data())
//
// The memory is not Go's: Release (or closing the Implementation) frees
// it, and the slice Data returned must not be used after that, as with
// memory from syscall.Mmap after Munmap. The memory counts against the
// host's RAM that the operating system cannot page out.
type HostSlice[T float32 | float64] struct {
	e    *eng.Engine
	p    *eng.Pinned
	data []T
	once sync.Once
	err  error
}

// NewHostSlice allocates n elements of pinned host memory on impl's
// device's context, zeroed.
func NewHostSlice[T float32 | float64](impl *Implementation, n int) (*HostSlice[T], error) {
	if err := checkHostCount(n, eng.ElemSize[T]()); err != nil {
		return nil, err
	}
	e, err := engineFor[T](impl)
	if err != nil {
		return nil, err
	}
	p, err := e.HostSlices.New(&e.Pinned, n*eng.ElemSize[T]())
	if errors.Is(err, eng.ErrClosed) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("clblas: NewHostSlice: %w", err)
	}
	h := &HostSlice[T]{e: e, p: p, data: eng.PinnedView[T](p, n)}
	clear(h.data)
	return h, nil
}

// Data is the memory, as a slice of the length asked for.
func (h *HostSlice[T]) Data() []T { return h.data }

// Release frees the memory; the slice Data returned must not be used
// afterwards. Calls after the first return the first's result.
func (h *HostSlice[T]) Release() error {
	h.once.Do(func() {
		h.err = h.e.HostSlices.Free(&h.e.Pinned, h.p)
		h.data = nil
	})
	return h.err
}
