package clblas

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/gocompute/opencl/cl"
)

// gemmChain enqueues steps dependent products C += 10⁻³·A·A on a random
// n×n float32 A and a C that starts at zero (enough work to be still
// running when a test looks), and returns A, C and the last event. The
// matrices are released when the test ends.
func gemmChain(t *testing.T, rnd *rand.Rand, n, steps int) (a, c *Matrix[float32], last *Event) {
	t.Helper()
	impl := newTestImpl(t)
	a, err := NewMatrixFrom(impl, n, n, randF32(rnd, n*n))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Release() })
	c, err = NewMatrix[float32](impl, n, n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Release() })
	for range steps {
		if last, err = Gemm(blas.NoTrans, blas.NoTrans, 1e-3, a, a, 1, c, last); err != nil {
			t.Fatal(err)
		}
	}
	return a, c, last
}

// TestResidentChain runs a chain of dependent operations on resident data
// with a single read at the end and compares with gonum.
func TestResidentChain(t *testing.T) {
	impl := newTestImpl(t)
	rnd := rand.New(rand.NewPCG(5, 6))
	const n = 37
	a0, b0 := randF64(rnd, n*n), randF64(rnd, n*n)
	a, err := NewMatrixFrom(impl, n, n, a0)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	b, err := NewMatrixFrom(impl, n, n, b0)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	c, _ := NewMatrix[float64](impl, n, n)
	d, _ := NewMatrix[float64](impl, n, n)
	defer c.Release()
	defer d.Release()

	// The same chain on the CPU.
	g := gonum.Implementation{}
	wc, wd := make([]float64, n*n), make([]float64, n*n)
	g.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a0, n, b0, n, 0, wc, n)    // C = A·B
	g.Dgemm(blas.Trans, blas.NoTrans, n, n, n, 0.5, a0, n, wc, n, 0, wd, n)    // D = ½ Aᵀ·C
	g.Dgemm(blas.NoTrans, blas.Trans, n, n, n, -1, wd, n, b0, n, 2, wc, n)     // C = 2C − D·Bᵀ
	g.Dgemm(blas.Trans, blas.Trans, n, n, n, 1, wc, n, a0, n, 1, wd, n)        // D += Cᵀ·Aᵀ
	g.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 0.25, wd, n, wd, n, 0, wc, n) // C = ¼ D·D

	var evs []*Event
	step := func(ev *Event, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	last := func() *Event { return evs[len(evs)-1] }
	step(Gemm(blas.NoTrans, blas.NoTrans, 1, a, b, 0, c))
	step(Gemm(blas.Trans, blas.NoTrans, 0.5, a, c, 0, d, last()))
	step(Gemm(blas.NoTrans, blas.Trans, -1, d, b, 2, c, last()))
	step(Gemm(blas.Trans, blas.Trans, 1, c, a, 1, d, last()))
	step(Gemm(blas.NoTrans, blas.NoTrans, 0.25, d, d, 0, c, last()))
	got := make([]float64, n*n)
	if err := c.Read(got); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if math.Abs(got[i]-wc[i]) > 1e-9*math.Max(1, math.Abs(wc[i])) {
			t.Fatalf("element %d = %v, want %v", i, got[i], wc[i])
		}
	}
	if err := WaitAll(context.Background(), evs...); err != nil {
		t.Fatal(err)
	}

	// A view: the lower-right 5×4 block, read into a packed slice.
	v, err := c.View(n-5, n-4, 5, 4)
	if err != nil {
		t.Fatal(err)
	}
	blk := make([]float64, 20)
	if err := v.Read(blk); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		for j := range 4 {
			if w := wc[(n-5+i)*n+n-4+j]; math.Abs(blk[i*4+j]-w) > 1e-9*math.Max(1, math.Abs(w)) {
				t.Fatalf("view (%d,%d) = %v, want %v", i, j, blk[i*4+j], w)
			}
		}
	}
}

// TestResidentCancel cancels the wait on a long chain: the wait returns
// promptly with context.Canceled, and the implementation stays usable.
func TestResidentCancel(t *testing.T) {
	a, c, last := gemmChain(t, rand.New(rand.NewPCG(7, 8)), 192, 40)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(5 * time.Millisecond); cancel() }()
	start := time.Now()
	err := last.WaitContext(ctx)
	waited := time.Since(start)
	if !errors.Is(err, context.Canceled) {
		// The chain may have finished first on a fast device; then the
		// cancellation test proves nothing, so say so.
		t.Logf("chain finished before the cancel (err %v, %v)", err, waited)
	} else if waited > 500*time.Millisecond {
		t.Errorf("cancelled wait took %v", waited)
	}
	// Still usable: the chain completes, and new work runs.
	if err := last.Wait(); err != nil {
		t.Fatal(err)
	}
	ev, err := Gemm(blas.NoTrans, blas.NoTrans, 1, a, a, 0, c)
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Wait(); err != nil {
		t.Fatal(err)
	}
}

func TestResidentErrors(t *testing.T) {
	impl := newTestImpl(t)
	a, err := NewMatrix[float64](impl, 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewMatrix[float64](impl, 5, 6)
	c, _ := NewMatrix[float64](impl, 3, 6)
	defer b.Release()
	defer c.Release()
	if _, err := Gemm(blas.NoTrans, blas.NoTrans, 1, a, b, 0, c); !errors.Is(err, ErrShape) {
		t.Errorf("mismatched Gemm: %v, want ErrShape", err)
	}
	if _, err := a.View(2, 2, 2, 2); !errors.Is(err, ErrShape) {
		t.Errorf("out-of-range view: %v, want ErrShape", err)
	}
	if _, err := NewMatrix[float64](impl, 0, 3); !errors.Is(err, ErrShape) {
		t.Errorf("empty matrix: %v, want ErrShape", err)
	}
	if err := a.Read(make([]float64, 5)); !errors.Is(err, ErrShape) {
		t.Errorf("short read: %v, want ErrShape", err)
	}
	v, _ := a.View(0, 0, 2, 2)
	if err := a.Release(); err != nil {
		t.Fatal(err)
	}
	if err := a.Release(); err != nil {
		t.Errorf("second Release: %v", err)
	}
	if _, err := Gemm(blas.NoTrans, blas.NoTrans, 1, a, b, 0, c); !errors.Is(err, ErrReleased) {
		t.Errorf("Gemm on a released matrix: %v, want ErrReleased", err)
	}
	if err := v.Read(make([]float64, 4)); !errors.Is(err, ErrReleased) {
		t.Errorf("Read of a view of a released matrix: %v, want ErrReleased", err)
	}
	if _, err := NewMatrix[float64](&Implementation{}, 2, 2); err == nil {
		t.Error("NewMatrix on an Implementation without a device: no error")
	}
}

func randF32(rnd *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = rnd.Float32() - 0.5
	}
	return s
}

// TestResidentNewIsZero: NewMatrix and NewVector hand out zeros even where
// the driver reuses memory that held other data. Each round fills a buffer
// with NaN, releases it and allocates the same size again, which the
// allocator tends to serve from the memory just freed.
func TestResidentNewIsZero(t *testing.T) {
	impl := newTestImpl(t)
	for _, dims := range [][2]int{{4, 4}, {16, 16}, {64, 96}} {
		residentNewIsZero(t, impl, dims[0], dims[1])
	}
}

func residentNewIsZero(t *testing.T, impl *Implementation, rows, cols int) {
	nan := make([]float64, rows*cols)
	for i := range nan {
		nan[i] = math.NaN()
	}
	type stored interface {
		Read([]float64) error
		Release() error
	}
	// check makes an old object full of NaN, releases it, makes a new one
	// of the same size and checks that it reads as zeros.
	check := func(what string, round int, old, fresh func() (stored, error)) {
		o, err := old()
		if err != nil {
			t.Fatal(err)
		}
		o.Release()
		f, err := fresh()
		if err != nil {
			t.Fatal(err)
		}
		got := make([]float64, rows*cols)
		err = f.Read(got)
		f.Release()
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range got {
			if v != 0 {
				t.Fatalf("%d×%d, round %d: %s element %d = %v, want 0", rows, cols, round, what, i, v)
			}
		}
	}
	for round := range 8 {
		check("NewMatrix", round,
			func() (stored, error) { return NewMatrixFrom(impl, rows, cols, nan) },
			func() (stored, error) { return NewMatrix[float64](impl, rows, cols) })
		check("NewVector", round,
			func() (stored, error) { return NewVectorFrom(impl, nan) },
			func() (stored, error) { return NewVector[float64](impl, len(nan)) })
	}
}

// TestResidentNewFillFails: when the zero fill fails, NewMatrix and
// NewVector return the error and keep no buffer.
func TestResidentNewFillFails(t *testing.T) {
	impl, e := privateImpl(t, nil)
	if _, err := NewVector[float32](impl, 8); err != nil {
		t.Fatal(err) // healthy
	}
	base := cl.LiveObjects()["buffer"]
	fail, _ := failAt("enqueue", 1)
	e.Fault.Store(&fail)
	_, err := NewMatrix[float32](impl, 4, 4)
	e.Fault.Store(nil)
	if !errors.Is(err, errInjected) {
		t.Errorf("NewMatrix with a failing fill: %v, want the injected error", err)
	}
	fail, _ = failAt("enqueue", 1)
	e.Fault.Store(&fail)
	_, err = NewVector[float32](impl, 4)
	e.Fault.Store(nil)
	if !errors.Is(err, errInjected) {
		t.Errorf("NewVector with a failing fill: %v, want the injected error", err)
	}
	if got := cl.LiveObjects()["buffer"]; got != base {
		t.Errorf("%d live buffers after the failed constructors, %d before", got, base)
	}
}
