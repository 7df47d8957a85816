package kernels_test

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/kernels"
	"github.com/gocompute/opencl/platform"
	"github.com/gocompute/opencl/platform/platformtest"
)

// This file tests the kernels of complex.cl on their own, through
// platform.Runtime and cl, against gonum's Go code, in both precisions.
// The kernels are not wired into package clblas yet.

// cxRig runs the complex kernels of one precision: T is the Go element
// type, F its real part type (PRECISION 32 or 64).
type cxRig[T cxT, F fT] struct {
	t       testing.TB
	rt      *platform.Runtime
	prog    *cl.Program
	kernels map[string]*cl.Kernel
	eps     float64 // the unit roundoff of F
	tile    int     // CTS, cgemm's tile size
	wpt     int     // WPT, the rows and columns of the tile per work-item
}

func newRig[T cxT, F fT](t testing.TB) *cxRig[T, F] {
	t.Helper()
	return newRigWith[T, F](t, nil)
}

// newRigWith builds complex.cl with the defines defs besides PRECISION.
func newRigWith[T cxT, F fT](t testing.TB, defs map[string]string) *cxRig[T, F] {
	t.Helper()
	rt := platformtest.Runtime(t, platform.WithoutDiskCache())
	prec, eps := "32", 0x1p-24
	if unsafe.Sizeof(F(0)) == 8 {
		prec, eps = "64", 0x1p-53
		if !rt.Device().Profile().FP64 {
			platformtest.Unavailable(t, rt.Device().String()+" has no cl_khr_fp64")
		}
	}
	src := []string{kernels.MustSource("common.cl"), kernels.MustSource("complex.cl")}
	all := map[string]string{"PRECISION": prec}
	for k, v := range defs {
		all[k] = v
	}
	prog, err := rt.Program(src, platform.Options(all))
	if err != nil {
		t.Fatalf("building complex.cl with PRECISION=%s: %v", prec, err)
	}
	r := &cxRig[T, F]{t: t, rt: rt, prog: prog, kernels: map[string]*cl.Kernel{}, eps: eps, tile: 16, wpt: 1}
	if v, ok := defs["CTS"]; ok {
		fmt.Sscan(v, &r.tile)
	}
	if v, ok := defs["WPT"]; ok {
		fmt.Sscan(v, &r.wpt)
	}
	t.Cleanup(func() {
		for name, k := range r.kernels {
			if err := k.Release(); err != nil {
				t.Errorf("releasing kernel %s: %v", name, err)
			}
		}
	})
	return r
}

// floats views x as its interleaved real and imaginary parts.
func floats[T cxT, F fT](x []T) []F {
	if len(x) == 0 {
		return nil
	}
	return unsafe.Slice((*F)(unsafe.Pointer(unsafe.SliceData(x))), 2*len(x))
}

// upload copies x to a new device array (of at least one element),
// released when the test ends.
func (r *cxRig[T, F]) upload(x []T) *cl.Array[F] {
	r.t.Helper()
	data := floats[T, F](x)
	if len(data) == 0 {
		data = []F{0, 0}
	}
	a, err := cl.NewArrayFrom(r.rt.Context(), cl.MemReadWrite, data)
	if err != nil {
		r.t.Fatalf("upload: %v", err)
	}
	r.t.Cleanup(func() { a.Release() })
	return a
}

// scratch returns a new device array of n elements of E.
func scratch[E cl.Scalar](t testing.TB, rt *platform.Runtime, n int) *cl.Array[E] {
	t.Helper()
	a, err := cl.NewArray[E](rt.Context(), cl.MemReadWrite, max(1, n))
	if err != nil {
		t.Fatalf("scratch: %v", err)
	}
	t.Cleanup(func() { a.Release() })
	return a
}

// download reads the array back into x.
func (r *cxRig[T, F]) download(a *cl.Array[F], x []T) {
	r.t.Helper()
	if len(x) == 0 {
		return
	}
	if err := a.Read(r.rt.Queue(), 0, floats[T, F](x)); err != nil {
		r.t.Fatalf("download: %v", err)
	}
}

// run launches kernel name and waits for it.
func (r *cxRig[T, F]) run(name string, global, local []int, args ...any) {
	r.t.Helper()
	k, ok := r.kernels[name]
	if !ok {
		var err error
		if k, err = r.prog.CreateKernel(name); err != nil {
			r.t.Fatalf("kernel %s: %v", name, err)
		}
		r.kernels[name] = k
	}
	ev, err := r.rt.Queue().Launch(k, global, local, args...)
	if err != nil {
		r.t.Fatalf("launching %s: %v", name, err)
	}
	defer ev.Release()
	if err := ev.Wait(); err != nil {
		r.t.Fatalf("running %s: %v", name, err)
	}
}

// vecStart is the offset of element 0 of an n-vector with increment inc
// (gonum walks a vector with a negative increment backwards).
func vecStart(n, inc int) int64 {
	if inc < 0 {
		return int64((n - 1) * -inc)
	}
	return 0
}

// vecLen is the length of an n-vector with increment inc.
func vecLen(n, inc int) int {
	if n == 0 {
		return 0
	}
	return 1 + (n-1)*max(inc, -inc)
}

func randVec[T cxT](rnd *rand.Rand, l int) []T {
	x := make([]T, l)
	for i := range x {
		x[i] = T(complex(2*rnd.Float64()-1, 2*rnd.Float64()-1))
	}
	return x
}

// closeTo reports whether got is within tol·(1+|want|) of want, NaN
// matching NaN and an infinity matching itself.
func closeTo(got, want complex128, tol float64) bool {
	if cmplx.IsNaN(got) || cmplx.IsNaN(want) {
		return cmplx.IsNaN(got) && cmplx.IsNaN(want)
	}
	if cmplx.IsInf(got) || cmplx.IsInf(want) {
		return got == want
	}
	return cmplx.Abs(got-want) <= tol*(1+cmplx.Abs(want))
}

// sameVec reports the first index where got and want differ by more than
// tol, or -1.
func sameVec[T cxT](got, want []T, tol float64) int {
	for i := range want {
		if !closeTo(complex128(got[i]), complex128(want[i]), tol) {
			return i
		}
	}
	return -1
}

const wgs = 64 // the local size of the reductions (a power of two)

// TestComplexLevel1 checks the element-wise kernels and the two-stage
// reductions of complex.cl against gonum over lengths 1 to 5000,
// increments ±1 and ±3, and 1 to 8 work-groups.
func TestComplexLevel1(t *testing.T) {
	t.Run("complex64", func(t *testing.T) { level1Suite[complex64, float32](t) })
	t.Run("complex128", func(t *testing.T) { level1Suite[complex128, float64](t) })
}

func level1Suite[T cxT, F fT](t *testing.T) {
	r := newRig[T, F](t)
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 7, 64, 65, 1000, 5000} {
		for _, incs := range [][2]int{{1, 1}, {-1, 1}, {3, -3}, {-3, 1}, {1, 3}} {
			for _, groups := range []int{1, 3, 8} {
				name := fmt.Sprintf("n=%d/inc=%v/groups=%d", n, incs, groups)
				t.Run(name, func(t *testing.T) {
					r.t = t
					l1case(r, rnd, n, incs[0], incs[1], groups)
				})
			}
		}
	}
}

func l1case[T cxT, F fT](r *cxRig[T, F], rnd *rand.Rand, n, incX, incY, groups int) {
	t := r.t
	// Each vector has two elements beyond its end that nothing may touch.
	x, y := randVec[T](rnd, vecLen(n, incX)+2), randVec[T](rnd, vecLen(n, incY)+2)
	ox, oy := vecStart(n, incX), vecStart(n, incY)
	tol := 8 * float64(n) * r.eps
	alpha := T(complex(0.5, -1.25))
	// gonum's scal, asum, nrm2 and iamax do nothing for a negative
	// increment: those kernels are checked with the positive one.
	absX := max(incX, -incX)
	elementwise := []struct {
		name string
		args func(dx, dy *cl.Array[F]) []any
		ref  func(x, y []T)
	}{
		{"caxpy", func(dx, dy *cl.Array[F]) []any {
			return []any{int32(n), F(real(complex128(alpha))), F(imag(complex128(alpha))), dx, ox, int32(incX), dy, oy, int32(incY)}
		}, func(x, y []T) { refAxpy(n, alpha, x, incX, y, incY) }},
		{"cscal", func(dx, _ *cl.Array[F]) []any {
			return []any{int32(n), F(real(complex128(alpha))), F(imag(complex128(alpha))), dx, int64(0), int32(absX)}
		}, func(x, _ []T) { refScal(n, alpha, x, absX) }},
		{"cscal0", func(dx, _ *cl.Array[F]) []any {
			return []any{int32(n), F(0), F(0), dx, int64(0), int32(absX)}
		}, func(x, _ []T) { refScal(n, 0, x, absX) }},
		{"csscal", func(dx, _ *cl.Array[F]) []any {
			return []any{int32(n), F(-1.5), dx, int64(0), int32(absX)}
		}, func(x, _ []T) { refSscal(n, F(-1.5), x, absX) }},
		{"csscal0", func(dx, _ *cl.Array[F]) []any {
			return []any{int32(n), F(0), dx, int64(0), int32(absX)}
		}, func(x, _ []T) { refSscal(n, F(0), x, absX) }},
		{"ccopy", func(dx, dy *cl.Array[F]) []any {
			return []any{int32(n), dx, ox, int32(incX), dy, oy, int32(incY)}
		}, func(x, y []T) { refCopy(n, x, incX, y, incY) }},
		{"cswap", func(dx, dy *cl.Array[F]) []any {
			return []any{int32(n), dx, ox, int32(incX), dy, oy, int32(incY)}
		}, func(x, y []T) { refSwap(n, x, incX, y, incY) }},
	}
	for _, e := range elementwise {
		dx, dy := r.upload(x), r.upload(y)
		r.run(strings.TrimSuffix(e.name, "0"), []int{n}, nil, e.args(dx, dy)...)
		gx, gy := make([]T, len(x)), make([]T, len(y))
		r.download(dx, gx)
		r.download(dy, gy)
		wx, wy := append([]T(nil), x...), append([]T(nil), y...)
		e.ref(wx, wy)
		if i := sameVec(gx, wx, 4*r.eps); i >= 0 {
			t.Errorf("%s: x[%d] = %v, gonum %v", e.name, i, gx[i], wx[i])
		}
		if i := sameVec(gy, wy, 4*r.eps); i >= 0 {
			t.Errorf("%s: y[%d] = %v, gonum %v", e.name, i, gy[i], wy[i])
		}
	}

	dx, dy := r.upload(x), r.upload(y)
	// The reductions' work-items stride over the vector (run 0, GPUs) or
	// each walk one run of it (run 1, CPU devices).
	for _, run := range []int32{0, 1} {
		for _, conj := range []bool{false, true} {
			got := r.dot(conj, n, dx, ox, incX, dy, oy, incY, groups, run)
			if want := refDot(conj, n, x, incX, y, incY); !closeTo(complex128(got), complex128(want), tol) {
				t.Errorf("dot (conj %v, run %d) = %v, gonum %v", conj, run, got, want)
			}
		}
		if got, want := r.asum(n, dx, 0, absX, groups, run), refAsum(n, x, max(incX, -incX)); !closeTo(complex(got, 0), complex(want, 0), tol) {
			t.Errorf("asum (run %d) = %v, gonum %v", run, got, want)
		}
		if got, want := r.nrm2(n, dx, 0, absX, groups, run), refNrm2(n, x, max(incX, -incX)); !closeTo(complex(got, 0), complex(want, 0), tol) {
			t.Errorf("nrm2 (run %d) = %v, gonum %v", run, got, want)
		}
		if got, want := r.iamax(n, dx, 0, absX, groups, run), refIamax(n, x, max(incX, -incX)); got != want {
			t.Errorf("iamax (run %d) = %d, gonum %d", run, got, want)
		}
	}
}

// dot runs cdot_part on groups work-groups and cdot_finish, and reads the
// result.
func (r *cxRig[T, F]) dot(conj bool, n int, dx *cl.Array[F], ox int64, incX int, dy *cl.Array[F], oy int64, incY, groups int, run int32) T {
	c := int32(0)
	if conj {
		c = 1
	}
	part := scratch[F](r.t, r.rt, 2*groups)
	res := scratch[F](r.t, r.rt, 2)
	cs := cl.Local(2 * wgs * int(unsafe.Sizeof(F(0))))
	r.run("cdot_part", []int{groups * wgs}, []int{wgs}, int32(n), c, dx, ox, int32(incX), dy, oy, int32(incY), part, run, cs)
	r.run("cdot_finish", []int{wgs}, []int{wgs}, int32(groups), part, res, int64(0), cs)
	out := make([]T, 1)
	r.download(res, out)
	return out[0]
}

func (r *cxRig[T, F]) asum(n int, dx *cl.Array[F], ox int64, incX, groups int, run int32) float64 {
	part := scratch[F](r.t, r.rt, groups)
	res := scratch[F](r.t, r.rt, 1)
	ls := cl.Local(wgs * int(unsafe.Sizeof(F(0))))
	r.run("casum_part", []int{groups * wgs}, []int{wgs}, int32(n), dx, ox, int32(incX), part, run, ls)
	r.run("casum_finish", []int{wgs}, []int{wgs}, int32(groups), part, res, int64(0), ls)
	return float64(readOne(r.t, r.rt, res))
}

func (r *cxRig[T, F]) nrm2(n int, dx *cl.Array[F], ox int64, incX, groups int, run int32) float64 {
	part := scratch[F](r.t, r.rt, 3*groups) // Blue's three sums a group
	res := scratch[F](r.t, r.rt, 1)
	ls := cl.Local(3 * wgs * int(unsafe.Sizeof(F(0))))
	r.run("cnrm2_part", []int{groups * wgs}, []int{wgs}, int32(n), dx, ox, int32(incX), part, run, ls)
	r.run("cnrm2_finish", []int{wgs}, []int{wgs}, int32(groups), part, res, int64(0), ls)
	return float64(readOne(r.t, r.rt, res))
}

func (r *cxRig[T, F]) iamax(n int, dx *cl.Array[F], ox int64, incX, groups int, run int32) int {
	pm := scratch[F](r.t, r.rt, groups)
	pi := scratch[int32](r.t, r.rt, groups)
	res := scratch[int32](r.t, r.rt, 1)
	ls, li := cl.Local(wgs*int(unsafe.Sizeof(F(0)))), cl.Local(wgs*4)
	r.run("ciamax_part", []int{groups * wgs}, []int{wgs}, int32(n), dx, ox, int32(incX), pm, pi, run, ls, li)
	r.run("ciamax_finish", []int{wgs}, []int{wgs}, int32(groups), pm, pi, res, int64(0), ls, li)
	return int(readOne(r.t, r.rt, res))
}

func readOne[E cl.Scalar](t testing.TB, rt *platform.Runtime, a *cl.Array[E]) E {
	t.Helper()
	out := make([]E, 1)
	if err := a.Read(rt.Queue(), 0, out); err != nil {
		t.Fatalf("reading a result: %v", err)
	}
	return out[0]
}

// TestComplexReductionSpecials checks the NaN, Inf, tie and overflow rules
// of the complex reductions against gonum: Izamax keeps the first maximum
// and lets a NaN win only at index 0; Dznrm2 is +Inf when a part is
// infinite, else NaN when a part is NaN, and does not overflow where the
// plain sum of squares would.
func TestComplexReductionSpecials(t *testing.T) {
	t.Run("complex64", func(t *testing.T) { specialsSuite[complex64, float32](t, 1e30) })
	t.Run("complex128", func(t *testing.T) { specialsSuite[complex128, float64](t, 1e300) })
}

func specialsSuite[T cxT, F fT](t *testing.T, huge float64) {
	r := newRig[T, F](t)
	nan, inf := math.NaN(), math.Inf(1)
	cases := map[string][]complex128{
		"tie":          {1, 2i, -2, 1 + 1i, complex(0, -2)},
		"nan first":    {complex(nan, 0), 5, 7},
		"nan later":    {1, complex(0, nan), 7, complex(nan, nan)},
		"inf and nan":  {1, complex(nan, 1), complex(0, -inf), 3},
		"inf tie":      {complex(inf, 0), complex(0, -inf), 2},
		"huge":         {complex(huge, huge), complex(-huge, 0), complex(0, huge/3)},
		"tiny":         {complex(1e-30*huge*1e-300, 0), 0, complex(0, 2e-30*huge*1e-300)},
		"zeros":        {0, 0, 0},
		"late maximum": append(make([]complex128, 300), 1, 2, 2),
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			r.t = t
			x := make([]T, len(c))
			for i, v := range c {
				x[i] = T(v)
			}
			n := len(x)
			for _, groups := range []int{1, 2, 5} {
				for _, run := range []int32{0, 1} {
					dx := r.upload(x)
					if got, want := r.iamax(n, dx, 0, 1, groups, run), refIamax(n, x, 1); got != want {
						t.Errorf("groups %d, run %d: iamax = %d, gonum %d", groups, run, got, want)
					}
					if got, want := r.nrm2(n, dx, 0, 1, groups, run), refNrm2(n, x, 1); !closeTo(complex(got, 0), complex(want, 0), 4*r.eps) {
						t.Errorf("groups %d, run %d: nrm2 = %v, gonum %v", groups, run, got, want)
					}
					if got, want := r.asum(n, dx, 0, 1, groups, run), refAsum(n, x, 1); !closeTo(complex(got, 0), complex(want, 0), 4*float64(n)*r.eps) {
						t.Errorf("groups %d, run %d: asum = %v, gonum %v", groups, run, got, want)
					}
				}
			}
		})
	}
}

// TestComplexGemm checks cgemm against gonum's Zgemm and Cgemm for every
// pair of NoTrans, Trans and ConjTrans, ragged and tile-sized shapes,
// padded leading dimensions, and α and β in {0, 1, i, other}; with β = 0
// C starts as NaN, which must not survive, and with α = 0 NaN in A must
// not reach C.
func TestComplexGemm(t *testing.T) {
	t.Run("complex64", func(t *testing.T) { gemmSuite(t, newRig[complex64, float32](t)) })
	t.Run("complex128", func(t *testing.T) { gemmSuite(t, newRig[complex128, float64](t)) })
	// Other tile sizes and work per work-item: parameters, not constants
	// of the source.
	// Each fits in 16 KiB of local memory (2·CTS² complex numbers), which
	// every device we run on has (Oclgrind has 32 KiB in all).
	for _, p := range [][2]string{{"16", "2"}, {"16", "4"}, {"8", "4"}} {
		defs := map[string]string{"CTS": p[0], "WPT": p[1]}
		t.Run("complex64/CTS="+p[0]+"/WPT="+p[1], func(t *testing.T) { gemmSuite(t, newRigWith[complex64, float32](t, defs)) })
		t.Run("complex128/CTS="+p[0]+"/WPT="+p[1], func(t *testing.T) { gemmSuite(t, newRigWith[complex128, float64](t, defs)) })
	}
	t.Run("complex64/CTS=32/WPT=4", func(t *testing.T) {
		gemmSuite(t, newRigWith[complex64, float32](t, map[string]string{"CTS": "32", "WPT": "4"}))
	})
}

func gemmSuite[T cxT, F fT](t *testing.T, r *cxRig[T, F]) {
	rnd := rand.New(rand.NewPCG(3, 4))
	trans := []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans}
	code := map[blas.Transpose]int32{blas.NoTrans: 0, blas.Trans: 1, blas.ConjTrans: 2}
	shapes := [][3]int{{1, 1, 1}, {3, 5, 7}, {16, 16, 16}, {17, 33, 19}, {40, 1, 5}, {1, 40, 50}, {5, 6, 0}}
	scalars := []complex128{0, 1, 1i, complex(0.75, -1.5)}
	for _, tA := range trans {
		for _, tB := range trans {
			for si, s := range shapes {
				alpha, beta := scalars[rnd.IntN(4)], scalars[(si+int(code[tA]))%4]
				if si == 0 {
					alpha = 0 // NaN in A must not reach C
				}
				name := fmt.Sprintf("%c%c/%dx%dx%d/alpha=%v/beta=%v", tA, tB, s[0], s[1], s[2], alpha, beta)
				t.Run(name, func(t *testing.T) {
					r.t = t
					gemmCase(r, rnd, tA, tB, code[tA], code[tB], s[0], s[1], s[2], T(alpha), T(beta))
				})
			}
		}
	}
}

func gemmCase[T cxT, F fT](r *cxRig[T, F], rnd *rand.Rand, tA, tB blas.Transpose, ca, cb int32, m, n, k int, alpha, beta T) {
	ra, cA := m, k
	if tA != blas.NoTrans {
		ra, cA = k, m
	}
	rb, cB := k, n
	if tB != blas.NoTrans {
		rb, cB = n, k
	}
	lda, ldb, ldc := max(1, cA)+1, max(1, cB)+2, n+3
	a, b := randVec[T](rnd, max(1, ra*lda)), randVec[T](rnd, max(1, rb*ldb))
	c := randVec[T](rnd, m*ldc)
	if alpha == 0 {
		a[0] = T(complex(math.NaN(), 0))
	}
	if beta == 0 {
		for i := range c {
			c[i] = T(complex(math.NaN(), math.NaN()))
		}
	}
	da, db, dc := r.upload(a), r.upload(b), r.upload(c)
	rts := r.tile / r.wpt
	r.run("cgemm", []int{(n + r.tile - 1) / r.tile * rts, (m + r.tile - 1) / r.tile * rts}, []int{rts, rts}, ca, cb, int32(m), int32(n), int32(k),
		F(real(complex128(alpha))), F(imag(complex128(alpha))), da, int64(0), int32(lda), db, int64(0), int32(ldb),
		F(real(complex128(beta))), F(imag(complex128(beta))), dc, int64(0), int32(ldc))
	got := make([]T, len(c))
	r.download(dc, got)
	want := append([]T(nil), c...)
	refGemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, want, ldc)
	tol := 8 * float64(k+2) * r.eps
	if i := sameVec(got, want, tol); i >= 0 {
		r.t.Errorf("C[%d, %d] = %v, gonum %v", i/ldc, i%ldc, got[i], want[i])
	}
}

// TestComplexSource checks that complex.cl is embedded under its name and
// that it defines exactly the kernels the engine will look up.
func TestComplexSource(t *testing.T) {
	if !slices.Contains(kernels.Names(), "complex.cl") {
		t.Fatalf("complex.cl is not among the embedded sources %v", kernels.Names())
	}
	r := newRig[complex64, float32](t)
	got, err := r.prog.KernelNames()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{"casum_finish", "casum_part", "caxpy", "ccopy", "cdot_finish", "cdot_part",
		"cgemm", "cgemmt", "ciamax_finish", "ciamax_part", "cnrm2_finish", "cnrm2_part", "cscal", "csscal", "cswap"}
	if !slices.Equal(got, want) {
		t.Errorf("complex.cl defines %v, want %v", got, want)
	}
}

// TestComplexRankK checks cgemmt, as the host will use it for Zsyrk,
// Zherk, Zsyr2k and Zher2k (and their C twins), against gonum: both
// triangles, both transposes, ragged and tile-sized n and k, α and β in
// {0, 1, i, other} (real for the Hermitian ones), the other triangle left
// alone and the Hermitian diagonal made real.
func TestComplexRankK(t *testing.T) {
	t.Run("complex64", func(t *testing.T) { rankKSuite(t, newRig[complex64, float32](t)) })
	t.Run("complex128", func(t *testing.T) { rankKSuite(t, newRig[complex128, float64](t)) })
	defs := map[string]string{"CTS": "8", "WPT": "2"}
	t.Run("complex64/CTS=8/WPT=2", func(t *testing.T) { rankKSuite(t, newRigWith[complex64, float32](t, defs)) })
	t.Run("complex128/CTS=8/WPT=2", func(t *testing.T) { rankKSuite(t, newRigWith[complex128, float64](t, defs)) })
}

func rankKSuite[T cxT, F fT](t *testing.T, r *cxRig[T, F]) {
	rnd := rand.New(rand.NewPCG(7, 8))
	scalars := []complex128{0, 1, 1i, complex(0.75, -1.5)}
	shapes := [][2]int{{1, 1}, {5, 3}, {16, 16}, {33, 7}, {20, 0}}
	for _, name := range []string{"syrk", "herk", "syr2k", "her2k"} {
		trans := []blas.Transpose{blas.NoTrans, blas.Trans}
		herm := name[0] == 'h'
		if herm {
			trans[1] = blas.ConjTrans
		}
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			for _, tr := range trans {
				for si, s := range shapes {
					alpha, beta := scalars[(si+1)%4], scalars[rnd.IntN(4)]
					if herm {
						beta = complex(real(beta)+float64(rnd.IntN(2))*0.5, 0)
						if name == "herk" {
							alpha = complex(real(alpha)-0.25, 0)
						}
					}
					tn := fmt.Sprintf("%s/%c%c/n=%d/k=%d/alpha=%v/beta=%v", name, ul, tr, s[0], s[1], alpha, beta)
					t.Run(tn, func(t *testing.T) {
						r.t = t
						rankKCase(r, rnd, name, ul, tr, s[0], s[1], T(alpha), T(beta))
					})
				}
			}
		}
	}
}

func rankKCase[T cxT, F fT](r *cxRig[T, F], rnd *rand.Rand, name string, ul blas.Uplo, tr blas.Transpose, n, k int, alpha, beta T) {
	ra, ca := n, k
	if tr != blas.NoTrans {
		ra, ca = k, n
	}
	lda, ldb, ldc := max(1, ca)+2, max(1, ca)+1, n+1
	a, b, c := randVec[T](rnd, max(1, ra*lda)), randVec[T](rnd, max(1, ra*ldb)), randVec[T](rnd, n*ldc)
	if beta == 0 {
		for i := range c {
			c[i] = T(complex(math.NaN(), math.NaN())) // must not survive in the triangle
		}
	}
	want := append([]T(nil), c...)
	refRankK(name, ul, tr, n, k, alpha, a, lda, b, ldb, beta, want, ldc)

	herm := int32(0)
	if name[0] == 'h' {
		herm = 1
	}
	// op(A)·op(B) with op(B) the transpose (conjugate transpose when
	// Hermitian) of op(A).
	code := map[blas.Transpose]int32{blas.NoTrans: 0, blas.Trans: 1, blas.ConjTrans: 2}
	opA, opB := int32(0), 1+herm
	if tr != blas.NoTrans {
		opA, opB = code[tr], 0
	}
	da, db, dc := r.upload(a), r.upload(b), r.upload(c)
	rts := r.tile / r.wpt
	groups := (n + r.tile - 1) / r.tile * rts
	launch := func(x, y *cl.Array[F], al, be T) {
		r.run("cgemmt", []int{groups, groups}, []int{rts, rts}, int32(map[blas.Uplo]int{blas.Upper: 0, blas.Lower: 1}[ul]), herm,
			opA, opB, int32(n), int32(k), F(real(complex128(al))), F(imag(complex128(al))),
			x, int64(0), int32(lda), y, int64(0), int32(lda), F(real(complex128(be))), F(imag(complex128(be))), dc, int64(0), int32(ldc))
	}
	quick := (alpha == 0 || k == 0) && beta == 1 // gonum's quick return, taken by the host
	switch {
	case quick:
	case name == "syrk" || name == "herk":
		launch(da, da, alpha, beta)
	default:
		if lda != ldb { // both operands of one launch share a leading dimension here
			b2 := make([]T, max(1, ra*lda))
			for i := range ra {
				copy(b2[i*lda:i*lda+ca], b[i*ldb:i*ldb+ca])
			}
			db = r.upload(b2)
		}
		second := alpha // syr2k: alpha·A·Bᵀ + alpha·B·Aᵀ
		if herm == 1 {
			second = T(cmplx.Conj(complex128(alpha))) // her2k: alpha·A·Bᴴ + conj(alpha)·B·Aᴴ
		}
		launch(da, db, alpha, beta)
		launch(db, da, second, 1)
	}
	got := make([]T, len(c))
	r.download(dc, got)
	if i := sameVec(got, want, 16*float64(k+2)*r.eps); i >= 0 {
		r.t.Errorf("C[%d, %d] = %v, gonum %v", i/ldc, i%ldc, got[i], want[i])
	}
}
