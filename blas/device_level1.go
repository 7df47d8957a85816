package clblas

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
	eng "github.com/gocompute/opencl/internal/engine"
)

// Level 1 device routines. Each precision's method is a thin wrapper
// around one generic function; the kernels are in kernels/level1.cl.
//
// Every kernel runs over a grid of the shape eng.L1ShapeFor derives from
// the device (level1_shape.go); reductions finish on the device, in a
// second pass that writes the result into a buffer element.

// errTooLong is returned for vectors whose length does not fit the
// kernels' int (the CPU does those).
var errTooLong = errors.New("clblas: vector too long for the level 1 kernels")

// errNoFP64 is returned by Dsdot and Sdsdot on a device without double
// precision: they must accumulate in float64, so the CPU does them.
var errNoFP64 = errors.New("clblas: device has no fp64 to accumulate in")

const l1File = "level1.cl"

func l1Check(n int) error {
	if n > math.MaxInt32 {
		return errTooLong
	}
	return nil
}

// l1At is the (buffer, offset, increment) kernel argument triple of a
// vector whose element 0 is at element off of b.
func l1At(b any, off, inc int) []any {
	return []any{b, int64(off), int32(inc)}
}

func l1Run(c *call, k string, n int, args ...any) {
	sh := l1ShapeOf(c)
	ls := sh.Local
	c.run(l1Kernel(c, k), []int{sh.GroupsFor(n) * ls}, []int{ls}, append([]any{int32(n)}, args...)...)
}

// The enqueue-only layer: each xxxOnDevice enqueues one routine on vectors
// already in device buffers (element i of x at x[offX + i·incX]) and
// returns without waiting; errors are recorded in c. The host-slice
// routines below wrap them (upload, enqueue, download, scatter); the
// device-resident API calls them directly.

func axpyOnDevice[T real](c *call, n int, alpha T, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) {
	args := []any{alpha}
	args = append(args, l1At(x, offX, incX)...)
	args = append(args, l1At(y, offY, incY)...)
	l1Run(c, "axpy", n, args...)
}

func scalOnDevice[T real](c *call, n int, alpha T, x *cl.Buffer, offX, incX int) {
	l1Run(c, "scal", n, append([]any{alpha}, l1At(x, offX, incX)...)...)
}

func copyOnDevice[T real](c *call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) {
	l1Run(c, "copy", n, append(l1At(x, offX, incX), l1At(y, offY, incY)...)...)
}

func swapOnDevice[T real](c *call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) {
	l1Run(c, "swap", n, append(l1At(x, offX, incX), l1At(y, offY, incY)...)...)
}

func rotOnDevice[T real](c *call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int, cos, sin T) {
	args := append(l1At(x, offX, incX), l1At(y, offY, incY)...)
	l1Run(c, "rot", n, append(args, cos, sin)...)
}

// rotmOnDevice applies the modified Givens rotation with flag and h in
// gonum's order (h11, h21, h12, h22). blas.Identity enqueues nothing; an
// unknown flag fails the call.
func rotmOnDevice[T real](c *call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int, flag blas.Flag, h [4]T) {
	switch flag {
	case blas.Identity:
		return
	case blas.Rescaling, blas.OffDiagonal, blas.Diagonal:
	default:
		c.fail(errRotmFlag)
		return
	}
	args := append(l1At(x, offX, incX), l1At(y, offY, incY)...)
	l1Run(c, "rotm", n, append(args, int32(flag), h[0], h[2], h[1], h[3])...)
}

var errRotmFlag = errors.New("clblas: unexpected rotm flag")

// localBytes is a __local argument of n elements of P.
func localBytes[P real](n int, _ P) cl.Local {
	return cl.Local(n * precisionOf[P]() / 8)
}

// The host-slice routines.

func axpy[T real](e *engine, name string, n int, alpha T, x []T, incX int, y []T, incY int) error {
	if err := l1Check(n); err != nil {
		return err
	}
	c := begin[T](e, name)
	xb := upload(c, x[:eng.VecSpan(n, incX)])
	yb := upload(c, y[:eng.VecSpan(n, incY)])
	axpyOnDevice(c, n, alpha, xb, eng.VecOff(n, incX), incX, yb, eng.VecOff(n, incY), incY)
	out := download[T](c, yb, eng.VecSpan(n, incY))
	if err := c.finish(); err != nil {
		return err
	}
	eng.ScatterVec(y, out, n, incY)
	return nil
}

func scal[T real](e *engine, name string, n int, alpha T, x []T, incX int) error {
	if err := l1Check(n); err != nil {
		return err
	}
	c := begin[T](e, name)
	xb := upload(c, x[:eng.VecSpan(n, incX)])
	scalOnDevice(c, n, alpha, xb, eng.VecOff(n, incX), incX)
	out := download[T](c, xb, eng.VecSpan(n, incX))
	if err := c.finish(); err != nil {
		return err
	}
	eng.ScatterVec(x, out, n, incX)
	return nil
}

func copyVec[T real](e *engine, name string, n int, x []T, incX int, y []T, incY int) error {
	if err := l1Check(n); err != nil {
		return err
	}
	c := begin[T](e, name)
	xb := upload(c, x[:eng.VecSpan(n, incX)])
	// Only y's elements are written and copied back, so its gaps need not
	// be uploaded.
	yb := alloc[T](c, eng.VecSpan(n, incY))
	copyOnDevice[T](c, n, xb, eng.VecOff(n, incX), incX, yb, eng.VecOff(n, incY), incY)
	out := download[T](c, yb, eng.VecSpan(n, incY))
	if err := c.finish(); err != nil {
		return err
	}
	eng.ScatterVec(y, out, n, incY)
	return nil
}

// twoVec runs enqueue, which updates both x and y in place (swap, rot,
// rotm), on device copies of x and y.
func twoVec[T real](e *engine, name string, n int, x []T, incX int, y []T, incY int, enqueue func(c *call, xb *cl.Buffer, offX int, yb *cl.Buffer, offY int)) error {
	if err := l1Check(n); err != nil {
		return err
	}
	c := begin[T](e, name)
	xb := upload(c, x[:eng.VecSpan(n, incX)])
	yb := upload(c, y[:eng.VecSpan(n, incY)])
	enqueue(c, xb, eng.VecOff(n, incX), yb, eng.VecOff(n, incY))
	outX := download[T](c, xb, eng.VecSpan(n, incX))
	outY := download[T](c, yb, eng.VecSpan(n, incY))
	if err := c.finish(); err != nil {
		return err
	}
	eng.ScatterVec(x, outX, n, incX)
	eng.ScatterVec(y, outY, n, incY)
	return nil
}

func swap[T real](e *engine, name string, n int, x []T, incX int, y []T, incY int) error {
	return twoVec(e, name, n, x, incX, y, incY, func(c *call, xb *cl.Buffer, offX int, yb *cl.Buffer, offY int) {
		swapOnDevice[T](c, n, xb, offX, incX, yb, offY, incY)
	})
}

func rot[T real](e *engine, name string, n int, x []T, incX int, y []T, incY int, cos, sin T) error {
	return twoVec(e, name, n, x, incX, y, incY, func(c *call, xb *cl.Buffer, offX int, yb *cl.Buffer, offY int) {
		rotOnDevice(c, n, xb, offX, incX, yb, offY, incY, cos, sin)
	})
}

// rotm applies the modified Givens rotation with flag (Rescaling,
// OffDiagonal or Diagonal; the front end handles the others) and h in
// gonum's order (h11, h21, h12, h22).
func rotm[T real](e *engine, name string, n int, x []T, incX int, y []T, incY int, flag blas.Flag, h [4]T) error {
	switch flag {
	case blas.Rescaling, blas.OffDiagonal, blas.Diagonal:
	default:
		return errRotmFlag
	}
	return twoVec(e, name, n, x, incX, y, incY, func(c *call, xb *cl.Buffer, offX int, yb *cl.Buffer, offY int) {
		rotmOnDevice(c, n, xb, offX, incX, yb, offY, incY, flag, h)
	})
}

// Reductions.

// reduce1 runs the reduction enqueue, which leaves its result in element
// 0 of res, over host x (and y when it is not nil) and returns the result.
func reduce1[T, R real](e *engine, name string, n int, x []T, incX int, y []T, incY int,
	enqueue func(c *call, xb *cl.Buffer, offX int, yb *cl.Buffer, offY int, res *cl.Buffer)) (R, error) {
	if err := l1Check(n); err != nil {
		return 0, err
	}
	c := begin[T](e, name)
	xb := upload(c, x[:eng.VecSpan(n, incX)])
	var yb *cl.Buffer
	if y != nil {
		yb = upload(c, y[:eng.VecSpan(n, incY)])
	}
	res := alloc[R](c, 1)
	enqueue(c, xb, eng.VecOff(n, incX), yb, eng.VecOff(n, incY), res)
	out := download[R](c, res, 1)
	if err := c.finish(); err != nil {
		return 0, err
	}
	return out[0], nil
}

func dot[T real](e *engine, name string, n int, x []T, incX int, y []T, incY int) (T, error) {
	return reduce1[T, T](e, name, n, x, incX, y, incY, func(c *call, xb *cl.Buffer, offX int, yb *cl.Buffer, offY int, res *cl.Buffer) {
		dotOnDevice[T](c, n, xb, offX, incX, yb, offY, incY, res, 0)
	})
}

func asum[T real](e *engine, name string, n int, x []T, incX int) (T, error) {
	return reduce1[T, T](e, name, n, x, incX, nil, 0, func(c *call, xb *cl.Buffer, offX int, _ *cl.Buffer, _ int, res *cl.Buffer) {
		asumOnDevice[T](c, n, xb, offX, incX, res, 0)
	})
}

// dsdot is the float64-accumulated dot product of float32 vectors.
func dsdot(e *engine, name string, n int, x []float32, incX int, y []float32, incY int) (float64, error) {
	if !e.prof.FP64 {
		return 0, errNoFP64
	}
	return reduce1[float32, float64](e, name, n, x, incX, y, incY, func(c *call, xb *cl.Buffer, offX int, yb *cl.Buffer, offY int, res *cl.Buffer) {
		dsdotOnDevice(c, n, xb, offX, incX, yb, offY, incY, res, 0)
	})
}

func nrm2[T real](e *engine, name string, n int, x []T, incX int) (T, error) {
	return reduce1[T, T](e, name, n, x, incX, nil, 0, func(c *call, xb *cl.Buffer, offX int, _ *cl.Buffer, _ int, res *cl.Buffer) {
		nrm2OnDevice[T](c, n, xb, offX, incX, res, 0)
	})
}

func iamax[T real](e *engine, name string, n int, x []T, incX int) (int, error) {
	bits, err := reduce1[T, float32](e, name, n, x, incX, nil, 0, func(c *call, xb *cl.Buffer, offX int, _ *cl.Buffer, _ int, res *cl.Buffer) {
		iamaxOnDevice[T](c, n, xb, offX, incX, res, 0)
	})
	if err != nil {
		return -1, err
	}
	return iamaxIndex(bits, n)
}

// float64 methods.

func (dev clDevice64) Ddot(n int, x []float64, incX int, y []float64, incY int) (float64, error) {
	return dot(dev.e, "Ddot", n, x, incX, y, incY)
}

func (dev clDevice64) Dnrm2(n int, x []float64, incX int) (float64, error) {
	return nrm2(dev.e, "Dnrm2", n, x, incX)
}

func (dev clDevice64) Dasum(n int, x []float64, incX int) (float64, error) {
	return asum(dev.e, "Dasum", n, x, incX)
}

func (dev clDevice64) Idamax(n int, x []float64, incX int) (int, error) {
	return iamax(dev.e, "Idamax", n, x, incX)
}

func (dev clDevice64) Dswap(n int, x []float64, incX int, y []float64, incY int) error {
	return swap(dev.e, "Dswap", n, x, incX, y, incY)
}

func (dev clDevice64) Dcopy(n int, x []float64, incX int, y []float64, incY int) error {
	return copyVec(dev.e, "Dcopy", n, x, incX, y, incY)
}

func (dev clDevice64) Daxpy(n int, alpha float64, x []float64, incX int, y []float64, incY int) error {
	return axpy(dev.e, "Daxpy", n, alpha, x, incX, y, incY)
}

func (dev clDevice64) Drot(n int, x []float64, incX int, y []float64, incY int, c float64, s float64) error {
	return rot(dev.e, "Drot", n, x, incX, y, incY, c, s)
}

func (dev clDevice64) Drotm(n int, x []float64, incX int, y []float64, incY int, p blas.DrotmParams) error {
	return rotm(dev.e, "Drotm", n, x, incX, y, incY, p.Flag, p.H)
}

func (dev clDevice64) Dscal(n int, alpha float64, x []float64, incX int) error {
	return scal(dev.e, "Dscal", n, alpha, x, incX)
}

// float32 methods.

func (dev clDevice32) Sdsdot(n int, alpha float32, x []float32, incX int, y []float32, incY int) (float32, error) {
	r, err := dsdot(dev.e, "Sdsdot", n, x, incX, y, incY)
	if err != nil {
		return 0, err
	}
	return alpha + float32(r), nil
}

func (dev clDevice32) Dsdot(n int, x []float32, incX int, y []float32, incY int) (float64, error) {
	return dsdot(dev.e, "Dsdot", n, x, incX, y, incY)
}

func (dev clDevice32) Sdot(n int, x []float32, incX int, y []float32, incY int) (float32, error) {
	return dot(dev.e, "Sdot", n, x, incX, y, incY)
}

func (dev clDevice32) Snrm2(n int, x []float32, incX int) (float32, error) {
	return nrm2(dev.e, "Snrm2", n, x, incX)
}

func (dev clDevice32) Sasum(n int, x []float32, incX int) (float32, error) {
	return asum(dev.e, "Sasum", n, x, incX)
}

func (dev clDevice32) Isamax(n int, x []float32, incX int) (int, error) {
	return iamax(dev.e, "Isamax", n, x, incX)
}

func (dev clDevice32) Sswap(n int, x []float32, incX int, y []float32, incY int) error {
	return swap(dev.e, "Sswap", n, x, incX, y, incY)
}

func (dev clDevice32) Scopy(n int, x []float32, incX int, y []float32, incY int) error {
	return copyVec(dev.e, "Scopy", n, x, incX, y, incY)
}

func (dev clDevice32) Saxpy(n int, alpha float32, x []float32, incX int, y []float32, incY int) error {
	return axpy(dev.e, "Saxpy", n, alpha, x, incX, y, incY)
}

func (dev clDevice32) Srot(n int, x []float32, incX int, y []float32, incY int, c float32, s float32) error {
	return rot(dev.e, "Srot", n, x, incX, y, incY, c, s)
}

func (dev clDevice32) Srotm(n int, x []float32, incX int, y []float32, incY int, p blas.SrotmParams) error {
	return rotm(dev.e, "Srotm", n, x, incX, y, incY, p.Flag, p.H)
}

func (dev clDevice32) Sscal(n int, alpha float32, x []float32, incX int) error {
	return scal(dev.e, "Sscal", n, alpha, x, incX)
}
