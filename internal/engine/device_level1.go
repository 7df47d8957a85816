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
// Element-wise routines run one work-item per element. Reductions run a
// bounded number of work-groups (l1Groups) that each write one partial
// result; the host merges the partials, which are few.

// errTooLong is returned for vectors whose length does not fit the
// kernels' int (the CPU does those).
var errTooLong = errors.New("clblas: vector too long for the level 1 kernels")

// errNoFP64 is returned by Dsdot and Sdsdot on a device without double
// precision: they must accumulate in float64, so the CPU does them.
var errNoFP64 = errors.New("clblas: device has no fp64 to accumulate in")

const L1File = "level1.cl"

// l1Local is the work-group size of the level 1 kernels: 64, or the
// largest power of two the device allows if that is less (the reductions
// need a power of two).
func L1Local(e *Engine) int {
	ls := 64
	for ls > 1 && e.Prof.MaxWorkGroupSize > 0 && ls > e.Prof.MaxWorkGroupSize {
		ls /= 2
	}
	return ls
}

// l1Groups is the number of work-groups of a reduction over n elements:
// enough to fill the device a few times over, never more than the vector
// needs, at most 256.
func L1Groups(e *Engine, n, ls int) int {
	g := min(max(4*e.Prof.ComputeUnits, 8), 256)
	return max(min(g, (n+ls-1)/ls), 1)
}

func L1Check(n int) error {
	if n > math.MaxInt32 {
		return errTooLong
	}
	return nil
}

// l1At is the (buffer, offset, increment) kernel argument triple of a
// vector whose element 0 is at element off of b.
func L1At(b any, off, inc int) []any {
	return []any{b, int64(off), int32(inc)}
}

func L1Run(c *Call, k string, n int, args ...any) {
	ls := L1Local(c.E)
	kk := c.Kernel(L1File, k)
	c.Run(kk, []int{Groups(n, ls)}, []int{ls}, append([]any{int32(n)}, args...)...)
}

// The enqueue-only layer: each xxxOnDevice enqueues one routine on vectors
// already in device buffers (element i of x at x[offX + i·incX]) and
// returns without waiting; errors are recorded in c. The host-slice
// routines below wrap them (upload, enqueue, download, scatter); the
// device-resident API calls them directly.

func AxpyOnDevice[T Real](c *Call, n int, alpha T, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) {
	args := []any{alpha}
	args = append(args, L1At(x, offX, incX)...)
	args = append(args, L1At(y, offY, incY)...)
	L1Run(c, "axpy", n, args...)
}

func ScalOnDevice[T Real](c *Call, n int, alpha T, x *cl.Buffer, offX, incX int) {
	L1Run(c, "scal", n, append([]any{alpha}, L1At(x, offX, incX)...)...)
}

func CopyOnDevice[T Real](c *Call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) {
	L1Run(c, "copy", n, append(L1At(x, offX, incX), L1At(y, offY, incY)...)...)
}

func SwapOnDevice[T Real](c *Call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) {
	L1Run(c, "swap", n, append(L1At(x, offX, incX), L1At(y, offY, incY)...)...)
}

func RotOnDevice[T Real](c *Call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int, cos, sin T) {
	args := append(L1At(x, offX, incX), L1At(y, offY, incY)...)
	L1Run(c, "rot", n, append(args, cos, sin)...)
}

// rotmOnDevice applies the modified Givens rotation with flag and h in
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

// reduceOnDevice enqueues the reduction kernel k over x (and y when it is
// not nil), with one partial of element type P per group, and returns the
// buffer of partials and their number.
func reduceOnDevice[T, P Real](c *Call, k string, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) (*cl.Buffer, int) {
	ls := L1Local(c.E)
	g := L1Groups(c.E, n, ls)
	var p P
	args := append([]any{int32(n)}, L1At(x, offX, incX)...)
	if y != nil {
		args = append(args, L1At(y, offY, incY)...)
	}
	pb := Alloc[P](c, g)
	args = append(args, pb, LocalBytes(ls, p))
	c.Run(c.Kernel(L1File, k), []int{g * ls}, []int{ls}, args...)
	return pb, g
}

// dotOnDevice enqueues the partial sums of x·y; sumParts merges them.
func DotOnDevice[T Real](c *Call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) (*cl.Buffer, int) {
	return reduceOnDevice[T, T](c, "dot_part", n, x, offX, incX, y, offY, incY)
}

// asumOnDevice enqueues the partial sums of |x|; sumParts merges them.
func AsumOnDevice[T Real](c *Call, n int, x *cl.Buffer, offX, incX int) (*cl.Buffer, int) {
	return reduceOnDevice[T, T](c, "asum_part", n, x, offX, incX, nil, 0, 0)
}

// dsdotOnDevice enqueues the float64 partial sums of the float32 x·y; the
// device must have fp64.
func DsdotOnDevice(c *Call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) (*cl.Buffer, int) {
	if !c.E.Prof.FP64 {
		c.Fail(errNoFP64)
		return nil, 0
	}
	return reduceOnDevice[float32, float64](c, "dsdot_part", n, x, offX, incX, y, offY, incY)
}

// nrm2OnDevice enqueues the partial (scale, ssq) pairs of x; mergeNrm2
// merges them.
func Nrm2OnDevice[T Real](c *Call, n int, x *cl.Buffer, offX, incX int) (scales, ssqs *cl.Buffer, g int) {
	ls := L1Local(c.E)
	g = L1Groups(c.E, n, ls)
	var z T
	sb, qb := Alloc[T](c, g), Alloc[T](c, g)
	args := append([]any{int32(n)}, L1At(x, offX, incX)...)
	args = append(args, sb, qb, LocalBytes(ls, z), LocalBytes(ls, z))
	c.Run(c.Kernel(L1File, "nrm2_part"), []int{g * ls}, []int{ls}, args...)
	return sb, qb, g
}

// iamaxOnDevice enqueues the partial (max |x|, first index) pairs of x;
// mergeIamax merges them. The indices are OpenCL ints: the index buffer
// holds float32-sized elements whose bits are the ints.
func IamaxOnDevice[T Real](c *Call, n int, x *cl.Buffer, offX, incX int) (maxs, idxs *cl.Buffer, g int) {
	ls := L1Local(c.E)
	g = L1Groups(c.E, n, ls)
	var z T
	mb := Alloc[T](c, g)
	ib := Alloc[float32](c, g)
	args := append([]any{int32(n)}, L1At(x, offX, incX)...)
	args = append(args, mb, ib, LocalBytes(ls, z), cl.Local(4*ls))
	c.Run(c.Kernel(L1File, "iamax_part"), []int{g * ls}, []int{ls}, args...)
	return mb, ib, g
}

// localBytes is a __local argument of n elements of P.
func LocalBytes[P Real](n int, _ P) cl.Local {
	return cl.Local(n * PrecisionOf[P]() / 8)
}

func SumParts[P Real](parts []P) float64 {
	var s float64
	for _, v := range parts {
		s += float64(v)
	}
	return s
}

// mergeNrm2 merges the partial (scale, ssq) pairs in float64, where the
// squares of float32 scales cannot overflow; the float64 merge is the same
// scaled one the kernel does.
func MergeNrm2[T Real](scales, ssqs []T) T {
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
func MergeIamax[T Real](maxs []T, idxBits []float32, n int) (int, error) {
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

// reduce1 runs the reduction kernel k over host x (and y when it is not
// nil) and returns the partials.
func reduce1[T, P Real](e *Engine, name, k string, n int, x []T, incX int, y []T, incY int) ([]P, error) {
	if err := L1Check(n); err != nil {
		return nil, err
	}
	c := Begin[T](e, name)
	xb := Upload(c, x[:VecSpan(n, incX)])
	var yb *cl.Buffer
	if y != nil {
		yb = Upload(c, y[:VecSpan(n, incY)])
	}
	pb, g := reduceOnDevice[T, P](c, k, n, xb, VecOff(n, incX), incX, yb, VecOff(n, incY), incY)
	parts := Download[P](c, pb, g)
	if err := c.Finish(); err != nil {
		return nil, err
	}
	return parts, nil
}

func dot[T Real](e *Engine, name string, n int, x []T, incX int, y []T, incY int) (T, error) {
	parts, err := reduce1[T, T](e, name, "dot_part", n, x, incX, y, incY)
	if err != nil {
		return 0, err
	}
	return T(SumParts(parts)), nil
}

func asum[T Real](e *Engine, name string, n int, x []T, incX int) (T, error) {
	parts, err := reduce1[T, T](e, name, "asum_part", n, x, incX, nil, 0)
	if err != nil {
		return 0, err
	}
	return T(SumParts(parts)), nil
}

// dsdot is the float64-accumulated dot product of float32 vectors.
func dsdot(e *Engine, name string, n int, x []float32, incX int, y []float32, incY int) (float64, error) {
	if !e.Prof.FP64 {
		return 0, errNoFP64
	}
	parts, err := reduce1[float32, float64](e, name, "dsdot_part", n, x, incX, y, incY)
	if err != nil {
		return 0, err
	}
	return SumParts(parts), nil
}

func nrm2[T Real](e *Engine, name string, n int, x []T, incX int) (T, error) {
	if err := L1Check(n); err != nil {
		return 0, err
	}
	c := Begin[T](e, name)
	xb := Upload(c, x[:VecSpan(n, incX)])
	sb, qb, g := Nrm2OnDevice[T](c, n, xb, VecOff(n, incX), incX)
	scales := Download[T](c, sb, g)
	ssqs := Download[T](c, qb, g)
	if err := c.Finish(); err != nil {
		return 0, err
	}
	return MergeNrm2(scales, ssqs), nil
}

func iamax[T Real](e *Engine, name string, n int, x []T, incX int) (int, error) {
	if err := L1Check(n); err != nil {
		return -1, err
	}
	c := Begin[T](e, name)
	xb := Upload(c, x[:VecSpan(n, incX)])
	mb, ib, g := IamaxOnDevice[T](c, n, xb, VecOff(n, incX), incX)
	maxs := Download[T](c, mb, g)
	idxBits := Download[float32](c, ib, g)
	if err := c.Finish(); err != nil {
		return -1, err
	}
	return MergeIamax(maxs, idxBits, n)
}

// float64 methods.

func (dev ClDevice64) Ddot(n int, x []float64, incX int, y []float64, incY int) (float64, error) {
	return dot(dev.E, "Ddot", n, x, incX, y, incY)
}

func (dev ClDevice64) Dnrm2(n int, x []float64, incX int) (float64, error) {
	return nrm2(dev.E, "Dnrm2", n, x, incX)
}

func (dev ClDevice64) Dasum(n int, x []float64, incX int) (float64, error) {
	return asum(dev.E, "Dasum", n, x, incX)
}

func (dev ClDevice64) Idamax(n int, x []float64, incX int) (int, error) {
	return iamax(dev.E, "Idamax", n, x, incX)
}

func (dev ClDevice64) Dswap(n int, x []float64, incX int, y []float64, incY int) error {
	return swap(dev.E, "Dswap", n, x, incX, y, incY)
}

func (dev ClDevice64) Dcopy(n int, x []float64, incX int, y []float64, incY int) error {
	return copyVec(dev.E, "Dcopy", n, x, incX, y, incY)
}

func (dev ClDevice64) Daxpy(n int, alpha float64, x []float64, incX int, y []float64, incY int) error {
	return axpy(dev.E, "Daxpy", n, alpha, x, incX, y, incY)
}

func (dev ClDevice64) Drot(n int, x []float64, incX int, y []float64, incY int, c float64, s float64) error {
	return rot(dev.E, "Drot", n, x, incX, y, incY, c, s)
}

func (dev ClDevice64) Drotm(n int, x []float64, incX int, y []float64, incY int, p blas.DrotmParams) error {
	return rotm(dev.E, "Drotm", n, x, incX, y, incY, p.Flag, p.H)
}

func (dev ClDevice64) Dscal(n int, alpha float64, x []float64, incX int) error {
	return scal(dev.E, "Dscal", n, alpha, x, incX)
}

// float32 methods.

func (dev ClDevice32) Sdsdot(n int, alpha float32, x []float32, incX int, y []float32, incY int) (float32, error) {
	r, err := dsdot(dev.E, "Sdsdot", n, x, incX, y, incY)
	if err != nil {
		return 0, err
	}
	return alpha + float32(r), nil
}

func (dev ClDevice32) Dsdot(n int, x []float32, incX int, y []float32, incY int) (float64, error) {
	return dsdot(dev.E, "Dsdot", n, x, incX, y, incY)
}

func (dev ClDevice32) Sdot(n int, x []float32, incX int, y []float32, incY int) (float32, error) {
	return dot(dev.E, "Sdot", n, x, incX, y, incY)
}

func (dev ClDevice32) Snrm2(n int, x []float32, incX int) (float32, error) {
	return nrm2(dev.E, "Snrm2", n, x, incX)
}

func (dev ClDevice32) Sasum(n int, x []float32, incX int) (float32, error) {
	return asum(dev.E, "Sasum", n, x, incX)
}

func (dev ClDevice32) Isamax(n int, x []float32, incX int) (int, error) {
	return iamax(dev.E, "Isamax", n, x, incX)
}

func (dev ClDevice32) Sswap(n int, x []float32, incX int, y []float32, incY int) error {
	return swap(dev.E, "Sswap", n, x, incX, y, incY)
}

func (dev ClDevice32) Scopy(n int, x []float32, incX int, y []float32, incY int) error {
	return copyVec(dev.E, "Scopy", n, x, incX, y, incY)
}

func (dev ClDevice32) Saxpy(n int, alpha float32, x []float32, incX int, y []float32, incY int) error {
	return axpy(dev.E, "Saxpy", n, alpha, x, incX, y, incY)
}

func (dev ClDevice32) Srot(n int, x []float32, incX int, y []float32, incY int, c float32, s float32) error {
	return rot(dev.E, "Srot", n, x, incX, y, incY, c, s)
}

func (dev ClDevice32) Srotm(n int, x []float32, incX int, y []float32, incY int, p blas.SrotmParams) error {
	return rotm(dev.E, "Srotm", n, x, incX, y, incY, p.Flag, p.H)
}

func (dev ClDevice32) Sscal(n int, alpha float32, x []float32, incX int) error {
	return scal(dev.E, "Sscal", n, alpha, x, incX)
}
