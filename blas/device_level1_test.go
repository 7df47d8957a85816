package clblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	eng "github.com/gocompute/opencl/internal/engine"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// l1Op is one level 1 routine (with fixed scalars) run through a
// blas.Float64 or blas.Float32 implementation on copies of x and y. Its
// scalar result (0 for routines that return nothing) comes back as a
// float64; x and y are updated in place.
type l1Op[T eng.Real] struct {
	routine string // the name the engine counts
	label   string
	single  bool // x only
	nanY    bool // y starts as all NaN
	run     func(impl any, n int, x []T, incX int, y []T, incY int) float64
}

// l1Sizes are the vector lengths of the comparisons: small odd ones, and
// one that needs more than one pass of the reduction grid.
var l1Sizes = []int{1, 2, 7, 33, 130, 2500}

// l1IncPairs are the (incX, incY) pairs of the two-vector comparisons.
var l1IncPairs = [][2]int{{1, 1}, {-1, 3}, {3, -3}, {-3, -1}, {3, 1}, {1, -1}}

// l1Vec returns a random vector of n elements with increment inc, its gaps
// filled too (they must survive unchanged).
func l1Vec[T eng.Real](rnd *rand.Rand, n, inc int, nan bool) []T {
	s := make([]T, eng.VecSpan(n, inc)+2)
	for i := range s {
		s[i] = T(rnd.Float64()*2 - 1)
	}
	if nan {
		for i := 0; i < n; i++ {
			s[eng.VecOff(n, inc)+i*inc] = T(math.NaN())
		}
	}
	return s
}

// l1Close reports whether got and want agree to tol relative to
// max(1, |want|), NaN matching NaN and infinities matching exactly.
func l1Close(got, want, tol float64) bool {
	switch {
	case math.IsNaN(want):
		return math.IsNaN(got)
	case math.IsInf(want, 0):
		return got == want
	}
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

func l1CloseVec[T eng.Real](t *testing.T, what string, got, want []T, tol float64) {
	t.Helper()
	for i := range want {
		if !l1Close(float64(got[i]), float64(want[i]), tol) {
			t.Errorf("%s: element %d = %v, want %v", what, i, got[i], want[i])
			return
		}
	}
}

// runL1 compares every op on the device (impl) with gonum, over l1Sizes
// and increments, and checks that each op's routine ran on the device.
func runL1[T eng.Real](t *testing.T, impl any, ref any, ops []l1Op[T], tol float64) {
	e := testEngine(t)
	rnd := rand.New(rand.NewPCG(11, 12))
	for _, op := range ops {
		before := e.Launched.Of(op.routine)
		pairs := l1IncPairs
		if op.single {
			pairs = [][2]int{{1, 1}, {3, 1}, {-2, 1}}
		}
		for _, n := range l1Sizes {
			for _, inc := range pairs {
				x := l1Vec[T](rnd, n, inc[0], false)
				y := l1Vec[T](rnd, n, inc[1], op.nanY)
				xd, yd := append([]T(nil), x...), append([]T(nil), y...)
				xr, yr := append([]T(nil), x...), append([]T(nil), y...)
				got := op.run(impl, n, xd, inc[0], yd, inc[1])
				want := op.run(ref, n, xr, inc[0], yr, inc[1])
				what := fmt.Sprintf("%s n=%d incX=%d incY=%d", op.label, n, inc[0], inc[1])
				if !l1Close(got, want, tol) {
					t.Errorf("%s: got %v, want %v", what, got, want)
				}
				l1CloseVec(t, what+" x", xd, xr, tol)
				l1CloseVec(t, what+" y", yd, yr, tol)
			}
		}
		if e.Launched.Of(op.routine) == before {
			t.Errorf("%s: %s never ran on the device", op.label, op.routine)
		}
	}
}

func l1Ops64() []l1Op[float64] {
	f := func(impl any) blas.Float64 { return impl.(blas.Float64) }
	ops := []l1Op[float64]{
		{routine: "Ddot", label: "Ddot", run: func(impl any, n int, x []float64, incX int, y []float64, incY int) float64 {
			return f(impl).Ddot(n, x, incX, y, incY)
		}},
		{routine: "Dnrm2", label: "Dnrm2", single: true, run: func(impl any, n int, x []float64, incX int, y []float64, incY int) float64 {
			return f(impl).Dnrm2(n, x, incX)
		}},
		{routine: "Dasum", label: "Dasum", single: true, run: func(impl any, n int, x []float64, incX int, y []float64, incY int) float64 {
			return f(impl).Dasum(n, x, incX)
		}},
		{routine: "Idamax", label: "Idamax", single: true, run: func(impl any, n int, x []float64, incX int, y []float64, incY int) float64 {
			return float64(f(impl).Idamax(n, x, incX))
		}},
		{routine: "Dswap", label: "Dswap", run: func(impl any, n int, x []float64, incX int, y []float64, incY int) float64 {
			f(impl).Dswap(n, x, incX, y, incY)
			return 0
		}},
		{routine: "Dcopy", label: "Dcopy into NaN", nanY: true, run: func(impl any, n int, x []float64, incX int, y []float64, incY int) float64 {
			f(impl).Dcopy(n, x, incX, y, incY)
			return 0
		}},
		{routine: "Drot", label: "Drot", run: func(impl any, n int, x []float64, incX int, y []float64, incY int) float64 {
			f(impl).Drot(n, x, incX, y, incY, 0.6, -0.8)
			return 0
		}},
	}
	for _, alpha := range []float64{1, -2.5} {
		ops = append(ops, l1Op[float64]{routine: "Daxpy", label: fmt.Sprintf("Daxpy alpha=%v", alpha), run: func(impl any, n int, x []float64, incX int, y []float64, incY int) float64 {
			f(impl).Daxpy(n, alpha, x, incX, y, incY)
			return 0
		}})
	}
	for _, alpha := range []float64{0, 1, -2.5} {
		ops = append(ops, l1Op[float64]{routine: "Dscal", label: fmt.Sprintf("Dscal alpha=%v", alpha), single: true, run: func(impl any, n int, x []float64, incX int, y []float64, incY int) float64 {
			f(impl).Dscal(n, alpha, x, incX)
			return 0
		}})
	}
	for _, flag := range []blas.Flag{blas.Rescaling, blas.OffDiagonal, blas.Diagonal} {
		p := blas.DrotmParams{Flag: flag, H: [4]float64{0.5, -1.25, 2, 0.75}}
		ops = append(ops, l1Op[float64]{routine: "Drotm", label: fmt.Sprintf("Drotm flag=%v", flag), run: func(impl any, n int, x []float64, incX int, y []float64, incY int) float64 {
			f(impl).Drotm(n, x, incX, y, incY, p)
			return 0
		}})
	}
	return ops
}

func l1Ops32() []l1Op[float32] {
	f := func(impl any) blas.Float32 { return impl.(blas.Float32) }
	ops := []l1Op[float32]{
		{routine: "Sdot", label: "Sdot", run: func(impl any, n int, x []float32, incX int, y []float32, incY int) float64 {
			return float64(f(impl).Sdot(n, x, incX, y, incY))
		}},
		{routine: "Dsdot", label: "Dsdot", run: func(impl any, n int, x []float32, incX int, y []float32, incY int) float64 {
			return f(impl).Dsdot(n, x, incX, y, incY)
		}},
		{routine: "Snrm2", label: "Snrm2", single: true, run: func(impl any, n int, x []float32, incX int, y []float32, incY int) float64 {
			return float64(f(impl).Snrm2(n, x, incX))
		}},
		{routine: "Sasum", label: "Sasum", single: true, run: func(impl any, n int, x []float32, incX int, y []float32, incY int) float64 {
			return float64(f(impl).Sasum(n, x, incX))
		}},
		{routine: "Isamax", label: "Isamax", single: true, run: func(impl any, n int, x []float32, incX int, y []float32, incY int) float64 {
			return float64(f(impl).Isamax(n, x, incX))
		}},
		{routine: "Sswap", label: "Sswap", run: func(impl any, n int, x []float32, incX int, y []float32, incY int) float64 {
			f(impl).Sswap(n, x, incX, y, incY)
			return 0
		}},
		{routine: "Scopy", label: "Scopy into NaN", nanY: true, run: func(impl any, n int, x []float32, incX int, y []float32, incY int) float64 {
			f(impl).Scopy(n, x, incX, y, incY)
			return 0
		}},
		{routine: "Srot", label: "Srot", run: func(impl any, n int, x []float32, incX int, y []float32, incY int) float64 {
			f(impl).Srot(n, x, incX, y, incY, 0.6, -0.8)
			return 0
		}},
	}
	for _, alpha := range []float32{0, 1, -2.5} {
		ops = append(ops, l1Op[float32]{routine: "Sdsdot", label: fmt.Sprintf("Sdsdot alpha=%v", alpha), run: func(impl any, n int, x []float32, incX int, y []float32, incY int) float64 {
			return float64(f(impl).Sdsdot(n, alpha, x, incX, y, incY))
		}})
	}
	for _, alpha := range []float32{1, -2.5} {
		ops = append(ops, l1Op[float32]{routine: "Saxpy", label: fmt.Sprintf("Saxpy alpha=%v", alpha), run: func(impl any, n int, x []float32, incX int, y []float32, incY int) float64 {
			f(impl).Saxpy(n, alpha, x, incX, y, incY)
			return 0
		}})
	}
	for _, alpha := range []float32{0, 1, -2.5} {
		ops = append(ops, l1Op[float32]{routine: "Sscal", label: fmt.Sprintf("Sscal alpha=%v", alpha), single: true, run: func(impl any, n int, x []float32, incX int, y []float32, incY int) float64 {
			f(impl).Sscal(n, alpha, x, incX)
			return 0
		}})
	}
	for _, flag := range []blas.Flag{blas.Rescaling, blas.OffDiagonal, blas.Diagonal} {
		p := blas.SrotmParams{Flag: flag, H: [4]float32{0.5, -1.25, 2, 0.75}}
		ops = append(ops, l1Op[float32]{routine: "Srotm", label: fmt.Sprintf("Srotm flag=%v", flag), run: func(impl any, n int, x []float32, incX int, y []float32, incY int) float64 {
			f(impl).Srotm(n, x, incX, y, incY, p)
			return 0
		}})
	}
	return ops
}

func TestLevel1Device64(t *testing.T) {
	impl := newTestImpl(t)
	if !testEngine(t).Prof.FP64 {
		t.Skip("the device has no fp64")
	}
	runL1(t, impl, gonum.Implementation{}, l1Ops64(), 1e-12)
}

func TestLevel1Device32(t *testing.T) {
	impl := newTestImpl(t)
	runL1(t, impl, gonum.Implementation{}, l1Ops32(), 1e-4)
}

// TestLevel1Special checks NaN, Inf, huge and tiny values, ties and
// cancellation against gonum, in both precisions.
func TestLevel1Special(t *testing.T) {
	impl := newTestImpl(t)
	e := testEngine(t)
	ref := gonum.Implementation{}
	nan, inf := math.NaN(), math.Inf(1)
	// Vectors of 300 elements: some elements set, the rest filled.
	vec := func(fill float64, set map[int]float64) []float64 {
		v := make([]float64, 300)
		for i := range v {
			v[i] = fill * (1 + float64(i%7)/8) // varied, all nonzero if fill is
		}
		for i, s := range set {
			v[i] = s
		}
		return v
	}
	type tc struct {
		name      string
		x         []float64
		inc       int
		big, tiny float64 // scale factors: float64, float32
	}
	cases := []tc{
		{"plain", vec(0.5, nil), 1, 1, 1},
		{"huge", vec(1, nil), 1, 1e300, 1e30},
		{"tiny", vec(1, nil), 1, 1e-300, 1e-30},
		{"huge strided", vec(1, nil), 3, 1e300, 1e30},
		{"tiny strided", vec(1, nil), 2, 1e-300, 1e-30},
		{"zeros", vec(0, nil), 1, 1, 1},
		{"zeros and one", vec(0, map[int]float64{200: -3}), 1, 1, 1},
		{"NaN first", vec(1, map[int]float64{0: nan, 50: inf}), 1, 1, 1},
		{"NaN inside", vec(1, map[int]float64{250: nan}), 1, 1, 1},
		{"NaN then Inf", vec(1, map[int]float64{10: nan, 299: -inf}), 1, 1, 1},
		{"Inf then NaN", vec(1, map[int]float64{10: -inf, 299: nan}), 1, 1, 1},
		{"two Infs", vec(1, map[int]float64{3: inf, 280: -inf}), 1, 1, 1},
		{"Inf strided", vec(1, map[int]float64{90: inf}), 3, 1, 1},
		{"ties", vec(0, map[int]float64{5: 1, 130: -2, 200: 2, 290: -2}), 1, 1, 1},
		{"ties all", vec(0, nil), 1, 1, 1}, // all zero: the first
		{"NaN and ties", vec(0, map[int]float64{1: nan, 140: 2, 141: -2}), 1, 1, 1},
		{"equal magnitudes", vec(0, map[int]float64{0: -1, 64: 1, 128: -1}), 1, 1, 1},
	}
	before := map[string]int64{}
	for _, r := range []string{"Dnrm2", "Snrm2", "Idamax", "Isamax", "Dasum", "Sasum", "Ddot", "Sdot", "Dscal", "Sscal"} {
		before[r] = e.Launched.Of(r)
	}
	for _, c := range cases {
		n := (len(c.x)-1)/c.inc + 1
		x64 := make([]float64, len(c.x))
		x32 := make([]float32, len(c.x))
		for i, v := range c.x {
			x64[i] = v * c.big
			x32[i] = float32(v * c.tiny)
		}
		if got, want := impl.Dnrm2(n, x64, c.inc), ref.Dnrm2(n, x64, c.inc); !l1Close(got, want, 1e-12) {
			t.Errorf("%s: Dnrm2 = %v, want %v", c.name, got, want)
		}
		if got, want := impl.Snrm2(n, x32, c.inc), ref.Snrm2(n, x32, c.inc); !l1Close(float64(got), float64(want), 1e-5) {
			t.Errorf("%s: Snrm2 = %v, want %v", c.name, got, want)
		}
		if got, want := impl.Idamax(n, x64, c.inc), ref.Idamax(n, x64, c.inc); got != want {
			t.Errorf("%s: Idamax = %v, want %v", c.name, got, want)
		}
		if got, want := impl.Isamax(n, x32, c.inc), ref.Isamax(n, x32, c.inc); got != want {
			t.Errorf("%s: Isamax = %v, want %v", c.name, got, want)
		}
		if got, want := impl.Dasum(n, x64, c.inc), ref.Dasum(n, x64, c.inc); !l1Close(got, want, 1e-12) {
			t.Errorf("%s: Dasum = %v, want %v", c.name, got, want)
		}
		if got, want := impl.Sasum(n, x32, c.inc), ref.Sasum(n, x32, c.inc); !l1Close(float64(got), float64(want), 1e-5) {
			t.Errorf("%s: Sasum = %v, want %v", c.name, got, want)
		}
		if c.big == 1 { // x·x of huge values overflows in gonum too; that is fine but not interesting
			if got, want := impl.Ddot(n, x64, c.inc, x64, c.inc), ref.Ddot(n, x64, c.inc, x64, c.inc); !l1Close(got, want, 1e-12) {
				t.Errorf("%s: Ddot = %v, want %v", c.name, got, want)
			}
			if got, want := impl.Sdot(n, x32, c.inc, x32, c.inc), ref.Sdot(n, x32, c.inc, x32, c.inc); !l1Close(float64(got), float64(want), 1e-5) {
				t.Errorf("%s: Sdot = %v, want %v", c.name, got, want)
			}
		}
		for _, alpha := range []float64{0, 1, -3} {
			got64, want64 := append([]float64(nil), x64...), append([]float64(nil), x64...)
			impl.Dscal(n, alpha, got64, c.inc)
			ref.Dscal(n, alpha, want64, c.inc)
			l1CloseVec(t, fmt.Sprintf("%s: Dscal alpha=%v", c.name, alpha), got64, want64, 1e-12)
			got32, want32 := append([]float32(nil), x32...), append([]float32(nil), x32...)
			impl.Sscal(n, float32(alpha), got32, c.inc)
			ref.Sscal(n, float32(alpha), want32, c.inc)
			l1CloseVec(t, fmt.Sprintf("%s: Sscal alpha=%v", c.name, alpha), got32, want32, 1e-5)
		}
	}
	for r, b := range before {
		if e.Launched.Of(r) == b {
			t.Errorf("%s never ran on the device", r)
		}
	}

	// Dsdot and Sdsdot accumulate in float64: 1e8 + 1 - 1e8 is exact.
	x := []float32{1e8, 1, -1e8, 0.5}
	y := []float32{1, 1, 1, 1}
	if got, want := impl.Dsdot(4, x, 1, y, 1), ref.Dsdot(4, x, 1, y, 1); got != want || got != 1.5 {
		t.Errorf("Dsdot = %v, want %v (1.5)", got, want)
	}
	if got, want := impl.Sdsdot(4, 0.25, x, 1, y, 1), ref.Sdsdot(4, 0.25, x, 1, y, 1); got != want || got != 1.75 {
		t.Errorf("Sdsdot = %v, want %v (1.75)", got, want)
	}
}

// TestLevel1DirectDevice calls every level 1 method of the device types
// directly, so a failure is an error here rather than a silent fallback.
func TestLevel1DirectDevice(t *testing.T) {
	e := testEngine(t)
	ref := gonum.Implementation{}
	rnd := rand.New(rand.NewPCG(5, 6))
	const n = 37
	check := func(name string, err error) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	close64 := func(name string, got, want float64) {
		t.Helper()
		if !l1Close(got, want, 1e-12) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}

	t.Run("float64", func(t *testing.T) {
		if !e.Prof.FP64 {
			t.Skip("the device has no fp64")
		}
		d := eng.ClDevice64{E: e}
		x, y := l1Vec[float64](rnd, n, 2, false), l1Vec[float64](rnd, n, -1, false)
		r, err := d.Ddot(n, x, 2, y, -1)
		check("Ddot", err)
		close64("Ddot", r, ref.Ddot(n, x, 2, y, -1))
		r, err = d.Dnrm2(n, x, 2)
		check("Dnrm2", err)
		close64("Dnrm2", r, ref.Dnrm2(n, x, 2))
		r, err = d.Dasum(n, x, 2)
		check("Dasum", err)
		close64("Dasum", r, ref.Dasum(n, x, 2))
		i, err := d.Idamax(n, x, 2)
		check("Idamax", err)
		if want := ref.Idamax(n, x, 2); i != want {
			t.Errorf("Idamax = %d, want %d", i, want)
		}
		vec := func(name string, dev, gon func(x, y []float64) error) {
			t.Helper()
			xd, yd := append([]float64(nil), x...), append([]float64(nil), y...)
			xr, yr := append([]float64(nil), x...), append([]float64(nil), y...)
			check(name, dev(xd, yd))
			gon(xr, yr)
			l1CloseVec(t, name+" x", xd, xr, 1e-12)
			l1CloseVec(t, name+" y", yd, yr, 1e-12)
		}
		vec("Dswap", func(x, y []float64) error { return d.Dswap(n, x, 2, y, -1) },
			func(x, y []float64) error { ref.Dswap(n, x, 2, y, -1); return nil })
		vec("Dcopy", func(x, y []float64) error { return d.Dcopy(n, x, 2, y, -1) },
			func(x, y []float64) error { ref.Dcopy(n, x, 2, y, -1); return nil })
		vec("Daxpy", func(x, y []float64) error { return d.Daxpy(n, 0.5, x, 2, y, -1) },
			func(x, y []float64) error { ref.Daxpy(n, 0.5, x, 2, y, -1); return nil })
		vec("Drot", func(x, y []float64) error { return d.Drot(n, x, 2, y, -1, 0.8, 0.6) },
			func(x, y []float64) error { ref.Drot(n, x, 2, y, -1, 0.8, 0.6); return nil })
		p := blas.DrotmParams{Flag: blas.Rescaling, H: [4]float64{1, 2, 3, 4}}
		vec("Drotm", func(x, y []float64) error { return d.Drotm(n, x, 2, y, -1, p) },
			func(x, y []float64) error { ref.Drotm(n, x, 2, y, -1, p); return nil })
		vec("Dscal", func(x, y []float64) error { return d.Dscal(n, 0, x, 2) },
			func(x, y []float64) error { ref.Dscal(n, 0, x, 2); return nil })
	})

	t.Run("float32", func(t *testing.T) {
		d := eng.ClDevice32{E: e}
		x, y := l1Vec[float32](rnd, n, 2, false), l1Vec[float32](rnd, n, -1, false)
		close32 := func(name string, got, want float32) {
			t.Helper()
			if !l1Close(float64(got), float64(want), 1e-5) {
				t.Errorf("%s = %v, want %v", name, got, want)
			}
		}
		r, err := d.Sdot(n, x, 2, y, -1)
		check("Sdot", err)
		close32("Sdot", r, ref.Sdot(n, x, 2, y, -1))
		if e.Prof.FP64 {
			r64, err := d.Dsdot(n, x, 2, y, -1)
			check("Dsdot", err)
			close64("Dsdot", r64, ref.Dsdot(n, x, 2, y, -1))
			r, err = d.Sdsdot(n, 2, x, 2, y, -1)
			check("Sdsdot", err)
			close32("Sdsdot", r, ref.Sdsdot(n, 2, x, 2, y, -1))
		} else if _, err := d.Dsdot(n, x, 2, y, -1); err == nil {
			t.Errorf("Dsdot without fp64 succeeded on the device")
		}
		r, err = d.Snrm2(n, x, 2)
		check("Snrm2", err)
		close32("Snrm2", r, ref.Snrm2(n, x, 2))
		r, err = d.Sasum(n, x, 2)
		check("Sasum", err)
		close32("Sasum", r, ref.Sasum(n, x, 2))
		i, err := d.Isamax(n, x, 2)
		check("Isamax", err)
		if want := ref.Isamax(n, x, 2); i != want {
			t.Errorf("Isamax = %d, want %d", i, want)
		}
		vec := func(name string, dev, gon func(x, y []float32) error) {
			t.Helper()
			xd, yd := append([]float32(nil), x...), append([]float32(nil), y...)
			xr, yr := append([]float32(nil), x...), append([]float32(nil), y...)
			check(name, dev(xd, yd))
			gon(xr, yr)
			l1CloseVec(t, name+" x", xd, xr, 1e-5)
			l1CloseVec(t, name+" y", yd, yr, 1e-5)
		}
		vec("Sswap", func(x, y []float32) error { return d.Sswap(n, x, 2, y, -1) },
			func(x, y []float32) error { ref.Sswap(n, x, 2, y, -1); return nil })
		vec("Scopy", func(x, y []float32) error { return d.Scopy(n, x, 2, y, -1) },
			func(x, y []float32) error { ref.Scopy(n, x, 2, y, -1); return nil })
		vec("Saxpy", func(x, y []float32) error { return d.Saxpy(n, 0.5, x, 2, y, -1) },
			func(x, y []float32) error { ref.Saxpy(n, 0.5, x, 2, y, -1); return nil })
		vec("Srot", func(x, y []float32) error { return d.Srot(n, x, 2, y, -1, 0.8, 0.6) },
			func(x, y []float32) error { ref.Srot(n, x, 2, y, -1, 0.8, 0.6); return nil })
		p := blas.SrotmParams{Flag: blas.Diagonal, H: [4]float32{1, 2, 3, 4}}
		vec("Srotm", func(x, y []float32) error { return d.Srotm(n, x, 2, y, -1, p) },
			func(x, y []float32) error { ref.Srotm(n, x, 2, y, -1, p); return nil })
		vec("Sscal", func(x, y []float32) error { return d.Sscal(n, -1.5, x, 2) },
			func(x, y []float32) error { ref.Sscal(n, -1.5, x, 2); return nil })
	})
}

// l1Rel reports whether got is within tol of want relative to |want| alone
// (l1Close's max(1, |want|) accepts anything near zero, which proves
// nothing for tiny norms); NaN matches NaN, and 0 and ±Inf must match
// exactly.
func l1Rel(got, want, tol float64) bool {
	switch {
	case math.IsNaN(want):
		return math.IsNaN(got)
	case math.IsInf(want, 0) || want == 0:
		return got == want
	}
	return math.Abs(got-want) <= tol*math.Abs(want)
}

// TestLevel1Nrm2Scaling compares nrm2 with gonum relative to the result
// alone, on vectors whose squares overflow or underflow (float64 down to
// subnormals), with mixed magnitudes, in lengths that take several groups
// and grid strides.
func TestLevel1Nrm2Scaling(t *testing.T) {
	impl := newTestImpl(t)
	e := testEngine(t)
	ref := gonum.Implementation{}
	rnd := rand.New(rand.NewPCG(3, 4))
	b64, b32 := e.Launched.Of("Dnrm2"), e.Launched.Of("Snrm2")
	scales := []struct{ s64, s32 float64 }{
		{1, 1}, {1e300, 1e30}, {1e-300, 1e-30}, {1e-310, 1e-36}, {1e154, 1e19}, {1e-160, 1e-20},
	}
	for _, n := range []int{2, 3, 65, 1000, 5003} {
		for _, inc := range []int{1, 2, 5} {
			for _, sc := range scales {
				x64 := make([]float64, eng.VecSpan(n, inc))
				x32 := make([]float32, len(x64))
				for i := range x64 {
					v := rnd.NormFloat64()
					if rnd.IntN(10) == 0 {
						v *= 1e-8
					}
					x64[i] = v * sc.s64
					x32[i] = float32(v * sc.s32)
				}
				if e.Prof.FP64 {
					if got, want := impl.Dnrm2(n, x64, inc), ref.Dnrm2(n, x64, inc); !l1Rel(got, want, 1e-12) {
						t.Errorf("Dnrm2 n=%d inc=%d scale=%g: %v, want %v", n, inc, sc.s64, got, want)
					}
				}
				tol := 1e-4
				if sc.s32 < 1e-37 {
					tol = 1e-2 // float32 subnormals: the device may flush them
				}
				if got, want := impl.Snrm2(n, x32, inc), ref.Snrm2(n, x32, inc); !l1Rel(float64(got), float64(want), tol) {
					t.Errorf("Snrm2 n=%d inc=%d scale=%g: %v, want %v", n, inc, sc.s32, got, want)
				}
			}
		}
	}
	if (e.Prof.FP64 && e.Launched.Of("Dnrm2") == b64) || e.Launched.Of("Snrm2") == b32 {
		t.Errorf("nrm2 did not run on the device")
	}
}

// TestLevel1NonFinite puts NaN, ±Inf, zeros and ties at the first and last
// elements and at work-group boundaries of a vector that takes several
// groups, and compares iamax, nrm2, asum and dot with gonum exactly (NaN,
// Inf, index) or relatively.
func TestLevel1NonFinite(t *testing.T) {
	impl := newTestImpl(t)
	e := testEngine(t)
	ref := gonum.Implementation{}
	nan, inf := math.NaN(), math.Inf(1)
	const n = 3001
	routines := []string{"Isamax", "Snrm2", "Sasum"}
	if e.Prof.FP64 {
		routines = append(routines, "Idamax", "Dnrm2", "Dasum", "Ddot")
	}
	before := map[string]int64{}
	for _, r := range routines {
		before[r] = e.Launched.Of(r)
	}
	rnd := rand.New(rand.NewPCG(9, 9))
	base := make([]float64, n)
	for i := range base {
		base[i] = rnd.Float64()*2 - 1
	}
	for _, p1 := range []int{0, 1, 63, 64, 127, 128, 512, 2999, 3000} {
		for _, v1 := range []float64{nan, inf, -inf, 0, -5} {
			for _, p2 := range []int{-1, 0, 64, 3000} {
				for _, v2 := range []float64{nan, inf, 5} {
					x := append([]float64(nil), base...)
					x[p1] = v1
					if p2 >= 0 {
						x[p2] = v2
					}
					x32 := make([]float32, n)
					for i, v := range x {
						x32[i] = float32(v)
					}
					what := fmt.Sprintf("x[%d]=%v x[%d]=%v", p1, v1, p2, v2)
					if e.Prof.FP64 {
						if g, w := impl.Idamax(n, x, 1), ref.Idamax(n, x, 1); g != w {
							t.Errorf("Idamax %s: %d, want %d", what, g, w)
						}
						if g, w := impl.Dnrm2(n, x, 1), ref.Dnrm2(n, x, 1); !l1Rel(g, w, 1e-12) {
							t.Errorf("Dnrm2 %s: %v, want %v", what, g, w)
						}
						if g, w := impl.Dasum(n, x, 1), ref.Dasum(n, x, 1); !l1Rel(g, w, 1e-12) {
							t.Errorf("Dasum %s: %v, want %v", what, g, w)
						}
						if g, w := impl.Ddot(n, x, 1, base, 1), ref.Ddot(n, x, 1, base, 1); !l1Close(g, w, 1e-12*n) {
							t.Errorf("Ddot %s: %v, want %v", what, g, w)
						}
					}
					if g, w := impl.Isamax(n, x32, 1), ref.Isamax(n, x32, 1); g != w {
						t.Errorf("Isamax %s: %d, want %d", what, g, w)
					}
					if g, w := impl.Snrm2(n, x32, 1), ref.Snrm2(n, x32, 1); !l1Rel(float64(g), float64(w), 1e-4) {
						t.Errorf("Snrm2 %s: %v, want %v", what, g, w)
					}
					if g, w := impl.Sasum(n, x32, 1), ref.Sasum(n, x32, 1); !l1Rel(float64(g), float64(w), 1e-4) {
						t.Errorf("Sasum %s: %v, want %v", what, g, w)
					}
				}
			}
		}
	}
	// All NaN, and all NaN but one element.
	for _, keep := range []int{-1, 0, 7, n - 1} {
		x := make([]float64, n)
		x32 := make([]float32, n)
		for i := range x {
			x[i], x32[i] = nan, float32(nan)
		}
		if keep >= 0 {
			x[keep], x32[keep] = -2, -2
		}
		if e.Prof.FP64 {
			if g, w := impl.Idamax(n, x, 1), ref.Idamax(n, x, 1); g != w {
				t.Errorf("Idamax all NaN but %d: %d, want %d", keep, g, w)
			}
		}
		if g, w := impl.Isamax(n, x32, 1), ref.Isamax(n, x32, 1); g != w {
			t.Errorf("Isamax all NaN but %d: %d, want %d", keep, g, w)
		}
	}
	// The same maximum in many groups: the first one wins.
	for _, first := range []int{1, 64, 200, 2500} {
		x := make([]float32, 2*n)
		for i := range x {
			x[i] = 0.5
		}
		for i := first; i < n; i += 97 {
			x[2*i] = -3
		}
		if g, w := impl.Isamax(n, x, 2), ref.Isamax(n, x, 2); g != w {
			t.Errorf("Isamax ties from %d: %d, want %d", first, g, w)
		}
	}
	for _, r := range routines {
		if e.Launched.Of(r) == before[r] {
			t.Errorf("%s never ran on the device", r)
		}
	}
}

// TestLevel1FaultLeavesOutputs makes each step a device can fail at fail,
// on an engine of its own, and checks that every level 1 method then
// returns an error and leaves x and y exactly as they were.
func TestLevel1FaultLeavesOutputs(t *testing.T) {
	newTestImpl(t) // skips (or fails) without a device
	impl, err := New(WithOffload(Always))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	defer impl.Close()
	e := impl.dev32.(eng.ClDevice32).E
	defer e.Fault.Store(nil)
	// build first: no kernel is pooled yet, so every call must build.
	for _, site := range []string{"build", "alloc", "enqueue", "read"} {
		fail := func(s string) error {
			if s == site {
				return fmt.Errorf("injected %s failure", s)
			}
			return nil
		}
		e.Fault.Store(&fail)
		const n = 17
		x := make([]float32, 3*n)
		y := make([]float32, 3*n)
		for i := range x {
			x[i], y[i] = float32(i)+0.5, -float32(i)-0.25
		}
		x0, y0 := append([]float32(nil), x...), append([]float32(nil), y...)
		d := eng.ClDevice32{E: e}
		errs := map[string]error{
			"Sswap":    d.Sswap(n, x, 3, y, -2),
			"Scopy":    d.Scopy(n, x, 3, y, -2),
			"Saxpy":    d.Saxpy(n, 2, x, 3, y, -2),
			"Srot":     d.Srot(n, x, 3, y, -2, 0.6, 0.8),
			"Srotm":    d.Srotm(n, x, 3, y, -2, blas.SrotmParams{Flag: blas.Rescaling, H: [4]float32{1, 2, 3, 4}}),
			"Sscal":    d.Sscal(n, 2, x, 3),
			"Sscal(0)": d.Sscal(n, 0, x, 3),
		}
		_, errs["Sdot"] = d.Sdot(n, x, 3, y, -2)
		_, errs["Snrm2"] = d.Snrm2(n, x, 3)
		_, errs["Isamax"] = d.Isamax(n, x, 3)
		_, errs["Sasum"] = d.Sasum(n, x, 3)
		_, errs["Dsdot"] = d.Dsdot(n, x, 3, y, 1)
		for name, err := range errs {
			if err == nil {
				t.Errorf("%s: %s succeeded under an injected failure", site, name)
			}
		}
		for i := range x {
			if x[i] != x0[i] || y[i] != y0[i] {
				t.Fatalf("%s: a failed call modified x or y at %d", site, i)
			}
		}
	}
}

// TestLevel1Concurrent runs level 1 calls on the shared device from
// several goroutines.
func TestLevel1Concurrent(t *testing.T) {
	impl := newTestImpl(t)
	e := testEngine(t)
	ref := gonum.Implementation{}
	before := e.Launched.Of("Saxpy")
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			rnd := rand.New(rand.NewPCG(uint64(g), 1))
			for range 10 {
				n := 1 + rnd.IntN(300)
				x := make([]float32, n)
				y := make([]float32, n)
				for i := range x {
					x[i], y[i] = float32(rnd.NormFloat64()), float32(rnd.NormFloat64())
				}
				yr := append([]float32(nil), y...)
				impl.Saxpy(n, 1.5, x, 1, y, 1)
				ref.Saxpy(n, 1.5, x, 1, yr, 1)
				for i := range y {
					if y[i] != yr[i] {
						t.Errorf("goroutine %d: Saxpy element %d = %v, want %v", g, i, y[i], yr[i])
						return
					}
				}
				if got, want := impl.Isamax(n, x, 1), ref.Isamax(n, x, 1); got != want {
					t.Errorf("goroutine %d: Isamax = %d, want %d", g, got, want)
				}
			}
		}(g)
	}
	wg.Wait()
	if e.Launched.Of("Saxpy") == before {
		t.Errorf("Saxpy never ran on the device")
	}
}

// TestLevel1Aliased passes the same slice as x and y, which gonum's loops
// handle element by element; the device must give the same result.
func TestLevel1Aliased(t *testing.T) {
	impl := newTestImpl(t)
	ref := gonum.Implementation{}
	const n = 29
	mk := func() []float32 {
		s := make([]float32, 2*n)
		for i := range s {
			s[i] = float32(i%11) - 4.5
		}
		return s
	}
	ops := map[string]func(b blas.Float32, v []float32){
		"Sswap": func(b blas.Float32, v []float32) { b.Sswap(n, v, 2, v, 2) },
		"Srot":  func(b blas.Float32, v []float32) { b.Srot(n, v, 2, v, 2, 0.6, 0.8) },
		"Saxpy": func(b blas.Float32, v []float32) { b.Saxpy(n, 2, v, -2, v, -2) },
		"Srotm": func(b blas.Float32, v []float32) {
			b.Srotm(n, v, 1, v, 1, blas.SrotmParams{Flag: blas.OffDiagonal, H: [4]float32{0, 2, 3, 0}})
		},
	}
	for name, op := range ops {
		got, want := mk(), mk()
		op(impl, got)
		op(ref, want)
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s aliased: element %d = %v, want %v", name, i, got[i], want[i])
				break
			}
		}
	}
}
