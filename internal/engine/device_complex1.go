package engine

import (
	"errors"
	"math"
	"unsafe"

	"github.com/gocompute/opencl/cl"
)

// Complex level 1 device routines. Vectors of unit stride take level1.cl's
// kernels and launch shape: zaxpy, zscal, zdot, znrm2 and ziamax for AXPY,
// SCAL, DOT, NRM2 and IAMAX (the last two with gonum's complex answers for
// NaN and Inf, not the real routines'), and the real copy, swap, scal and
// asum over their 2n reals for COPY, SWAP, the real-alpha SCAL and ASUM.
// Strided vectors take the kernels of kernels/complex.cl.
//
// A complex number is its real part followed by its imaginary part (the
// layout of Go's complex64 and complex128, and of OpenCL's float2 and
// double2). Every function is generic in the complex type C and its real
// part type R (complex64 with float32, complex128 with float64): a call
// runs at the precision of R, complex.cl's PRECISION, and passes scalars
// to the kernels as their two R parts.
//
// Reductions finish on the device: a bounded number of work-groups each
// leave one partial, and one more work-group reduces those into a single
// element, which is all the host reads (or what a resident caller leaves
// on the device).

const cxFile = "complex.cl"

// CxParts returns the real and imaginary parts of z.
func CxParts[C Complex, R Real](z C) (R, R) {
	p := (*[2]R)(unsafe.Pointer(&z))
	return p[0], p[1]
}

// cxScatter copies the n elements of the strided vector src (laid out as
// in dst, from its first element) into dst.
func cxScatter[C Complex](dst, src []C, n, inc int) {
	if inc < 0 {
		inc = -inc
	}
	if inc == 1 {
		copy(dst[:n], src[:n])
		return
	}
	for i := 0; i < n*inc; i += inc {
		dst[i] = src[i]
	}
}

func cxRun(c *Call, k string, n int, args ...any) {
	ls := L1Local(c.E)
	c.Run(c.Kernel(cxFile, k), []int{Groups(n, ls)}, []int{ls}, append([]any{int32(n)}, args...)...)
}

// The enqueue-only layer, on vectors already in device buffers (element i
// of x at complex element offX + i·incX of its buffer).

func CxAxpyOnDevice[R Real](c *Call, n int, are, aim R, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) {
	if cxUnit(n, incX, incY) {
		zRun(c, "zaxpy", n, int32(n), are, aim, x, int64(2*offX), y, int64(2*offY))
		return
	}
	args := append([]any{are, aim}, L1At(x, offX, incX)...)
	cxRun(c, "caxpy", n, append(args, L1At(y, offY, incY)...)...)
}

func CxScalOnDevice[R Real](c *Call, n int, are, aim R, x *cl.Buffer, offX, incX int) {
	if cxUnit(n, incX) {
		zRun(c, "zscal", n, int32(n), are, aim, x, int64(2*offX))
		return
	}
	cxRun(c, "cscal", n, append([]any{are, aim}, L1At(x, offX, incX)...)...)
}

func CxRealScalOnDevice[R Real](c *Call, n int, alpha R, x *cl.Buffer, offX, incX int) {
	if cxUnit(n, incX) {
		ScalOnDevice(c, 2*n, alpha, x, 2*offX, 1)
		return
	}
	cxRun(c, "csscal", n, append([]any{alpha}, L1At(x, offX, incX)...)...)
}

func CxCopyOnDevice(c *Call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) {
	switch {
	case !cxUnit(n, incX, incY):
		cxRun(c, "ccopy", n, append(L1At(x, offX, incX), L1At(y, offY, incY)...)...)
	case c.prec == 32:
		CopyOnDevice[float32](c, 2*n, x, 2*offX, 1, y, 2*offY, 1)
	default:
		CopyOnDevice[float64](c, 2*n, x, 2*offX, 1, y, 2*offY, 1)
	}
}

func CxSwapOnDevice(c *Call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) {
	switch {
	case !cxUnit(n, incX, incY):
		cxRun(c, "cswap", n, append(L1At(x, offX, incX), L1At(y, offY, incY)...)...)
	case c.prec == 32:
		SwapOnDevice[float32](c, 2*n, x, 2*offX, 1, y, 2*offY, 1)
	default:
		SwapOnDevice[float64](c, 2*n, x, 2*offX, 1, y, 2*offY, 1)
	}
}

// cxUnit reports whether vectors of n complex elements with the
// increments incs take level1.cl's kernels on their 2n reals: every
// increment is 1 and 2n fits those kernels' int.
func cxUnit(n int, incs ...int) bool {
	for _, inc := range incs {
		if inc != 1 {
			return false
		}
	}
	return 2*n <= math.MaxInt32
}

// zRun enqueues level1.cl's complex kernel k over vectors of n elements
// (2n reals) on the level 1 shape's grid; args are all its arguments.
func zRun(c *Call, k string, n int, args ...any) {
	sh := l1ShapeOf(c)
	c.Run(L1Kernel(c, k), []int{sh.EwGroupsFor(2*n) * sh.Local}, []int{sh.Local}, args...)
}

// cxReduce enqueues the two stages of reduction k: k+"_part" over the
// vector arguments vec, with one partial per group in bufs of elements of
// the sizes in partSizes (bytes per partial; one buffer each, and the
// same local scratch per work-item), then k+"_finish", which leaves the
// result in res at element offR.
//
// The work-groups and grid are the level 1 shape's. On CPU devices
// (groups of one work-item there) each work-item takes one run of the
// vector (complex.cl's CX_SPAN); on GPUs the grid strides over it.
func cxReduce(c *Call, k string, n int, vec []any, partSizes []int, res *cl.Buffer, offR int) {
	sh := l1ShapeOf(c)
	ls, g := sh.Local, sh.GroupsFor(n)
	var parts, locals []any
	for _, sz := range partSizes {
		parts = append(parts, Alloc[float32](c, g*sz/4))
		locals = append(locals, cl.Local(ls*sz))
	}
	part := append(append(append(append([]any{int32(n)}, vec...), parts...), l2bool(c.E.Prof.IsCPU())), locals...)
	c.Run(c.Kernel(cxFile, k+"_part"), []int{g * ls}, []int{ls}, part...)
	fin := append(append([]any{int32(g)}, parts...), res, int64(offR))
	c.Run(c.Kernel(cxFile, k+"_finish"), []int{ls}, []int{ls}, append(fin, locals...)...)
}

// CxDotOnDevice enqueues xᵀ·y (conj false) or xᴴ·y into complex element
// offR of res.
func CxDotOnDevice[R Real](c *Call, conj bool, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int, res *cl.Buffer, offR int) {
	if cxUnit(n, incX, incY) {
		zDotOnDevice[R](c, conj, n, x, offX, y, offY, res, offR)
		return
	}
	vec := append(append([]any{l2bool(conj)}, L1At(x, offX, incX)...), L1At(y, offY, incY)...)
	cxReduce(c, "cdot", n, vec, []int{2 * ElemSize[R]()}, res, offR)
}

// zDotOnDevice is CxDotOnDevice for unit strides, on level1.cl's
// zdot kernels and the level 1 shape's grid for 2n reals.
func zDotOnDevice[R Real](c *Call, conj bool, n int, x *cl.Buffer, offX int, y *cl.Buffer, offY int, res *cl.Buffer, offR int) {
	sh := l1ShapeOf(c)
	g := sh.GroupsFor(2 * n)
	scratch := cl.Local(2 * ElemSize[R]() * sh.Local)
	args := []any{int32(n), l2bool(conj), x, int64(2 * offX), y, int64(2 * offY), Alloc[R](c, 2*g)}
	if l1OnePass(c) {
		args = append(args, c.E.l1Ticket(c), res, int64(offR), scratch)
		c.Run(L1Kernel(c, "zdot_one"), []int{g * sh.Local}, []int{sh.Local}, args...)
		return
	}
	c.Run(L1Kernel(c, "zdot_part"), []int{g * sh.Local}, []int{sh.Local}, append(args, scratch)...)
	l1SecondPass(c, "zsum_parts", g, []int{2 * ElemSize[R]()}, args[len(args)-1], res, int64(offR))
}

// CxAsumOnDevice enqueues Σ |Re x(i)| + |Im x(i)| into real element offR
// of res.
func CxAsumOnDevice[R Real](c *Call, n int, x *cl.Buffer, offX, incX int, res *cl.Buffer, offR int) {
	if cxUnit(n, incX) {
		AsumOnDevice[R](c, 2*n, x, 2*offX, 1, res, offR)
		return
	}
	cxReduce(c, "casum", n, L1At(x, offX, incX), []int{ElemSize[R]()}, res, offR)
}

// CxNrm2OnDevice enqueues the overflow-safe Euclidean norm of x into real
// element offR of res.
func CxNrm2OnDevice[R Real](c *Call, n int, x *cl.Buffer, offX, incX int, res *cl.Buffer, offR int) {
	if cxUnit(n, incX) {
		// level1.cl's znrm2: Blue's sums over the 2n reals, +Inf before NaN.
		nrm2Run[R](c, "znrm2", 2*n, res, offR, x, int64(2*offX))
		return
	}
	cxReduce(c, "cnrm2", n, L1At(x, offX, incX), []int{3 * ElemSize[R]()}, res, offR)
}

// CxIamaxOnDevice enqueues the index of the first element of x with the
// largest |Re|+|Im| (gonum's NaN rules) into int element offR of res.
func CxIamaxOnDevice[R Real](c *Call, n int, x *cl.Buffer, offX, incX int, res *cl.Buffer, offR int) {
	if cxUnit(n, incX) {
		// level1.cl's ziamax: iamax's vector path on pairs of lanes.
		iamaxRun[R](c, "ziamax", n, res, offR, x, int64(2*offX))
		return
	}
	cxReduce(c, "ciamax", n, L1At(x, offX, incX), []int{ElemSize[R](), 4}, res, offR)
}

// The host-slice routines.

func CxAxpy[C Complex, R Real](e *Engine, name string, n int, alpha C, x []C, incX int, y []C, incY int) error {
	if err := L1Check(n); err != nil {
		return err
	}
	c := Begin[R](e, name)
	xb := Upload(c, x[:VecSpan(n, incX)])
	yb := Upload(c, y[:VecSpan(n, incY)])
	are, aim := CxParts[C, R](alpha)
	CxAxpyOnDevice(c, n, are, aim, xb, VecOff(n, incX), incX, yb, VecOff(n, incY), incY)
	out := Download[C](c, yb, VecSpan(n, incY))
	if err := c.Finish(); err != nil {
		return err
	}
	cxScatter(y, out, n, incY)
	return nil
}

// CxScal scales x by alpha, a complex scalar or (realAlpha) the real alpha.
func CxScal[C Complex, R Real](e *Engine, name string, n int, alpha C, realAlpha bool, x []C, incX int) error {
	if err := L1Check(n); err != nil {
		return err
	}
	c := Begin[R](e, name)
	xb := Upload(c, x[:VecSpan(n, incX)])
	are, aim := CxParts[C, R](alpha)
	if realAlpha {
		CxRealScalOnDevice(c, n, are, xb, 0, incX)
	} else {
		CxScalOnDevice(c, n, are, aim, xb, 0, incX)
	}
	out := Download[C](c, xb, VecSpan(n, incX))
	if err := c.Finish(); err != nil {
		return err
	}
	cxScatter(x, out, n, incX)
	return nil
}

func CxCopy[C Complex, R Real](e *Engine, name string, n int, x []C, incX int, y []C, incY int) error {
	if err := L1Check(n); err != nil {
		return err
	}
	c := Begin[R](e, name)
	xb := Upload(c, x[:VecSpan(n, incX)])
	// Only y's elements are written and copied back: its gaps need not be
	// uploaded.
	yb := Alloc[C](c, VecSpan(n, incY))
	CxCopyOnDevice(c, n, xb, VecOff(n, incX), incX, yb, VecOff(n, incY), incY)
	out := Download[C](c, yb, VecSpan(n, incY))
	if err := c.Finish(); err != nil {
		return err
	}
	cxScatter(y, out, n, incY)
	return nil
}

func CxSwap[C Complex, R Real](e *Engine, name string, n int, x []C, incX int, y []C, incY int) error {
	if err := L1Check(n); err != nil {
		return err
	}
	c := Begin[R](e, name)
	xb := Upload(c, x[:VecSpan(n, incX)])
	yb := Upload(c, y[:VecSpan(n, incY)])
	CxSwapOnDevice(c, n, xb, VecOff(n, incX), incX, yb, VecOff(n, incY), incY)
	outX := Download[C](c, xb, VecSpan(n, incX))
	outY := Download[C](c, yb, VecSpan(n, incY))
	if err := c.Finish(); err != nil {
		return err
	}
	cxScatter(x, outX, n, incX)
	cxScatter(y, outY, n, incY)
	return nil
}

func CxDot[C Complex, R Real](e *Engine, name string, conj bool, n int, x []C, incX int, y []C, incY int) (C, error) {
	if err := L1Check(n); err != nil {
		return 0, err
	}
	c := Begin[R](e, name)
	xb := Upload(c, x[:VecSpan(n, incX)])
	yb := Upload(c, y[:VecSpan(n, incY)])
	res := Alloc[C](c, 1)
	CxDotOnDevice[R](c, conj, n, xb, VecOff(n, incX), incX, yb, VecOff(n, incY), incY, res, 0)
	out := Download[C](c, res, 1)
	if err := c.Finish(); err != nil {
		return 0, err
	}
	return out[0], nil
}

// cxRealReduce runs a reduction of x with a real result (asum, nrm2).
func cxRealReduce[C Complex, R Real](e *Engine, name string, n int, x []C, incX int, enqueue func(c *Call, xb, res *cl.Buffer)) (R, error) {
	if err := L1Check(n); err != nil {
		return 0, err
	}
	c := Begin[R](e, name)
	xb := Upload(c, x[:VecSpan(n, incX)])
	res := Alloc[R](c, 1)
	enqueue(c, xb, res)
	out := Download[R](c, res, 1)
	if err := c.Finish(); err != nil {
		return 0, err
	}
	return out[0], nil
}

func CxAsum[C Complex, R Real](e *Engine, name string, n int, x []C, incX int) (R, error) {
	return cxRealReduce[C, R](e, name, n, x, incX, func(c *Call, xb, res *cl.Buffer) {
		CxAsumOnDevice[R](c, n, xb, 0, incX, res, 0)
	})
}

func CxNrm2[C Complex, R Real](e *Engine, name string, n int, x []C, incX int) (R, error) {
	return cxRealReduce[C, R](e, name, n, x, incX, func(c *Call, xb, res *cl.Buffer) {
		CxNrm2OnDevice[R](c, n, xb, 0, incX, res, 0)
	})
}

var errCxIamax = errors.New("clblas: the complex iamax kernel returned no index")

func CxIamax[C Complex, R Real](e *Engine, name string, n int, x []C, incX int) (int, error) {
	if err := L1Check(n); err != nil {
		return -1, err
	}
	c := Begin[R](e, name)
	xb := Upload(c, x[:VecSpan(n, incX)])
	res := Alloc[float32](c, 1)
	CxIamaxOnDevice[R](c, n, xb, 0, incX, res, 0)
	out := Download[float32](c, res, 1)
	if err := c.Finish(); err != nil {
		return -1, err
	}
	idx := int(int32(math.Float32bits(out[0])))
	if idx < 0 || idx >= n {
		return -1, errCxIamax
	}
	return idx, nil
}
