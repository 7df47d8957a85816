package clblas

import (
	"github.com/gocompute/opencl/cl"

	eng "github.com/gocompute/opencl/internal/engine"
)

// Scalars kept on the device.
//
// A reduction whose result the next operation needs (a step length, a
// ratio of two dot products) would otherwise go to the host and come back
// as an argument: a round trip per iteration, with the device idle while
// it lasts. Here such a scalar is one element of a Vector (a one-element
// View of a small vector is the usual holder), and these operations read
// and write it in device memory, ordered by events like the rest of the
// resident API. Reading it (Vector.Read) is needed only when the host must
// decide something, such as whether an iteration has converged.

// DotTo enqueues res[0] = x·y, summed on the device: the partial sums of
// the work-groups are added by one more work-group in T's precision
// (Dot adds them on the host in float64).
func DotTo[T float32 | float64](x, y, res *Vector[T], wait ...*Event) (*Event, error) {
	c, err := start[T]("DotTo", wait, x.storage(), y.storage(), res.storage())
	if err != nil {
		return nil, err
	}
	if err := sameLen("DotTo", x, y); err != nil {
		c.Finish()
		return nil, err
	}
	pb, g := eng.DotOnDevice[T](c, x.n, x.st.buf, x.off, x.inc, y.st.buf, y.off, y.inc)
	sumPartsOnDevice[T](c, pb, g, res.st.buf, res.off)
	return finishAsync(c)
}

// Div enqueues res[0] = num[0] / den[0].
func Div[T float32 | float64](num, den, res *Vector[T], wait ...*Event) (*Event, error) {
	c, err := start[T]("Div", wait, num.storage(), den.storage(), res.storage())
	if err != nil {
		return nil, err
	}
	c.Run(c.Kernel(eng.L1File, "div_scalar"), []int{1}, []int{1},
		num.st.buf, int64(num.off), den.st.buf, int64(den.off), res.st.buf, int64(res.off))
	return finishAsync(c)
}

// AxpyBy enqueues y = alpha·s[0]·x + y. s must not be an element of y.
func AxpyBy[T float32 | float64](alpha T, s, x, y *Vector[T], wait ...*Event) (*Event, error) {
	if err := scalarApart("AxpyBy", s, y); err != nil {
		return nil, err
	}
	return twoVecOp("AxpyBy", x, y, wait, func(c *eng.Call) {
		args := append([]any{alpha, s.st.buf, int64(s.off)}, eng.L1At(x.st.buf, x.off, x.inc)...)
		eng.L1Run(c, "axpy_dev", x.n, append(args, eng.L1At(y.st.buf, y.off, y.inc)...)...)
	}, s.storage())
}

// ScalBy enqueues x = alpha·s[0]·x; a zero factor assigns zeros, as Scal
// does. s must not be an element of x.
func ScalBy[T float32 | float64](alpha T, s, x *Vector[T], wait ...*Event) (*Event, error) {
	if err := scalarApart("ScalBy", s, x); err != nil {
		return nil, err
	}
	c, err := start[T]("ScalBy", wait, x.storage(), s.storage())
	if err != nil {
		return nil, err
	}
	if err := eng.L1Check(x.n); err != nil {
		c.Finish()
		return nil, err
	}
	eng.L1Run(c, "scal_dev", x.n, append([]any{alpha, s.st.buf, int64(s.off)}, eng.L1At(x.st.buf, x.off, x.inc)...)...)
	return finishAsync(c)
}

// scalarApart checks that the scalar s[0] is not one of the elements of v
// that an operation writes while every work-item reads s[0].
func scalarApart[T float32 | float64](routine string, s, v *Vector[T]) error {
	if s == nil || v == nil || s.st != v.st {
		return nil // nil operands are reported by start
	}
	if d := s.off - v.off; d >= 0 && d%v.inc == 0 && d/v.inc < v.n {
		return opErr(routine, "the scalar is element %d of the vector it scales: %w", d/v.inc, ErrShape)
	}
	return nil
}

// sumPartsOnDevice enqueues res[off] = the sum of the g partials in parts.
func sumPartsOnDevice[T eng.Real](c *eng.Call, parts *cl.Buffer, g int, res *cl.Buffer, off int) {
	ls := eng.L1Local(c.E)
	var z T
	c.Run(c.Kernel(eng.L1File, "sum_parts"), []int{ls}, []int{ls}, int32(g), parts, res, int64(off), eng.LocalBytes(ls, z))
}
