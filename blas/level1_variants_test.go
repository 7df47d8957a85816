package clblas

import (
	"fmt"
	"math/rand/v2"
	"testing"

	eng "github.com/gocompute/opencl/internal/engine"
)

// TestLevel1ShapeVariants runs the vector-path tests (lengths around the
// vector width, a group and the grid; views at unaligned offsets; NaN and
// Inf) with the test device's shape changed the ways the tuner may change
// it: blocked loads (L1_BLOCK), 32-bit indices (L1_IDX32), float NRM2
// summed in double (L1_NRM2_D), a grid that covers the vector, an odd
// unroll, other vector widths and group counts, the lean nrm2 and iamax
// (L1_LEAN_NRM2, L1_LEAN_IAMAX; each alone), one-pass reductions, a second pass of a work-item per
// partial and result reads on a queue of their own; IAMAX's ties
// (level1IamaxTies) and the complex vector path (level1ComplexVectorPath)
// on each; and Nrm2 across the ranges of its sums.
func TestLevel1ShapeVariants(t *testing.T) {
	e := testEngine(t)
	for _, prec := range []int{64, 32} {
		base := e.L1Shape(prec)
		wide := min(2*base.Vec, 16)
		// Small groups and grids keep the tests' lengths (which follow
		// the shape) short, for Oclgrind.
		variants := []eng.L1Shape{
			{Local: min(64, base.Local), Vec: base.Vec, Unroll: 3, Groups: 2, Cover: true, Block: true, Idx32: true, Nrm2D: true, OnePass: true},
			{Local: min(32, base.Local), Vec: wide, Unroll: 2, Groups: 3, EwGroups: 5, Block: true, LeanNrm2: true, FinWide: true},
			{Local: min(16, base.Local), Vec: 1, Unroll: 2, Groups: 5, Cover: true, LeanIamax: true, OnePass: true, ReadApartMin: 1},
		}
		for _, v := range variants {
			t.Run(fmt.Sprintf("f%d/%+v", prec, v), func(t *testing.T) {
				if err := e.SetL1Shape(prec, v); err != nil {
					t.Fatal(err)
				}
				defer func() {
					if err := e.SetL1Shape(prec, base); err != nil {
						t.Fatal(err)
					}
				}()
				var err error
				if prec == 64 {
					level1VectorPath[float64](t)
					level1VectorPathNonFinite[float64](t)
					level1IamaxTies[float64](t)
					level1ComplexVectorPath[complex128](t)
					err = eng.CheckL1Shape[float64](e) // strides of -2 too
				} else {
					level1VectorPath[float32](t)
					level1VectorPathNonFinite[float32](t)
					level1IamaxTies[float32](t)
					level1ComplexVectorPath[complex64](t)
					err = eng.CheckL1Shape[float32](e)
				}
				if err != nil {
					t.Error(err)
				}
				level1Nrm2Ranges(t, prec)
			})
		}
	}
}

// TestSetL1Shape: an invalid shape is refused and leaves the shape as it
// was.
func TestSetL1Shape(t *testing.T) {
	e := testEngine(t)
	before := e.L1Shape(64)
	for _, bad := range []eng.L1Shape{
		{Local: 3, Vec: 1, Unroll: 1, Groups: 1},
		{Local: 64, Vec: 3, Unroll: 1, Groups: 1},
		{Local: 64, Vec: 1, Unroll: 0, Groups: 1},
		{Local: 64, Vec: 1, Unroll: 1, Groups: 0},
		{Local: 64, Vec: 1, Unroll: 1, Groups: 1, EwGroups: -1},
	} {
		if err := e.SetL1Shape(64, bad); err == nil {
			t.Errorf("SetL1Shape(%+v) = nil, want an error", bad)
		}
	}
	if err := e.SetL1Shape(16, before); err == nil {
		t.Errorf("SetL1Shape(16, …) = nil, want an error")
	}
	if got := e.L1Shape(64); got != before {
		t.Errorf("after refused shapes: %+v, want %+v", got, before)
	}
}

// TestReadApartChain enqueues many reductions back to back with their
// results read on a queue of their own (ReadApart), one-pass and not, and
// only then takes their values: each must be its own (a result buffer
// reused before its read would hand one reduction another's value).
func TestReadApartChain(t *testing.T) {
	e := testEngine(t)
	impl := newTestImpl(t)
	base := e.L1Shape(64)
	defer func() {
		if err := e.SetL1Shape(64, base); err != nil {
			t.Fatal(err)
		}
	}()
	rnd := rand.New(rand.NewPCG(5, 6))
	const k, n = 24, 1000
	y := newRVec[float64](t, impl, rnd, n, 0, 1)
	xs := make([]*rvec[float64], k)
	for i := range xs {
		xs[i] = newRVec[float64](t, impl, rnd, n, i%3, 1)
	}
	for _, onePass := range []bool{false, true} {
		sh := base
		sh.ReadApartMin, sh.OnePass = 1, onePass
		if err := e.SetL1Shape(64, sh); err != nil {
			t.Fatal(err)
		}
		dots := make([]*Scalar[float64], k)
		norms := make([]*Scalar[float64], k)
		for i, x := range xs {
			var err error
			if dots[i], err = Dot(x.v, y.v); err != nil {
				t.Fatal(err)
			}
			if norms[i], err = Nrm2(x.v); err != nil {
				t.Fatal(err)
			}
		}
		for i, x := range xs {
			if got, want := scalarValue(t, "Dot", dots[i], nil), gref.Ddot(n, x.h(), 1, y.h(), 1); !residentClose(got, want, 1e-11) {
				t.Errorf("one-pass %v: Dot %d = %v, want %v", onePass, i, got, want)
			}
			if got, want := scalarValue(t, "Nrm2", norms[i], nil), gref.Dnrm2(n, x.h(), 1); !residentClose(got, want, 1e-11) {
				t.Errorf("one-pass %v: Nrm2 %d = %v, want %v", onePass, i, got, want)
			}
		}
	}
}
