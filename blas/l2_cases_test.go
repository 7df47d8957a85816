package clblas

import (
	"math/rand/v2"
	"testing"
)

// uniformVecs returns a maker of slices of n values drawn uniformly from
// [-1, 1) by a PCG seeded with (16, stream): each case generator passes
// its own stream so its inputs do not depend on the others.
func uniformVecs[T float32 | float64](stream uint64) func(n int) []T {
	r := rand.New(rand.NewPCG(16, stream))
	return func(n int) []T {
		s := make([]T, n)
		for i := range s {
			s[i] = T(2*r.Float64() - 1)
		}
		return s
	}
}

// fillNaN sets every element of s to NaN, so that a kernel that reads
// what it must not (y when beta == 0) shows it in its result.
func fillNaN[T float32 | float64](s []T) {
	for i := range s {
		s[i] = T(l2nan)
	}
}

// symvVectors returns x and y of y = alpha·A·x + beta·y for views of n
// elements with increments incX and incY that start one element into
// their slices (unaligned on the device); y is all NaN when beta == 0
// (the kernel must not read it).
func symvVectors[T float32 | float64](vec func(int) []T, n, incX, incY int, beta T) (x, y []T) {
	x = vec(1 + (n-1)*abs(incX) + 1)
	y = vec(1 + (n-1)*abs(incY) + 1)
	if beta == 0 {
		fillNaN(y)
	}
	return x, y
}

// checkL2Result reports the first element of got that is not l2same as
// want within tol, as "desc: elem[i] = got, want want".
func checkL2Result[T float32 | float64](t *testing.T, desc, elem string, got, want []T, tol float64) {
	t.Helper()
	for i := range want {
		if !l2same(float64(got[i]), float64(want[i]), tol) {
			t.Errorf("%s: %s[%d] = %v, want %v", desc, elem, i, got[i], want[i])
			return
		}
	}
}

// expectOnDevice counts name's device launches from now; the function it
// returns fails t unless at least calls of them have happened since.
func expectOnDevice(t *testing.T, name string, launched func(string) int64) func(calls int) {
	before := launched(name)
	return func(calls int) {
		t.Helper()
		if d := launched(name) - before; d < int64(calls) {
			t.Errorf("%s: %d of %d calls ran on the device", name, d, calls)
		}
	}
}
