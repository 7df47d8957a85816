package clblas

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// FuzzResident calls one device-resident operation on views drawn from the
// fuzzer's bytes: sub-matrices at any offset of two small matrices, rows,
// columns and strided views of them, often of the same storage and
// sharing elements. An operation whose output shares elements with an
// input must fail with ErrOverlap (level 1 allows the very same view);
// any other must leave both storages, every element of them, as gonum does
// on host copies laid out alike, so a write outside the output is caught
// too. Data are finite: the resident API follows IEEE arithmetic where
// gonum skips zero multipliers (TestResidentGemmIEEE).
func FuzzResident(f *testing.F) {
	// The seeds are testdata/fuzz/FuzzResident/seed-NN-<op>-*, NN being
	// the operation's index in residentFuzzOps.
	f.Fuzz(func(t *testing.T, op uint8, single bool, data []byte) {
		impl := newTestImpl(t)
		rnd := newFuzzRand(data)
		if single {
			residentFuzz[float32](t, impl, rnd, int(op)%len(residentFuzzOps))
		} else {
			residentFuzz[float64](t, impl, rnd, int(op)%len(residentFuzzOps))
		}
	})
}

// residentFuzzOps names the operations FuzzResident draws from.
var residentFuzzOps = []string{"Gemm", "Symm", "Syrk", "Syr2k", "Trmm", "Trsm", "Gemv", "Symv", "Trsv", "Ger", "Axpy", "Copy", "Swap", "Scal", "Dot"}

// fuzzStore is one device matrix and its host copy.
type fuzzStore[T float32 | float64] struct {
	m          *Matrix[T]
	h          []T
	rows, cols int
}

// fuzzView is a view with its layout in its store's host copy.
type fuzzView[T float32 | float64] struct {
	s  *fuzzStore[T]
	m  *Matrix[T]
	v  *Vector[T]
	lo layout
}

// host is the view's host slice (from its first element) and its leading
// dimension or increment.
func (v fuzzView[T]) host() ([]T, int) { return v.s.h[v.lo.off:], v.lo.stride }

// elems is the set of storage elements the view covers.
func (v fuzzView[T]) elems() map[int]bool {
	e := map[int]bool{}
	for r := range v.lo.rows {
		for c := range v.lo.cols {
			e[v.lo.off+r*v.lo.stride+c] = true
		}
	}
	return e
}

// shares reports, by brute force, whether two views share an element.
func shares[T float32 | float64](a, b fuzzView[T]) bool {
	if a.s != b.s {
		return false
	}
	eb := b.elems()
	for e := range a.elems() {
		if eb[e] {
			return true
		}
	}
	return false
}

type residentGen[T float32 | float64] struct {
	t      *testing.T
	rnd    *rand.Rand
	stores []*fuzzStore[T]
}

// mat draws an r×c view of one of the stores, or reports false.
func (g *residentGen[T]) mat(r, c int) (fuzzView[T], bool) {
	s := g.stores[g.rnd.IntN(len(g.stores))]
	if r > s.rows || c > s.cols {
		return fuzzView[T]{}, false
	}
	i, j := g.rnd.IntN(s.rows-r+1), g.rnd.IntN(s.cols-c+1)
	m, err := s.m.View(i, j, r, c)
	if err != nil {
		g.t.Fatalf("View(%d, %d, %d, %d) of %d×%d: %v", i, j, r, c, s.rows, s.cols, err)
	}
	return fuzzView[T]{s: s, m: m, lo: m.layout()}, true
}

// vec draws a vector view of n elements: part of a row or a column of one
// of the stores, with an increment, or reports false.
func (g *residentGen[T]) vec(n int) (fuzzView[T], bool) {
	s := g.stores[g.rnd.IntN(len(g.stores))]
	var base *Vector[T]
	var err error
	if g.rnd.IntN(2) == 0 {
		base, err = s.m.Row(g.rnd.IntN(s.rows))
	} else {
		base, err = s.m.Col(g.rnd.IntN(s.cols))
	}
	if err != nil {
		g.t.Fatal(err)
	}
	inc := 1 + g.rnd.IntN(2)
	if (n-1)*inc >= base.n {
		return fuzzView[T]{}, false
	}
	off := g.rnd.IntN(base.n - (n-1)*inc)
	v, err := base.View(off, n, inc)
	if err != nil {
		g.t.Fatalf("View(%d, %d, %d) of %d: %v", off, n, inc, base.n, err)
	}
	return fuzzView[T]{s: s, v: v, lo: v.layout()}, true
}

func (g *residentGen[T]) dim() int { return 1 + g.rnd.IntN(6) }

func (g *residentGen[T]) scalar() T {
	return []T{0, 1, -1, 0.5, T(g.rnd.Float64()*2 - 1)}[g.rnd.IntN(5)]
}

func (g *residentGen[T]) trans() blas.Transpose {
	return []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans}[g.rnd.IntN(3)]
}

func (g *residentGen[T]) uplo() blas.Uplo {
	return []blas.Uplo{blas.Upper, blas.Lower}[g.rnd.IntN(2)]
}

func (g *residentGen[T]) side() blas.Side {
	return []blas.Side{blas.Left, blas.Right}[g.rnd.IntN(2)]
}

func (g *residentGen[T]) diag() blas.Diag {
	return []blas.Diag{blas.NonUnit, blas.Unit}[g.rnd.IntN(2)]
}

// wellConditioned makes the square view a's diagonal large, in the host
// copy, so that triangular solves stay accurate.
func wellConditioned[T float32 | float64](a fuzzView[T]) {
	for i := range a.lo.rows {
		a.s.h[a.lo.off+i*a.lo.stride+i] = 4
	}
}

// residentCall is one drawn operation: run enqueues it on the device,
// ref applies gonum to the host copies (method name and arguments),
// overlap says whether it must be refused.
type residentCall struct {
	run     func() (*Event, error)
	method  string
	args    []any
	overlap bool
	dot     func() (any, error) // Dot: the device's value
}

func prefix[T float32 | float64]() string {
	var z T
	if _, ok := any(z).(float32); ok {
		return "S"
	}
	return "D"
}

// residentFuzz draws and checks one call of operation op.
func residentFuzz[T float32 | float64](t *testing.T, impl *Implementation, rnd *rand.Rand, op int) {
	g := &residentGen[T]{t: t, rnd: rnd}
	for range 1 + rnd.IntN(2) {
		s := &fuzzStore[T]{rows: 1 + rnd.IntN(9), cols: 1 + rnd.IntN(9)}
		s.h = make([]T, s.rows*s.cols)
		for i := range s.h {
			s.h[i] = T(rnd.Float64()*2 - 1)
		}
		m, err := NewMatrix[T](impl, s.rows, s.cols)
		if err != nil {
			t.Fatal(err)
		}
		defer m.Release()
		s.m = m
		g.stores = append(g.stores, s)
	}
	c, ok := drawResident(g, residentFuzzOps[op])
	if !ok {
		return // the stores are too small for the shapes drawn
	}
	// The data go up once drawing is done (it may set diagonals).
	for _, s := range g.stores {
		ev, err := s.m.Write(s.h)
		if err == nil {
			err = ev.Wait()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	where := fmt.Sprintf("%s%s%s", prefix[T](), residentFuzzOps[op], shortArgs(c.args))
	var devDot any
	var err error
	if c.dot != nil {
		devDot, err = c.dot()
	} else {
		var ev *Event
		if ev, err = c.run(); err == nil {
			err = ev.Wait()
		}
	}
	if c.overlap {
		if !errors.Is(err, ErrOverlap) {
			t.Fatalf("%s: output shares elements with an input: %v, want ErrOverlap", where, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	ref := fuzzReference(t)
	want, err := callMethod(ref, prefix[T]()+strings.ToLower(c.method), c.args)
	if err != nil {
		t.Fatalf("%s: gonum: %v", where, err)
	}
	tol := 1e-9
	if prefix[T]() == "S" {
		tol = 1e-3
	}
	if c.dot != nil && !closeScalar(devDot, want[0].Interface(), tol) {
		t.Errorf("%s = %v, gonum %v", where, devDot, want[0].Interface())
	}
	for si, s := range g.stores {
		got := make([]T, len(s.h))
		if err := s.m.Read(got); err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if !closeScalar(float64(got[i]), float64(s.h[i]), tol) {
				t.Fatalf("%s: store %d element %d (row %d, col %d) = %v, gonum %v", where, si, i, i/s.cols, i%s.cols, got[i], s.h[i])
			}
		}
	}
}

// drawResident draws the views and scalars of one call of op; false when
// the stores are too small for the shapes drawn.
func drawResident[T float32 | float64](g *residentGen[T], op string) (residentCall, bool) {
	var c residentCall
	c.method = op
	mats := func(shapes ...[2]int) ([]fuzzView[T], bool) {
		var vs []fuzzView[T]
		for _, sh := range shapes {
			v, ok := g.mat(sh[0], sh[1])
			if !ok {
				return nil, false
			}
			vs = append(vs, v)
		}
		return vs, true
	}
	any2 := func(vs ...fuzzView[T]) bool {
		for _, v := range vs[1:] {
			if shares(vs[0], v) {
				return true
			}
		}
		return false
	}
	h := func(v fuzzView[T]) ([]T, int) { return v.host() }
	switch op {
	case "Gemm":
		tA, tB := g.trans(), g.trans()
		m, n, k := g.dim(), g.dim(), g.dim()
		ar, ac := storedDims(tA, m, k)
		br, bc := storedDims(tB, k, n)
		vs, ok := mats([2]int{ar, ac}, [2]int{br, bc}, [2]int{m, n})
		if !ok {
			return c, false
		}
		a, b, cc := vs[0], vs[1], vs[2]
		alpha, beta := g.scalar(), g.scalar()
		c.run = func() (*Event, error) { return Gemm(tA, tB, alpha, a.m, b.m, beta, cc.m) }
		ha, lda := h(a)
		hb, ldb := h(b)
		hc, ldc := h(cc)
		c.args = []any{tA, tB, m, n, k, alpha, ha, lda, hb, ldb, beta, hc, ldc}
		c.overlap = any2(cc, a, b)
	case "Symm":
		s, ul := g.side(), g.uplo()
		m, n := g.dim(), g.dim()
		k := n
		if s == blas.Left {
			k = m
		}
		vs, ok := mats([2]int{k, k}, [2]int{m, n}, [2]int{m, n})
		if !ok {
			return c, false
		}
		a, b, cc := vs[0], vs[1], vs[2]
		alpha, beta := g.scalar(), g.scalar()
		c.run = func() (*Event, error) { return Symm(s, ul, alpha, a.m, b.m, beta, cc.m) }
		ha, lda := h(a)
		hb, ldb := h(b)
		hc, ldc := h(cc)
		c.args = []any{s, ul, m, n, alpha, ha, lda, hb, ldb, beta, hc, ldc}
		c.overlap = any2(cc, a, b)
	case "Syrk", "Syr2k":
		ul, tr := g.uplo(), g.trans()
		n, k := g.dim(), g.dim()
		ar, ac := storedDims(tr, n, k)
		vs, ok := mats([2]int{ar, ac}, [2]int{ar, ac}, [2]int{n, n})
		if !ok {
			return c, false
		}
		a, b, cc := vs[0], vs[1], vs[2]
		alpha, beta := g.scalar(), g.scalar()
		ha, lda := h(a)
		hb, ldb := h(b)
		hc, ldc := h(cc)
		if op == "Syrk" {
			c.run = func() (*Event, error) { return Syrk(ul, tr, alpha, a.m, beta, cc.m) }
			c.args = []any{ul, tr, n, k, alpha, ha, lda, beta, hc, ldc}
			c.overlap = any2(cc, a)
		} else {
			c.run = func() (*Event, error) { return Syr2k(ul, tr, alpha, a.m, b.m, beta, cc.m) }
			c.args = []any{ul, tr, n, k, alpha, ha, lda, hb, ldb, beta, hc, ldc}
			c.overlap = any2(cc, a, b)
		}
	case "Trmm", "Trsm":
		s, ul, tA, d := g.side(), g.uplo(), g.trans(), g.diag()
		m, n := g.dim(), g.dim()
		k := n
		if s == blas.Left {
			k = m
		}
		vs, ok := mats([2]int{k, k}, [2]int{m, n})
		if !ok {
			return c, false
		}
		a, b := vs[0], vs[1]
		alpha := g.scalar()
		c.overlap = any2(b, a)
		if !c.overlap {
			wellConditioned(a)
		}
		if op == "Trmm" {
			c.run = func() (*Event, error) { return Trmm(s, ul, tA, d, alpha, a.m, b.m) }
		} else {
			c.run = func() (*Event, error) { return Trsm(s, ul, tA, d, alpha, a.m, b.m) }
		}
		ha, lda := h(a)
		hb, ldb := h(b)
		c.args = []any{s, ul, tA, d, m, n, alpha, ha, lda, hb, ldb}
	case "Gemv", "Symv":
		tA, ul := g.trans(), g.uplo()
		m, n := g.dim(), g.dim()
		if op == "Symv" {
			m = n
		}
		a, ok1 := g.mat(m, n)
		nx, ny := n, m
		if tA != blas.NoTrans && op == "Gemv" {
			nx, ny = m, n
		}
		x, ok2 := g.vec(nx)
		y, ok3 := g.vec(ny)
		if !ok1 || !ok2 || !ok3 {
			return c, false
		}
		alpha, beta := g.scalar(), g.scalar()
		ha, lda := h(a)
		hx, incX := h(x)
		hy, incY := h(y)
		if op == "Gemv" {
			c.run = func() (*Event, error) { return Gemv(tA, alpha, a.m, x.v, beta, y.v) }
			c.args = []any{tA, m, n, alpha, ha, lda, hx, incX, beta, hy, incY}
		} else {
			c.run = func() (*Event, error) { return Symv(ul, alpha, a.m, x.v, beta, y.v) }
			c.args = []any{ul, n, alpha, ha, lda, hx, incX, beta, hy, incY}
		}
		c.overlap = any2(y, a, x)
	case "Trsv":
		ul, tA, d := g.uplo(), g.trans(), g.diag()
		n := g.dim()
		a, ok1 := g.mat(n, n)
		x, ok2 := g.vec(n)
		if !ok1 || !ok2 {
			return c, false
		}
		c.overlap = any2(x, a)
		if !c.overlap {
			wellConditioned(a)
		}
		c.run = func() (*Event, error) { return Trsv(ul, tA, d, a.m, x.v) }
		ha, lda := h(a)
		hx, incX := h(x)
		c.args = []any{ul, tA, d, n, ha, lda, hx, incX}
	case "Ger":
		m, n := g.dim(), g.dim()
		a, ok1 := g.mat(m, n)
		x, ok2 := g.vec(m)
		y, ok3 := g.vec(n)
		if !ok1 || !ok2 || !ok3 {
			return c, false
		}
		alpha := g.scalar()
		c.run = func() (*Event, error) { return Ger(alpha, x.v, y.v, a.m) }
		ha, lda := h(a)
		hx, incX := h(x)
		hy, incY := h(y)
		c.args = []any{m, n, alpha, hx, incX, hy, incY, ha, lda}
		c.overlap = any2(a, x, y)
	case "Axpy", "Copy", "Swap", "Scal", "Dot":
		n := g.dim()
		x, ok1 := g.vec(n)
		y, ok2 := g.vec(n)
		if g.rnd.IntN(4) == 0 {
			y = x // the very same view
		}
		if !ok1 || !ok2 {
			return c, false
		}
		alpha := g.scalar()
		hx, incX := h(x)
		hy, incY := h(y)
		same := x.s == y.s && x.lo.off == y.lo.off && (x.lo.stride == y.lo.stride || n == 1)
		c.overlap = !same && shares(x, y)
		switch op {
		case "Axpy":
			c.run = func() (*Event, error) { return Axpy(alpha, x.v, y.v) }
			c.args = []any{n, alpha, hx, incX, hy, incY}
		case "Copy":
			c.run = func() (*Event, error) { return Copy(x.v, y.v) }
			c.args = []any{n, hx, incX, hy, incY}
		case "Swap":
			c.run = func() (*Event, error) { return Swap(x.v, y.v) }
			c.args = []any{n, hx, incX, hy, incY}
		case "Scal":
			c.run = func() (*Event, error) { return Scal(alpha, x.v) }
			c.args = []any{n, alpha, hx, incX}
			c.overlap = false
		case "Dot":
			c.dot = func() (any, error) {
				s, err := Dot(x.v, y.v)
				if err != nil {
					return nil, err
				}
				return s.Value(context.Background())
			}
			c.args = []any{n, hx, incX, hy, incY}
			c.overlap = false
		}
	}
	return c, true
}
