package clblas

import (
	eng "github.com/gocompute/opencl/internal/engine"

	"fmt"

	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/gocompute/opencl/cl"
)

// gonum interoperation for the resident API: matrices and vectors in
// gonum's storage (a row stride, an element increment) to the device and
// back, and the scalar operations that normalise a vector on the device.
//
// gonum's matrices are often views: a mat.Dense slice has Stride > Cols,
// and its RawMatrix().Data runs past the view's last row. Everything here
// takes the stride (or increment) with the data, so a view goes up and
// comes back as exactly the elements it shows.

// NewMatrixFromStrided allocates a rows×cols matrix and copies into it the
// row-major data whose rows start stride elements apart (stride ≥ cols,
// len(data) ≥ (rows−1)·stride + cols, as in blas64.General); it returns
// once the copy is done.
func NewMatrixFromStrided[T float32 | float64](impl *Implementation, rows, cols, stride int, data []T) (*Matrix[T], error) {
	if err := stridedFits("NewMatrixFromStrided", rows, cols, stride, len(data)); err != nil {
		return nil, err
	}
	m, err := allocMatrix[T](impl, rows, cols)
	if err != nil {
		return nil, err
	}
	ev, err := m.writeStrided(data, stride, true)
	if err != nil {
		m.Release()
		return nil, fmt.Errorf("clblas: NewMatrixFromStrided: %w", err)
	}
	ev.Release()
	return m, nil
}

// NewMatrixFromGeneral64 copies a (for example mat.Dense.RawMatrix(),
// possibly of a view) to a new matrix on impl's device.
func NewMatrixFromGeneral64(impl *Implementation, a blas64.General) (*Matrix[float64], error) {
	return NewMatrixFromStrided(impl, a.Rows, a.Cols, a.Stride, a.Data)
}

// NewMatrixFromGeneral32 copies a to a new matrix on impl's device.
func NewMatrixFromGeneral32(impl *Implementation, a blas32.General) (*Matrix[float32], error) {
	return NewMatrixFromStrided(impl, a.Rows, a.Cols, a.Stride, a.Data)
}

// ReadStrided copies the matrix into dst, whose rows start stride elements
// apart (stride ≥ Cols); elements of dst between rows are left alone. It
// runs after every operation submitted before it.
func (m *Matrix[T]) ReadStrided(dst []T, stride int) error {
	if err := m.st.check(); err != nil {
		return err
	}
	if err := stridedFits("ReadStrided", m.rows, m.cols, stride, len(dst)); err != nil {
		return err
	}
	r := m.rect()
	r.HostRowPitch = stride
	ev, err := cl.ReadBufferRect(m.st.e.Queue, m.st.buf, true, r, dst)
	if err != nil {
		return fmt.Errorf("clblas: ReadStrided: %w", err)
	}
	defer ev.Release()
	return ev.Wait()
}

// WriteStrided copies src, whose rows start stride elements apart, into
// the matrix after every operation submitted before it. src must not be
// modified until the returned event completes.
func (m *Matrix[T]) WriteStrided(src []T, stride int) (*Event, error) {
	if err := m.st.check(); err != nil {
		return nil, err
	}
	if err := stridedFits("WriteStrided", m.rows, m.cols, stride, len(src)); err != nil {
		return nil, err
	}
	ev, err := m.writeStrided(src, stride, false)
	if err != nil {
		return nil, fmt.Errorf("clblas: WriteStrided: %w", err)
	}
	return newEvent(ev), nil
}

func (m *Matrix[T]) writeStrided(src []T, stride int, blocking bool) (*cl.Event, error) {
	r := m.rect()
	r.HostRowPitch = stride
	return cl.WriteBufferRect(m.st.e.Queue, m.st.buf, blocking, r, src)
}

// ReadGeneral64 copies m into dst, which must have m's dimensions; only
// the elements of dst's view are written.
func ReadGeneral64(m *Matrix[float64], dst blas64.General) error {
	if err := sameDims("ReadGeneral64", m, dst.Rows, dst.Cols); err != nil {
		return err
	}
	return m.ReadStrided(dst.Data, dst.Stride)
}

// ReadGeneral32 copies m into dst, which must have m's dimensions; only
// the elements of dst's view are written.
func ReadGeneral32(m *Matrix[float32], dst blas32.General) error {
	if err := sameDims("ReadGeneral32", m, dst.Rows, dst.Cols); err != nil {
		return err
	}
	return m.ReadStrided(dst.Data, dst.Stride)
}

func sameDims[T float32 | float64](op string, m *Matrix[T], rows, cols int) error {
	if m == nil {
		return fmt.Errorf("clblas: %s: %w", op, errNilOperand)
	}
	if m.rows != rows || m.cols != cols {
		return fmt.Errorf("clblas: %s: a %d×%d matrix into a %d×%d one: %w", op, m.rows, m.cols, rows, cols, ErrShape)
	}
	return nil
}

// stridedFits checks a rows×cols row-major layout with the given stride
// against a slice of n elements.
func stridedFits(op string, rows, cols, stride, n int) error {
	if rows <= 0 || cols <= 0 {
		return fmt.Errorf("clblas: %s: a %d×%d matrix: dimensions must be positive: %w", op, rows, cols, ErrShape)
	}
	if stride < cols {
		return fmt.Errorf("clblas: %s: stride %d < %d columns: %w", op, stride, cols, ErrShape)
	}
	if need := (rows-1)*stride + cols; n < need {
		return fmt.Errorf("clblas: %s: %d elements for a %d×%d matrix of stride %d (need %d): %w", op, n, rows, cols, stride, need, ErrShape)
	}
	return nil
}

// NewVectorFromStrided allocates a vector of n elements and copies into it
// data[0], data[inc], …, data[(n−1)·inc] (inc ≥ 1, as in blas64.Vector);
// it returns once the copy is done.
func NewVectorFromStrided[T float32 | float64](impl *Implementation, n, inc int, data []T) (*Vector[T], error) {
	if err := incFits("NewVectorFromStrided", n, inc, len(data)); err != nil {
		return nil, err
	}
	if inc == 1 {
		return NewVectorFrom(impl, data[:n])
	}
	packed := make([]T, n)
	for i := range packed {
		packed[i] = data[i*inc]
	}
	return NewVectorFrom(impl, packed)
}

// NewVectorFromBlas64 copies x to a new vector on impl's device.
func NewVectorFromBlas64(impl *Implementation, x blas64.Vector) (*Vector[float64], error) {
	return NewVectorFromStrided(impl, x.N, x.Inc, x.Data)
}

// NewVectorFromBlas32 copies x to a new vector on impl's device.
func NewVectorFromBlas32(impl *Implementation, x blas32.Vector) (*Vector[float32], error) {
	return NewVectorFromStrided(impl, x.N, x.Inc, x.Data)
}

// ReadStrided copies the vector into dst[0], dst[inc], …; the elements of
// dst in between are left alone. It runs after every operation submitted
// before it.
func (v *Vector[T]) ReadStrided(dst []T, inc int) error {
	if v == nil {
		return fmt.Errorf("clblas: ReadStrided: %w", errNilOperand)
	}
	if err := incFits("ReadStrided", v.n, inc, len(dst)); err != nil {
		return err
	}
	if inc == 1 {
		return v.Read(dst)
	}
	packed := make([]T, v.n)
	if err := v.Read(packed); err != nil {
		return err
	}
	for i, x := range packed {
		dst[i*inc] = x
	}
	return nil
}

// ReadVector64 copies v into dst, which must have v's length.
func ReadVector64(v *Vector[float64], dst blas64.Vector) error {
	if err := sameLenN("ReadVector64", v, dst.N); err != nil {
		return err
	}
	return v.ReadStrided(dst.Data, dst.Inc)
}

// ReadVector32 copies v into dst, which must have v's length.
func ReadVector32(v *Vector[float32], dst blas32.Vector) error {
	if err := sameLenN("ReadVector32", v, dst.N); err != nil {
		return err
	}
	return v.ReadStrided(dst.Data, dst.Inc)
}

func sameLenN[T float32 | float64](op string, v *Vector[T], n int) error {
	if v == nil {
		return fmt.Errorf("clblas: %s: %w", op, errNilOperand)
	}
	if v.n != n {
		return fmt.Errorf("clblas: %s: a vector of %d into one of %d: %w", op, v.n, n, ErrShape)
	}
	return nil
}

// incFits checks n elements inc apart against a slice of m elements.
// gonum's negative increments (a reversed walk in some routines) are not
// a storage layout and are refused.
func incFits(op string, n, inc, m int) error {
	if n <= 0 {
		return fmt.Errorf("clblas: %s: length %d must be positive: %w", op, n, ErrShape)
	}
	if inc < 1 {
		return fmt.Errorf("clblas: %s: increment %d must be positive: %w", op, inc, ErrShape)
	}
	if need := (n-1)*inc + 1; m < need {
		return fmt.Errorf("clblas: %s: %d elements for %d of increment %d (need %d): %w", op, m, n, inc, need, ErrShape)
	}
	return nil
}

// scalarFile holds the kernels on device-resident scalars.
const scalarFile = "scalar.cl"

// Nrm2To enqueues res[0] = ‖x‖₂, computed on the device without overflow
// or underflow (scaled as Nrm2 is) and merged there, so that it can feed
// later operations (Recip, ScalBy) with no host round trip.
func Nrm2To[T float32 | float64](x, res *Vector[T], wait ...*Event) (*Event, error) {
	c, err := start[T]("Nrm2To", wait, x.storage(), res.storage())
	if err != nil {
		return nil, err
	}
	if err := eng.L1Check(x.n); err != nil {
		c.Finish()
		return nil, opErr("Nrm2To", "%w", err)
	}
	sb, qb, g := eng.Nrm2OnDevice[T](c, x.n, x.st.buf, x.off, x.inc)
	c.Run(c.Kernel(scalarFile, "nrm2_finish"), []int{1}, []int{1}, int32(g), sb, qb, res.st.buf, int64(res.off))
	return finishAsync(c)
}

// Sqrt enqueues res[0] = √s[0] (NaN for a negative s[0]).
func Sqrt[T float32 | float64](s, res *Vector[T], wait ...*Event) (*Event, error) {
	return scalarOp("Sqrt", "sqrt_scalar", s, res, wait)
}

// Recip enqueues res[0] = 1 / s[0] (±Inf for a zero s[0]).
func Recip[T float32 | float64](s, res *Vector[T], wait ...*Event) (*Event, error) {
	return scalarOp("Recip", "recip_scalar", s, res, wait)
}

func scalarOp[T float32 | float64](routine, kernel string, s, res *Vector[T], wait []*Event) (*Event, error) {
	c, err := start[T](routine, wait, s.storage(), res.storage())
	if err != nil {
		return nil, err
	}
	c.Run(c.Kernel(scalarFile, kernel), []int{1}, []int{1}, s.st.buf, int64(s.off), res.st.buf, int64(res.off))
	return finishAsync(c)
}
