package clblas

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// TestResidentSizesChecked: sizes, offsets and increments that overflow or
// exceed the kernels' 32-bit integers are errors (issue 19, item 3), and
// the largest valid views still work.
func TestResidentSizesChecked(t *testing.T) {
	impl := newTestImpl(t)
	noPanic := func(what string, f func() error) {
		t.Helper()
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("%s panicked: %v", what, r)
			}
		}()
		if err := f(); err == nil {
			t.Errorf("%s: no error", what)
		}
	}
	noPanic("NewMatrix(2⁶¹+1, 1)", func() error { _, err := NewMatrix[float64](impl, 1<<61+1, 1); return err })
	noPanic("NewMatrix(1, 2⁶¹+1)", func() error { _, err := NewMatrix[float64](impl, 1, 1<<61+1); return err })
	noPanic("NewMatrix(2³¹, 1)", func() error { _, err := NewMatrix[float32](impl, 1<<31, 1); return err })
	noPanic("NewMatrix(2³¹−1, 2³¹−1)", func() error {
		_, err := NewMatrix[float64](impl, math.MaxInt32, math.MaxInt32)
		return err
	})
	noPanic("NewMatrixFrom(2³², 2³²)", func() error {
		_, err := NewMatrixFrom(impl, 1<<32, 1<<32, []float64{1})
		return err
	})
	noPanic("NewVector(2⁶¹+1)", func() error { _, err := NewVector[float64](impl, 1<<61+1); return err })
	noPanic("NewHostSlice(2⁶¹+1)", func() error { _, err := NewHostSlice[float64](impl, 1<<61+1); return err })
	noPanic("NewHostSlice(2⁴⁶)", func() error { _, err := NewHostSlice[float32](impl, 1<<46); return err })

	m, err := NewMatrix[float64](impl, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Release()
	for _, v := range [][4]int{
		{math.MaxInt, 0, 1, 1}, {0, math.MaxInt, 1, 1}, {1, 0, math.MaxInt, 1}, {0, 1, 1, math.MaxInt},
		{math.MinInt, 0, 1, 1}, {2, 0, 2, 1}, {0, 0, 3, 3}, {3, 0, 1, 1}, {0, 0, 0, 1},
	} {
		noPanic("Matrix.View", func() error { _, err := m.View(v[0], v[1], v[2], v[3]); return err })
	}
	if mv, err := m.View(2, 1, 1, 1); err != nil || mv.off != 5 {
		t.Errorf("View(2, 1, 1, 1) = %v, %v; want offset 5", mv, err)
	}

	x, err := NewVector[float64](impl, 5)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Release()
	for _, v := range [][3]int{
		{1, 2, math.MaxInt}, {0, 1, math.MaxInt}, {0, 1, 1 << 31}, {math.MaxInt, 1, 1},
		{0, math.MaxInt, 1}, {1, 3, 2}, {5, 1, 1}, {-1, 1, 1}, {0, 2, 0},
	} {
		noPanic("Vector.View", func() error { _, err := x.View(v[0], v[1], v[2]); return err })
	}
	xv, err := x.View(0, 3, 2)
	if err != nil || xv.inc != 2 || xv.n != 3 {
		t.Fatalf("View(0, 3, 2) = %v, %v", xv, err)
	}
	// A view of a view: the increments multiply and must still fit.
	if _, err := xv.View(0, 1, math.MaxInt32); err == nil {
		t.Errorf("a view whose increment is 2·(2³¹−1) was accepted")
	}
	if w, err := xv.View(1, 2, 1); err != nil || w.off != 2 || w.inc != 2 {
		t.Errorf("View(1, 2, 1) of View(0, 3, 2) = %v, %v", w, err)
	}
}

// TestResidentGemmChecks: Gemm checks its arguments as the other resident
// operations do (issue 19, item 4) and a valid no-op returns an event.
func TestResidentGemmChecks(t *testing.T) {
	impl := newTestImpl(t)
	rnd := rand.New(rand.NewPCG(19, 4))
	const n = 6
	a0, b0, c0 := randF64(rnd, n*n), randF64(rnd, n*n), randF64(rnd, n*n)
	mk := func(d []float64) *Matrix[float64] {
		m, err := NewMatrixFrom(impl, n, n, d)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Release() })
		return m
	}
	a, b, c := mk(a0), mk(b0), mk(c0)

	// α = 0, β = 1: nothing to do, but an event all the same.
	ev, err := Gemm(blas.NoTrans, blas.NoTrans, 0, a, b, 1, c)
	if err != nil || ev == nil {
		t.Fatalf("Gemm(α = 0, β = 1) = %v, %v; want an event", ev, err)
	}
	if err := ev.Wait(); err != nil {
		t.Fatal(err)
	}
	got := make([]float64, n*n)
	if err := c.Read(got); err != nil {
		t.Fatal(err)
	}
	checkClose(t, "C after a no-op Gemm", got, c0, 0)

	// A nil operand in each position is an error, not a panic.
	for i := range 3 {
		ops := []*Matrix[float64]{a, b, c}
		ops[i] = nil
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("Gemm with operand %d nil panicked: %v", i, r)
				}
			}()
			if _, err := Gemm(blas.NoTrans, blas.NoTrans, 1, ops[0], ops[1], 0, ops[2]); !errors.Is(err, errNilOperand) {
				t.Errorf("Gemm with operand %d nil: %v, want errNilOperand", i, err)
			}
		}()
	}

	// An invalid transpose, in either place.
	if _, err := Gemm(blas.Transpose('x'), blas.NoTrans, 1, a, b, 0, c); !errors.Is(err, ErrInvalidArg) {
		t.Errorf("tA = 'x': %v, want ErrInvalidArg", err)
	}
	if _, err := Gemm(blas.NoTrans, blas.Transpose('x'), 1, a, b, 0, c); !errors.Is(err, ErrInvalidArg) {
		t.Errorf("tB = 'x': %v, want ErrInvalidArg", err)
	}

	// C aliasing A or B, or overlapping a view of them, is refused.
	for name, f := range map[string]func() error{
		"C = A": func() error { _, err := Gemm(blas.NoTrans, blas.NoTrans, 1, a, b, 0, a); return err },
		"C = B": func() error { _, err := Gemm(blas.NoTrans, blas.NoTrans, 1, a, b, 1, b); return err },
		"C overlaps A": func() error {
			av, _ := a.View(0, 0, 3, 3)
			cv, _ := a.View(2, 2, 3, 3)
			_, err := Gemm(blas.NoTrans, blas.NoTrans, 1, av, av, 0, cv)
			return err
		},
	} {
		if err := f(); !errors.Is(err, ErrOverlap) {
			t.Errorf("%s: %v, want ErrOverlap", name, err)
		}
	}

	// Disjoint views of one matrix are fine: the left half of A times a
	// block of its right half into the right half's other block.
	al, _ := a.View(0, 0, 3, 3)
	ar, _ := a.View(0, 3, 3, 3)
	cr, _ := a.View(3, 3, 3, 3)
	if ev, err := Gemm(blas.NoTrans, blas.NoTrans, 1, al, ar, 0, cr); err != nil {
		t.Fatal(err)
	} else if err := ev.Wait(); err != nil {
		t.Fatal(err)
	}
	want := append([]float64(nil), a0...)
	gonum.Implementation{}.Dgemm(blas.NoTrans, blas.NoTrans, 3, 3, 3, 1, want, n, want[3:], n, 0, want[3*n+3:], n)
	if err := a.Read(got); err != nil {
		t.Fatal(err)
	}
	checkClose(t, "disjoint views of one matrix", got, want, 1e-12)
}

// TestOverlapsExact holds overlaps to a brute-force comparison of the
// element sets of random views of one small storage.
func TestOverlapsExact(t *testing.T) {
	rnd := rand.New(rand.NewPCG(19, 3))
	st := &storage{}
	const size = 60
	draw := func() layout {
		for {
			l := layout{st: st, off: rnd.IntN(size), rows: 1 + rnd.IntN(6), cols: 1 + rnd.IntN(4)}
			l.stride = l.cols + rnd.IntN(5)
			if rnd.IntN(3) == 0 { // a vector
				l.cols, l.stride = 1, 1+rnd.IntN(7)
			}
			if l.last() < size {
				return l
			}
		}
	}
	elems := func(l layout) map[int]bool {
		s := map[int]bool{}
		for r := range l.rows {
			for c := range l.cols {
				s[l.off+r*l.stride+c] = true
			}
		}
		return s
	}
	for range 20000 {
		a, b := draw(), draw()
		want := false
		eb := elems(b)
		for e := range elems(a) {
			want = want || eb[e]
		}
		if got := overlaps(a, b); got != want {
			t.Fatalf("overlaps(%+v, %+v) = %v, want %v", a, b, got, want)
		}
	}
	if overlaps(layout{st: st, rows: 1, cols: 1, stride: 1}, layout{st: &storage{}, rows: 1, cols: 1, stride: 1}) {
		t.Error("views of different storages overlap")
	}
}

// TestResidentOverlapRefused: level 2 outputs may not share elements with
// their inputs, level 1 pairs only as the very same view.
func TestResidentOverlapRefused(t *testing.T) {
	impl := newTestImpl(t)
	a, err := NewMatrix[float64](impl, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	row0, _ := a.Row(0)
	row1, _ := a.Row(1)
	col0, _ := a.Col(0)
	col1, _ := a.Col(1)
	sub, _ := a.View(0, 0, 4, 4)
	for name, f := range map[string]func() (*Event, error){
		"Gemv y = row of A": func() (*Event, error) { return Gemv(blas.NoTrans, 1, sub, col1, 0, row0) },
		"Gemv y = x":        func() (*Event, error) { return Gemv(blas.NoTrans, 1, sub, row0, 0, row0) },
		"Trsv x = col of A": func() (*Event, error) { return Trsv(blas.Upper, blas.NoTrans, blas.NonUnit, sub, col0) },
		"Ger A ∋ x":         func() (*Event, error) { return Ger(1, row0, row1, sub) },
		"Axpy row0, col0":   func() (*Event, error) { return Axpy(1, row0, col0) },
		"Copy x shifted":    func() (*Event, error) { x, _ := row0.View(0, 3, 1); y, _ := row0.View(1, 3, 1); return Copy(x, y) },
	} {
		if _, err := f(); !errors.Is(err, ErrOverlap) {
			t.Errorf("%s: %v, want ErrOverlap", name, err)
		}
	}
	// The same view, and interleaved views that share nothing, are fine.
	b, err := NewMatrixFrom(impl, 4, 4, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	bc0, _ := b.Col(0)
	bc1, _ := b.Col(1)
	if _, err := Axpy(1, bc0, bc0); err != nil {
		t.Fatalf("Axpy(x, x): %v", err)
	}
	if _, err := Axpy(1, bc0, bc1); err != nil {
		t.Fatalf("Axpy of two columns: %v", err)
	}
	got := make([]float64, 16)
	if err := b.Read(got); err != nil {
		t.Fatal(err)
	}
	want := []float64{2, 4, 3, 4, 10, 16, 7, 8, 18, 28, 11, 12, 26, 40, 15, 16}
	checkClose(t, "Axpy(x, x) then Axpy(x, y) on columns", got, want, 0)
}

// TestResidentNoOpsReturnEvents: every valid call that has nothing to do
// (α = 0 and β = 1) still returns an event, which completes without error,
// and leaves the output as it was.
func TestResidentNoOpsReturnEvents(t *testing.T) {
	impl := newTestImpl(t)
	const n = 5
	rnd := rand.New(rand.NewPCG(19, 8))
	c0 := randF64(rnd, n*n)
	a, err := NewMatrixFrom(impl, n, n, randF64(rnd, n*n))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	c, err := NewMatrixFrom(impl, n, n, c0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	x, err := NewVectorFrom(impl, randF64(rnd, n))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Release()
	y, err := NewVectorFrom(impl, c0[:n])
	if err != nil {
		t.Fatal(err)
	}
	defer y.Release()
	for name, f := range map[string]func() (*Event, error){
		"Gemm":  func() (*Event, error) { return Gemm(blas.NoTrans, blas.Trans, 0, a, a, 1, c) },
		"Symm":  func() (*Event, error) { return Symm(blas.Left, blas.Upper, 0, a, a, 1, c) },
		"Syrk":  func() (*Event, error) { return Syrk(blas.Lower, blas.NoTrans, 0, a, 1, c) },
		"Syr2k": func() (*Event, error) { return Syr2k(blas.Upper, blas.Trans, 0, a, a, 1, c) },
		"Gemv":  func() (*Event, error) { return Gemv(blas.NoTrans, 0, a, x, 1, y) },
		"Rotm":  func() (*Event, error) { return Rotm(x, y, blas.Identity, [4]float64{}) },
	} {
		ev, err := f()
		if err != nil || ev == nil {
			t.Errorf("%s no-op: %v, %v; want an event", name, ev, err)
			continue
		}
		if err := ev.Wait(); err != nil {
			t.Errorf("%s no-op: Wait: %v", name, err)
		}
	}
	got := make([]float64, n*n)
	if err := c.Read(got); err != nil {
		t.Fatal(err)
	}
	checkClose(t, "C after no-ops", got, c0, 0)
	if err := y.Read(got[:n]); err != nil {
		t.Fatal(err)
	}
	checkClose(t, "y after no-ops", got[:n], c0[:n], 0)
}
