package clblas

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	eng "github.com/gocompute/opencl/internal/engine"
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
	if eng.PrecisionOf[T]() == 32 {
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
	parent, v   *Vector[T]
	host        []float64
	off, n, inc int
	impl        *Implementation
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

func scalarValue[S int | float32 | float64 | complex64 | complex128](t *testing.T, what string, s *Scalar[S], err error) S {
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
	rnd := rand.New(rand.NewPCG(11, uint64(eng.PrecisionOf[T]())))
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
	if eng.PrecisionOf[T]() == 32 && testEngine(t).Prof.FP64 {
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
	_, c, last := gemmChain(t, rand.New(rand.NewPCG(3, 4)), 160, 30)
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

// sync writes the host mirror into the device parent.
func (r *rvec[T]) sync(t *testing.T) {
	t.Helper()
	data := make([]T, len(r.host))
	for i := range data {
		data[i] = T(r.host[i])
	}
	ev, err := r.parent.Write(data)
	must(t, "Write", ev, err)
}

func TestResidentLevel2(t *testing.T) {
	t.Run("float64", func(t *testing.T) { residentLevel2[float64](t, newTestImpl(t)) })
	t.Run("float32", func(t *testing.T) { residentLevel2[float32](t, newTestImpl(t)) })
}

// TestResidentLevel2TwoLaunches is TestResidentLevel2 with the partial
// sums of the transposed and symmetric products, and TRMV's copy over x,
// in launches of their own (the engine's GemvT.Launches = 2), where CPU
// devices whose entry sets one_launch_l2 (PoCL's) take one launch.
func TestResidentLevel2TwoLaunches(t *testing.T) {
	impl, e := privateImpl(t, nil)
	e.GemvT = eng.GemvTShape{Launches: 2}
	t.Run("float64", func(t *testing.T) { residentLevel2[float64](t, impl) })
	t.Run("float32", func(t *testing.T) { residentLevel2[float32](t, impl) })
}

func residentLevel2[T float32 | float64](t *testing.T, impl *Implementation) {
	rnd := rand.New(rand.NewPCG(12, uint64(eng.PrecisionOf[T]())))
	// (m, n, view row offset, view column offset, vector offset, inc)
	for _, sh := range [][6]int{{1, 1, 0, 0, 0, 1}, {5, 7, 0, 0, 1, 2}, {33, 20, 2, 3, 3, 3}} {
		m, n, i0, j0, vo, inc := sh[0], sh[1], sh[2], sh[3], sh[4], sh[5]
		name := fmt.Sprintf("%d×%d@(%d,%d) inc %d", m, n, i0, j0, inc)
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			a := newRMat[T](t, impl, rnd, m, n, i0, j0)
			nout, nin := m, n
			if tA == blas.Trans {
				nout, nin = n, m
			}
			x := newRVec[T](t, impl, rnd, nin, vo, inc)
			y := newRVec[T](t, impl, rnd, nout, 1, inc)
			for _, beta := range []T{0, 0.5} {
				ev, err := Gemv(tA, T(1.25), a.m, x.v, beta, y.v)
				gref.Dgemv(tA, m, n, 1.25, a.h(), a.ld, x.h(), x.inc, float64(beta), y.h(), y.inc)
				must(t, "Gemv", ev, err)
				y.check(t, fmt.Sprintf("Gemv %v β=%v %s", tA, beta, name))
			}
			kL, kU := min(2, m-1), min(1, n-1)
			band := newRMat[T](t, impl, rnd, m, kL+kU+1, i0, j0)
			ev, err := Gbmv(tA, m, n, kL, kU, T(0.5), band.m, x.v, T(-1), y.v)
			gref.Dgbmv(tA, m, n, kL, kU, 0.5, band.h(), band.ld, x.h(), x.inc, -1, y.h(), y.inc)
			must(t, "Gbmv", ev, err)
			y.check(t, "Gbmv "+name)
		}
		x := newRVec[T](t, impl, rnd, m, vo, inc)
		y := newRVec[T](t, impl, rnd, n, 2, 1)
		a := newRMat[T](t, impl, rnd, m, n, i0, j0)
		ev, err := Ger(T(0.75), x.v, y.v, a.m)
		gref.Dger(m, n, 0.75, x.h(), x.inc, y.h(), y.inc, a.h(), a.ld)
		must(t, "Ger", ev, err)
		a.check(t, "Ger "+name)

		// Square operations on n×n.
		k := min(2, n-1)
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			sq := newRMat[T](t, impl, rnd, n, n, i0, j0)
			xs := newRVec[T](t, impl, rnd, n, vo, inc)
			ys := newRVec[T](t, impl, rnd, n, 1, 2)
			sb := newRMat[T](t, impl, rnd, n, k+1, i0, j0)
			ap := newRVec[T](t, impl, rnd, n*(n+1)/2, vo, 1)
			nm := fmt.Sprintf("%v %s", ul, name)

			ev, err := Symv(ul, T(0.5), sq.m, xs.v, T(2), ys.v)
			gref.Dsymv(ul, n, 0.5, sq.h(), sq.ld, xs.h(), xs.inc, 2, ys.h(), ys.inc)
			must(t, "Symv", ev, err)
			ys.check(t, "Symv "+nm)
			ev, err = Sbmv(ul, k, T(1), sb.m, xs.v, T(0), ys.v)
			gref.Dsbmv(ul, n, k, 1, sb.h(), sb.ld, xs.h(), xs.inc, 0, ys.h(), ys.inc)
			must(t, "Sbmv", ev, err)
			ys.check(t, "Sbmv "+nm)
			ev, err = Spmv(ul, T(-0.5), ap.v, xs.v, T(1), ys.v)
			gref.Dspmv(ul, n, -0.5, ap.h(), xs.h(), xs.inc, 1, ys.h(), ys.inc)
			must(t, "Spmv", ev, err)
			ys.check(t, "Spmv "+nm)

			ev, err = Syr(ul, T(0.5), xs.v, sq.m)
			gref.Dsyr(ul, n, 0.5, xs.h(), xs.inc, sq.h(), sq.ld)
			must(t, "Syr", ev, err)
			sq.check(t, "Syr "+nm)
			ev, err = Syr2(ul, T(-0.25), xs.v, ys.v, sq.m)
			gref.Dsyr2(ul, n, -0.25, xs.h(), xs.inc, ys.h(), ys.inc, sq.h(), sq.ld)
			must(t, "Syr2", ev, err)
			sq.check(t, "Syr2 "+nm)
			ev, err = Spr(ul, T(0.5), xs.v, ap.v)
			gref.Dspr(ul, n, 0.5, xs.h(), xs.inc, ap.h())
			must(t, "Spr", ev, err)
			ap.check(t, "Spr "+nm)
			ev, err = Spr2(ul, T(0.125), xs.v, ys.v, ap.v)
			gref.Dspr2(ul, n, 0.125, xs.h(), xs.inc, ys.h(), ys.inc, ap.h())
			must(t, "Spr2", ev, err)
			ap.check(t, "Spr2 "+nm)

			// Triangular products and solves, on well-conditioned matrices.
			sq.dominant(t, func(i int) int { return i })
			if ul == blas.Upper {
				sb.dominant(t, func(int) int { return 0 })
			} else {
				sb.dominant(t, func(int) int { return k })
			}
			for i := 0; i < n; i++ {
				ap.h()[packedDiag(ul, n)(i)] = 4
			}
			ap.sync(t)
			for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				for _, d := range []blas.Diag{blas.NonUnit, blas.Unit} {
					tn := fmt.Sprintf("%v %v %s", tA, d, nm)
					ev, err = Trmv(ul, tA, d, sq.m, xs.v)
					gref.Dtrmv(ul, tA, d, n, sq.h(), sq.ld, xs.h(), xs.inc)
					must(t, "Trmv", ev, err)
					xs.check(t, "Trmv "+tn)
					ev, err = Trsv(ul, tA, d, sq.m, xs.v)
					gref.Dtrsv(ul, tA, d, n, sq.h(), sq.ld, xs.h(), xs.inc)
					must(t, "Trsv", ev, err)
					xs.check(t, "Trsv "+tn)
					ev, err = Tbmv(ul, tA, d, k, sb.m, xs.v)
					gref.Dtbmv(ul, tA, d, n, k, sb.h(), sb.ld, xs.h(), xs.inc)
					must(t, "Tbmv", ev, err)
					xs.check(t, "Tbmv "+tn)
					ev, err = Tbsv(ul, tA, d, k, sb.m, xs.v)
					gref.Dtbsv(ul, tA, d, n, k, sb.h(), sb.ld, xs.h(), xs.inc)
					must(t, "Tbsv", ev, err)
					xs.check(t, "Tbsv "+tn)
					ev, err = Tpmv(ul, tA, d, ap.v, xs.v)
					gref.Dtpmv(ul, tA, d, n, ap.h(), xs.h(), xs.inc)
					must(t, "Tpmv", ev, err)
					xs.check(t, "Tpmv "+tn)
					ev, err = Tpsv(ul, tA, d, ap.v, xs.v)
					gref.Dtpsv(ul, tA, d, n, ap.h(), xs.h(), xs.inc)
					must(t, "Tpsv", ev, err)
					xs.check(t, "Tpsv "+tn)
				}
			}
		}
	}
}

func TestResidentLevel2Errors(t *testing.T) {
	impl := newTestImpl(t)
	a, _ := NewMatrix[float32](impl, 4, 5)
	x, _ := NewVector[float32](impl, 5)
	y, _ := NewVector[float32](impl, 4)
	ap, _ := NewVector[float32](impl, 10)
	defer x.Release()
	defer y.Release()
	defer ap.Release()
	for _, c := range []struct {
		what string
		err  error
		want error
	}{
		{"Gemv y too short", second(Gemv(blas.Trans, 1, a, x, 0, y)), ErrShape},
		{"Gemv bad transpose", second(Gemv(blas.Transpose('x'), 1, a, x, 0, y)), ErrInvalidArg},
		{"Symv non-square", second(Symv(blas.Upper, 1, a, x, 0, x)), ErrShape},
		{"Symv bad uplo", second(Symv(blas.Uplo(0), 1, a, x, 0, x)), ErrInvalidArg},
		{"Gbmv band width", second(Gbmv(blas.NoTrans, 4, 5, 1, 1, 1, a, x, 0, y)), ErrShape},
		{"Spmv packed length", second(Spmv(blas.Lower, 1, ap, x, 0, x)), ErrShape},
		{"Trsv bad diag", second(Trsv(blas.Upper, blas.NoTrans, blas.Diag(9), a, y)), ErrInvalidArg},
		{"Tpmv ok shape", second(Tpmv(blas.Upper, blas.NoTrans, blas.Unit, ap, y)), nil},
		{"Tbsv band", second(Tbsv(blas.Upper, blas.NoTrans, blas.Unit, 1, a, y)), ErrShape},
		{"Ger shape", second(Ger(1, x, y, a)), ErrShape},
		{"Syr non-square", second(Syr(blas.Upper, 1, x, a)), ErrShape},
		{"Spr2 packed", second(Spr2(blas.Upper, 1, x, x, ap)), ErrShape},
	} {
		if c.want == nil {
			if c.err != nil {
				t.Errorf("%s: %v", c.what, c.err)
			}
			continue
		}
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: %v, want %v", c.what, c.err, c.want)
		}
	}
	a.Release()
	if _, err := Gemv(blas.NoTrans, 1, a, x, 0, y); !errors.Is(err, ErrReleased) {
		t.Errorf("Gemv on a released matrix: %v, want ErrReleased", err)
	}
	if _, err := Ger(1, y, x, a); !errors.Is(err, ErrReleased) {
		t.Errorf("Ger on a released matrix: %v, want ErrReleased", err)
	}
	if _, err := Trmv(blas.Upper, blas.NoTrans, blas.Unit, (*Matrix[float32])(nil), y); err == nil {
		t.Error("Trmv with a nil matrix: no error")
	}
}

func second[A any](_ A, err error) error { return err }

// TestResidentChainMixed chains dependent operations of all three levels
// on views, with a single read (and one scalar) at the end.
func TestResidentChainMixed(t *testing.T) {
	t.Run("float64", func(t *testing.T) { residentChainMixed[float64](t) })
	t.Run("float32", func(t *testing.T) { residentChainMixed[float32](t) })
}

func residentChainMixed[T float32 | float64](t *testing.T) {
	impl := newTestImpl(t)
	rnd := rand.New(rand.NewPCG(21, uint64(eng.PrecisionOf[T]())))
	const n = 24
	a := newRMat[T](t, impl, rnd, n, n, 1, 2)
	b := newRMat[T](t, impl, rnd, n, n, 0, 0)
	c := newRMat[T](t, impl, rnd, n, n, 3, 1)
	x := newRVec[T](t, impl, rnd, n, 2, 3)
	y := newRVec[T](t, impl, rnd, n, 0, 1)

	var evs []*Event
	step := func(ev *Event, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	last := func() *Event { return evs[len(evs)-1] }

	step(Gemm(blas.NoTrans, blas.Trans, 1, a.m, b.m, 0, c.m))
	gref.Dgemm(blas.NoTrans, blas.Trans, n, n, n, 1, a.h(), a.ld, b.h(), b.ld, 0, c.h(), c.ld)
	step(Gemv(blas.Trans, 0.5, c.m, x.v, 0, y.v, last()))
	gref.Dgemv(blas.Trans, n, n, 0.5, c.h(), c.ld, x.h(), x.inc, 0, y.h(), y.inc)
	step(Axpy(-2, y.v, x.v, last()))
	gref.Daxpy(n, -2, y.h(), y.inc, x.h(), x.inc)
	nrm, err := Nrm2(x.v, last())
	wantNrm := gref.Dnrm2(n, x.h(), x.inc)
	if err != nil {
		t.Fatal(err)
	}
	step(Ger(0.25, x.v, y.v, c.m, nrm.Event))
	gref.Dger(n, n, 0.25, x.h(), x.inc, y.h(), y.inc, c.h(), c.ld)
	col, err := c.m.Col(5)
	if err != nil {
		t.Fatal(err)
	}
	step(Scal(3, col, last()))
	gref.Dscal(n, 3, c.h()[5:], c.ld)
	step(Gemm(blas.Trans, blas.NoTrans, 1, c.m, a.m, 0.5, b.m, last()))
	gref.Dgemm(blas.Trans, blas.NoTrans, n, n, n, 1, c.h(), c.ld, a.h(), a.ld, 0.5, b.h(), b.ld)
	step(Symv(blas.Lower, 1, b.m, y.v, 1, x.v, last()))
	gref.Dsymv(blas.Lower, n, 1, b.h(), b.ld, y.h(), y.inc, 1, x.h(), x.inc)
	dot, err := Dot(x.v, y.v, last())
	if err != nil {
		t.Fatal(err)
	}

	tol := residentTol[T]() * 50
	got := make([]T, len(b.host))
	if err := b.parent.Read(got); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if !residentClose(float64(got[i]), b.host[i], tol) {
			t.Fatalf("B element %d = %v, want %v", i, got[i], b.host[i])
		}
	}
	if err := WaitAll(context.Background(), evs...); err != nil {
		t.Fatal(err)
	}
	want := gref.Ddot(n, x.h(), x.inc, y.h(), y.inc)
	if v, err := dot.Value(context.Background()); err != nil || !residentClose(float64(v), want, tol*n) {
		t.Errorf("Dot at the end of the chain = %v, %v; want %v", v, err, want)
	}
	if v, err := nrm.Value(context.Background()); err != nil || !residentClose(float64(v), wantNrm, tol) {
		t.Errorf("Nrm2 in the chain = %v, %v; want %v", v, err, wantNrm)
	}
}

func TestResidentLevel3(t *testing.T) {
	t.Run("float64", func(t *testing.T) { residentLevel3[float64](t) })
	t.Run("float32", func(t *testing.T) { residentLevel3[float32](t) })
}

func residentLevel3[T float32 | float64](t *testing.T) {
	impl := newTestImpl(t)
	rnd := rand.New(rand.NewPCG(31, uint64(eng.PrecisionOf[T]())))
	// (m, n, k, view offset)
	for _, sh := range [][4]int{{1, 1, 1, 0}, {6, 9, 4, 0}, {37, 21, 45, 2}} {
		m, n, k, o := sh[0], sh[1], sh[2], sh[3]
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			name := fmt.Sprintf("%v m=%d n=%d k=%d off=%d", ul, m, n, k, o)
			for _, side := range []blas.Side{blas.Left, blas.Right} {
				ka := n
				if side == blas.Left {
					ka = m
				}
				a := newRMat[T](t, impl, rnd, ka, ka, o, o+1)
				b := newRMat[T](t, impl, rnd, m, n, 0, o)
				c := newRMat[T](t, impl, rnd, m, n, o, 0)
				for _, beta := range []T{0, 0.5} {
					ev, err := Symm(side, ul, T(0.75), a.m, b.m, beta, c.m)
					gref.Dsymm(side, ul, m, n, 0.75, a.h(), a.ld, b.h(), b.ld, float64(beta), c.h(), c.ld)
					must(t, "Symm", ev, err)
					c.check(t, fmt.Sprintf("Symm %v β=%v %s", side, beta, name))
				}
				a.dominant(t, func(i int) int { return i })
				for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
					for _, d := range []blas.Diag{blas.NonUnit, blas.Unit} {
						tn := fmt.Sprintf("%v %v %v %s", side, tA, d, name)
						ev, err := Trmm(side, ul, tA, d, T(1.5), a.m, b.m)
						gref.Dtrmm(side, ul, tA, d, m, n, 1.5, a.h(), a.ld, b.h(), b.ld)
						must(t, "Trmm", ev, err)
						b.check(t, "Trmm "+tn)
						ev, err = Trsm(side, ul, tA, d, T(0.5), a.m, b.m)
						gref.Dtrsm(side, ul, tA, d, m, n, 0.5, a.h(), a.ld, b.h(), b.ld)
						must(t, "Trsm", ev, err)
						b.check(t, "Trsm "+tn)
					}
				}
			}
			for _, tr := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				ar, ac := eng.Stored(tr, n, k)
				a := newRMat[T](t, impl, rnd, ar, ac, o, 1)
				b := newRMat[T](t, impl, rnd, ar, ac, 0, o)
				c := newRMat[T](t, impl, rnd, n, n, o, o)
				for _, beta := range []T{0, -1} {
					ev, err := Syrk(ul, tr, T(0.5), a.m, beta, c.m)
					gref.Dsyrk(ul, tr, n, k, 0.5, a.h(), a.ld, float64(beta), c.h(), c.ld)
					must(t, "Syrk", ev, err)
					c.check(t, fmt.Sprintf("Syrk %v β=%v %s", tr, beta, name))
					ev, err = Syr2k(ul, tr, T(-0.5), a.m, b.m, beta, c.m)
					gref.Dsyr2k(ul, tr, n, k, -0.5, a.h(), a.ld, b.h(), b.ld, float64(beta), c.h(), c.ld)
					must(t, "Syr2k", ev, err)
					c.check(t, fmt.Sprintf("Syr2k %v β=%v %s", tr, beta, name))
				}
			}
		}
	}
}

func TestResidentLevel3Errors(t *testing.T) {
	impl := newTestImpl(t)
	a, _ := NewMatrix[float64](impl, 4, 4)
	b, _ := NewMatrix[float64](impl, 4, 5)
	c, _ := NewMatrix[float64](impl, 5, 5)
	defer b.Release()
	defer c.Release()
	for _, tc := range []struct {
		what string
		err  error
		want error
	}{
		{"Symm right side shape", second(Symm(blas.Right, blas.Upper, 1, a, b, 0, b)), ErrShape},
		{"Symm bad side", second(Symm(blas.Side(0), blas.Upper, 1, a, b, 0, b)), ErrInvalidArg},
		{"Syrk C shape", second(Syrk(blas.Upper, blas.NoTrans, 1, b, 0, c)), ErrShape},
		{"Syrk bad transpose", second(Syrk(blas.Upper, blas.Transpose(0), 1, b, 0, c)), ErrInvalidArg},
		{"Syr2k B shape", second(Syr2k(blas.Lower, blas.Trans, 1, b, a, 0, c)), ErrShape},
		{"Trmm shape", second(Trmm(blas.Right, blas.Upper, blas.NoTrans, blas.Unit, 1, a, b)), ErrShape},
		{"Trsm bad diag", second(Trsm(blas.Left, blas.Upper, blas.NoTrans, blas.Diag(0), 1, a, b)), ErrInvalidArg},
	} {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.what, tc.err, tc.want)
		}
	}
	a.Release()
	if _, err := Trsm(blas.Left, blas.Upper, blas.NoTrans, blas.Unit, 1, a, b); !errors.Is(err, ErrReleased) {
		t.Errorf("Trsm with a released A: %v, want ErrReleased", err)
	}
	if _, err := Symm(blas.Left, blas.Upper, 1, a, b, 0, b); !errors.Is(err, ErrReleased) {
		t.Errorf("Symm with a released A: %v, want ErrReleased", err)
	}
}
