package engine

import (
	"errors"
	"math"

	"github.com/gocompute/opencl/cl"
)

// The launch shape of the level 1 kernels and the two-pass reductions.
//
// Each reduction enqueues a first pass over the grid of l1ShapeOf (one
// partial per work-group) and a second pass of one work-group that merges
// the partials and writes the result into element off of a buffer: the
// drop-in path reads back that one element, Dot and the other resident
// reductions read it into a Scalar, and DotTo and Nrm2To leave it in the
// caller's vector for the next kernel. With the shape's OnePass, the two
// passes are one launch of a _one kernel, whose last work-group to finish
// merges the partials (l1ticket.go keeps the counter that tells it).

// l1ShapeOf is the level 1 shape of c's device in c's precision.
func l1ShapeOf(c *Call) L1Shape { return c.E.L1Shape(c.prec) }

// L1Kernel is kernel k of level1.cl built for c's shape.
func L1Kernel(c *Call, k string) *cl.Kernel {
	if c.Err != nil {
		return nil
	}
	return c.kernelFor(c.E.specs.L1(c.prec, k, l1ShapeOf(c)))
}

// l1FirstPass enqueues the first pass k over n elements with args (after
// n) and, as the last arguments, parts (nParts·groups elements of P) and
// local scratch of nLocal·Local elements of P. It returns the buffer of
// partials and the number of groups.
func l1FirstPass[P Real](c *Call, k string, n, nParts, nLocal int, args ...any) (*cl.Buffer, int) {
	sh := l1ShapeOf(c)
	g := sh.GroupsFor(n)
	var p P
	pb := Alloc[P](c, nParts*g)
	args = append([]any{int32(n)}, args...)
	args = append(args, pb, LocalBytes(nLocal*sh.Local, p))
	c.Run(L1Kernel(c, k), []int{g * sh.Local}, []int{sh.Local}, args...)
	return pb, g
}

// l1SecondPass enqueues the one-group kernel k over g partials: k's
// arguments are g, then args, then the local scratch of perItem bytes per
// work-item of each of locals.
func l1SecondPass(c *Call, k string, g int, locals []int, args ...any) {
	ls := l1ShapeOf(c).FinLocal(c.E.Prof, g)
	args = append([]any{int32(g)}, args...)
	for _, b := range locals {
		args = append(args, cl.Local(b*ls))
	}
	c.Run(L1Kernel(c, k), []int{ls}, []int{ls}, args...)
}

// l1OnePass reports whether c's reductions run as one launch: the shape
// says so and the call runs on the engine's queue (whose ticket counter
// l1Ticket keeps).
func l1OnePass(c *Call) bool { return c.q == nil && l1ShapeOf(c).OnePass }

// l1One enqueues the one-pass kernel k over n elements with args (after
// n), then its partials (nParts·groups elements of P, and, with more, a
// buffer of groups float32-sized elements), the ticket counter, res and
// off, and local scratch of perItem bytes per work-item of each of locals.
func l1One[P Real](c *Call, k string, n, nParts int, more bool, res *cl.Buffer, off int, locals []int, args ...any) {
	sh := l1ShapeOf(c)
	g := sh.GroupsFor(n)
	args = append([]any{int32(n)}, args...)
	args = append(args, Alloc[P](c, nParts*g))
	if more {
		args = append(args, Alloc[float32](c, g))
	}
	args = append(args, c.E.l1Ticket(c), res, int64(off))
	for _, b := range locals {
		args = append(args, cl.Local(b*sh.Local))
	}
	c.Run(L1Kernel(c, k), []int{g * sh.Local}, []int{sh.Local}, args...)
}

// DotOnDevice enqueues res[off] = x·y, summed in T's precision.
func DotOnDevice[T Real](c *Call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int, res *cl.Buffer, off int) {
	args := append(L1At(x, offX, incX), L1At(y, offY, incY)...)
	if l1OnePass(c) {
		l1One[T](c, "dot_one", n, 1, false, res, off, []int{ElemSize[T]()}, args...)
		return
	}
	pb, g := l1FirstPass[T](c, "dot_part", n, 1, 1, args...)
	SumPartsOnDevice[T](c, pb, g, res, off)
}

// AsumOnDevice enqueues res[off] = Σ|x[i]|.
func AsumOnDevice[T Real](c *Call, n int, x *cl.Buffer, offX, incX int, res *cl.Buffer, off int) {
	if l1OnePass(c) {
		l1One[T](c, "asum_one", n, 1, false, res, off, []int{ElemSize[T]()}, L1At(x, offX, incX)...)
		return
	}
	pb, g := l1FirstPass[T](c, "asum_part", n, 1, 1, L1At(x, offX, incX)...)
	SumPartsOnDevice[T](c, pb, g, res, off)
}

// DsdotOnDevice enqueues res[off] = the float64-accumulated x·y of float32
// vectors (res holds float64); the device must have fp64.
func DsdotOnDevice(c *Call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int, res *cl.Buffer, off int) {
	if !c.E.Prof.FP64 {
		c.Fail(errNoFP64)
		return
	}
	args := append(L1At(x, offX, incX), L1At(y, offY, incY)...)
	if l1OnePass(c) {
		l1One[float64](c, "dsdot_one", n, 1, false, res, off, []int{8}, args...)
		return
	}
	pb, g := l1FirstPass[float64](c, "dsdot_part", n, 1, 1, args...)
	l1SecondPass(c, "dsum_parts", g, []int{8}, pb, res, int64(off))
}

// Nrm2OnDevice enqueues res[off] = ‖x‖₂ without overflow or underflow
// (level1.cl's nrm2_part and nrm2_fin).
func Nrm2OnDevice[T Real](c *Call, n int, x *cl.Buffer, offX, incX int, res *cl.Buffer, off int) {
	nrm2Run[T](c, "nrm2", n, res, off, L1At(x, offX, incX)...)
}

// nrm2Run enqueues the norm of kernels k+"_one" (one pass) or k+"_part"
// and k+"_fin" over n reals, vec their vector arguments: level1.cl's
// nrm2, and znrm2 for complex vectors of unit stride.
func nrm2Run[T Real](c *Call, k string, n int, res *cl.Buffer, off int, vec ...any) {
	// Three partials of T per group (Blue's sums), or one double in
	// their room (float sums in double).
	locals := []int{3 * ElemSize[T]()}
	if l1OnePass(c) {
		l1One[T](c, k+"_one", n, 3, false, res, off, locals, vec...)
		return
	}
	pb, g := l1FirstPass[T](c, k+"_part", n, 3, 3, vec...)
	l1SecondPass(c, k+"_fin", g, locals, pb, res, int64(off))
}

// IamaxOnDevice enqueues res[off] = the index of the first largest |x[i]|
// (gonum's rules for NaN) as an OpenCL int: res holds float32-sized
// elements whose bits are the int (iamaxIndex reads it).
func IamaxOnDevice[T Real](c *Call, n int, x *cl.Buffer, offX, incX int, res *cl.Buffer, off int) {
	iamaxRun[T](c, "iamax", n, res, off, L1At(x, offX, incX)...)
}

// iamaxRun enqueues the IAMAX of kernels k+"_one" (one pass) or
// k+"_part" and iamax_fin over n elements, vec their vector arguments:
// level1.cl's iamax, and ziamax for complex vectors of unit stride.
func iamaxRun[T Real](c *Call, k string, n int, res *cl.Buffer, off int, vec ...any) {
	locals := []int{ElemSize[T](), 4}
	if l1OnePass(c) {
		l1One[T](c, k+"_one", n, 1, true, res, off, locals, vec...)
		return
	}
	mb, ib, g := iamaxFirstPass[T](c, k+"_part", n, vec...)
	l1SecondPass(c, "iamax_fin", g, locals, mb, ib, res, int64(off))
}

// iamaxFirstPass enqueues the first pass of kernel k (iamax_part,
// ziamax_part) over n elements, vec its vector arguments, and returns its
// partials (|x| and index) and their number.
func iamaxFirstPass[T Real](c *Call, k string, n int, vec ...any) (*cl.Buffer, *cl.Buffer, int) {
	sh := l1ShapeOf(c)
	g := sh.GroupsFor(n)
	var z T
	mb, ib := Alloc[T](c, g), Alloc[float32](c, g)
	args := append(append([]any{int32(n)}, vec...), mb, ib, LocalBytes(sh.Local, z), cl.Local(4*sh.Local))
	c.Run(L1Kernel(c, k), []int{g * sh.Local}, []int{sh.Local}, args...)
	return mb, ib, g
}

// SumPartsOnDevice enqueues res[off] = the sum of the g partials in parts.
func SumPartsOnDevice[T Real](c *Call, parts *cl.Buffer, g int, res *cl.Buffer, off int) {
	l1SecondPass(c, "sum_parts", g, []int{ElemSize[T]()}, parts, res, int64(off))
}

// IamaxIndex is the index iamax_fin left as the bits of a float32, checked
// against the vector's length n.
func IamaxIndex(bits float32, n int) (int, error) {
	idx := int(int32(math.Float32bits(bits)))
	if idx < 0 || idx >= n {
		return -1, errors.New("clblas: iamax kernel returned no index")
	}
	return idx, nil
}
