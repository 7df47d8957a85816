package clblas

import (
	"errors"
	"math"

	"github.com/gocompute/opencl/cl"
	eng "github.com/gocompute/opencl/internal/engine"
)

// The launch shape of the level 1 kernels and the two-pass reductions.
//
// Each reduction enqueues a first pass over the grid of l1ShapeOf (one
// partial per work-group) and a second pass of one work-group that merges
// the partials and writes the result into element off of a buffer: the
// drop-in path reads back that one element, Dot and the other resident
// reductions read it into a Scalar, and DotTo and Nrm2To leave it in the
// caller's vector for the next kernel.

// l1ShapeOf is the level 1 shape of c's device in c's precision.
func l1ShapeOf(c *call) eng.L1Shape { return eng.L1ShapeFor(c.e.prof, c.prec) }

// l1Kernel is kernel k of level1.cl built for c's shape.
func l1Kernel(c *call, k string) *cl.Kernel {
	return c.kernel(l1File, k, l1ShapeOf(c).Defines()...)
}

// l1FirstPass enqueues the first pass k over n elements with args (after
// n) and, as the last arguments, parts (nParts·groups elements of P) and
// local scratch of nLocal·Local elements of P. It returns the buffer of
// partials and the number of groups.
func l1FirstPass[P real](c *call, k string, n, nParts, nLocal int, args ...any) (*cl.Buffer, int) {
	sh := l1ShapeOf(c)
	g := sh.GroupsFor(n)
	var p P
	pb := alloc[P](c, nParts*g)
	args = append([]any{int32(n)}, args...)
	args = append(args, pb, localBytes(nLocal*sh.Local, p))
	c.run(l1Kernel(c, k), []int{g * sh.Local}, []int{sh.Local}, args...)
	return pb, g
}

// l1SecondPass enqueues the one-group kernel k over g partials: k's
// arguments are g, then args.
func l1SecondPass(c *call, k string, g int, args ...any) {
	ls := l1ShapeOf(c).Local
	c.run(l1Kernel(c, k), []int{ls}, []int{ls}, append([]any{int32(g)}, args...)...)
}

// dotOnDevice enqueues res[off] = x·y, summed in T's precision.
func dotOnDevice[T real](c *call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int, res *cl.Buffer, off int) {
	args := append(l1At(x, offX, incX), l1At(y, offY, incY)...)
	pb, g := l1FirstPass[T](c, "dot_part", n, 1, 1, args...)
	sumPartsOnDevice[T](c, pb, g, res, off)
}

// asumOnDevice enqueues res[off] = Σ|x[i]|.
func asumOnDevice[T real](c *call, n int, x *cl.Buffer, offX, incX int, res *cl.Buffer, off int) {
	pb, g := l1FirstPass[T](c, "asum_part", n, 1, 1, l1At(x, offX, incX)...)
	sumPartsOnDevice[T](c, pb, g, res, off)
}

// dsdotOnDevice enqueues res[off] = the float64-accumulated x·y of float32
// vectors (res holds float64); the device must have fp64.
func dsdotOnDevice(c *call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int, res *cl.Buffer, off int) {
	if !c.e.prof.FP64 {
		c.fail(errNoFP64)
		return
	}
	args := append(l1At(x, offX, incX), l1At(y, offY, incY)...)
	pb, g := l1FirstPass[float64](c, "dsdot_part", n, 1, 1, args...)
	ls := l1ShapeOf(c).Local
	l1SecondPass(c, "dsum_parts", g, pb, res, int64(off), cl.Local(8*ls))
}

// nrm2OnDevice enqueues res[off] = ‖x‖₂ without overflow or underflow
// (level1.cl's nrm2_part and nrm2_fin).
func nrm2OnDevice[T real](c *call, n int, x *cl.Buffer, offX, incX int, res *cl.Buffer, off int) {
	pb, g := l1FirstPass[T](c, "nrm2_part", n, 3, 3, l1At(x, offX, incX)...)
	var z T
	l1SecondPass(c, "nrm2_fin", g, pb, res, int64(off), localBytes(3*l1ShapeOf(c).Local, z))
}

// iamaxOnDevice enqueues res[off] = the index of the first largest |x[i]|
// (gonum's rules for NaN) as an OpenCL int: res holds float32-sized
// elements whose bits are the int (iamaxIndex reads it).
func iamaxOnDevice[T real](c *call, n int, x *cl.Buffer, offX, incX int, res *cl.Buffer, off int) {
	sh := l1ShapeOf(c)
	g := sh.GroupsFor(n)
	var z T
	mb := alloc[T](c, g)
	ib := alloc[float32](c, g)
	args := append([]any{int32(n)}, l1At(x, offX, incX)...)
	args = append(args, mb, ib, localBytes(sh.Local, z), cl.Local(4*sh.Local))
	c.run(l1Kernel(c, "iamax_part"), []int{g * sh.Local}, []int{sh.Local}, args...)
	l1SecondPass(c, "iamax_fin", g, mb, ib, res, int64(off), localBytes(sh.Local, z), cl.Local(4*sh.Local))
}

// sumPartsOnDevice enqueues res[off] = the sum of the g partials in parts.
func sumPartsOnDevice[T real](c *call, parts *cl.Buffer, g int, res *cl.Buffer, off int) {
	var z T
	l1SecondPass(c, "sum_parts", g, parts, res, int64(off), localBytes(l1ShapeOf(c).Local, z))
}

// iamaxIndex is the index iamax_fin left as the bits of a float32, checked
// against the vector's length n.
func iamaxIndex(bits float32, n int) (int, error) {
	idx := int(int32(math.Float32bits(bits)))
	if idx < 0 || idx >= n {
		return -1, errors.New("clblas: iamax kernel returned no index")
	}
	return idx, nil
}
