package clblas

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"
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
	e    *engine
	p    *pinnedBuf
	data []T
	once sync.Once
	err  error
}

// NewHostSlice allocates n elements of pinned host memory on impl's
// device's context, zeroed.
func NewHostSlice[T float32 | float64](impl *Implementation, n int) (*HostSlice[T], error) {
	if err := checkHostCount(n, elemSize[T]()); err != nil {
		return nil, err
	}
	e, err := engineFor[T](impl)
	if err != nil {
		return nil, err
	}
	p, err := e.pinned.create(n * elemSize[T]())
	if err != nil {
		return nil, fmt.Errorf("clblas: NewHostSlice: %w", err)
	}
	h := &HostSlice[T]{e: e, p: p, data: pinnedView[T](p, n)}
	clear(h.data)
	if err := e.hostSlices.add(p); err != nil {
		e.pinned.destroy(p)
		return nil, err
	}
	return h, nil
}

// Data is the memory, as a slice of the length asked for.
func (h *HostSlice[T]) Data() []T { return h.data }

// Release frees the memory; the slice Data returned must not be used
// afterwards. Calls after the first return the first's result.
func (h *HostSlice[T]) Release() error {
	h.once.Do(func() {
		if h.e.hostSlices.remove(h.p) {
			h.err = h.e.pinned.destroy(h.p)
		}
		h.data = nil
	})
	return h.err
}

// hostSliceSet is the engine's live HostSlices, so that GEMM can tell
// whether an operand lies in pinned memory.
type hostSliceSet struct {
	mu     sync.RWMutex
	live   map[*pinnedBuf]struct{}
	closed bool
}

func (s *hostSliceSet) add(p *pinnedBuf) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	if s.live == nil {
		s.live = map[*pinnedBuf]struct{}{}
	}
	s.live[p] = struct{}{}
	return nil
}

// remove reports whether p was live (and so is the caller's to free).
func (s *hostSliceSet) remove(p *pinnedBuf) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.live[p]
	delete(s.live, p)
	return ok
}

// pinned reports whether every element of x lies in one live HostSlice.
// The caller must not release that HostSlice while the call runs (a
// HostSlice in use by a call is the caller's to keep alive, as with any
// memory handed to a function).
func pinnedSlice[T real](s *hostSliceSet, x []T) bool {
	if len(x) == 0 {
		return false
	}
	var v T
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(x)))
	hi := lo + uintptr(len(x))*unsafe.Sizeof(v)
	s.mu.RLock()
	defer s.mu.RUnlock()
	for p := range s.live {
		plo := uintptr(unsafe.Pointer(unsafe.SliceData(p.host)))
		if lo >= plo && hi <= plo+uintptr(len(p.host)) {
			return true
		}
	}
	return false
}

// close frees the HostSlices still live (the engine is closing).
func (s *hostSliceSet) close(pool *pinnedPool) error {
	s.mu.Lock()
	live := s.live
	s.live, s.closed = nil, true
	s.mu.Unlock()
	var errs []error
	for p := range live {
		errs = append(errs, pool.destroy(p))
	}
	return errors.Join(errs...)
}
