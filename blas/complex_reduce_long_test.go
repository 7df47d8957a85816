package clblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas/gonum"
)

// TestComplexReductionsLong runs the complex NRM2 and IAMAX kernels
// (complex.cl's; of unit stride, level1.cl's znrm2 and ziamax) on vectors long
// enough that each work-item takes several rounds, against gonum: the
// largest element repeated, far apart and in one lane of the vectors
// (IAMAX keeps the first), a NaN at 0 (it wins), a NaN elsewhere (it never
// wins; NRM2 is NaN), and a NaN with an Inf (gonum's Dznrm2 gives +Inf),
// at increments 1 and 2.
func TestComplexReductionsLong(t *testing.T) {
	t.Run("complex128", func(t *testing.T) { complexReductionsLong[complex128](t, 1e-13) })
	t.Run("complex64", func(t *testing.T) { complexReductionsLong[complex64](t, 1e-5) })
}

func complexReductionsLong[T complex64 | complex128](t *testing.T, tol float64) {
	impl := newTestImpl(t)
	var ref gonum.Implementation
	vec := zRounded[T](rand.New(rand.NewPCG(47, 48)))
	const n = 9001
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name string
		set  func(x []complex128, inc int)
	}{
		{"finite", func([]complex128, int) {}},
		{"ties", func(x []complex128, inc int) { x[5000*inc], x[5512*inc], x[7048*inc] = 3, complex(-1, 2), 3i }},
		// Eight apart: the same lane of a vector of 2, 4, 8 or 16 elements.
		{"close ties", func(x []complex128, inc int) { x[6000*inc], x[6008*inc], x[6016*inc] = 3, -3i, complex(1.5, -1.5) }},
		{"nan0", func(x []complex128, inc int) { x[0], x[6001*inc] = complex(nan, 0), 5 }},
		{"nan", func(x []complex128, inc int) { x[4444*inc], x[4445*inc] = complex(0, nan), 2 }},
		{"nan-inf", func(x []complex128, inc int) { x[3000*inc], x[8000*inc] = complex(nan, 1), complex(0, -inf) }},
	}
	for _, inc := range []int{1, 2} {
		for _, c := range cases {
			x := vec(1 + (n-1)*inc)
			c.set(x, inc)
			name := fmt.Sprintf("%s inc=%d", c.name, inc)
			v, _ := zResidentVec[T](t, impl, x, n, inc)
			s, err := Nrm2(v)
			got, want := complex128(scalarValue(t, "Nrm2", s, err)), ref.Dznrm2(n, x, inc)
			if !zClose(got, complex(want, 0), tol*math.Sqrt(n)) {
				t.Errorf("Nrm2 %s = %v, want %v", name, got, want)
			}
			im, err := Iamax(v)
			if got, want := scalarValue(t, "Iamax", im, err), ref.Izamax(n, x, inc); got != want {
				t.Errorf("Iamax %s = %d, want %d", name, got, want)
			}
		}
	}
}

// TestComplexNrm2Ranges runs the complex NRM2 kernel on vectors whose
// parts lie where their squares overflow or underflow (scaled by 2^±900
// in complex128, 2^±100 in complex64) and on one with a huge and a tiny
// element among ordinary ones, against gonum's Dznrm2, relative to the
// norm, at increments 1 and 2.
func TestComplexNrm2Ranges(t *testing.T) {
	t.Run("complex128", func(t *testing.T) { complexNrm2Ranges[complex128](t, 900, 1e-13) })
	t.Run("complex64", func(t *testing.T) { complexNrm2Ranges[complex64](t, 100, 1e-5) })
}

func complexNrm2Ranges[T complex64 | complex128](t *testing.T, e int, tol float64) {
	impl := newTestImpl(t)
	var ref gonum.Implementation
	vec := zRounded[T](rand.New(rand.NewPCG(49, 50)))
	const n = 3001
	scale := func(x []complex128, from, to, step int, p int) {
		for i := from; i < to; i += step {
			x[i] = complex128(T(complex(math.Ldexp(real(x[i]), p), math.Ldexp(imag(x[i]), p))))
		}
	}
	cases := []struct {
		name string
		set  func(x []complex128, inc int)
	}{
		{"huge", func(x []complex128, inc int) { scale(x, 0, len(x), 1, e) }},
		{"tiny", func(x []complex128, inc int) { scale(x, 0, len(x), 1, -e) }},
		{"mixed", func(x []complex128, inc int) {
			scale(x, 100*inc, 101*inc, 1, e)
			scale(x, 2000*inc, 2001*inc, 1, -e)
		}},
	}
	for _, inc := range []int{1, 2} {
		for _, c := range cases {
			x := vec(1 + (n-1)*inc)
			c.set(x, inc)
			v, _ := zResidentVec[T](t, impl, x, n, inc)
			s, err := Nrm2(v)
			got, want := real(complex128(scalarValue(t, "Nrm2", s, err))), ref.Dznrm2(n, x, inc)
			if math.IsInf(want, 0) || want == 0 || math.Abs(got-want) > tol*math.Sqrt(n)*want {
				t.Errorf("Nrm2 %s inc=%d = %v, want %v", c.name, inc, got, want)
			}
		}
	}
}
