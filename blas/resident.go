package clblas

import (
	eng "github.com/gocompute/opencl/internal/engine"

	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
)

// The device-resident API: matrices and vectors that live in device memory,
// and BLAS operations on them that are enqueued without waiting. Work
// submitted through one Implementation runs in submission order on its
// device queue, so a chain of operations needs no host round trip: read the
// result back once, at the end. Every operation returns an *Event that
// completes when the operation has; Wait or WaitContext on it, or pass it
// as a dependency to later operations. Errors are values: wrong shapes,
// released objects and device errors are returned, never panicked.
//
// Arithmetic follows IEEE 754 as cuBLAS does: every product is formed, so
// a zero multiplying Inf or NaN gives NaN (gonum and the reference BLAS
// skip zero multipliers: [0 1]·[Inf 2]ᵀ is NaN here, 2 there). The
// drop-in BLAS methods, which promise gonum's answers, send calls with
// non-finite operands to gonum instead.

// ErrShape is wrapped by errors about mismatched dimensions.
var ErrShape = errors.New("clblas: dimension mismatch")

// ErrReleased is returned when a released matrix or vector (or a view of
// one) is used.
var ErrReleased = errors.New("clblas: matrix or vector already released")

// ErrNoEngine is returned by the resident API of an Implementation that has
// no OpenCL device (or whose device lacks float64 for a float64 object).
var ErrNoEngine = errors.New("clblas: no OpenCL device for resident data")

// storage is the device buffer behind a matrix or vector and its views.
type storage struct {
	e        *eng.Engine
	buf      *cl.Buffer
	released atomic.Bool
}

func (s *storage) check() error {
	if s.released.Load() {
		return ErrReleased
	}
	return nil
}

func (s *storage) release() error {
	if !s.released.CompareAndSwap(false, true) {
		return nil
	}
	// The driver keeps the buffer alive until commands using it finish.
	return s.buf.Release()
}

// engineFor returns the engine an Implementation runs precision T on.
func engineFor[T eng.Elem](impl *Implementation) (*eng.Engine, error) {
	if impl == nil || impl.closed.Load() {
		return nil, eng.ErrClosed
	}
	if impl.eng == nil || eng.PrecisionOf[T]() == 64 && !impl.eng.Prof.FP64 {
		return nil, ErrNoEngine
	}
	return impl.eng, nil
}

// Matrix is a row-major rows×cols matrix of float32, float64, complex64 or
// complex128 in device memory, possibly a view into a larger one (Stride ≥
// Cols).
type Matrix[T Element] struct {
	st                      *storage
	off, rows, cols, stride int
}

// NewMatrix allocates a rows×cols matrix on impl's device, filled with
// zeros like a slice from make; it returns once the fill is done.
func NewMatrix[T Element](impl *Implementation, rows, cols int) (*Matrix[T], error) {
	m, err := allocMatrix[T](impl, rows, cols)
	if err != nil {
		return nil, err
	}
	if err := m.st.zero(rows * cols * eng.ElemSize[T]()); err != nil {
		m.Release()
		return nil, fmt.Errorf("clblas: NewMatrix(%d, %d): %w", rows, cols, err)
	}
	return m, nil
}

// allocMatrix allocates a rows×cols matrix whose contents are undefined.
func allocMatrix[T Element](impl *Implementation, rows, cols int) (*Matrix[T], error) {
	e, err := engineFor[T](impl)
	if err != nil {
		return nil, err
	}
	if err := checkMatrixSize("NewMatrix", rows, cols, eng.ElemSize[T]()); err != nil {
		return nil, err
	}
	buf, err := eng.CreateBuffer(e.RT.Context(), e.Prof, rows*cols*eng.ElemSize[T]())
	if err != nil {
		return nil, fmt.Errorf("clblas: NewMatrix(%d, %d): %w", rows, cols, err)
	}
	return &Matrix[T]{st: &storage{e: e, buf: buf}, rows: rows, cols: cols, stride: cols}, nil
}

// zero sets the first n bytes of the storage to zero and waits for it.
func (s *storage) zero(n int) error {
	if err := s.e.Fault.Inject("enqueue"); err != nil {
		return err
	}
	ev, err := cl.FillBuffer(s.e.Queue, s.buf, uint8(0), 0, n)
	if err != nil {
		return err
	}
	defer ev.Release()
	return ev.Wait()
}

// NewMatrixFrom allocates a rows×cols matrix and copies data (row-major,
// packed: len(data) == rows·cols) into it; it returns once the copy is
// done, so data may be reused at once. Data with a row stride (a view)
// goes through NewMatrixFromStrided.
func NewMatrixFrom[T Element](impl *Implementation, rows, cols int, data []T) (*Matrix[T], error) {
	if err := checkMatrixSize("NewMatrixFrom", rows, cols, eng.ElemSize[T]()); err != nil {
		return nil, err
	}
	if len(data) != rows*cols {
		return nil, fmt.Errorf("clblas: NewMatrixFrom: %d elements for a %d×%d matrix: %w", len(data), rows, cols, ErrShape)
	}
	m, err := allocMatrix[T](impl, rows, cols)
	if err != nil {
		return nil, err
	}
	ev, err := cl.WriteBuffer(m.st.e.Queue, m.st.buf, true, 0, data[:rows*cols])
	if err != nil {
		m.Release()
		return nil, fmt.Errorf("clblas: NewMatrixFrom: %w", err)
	}
	ev.Release()
	return m, nil
}

// Dims returns the matrix's dimensions.
func (m *Matrix[T]) Dims() (rows, cols int) { return m.rows, m.cols }

// Stride is the distance in elements between rows.
func (m *Matrix[T]) Stride() int { return m.stride }

// View returns the r×c sub-matrix starting at row i, column j, sharing m's
// storage. Releasing m releases its views.
func (m *Matrix[T]) View(i, j, r, c int) (*Matrix[T], error) {
	if err := m.st.check(); err != nil {
		return nil, err
	}
	if !inRange(i, r, m.rows) || !inRange(j, c, m.cols) {
		return nil, fmt.Errorf("clblas: View(%d, %d, %d, %d) of a %d×%d matrix: %w", i, j, r, c, m.rows, m.cols, ErrShape)
	}
	return &Matrix[T]{st: m.st, off: m.off + i*m.stride + j, rows: r, cols: c, stride: m.stride}, nil
}

// Release frees the matrix's device memory (and so all views of it) once
// the commands using it have finished. It is safe to call more than once.
func (m *Matrix[T]) Release() error { return m.st.release() }

func (m *Matrix[T]) rect() cl.Rect {
	return cl.Rect{
		BufferOrigin:   [3]int{m.off % m.stride, m.off / m.stride, 0},
		Region:         [3]int{m.cols, m.rows, 1},
		BufferRowPitch: m.stride,
		HostRowPitch:   m.cols,
	}
}

// Read copies the matrix into dst (row-major, packed: len(dst) ≥
// rows·cols) after every operation submitted before it has run.
func (m *Matrix[T]) Read(dst []T) error {
	ev, err := m.read(dst, true)
	if err != nil {
		return err
	}
	return ev.Wait()
}

// ReadAsync is Read without waiting: dst holds the matrix once the event
// completes, and must not be touched until then.
func (m *Matrix[T]) ReadAsync(dst []T) (*Event, error) { return m.read(dst, false) }

func (m *Matrix[T]) read(dst []T, blocking bool) (*Event, error) {
	if err := m.st.check(); err != nil {
		return nil, err
	}
	if len(dst) < m.rows*m.cols {
		return nil, fmt.Errorf("clblas: Read: %d elements for a %d×%d matrix: %w", len(dst), m.rows, m.cols, ErrShape)
	}
	ev, err := cl.ReadBufferRect(m.st.e.Queue, m.st.buf, blocking, m.rect(), dst)
	if err != nil {
		return nil, fmt.Errorf("clblas: Read: %w", err)
	}
	return engineEvent(ev, m.st.e), nil
}

// Write copies src (row-major, packed) into the matrix, after every
// operation submitted before it. src must not be modified until the
// returned event completes.
func (m *Matrix[T]) Write(src []T) (*Event, error) {
	if err := m.st.check(); err != nil {
		return nil, err
	}
	if len(src) < m.rows*m.cols {
		return nil, fmt.Errorf("clblas: Write: %d elements for a %d×%d matrix: %w", len(src), m.rows, m.cols, ErrShape)
	}
	ev, err := cl.WriteBufferRect(m.st.e.Queue, m.st.buf, false, m.rect(), src)
	if err != nil {
		return nil, fmt.Errorf("clblas: Write: %w", err)
	}
	return engineEvent(ev, m.st.e), nil
}

// Event is the future of an enqueued operation.
//
// It costs nothing until it is waited on: no completion callback is
// registered (a driver callback into Go per operation would double the
// host cost of a small GEMM), and most operations enqueue their commands
// without an OpenCL event at all: the first wait enqueues a marker, so
// that waiting for an operation may also wait for operations submitted
// after it (resident_lazy.go). Wait blocks in the driver; WaitContext and
// Done start one background waiter. The OpenCL event is released as soon
// as a wait has seen it complete, or by its cleanup if nobody waits.
type Event struct {
	ev *cl.Event
	// lazy, when set, is the queue of an operation enqueued without an
	// event: ev is then a marker, enqueued there on first need (clEvent).
	lazy   *cl.Queue
	mkOnce sync.Once
	mkErr  error
	// eng is the engine whose queue the operation ran on (nil: unknown,
	// EventFromCL); an operation on another engine that waits for it
	// waits through a user event (resident_multi.go).
	eng *eng.Engine
	// done is made by the first Done or WaitContext (most events are
	// never waited for one by one, and a channel per operation is an
	// allocation the small ones feel) and closed at completion; mu guards
	// its making and closing.
	mu       sync.Mutex
	done     chan struct{}
	fin      atomic.Bool // the outcome is recorded: err is set
	err      error
	once     sync.Once
	waitOnce sync.Once
}

func newEvent(ev *cl.Event) *Event {
	return &Event{ev: ev}
}

// complete records the outcome once and releases the OpenCL event.
func (e *Event) complete(err error) {
	e.once.Do(func() {
		e.err = err
		e.mu.Lock()
		e.fin.Store(true)
		if e.done != nil {
			close(e.done)
		}
		e.mu.Unlock()
		if e.ev != nil {
			e.ev.Release()
		}
	})
}

// outcome reports whether the outcome is recorded and, if so, the error.
func (e *Event) outcome() (bool, error) {
	if e.fin.Load() {
		return true, e.err
	}
	return false, nil
}

// doneChan returns the channel closed at completion, making it on first
// use (closed already if the outcome is recorded).
func (e *Event) doneChan() chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.done == nil {
		e.done = make(chan struct{})
		if e.fin.Load() {
			close(e.done)
		}
	}
	return e.done
}

// background starts the one goroutine that waits in the driver for
// WaitContext and Done.
func (e *Event) background() {
	e.waitOnce.Do(func() { go func() { e.complete(e.waitDriver()) }() })
}

// Done returns a channel closed when the operation has completed.
func (e *Event) Done() <-chan struct{} {
	e.background()
	return e.doneChan()
}

// Wait blocks until the operation completes and returns its error.
func (e *Event) Wait() error {
	if ok, err := e.outcome(); ok {
		return err
	}
	// A concurrent waiter may complete and release the event first; then
	// this wait's own result (ErrReleased) is ignored by complete, and
	// complete returns once the first one has recorded the outcome.
	e.complete(e.waitDriver())
	_, err := e.outcome()
	return err
}

// WaitContext blocks until the operation completes or ctx is done. A
// cancelled wait returns ctx.Err() at once; the operation itself still
// runs to completion on the device, and the Implementation stays usable.
func (e *Event) WaitContext(ctx context.Context) error {
	if ctx.Done() == nil {
		return e.Wait()
	}
	e.background()
	select {
	case <-e.doneChan():
		return e.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// failed reports the error of a dependency that has already failed, or
// nil (also when it is still running).
func (e *Event) failed() error {
	if ok, err := e.outcome(); ok {
		return err
	}
	if e.lazy != nil {
		return nil // no event to ask without enqueueing one
	}
	if s, err := e.ev.Status(); err == nil && s < 0 {
		return s.Err()
	}
	return nil
}

// WaitAll waits for every event and returns the first error.
func WaitAll(ctx context.Context, events ...*Event) error {
	for _, e := range events {
		if e == nil {
			continue
		}
		if err := e.WaitContext(ctx); err != nil {
			return err
		}
	}
	return nil
}

// after fails the call if an operation it depends on failed. Work on one
// Implementation runs in submission order on one in-order queue, so a
// dependency that has not failed yet needs no explicit wait list.
func after(c *eng.Call, wait []*Event) {
	for _, w := range wait {
		if w == nil {
			continue
		}
		if w.eng != nil && w.eng != c.E {
			waitForeign(c, w) // another device's queue
			continue
		}
		if err := w.failed(); err != nil {
			c.Fail(fmt.Errorf("a dependency failed: %w", err))
		}
	}
}

// finishAsync ends a resident operation: it hands the caller the event of
// the call's last command.
func finishAsync(c *eng.Call) (*Event, error) {
	if c.Err == nil && c.LastEvent() == nil && !c.LastLazy() {
		// A valid call with no work (Gemm with alpha = 0 and beta = 1)
		// still returns an event, completed in queue order.
		marker(c)
	}
	if c.Err == nil && c.LastLazy() {
		if err := c.Finish(); err != nil {
			return nil, err
		}
		return lazyEvent(c.E), nil
	}
	last := c.LastEvent()
	if c.Err == nil && last != nil {
		c.Detach(last)
	}
	if err := c.Finish(); err != nil {
		return nil, err
	}
	if last == nil {
		return nil, fmt.Errorf("clblas: %s: nothing was enqueued", c.Routine)
	}
	return engineEvent(last, c.E), nil
}

func sameEngine(sts ...*storage) error {
	for _, s := range sts {
		if err := s.check(); err != nil {
			return err
		}
		if s.e != sts[0].e {
			return errors.New("clblas: operands belong to different Implementations")
		}
	}
	return nil
}

// Gemm enqueues C = alpha·op(A)·op(B) + beta·C on device-resident matrices,
// with IEEE semantics (see above). op(X) is X, Xᵀ or, for complex
// matrices, Xᴴ (blas.ConjTrans; for real ones it is Xᵀ). C must not share
// elements with A or B (ErrOverlap).
func Gemm[T Element](tA, tB blas.Transpose, alpha T, a, b *Matrix[T], beta T, c *Matrix[T], wait ...*Event) (*Event, error) {
	const op = "Gemm"
	if err := errors.Join(checkTrans(op, tA), checkTrans(op, tB), operands(op, a.storage(), b.storage(), c.storage())); err != nil {
		return nil, err
	}
	ta, tb := tA != blas.NoTrans, tB != blas.NoTrans
	m, k := a.rows, a.cols
	if ta {
		m, k = k, m
	}
	kb, n := b.rows, b.cols
	if tb {
		kb, n = n, kb
	}
	if k != kb || c.rows != m || c.cols != n {
		return nil, fmt.Errorf("clblas: Gemm: op(A) %d×%d, op(B) %d×%d, C %d×%d: %w", m, k, kb, n, c.rows, c.cols, ErrShape)
	}
	if err := checkNoOverlap(op, c.layout(), a.layout(), b.layout()); err != nil {
		return nil, err
	}
	call := eng.Begin[T](a.st.e, op)
	after(call, wait)
	gemmElem(call, tA, tB, m, n, k, alpha, a, b, beta, c)
	return finishAsync(call)
}

// Buffer exposes the OpenCL buffer behind the matrix, with the element
// offset of its first element, for interoperation with other OpenCL code
// on the same queue (Implementation.Runtime().Queue()). Do not release it.
func (m *Matrix[T]) Buffer() (buf *cl.Buffer, offset int, err error) {
	if err := m.st.check(); err != nil {
		return nil, 0, err
	}
	return m.st.buf, m.off, nil
}
