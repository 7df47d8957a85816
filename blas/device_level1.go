package clblas

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

// l1Args is the (buffer, offset, increment) kernel argument triple of a
// strided vector of n elements.
func l1Args(b any, n, inc int) []any {
	return []any{b, int64(vecOff(n, inc)), int32(inc)}
}

func l1Run(c *call, k string, n int, args ...any) {
	ls := l1Local(c.e)
	kk := c.kernel(l1File, k)
	c.run(kk, []int{groups(n, ls)}, []int{ls}, append([]any{int32(n)}, args...)...)
}

// Element-wise routines.

func axpy[T real](e *engine, name string, n int, alpha T, x []T, incX int, y []T, incY int) error {
	if err := l1Check(n); err != nil {
		return err
	}
	c := begin[T](e, name)
	xb := upload(c, x[:vecSpan(n, incX)])
	yb := upload(c, y[:vecSpan(n, incY)])
	args := []any{alpha}
	args = append(args, l1Args(xb, n, incX)...)
	args = append(args, l1Args(yb, n, incY)...)
	l1Run(c, "axpy", n, args...)
	out := download[T](c, yb, vecSpan(n, incY))
	if err := c.finish(); err != nil {
		return err
	}
	scatterVec(y, out, n, incY)
	return nil
}

func scal[T real](e *engine, name string, n int, alpha T, x []T, incX int) error {
	if err := l1Check(n); err != nil {
		return err
	}
	c := begin[T](e, name)
	xb := upload(c, x[:vecSpan(n, incX)])
	l1Run(c, "scal", n, append([]any{alpha}, l1Args(xb, n, incX)...)...)
	out := download[T](c, xb, vecSpan(n, incX))
	if err := c.finish(); err != nil {
		return err
	}
	scatterVec(x, out, n, incX)
	return nil
}

func copyVec[T real](e *engine, name string, n int, x []T, incX int, y []T, incY int) error {
	if err := l1Check(n); err != nil {
		return err
	}
	c := begin[T](e, name)
	xb := upload(c, x[:vecSpan(n, incX)])
	// Only y's elements are written and copied back, so its gaps need not
	// be uploaded.
	yb := alloc[T](c, vecSpan(n, incY))
	l1Run(c, "copy", n, append(l1Args(xb, n, incX), l1Args(yb, n, incY)...)...)
	out := download[T](c, yb, vecSpan(n, incY))
	if err := c.finish(); err != nil {
		return err
	}
	scatterVec(y, out, n, incY)
	return nil
}

// twoVec runs the element-wise kernel k that updates both x and y in
// place (swap, rot, rotm), with extra arguments after the two vectors.
func twoVec[T real](e *engine, name, k string, n int, x []T, incX int, y []T, incY int, extra ...any) error {
	if err := l1Check(n); err != nil {
		return err
	}
	c := begin[T](e, name)
	xb := upload(c, x[:vecSpan(n, incX)])
	yb := upload(c, y[:vecSpan(n, incY)])
	args := append(l1Args(xb, n, incX), l1Args(yb, n, incY)...)
	l1Run(c, k, n, append(args, extra...)...)
	outX := download[T](c, xb, vecSpan(n, incX))
	outY := download[T](c, yb, vecSpan(n, incY))
	if err := c.finish(); err != nil {
		return err
	}
	scatterVec(x, outX, n, incX)
	scatterVec(y, outY, n, incY)
	return nil
}

func swap[T real](e *engine, name string, n int, x []T, incX int, y []T, incY int) error {
	return twoVec(e, name, "swap", n, x, incX, y, incY)
}

func rot[T real](e *engine, name string, n int, x []T, incX int, y []T, incY int, cos, sin T) error {
	return twoVec(e, name, "rot", n, x, incX, y, incY, cos, sin)
}

// rotm applies the modified Givens rotation with flag (Rescaling,
// OffDiagonal or Diagonal; the front end handles the others) and h in
// gonum's order (h11, h21, h12, h22).
func rotm[T real](e *engine, name string, n int, x []T, incX int, y []T, incY int, flag blas.Flag, h [4]T) error {
	switch flag {
	case blas.Rescaling, blas.OffDiagonal, blas.Diagonal:
	default:
		return errors.New("clblas: unexpected rotm flag")
	}
	return twoVec(e, name, "rotm", n, x, incX, y, incY, int32(flag), h[0], h[2], h[1], h[3])
}

// Reductions.

// reduce1 runs the reduction kernel k over x (and y when it is not nil),
// with one partial of element type P per group, and returns the partials.
func reduce1[T, P real](e *engine, name, k string, n int, x []T, incX int, y []T, incY int) ([]P, error) {
	if err := l1Check(n); err != nil {
		return nil, err
	}
	ls := l1Local(e)
	g := l1Groups(e, n, ls)
	var p P
	c := begin[T](e, name)
	args := []any{int32(n)}
	args = append(args, l1Args(upload(c, x[:vecSpan(n, incX)]), n, incX)...)
	if y != nil {
		args = append(args, l1Args(upload(c, y[:vecSpan(n, incY)]), n, incY)...)
	}
	pb := alloc[P](c, g)
	args = append(args, pb, localBytes(ls, p))
	c.run(c.kernel(l1File, k), []int{g * ls}, []int{ls}, args...)
	parts := download[P](c, pb, g)
	if err := c.finish(); err != nil {
		return nil, err
	}
	return parts, nil
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
	ls := l1Local(e)
	g := l1Groups(e, n, ls)
	var z T
	c := begin[T](e, name)
	xb := upload(c, x[:vecSpan(n, incX)])
	sb, qb := alloc[T](c, g), alloc[T](c, g)
	args := append([]any{int32(n)}, l1Args(xb, n, incX)...)
	args = append(args, sb, qb, localBytes(ls, z), localBytes(ls, z))
	c.run(c.kernel(l1File, "nrm2_part"), []int{g * ls}, []int{ls}, args...)
	scales := download[T](c, sb, g)
	ssqs := download[T](c, qb, g)
	if err := c.finish(); err != nil {
		return 0, err
	}
	// Merge the partial (scale, ssq) pairs in float64, where the squares
	// of float32 scales cannot overflow; the float64 merge is the same
	// scaled one the kernel does.
	var scale, ssq float64
	for i := range scales {
		s, q := float64(scales[i]), float64(ssqs[i])
		switch {
		case math.IsNaN(s):
			return T(math.NaN()), nil
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
		return T(math.Inf(1)), nil
	}
	return T(scale * math.Sqrt(ssq)), nil
}

func iamax[T real](e *engine, name string, n int, x []T, incX int) (int, error) {
	if err := l1Check(n); err != nil {
		return -1, err
	}
	ls := l1Local(e)
	g := l1Groups(e, n, ls)
	var z T
	c := begin[T](e, name)
	xb := upload(c, x[:vecSpan(n, incX)])
	mb := alloc[T](c, g)
	// The indices are OpenCL ints: a float32 buffer has their size, and
	// their bits come back unchanged.
	ib := alloc[float32](c, g)
	args := append([]any{int32(n)}, l1Args(xb, n, incX)...)
	args = append(args, mb, ib, localBytes(ls, z), cl.Local(4*ls))
	c.run(c.kernel(l1File, "iamax_part"), []int{g * ls}, []int{ls}, args...)
	maxs := download[T](c, mb, g)
	idxBits := download[float32](c, ib, g)
	if err := c.finish(); err != nil {
		return -1, err
	}
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
