package clblas

import (
	eng "github.com/gocompute/opencl/internal/engine"

	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// The level-2 device routines against gonum's Go code, in both precisions,
// through the front end (TestLevel2Device*) and by calling the device
// methods directly (TestLevel2Direct*). Every call reaches the device: the
// cases the front end answers itself (alpha == 0 with beta == 1, alpha == 0
// in the rank updates) are left out, and each routine's launch counter must
// grow by at least the number of calls, so a silent CPU fallback fails.

var l2Routines = []string{"gemv", "gbmv", "trmv", "tbmv", "tpmv", "trsv", "tbsv", "tpsv",
	"symv", "sbmv", "spmv", "ger", "syr", "spr", "syr2", "spr2"}

func TestLevel2Device64(t *testing.T) {
	impl := newTestImpl(t)
	l2skipNoFP64(t)
	l2test(t, testEngine(t), "D", l2ops64(impl), l2ops64(gonum.Implementation{}), 1e-12, false)
}

func TestLevel2Device32(t *testing.T) {
	impl := newTestImpl(t)
	l2test(t, testEngine(t), "S", l2ops32(impl), l2ops32(gonum.Implementation{}), 1e-4, false)
}

// TestLevel2Portable runs the level 2 suite on the general kernels, which
// GPUs take, with the CPU-device kernels turned off: on PoCL they would
// otherwise go untested.
func TestLevel2Portable(t *testing.T) {
	impl, e := privateImpl(t, nil)
	gpuKernels(e)
	if d, ok := openclDevice[float64](impl); ok {
		gpuKernels(d.E)
		t.Run("float64", func(t *testing.T) {
			l2test(t, d.E, "D", l2ops64(impl), l2ops64(gonum.Implementation{}), 1e-12, false)
		})
	}
	t.Run("float32", func(t *testing.T) {
		l2test(t, e, "S", l2ops32(impl), l2ops32(gonum.Implementation{}), 1e-4, false)
	})
}

// TestLevel2RowsCPU runs the level 2 suite on a CPU device with its row
// kernels (band_rows, sym_rows, the flow solves' gather) taking four rows
// a pass and eight: the device's own choice runs in the other tests, the
// one it does not make only here.
func TestLevel2RowsCPU(t *testing.T) {
	impl, e := privateImpl(t, nil)
	if !e.Prof.IsCPU() {
		t.Skipf("the row kernels are CPU devices'; %s is not one", e.Prof.Name)
	}
	defer func() { e.RowsCPU = 0 }()
	for _, rows := range []int{4, 8} {
		e.RowsCPU = rows
		t.Run(fmt.Sprintf("rows=%d", rows), func(t *testing.T) {
			if _, ok := openclDevice[float64](impl); ok {
				l2test(t, e, "D", l2ops64(impl), l2ops64(gonum.Implementation{}), 1e-12, false)
				symContiguous(t, e, "D", l2ops64(impl), l2ops64(gonum.Implementation{}), 1e-12)
			}
			l2test(t, e, "S", l2ops32(impl), l2ops32(gonum.Implementation{}), 1e-4, false)
			symContiguous(t, e, "S", l2ops32(impl), l2ops32(gonum.Implementation{}), 1e-4)
		})
	}
}

// symContiguous checks symv, spmv and sbmv with a contiguous x, where the
// CPU devices' sym_rows takes rows a pass (in l2test's cases x is
// contiguous too rarely), at orders whose row blocks end in passes of
// eight and four rows and in single rows; each must run on the device.
func symContiguous[T float32 | float64](t *testing.T, e *eng.Engine, prefix string, got, want l2ops[T], tol float64) {
	c := &l2run[T]{t: t, got: got, want: want, prefix: prefix, tol: tol,
		r: rand.New(rand.NewPCG(3, uint64(len(prefix)))), calls: map[string]int{}}
	before := map[string]int64{}
	for _, r := range []string{"symv", "spmv", "sbmv"} {
		before[prefix+r] = e.Launched.Of(prefix + r)
	}
	for _, ul := range l2uplos {
		for _, n := range []int{12, 45, 130, 301} {
			for _, name := range []string{"symv", "spmv", "sbmv"} {
				alpha, beta := c.nextAB()
				if alpha == 0 {
					alpha = 0.75
				}
				s := l2store{upper: ul == blas.Upper, n: n, k: n - 1, storage: eng.L2Dense, lda: n + c.ab%3}
				switch name {
				case "spmv":
					s.storage, s.lda = eng.L2Packed, 0
				case "sbmv":
					s.storage, s.k = eng.L2Band, min(n-1, 40)
					s.lda = s.k + 1 + c.ab%2
				}
				a := c.fill(s, false, false)
				incY := []int{1, -2}[c.ab%2]
				x, y := c.strided(n, 1), c.strided(n, incY)
				if beta == 0 {
					fillNaN(y)
				}
				desc := fmt.Sprintf("ul=%c n=%d k=%d lda=%d incY=%d alpha=%v beta=%v", ul, n, s.k, s.lda, incY, alpha, beta)
				c.check(name, desc, y, func(o l2ops[T], y []T) {
					switch name {
					case "symv":
						o.symv(ul, n, alpha, a, s.lda, x, 1, beta, y, incY)
					case "sbmv":
						o.sbmv(ul, n, s.k, alpha, a, s.lda, x, 1, beta, y, incY)
					default:
						o.spmv(ul, n, alpha, a, x, 1, beta, y, incY)
					}
				})
			}
		}
	}
	for name, b := range before {
		if d := e.Launched.Of(name) - b; d < int64(c.calls[name]) {
			t.Errorf("%s: %d of %d calls ran on the device", name, d, c.calls[name])
		}
	}
}

func TestLevel2Direct64(t *testing.T) {
	e := testEngine(t)
	l2skipNoFP64(t)
	l2test(t, e, "D", l2direct64(t, eng.Device[float64]{E: e}), l2ops64(gonum.Implementation{}), 1e-12, true)
}

func TestLevel2Direct32(t *testing.T) {
	e := testEngine(t)
	l2test(t, e, "S", l2direct32(t, eng.Device[float32]{E: e}), l2ops32(gonum.Implementation{}), 1e-4, true)
}

// TestLevel2FailureLeavesOutput injects a failure into the last step of a
// device call (the read back) on a private engine and checks that every
// level-2 device method reports it and leaves its output alone.
func TestLevel2FailureLeavesOutput(t *testing.T) {
	newTestImpl(t) // skips without a device
	impl, err := New(WithOffload(Always))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	defer impl.Close()
	e := impl.eng
	fail := func(site string) error {
		if site == "read" {
			return errL2Injected
		}
		return nil
	}
	e.Fault.Store(&fail)
	dev := eng.Device[float32]{E: e}
	var errs []error
	rec := func(err error) { errs = append(errs, err) }
	failing := l2ops[float32]{
		gemv: func(tA blas.Transpose, m, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) {
			rec(dev.Gemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY))
		},
		trmv: func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float32, lda int, x []float32, incX int) {
			rec(dev.Trmv(ul, tA, d, n, a, lda, x, incX))
		},
		tpsv: func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float32, x []float32, incX int) {
			rec(dev.Tpsv(ul, tA, d, n, ap, x, incX))
		},
		syr2: func(ul blas.Uplo, n int, alpha float32, x []float32, incX int, y []float32, incY int, a []float32, lda int) {
			rec(dev.Syr2(ul, n, alpha, x, incX, y, incY, a, lda))
		},
		spr: func(ul blas.Uplo, n int, alpha float32, x []float32, incX int, ap []float32) {
			rec(dev.Spr(ul, n, alpha, x, incX, ap))
		},
	}
	r := rand.New(rand.NewPCG(7, 8))
	const n = 9
	a := l2vec[float32](r, n*n)
	ap := l2vec[float32](r, n*(n+1)/2)
	x, y := l2vec[float32](r, n), l2vec[float32](r, n)
	run := func(name string, out []float32, f func(out []float32)) {
		orig := slices.Clone(out)
		f(out)
		if !slices.Equal(out, orig) {
			t.Errorf("%s modified its output after a failure", name)
		}
	}
	run("Sgemv", slices.Clone(y), func(o []float32) { failing.gemv(blas.Trans, n, n, 2, a, n, x, 1, 1, o, 1) })
	run("Strmv", slices.Clone(x), func(o []float32) { failing.trmv(blas.Upper, blas.NoTrans, blas.NonUnit, n, a, n, o, 1) })
	run("Stpsv", slices.Clone(x), func(o []float32) { failing.tpsv(blas.Lower, blas.Trans, blas.Unit, n, ap, o, -1) })
	run("Ssyr2", slices.Clone(a), func(o []float32) { failing.syr2(blas.Upper, n, 2, x, 1, y, 1, o, n) })
	run("Sspr", slices.Clone(ap), func(o []float32) { failing.spr(blas.Lower, n, 2, x, 1, o) })
	if len(errs) != 5 {
		t.Fatalf("%d calls, want 5", len(errs))
	}
	for i, err := range errs {
		if !errors.Is(err, errL2Injected) {
			t.Errorf("call %d: error %v, want the injected failure", i, err)
		}
	}
}

// errL2Injected is the failure TestLevel2FailureLeavesOutput injects.
var errL2Injected = errors.New("injected level 2 failure")

func l2skipNoFP64(t *testing.T) {
	if !testEngine(t).Prof.FP64 {
		t.Skip("the device has no float64 support")
	}
}

// l2test runs the level-2 cases with got and want and checks that every
// routine's device counter grew by at least the number of its calls.
func l2test[T float32 | float64](t *testing.T, e *eng.Engine, prefix string, got, want l2ops[T], tol float64, quick bool) {
	before := map[string]int64{}
	for _, r := range l2Routines {
		before[prefix+r] = e.Launched.Of(prefix + r)
	}
	c := &l2run[T]{t: t, got: got, want: want, prefix: prefix, tol: tol, quick: quick,
		r: rand.New(rand.NewPCG(1, uint64(len(prefix)))), calls: map[string]int{}}
	// gonum v0.17.0's amd64 Ger is wrong for negative increments
	// (gonum/gonum#2105); the front end's portable loop is the reference.
	gonumGer := want.ger
	c.want.ger = func(m, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int) {
		if incX < 0 || incY < 0 {
			l2ger(m, n, alpha, x, incX, y, incY, a, lda)
			return
		}
		gonumGer(m, n, alpha, x, incX, y, incY, a, lda)
	}
	c.mv()
	c.tri()
	c.rank()
	t.Logf("calls: %v", c.calls)
	for _, r := range l2Routines {
		name := prefix + r
		if c.calls[name] == 0 {
			t.Errorf("%s: no calls", name)
		}
		if d := e.Launched.Of(name) - before[name]; d < int64(c.calls[name]) {
			t.Errorf("%s: %d of %d calls ran on the device", name, d, c.calls[name])
		}
	}
}

// l2run holds the state of one l2test.
type l2run[T float32 | float64] struct {
	t         *testing.T
	got, want l2ops[T]
	prefix    string
	tol       float64
	quick     bool // fewer sizes (the direct calls)
	r         *rand.Rand
	calls     map[string]int
	inc       int
	ab        int
}

var (
	l2incs = []int{1, -1, 3, -3, 2, -2}
	// l2alphaBeta are (alpha, beta) pairs; (0, 1) is the front end's quick
	// return and never reaches the device.
	l2alphaBeta = [][2]float64{{0, 0}, {0, -1.5}, {1, 0}, {1, 1}, {-0.7, 0}, {-0.7, 1}, {0.6, -1.3}}
	l2uplos     = []blas.Uplo{blas.Upper, blas.Lower}
	l2trans     = []blas.Transpose{blas.NoTrans, blas.Trans}
	l2diags     = []blas.Diag{blas.NonUnit, blas.Unit}
)

func (c *l2run[T]) nextInc() int {
	c.inc++
	return l2incs[c.inc%len(l2incs)]
}

func (c *l2run[T]) nextAB() (T, T) {
	c.ab++
	p := l2alphaBeta[c.ab%len(l2alphaBeta)]
	return T(p[0]), T(p[1])
}

func (c *l2run[T]) sizes(s ...int) []int {
	if c.quick {
		return s[:min(len(s), 2)]
	}
	return s
}

func l2vec[T float32 | float64](r *rand.Rand, n int) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = T(2*r.Float64() - 1)
	}
	return s
}

var l2nan = math.NaN()

// strided returns a vector of n random elements with increment inc; the
// gaps are NaN (they must not be read, and must survive).
func (c *l2run[T]) strided(n, inc int) []T {
	if inc < 0 {
		inc = -inc
	}
	s := make([]T, (n-1)*inc+1)
	for i := range s {
		s[i] = T(l2nan)
		if i%inc == 0 {
			s[i] = T(2*c.r.Float64() - 1)
		}
	}
	return s
}

// check runs f with want and got on copies of out and compares them.
func (c *l2run[T]) check(name, desc string, out []T, f func(o l2ops[T], out []T)) {
	c.t.Helper()
	got, want := slices.Clone(out), slices.Clone(out)
	f(c.want, want)
	f(c.got, got)
	c.calls[c.prefix+name]++
	for i := range want {
		if !l2same(float64(got[i]), float64(want[i]), c.tol) {
			c.t.Errorf("%s%s %s: element %d = %v, want %v", c.prefix, name, desc, i, got[i], want[i])
			return
		}
	}
}

// l2ger is A += (alpha·x(i))·y(j), element by element (gonum's portable
// Go loop).
func l2ger[T float32 | float64](m, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int) {
	at := func(i, n, inc int) int {
		if inc < 0 {
			return (n - 1 - i) * -inc
		}
		return i * inc
	}
	for i := 0; i < m; i++ {
		t := alpha * x[at(i, m, incX)]
		for j := 0; j < n; j++ {
			a[i*lda+j] += t * y[at(j, n, incY)]
		}
	}
}

func l2same(g, w, tol float64) bool {
	switch {
	case math.IsNaN(w):
		return math.IsNaN(g)
	case math.IsInf(w, 0):
		return g == w
	}
	return math.Abs(g-w) <= tol*math.Max(1, math.Abs(w))
}

// dense returns a rows×cols matrix with leading dimension ld; the padding
// is NaN.
func (c *l2run[T]) dense(rows, cols, ld int) []T {
	a := make([]T, (rows-1)*ld+cols)
	for i := range a {
		a[i] = T(l2nan)
		if i%ld < cols {
			a[i] = T(2*c.r.Float64() - 1)
		}
	}
	return a
}

// l2store describes the storage of a triangular or symmetric matrix: element
// (i, j) of the stored triangle is at index(i, j); outside the stored
// band entries are NaN (they must not be read).
type l2store struct {
	upper     bool
	n, k, lda int
	storage   int // l2Dense, l2Band, l2Packed
}

func (s l2store) len() int {
	switch s.storage {
	case eng.L2Packed:
		return s.n * (s.n + 1) / 2
	case eng.L2Band:
		return s.lda*(s.n-1) + s.k + 1
	}
	return s.lda*(s.n-1) + s.n
}

func (s l2store) index(i, j int) int {
	return int(l2triIndex(s.storage, s.upper, s.n, s.k, s.lda, i, j))
}

// l2triIndex is the test's own statement of gonum's storage formulas.
func l2triIndex(storage int, upper bool, n, k, lda, i, j int) int {
	switch storage {
	case eng.L2Packed:
		if upper {
			return i*n - i*(i-1)/2 + j - i
		}
		return i*(i+1)/2 + j
	case eng.L2Band:
		if upper {
			return i*lda + j - i
		}
		return i*lda + j - i + k
	}
	return i*lda + j
}

// fill returns the storage of a random triangle: NaN everywhere but the
// stored band; the diagonal is NaN for a unit diagonal and dominant
// (±(1+k)) when dominant is set. A unit triangle that is to be dominant
// has its other elements divided by 1+k instead: with elements in [-1, 1]
// a unit triangle of order 130 is so ill-conditioned that its solution
// grows to about 10⁴ and its float32 digits depend on the order of the
// sums (the H200's blocked TRSV and gonum's loop differed by 1.5e-4).
func (c *l2run[T]) fill(s l2store, unit, dominant bool) []T {
	a := make([]T, s.len())
	for i := range a {
		a[i] = T(l2nan)
	}
	for i := 0; i < s.n; i++ {
		lo, hi := max(0, i-s.k), i
		if s.upper {
			lo, hi = i, min(s.n-1, i+s.k)
		}
		for j := lo; j <= hi; j++ {
			v := T(2*c.r.Float64() - 1)
			if unit && dominant && i != j {
				v /= T(1 + min(s.k, s.n-1))
			}
			if i == j {
				switch {
				case unit:
					v = T(l2nan)
				case dominant:
					v = T(1 + min(s.k, s.n-1))
					if c.r.IntN(2) == 0 {
						v = -v
					}
				}
			}
			a[s.index(i, j)] = v
		}
	}
	return a
}

func (c *l2run[T]) mv() {
	// gemv.
	for _, tA := range l2trans {
		for _, mn := range [][2]int{{1, 1}, {1, 7}, {7, 1}, {7, 33}, {33, 7}, {130, 65}} {
			if c.quick && mn[0] > 7 {
				continue
			}
			m, n := mn[0], mn[1]
			lenX, lenY := n, m
			if tA != blas.NoTrans {
				lenX, lenY = m, n
			}
			for ab := range l2alphaBeta {
				alpha, beta := T(l2alphaBeta[ab][0]), T(l2alphaBeta[ab][1])
				lda := n + 3*(ab%2)
				incX, incY := c.nextInc(), c.nextInc()
				a, x := c.dense(m, n, lda), c.strided(lenX, incX)
				y := c.strided(lenY, incY)
				if beta == 0 {
					for i := range y {
						y[i] = T(l2nan)
					}
				}
				desc := fmt.Sprintf("tA=%c m=%d n=%d lda=%d incX=%d incY=%d alpha=%v beta=%v", tA, m, n, lda, incX, incY, alpha, beta)
				c.check("gemv", desc, y, func(o l2ops[T], y []T) { o.gemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY) })
			}
		}
	}
	// gbmv.
	gbmv := func(tA blas.Transpose, m, n, kL, kU int) {
		lenX, lenY := n, m
		if tA != blas.NoTrans {
			lenX, lenY = m, n
		}
		alpha, beta := c.nextAB()
		lda := kL + kU + 1 + 2*(c.ab%2)
		rows := min(m, n+kL)
		a := make([]T, lda*(rows-1)+kL+kU+1)
		for i := range a {
			r, p := i/lda, i%lda
			col := r - kL + p
			a[i] = T(l2nan)
			if p < kL+kU+1 && col >= 0 && col < n {
				a[i] = T(2*c.r.Float64() - 1)
			}
		}
		incX, incY := c.nextInc(), c.nextInc()
		x, y := c.strided(lenX, incX), c.strided(lenY, incY)
		if beta == 0 {
			for i := range y {
				y[i] = T(l2nan)
			}
		}
		desc := fmt.Sprintf("tA=%c m=%d n=%d kL=%d kU=%d lda=%d incX=%d incY=%d alpha=%v beta=%v", tA, m, n, kL, kU, lda, incX, incY, alpha, beta)
		c.check("gbmv", desc, y, func(o l2ops[T], y []T) { o.gbmv(tA, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY) })
	}
	for _, tA := range l2trans {
		for _, mn := range [][2]int{{1, 1}, {7, 7}, {7, 33}, {33, 7}, {130, 65}} {
			if c.quick && mn[0] > 7 {
				continue
			}
			for _, kk := range [][2]int{{0, 0}, {1, 2}, {3, 0}, {0, 3}, {2, 40}} {
				gbmv(tA, mn[0], mn[1], kk[0], kk[1])
			}
		}
		// Bands of 256 diagonals or more (kernels/level2.cl's BAND_PASS8),
		// whose rows CPU devices take eight a pass with Aᵀ, and one just
		// narrower.
		if !c.quick {
			for _, kk := range [][2]int{{130, 140}, {256, 0}, {0, 300}, {200, 55}} {
				gbmv(tA, 300, 290, kk[0], kk[1])
			}
		}
	}
	// symv, sbmv, spmv.
	for _, ul := range l2uplos {
		for _, n := range c.sizes(1, 7, 33, 130) {
			for _, k := range []int{-1, 0, 1, 3, 40} {
				name, storage, kk := "sbmv", eng.L2Band, k
				switch k {
				case -1:
					name, storage, kk = "symv", eng.L2Dense, n-1
				case 40:
					if n > 33 {
						name, storage, kk = "spmv", eng.L2Packed, n-1
					}
				}
				reps := 1
				if name == "symv" {
					reps = len(l2alphaBeta)
				}
				for range reps {
					alpha, beta := c.nextAB()
					lda := 0
					if storage == eng.L2Dense {
						lda = n + 2*(c.ab%2)
					} else if storage == eng.L2Band {
						lda = kk + 1 + c.ab%2
					}
					s := l2store{upper: ul == blas.Upper, n: n, k: kk, lda: lda, storage: storage}
					a := c.fill(s, false, false)
					incX, incY := c.nextInc(), c.nextInc()
					x, y := c.strided(n, incX), c.strided(n, incY)
					if beta == 0 {
						for i := range y {
							y[i] = T(l2nan)
						}
					}
					desc := fmt.Sprintf("ul=%c n=%d k=%d lda=%d incX=%d incY=%d alpha=%v beta=%v", ul, n, kk, lda, incX, incY, alpha, beta)
					c.check(name, desc, y, func(o l2ops[T], y []T) {
						switch name {
						case "symv":
							o.symv(ul, n, alpha, a, lda, x, incX, beta, y, incY)
						case "sbmv":
							o.sbmv(ul, n, kk, alpha, a, lda, x, incX, beta, y, incY)
						default:
							o.spmv(ul, n, alpha, a, x, incX, beta, y, incY)
						}
					})
				}
			}
			// spmv with every (alpha, beta) on the small sizes.
			if n <= 33 {
				for range l2alphaBeta {
					alpha, beta := c.nextAB()
					s := l2store{upper: ul == blas.Upper, n: n, k: n - 1, storage: eng.L2Packed}
					ap := c.fill(s, false, false)
					incX, incY := c.nextInc(), c.nextInc()
					x, y := c.strided(n, incX), c.strided(n, incY)
					if beta == 0 {
						for i := range y {
							y[i] = T(l2nan)
						}
					}
					desc := fmt.Sprintf("ul=%c n=%d incX=%d incY=%d alpha=%v beta=%v", ul, n, incX, incY, alpha, beta)
					c.check("spmv", desc, y, func(o l2ops[T], y []T) { o.spmv(ul, n, alpha, ap, x, incX, beta, y, incY) })
				}
			}
		}
	}
	// Inf and NaN in x and y propagate as in gonum.
	if !c.quick {
		const n = 33
		x := c.strided(n, 1)
		x[1], x[20] = T(math.Inf(1)), T(l2nan)
		y := c.strided(n, 1)
		y[3] = T(math.Inf(-1))
		a := c.dense(n, n, n)
		a[5*n+1] = 0
		c.check("gemv", "Inf/NaN", y, func(o l2ops[T], y []T) { o.gemv(blas.NoTrans, n, n, 1.5, a, n, x, 1, 2, y, 1) })
		c.check("gemv", "Inf/NaN trans", y, func(o l2ops[T], y []T) { o.gemv(blas.Trans, n, n, 1.5, a, n, x, 1, 2, y, 1) })
		s := l2store{upper: true, n: n, k: 3, lda: 4, storage: eng.L2Band}
		ab := c.fill(s, false, false)
		c.check("sbmv", "Inf/NaN", y, func(o l2ops[T], y []T) { o.sbmv(blas.Upper, n, 3, 1.5, ab, 4, x, 1, 2, y, 1) })
	}
}

func (c *l2run[T]) tri() {
	for _, ul := range l2uplos {
		for _, tA := range l2trans {
			for _, d := range l2diags {
				// n = 300 for a band of 260 diagonals (kernels/level2.cl's
				// BAND_PASS8: rows eight a pass with Aᵀ on CPU devices).
				for _, n := range c.sizes(1, 7, 33, 130, 300) {
					for _, storage := range []int{eng.L2Dense, eng.L2Band, eng.L2Packed} {
						ks := []int{n - 1}
						if storage == eng.L2Band {
							ks = []int{0, 1, 3, 40}
							if n > 33 {
								ks = []int{3}
							}
							if n == 300 {
								ks = []int{260}
							}
						}
						if n == 300 && storage != eng.L2Band {
							continue
						}
						for _, k := range ks {
							lda := 0
							switch storage {
							case eng.L2Dense:
								lda = n + 3*(k%2)
							case eng.L2Band:
								lda = k + 1 + 2*(n%2)
							}
							s := l2store{upper: ul == blas.Upper, n: n, k: k, lda: lda, storage: storage}
							a := c.fill(s, d == blas.Unit, true)
							incX := c.nextInc()
							x := c.strided(n, incX)
							desc := fmt.Sprintf("ul=%c tA=%c d=%c n=%d k=%d lda=%d incX=%d", ul, tA, d, n, k, lda, incX)
							mv, sv := c.triOps(storage, ul, tA, d, n, k, a, lda, incX)
							c.check(mv.name, desc, x, mv.f)
							c.check(sv.name, desc, x, sv.f)
						}
					}
				}
			}
		}
	}
	if c.quick {
		return
	}
	// A zero on the diagonal and Inf in b give gonum's Inf and NaN.
	const n = 33
	for _, ul := range l2uplos {
		for _, tA := range l2trans {
			for _, storage := range []int{eng.L2Dense, eng.L2Band, eng.L2Packed} {
				k, lda := n-1, n
				if storage == eng.L2Band {
					k, lda = 4, 5
				}
				s := l2store{upper: ul == blas.Upper, n: n, k: k, lda: lda, storage: storage}
				a := c.fill(s, false, true)
				a[s.index(9, 9)] = 0
				x := c.strided(n, 1)
				x[20] = T(math.Inf(1))
				mv, sv := c.triOps(storage, ul, tA, blas.NonUnit, n, k, a, lda, 1)
				desc := fmt.Sprintf("zero diagonal, Inf in x: ul=%c tA=%c", ul, tA)
				c.check(mv.name, desc, x, mv.f)
				c.check(sv.name, desc, x, sv.f)
			}
		}
	}
}

type l2call[T float32 | float64] struct {
	name string
	f    func(o l2ops[T], x []T)
}

// triOps returns the product and the solve of one triangular matrix.
func (c *l2run[T]) triOps(storage int, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []T, lda, incX int) (mv, sv l2call[T]) {
	switch storage {
	case eng.L2Dense:
		return l2call[T]{"trmv", func(o l2ops[T], x []T) { o.trmv(ul, tA, d, n, a, lda, x, incX) }},
			l2call[T]{"trsv", func(o l2ops[T], x []T) { o.trsv(ul, tA, d, n, a, lda, x, incX) }}
	case eng.L2Band:
		return l2call[T]{"tbmv", func(o l2ops[T], x []T) { o.tbmv(ul, tA, d, n, k, a, lda, x, incX) }},
			l2call[T]{"tbsv", func(o l2ops[T], x []T) { o.tbsv(ul, tA, d, n, k, a, lda, x, incX) }}
	}
	return l2call[T]{"tpmv", func(o l2ops[T], x []T) { o.tpmv(ul, tA, d, n, a, x, incX) }},
		l2call[T]{"tpsv", func(o l2ops[T], x []T) { o.tpsv(ul, tA, d, n, a, x, incX) }}
}

func (c *l2run[T]) rank() {
	alphas := []T{1, -0.7}
	// ger.
	for _, mn := range [][2]int{{1, 1}, {1, 7}, {7, 1}, {7, 33}, {33, 7}, {130, 65}} {
		if c.quick && mn[0] > 7 {
			continue
		}
		for i, alpha := range alphas {
			m, n := mn[0], mn[1]
			lda := n + 3*i
			incX, incY := c.nextInc(), c.nextInc()
			x, y, a := c.strided(m, incX), c.strided(n, incY), c.dense(m, n, lda)
			desc := fmt.Sprintf("m=%d n=%d lda=%d incX=%d incY=%d alpha=%v", m, n, lda, incX, incY, alpha)
			c.check("ger", desc, a, func(o l2ops[T], a []T) { o.ger(m, n, alpha, x, incX, y, incY, a, lda) })
		}
	}
	// syr, spr, syr2, spr2; the other triangle of a dense A must survive.
	for _, ul := range l2uplos {
		for _, n := range c.sizes(1, 7, 33, 130) {
			for i, alpha := range alphas {
				lda := n + 2*i
				incX, incY := c.nextInc(), c.nextInc()
				x, y := c.strided(n, incX), c.strided(n, incY)
				a, ap := c.dense(n, n, lda), l2vec[T](c.r, n*(n+1)/2)
				desc := fmt.Sprintf("ul=%c n=%d lda=%d incX=%d incY=%d alpha=%v", ul, n, lda, incX, incY, alpha)
				c.check("syr", desc, a, func(o l2ops[T], a []T) { o.syr(ul, n, alpha, x, incX, a, lda) })
				c.check("spr", desc, ap, func(o l2ops[T], ap []T) { o.spr(ul, n, alpha, x, incX, ap) })
				c.check("syr2", desc, a, func(o l2ops[T], a []T) { o.syr2(ul, n, alpha, x, incX, y, incY, a, lda) })
				c.check("spr2", desc, ap, func(o l2ops[T], ap []T) { o.spr2(ul, n, alpha, x, incX, y, incY, ap) })
			}
		}
	}
	if c.quick {
		return
	}
	// Inf, NaN and zeros in x and y: gonum's Dsyr skips the rows where
	// alpha·x(i) == 0, the others do not skip anything.
	const n = 9
	x, y := c.strided(n, 1), c.strided(n, 1)
	x[1], x[2], x[5] = T(math.Inf(1)), 0, 0
	y[3], y[6] = T(l2nan), 0
	for _, ul := range l2uplos {
		a, ap := c.dense(n, n, n), l2vec[T](c.r, n*(n+1)/2)
		desc := fmt.Sprintf("Inf/NaN/0 ul=%c", ul)
		c.check("ger", desc, a, func(o l2ops[T], a []T) { o.ger(n, n, 2, x, 1, y, 1, a, n) })
		c.check("syr", desc, a, func(o l2ops[T], a []T) { o.syr(ul, n, 2, x, 1, a, n) })
		c.check("spr", desc, ap, func(o l2ops[T], ap []T) { o.spr(ul, n, 2, x, 1, ap) })
		c.check("syr2", desc, a, func(o l2ops[T], a []T) { o.syr2(ul, n, 2, x, 1, y, 1, a, n) })
		c.check("spr2", desc, ap, func(o l2ops[T], ap []T) { o.spr2(ul, n, 2, x, 1, y, 1, ap) })
	}
}

// l2ops is the level-2 half of blas.Float64 or blas.Float32, over T.
type l2ops[T float32 | float64] struct {
	gemv func(blas.Transpose, int, int, T, []T, int, []T, int, T, []T, int)
	gbmv func(blas.Transpose, int, int, int, int, T, []T, int, []T, int, T, []T, int)
	trmv func(blas.Uplo, blas.Transpose, blas.Diag, int, []T, int, []T, int)
	tbmv func(blas.Uplo, blas.Transpose, blas.Diag, int, int, []T, int, []T, int)
	tpmv func(blas.Uplo, blas.Transpose, blas.Diag, int, []T, []T, int)
	trsv func(blas.Uplo, blas.Transpose, blas.Diag, int, []T, int, []T, int)
	tbsv func(blas.Uplo, blas.Transpose, blas.Diag, int, int, []T, int, []T, int)
	tpsv func(blas.Uplo, blas.Transpose, blas.Diag, int, []T, []T, int)
	symv func(blas.Uplo, int, T, []T, int, []T, int, T, []T, int)
	sbmv func(blas.Uplo, int, int, T, []T, int, []T, int, T, []T, int)
	spmv func(blas.Uplo, int, T, []T, []T, int, T, []T, int)
	ger  func(int, int, T, []T, int, []T, int, []T, int)
	syr  func(blas.Uplo, int, T, []T, int, []T, int)
	spr  func(blas.Uplo, int, T, []T, int, []T)
	syr2 func(blas.Uplo, int, T, []T, int, []T, int, []T, int)
	spr2 func(blas.Uplo, int, T, []T, int, []T, int, []T)
}

func l2ops64(impl blas.Float64) l2ops[float64] {
	return l2ops[float64]{
		gemv: impl.Dgemv,
		gbmv: impl.Dgbmv,
		trmv: impl.Dtrmv,
		tbmv: impl.Dtbmv,
		tpmv: impl.Dtpmv,
		trsv: impl.Dtrsv,
		tbsv: impl.Dtbsv,
		tpsv: impl.Dtpsv,
		symv: impl.Dsymv,
		sbmv: impl.Dsbmv,
		spmv: impl.Dspmv,
		ger:  impl.Dger,
		syr:  impl.Dsyr,
		spr:  impl.Dspr,
		syr2: impl.Dsyr2,
		spr2: impl.Dspr2,
	}
}

func l2ops32(impl blas.Float32) l2ops[float32] {
	return l2ops[float32]{
		gemv: impl.Sgemv,
		gbmv: impl.Sgbmv,
		trmv: impl.Strmv,
		tbmv: impl.Stbmv,
		tpmv: impl.Stpmv,
		trsv: impl.Strsv,
		tbsv: impl.Stbsv,
		tpsv: impl.Stpsv,
		symv: impl.Ssymv,
		sbmv: impl.Ssbmv,
		spmv: impl.Sspmv,
		ger:  impl.Sger,
		syr:  impl.Ssyr,
		spr:  impl.Sspr,
		syr2: impl.Ssyr2,
		spr2: impl.Sspr2,
	}
}

// l2direct64 calls the device methods themselves; an error fails the test.
func l2direct64(t *testing.T, dev device[float64]) l2ops[float64] {
	t.Helper()
	ok := func(name string, err error) {
		if err != nil {
			t.Errorf("%s on the device: %v", name, err)
		}
	}
	return l2ops[float64]{
		gemv: func(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
			ok("Dgemv", dev.Gemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY))
		},
		gbmv: func(tA blas.Transpose, m, n, kL, kU int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
			ok("Dgbmv", dev.Gbmv(tA, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY))
		},
		trmv: func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) {
			ok("Dtrmv", dev.Trmv(ul, tA, d, n, a, lda, x, incX))
		},
		tbmv: func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) {
			ok("Dtbmv", dev.Tbmv(ul, tA, d, n, k, a, lda, x, incX))
		},
		tpmv: func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) {
			ok("Dtpmv", dev.Tpmv(ul, tA, d, n, ap, x, incX))
		},
		trsv: func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) {
			ok("Dtrsv", dev.Trsv(ul, tA, d, n, a, lda, x, incX))
		},
		tbsv: func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) {
			ok("Dtbsv", dev.Tbsv(ul, tA, d, n, k, a, lda, x, incX))
		},
		tpsv: func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) {
			ok("Dtpsv", dev.Tpsv(ul, tA, d, n, ap, x, incX))
		},
		symv: func(ul blas.Uplo, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
			ok("Dsymv", dev.Symv(ul, n, alpha, a, lda, x, incX, beta, y, incY))
		},
		sbmv: func(ul blas.Uplo, n, k int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
			ok("Dsbmv", dev.Sbmv(ul, n, k, alpha, a, lda, x, incX, beta, y, incY))
		},
		spmv: func(ul blas.Uplo, n int, alpha float64, ap []float64, x []float64, incX int, beta float64, y []float64, incY int) {
			ok("Dspmv", dev.Spmv(ul, n, alpha, ap, x, incX, beta, y, incY))
		},
		ger: func(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
			ok("Dger", dev.Ger(m, n, alpha, x, incX, y, incY, a, lda))
		},
		syr: func(ul blas.Uplo, n int, alpha float64, x []float64, incX int, a []float64, lda int) {
			ok("Dsyr", dev.Syr(ul, n, alpha, x, incX, a, lda))
		},
		spr: func(ul blas.Uplo, n int, alpha float64, x []float64, incX int, ap []float64) {
			ok("Dspr", dev.Spr(ul, n, alpha, x, incX, ap))
		},
		syr2: func(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
			ok("Dsyr2", dev.Syr2(ul, n, alpha, x, incX, y, incY, a, lda))
		},
		spr2: func(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, ap []float64) {
			ok("Dspr2", dev.Spr2(ul, n, alpha, x, incX, y, incY, ap))
		},
	}
}

// l2direct32 calls the device methods themselves; an error fails the test.
func l2direct32(t *testing.T, dev device[float32]) l2ops[float32] {
	t.Helper()
	ok := func(name string, err error) {
		if err != nil {
			t.Errorf("%s on the device: %v", name, err)
		}
	}
	return l2ops[float32]{
		gemv: func(tA blas.Transpose, m, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) {
			ok("Sgemv", dev.Gemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY))
		},
		gbmv: func(tA blas.Transpose, m, n, kL, kU int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) {
			ok("Sgbmv", dev.Gbmv(tA, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY))
		},
		trmv: func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float32, lda int, x []float32, incX int) {
			ok("Strmv", dev.Trmv(ul, tA, d, n, a, lda, x, incX))
		},
		tbmv: func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float32, lda int, x []float32, incX int) {
			ok("Stbmv", dev.Tbmv(ul, tA, d, n, k, a, lda, x, incX))
		},
		tpmv: func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float32, x []float32, incX int) {
			ok("Stpmv", dev.Tpmv(ul, tA, d, n, ap, x, incX))
		},
		trsv: func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float32, lda int, x []float32, incX int) {
			ok("Strsv", dev.Trsv(ul, tA, d, n, a, lda, x, incX))
		},
		tbsv: func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float32, lda int, x []float32, incX int) {
			ok("Stbsv", dev.Tbsv(ul, tA, d, n, k, a, lda, x, incX))
		},
		tpsv: func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float32, x []float32, incX int) {
			ok("Stpsv", dev.Tpsv(ul, tA, d, n, ap, x, incX))
		},
		symv: func(ul blas.Uplo, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) {
			ok("Ssymv", dev.Symv(ul, n, alpha, a, lda, x, incX, beta, y, incY))
		},
		sbmv: func(ul blas.Uplo, n, k int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) {
			ok("Ssbmv", dev.Sbmv(ul, n, k, alpha, a, lda, x, incX, beta, y, incY))
		},
		spmv: func(ul blas.Uplo, n int, alpha float32, ap []float32, x []float32, incX int, beta float32, y []float32, incY int) {
			ok("Sspmv", dev.Spmv(ul, n, alpha, ap, x, incX, beta, y, incY))
		},
		ger: func(m, n int, alpha float32, x []float32, incX int, y []float32, incY int, a []float32, lda int) {
			ok("Sger", dev.Ger(m, n, alpha, x, incX, y, incY, a, lda))
		},
		syr: func(ul blas.Uplo, n int, alpha float32, x []float32, incX int, a []float32, lda int) {
			ok("Ssyr", dev.Syr(ul, n, alpha, x, incX, a, lda))
		},
		spr: func(ul blas.Uplo, n int, alpha float32, x []float32, incX int, ap []float32) {
			ok("Sspr", dev.Spr(ul, n, alpha, x, incX, ap))
		},
		syr2: func(ul blas.Uplo, n int, alpha float32, x []float32, incX int, y []float32, incY int, a []float32, lda int) {
			ok("Ssyr2", dev.Syr2(ul, n, alpha, x, incX, y, incY, a, lda))
		},
		spr2: func(ul blas.Uplo, n int, alpha float32, x []float32, incX int, y []float32, incY int, ap []float32) {
			ok("Sspr2", dev.Spr2(ul, n, alpha, x, incX, y, incY, ap))
		},
	}
}
