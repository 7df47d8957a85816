package clblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// Tests of level 1's unit-stride vector path and two-pass reductions on
// the test device's shape: views at every offset modulo the vector width,
// lengths around the vector width and around the sizes where a work-item,
// a group and the whole grid run out, operands aligned alike (the vector
// path) and not (the element path), and non-finite values in the head,
// the vectors and the tail. Each view lies inside a larger parent that is
// read back whole, so a write outside the view fails the test.

// l1EdgeLengths are the lengths the tests use for shape sh.
func l1EdgeLengths(sh eng.L1Shape) []int {
	v, item, grid := sh.Vec, sh.Local*sh.Vec, sh.Groups*sh.Local*sh.Vec
	set := map[int]bool{}
	var out []int
	for _, n := range []int{1, 2, 3, v - 1, v, v + 1, 2*v + 3, item - 1, item + 1, grid - 1, grid + v + 1, 2*grid + 5} {
		if n >= 1 && !set[n] {
			set[n] = true
			out = append(out, n)
		}
	}
	return out
}

func TestLevel1VectorPath(t *testing.T) {
	t.Run("float64", func(t *testing.T) { level1VectorPath[float64](t) })
	t.Run("float32", func(t *testing.T) { level1VectorPath[float32](t) })
}

func level1VectorPath[T float32 | float64](t *testing.T) {
	impl := newTestImpl(t)
	sh := testEngine(t).L1Shape(eng.PrecisionOf[T]())
	rnd := rand.New(rand.NewPCG(21, uint64(eng.PrecisionOf[T]())))
	tol := residentTol[T]()
	offs := []int{0, 1, sh.Vec - 1}
	for _, n := range l1EdgeLengths(sh) {
		for _, ox := range offs {
			for _, oy := range []int{ox, ox + 1} { // aligned alike, and not
				name := fmt.Sprintf("n=%d,offx=%d,offy=%d", n, ox, oy)
				x := newRVec[T](t, impl, rnd, n, ox, 1)
				y := newRVec[T](t, impl, rnd, n, oy, 1)

				ev, err := Axpy(T(0.75), x.v, y.v)
				gref.Daxpy(n, float64(T(0.75)), x.h(), 1, y.h(), 1)
				must(t, "Axpy", ev, err)
				y.check(t, "Axpy "+name)

				ev, err = Scal(T(-1.5), x.v)
				gref.Dscal(n, -1.5, x.h(), 1)
				must(t, "Scal", ev, err)
				x.check(t, "Scal "+name)

				ev, err = Rot(x.v, y.v, T(0.6), T(0.8))
				gref.Drot(n, x.h(), 1, y.h(), 1, float64(T(0.6)), float64(T(0.8)))
				must(t, "Rot", ev, err)
				x.check(t, "Rot x "+name)
				y.check(t, "Rot y "+name)

				h := [4]T{0.5, -0.25, 0.125, 2}
				ev, err = Rotm(x.v, y.v, blas.Rescaling, h)
				gref.Drotm(n, x.h(), 1, y.h(), 1, blas.DrotmParams{Flag: blas.Rescaling, H: [4]float64{float64(h[0]), float64(h[1]), float64(h[2]), float64(h[3])}})
				must(t, "Rotm", ev, err)
				x.check(t, "Rotm x "+name)
				y.check(t, "Rotm y "+name)

				d, err := Dot(x.v, y.v)
				if got, want := scalarValue(t, "Dot", d, err), gref.Ddot(n, x.h(), 1, y.h(), 1); !residentClose(float64(got), want, tol*math.Sqrt(float64(n))) {
					t.Errorf("Dot %s = %v, want %v", name, got, want)
				}
				s, err := Asum(x.v)
				if got, want := scalarValue(t, "Asum", s, err), gref.Dasum(n, x.h(), 1); !residentClose(float64(got), want, tol*math.Sqrt(float64(n))) {
					t.Errorf("Asum %s = %v, want %v", name, got, want)
				}
				s, err = Nrm2(x.v)
				if got, want := scalarValue(t, "Nrm2", s, err), gref.Dnrm2(n, x.h(), 1); !residentClose(float64(got), want, tol*math.Sqrt(float64(n))) {
					t.Errorf("Nrm2 %s = %v, want %v", name, got, want)
				}
				im, err := Iamax(x.v)
				if got, want := scalarValue(t, "Iamax", im, err), gref.Idamax(n, x.h(), 1); got != want {
					t.Errorf("Iamax %s = %d, want %d", name, got, want)
				}

				ev, err = Swap(x.v, y.v)
				gref.Dswap(n, x.h(), 1, y.h(), 1)
				must(t, "Swap", ev, err)
				x.check(t, "Swap x "+name)
				y.check(t, "Swap y "+name)

				ev, err = Copy(x.v, y.v)
				gref.Dcopy(n, x.h(), 1, y.h(), 1)
				must(t, "Copy", ev, err)
				y.check(t, "Copy "+name)
			}
		}
	}
}

// TestLevel1VectorPathNonFinite puts NaN or Inf at one element of the
// head, the vector body and the tail of unaligned views, and checks the
// reductions against gonum: NaN at index 0 wins Iamax for good, a NaN
// elsewhere never wins; Nrm2 is NaN with a NaN, else +Inf with an Inf.
func TestLevel1VectorPathNonFinite(t *testing.T) {
	t.Run("float64", func(t *testing.T) { level1VectorPathNonFinite[float64](t) })
	t.Run("float32", func(t *testing.T) { level1VectorPathNonFinite[float32](t) })
}

func level1VectorPathNonFinite[T float32 | float64](t *testing.T) {
	impl := newTestImpl(t)
	sh := testEngine(t).L1Shape(eng.PrecisionOf[T]())
	rnd := rand.New(rand.NewPCG(23, uint64(eng.PrecisionOf[T]())))
	n := sh.Local*sh.Vec + 2*sh.Vec + 1
	for _, off := range []int{1, sh.Vec - 1} {
		for _, at := range []int{0, 1, n / 2, n - 1} {
			for _, bad := range []float64{math.NaN(), math.Inf(-1)} {
				name := fmt.Sprintf("off=%d,x[%d]=%v", off, at, bad)
				x := newRVec[T](t, impl, rnd, n, off, 1)
				y := newRVec[T](t, impl, rnd, n, off, 1)
				x.h()[at] = bad
				x.sync(t)
				im, err := Iamax(x.v)
				if got, want := scalarValue(t, "Iamax", im, err), gref.Idamax(n, x.h(), 1); got != want {
					t.Errorf("Iamax %s = %d, want %d", name, got, want)
				}
				s, err := Nrm2(x.v)
				if got, want := scalarValue(t, "Nrm2", s, err), gref.Dnrm2(n, x.h(), 1); !sameNonFinite(float64(got), want) {
					t.Errorf("Nrm2 %s = %v, want %v", name, got, want)
				}
				d, err := Dot(x.v, y.v)
				if got, want := scalarValue(t, "Dot", d, err), gref.Ddot(n, x.h(), 1, y.h(), 1); !sameNonFinite(float64(got), want) {
					t.Errorf("Dot %s = %v, want %v", name, got, want)
				}
				s, err = Asum(x.v)
				if got, want := scalarValue(t, "Asum", s, err), gref.Dasum(n, x.h(), 1); !sameNonFinite(float64(got), want) {
					t.Errorf("Asum %s = %v, want %v", name, got, want)
				}
			}
		}
	}
}

// sameNonFinite reports whether got and want are both NaN or the same
// infinity.
func sameNonFinite(got, want float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	return got == want
}

// TestLevel1Nrm2Ranges checks Nrm2 on the vector path where the three
// sums of squares meet: huge, tiny and ordinary elements together, alone
// and in pairs, against gonum's scaled sum; interleaved (every work-item
// sees each kind) and in blocks (some work-items see only one kind, so
// L1_LEAN_NRM2's plain sums and its rescue by Blue's sums meet).
func TestLevel1Nrm2Ranges(t *testing.T) { level1Nrm2Ranges(t, 64, 32) }

func level1Nrm2Ranges(t *testing.T, precs ...int) {
	impl := newTestImpl(t)
	for _, prec := range precs {
		// huge and tiny lie past L1_LEAN_NRM2's bounds and Blue's; mid is
		// below L1_LEAN_NRM2's lower bound but within Blue's unscaled range.
		huge, tiny, mid := 1e300, 1e-300, 1e-145
		if prec == 32 {
			huge, tiny, mid = 1e36, 1e-36, 1e-12
		}
		mixes := [][]float64{{huge}, {tiny}, {mid}, {1}, {huge, 1}, {tiny, 1}, {mid, 1}, {huge, tiny}, {huge, tiny, 1}, {tiny, mid}}
		for _, blocks := range []bool{false, true} {
			for _, mix := range mixes {
				n := 3*64 + 5
				h := make([]float64, n)
				for i := range h {
					k := i % len(mix)
					if blocks {
						k = i * len(mix) / n
					}
					h[i] = mix[k] * (1 + float64(i%7)/8)
				}
				want := gref.Dnrm2(n, h, 1)
				var got float64
				if prec == 64 {
					got = residentNrm2(t, impl, h)
				} else {
					h32 := make([]float32, n)
					for i := range h {
						h32[i] = float32(h[i])
					}
					got = residentNrm2(t, impl, h32)
				}
				tol := 1e-13
				if prec == 32 {
					tol = 1e-5
				}
				if math.Abs(got-want) > tol*want {
					t.Errorf("f%d Nrm2 of %v (blocks %v) = %v, want %v", prec, mix, blocks, got, want)
				}
			}
		}
	}
}

func residentNrm2[T float32 | float64](t *testing.T, impl *Implementation, h []T) float64 {
	t.Helper()
	v, err := NewVectorFrom(impl, h)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Release()
	s, err := Nrm2(v)
	return float64(scalarValue(t, "Nrm2", s, err))
}

// TestLevel1IamaxTies puts the largest |x| at two or three elements of the
// vector path in the same lane, vectors apart as a work-item's vectors in
// flight, consecutive runs and successive rounds of the grid lie: Iamax
// must return the first, as gonum's Idamax does (a lane that kept the
// last of equals, or bests of the vectors in flight joined without the
// smaller index first, fails it).
func TestLevel1IamaxTies(t *testing.T) {
	t.Run("float64", func(t *testing.T) { level1IamaxTies[float64](t) })
	t.Run("float32", func(t *testing.T) { level1IamaxTies[float32](t) })
}

func level1IamaxTies[T float32 | float64](t *testing.T) {
	impl := newTestImpl(t)
	sh := testEngine(t).L1Shape(eng.PrecisionOf[T]())
	rnd := rand.New(rand.NewPCG(37, uint64(eng.PrecisionOf[T]())))
	vw, items := sh.Vec, sh.Groups*sh.Local
	// Every work-item takes at least two rounds of its vectors in flight.
	nv := 2*items*sh.Unroll + 3
	n := nv * vw
	x := newRVec[T](t, impl, rnd, n, 0, 1)
	for _, j := range []int{0, 1, nv / 2} {
		for _, d := range []int{1, 2, 3, sh.Unroll, items, 2 * items} {
			for _, three := range []bool{false, true} {
				lane := (j + d) % vw
				p := []int{j*vw + lane, (j+d)*vw + lane}
				if three {
					p = append(p, (j+2*d)*vw+lane)
				}
				if p[len(p)-1] >= n {
					continue
				}
				saved := append([]float64(nil), x.h()[:n]...)
				for k, i := range p {
					x.h()[i] = float64(3 - 6*(k%2)) // ±3: |x| ties
				}
				x.sync(t)
				im, err := Iamax(x.v)
				if got, want := scalarValue(t, "Iamax", im, err), gref.Idamax(n, x.h(), 1); got != want || want != p[0] {
					t.Errorf("Iamax with ties at %v = %d, want %d (gonum %d)", p, got, p[0], want)
				}
				copy(x.h(), saved)
			}
		}
	}
}
