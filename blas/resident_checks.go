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
// are written, so such a call cannot give the product asked for.
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

// rectsOverlap reports whether two views of one storage (same stride)
// share an element.
func rectsOverlap[T float32 | float64](a, b *Matrix[T]) bool {
	if a.st != b.st {
		return false
	}
	ar, ac := a.off/a.stride, a.off%a.stride
	br, bc := b.off/b.stride, b.off%b.stride
	return ar < br+b.rows && br < ar+a.rows && ac < bc+b.cols && bc < ac+a.cols
}

// checkNoOverlap is the error of op when out shares elements with any of
// ins.
func checkNoOverlap[T float32 | float64](op string, out *Matrix[T], ins ...*Matrix[T]) error {
	for _, in := range ins {
		if rectsOverlap(out, in) {
			return opErr(op, "%w", ErrOverlap)
		}
	}
	return nil
}
