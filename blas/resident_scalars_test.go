package clblas

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	eng "github.com/gocompute/opencl/internal/engine"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

func TestResidentScalars(t *testing.T) {
	t.Run("float64", func(t *testing.T) { residentScalars[float64](t, 1e-13) })
	t.Run("float32", func(t *testing.T) { residentScalars[float32](t, 2e-5) })
}

// residentScalars checks DotTo, Div, AxpyBy and ScalBy against the same
// arithmetic on the host, on strided views, with the scalars in views of
// one small vector (which also holds elements the operations must not
// touch).
func residentScalars[T float32 | float64](t *testing.T, tol float64) {
	impl := newTestImpl(t)
	rnd := rand.New(rand.NewPCG(31, uint64(eng.PrecisionOf[T]())))
	const n = 1000
	hx, hy := make([]T, 2*n), make([]T, 2*n)
	for i := range hx {
		hx[i], hy[i] = T(rnd.Float64()-0.5), T(rnd.Float64()-0.5)
	}
	px, err := NewVectorFrom(impl, hx)
	if err != nil {
		t.Fatal(err)
	}
	defer px.Release()
	py, err := NewVectorFrom(impl, hy)
	if err != nil {
		t.Fatal(err)
	}
	defer py.Release()
	x, _ := px.View(1, n, 2) // odd elements
	y, _ := py.View(0, n, 2) // even elements
	sc, err := NewVectorFrom(impl, []T{-7, 0, 0, 0, -7})
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Release()
	s := func(i int) *Vector[T] {
		v, err := sc.View(i, 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	dxy, dyy, ratio := s(1), s(2), s(3)

	var wxy, wyy float64
	for i := range n {
		wxy += float64(hx[1+2*i]) * float64(hy[2*i])
		wyy += float64(hy[2*i]) * float64(hy[2*i])
	}
	ev1, err := DotTo(x, y, dxy)
	if err != nil {
		t.Fatal(err)
	}
	ev2, err := DotTo(y, y, dyy)
	if err != nil {
		t.Fatal(err)
	}
	ev3, err := Div(dxy, dyy, ratio, ev1, ev2)
	if err != nil {
		t.Fatal(err)
	}
	// y += -2·ratio·x, then x *= 0.5·ratio: no host value in between.
	ev4, err := AxpyBy(-2, ratio, x, y, ev3)
	if err != nil {
		t.Fatal(err)
	}
	ev5, err := ScalBy(0.5, ratio, x, ev4)
	if err != nil {
		t.Fatal(err)
	}
	if err := ev5.Wait(); err != nil {
		t.Fatal(err)
	}
	got := make([]T, 5)
	if err := sc.Read(got); err != nil {
		t.Fatal(err)
	}
	wr := wxy / wyy
	for i, w := range []float64{-7, wxy, wyy, wr, -7} {
		if !residentClose(float64(got[i]), w, tol*math.Sqrt(n)) {
			t.Errorf("scalars[%d] = %v, want %v", i, got[i], w)
		}
	}
	r := float64(got[3]) // the device's own ratio, as the kernels used it
	gx, gy := make([]T, 2*n), make([]T, 2*n)
	if err := px.Read(gx); err != nil {
		t.Fatal(err)
	}
	if err := py.Read(gy); err != nil {
		t.Fatal(err)
	}
	for i := range 2 * n {
		wantY, wantX := float64(hy[i]), float64(hx[i])
		if i%2 == 0 {
			wantY += -2 * r * float64(hx[i+1])
		} else {
			wantX *= 0.5 * r
		}
		if !residentClose(float64(gy[i]), wantY, tol) || !residentClose(float64(gx[i]), wantX, tol) {
			t.Fatalf("element %d: x %v y %v, want %v %v", i, gx[i], gy[i], wantX, wantY)
		}
	}

	// A zero factor assigns zeros, NaN included; a NaN scalar spreads.
	if _, err := sc.Write([]T{T(math.NaN()), 0, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	nanX, _ := px.View(1, 1, 1) // x[0]
	ev, err := Copy(s(0), nanX)
	must(t, "x[0] = NaN", ev, err)
	ev, err = ScalBy(1, s(1), nanX)
	must(t, "ScalBy by a zero scalar", ev, err)
	one := make([]T, 2)
	head, _ := px.View(0, 2, 1)
	if err := head.Read(one); err != nil {
		t.Fatal(err)
	}
	if one[1] != 0 {
		t.Errorf("ScalBy by a zero scalar left %v in place of NaN", one[1])
	}
	y0, _ := py.View(0, 1, 1)
	ev, err = AxpyBy(1, s(0), nanX, y0)
	must(t, "AxpyBy by a NaN scalar", ev, err)
	if err := y0.Read(one[:1]); err != nil || !math.IsNaN(float64(one[0])) {
		t.Errorf("AxpyBy by a NaN scalar: y[0] = %v, %v; want NaN", one[0], err)
	}
}

// TestResidentScalarErrors: a scalar that is an element of the vector the
// operation writes, mismatched lengths and released operands are errors.
func TestResidentScalarErrors(t *testing.T) {
	impl := newTestImpl(t)
	v, err := NewVector[float64](impl, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Release()
	in, _ := v.View(4, 1, 1)  // element 4 of v, and of every even view
	out, _ := v.View(9, 1, 1) // element 9: odd
	even, _ := v.View(0, 5, 2)
	if _, err := ScalBy(2, in, even); !errors.Is(err, ErrShape) {
		t.Errorf("ScalBy with the scalar inside x: %v, want ErrShape", err)
	}
	if _, err := AxpyBy(2, in, out, even); !errors.Is(err, ErrShape) {
		t.Errorf("AxpyBy with the scalar inside y: %v, want ErrShape", err)
	}
	if ev, err := ScalBy(2, out, even); err != nil {
		t.Errorf("ScalBy with the scalar beside x (same vector): %v", err)
	} else if err := ev.Wait(); err != nil {
		t.Error(err)
	}
	short, _ := v.View(0, 3, 1)
	if _, err := DotTo(even, short, out); !errors.Is(err, ErrShape) {
		t.Errorf("DotTo of 5 and 3 elements: %v, want ErrShape", err)
	}
	w, _ := NewVector[float64](impl, 3)
	w.Release()
	if _, err := Div(in, out, w); !errors.Is(err, ErrReleased) {
		t.Errorf("Div into a released vector: %v, want ErrReleased", err)
	}
	if _, err := DotTo(short, short, nil); !errors.Is(err, errNilOperand) {
		t.Errorf("DotTo into nil: %v", err)
	}
}

// TestResidentConjugateGradient solves A·x = b for a symmetric positive
// definite A by conjugate gradients with every scalar (step lengths,
// ratios of dot products) kept on the device: the iterations enqueue
// without a single read, and the one read at the end gives gonum's
// solution.
func TestResidentConjugateGradient(t *testing.T) {
	impl := newTestImpl(t)
	const n = 48
	a, b, want := spdSystem(t, rand.New(rand.NewPCG(41, 42)), n)
	x, err := conjugateGradient(impl, a, b, n, 2*n)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if !residentClose(x[i], want[i], 1e-9) {
			t.Fatalf("x[%d] = %v, want %v", i, x[i], want[i])
		}
	}
}

// spdSystem returns a random n×n symmetric positive definite A (row-major,
// MᵀM + n·I), a random b and gonum's solution of A·x = b.
func spdSystem(t *testing.T, rnd *rand.Rand, n int) (a, b, x []float64) {
	t.Helper()
	m := mat.NewDense(n, n, randF64(rnd, n*n))
	var spd mat.Dense
	spd.Mul(m.T(), m)
	for i := range n {
		spd.Set(i, i, spd.At(i, i)+float64(n))
	}
	b = randF64(rnd, n)
	var want mat.VecDense
	if err := want.SolveVec(&spd, mat.NewVecDense(n, b)); err != nil {
		t.Fatal(err)
	}
	return spd.RawMatrix().Data, b, want.RawVector().Data
}

// conjugateGradient runs iters CG iterations on the n×n row-major a from
// x = 0 and returns x; it reads from the device once, at the end.
func conjugateGradient(impl *Implementation, a, b []float64, n, iters int) ([]float64, error) {
	da, err := NewMatrixFrom(impl, n, n, a)
	if err != nil {
		return nil, err
	}
	defer da.Release()
	vec := func(data []float64) *Vector[float64] {
		v, e := NewVectorFrom(impl, data)
		if e != nil && err == nil {
			err = e
		}
		return v
	}
	x, r, p, ap := vec(make([]float64, n)), vec(b), vec(b), vec(make([]float64, n))
	sc := vec(make([]float64, 4)) // rr, pAp, alpha, rrNew; beta reuses alpha
	for _, v := range []*Vector[float64]{x, r, p, ap, sc} {
		if v != nil {
			defer v.Release()
		}
	}
	if err != nil {
		return nil, err
	}
	s := make([]*Vector[float64], 4)
	for i := range s {
		s[i], _ = sc.View(i, 1, 1)
	}
	rr, pap, alpha, rrNew := s[0], s[1], s[2], s[3]
	// Each operation waits for the one before it; nothing is read back
	// until the end.
	var last *Event
	step := func(op func() (*Event, error)) {
		if err != nil {
			return
		}
		last, err = op()
	}
	step(func() (*Event, error) { return DotTo(r, r, rr) })
	for range iters {
		step(func() (*Event, error) { return Gemv(blas.NoTrans, 1, da, p, 0, ap, last) })
		step(func() (*Event, error) { return DotTo(p, ap, pap, last) })
		step(func() (*Event, error) { return Div(rr, pap, alpha, last) })
		step(func() (*Event, error) { return AxpyBy(1, alpha, p, x, last) })
		step(func() (*Event, error) { return AxpyBy(-1, alpha, ap, r, last) })
		step(func() (*Event, error) { return DotTo(r, r, rrNew, last) })
		step(func() (*Event, error) { return Div(rrNew, rr, alpha, last) }) // beta
		step(func() (*Event, error) { return ScalBy(1, alpha, p, last) })
		step(func() (*Event, error) { return Axpy(1, r, p, last) })
		step(func() (*Event, error) { return Copy(rrNew, rr, last) })
	}
	if err != nil {
		return nil, err
	}
	out := make([]float64, n)
	if err := x.Read(out); err != nil {
		return nil, err
	}
	return out, nil
}

// TestResidentConjugateGradientConcurrent runs conjugate gradients on
// four systems at once from four goroutines on one Implementation (the
// kernels and pools are shared; -race watches them).
func TestResidentConjugateGradientConcurrent(t *testing.T) {
	impl := newTestImpl(t)
	const n, solvers = 24, 4
	type system struct{ a, b, want []float64 }
	systems := make([]system, solvers)
	for s := range systems {
		a, b, want := spdSystem(t, rand.New(rand.NewPCG(51, uint64(s))), n)
		systems[s] = system{a, b, want}
	}
	errs := make(chan error, solvers)
	for _, sys := range systems {
		go func() {
			x, err := conjugateGradient(impl, sys.a, sys.b, n, 2*n)
			if err == nil {
				for i := range n {
					if !residentClose(x[i], sys.want[i], 1e-9) {
						err = fmt.Errorf("x[%d] = %v, want %v", i, x[i], sys.want[i])
						break
					}
				}
			}
			errs <- err
		}()
	}
	for range solvers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
