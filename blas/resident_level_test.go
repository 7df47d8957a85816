package clblas

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// Tests of the device-resident level 1, 2 and 3 operations against gonum.
// Every operand is a view (offset, stride) into a larger device object
// whose float64 mirror is updated with gonum's Go code; after each
// operation the whole parent is read back and compared, so elements
// outside the view must be left alone.

var gref = gonum.Implementation{}

func residentTol[T float32 | float64]() float64 {
	if precisionOf[T]() == 32 {
		return 2e-4
	}
	return 1e-11
}

func residentClose(got, want, tol float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// rvec is a device vector view with its host mirror: element i of the view
// is host[off+i*inc].
type rvec[T float32 | float64] struct {
	parent, v    *Vector[T]
	host         []float64
	off, n, inc  int
	impl         *Implementation
	releaseAfter bool
}

func newRVec[T float32 | float64](t *testing.T, impl *Implementation, rnd *rand.Rand, n, off, inc int) *rvec[T] {
	t.Helper()
	total := off + (n-1)*inc + 1 + 3
	host := make([]float64, total)
	data := make([]T, total)
	for i := range host {
		data[i] = T(rnd.Float64()*2 - 1)
		host[i] = float64(data[i])
	}
	p, err := NewVectorFrom(impl, data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Release() })
	v, err := p.View(off, n, inc)
	if err != nil {
		t.Fatal(err)
	}
	return &rvec[T]{parent: p, v: v, host: host, off: off, n: n, inc: inc, impl: impl}
}

// h is the host mirror from the view's first element, for gonum.
func (r *rvec[T]) h() []float64 { return r.host[r.off:] }

func (r *rvec[T]) check(t *testing.T, what string) {
	t.Helper()
	got := make([]T, len(r.host))
	if err := r.parent.Read(got); err != nil {
		t.Fatalf("%s: Read: %v", what, err)
	}
	for i := range got {
		if !residentClose(float64(got[i]), r.host[i], residentTol[T]()) {
			t.Fatalf("%s: element %d of the parent = %v, want %v", what, i, got[i], r.host[i])
		}
	}
}

// rmat is a device matrix view with its host mirror (row-major, the
// parent's stride).
type rmat[T float32 | float64] struct {
	parent, m        *Matrix[T]
	host             []float64
	i0, j0, r, c, ld int
}

func newRMat[T float32 | float64](t *testing.T, impl *Implementation, rnd *rand.Rand, r, c, i0, j0 int) *rmat[T] {
	t.Helper()
	pr, pc := i0+r+1, j0+c+2
	host := make([]float64, pr*pc)
	data := make([]T, pr*pc)
	for i := range host {
		data[i] = T(rnd.Float64()*2 - 1)
		host[i] = float64(data[i])
	}
	p, err := NewMatrixFrom(impl, pr, pc, data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Release() })
	m, err := p.View(i0, j0, r, c)
	if err != nil {
		t.Fatal(err)
	}
	return &rmat[T]{parent: p, m: m, host: host, i0: i0, j0: j0, r: r, c: c, ld: pc}
}

func (a *rmat[T]) h() []float64 { return a.host[a.i0*a.ld+a.j0:] }

// dominant makes the view's diagonal large, so triangular solves are well
// conditioned.
func (a *rmat[T]) dominant(t *testing.T, col func(i int) int) {
	t.Helper()
	data := make([]T, len(a.host))
	for i := 0; i < a.r; i++ {
		j := col(i)
		if j < 0 || j >= a.c {
			continue
		}
		a.h()[i*a.ld+j] = 4 + float64(i%3)
	}
	for i := range data {
		data[i] = T(a.host[i])
	}
	pr, pc := a.parent.Dims()
	if _, err := a.parent.Write(data[:pr*pc]); err != nil {
		t.Fatal(err)
	}
}

func (a *rmat[T]) check(t *testing.T, what string) {
	t.Helper()
	got := make([]T, len(a.host))
	if err := a.parent.Read(got); err != nil {
		t.Fatalf("%s: Read: %v", what, err)
	}
	for i := range got {
		if !residentClose(float64(got[i]), a.host[i], residentTol[T]()) {
			t.Fatalf("%s: element (%d, %d) of the parent = %v, want %v", what, i/a.ld, i%a.ld, got[i], a.host[i])
		}
	}
}

func must(t *testing.T, what string, ev *Event, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := ev.Wait(); err != nil {
		t.Fatalf("%s: Wait: %v", what, err)
	}
}

func scalarValue[S int | float32 | float64](t *testing.T, what string, s *Scalar[S], err error) S {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	v, err := s.Value(context.Background())
	if err != nil {
		t.Fatalf("%s: Value: %v", what, err)
	}
	return v
}

// vecShapes are (n, offset, inc) of the vector views the tests use.
var vecShapes = [][3]int{{1, 0, 1}, {7, 0, 1}, {33, 3, 2}, {130, 5, 3}}

func TestResidentLevel1(t *testing.T) {
	t.Run("float64", func(t *testing.T) { residentLevel1[float64](t) })
	t.Run("float32", func(t *testing.T) { residentLevel1[float32](t) })
}

func residentLevel1[T float32 | float64](t *testing.T) {
	impl := newTestImpl(t)
	rnd := rand.New(rand.NewPCG(11, uint64(precisionOf[T]())))
	tol := residentTol[T]()
	for _, sh := range vecShapes {
		n, off, inc := sh[0], sh[1], sh[2]
		name := fmt.Sprintf("n=%d,off=%d,inc=%d", n, off, inc)
		x := newRVec[T](t, impl, rnd, n, off, inc)
		y := newRVec[T](t, impl, rnd, n, 1, 1+inc%2)

		ev, err := Axpy(T(0.75), x.v, y.v)
		gref.Daxpy(n, float64(T(0.75)), x.h(), x.inc, y.h(), y.inc)
		must(t, "Axpy", ev, err)
		y.check(t, "Axpy "+name)

		ev, err = Scal(T(-1.5), x.v)
		gref.Dscal(n, -1.5, x.h(), x.inc)
		must(t, "Scal", ev, err)
		x.check(t, "Scal "+name)

		ev, err = Swap(x.v, y.v)
		gref.Dswap(n, x.h(), x.inc, y.h(), y.inc)
		must(t, "Swap", ev, err)
		x.check(t, "Swap x "+name)
		y.check(t, "Swap y "+name)

		ev, err = Rot(x.v, y.v, T(0.6), T(0.8))
		gref.Drot(n, x.h(), x.inc, y.h(), y.inc, float64(T(0.6)), float64(T(0.8)))
		must(t, "Rot", ev, err)
		x.check(t, "Rot x "+name)
		y.check(t, "Rot y "+name)

		for _, flag := range []blas.Flag{blas.Identity, blas.Rescaling, blas.OffDiagonal, blas.Diagonal} {
			h := [4]T{0.5, -0.25, 0.125, 2}
			ev, err = Rotm(x.v, y.v, flag, h)
			gref.Drotm(n, x.h(), x.inc, y.h(), y.inc, blas.DrotmParams{Flag: flag, H: [4]float64{float64(h[0]), float64(h[1]), float64(h[2]), float64(h[3])}})
			must(t, "Rotm", ev, err)
			x.check(t, fmt.Sprintf("Rotm %v x %s", flag, name))
			y.check(t, fmt.Sprintf("Rotm %v y %s", flag, name))
		}

		d, err := Dot(x.v, y.v)
		if got, want := scalarValue(t, "Dot", d, err), gref.Ddot(n, x.h(), x.inc, y.h(), y.inc); !residentClose(float64(got), want, tol*float64(n)) {
			t.Errorf("Dot %s = %v, want %v", name, got, want)
		}
		s, err := Asum(x.v)
		if got, want := scalarValue(t, "Asum", s, err), gref.Dasum(n, x.h(), x.inc); !residentClose(float64(got), want, tol*float64(n)) {
			t.Errorf("Asum %s = %v, want %v", name, got, want)
		}
		s, err = Nrm2(x.v)
		if got, want := scalarValue(t, "Nrm2", s, err), gref.Dnrm2(n, x.h(), x.inc); !residentClose(float64(got), want, tol*float64(n)) {
			t.Errorf("Nrm2 %s = %v, want %v", name, got, want)
		}
		im, err := Iamax(x.v)
		if got, want := scalarValue(t, "Iamax", im, err), gref.Idamax(n, x.h(), x.inc); got != want {
			t.Errorf("Iamax %s = %v, want %v", name, got, want)
		}

		ev, err = Copy(x.v, y.v)
		gref.Dcopy(n, x.h(), x.inc, y.h(), y.inc)
		must(t, "Copy", ev, err)
		y.check(t, "Copy "+name)

		// Read and Write of the strided view itself.
		w := make([]T, n)
		for i := range w {
			w[i] = T(i) - 2
			y.h()[i*y.inc] = float64(w[i])
		}
		ev, err = y.v.Write(w)
		must(t, "Write", ev, err)
		y.check(t, "Write "+name)
		got := make([]T, n)
		if err := y.v.Read(got); err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if got[i] != w[i] {
				t.Fatalf("Read %s: element %d = %v, want %v", name, i, got[i], w[i])
			}
		}
		got2 := make([]T, n)
		ev, err = x.v.ReadAsync(got2)
		must(t, "ReadAsync", ev, err)
		for i := range got2 {
			if !residentClose(float64(got2[i]), x.h()[i*x.inc], tol) {
				t.Fatalf("ReadAsync %s: element %d = %v, want %v", name, i, got2[i], x.h()[i*x.inc])
			}
		}
	}
	if precisionOf[T]() == 32 && testEngine(t).prof.FP64 {
		x := newRVec[float32](t, impl, rnd, 45, 2, 2)
		y := newRVec[float32](t, impl, rnd, 45, 0, 1)
		xs, ys := make([]float32, len(x.host)), make([]float32, len(y.host))
		for i := range xs {
			xs[i] = float32(x.host[i])
		}
		for i := range ys {
			ys[i] = float32(y.host[i])
		}
		d, err := Dsdot(x.v, y.v)
		if got, want := scalarValue(t, "Dsdot", d, err), gref.Dsdot(45, xs[2:], 2, ys, 1); !residentClose(got, want, 1e-12) {
			t.Errorf("Dsdot = %v, want %v", got, want)
		}
	}
}

func TestResidentLevel1Errors(t *testing.T) {
	impl := newTestImpl(t)
	x, err := NewVector[float64](impl, 10)
	if err != nil {
		t.Fatal(err)
	}
	y, _ := NewVector[float64](impl, 9)
	defer y.Release()
	if _, err := Axpy(1, x, y); !errors.Is(err, ErrShape) {
		t.Errorf("Axpy of different lengths: %v, want ErrShape", err)
	}
	if _, err := Dot(x, y); !errors.Is(err, ErrShape) {
		t.Errorf("Dot of different lengths: %v, want ErrShape", err)
	}
	if _, err := x.View(4, 4, 2); !errors.Is(err, ErrShape) {
		t.Errorf("out-of-range view: %v, want ErrShape", err)
	}
	if _, err := x.View(0, 2, 0); !errors.Is(err, ErrShape) {
		t.Errorf("zero-stride view: %v, want ErrShape", err)
	}
	if _, err := NewVector[float64](impl, 0); !errors.Is(err, ErrShape) {
		t.Errorf("empty vector: %v, want ErrShape", err)
	}
	if err := x.Read(make([]float64, 3)); !errors.Is(err, ErrShape) {
		t.Errorf("short read: %v, want ErrShape", err)
	}
	if _, err := x.Write(make([]float64, 3)); !errors.Is(err, ErrShape) {
		t.Errorf("short write: %v, want ErrShape", err)
	}
	if _, err := Rotm(x, x, blas.Flag(7), [4]float64{}); !errors.Is(err, ErrInvalidArg) {
		t.Errorf("Rotm with a bad flag: %v, want ErrInvalidArg", err)
	}
	if _, err := Scal(2, (*Vector[float64])(nil)); err == nil {
		t.Error("Scal of a nil vector: no error")
	}
	v, _ := x.View(1, 3, 2)
	x.Release()
	if _, err := Scal(2, v); !errors.Is(err, ErrReleased) {
		t.Errorf("Scal of a view of a released vector: %v, want ErrReleased", err)
	}
	if _, err := Nrm2(x); !errors.Is(err, ErrReleased) {
		t.Errorf("Nrm2 of a released vector: %v, want ErrReleased", err)
	}
	if _, err := Copy(y, x); !errors.Is(err, ErrReleased) {
		t.Errorf("Copy into a released vector: %v, want ErrReleased", err)
	}
	if err := x.Read(make([]float64, 10)); !errors.Is(err, ErrReleased) {
		t.Errorf("Read of a released vector: %v, want ErrReleased", err)
	}
	if _, _, _, err := x.Buffer(); !errors.Is(err, ErrReleased) {
		t.Errorf("Buffer of a released vector: %v, want ErrReleased", err)
	}
}

// TestResidentScalarContext: Value honours its context, and a Scalar works
// as a dependency.
func TestResidentScalarContext(t *testing.T) {
	impl := newTestImpl(t)
	rnd := rand.New(rand.NewPCG(3, 4))
	const n = 160
	a, err := NewMatrixFrom(impl, n, n, randF32(rnd, n*n))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	c, _ := NewMatrix[float32](impl, n, n)
	defer c.Release()
	var last *Event
	for range 30 {
		if last, err = Gemm(blas.NoTrans, blas.NoTrans, 1e-3, a, a, 1, c, last); err != nil {
			t.Fatal(err)
		}
	}
	col, err := c.Col(3)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Asum(col, last)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	if _, err := s.Value(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Value with a short deadline: %v", err)
	} else if err == nil {
		t.Log("the chain finished within the deadline")
	}
	cctx, ccancel := context.WithCancel(context.Background())
	ccancel()
	if _, err := s.Value(cctx); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("Value with a cancelled context: %v", err)
	}
	// The Scalar as a dependency of a later operation, then its value.
	ev, err := Scal(2, col, s.Event)
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Value(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Wait(); err != nil {
		t.Fatal(err)
	}
	s2, err := Asum(col, ev)
	if err != nil {
		t.Fatal(err)
	}
	v2, err := s2.Value(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !residentClose(float64(v2), 2*float64(v), 1e-5) {
		t.Errorf("Asum after Scal(2) = %v, want %v", v2, 2*v)
	}
}
