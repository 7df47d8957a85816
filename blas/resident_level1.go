package clblas

import (
	eng "github.com/gocompute/opencl/internal/engine"

	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
)

// Device-resident vectors, scalar futures and the level 1 operations on
// them. Every operation enqueues its kernels on the Implementation's
// in-order queue and returns at once; see the package comment of the
// resident API in resident.go.

// ErrInvalidArg is wrapped by errors about an invalid enum argument
// (blas.Transpose, blas.Uplo, blas.Diag, blas.Side, blas.Flag) or a
// negative count.
var ErrInvalidArg = errors.New("clblas: invalid argument")

// errNilOperand is returned when a nil matrix or vector is passed.
var errNilOperand = errors.New("clblas: nil matrix or vector")

// Vector is a strided vector of float32, float64, complex64 or complex128
// in device memory:
// element i lies at element Offset + i·Inc of its buffer. It may be a view
// into a larger vector or a matrix (Inc ≥ 1).
type Vector[T Element] struct {
	st          *storage
	off, n, inc int
}

// NewVector allocates a vector of n elements on impl's device, filled
// with zeros like a slice from make; it returns once the fill is done.
func NewVector[T Element](impl *Implementation, n int) (*Vector[T], error) {
	v, err := allocVector[T](impl, n)
	if err != nil {
		return nil, err
	}
	if err := v.st.zero(n * eng.ElemSize[T]()); err != nil {
		v.Release()
		return nil, fmt.Errorf("clblas: NewVector(%d): %w", n, err)
	}
	return v, nil
}

// allocVector allocates a vector of n elements whose contents are undefined.
func allocVector[T Element](impl *Implementation, n int) (*Vector[T], error) {
	e, err := engineFor[T](impl)
	if err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, fmt.Errorf("clblas: NewVector(%d): length must be positive: %w", n, ErrShape)
	}
	if err := checkCount("NewVector", n, eng.ElemSize[T]()); err != nil {
		return nil, err
	}
	buf, err := eng.CreateBuffer(e.RT.Context(), e.Prof, n*eng.ElemSize[T]())
	if err != nil {
		return nil, fmt.Errorf("clblas: NewVector(%d): %w", n, err)
	}
	return &Vector[T]{st: &storage{e: e, buf: buf}, n: n, inc: 1}, nil
}

// NewVectorFrom allocates a vector of len(data) elements and copies data
// into it; it returns once the copy is done, so data may be reused at once.
func NewVectorFrom[T Element](impl *Implementation, data []T) (*Vector[T], error) {
	v, err := allocVector[T](impl, len(data))
	if err != nil {
		return nil, err
	}
	ev, err := cl.WriteBuffer(v.st.e.Queue, v.st.buf, true, 0, data)
	if err != nil {
		v.Release()
		return nil, fmt.Errorf("clblas: NewVectorFrom: %w", err)
	}
	ev.Release()
	return v, nil
}

// Len returns the number of elements of the vector.
func (v *Vector[T]) Len() int { return v.n }

// Inc is the distance in elements between consecutive elements.
func (v *Vector[T]) Inc() int { return v.inc }

// View returns the vector of n elements whose element i is element
// offset + i·inc of v (inc ≥ 1; with n = 1 too, inc·Inc must fit an int32),
// sharing v's storage. Releasing v releases
// its views.
func (v *Vector[T]) View(offset, n, inc int) (*Vector[T], error) {
	if err := v.storage().check(); err != nil {
		return nil, err
	}
	if !stridedInRange(offset, n, inc, v.inc, v.n) {
		return nil, fmt.Errorf("clblas: View(%d, %d, %d) of a vector of %d: %w", offset, n, inc, v.n, ErrShape)
	}
	return &Vector[T]{st: v.st, off: v.off + offset*v.inc, n: n, inc: v.inc * inc}, nil
}

// Release frees the vector's device memory (and so all views of it) once
// the commands using it have finished. It is safe to call more than once.
func (v *Vector[T]) Release() error { return v.st.release() }

// Buffer exposes the OpenCL buffer behind the vector, with the element
// offset of element 0 and the increment, for interoperation with other
// OpenCL code on the same queue. Do not release it.
func (v *Vector[T]) Buffer() (buf *cl.Buffer, offset, inc int, err error) {
	if err := v.storage().check(); err != nil {
		return nil, 0, 0, err
	}
	return v.st.buf, v.off, v.inc, nil
}

// storage is the vector's storage, or nil for a nil vector.
func (v *Vector[T]) storage() *storage {
	if v == nil {
		return nil
	}
	return v.st
}

// Read copies the vector into dst (len(dst) ≥ Len) after every operation
// submitted before it has run.
func (v *Vector[T]) Read(dst []T) error {
	ev, err := v.read(dst, true)
	if err != nil {
		return err
	}
	return ev.Wait()
}

// ReadAsync is Read without waiting: dst holds the vector once the event
// completes, and must not be touched until then.
func (v *Vector[T]) ReadAsync(dst []T, wait ...*Event) (*Event, error) {
	return v.read(dst, false, wait...)
}

func (v *Vector[T]) read(dst []T, blocking bool, wait ...*Event) (*Event, error) {
	c, err := start[T]("Read", wait, v.storage())
	if err != nil {
		return nil, err
	}
	if len(dst) < v.n {
		c.Fail(fmt.Errorf("%d elements for a vector of %d: %w", len(dst), v.n, ErrShape))
		return finishAsync(c)
	}
	src, off := v.st.buf, v.off
	if v.inc != 1 {
		// Gather the elements on the device, then read them in one piece.
		src, off = eng.Alloc[T](c, v.n), 0
		copyElems[T](c, v.n, v.st.buf, v.off, v.inc, src, 0, 1)
	}
	c.Enqueue("read", func(q *cl.Queue) (*cl.Event, error) { return cl.ReadBuffer(q, src, blocking, off, dst[:v.n]) })
	return finishAsync(c)
}

// Write copies src (len(src) ≥ Len) into the vector, after every
// operation submitted before it. src must not be modified until the
// returned event completes.
func (v *Vector[T]) Write(src []T, wait ...*Event) (*Event, error) {
	c, err := start[T]("Write", wait, v.storage())
	if err != nil {
		return nil, err
	}
	if len(src) < v.n {
		c.Fail(fmt.Errorf("%d elements for a vector of %d: %w", len(src), v.n, ErrShape))
		return finishAsync(c)
	}
	if v.inc == 1 {
		c.Enqueue("", func(q *cl.Queue) (*cl.Event, error) { return cl.WriteBuffer(q, v.st.buf, false, v.off, src[:v.n]) })
		return finishAsync(c)
	}
	tmp := eng.Upload(c, src[:v.n])
	copyElems[T](c, v.n, tmp, 0, 1, v.st.buf, v.off, v.inc)
	return finishAsync(c)
}

// Scalar is the future of a reduction (Dot, Nrm2, Asum, Iamax, Dsdot): its
// embedded Event completes when the result has reached the host, and can
// be passed as a dependency like any other; Value waits for it and returns
// the result.
type Scalar[T int | float32 | float64 | complex64 | complex128] struct {
	*Event
	merge func() (T, error)
	slot  *eng.Slot // the result's host memory, freed after merge
	once  sync.Once
	val   T
	err   error
}

// Value waits for the reduction (or for ctx to be done) and returns its
// result. A cancelled wait returns ctx.Err(); a later Value may still
// succeed.
func (s *Scalar[T]) Value(ctx context.Context) (T, error) {
	var zero T
	if err := s.WaitContext(ctx); err != nil {
		return zero, err
	}
	s.once.Do(func() {
		s.val, s.err = s.merge()
		if s.slot != nil {
			s.slot.Free()
		}
	})
	return s.val, s.err
}

// start checks that the operands are live and belong to one engine, then
// begins call routine in precision T after the events in wait.
func start[T eng.Elem](routine string, wait []*Event, sts ...*storage) (*eng.Call, error) {
	if err := operands(routine, sts...); err != nil {
		return nil, err
	}
	c := eng.Begin[T](sts[0].e, routine)
	c.Lazy = true // finishAsync returns an event made on demand
	after(c, wait)
	return c, nil
}

// operands checks that the operands are non-nil, live and belong to one
// engine.
func operands(routine string, sts ...*storage) error {
	for _, s := range sts {
		if s == nil {
			return fmt.Errorf("clblas: %s: %w", routine, errNilOperand)
		}
	}
	if err := sameEngine(sts...); err != nil {
		return fmt.Errorf("clblas: %s: %w", routine, err)
	}
	return nil
}

// opErr is an argument error of a resident operation.
func opErr(routine, format string, args ...any) error {
	return fmt.Errorf("clblas: %s: "+format, append([]any{routine}, args...)...)
}

// readBack enqueues a non-blocking read of the first n (at most 2)
// elements of b into a pinned result slot (eng.ReadSlot) and returns the
// function that loads them, once the call's last event has completed;
// bytes is the size of the reduction's operands (opBytes).
// finishScalar hands the slot to the Scalar, which frees it.
func readBack[P eng.Real](c *eng.Call, b *cl.Buffer, n, bytes int) func() [2]P {
	s := eng.ReadSlot[P](c, b, n, bytes)
	return func() (v [2]P) {
		if s != nil {
			eng.SlotLoad(s, v[:n])
		}
		return v
	}
}

// opBytes is the size of a reduction's operands: their elements, not
// the gaps between them.
func opBytes[T Element](vs ...*Vector[T]) int {
	b := 0
	for _, v := range vs {
		b += v.n * eng.ElemSize[T]()
	}
	return b
}

// finishScalar ends a resident reduction whose result is being read back
// into the call's result slot: merge runs once it has arrived, and the
// slot goes back to its pool after the merge, or when the Scalar is
// dropped without one.
func finishScalar[T int | float32 | float64 | complex64 | complex128](c *eng.Call, merge func() (T, error)) (*Scalar[T], error) {
	slot := c.ResultSlot()
	ev, err := finishAsync(c)
	if err != nil {
		return nil, err
	}
	s := &Scalar[T]{Event: ev, merge: merge, slot: slot}
	if slot != nil {
		runtime.AddCleanup(s, freeSlot, slotAfter{slot, ev})
	}
	return s, nil
}

// sameLen checks that x and y have the same length.
func sameLen[T Element](routine string, x, y *Vector[T]) error {
	if x.n != y.n {
		return opErr(routine, "vectors of %d and %d elements: %w", x.n, y.n, ErrShape)
	}
	return eng.L1Check(x.n)
}

// twoVecOp is the skeleton of the level 1 operations on two vectors of the
// same length (more: other operands it reads).
func twoVecOp[T Element](routine string, x, y *Vector[T], wait []*Event, enqueue func(c *eng.Call), more ...*storage) (*Event, error) {
	c, err := start[T](routine, wait, append([]*storage{x.storage(), y.storage()}, more...)...)
	if err != nil {
		return nil, err
	}
	if err := errors.Join(sameLen(routine, x, y), checkL1Alias(routine, x, y)); err != nil {
		c.Finish()
		return nil, err
	}
	enqueue(c)
	return finishAsync(c)
}

// axpyReal is Axpy for real vectors.
func axpyReal[T float32 | float64](alpha T, x, y *Vector[T], wait ...*Event) (*Event, error) {
	return twoVecOp("Axpy", x, y, wait, func(c *eng.Call) {
		eng.AxpyOnDevice(c, x.n, alpha, x.st.buf, x.off, x.inc, y.st.buf, y.off, y.inc)
	})
}

// copyReal is Copy for real vectors.
func copyReal[T float32 | float64](x, y *Vector[T], wait ...*Event) (*Event, error) {
	return twoVecOp("Copy", x, y, wait, func(c *eng.Call) {
		eng.CopyOnDevice[T](c, x.n, x.st.buf, x.off, x.inc, y.st.buf, y.off, y.inc)
	})
}

// swapReal is Swap for real vectors.
func swapReal[T float32 | float64](x, y *Vector[T], wait ...*Event) (*Event, error) {
	return twoVecOp("Swap", x, y, wait, func(c *eng.Call) {
		eng.SwapOnDevice[T](c, x.n, x.st.buf, x.off, x.inc, y.st.buf, y.off, y.inc)
	})
}

// Rot enqueues the plane rotation x, y = c·x + s·y, c·y − s·x.
func Rot[T float32 | float64](x, y *Vector[T], c, s T, wait ...*Event) (*Event, error) {
	return twoVecOp("Rot", x, y, wait, func(cc *eng.Call) {
		eng.RotOnDevice(cc, x.n, x.st.buf, x.off, x.inc, y.st.buf, y.off, y.inc, c, s)
	})
}

// Rotm enqueues the modified Givens rotation with flag and h in gonum's
// order (h11, h21, h12, h22), as in blas.DrotmParams. blas.Identity
// enqueues a marker only; an unknown flag is an error wrapping
// ErrInvalidArg.
func Rotm[T float32 | float64](x, y *Vector[T], flag blas.Flag, h [4]T, wait ...*Event) (*Event, error) {
	switch flag {
	case blas.Identity, blas.Rescaling, blas.OffDiagonal, blas.Diagonal:
	default:
		return nil, opErr("Rotm", "flag %d: %w", flag, ErrInvalidArg)
	}
	return twoVecOp("Rotm", x, y, wait, func(c *eng.Call) {
		if flag == blas.Identity {
			marker(c)
			return
		}
		eng.RotmOnDevice(c, x.n, x.st.buf, x.off, x.inc, y.st.buf, y.off, y.inc, flag, h)
	})
}

// marker enqueues a command that does nothing, so an operation with no
// work still returns an event in queue order.
func marker(c *eng.Call) {
	c.Enqueue("", func(q *cl.Queue) (*cl.Event, error) { return q.EnqueueMarker() })
}

// scalReal is Scal for real vectors.
func scalReal[T float32 | float64](alpha T, x *Vector[T], wait ...*Event) (*Event, error) {
	c, err := start[T]("Scal", wait, x.storage())
	if err != nil {
		return nil, err
	}
	if err := eng.L1Check(x.n); err != nil {
		c.Finish()
		return nil, err
	}
	eng.ScalOnDevice(c, x.n, alpha, x.st.buf, x.off, x.inc)
	return finishAsync(c)
}

// dotReal is Dot for real vectors.
func dotReal[T float32 | float64](x, y *Vector[T], wait ...*Event) (*Scalar[T], error) {
	c, err := start[T]("Dot", wait, x.storage(), y.storage())
	if err != nil {
		return nil, err
	}
	if err := sameLen("Dot", x, y); err != nil {
		c.Finish()
		return nil, err
	}
	res := eng.Alloc[T](c, 1)
	eng.DotOnDevice[T](c, x.n, x.st.buf, x.off, x.inc, y.st.buf, y.off, y.inc, res, 0)
	out := readBack[T](c, res, 1, opBytes(x, y))
	return finishScalar(c, func() (T, error) { return out()[0], nil })
}

// Dsdot enqueues the dot product of float32 vectors accumulated in
// float64. The device must support float64.
func Dsdot(x, y *Vector[float32], wait ...*Event) (*Scalar[float64], error) {
	c, err := start[float32]("Dsdot", wait, x.storage(), y.storage())
	if err != nil {
		return nil, err
	}
	if err := sameLen("Dsdot", x, y); err != nil {
		c.Finish()
		return nil, err
	}
	res := eng.Alloc[float64](c, 1)
	eng.DsdotOnDevice(c, x.n, x.st.buf, x.off, x.inc, y.st.buf, y.off, y.inc, res, 0)
	out := readBack[float64](c, res, 1, opBytes(x, y))
	return finishScalar(c, func() (float64, error) { return out()[0], nil })
}

// asumReal is Asum for real vectors.
func asumReal[T float32 | float64](x *Vector[T], wait ...*Event) (*Scalar[T], error) {
	c, err := start[T]("Asum", wait, x.storage())
	if err != nil {
		return nil, err
	}
	if err := eng.L1Check(x.n); err != nil {
		c.Finish()
		return nil, err
	}
	res := eng.Alloc[T](c, 1)
	eng.AsumOnDevice[T](c, x.n, x.st.buf, x.off, x.inc, res, 0)
	out := readBack[T](c, res, 1, opBytes(x))
	return finishScalar(c, func() (T, error) { return out()[0], nil })
}

// nrm2Real is Nrm2 for real vectors.
func nrm2Real[T float32 | float64](x *Vector[T], wait ...*Event) (*Scalar[T], error) {
	c, err := start[T]("Nrm2", wait, x.storage())
	if err != nil {
		return nil, err
	}
	if err := eng.L1Check(x.n); err != nil {
		c.Finish()
		return nil, err
	}
	res := eng.Alloc[T](c, 1)
	eng.Nrm2OnDevice[T](c, x.n, x.st.buf, x.off, x.inc, res, 0)
	out := readBack[T](c, res, 1, opBytes(x))
	return finishScalar(c, func() (T, error) { return out()[0], nil })
}

// iamaxReal is Iamax for real vectors.
func iamaxReal[T float32 | float64](x *Vector[T], wait ...*Event) (*Scalar[int], error) {
	c, err := start[T]("Iamax", wait, x.storage())
	if err != nil {
		return nil, err
	}
	if err := eng.L1Check(x.n); err != nil {
		c.Finish()
		return nil, err
	}
	res := eng.Alloc[float32](c, 1)
	eng.IamaxOnDevice[T](c, x.n, x.st.buf, x.off, x.inc, res, 0)
	out := readBack[float32](c, res, 1, opBytes(x))
	return finishScalar(c, func() (int, error) { return eng.IamaxIndex(out()[0], x.n) })
}
