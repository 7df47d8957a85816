package clblas

import (
	"errors"
	"math"
	"unsafe"

	"github.com/gocompute/opencl/cl"
	eng "github.com/gocompute/opencl/internal/engine"
)

// Complex level 1 device routines, on the kernels of kernels/complex.cl.
//
// A complex vector travels as its interleaved real and imaginary parts (the
// layout of Go's complex64 and complex128, and of OpenCL's float2 and
// double2), so every function is generic in the complex type C and its
// real part type R (complex64 with float32, complex128 with float64) and
// moves []C through the engine's real buffers as []R of twice the length.
// A call runs at the precision of R: complex.cl's PRECISION.
//
// Reductions finish on the device: a bounded number of work-groups each
// leave one partial, and one more work-group reduces those into a single
// element, which is all the host reads (or what a resident caller leaves
// on the device).

const cxFile = "complex.cl"

// cplx is the element type of a complex device routine.
type cplx interface{ complex64 | complex128 }

// cxReals views x as its interleaved real and imaginary parts; R must be
// C's real part type.
func cxReals[C cplx, R real](x []C) []R {
	if len(x) == 0 {
		return nil
	}
	return unsafe.Slice((*R)(unsafe.Pointer(unsafe.SliceData(x))), 2*len(x))
}

// cxOfReals views interleaved parts as complex numbers.
func cxOfReals[C cplx, R real](x []R) []C {
	if len(x) < 2 {
		return nil
	}
	return unsafe.Slice((*C)(unsafe.Pointer(unsafe.SliceData(x))), len(x)/2)
}

// cxParts returns the real and imaginary parts of z.
func cxParts[C cplx, R real](z C) (R, R) {
	p := (*[2]R)(unsafe.Pointer(&z))
	return p[0], p[1]
}

// cxUpload copies host to a new device buffer.
func cxUpload[C cplx, R real](c *call, host []C) *cl.Buffer {
	return upload(c, cxReals[C, R](host))
}

// cxAlloc borrows a device buffer of n complex elements.
func cxAlloc[R real](c *call, n int) *cl.Buffer { return alloc[R](c, 2*n) }

// cxDownload reads the first n complex elements of b.
func cxDownload[C cplx, R real](c *call, b *cl.Buffer, n int) []C {
	return cxOfReals[C](download[R](c, b, 2*n))
}

// cxScatter copies the n elements of the strided vector src (laid out as
// in dst, from its first element) into dst.
func cxScatter[C cplx](dst, src []C, n, inc int) {
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

func cxRun(c *call, k string, n int, args ...any) {
	ls := l1Local(c.e)
	c.run(c.kernel(cxFile, k), []int{eng.Groups(n, ls)}, []int{ls}, append([]any{int32(n)}, args...)...)
}

// The enqueue-only layer, on vectors already in device buffers (element i
// of x at complex element offX + i·incX of its buffer).

func cxAxpyOnDevice[R real](c *call, n int, are, aim R, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) {
	args := append([]any{are, aim}, l1At(x, offX, incX)...)
	cxRun(c, "caxpy", n, append(args, l1At(y, offY, incY)...)...)
}

func cxScalOnDevice[R real](c *call, n int, are, aim R, x *cl.Buffer, offX, incX int) {
	cxRun(c, "cscal", n, append([]any{are, aim}, l1At(x, offX, incX)...)...)
}

func cxRealScalOnDevice[R real](c *call, n int, alpha R, x *cl.Buffer, offX, incX int) {
	cxRun(c, "csscal", n, append([]any{alpha}, l1At(x, offX, incX)...)...)
}

func cxCopyOnDevice(c *call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) {
	cxRun(c, "ccopy", n, append(l1At(x, offX, incX), l1At(y, offY, incY)...)...)
}

func cxSwapOnDevice(c *call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) {
	cxRun(c, "cswap", n, append(l1At(x, offX, incX), l1At(y, offY, incY)...)...)
}

// cxReduce enqueues the two stages of reduction k: k+"_part" over the
// vector arguments vec, with one partial per group in bufs of elements of
// the sizes in partSizes (bytes per partial; one buffer each, and the
// same local scratch per work-item), then k+"_finish", which leaves the
// result in res at element offR.
func cxReduce(c *call, k string, n int, vec []any, partSizes []int, res *cl.Buffer, offR int) {
	ls := l1Local(c.e)
	g := l1Groups(c.e, n, ls)
	var parts, locals []any
	for _, sz := range partSizes {
		parts = append(parts, alloc[float32](c, g*sz/4))
		locals = append(locals, cl.Local(ls*sz))
	}
	part := append(append(append([]any{int32(n)}, vec...), parts...), locals...)
	c.run(c.kernel(cxFile, k+"_part"), []int{g * ls}, []int{ls}, part...)
	fin := append(append([]any{int32(g)}, parts...), res, int64(offR))
	c.run(c.kernel(cxFile, k+"_finish"), []int{ls}, []int{ls}, append(fin, locals...)...)
}

// cxDotOnDevice enqueues xᵀ·y (conj false) or xᴴ·y into complex element
// offR of res.
func cxDotOnDevice[R real](c *call, conj bool, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int, res *cl.Buffer, offR int) {
	vec := append(append([]any{l2bool(conj)}, l1At(x, offX, incX)...), l1At(y, offY, incY)...)
	cxReduce(c, "cdot", n, vec, []int{2 * elemSize[R]()}, res, offR)
}

// cxAsumOnDevice enqueues Σ |Re x(i)| + |Im x(i)| into real element offR
// of res.
func cxAsumOnDevice[R real](c *call, n int, x *cl.Buffer, offX, incX int, res *cl.Buffer, offR int) {
	cxReduce(c, "casum", n, l1At(x, offX, incX), []int{elemSize[R]()}, res, offR)
}

// cxNrm2OnDevice enqueues the overflow-safe Euclidean norm of x into real
// element offR of res.
func cxNrm2OnDevice[R real](c *call, n int, x *cl.Buffer, offX, incX int, res *cl.Buffer, offR int) {
	sz := elemSize[R]()
	cxReduce(c, "cnrm2", n, l1At(x, offX, incX), []int{sz, sz, 4}, res, offR)
}

// cxIamaxOnDevice enqueues the index of the first element of x with the
// largest |Re|+|Im| (gonum's NaN rules) into int element offR of res.
func cxIamaxOnDevice[R real](c *call, n int, x *cl.Buffer, offX, incX int, res *cl.Buffer, offR int) {
	cxReduce(c, "ciamax", n, l1At(x, offX, incX), []int{elemSize[R](), 4}, res, offR)
}

// The host-slice routines.

func cxAxpy[C cplx, R real](e *engine, name string, n int, alpha C, x []C, incX int, y []C, incY int) error {
	if err := l1Check(n); err != nil {
		return err
	}
	c := begin[R](e, name)
	xb := cxUpload[C, R](c, x[:eng.VecSpan(n, incX)])
	yb := cxUpload[C, R](c, y[:eng.VecSpan(n, incY)])
	are, aim := cxParts[C, R](alpha)
	cxAxpyOnDevice(c, n, are, aim, xb, eng.VecOff(n, incX), incX, yb, eng.VecOff(n, incY), incY)
	out := cxDownload[C, R](c, yb, eng.VecSpan(n, incY))
	if err := c.finish(); err != nil {
		return err
	}
	cxScatter(y, out, n, incY)
	return nil
}

// cxScal scales x by alpha, a complex scalar or (realAlpha) the real alpha.
func cxScal[C cplx, R real](e *engine, name string, n int, alpha C, realAlpha bool, x []C, incX int) error {
	if err := l1Check(n); err != nil {
		return err
	}
	c := begin[R](e, name)
	xb := cxUpload[C, R](c, x[:eng.VecSpan(n, incX)])
	are, aim := cxParts[C, R](alpha)
	if realAlpha {
		cxRealScalOnDevice(c, n, are, xb, 0, incX)
	} else {
		cxScalOnDevice(c, n, are, aim, xb, 0, incX)
	}
	out := cxDownload[C, R](c, xb, eng.VecSpan(n, incX))
	if err := c.finish(); err != nil {
		return err
	}
	cxScatter(x, out, n, incX)
	return nil
}

func cxCopy[C cplx, R real](e *engine, name string, n int, x []C, incX int, y []C, incY int) error {
	if err := l1Check(n); err != nil {
		return err
	}
	c := begin[R](e, name)
	xb := cxUpload[C, R](c, x[:eng.VecSpan(n, incX)])
	// Only y's elements are written and copied back: its gaps need not be
	// uploaded.
	yb := cxAlloc[R](c, eng.VecSpan(n, incY))
	cxCopyOnDevice(c, n, xb, eng.VecOff(n, incX), incX, yb, eng.VecOff(n, incY), incY)
	out := cxDownload[C, R](c, yb, eng.VecSpan(n, incY))
	if err := c.finish(); err != nil {
		return err
	}
	cxScatter(y, out, n, incY)
	return nil
}

func cxSwap[C cplx, R real](e *engine, name string, n int, x []C, incX int, y []C, incY int) error {
	if err := l1Check(n); err != nil {
		return err
	}
	c := begin[R](e, name)
	xb := cxUpload[C, R](c, x[:eng.VecSpan(n, incX)])
	yb := cxUpload[C, R](c, y[:eng.VecSpan(n, incY)])
	cxSwapOnDevice(c, n, xb, eng.VecOff(n, incX), incX, yb, eng.VecOff(n, incY), incY)
	outX := cxDownload[C, R](c, xb, eng.VecSpan(n, incX))
	outY := cxDownload[C, R](c, yb, eng.VecSpan(n, incY))
	if err := c.finish(); err != nil {
		return err
	}
	cxScatter(x, outX, n, incX)
	cxScatter(y, outY, n, incY)
	return nil
}

func cxDot[C cplx, R real](e *engine, name string, conj bool, n int, x []C, incX int, y []C, incY int) (C, error) {
	if err := l1Check(n); err != nil {
		return 0, err
	}
	c := begin[R](e, name)
	xb := cxUpload[C, R](c, x[:eng.VecSpan(n, incX)])
	yb := cxUpload[C, R](c, y[:eng.VecSpan(n, incY)])
	res := cxAlloc[R](c, 1)
	cxDotOnDevice[R](c, conj, n, xb, eng.VecOff(n, incX), incX, yb, eng.VecOff(n, incY), incY, res, 0)
	out := cxDownload[C, R](c, res, 1)
	if err := c.finish(); err != nil {
		return 0, err
	}
	return out[0], nil
}

// cxRealReduce runs a reduction of x with a real result (asum, nrm2).
func cxRealReduce[C cplx, R real](e *engine, name string, n int, x []C, incX int, enqueue func(c *call, xb, res *cl.Buffer)) (R, error) {
	if err := l1Check(n); err != nil {
		return 0, err
	}
	c := begin[R](e, name)
	xb := cxUpload[C, R](c, x[:eng.VecSpan(n, incX)])
	res := alloc[R](c, 1)
	enqueue(c, xb, res)
	out := download[R](c, res, 1)
	if err := c.finish(); err != nil {
		return 0, err
	}
	return out[0], nil
}

func cxAsum[C cplx, R real](e *engine, name string, n int, x []C, incX int) (R, error) {
	return cxRealReduce[C, R](e, name, n, x, incX, func(c *call, xb, res *cl.Buffer) {
		cxAsumOnDevice[R](c, n, xb, 0, incX, res, 0)
	})
}

func cxNrm2[C cplx, R real](e *engine, name string, n int, x []C, incX int) (R, error) {
	return cxRealReduce[C, R](e, name, n, x, incX, func(c *call, xb, res *cl.Buffer) {
		cxNrm2OnDevice[R](c, n, xb, 0, incX, res, 0)
	})
}

var errCxIamax = errors.New("clblas: the complex iamax kernel returned no index")

func cxIamax[C cplx, R real](e *engine, name string, n int, x []C, incX int) (int, error) {
	if err := l1Check(n); err != nil {
		return -1, err
	}
	c := begin[R](e, name)
	xb := cxUpload[C, R](c, x[:eng.VecSpan(n, incX)])
	res := alloc[float32](c, 1)
	cxIamaxOnDevice[R](c, n, xb, 0, incX, res, 0)
	out := download[float32](c, res, 1)
	if err := c.finish(); err != nil {
		return -1, err
	}
	idx := int(int32(math.Float32bits(out[0])))
	if idx < 0 || idx >= n {
		return -1, errCxIamax
	}
	return idx, nil
}
