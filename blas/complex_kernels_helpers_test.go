package clblas

import (
	"math/rand/v2"
	"testing"

	eng "github.com/gocompute/opencl/internal/engine"
)

// Helpers of the tests of the GPUs' complex level 2 kernels
// (TestZgemvKernels, TestZgerRows, TestZherRows): operands kept as
// complex128 on the host, rounded to T where T is complex64.

// zRounded returns a source of random complex values with parts in
// [-1, 1), rounded to T.
func zRounded[T complex64 | complex128](rnd *rand.Rand) func(n int) []complex128 {
	return func(n int) []complex128 {
		v := randC128(rnd, n)
		for i := range v {
			v[i] = complex128(T(v[i]))
		}
		return v
	}
}

// zName is routine z's BLAS name for T: "Z"+z, or "C"+z for complex64.
func zName[T complex64 | complex128](z string) string {
	if _, ok := any(T(0)).(complex64); ok {
		return "C" + z
	}
	return "Z" + z
}

// zResidentMat uploads a, a row-major matrix of stride lda (its last row
// padded), and returns its m×n view from element skew and a function that
// reads the whole of a back.
func zResidentMat[T complex64 | complex128](t *testing.T, impl *Implementation, a []complex128, lda, skew, m, n int) (*Matrix[T], func() []complex128) {
	t.Helper()
	rows := (len(a) + lda - 1) / lda
	back := make([]T, rows*lda)
	copy(back, zdata[T](a))
	mat, err := NewMatrixFrom(impl, rows, lda, back)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mat.Release() })
	v, err := mat.View(skew/lda, skew%lda, m, n)
	if err != nil {
		t.Fatal(err)
	}
	return v, func() []complex128 {
		t.Helper()
		if err := mat.Read(back); err != nil {
			t.Fatal(err)
		}
		return zWiden(back[:len(a)])
	}
}

// zResidentVec uploads h and returns its view of k elements with
// increment inc (inc > 0) and a function that reads the whole of h back.
func zResidentVec[T complex64 | complex128](t *testing.T, impl *Implementation, h []complex128, k, inc int) (*Vector[T], func() []complex128) {
	t.Helper()
	p, err := NewVectorFrom(impl, zdata[T](h))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Release() })
	v, err := p.View(0, k, inc)
	if err != nil {
		t.Fatal(err)
	}
	return v, func() []complex128 {
		t.Helper()
		got := make([]T, len(h))
		if err := p.Read(got); err != nil {
			t.Fatal(err)
		}
		return zWiden(got)
	}
}

func zWiden[T complex64 | complex128](s []T) []complex128 {
	out := make([]complex128, len(s))
	for i, v := range s {
		out[i] = complex128(v)
	}
	return out
}

// zAtShapes runs cases on the portable implementation (the GPUs' kernels
// on any device) at each of shapes, which set puts on its engine (and
// takes off at the end).
func zAtShapes(t *testing.T, set func(e *eng.Engine, s eng.GemvTShape), shapes []eng.GemvTShape,
	cases func(t *testing.T, impl *Implementation, launched func(string) int64, fp64 bool)) {
	impl, e, _, fp64 := portableImpl(t)
	defer set(e, eng.GemvTShape{})
	for _, s := range shapes {
		t.Run(gemvTName(s), func(t *testing.T) {
			set(e, s)
			cases(t, impl, e.Launched.Of, fp64)
		})
	}
}

// zGerShapes are the launches of TestZgerRows and TestZherRows: the
// default and two that BenchmarkGemvTShape may choose.
var zGerShapes = []eng.GemvTShape{{}, {TX: 16, TY: 4, Unroll: 3}, {TX: 8, TY: 2, Unroll: 2}}

func setGer(e *eng.Engine, s eng.GemvTShape) { e.Ger = s }
