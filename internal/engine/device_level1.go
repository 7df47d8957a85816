package engine

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
)

// Level 1 device routines. Each precision's method is a thin wrapper
// around one generic function; the kernels are in kernels/level1.cl.
//
// Every kernel runs over a grid of the engine's level 1 shape (l1shape.go:
// the tuning database's entry for the device, kernels/l12_tuning.json, or
// one derived from the device); reductions finish on the device, in a
// second pass that writes the result into a buffer element
// (level1_reduce.go).

// errTooLong is returned for vectors whose length does not fit the
// kernels' int (the CPU does those).
var errTooLong = errors.New("clblas: vector too long for the level 1 kernels")

// errNoFP64 is returned by Dsdot and Sdsdot on a device without double
// precision: they must accumulate in float64, so the CPU does them.
var errNoFP64 = errors.New("clblas: device has no fp64 to accumulate in")

const L1File = "level1.cl"

// L1Local is the work-group size of complex.cl's level 1 kernels: 64, or
// the largest power of two the device allows if that is less (the
// reductions need a power of two).
func L1Local(e *Engine) int {
	ls := 64
	for ls > 1 && e.Prof.MaxWorkGroupSize > 0 && ls > e.Prof.MaxWorkGroupSize {
		ls /= 2
	}
	return ls
}

func L1Check(n int) error {
	if n > math.MaxInt32 {
		return errTooLong
	}
	return nil
}

// L1At is the (buffer, offset, increment) kernel argument triple of a
// vector whose element 0 is at element off of b.
func L1At(b any, off, inc int) []any {
	return []any{b, int64(off), int32(inc)}
}

func L1Run(c *Call, k string, n int, args ...any) {
	sh := l1ShapeOf(c)
	ls := sh.Local
	c.Run(L1Kernel(c, k), []int{sh.EwGroupsFor(n) * ls}, []int{ls}, append([]any{int32(n)}, args...)...)
}

// L1RunAll is L1Run for an argument list that starts with int32(n)
// already: the small operations build it in one allocation.
func L1RunAll(c *Call, k string, n int, all []any) {
	sh := l1ShapeOf(c)
	ls := sh.Local
	c.Run(L1Kernel(c, k), []int{sh.EwGroupsFor(n) * ls}, []int{ls}, all...)
}

// The enqueue-only layer: each xxxOnDevice enqueues one routine on vectors
// already in device buffers (element i of x at x[offX + i·incX]) and
// returns without waiting; errors are recorded in c. The host-slice
// routines below wrap them (upload, enqueue, download, scatter); the
// device-resident API calls them directly.

func AxpyOnDevice[T Real](c *Call, n int, alpha T, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) {
	L1RunAll(c, "axpy", n, []any{int32(n), alpha, x, int64(offX), int32(incX), y, int64(offY), int32(incY)})
}

func ScalOnDevice[T Real](c *Call, n int, alpha T, x *cl.Buffer, offX, incX int) {
	L1Run(c, "scal", n, append([]any{alpha}, L1At(x, offX, incX)...)...)
}

func CopyOnDevice[T Real](c *Call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) {
	L1Run(c, "copy", n, append(L1At(x, offX, incX), L1At(y, offY, incY)...)...)
}

// SwapOnDevice enqueues the exchange of x and y: through a multiplication
// by 1 where the device's arithmetic keeps denormals in T (kernels/level1.cl
// says why), else bare.
func SwapOnDevice[T Real](c *Call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) {
	one := T(1)
	if ElemSize[T]() == 4 && !c.E.Prof.FP32Denorm {
		one = 0
	}
	L1Run(c, "swap", n, append(L1At(x, offX, incX), append(L1At(y, offY, incY), one)...)...)
}

func RotOnDevice[T Real](c *Call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int, cos, sin T) {
	args := append(L1At(x, offX, incX), L1At(y, offY, incY)...)
	L1Run(c, "rot", n, append(args, cos, sin)...)
}

// RotmOnDevice applies the modified Givens rotation with flag and h in
// gonum's order (h11, h21, h12, h22). blas.Identity enqueues nothing; an
// unknown flag fails the call.
func RotmOnDevice[T Real](c *Call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int, flag blas.Flag, h [4]T) {
	switch flag {
	case blas.Identity:
		return
	case blas.Rescaling, blas.OffDiagonal, blas.Diagonal:
	default:
		c.Fail(errRotmFlag)
		return
	}
	args := append(L1At(x, offX, incX), L1At(y, offY, incY)...)
	L1Run(c, "rotm", n, append(args, int32(flag), h[0], h[2], h[1], h[3])...)
}

var errRotmFlag = errors.New("clblas: unexpected rotm flag")

// LocalBytes is a __local argument of n elements of P.
func LocalBytes[P Real](n int, _ P) cl.Local {
	return cl.Local(n * PrecisionOf[P]() / 8)
}

// The host-slice routines.

func axpy[T Real](e *Engine, name string, n int, alpha T, x []T, incX int, y []T, incY int) error {
	if err := L1Check(n); err != nil {
		return err
	}
	c := Begin[T](e, name)
	xb := Upload(c, x[:VecSpan(n, incX)])
	yb := Upload(c, y[:VecSpan(n, incY)])
	AxpyOnDevice(c, n, alpha, xb, VecOff(n, incX), incX, yb, VecOff(n, incY), incY)
	out := Download[T](c, yb, VecSpan(n, incY))
	if err := c.Finish(); err != nil {
		return err
	}
	ScatterVec(y, out, n, incY)
	return nil
}

func scal[T Real](e *Engine, name string, n int, alpha T, x []T, incX int) error {
	if err := L1Check(n); err != nil {
		return err
	}
	c := Begin[T](e, name)
	xb := Upload(c, x[:VecSpan(n, incX)])
	ScalOnDevice(c, n, alpha, xb, VecOff(n, incX), incX)
	out := Download[T](c, xb, VecSpan(n, incX))
	if err := c.Finish(); err != nil {
		return err
	}
	ScatterVec(x, out, n, incX)
	return nil
}

func copyVec[T Real](e *Engine, name string, n int, x []T, incX int, y []T, incY int) error {
	if err := L1Check(n); err != nil {
		return err
	}
	c := Begin[T](e, name)
	xb := Upload(c, x[:VecSpan(n, incX)])
	// Only y's elements are written and copied back, so its gaps need not
	// be uploaded.
	yb := Alloc[T](c, VecSpan(n, incY))
	CopyOnDevice[T](c, n, xb, VecOff(n, incX), incX, yb, VecOff(n, incY), incY)
	out := Download[T](c, yb, VecSpan(n, incY))
	if err := c.Finish(); err != nil {
		return err
	}
	ScatterVec(y, out, n, incY)
	return nil
}

// twoVec runs enqueue, which updates both x and y in place (swap, rot,
// rotm), on device copies of x and y.
func twoVec[T Real](e *Engine, name string, n int, x []T, incX int, y []T, incY int, enqueue func(c *Call, xb *cl.Buffer, offX int, yb *cl.Buffer, offY int)) error {
	if err := L1Check(n); err != nil {
		return err
	}
	c := Begin[T](e, name)
	xb := Upload(c, x[:VecSpan(n, incX)])
	yb := Upload(c, y[:VecSpan(n, incY)])
	enqueue(c, xb, VecOff(n, incX), yb, VecOff(n, incY))
	outX := Download[T](c, xb, VecSpan(n, incX))
	outY := Download[T](c, yb, VecSpan(n, incY))
	if err := c.Finish(); err != nil {
		return err
	}
	ScatterVec(x, outX, n, incX)
	ScatterVec(y, outY, n, incY)
	return nil
}

func swap[T Real](e *Engine, name string, n int, x []T, incX int, y []T, incY int) error {
	return twoVec(e, name, n, x, incX, y, incY, func(c *Call, xb *cl.Buffer, offX int, yb *cl.Buffer, offY int) {
		SwapOnDevice[T](c, n, xb, offX, incX, yb, offY, incY)
	})
}

func rot[T Real](e *Engine, name string, n int, x []T, incX int, y []T, incY int, cos, sin T) error {
	return twoVec(e, name, n, x, incX, y, incY, func(c *Call, xb *cl.Buffer, offX int, yb *cl.Buffer, offY int) {
		RotOnDevice(c, n, xb, offX, incX, yb, offY, incY, cos, sin)
	})
}

// rotm applies the modified Givens rotation with flag (Rescaling,
// OffDiagonal or Diagonal; the front end handles the others) and h in
// gonum's order (h11, h21, h12, h22).
func rotm[T Real](e *Engine, name string, n int, x []T, incX int, y []T, incY int, flag blas.Flag, h [4]T) error {
	switch flag {
	case blas.Rescaling, blas.OffDiagonal, blas.Diagonal:
	default:
		return errRotmFlag
	}
	return twoVec(e, name, n, x, incX, y, incY, func(c *Call, xb *cl.Buffer, offX int, yb *cl.Buffer, offY int) {
		RotmOnDevice(c, n, xb, offX, incX, yb, offY, incY, flag, h)
	})
}

// Reductions.

// reduce1 runs the reduction enqueue, which leaves its result in element
// 0 of res, over host x (and y when it is not nil) and returns the result.
func reduce1[T, R Real](e *Engine, name string, n int, x []T, incX int, y []T, incY int,
	enqueue func(c *Call, xb *cl.Buffer, offX int, yb *cl.Buffer, offY int, res *cl.Buffer)) (R, error) {
	if err := L1Check(n); err != nil {
		return 0, err
	}
	c := Begin[T](e, name)
	xb := Upload(c, x[:VecSpan(n, incX)])
	var yb *cl.Buffer
	if y != nil {
		yb = Upload(c, y[:VecSpan(n, incY)])
	}
	res := Alloc[R](c, 1)
	enqueue(c, xb, VecOff(n, incX), yb, VecOff(n, incY), res)
	out := Download[R](c, res, 1)
	if err := c.Finish(); err != nil {
		return 0, err
	}
	return out[0], nil
}

func dot[T Real](e *Engine, name string, n int, x []T, incX int, y []T, incY int) (T, error) {
	return reduce1[T, T](e, name, n, x, incX, y, incY, func(c *Call, xb *cl.Buffer, offX int, yb *cl.Buffer, offY int, res *cl.Buffer) {
		DotOnDevice[T](c, n, xb, offX, incX, yb, offY, incY, res, 0)
	})
}

func asum[T Real](e *Engine, name string, n int, x []T, incX int) (T, error) {
	return reduce1[T, T](e, name, n, x, incX, nil, 0, func(c *Call, xb *cl.Buffer, offX int, _ *cl.Buffer, _ int, res *cl.Buffer) {
		AsumOnDevice[T](c, n, xb, offX, incX, res, 0)
	})
}

// dsdot is the float64-accumulated dot product: of float32 vectors by the
// dsdot_part kernel, of float64 vectors by dot_part.
func dsdot[T Real](e *Engine, name string, n int, x []T, incX int, y []T, incY int) (float64, error) {
	if !e.Prof.FP64 {
		return 0, errNoFP64
	}
	return reduce1[T, float64](e, name, n, x, incX, y, incY, func(c *Call, xb *cl.Buffer, offX int, yb *cl.Buffer, offY int, res *cl.Buffer) {
		if ElemSize[T]() == 8 {
			DotOnDevice[float64](c, n, xb, offX, incX, yb, offY, incY, res, 0)
			return
		}
		DsdotOnDevice(c, n, xb, offX, incX, yb, offY, incY, res, 0)
	})
}

func nrm2[T Real](e *Engine, name string, n int, x []T, incX int) (T, error) {
	return reduce1[T, T](e, name, n, x, incX, nil, 0, func(c *Call, xb *cl.Buffer, offX int, _ *cl.Buffer, _ int, res *cl.Buffer) {
		Nrm2OnDevice[T](c, n, xb, offX, incX, res, 0)
	})
}

func iamax[T Real](e *Engine, name string, n int, x []T, incX int) (int, error) {
	bits, err := reduce1[T, float32](e, name, n, x, incX, nil, 0, func(c *Call, xb *cl.Buffer, offX int, _ *cl.Buffer, _ int, res *cl.Buffer) {
		IamaxOnDevice[T](c, n, xb, offX, incX, res, 0)
	})
	if err != nil {
		return -1, err
	}
	return IamaxIndex(bits, n)
}
