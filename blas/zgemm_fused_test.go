package clblas

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/internal/gemm"
)

// TestZgemmFused runs resident Zgemm and Cgemm NN through the 4M path
// whose tensor-core kernel expands the complex B itself (zgemmFused,
// ZEXP_B), forced onto the emulated tensor cores through the choice cache
// (on a GPU with tensor cores, also with the library's own choice at n =
// 512), against gonum and, with alpha = 1, bit for bit against the packed
// path (the same products in the same order; another alpha is applied to
// B' by the pack but to the sums by the GEMM): real and complex alpha (the
// latter takes the packed path), real and complex beta.
func TestZgemmFused(t *testing.T) {
	impl := newTestImpl(t)
	t.Run("complex128", func(t *testing.T) { testZgemmFused[complex128](t, impl, 1e-12) })
	t.Run("complex64", func(t *testing.T) { testZgemmFused[complex64](t, impl, 1e-5) })
}

func testZgemmFused[T complex64 | complex128](t *testing.T, impl *Implementation, tol float64) {
	e := impl.eng
	prec := eng.PrecisionOf[T]()
	if prec == 64 && !e.Prof.FP64 {
		t.Skip("the device has no fp64")
	}
	emu := emulatedMMAConfig(prec, 8)
	emu.CPVec = true
	shapes := [][3]int{{37, 36, 14}, {20, 34, 30}}
	cfgs := []gemm.Config{emu, emu}
	if gemm.TensorCapable(e.GemmDev()) {
		shapes = append(shapes, [3]int{512, 512, 512})
		cfgs = append(cfgs, gemm.Choose(e.Tuning, e.GemmDev(), prec, 512, 1024, 1024, e.Tensor))
	}
	// The four products, so that alpha = 1 matches the packed path bit
	// for bit (TestZgemmFused3M covers the three).
	defer func() { e.ZExpandB, e.ZFused4M = eng.ZExpandAuto, false }()
	e.ZFused4M = true
	for i, sh := range shapes {
		m, n, k := sh[0], sh[1], sh[2]
		shape := eng.GemmShape{Prec: prec, M: m, N: 2 * n, K: 2 * k, Mode: e.Tensor}
		old := gemm.Choose(e.Tuning, e.GemmDev(), prec, m, 2*n, 2*k, e.Tensor)
		e.GemmChoices.Set(shape, cfgs[i])
		rnd := rand.New(rand.NewPCG(41, uint64(m+n+k)))
		mk := func(r, c int) []T {
			x := make([]T, r*c)
			for i := range x {
				x[i] = T(complex(rnd.Float64()*2-1, rnd.Float64()*2-1))
			}
			return x
		}
		a, b, c0 := mk(m, k), mk(k, n), mk(m, n)
		runs := e.ZFusedRuns.Load()
		for _, ab := range [][2]complex128{{1, 0.25}, {1, 0.5 - 1i}, {1.5, 0}, {2 - 1i, 0.5}, {0.75, 1 + 2i}} {
			alpha, beta := T(ab[0]), T(ab[1])
			what := fmt.Sprintf("%dx%dx%d alpha=%v beta=%v", m, n, k, alpha, beta)
			var got [2][]T
			for p, expand := range []bool{true, false} {
				e.ZExpandB = eng.ZExpandOff
				if expand {
					e.ZExpandB = eng.ZExpandOn
				}
				got[p] = residentZgemm(t, impl, m, n, k, alpha, a, b, beta, c0)
			}
			want := append([]T(nil), c0...)
			zgemmRef(m, n, k, alpha, a, b, beta, want)
			for i := range want {
				if alpha == 1 && got[0][i] != got[1][i] {
					t.Fatalf("%s: element %d = %v expanded in the kernel, %v packed", what, i, got[0][i], got[1][i])
				}
				if d := cmplx.Abs(complex128(got[0][i] - want[i])); d > tol*float64(k) {
					t.Fatalf("%s: element %d = %v, want %v", what, i, got[0][i], want[i])
				}
			}
		}
		if !eng.GemmSpecBuilt(prec, withZExpB(cfgs[i]), false, false) || e.ZFusedRuns.Load() == runs {
			t.Errorf("%dx%dx%d: the ZEXP_B program did not run", m, n, k)
		}
		e.GemmChoices.Set(shape, old)
	}
	if prec != 32 || !gemm.TensorCapable(e.GemmDev()) {
		return
	}
	// ZExpandAuto: the library's own float products of few work-groups
	// expand B on gemm.MMAExpand's tile, where the 4M method is taken
	// (forced here: at n = 768 the H200 takes 3M, Engine.zMethod).
	defer func() { e.ZMethod = eng.ZAuto }()
	e.ZExpandB, e.ZMethod = eng.ZExpandAuto, eng.Z4M
	for _, n := range []int{512, 768} {
		x, ok := gemm.MMAExpand(e.GemmDev(), prec, gemm.Choose(e.Tuning, e.GemmDev(), prec, n, 2*n, 2*n, e.Tensor), n, 2*n)
		if !ok {
			// A GPU with fewer compute units has enough work-groups at
			// this n (TestMMAExpand checks the rule on the H200's).
			t.Logf("n = %d: no expanding tile on %s", n, e.Prof.Name)
			continue
		}
		rnd := rand.New(rand.NewPCG(43, uint64(n)))
		mk := func() []T {
			x := make([]T, n*n)
			for i := range x {
				x[i] = T(complex(rnd.Float64()*2-1, rnd.Float64()*2-1))
			}
			return x
		}
		a, b, c0 := mk(), mk(), mk()
		alpha, beta := T(1.5), T(0.5-0.25i)
		got := residentZgemm(t, impl, n, n, n, alpha, a, b, beta, c0)
		want := append([]T(nil), c0...)
		zgemmRef(n, n, n, alpha, a, b, beta, want)
		for i := range want {
			if d := cmplx.Abs(complex128(got[i] - want[i])); d > tol*float64(n) {
				t.Fatalf("auto n = %d: element %d = %v, want %v", n, i, got[i], want[i])
			}
		}
		if !eng.GemmSpecBuilt(prec, withZExpB(x), false, false) {
			t.Errorf("auto n = %d: the expanding tile's program did not run", n)
		}
	}
}

func withZExpB(cfg gemm.Config) gemm.Config { cfg.ZExpB = true; return cfg }

// residentZgemm is C = alpha·A·B + beta·C on resident copies of a (m×k),
// b (k×n) and c (m×n), read back.
func residentZgemm[T complex64 | complex128](t *testing.T, impl *Implementation, m, n, k int, alpha T, a, b []T, beta T, c []T) []T {
	t.Helper()
	da, err1 := NewMatrixFrom(impl, m, k, a)
	db, err2 := NewMatrixFrom(impl, k, n, b)
	dc, err3 := NewMatrixFrom(impl, m, n, c)
	if err1 != nil || err2 != nil || err3 != nil {
		t.Fatal(err1, err2, err3)
	}
	defer da.Release()
	defer db.Release()
	defer dc.Release()
	if _, err := Gemm(blas.NoTrans, blas.NoTrans, alpha, da, db, beta, dc); err != nil {
		t.Fatal(err)
	}
	out := make([]T, m*n)
	if err := dc.Read(out); err != nil {
		t.Fatal(err)
	}
	return out
}

// zgemmRef is gonum's Zgemm (Cgemm) NN on row-major operands.
func zgemmRef[T complex64 | complex128](m, n, k int, alpha T, a, b []T, beta T, c []T) {
	var ref gonum.Implementation
	switch a := any(a).(type) {
	case []complex128:
		ref.Zgemm(blas.NoTrans, blas.NoTrans, m, n, k, complex128(alpha), a, k, any(b).([]complex128), n, complex128(beta), any(c).([]complex128), n)
	case []complex64:
		ref.Cgemm(blas.NoTrans, blas.NoTrans, m, n, k, complex64(alpha), a, k, any(b).([]complex64), n, complex64(beta), any(c).([]complex64), n)
	}
}

// TestZgemmFused3M runs resident Cgemm NN through gemm_mma's 3M products
// (Z3M, Engine.ZFused4M off) on the emulated tensor cores, forced through the
// choice cache: one K group with K tiles of 8 complex k, and two K groups
// with tiles of 16, on ragged shapes, against gonum; a complex alpha takes
// the packed 4M path, a complex beta scales C first.
func TestZgemmFused3M(t *testing.T) {
	impl := newTestImpl(t)
	e := impl.eng
	defer func() { e.ZExpandB, e.ZFused4M = eng.ZExpandAuto, false }()
	e.ZExpandB, e.ZFused4M = eng.ZExpandOn, false
	for _, v := range []struct{ kwg, warpsK int }{{16, 0}, {32, 2}} {
		cfg := emulatedMMAConfig(32, v.kwg)
		cfg.CPVec, cfg.WarpsK = true, v.warpsK
		// n and k even: the expanding kernel's 16-byte copies need rows
		// of A and B at multiples of two complex elements.
		for _, sh := range [][3]int{{37, 36, 14}, {20, 34, 30}, {33, 18, 42}} {
			m, n, k := sh[0], sh[1], sh[2]
			shape := eng.GemmShape{Prec: 32, M: m, N: 2 * n, K: 2 * k, Mode: e.Tensor}
			old := gemm.Choose(e.Tuning, e.GemmDev(), 32, m, 2*n, 2*k, e.Tensor)
			e.GemmChoices.Set(shape, cfg)
			what := fmt.Sprintf("kwg %d, %d groups, %dx%dx%d", v.kwg, v.warpsK, m, n, k)
			check3M(t, impl, what, 47, m, n, k, eng.ZExpandOn, [][2]complex128{{1, 0}, {1.5, 0.25}, {-0.75, 0.5 - 1i}, {2 - 1i, 0.5}})
			if !eng.GemmSpecBuilt(32, withZ3M(withZExpB(cfg)), false, false) {
				t.Errorf("%s: the Z3M program did not run", what)
			}
			e.GemmChoices.Set(shape, old)
		}
	}
}

// TestZgemmFused3MDevice runs resident Cgemm NN through the 3M products
// on real tensor cores: with the library's defaults (ZExpandAuto, and
// Engine.ZFused4M off), n = 512 takes gemm.MMAExpand's tile with Z3M, and
// so do ragged shapes given 512's choice through the choice cache; against
// gonum with the same bound as the 4M path's tests, and with Inf and NaN
// inputs against the packed 4M path. It skips on devices without tensor
// cores (TestZgemmFused3M covers the kernel's logic on their emulation)
// and where 512 gets no expanding tile.
func TestZgemmFused3MDevice(t *testing.T) {
	impl := newTestImpl(t)
	e := impl.eng
	if !gemm.TensorCapable(e.GemmDev()) {
		t.Skipf("%s has no tensor cores", e.Prof.Name)
	}
	base := gemm.Choose(e.Tuning, e.GemmDev(), 32, 512, 1024, 1024, e.Tensor)
	x, ok := gemm.MMAExpand(e.GemmDev(), 32, base, 512, 1024)
	if !ok {
		t.Skipf("n = 512: no expanding tile on %s", e.Prof.Name)
	}
	defer func() { e.ZExpandB, e.ZFused4M = eng.ZExpandAuto, false }()
	for _, sh := range [][3]int{{512, 512, 512}, {256, 200, 300}, {130, 66, 1000}, {67, 34, 258}} {
		m, n, k := sh[0], sh[1], sh[2]
		shape := eng.GemmShape{Prec: 32, M: m, N: 2 * n, K: 2 * k, Mode: e.Tensor}
		old := gemm.Choose(e.Tuning, e.GemmDev(), 32, m, 2*n, 2*k, e.Tensor)
		e.GemmChoices.Set(shape, base)
		what := fmt.Sprintf("%dx%dx%d", m, n, k)
		check3M(t, impl, what, 53, m, n, k, eng.ZExpandAuto, [][2]complex128{{1, 0}, {-0.75, 0.5 - 1i}})
		if !eng.GemmSpecBuilt(32, withZ3M(withZExpB(x)), false, false) {
			t.Errorf("%s: the Z3M program did not run", what)
		}
		e.GemmChoices.Set(shape, old)
	}
}

// check3M runs resident Cgemm NN of m×n×k on random operands (seed)
// with Engine.ZExpandB = expand and the 3M products (ZFused4M off): for
// each alpha, beta of abs (some alpha real, so that a product takes the
// 3M kernel, Engine.ZFused3MRuns) against gonum, then with an Inf in A and a NaN
// in B against the packed 4M path, whose non-finite elements it must
// match bit for bit (a tile whose 3M result is not finite is computed
// again as the 4M kernels compute it) and the others to the same bound.
// what names the case in failures.
func check3M(t *testing.T, impl *Implementation, what string, seed uint64, m, n, k int, expand eng.ZExpand, abs [][2]complex128) {
	t.Helper()
	e := impl.eng
	rnd := rand.New(rand.NewPCG(seed, uint64(m+n+k)))
	mk := func(r, c int) []complex64 {
		x := make([]complex64, r*c)
		for i := range x {
			x[i] = complex(float32(rnd.Float64()*2-1), float32(rnd.Float64()*2-1))
		}
		return x
	}
	a, b, c0 := mk(m, k), mk(k, n), mk(m, n)
	e.ZExpandB, e.ZFused4M = expand, false
	runs := e.ZFused3MRuns.Load()
	for _, ab := range abs {
		alpha, beta := complex64(ab[0]), complex64(ab[1])
		got := residentZgemm(t, impl, m, n, k, alpha, a, b, beta, c0)
		want := append([]complex64(nil), c0...)
		zgemmRef(m, n, k, alpha, a, b, beta, want)
		for i := range want {
			if d := cmplx.Abs(complex128(got[i] - want[i])); d > 1e-5*float64(k) {
				t.Fatalf("%s alpha=%v beta=%v: element %d = %v, want %v", what, alpha, beta, i, got[i], want[i])
			}
		}
	}
	if e.ZFused3MRuns.Load() == runs {
		t.Fatalf("%s: no product took the 3M kernel", what)
	}
	a[5], b[2*n+3] = complex(float32(math.Inf(1)), 0), complex(0, float32(math.NaN()))
	e.ZExpandB, e.ZFused4M = eng.ZExpandOff, true
	packed := residentZgemm(t, impl, m, n, k, 1, a, b, 0, c0)
	e.ZExpandB, e.ZFused4M = expand, false
	got := residentZgemm(t, impl, m, n, k, 1, a, b, 0, c0)
	nonFinite := 0
	for i, w := range packed {
		bad := cmplx.IsNaN(complex128(w)) || cmplx.IsInf(complex128(w))
		if bad {
			nonFinite++
		}
		if bad && !sameComplex(got[i], w) || !bad && cmplx.Abs(complex128(got[i]-w)) > 1e-5*float64(k) {
			t.Fatalf("%s, non-finite inputs: element %d = %v, the 4M path's %v", what, i, got[i], w)
		}
	}
	if nonFinite == 0 {
		t.Fatalf("%s: no non-finite element to check", what)
	}
}

func withZ3M(cfg gemm.Config) gemm.Config { cfg.Z3M = true; return cfg }

// sameComplex reports whether x and y have the same bits in each part, or
// are both NaN in that part.
func sameComplex(x, y complex64) bool {
	same := func(a, b float32) bool { return a == b || (a != a && b != b) }
	return same(real(x), real(y)) && same(imag(x), imag(y))
}
