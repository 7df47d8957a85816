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
// Element-wise routines run one work-item per element. Reductions run a
// bounded number of work-groups (l1Groups) that each write one partial
// result; the host merges the partials, which are few.

// errTooLong is returned for vectors whose length does not fit the
// kernels' int (the CPU does those).
var errTooLong = errors.New("clblas: vector too long for the level 1 kernels")

// errNoFP64 is returned by Dsdot and Sdsdot on a device without double
// precision: they must accumulate in float64, so the CPU does them.
var errNoFP64 = errors.New("clblas: device has no fp64 to accumulate in")

const l1File = "level1.cl"

// l1Local is the work-group size of the level 1 kernels: 64, or the
// largest power of two the device allows if that is less (the reductions
// need a power of two).
func l1Local(e *engine) int {
	ls := 64
	for ls > 1 && e.prof.MaxWorkGroupSize > 0 && ls > e.prof.MaxWorkGroupSize {
		ls /= 2
	}
	return ls
}

// l1Groups is the number of work-groups of a reduction over n elements:
// enough to fill the device a few times over, never more than the vector
// needs, at most 256.
func l1Groups(e *engine, n, ls int) int {
	g := min(max(4*e.prof.ComputeUnits, 8), 256)
	return max(min(g, (n+ls-1)/ls), 1)
}

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
	ls := l1Local(c.e)
	kk := c.kernel(l1File, k)
	c.run(kk, []int{eng.Groups(n, ls)}, []int{ls}, append([]any{int32(n)}, args...)...)
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

// reduceOnDevice enqueues the reduction kernel k over x (and y when it is
// not nil), with one partial of element type P per group, and returns the
// buffer of partials and their number.
func reduceOnDevice[T, P real](c *call, k string, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) (*cl.Buffer, int) {
	ls := l1Local(c.e)
	g := l1Groups(c.e, n, ls)
	var p P
	args := append([]any{int32(n)}, l1At(x, offX, incX)...)
	if y != nil {
		args = append(args, l1At(y, offY, incY)...)
	}
	pb := alloc[P](c, g)
	args = append(args, pb, localBytes(ls, p))
	c.run(c.kernel(l1File, k), []int{g * ls}, []int{ls}, args...)
	return pb, g
}

// dotOnDevice enqueues the partial sums of x·y; sumParts merges them.
func dotOnDevice[T real](c *call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) (*cl.Buffer, int) {
	return reduceOnDevice[T, T](c, "dot_part", n, x, offX, incX, y, offY, incY)
}

// asumOnDevice enqueues the partial sums of |x|; sumParts merges them.
func asumOnDevice[T real](c *call, n int, x *cl.Buffer, offX, incX int) (*cl.Buffer, int) {
	return reduceOnDevice[T, T](c, "asum_part", n, x, offX, incX, nil, 0, 0)
}

// dsdotOnDevice enqueues the float64 partial sums of the float32 x·y; the
// device must have fp64.
func dsdotOnDevice(c *call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) (*cl.Buffer, int) {
	if !c.e.prof.FP64 {
		c.fail(errNoFP64)
		return nil, 0
	}
	return reduceOnDevice[float32, float64](c, "dsdot_part", n, x, offX, incX, y, offY, incY)
}

// nrm2OnDevice enqueues the partial (scale, ssq) pairs of x; mergeNrm2
// merges them.
func nrm2OnDevice[T real](c *call, n int, x *cl.Buffer, offX, incX int) (scales, ssqs *cl.Buffer, g int) {
	ls := l1Local(c.e)
	g = l1Groups(c.e, n, ls)
	var z T
	sb, qb := alloc[T](c, g), alloc[T](c, g)
	args := append([]any{int32(n)}, l1At(x, offX, incX)...)
	args = append(args, sb, qb, localBytes(ls, z), localBytes(ls, z))
	c.run(c.kernel(l1File, "nrm2_part"), []int{g * ls}, []int{ls}, args...)
	return sb, qb, g
}

// iamaxOnDevice enqueues the partial (max |x|, first index) pairs of x;
// mergeIamax merges them. The indices are OpenCL ints: the index buffer
// holds float32-sized elements whose bits are the ints.
func iamaxOnDevice[T real](c *call, n int, x *cl.Buffer, offX, incX int) (maxs, idxs *cl.Buffer, g int) {
	ls := l1Local(c.e)
	g = l1Groups(c.e, n, ls)
	var z T
	mb := alloc[T](c, g)
	ib := alloc[float32](c, g)
	args := append([]any{int32(n)}, l1At(x, offX, incX)...)
	args = append(args, mb, ib, localBytes(ls, z), cl.Local(4*ls))
	c.run(c.kernel(l1File, "iamax_part"), []int{g * ls}, []int{ls}, args...)
	return mb, ib, g
}

// localBytes is a __local argument of n elements of P.
func localBytes[P real](n int, _ P) cl.Local {
	return cl.Local(n * precisionOf[P]() / 8)
}

func sumParts[P real](parts []P) float64 {
	var s float64
	for _, v := range parts {
		s += float64(v)
	}
	return s
}

// mergeNrm2 merges the partial (scale, ssq) pairs in float64, where the
// squares of float32 scales cannot overflow; the float64 merge is the same
// scaled one the kernel does.
func mergeNrm2[T real](scales, ssqs []T) T {
	var scale, ssq float64
	for i := range scales {
		s, q := float64(scales[i]), float64(ssqs[i])
		switch {
		case math.IsNaN(s):
			return T(math.NaN())
		case s == 0:
			// An empty group.
		case scale < s:
			r := scale / s
			ssq = q + ssq*r*r
			scale = s
		default:
			r := s / scale
			ssq += q * r * r
		}
	}
	if math.IsInf(scale, 1) {
		return T(math.Inf(1))
	}
	return T(scale * math.Sqrt(ssq))
}

// mergeIamax merges the partial (max, index) pairs of a vector of n
// elements.
func mergeIamax[T real](maxs []T, idxBits []float32, n int) (int, error) {
	best, idx := T(-1), int32(math.MaxInt32)
	for i, m := range maxs {
		j := int32(math.Float32bits(idxBits[i]))
		if m > best || (m == best && j < idx) {
			best, idx = m, j
		}
	}
	if idx < 0 || int(idx) >= n {
		return -1, errors.New("clblas: iamax kernel returned no index")
	}
	return int(idx), nil
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

// reduce1 runs the reduction kernel k over host x (and y when it is not
// nil) and returns the partials.
func reduce1[T, P real](e *engine, name, k string, n int, x []T, incX int, y []T, incY int) ([]P, error) {
	if err := l1Check(n); err != nil {
		return nil, err
	}
	c := begin[T](e, name)
	xb := upload(c, x[:eng.VecSpan(n, incX)])
	var yb *cl.Buffer
	if y != nil {
		yb = upload(c, y[:eng.VecSpan(n, incY)])
	}
	pb, g := reduceOnDevice[T, P](c, k, n, xb, eng.VecOff(n, incX), incX, yb, eng.VecOff(n, incY), incY)
	parts := download[P](c, pb, g)
	if err := c.finish(); err != nil {
		return nil, err
	}
	return parts, nil
}

func dot[T real](e *engine, name string, n int, x []T, incX int, y []T, incY int) (T, error) {
	parts, err := reduce1[T, T](e, name, "dot_part", n, x, incX, y, incY)
	if err != nil {
		return 0, err
	}
	return T(sumParts(parts)), nil
}

func asum[T real](e *engine, name string, n int, x []T, incX int) (T, error) {
	parts, err := reduce1[T, T](e, name, "asum_part", n, x, incX, nil, 0)
	if err != nil {
		return 0, err
	}
	return T(sumParts(parts)), nil
}

// dsdot is the float64-accumulated dot product of float32 vectors.
func dsdot(e *engine, name string, n int, x []float32, incX int, y []float32, incY int) (float64, error) {
	if !e.prof.FP64 {
		return 0, errNoFP64
	}
	parts, err := reduce1[float32, float64](e, name, "dsdot_part", n, x, incX, y, incY)
	if err != nil {
		return 0, err
	}
	return sumParts(parts), nil
}

func nrm2[T real](e *engine, name string, n int, x []T, incX int) (T, error) {
	if err := l1Check(n); err != nil {
		return 0, err
	}
	c := begin[T](e, name)
	xb := upload(c, x[:eng.VecSpan(n, incX)])
	sb, qb, g := nrm2OnDevice[T](c, n, xb, eng.VecOff(n, incX), incX)
	scales := download[T](c, sb, g)
	ssqs := download[T](c, qb, g)
	if err := c.finish(); err != nil {
		return 0, err
	}
	return mergeNrm2(scales, ssqs), nil
}

func iamax[T real](e *engine, name string, n int, x []T, incX int) (int, error) {
	if err := l1Check(n); err != nil {
		return -1, err
	}
	c := begin[T](e, name)
	xb := upload(c, x[:eng.VecSpan(n, incX)])
	mb, ib, g := iamaxOnDevice[T](c, n, xb, eng.VecOff(n, incX), incX)
	maxs := download[T](c, mb, g)
	idxBits := download[float32](c, ib, g)
	if err := c.finish(); err != nil {
		return -1, err
	}
	return mergeIamax(maxs, idxBits, n)
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
