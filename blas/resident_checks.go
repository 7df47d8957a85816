package clblas

import (
	"errors"
	"fmt"
	"math"
)

// Size, offset and increment checks of the device-resident API and
// HostSlice. Every such number is computed here without overflow and held
// to what the kernels can index: their dimensions, leading dimensions and
// increments are 32-bit ints, so no dimension of a matrix or vector may
// exceed math.MaxInt32, and no allocation may exceed what an int counts in
// bytes (or, for host memory, what Go can address: maxHostBytes).

// ErrOverlap is wrapped by the error of an operation whose output shares
// elements with one of its inputs: the kernels read inputs while outputs
// are written, so such a call cannot give the result asked for. Level 2
// and 3 outputs may share nothing with their inputs; the two vectors of a
// level 1 operation (Axpy, Copy, Swap, Rot, Rotm) may be the very same
// view, which is updated element by element as gonum does, but may not
// share only some elements; so may AxpyBy's (whose scalar, like ScalBy's,
// must lie apart from what is written: an ErrShape error).
var ErrOverlap = errors.New("clblas: output overlaps an input")

// maxHostBytes bounds a HostSlice: unsafe.Slice refuses more than the
// Go heap can address on 64-bit platforms (2⁴⁸ bytes).
const maxHostBytes = 1 << 47

// checkCount checks that n elements of size es are a valid allocation of
// op: 1 ≤ n ≤ math.MaxInt32 and n·es fits an int.
func checkCount(op string, n, es int) error {
	if n <= 0 {
		return fmt.Errorf("clblas: %s: %d elements: %w", op, n, ErrShape)
	}
	if n > math.MaxInt32 || n > math.MaxInt/es {
		return fmt.Errorf("clblas: %s: %d elements exceed the kernels' 32-bit indices: %w", op, n, ErrInvalidArg)
	}
	return nil
}

// checkMatrixSize checks a rows×cols allocation of elements of size es:
// both dimensions positive and at most math.MaxInt32, the byte size
// within an int.
func checkMatrixSize(op string, rows, cols, es int) error {
	if rows <= 0 || cols <= 0 {
		return fmt.Errorf("clblas: %s(%d, %d): dimensions must be positive: %w", op, rows, cols, ErrShape)
	}
	if rows > math.MaxInt32 || cols > math.MaxInt32 || rows > math.MaxInt/es/cols {
		return fmt.Errorf("clblas: %s(%d, %d): too large for the kernels' 32-bit indices: %w", op, rows, cols, ErrInvalidArg)
	}
	return nil
}

// checkHostCount checks the length n of a HostSlice of elements of size es.
func checkHostCount(n, es int) error {
	if n <= 0 {
		return fmt.Errorf("clblas: NewHostSlice: %d elements: %w", n, ErrInvalidArg)
	}
	if n > maxHostBytes/es {
		return fmt.Errorf("clblas: NewHostSlice: %d elements of %d bytes exceed what Go can address: %w", n, es, ErrInvalidArg)
	}
	return nil
}

// inRange reports whether the block of n ≥ 1 items starting at item i lies
// within [0, size), computed without overflow.
func inRange(i, n, size int) bool {
	return i >= 0 && n >= 1 && i < size && n <= size-i
}

// stridedInRange reports whether n ≥ 1 elements starting at offset and
// spaced inc ≥ 1 apart lie within a vector of size elements, and whether
// inc fits the kernels' 32-bit increments once scaled by outer (the
// increment of the vector viewed).
func stridedInRange(offset, n, inc, outer, size int) bool {
	if offset < 0 || n < 1 || inc < 1 || offset >= size || inc > math.MaxInt32/outer {
		return false
	}
	// (n-1)·inc ≤ size-1-offset, without forming the product.
	return n == 1 || (size-1-offset)/(n-1) >= inc
}

// layout is the set of elements a view covers in its storage: rows runs
// of cols consecutive elements, stride apart, the first at off. A vector
// is n runs of 1 element, inc apart.
type layout struct {
	st                      *storage
	off, rows, cols, stride int
}

func (m *Matrix[T]) layout() layout { return layout{m.st, m.off, m.rows, m.cols, m.stride} }
func (v *Vector[T]) layout() layout { return layout{v.st, v.off, v.n, 1, v.inc} }

func (l layout) last() int { return l.off + (l.rows-1)*l.stride + l.cols - 1 }

// floorDiv is ⌊a/b⌋ for b > 0.
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// overlaps reports whether two views share an element. It walks the runs
// of the view with fewer of them, and for each finds by division whether
// a run of the other meets it, so its cost is O(min(rows)) and only views
// of one storage whose spans meet pay it.
func overlaps(a, b layout) bool {
	if a.st != b.st || a.last() < b.off || b.last() < a.off {
		return false
	}
	if a.rows > b.rows {
		a, b = b, a
	}
	for r := range a.rows {
		lo := a.off + r*a.stride
		hi := lo + a.cols // run [lo, hi)
		// Runs r2 of b with b.off + r2·b.stride in (lo − b.cols, hi).
		r0 := max(floorDiv(lo-b.off-b.cols, b.stride)+1, 0)
		r1 := min(floorDiv(hi-b.off-1, b.stride), b.rows-1)
		if r0 <= r1 {
			return true
		}
	}
	return false
}

// checkNoOverlap is the error of op when out shares elements with any of
// ins (nil layouts, of absent operands, are skipped).
func checkNoOverlap(op string, out layout, ins ...layout) error {
	for _, in := range ins {
		if in.st != nil && overlaps(out, in) {
			return opErr(op, "%w", ErrOverlap)
		}
	}
	return nil
}

// checkL1Alias is the error of a level 1 operation on x and y (both
// written, or y written from x) when they share elements without being the
// same view: the same view is updated element by element, as gonum does,
// but partly shared elements would be read and written in an order the
// device does not keep.
func checkL1Alias[T Element](op string, x, y *Vector[T]) error {
	if x.st == y.st && x.off == y.off && (x.inc == y.inc || x.n == 1) {
		return nil
	}
	return checkNoOverlap(op, y.layout(), x.layout())
}

// matOrPacked is the layout of a level 2 operation's matrix: a, or the
// packed ap when a is nil.
func matOrPacked[T Element](a *Matrix[T], ap *Vector[T]) layout {
	if a != nil {
		return a.layout()
	}
	return ap.layout()
}
