package clblas

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas/gonum"
)

// TestZdotOne checks the complex dot products of one element, which the
// front ends form themselves below the gate (under auto), against gonum's: the same
// value (== on each part, or NaN where gonum's is) for random parts,
// zeros, infinities, NaN, huge parts whose products overflow and tiny
// ones whose products round, in both precisions.
func TestZdotOne(t *testing.T) {
	impl, err := New(WithOffload(Auto))
	if err != nil {
		t.Skipf("New: %v", err)
	}
	defer impl.Close()
	if impl.cxLim.Zdotc < 2 || impl.cxLim.Cdotu < 2 {
		t.Fatalf("a dot of one element is not below the gate: the test would not reach the front ends' own product")
	}
	var ref gonum.Implementation
	rnd := rand.New(rand.NewPCG(7, 8))
	special := []float64{0, math.Copysign(0, -1), 1, -1.5, math.Inf(1), math.Inf(-1), math.NaN(), 1e300, 3e-310, 1e38, 1e-40}
	part := func() float64 {
		if rnd.IntN(3) == 0 {
			return special[rnd.IntN(len(special))]
		}
		return rnd.NormFloat64() * math.Pow(2, float64(rnd.IntN(40)-20))
	}
	same := func(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }
	for range 4000 {
		x := []complex128{complex(part(), part())}
		y := []complex128{complex(part(), part())}
		for _, c := range []struct {
			name      string
			got, want complex128
		}{
			{"Zdotc", impl.Zdotc(1, x, 1, y, 1), ref.Zdotc(1, x, 1, y, 1)},
			{"Zdotu", impl.Zdotu(1, x, 1, y, 1), ref.Zdotu(1, x, 1, y, 1)},
		} {
			if !same(real(c.got), real(c.want)) || !same(imag(c.got), imag(c.want)) {
				t.Fatalf("%s(%v, %v) = %v, gonum %v", c.name, x[0], y[0], c.got, c.want)
			}
		}
		x32 := []complex64{complex64(x[0])}
		y32 := []complex64{complex64(y[0])}
		for _, c := range []struct {
			name      string
			got, want complex64
		}{
			{"Cdotc", impl.Cdotc(1, x32, 1, y32, 1), ref.Cdotc(1, x32, 1, y32, 1)},
			{"Cdotu", impl.Cdotu(1, x32, 1, y32, 1), ref.Cdotu(1, x32, 1, y32, 1)},
		} {
			g, w := complex128(c.got), complex128(c.want)
			if !same(real(g), real(w)) || !same(imag(g), imag(w)) {
				t.Fatalf("%s(%v, %v) = %v, gonum %v", c.name, x32[0], y32[0], c.got, c.want)
			}
		}
	}
}
