package clblas

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	eng "github.com/gocompute/opencl/internal/engine"
)

// complexOnDevice are the complex routines (by their complex128 name) that
// run on the device under Always.
var complexOnDevice = map[string]bool{
	"Zgemm": true, "Zsymm": true, "Zhemm": true, "Zsyrk": true, "Zherk": true,
	"Zsyr2k": true, "Zher2k": true, "Ztrmm": true, "Ztrsm": true,
}

var allTrans = []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans}

// zRand returns n complex128 values with parts in [-1, 1).
func zRand(rnd *rand.Rand, n int) []complex128 { return randC128(rnd, n) }

// toC64 rounds x to complex64.
func toC64(x []complex128) []complex64 {
	out := make([]complex64, len(x))
	for i, v := range x {
		out[i] = complex64(v)
	}
	return out
}

// toC128 widens x to complex128.
func toC128[T eng.Complex](x []T) []complex128 {
	out := make([]complex128, len(x))
	for i, v := range x {
		out[i] = complex128(v)
	}
	return out
}

// zRelErr is max |got − want| over the rows×cols block (leading dimension
// ld) divided by the largest |want|, and whether got's elements outside
// the block equal outside's.
func zRelErr(got, want []complex128, rows, cols, ld int) float64 {
	var diff, scale float64
	for i := range rows {
		for j := range cols {
			diff = math.Max(diff, cmplx.Abs(got[i*ld+j]-want[i*ld+j]))
			scale = math.Max(scale, cmplx.Abs(want[i*ld+j]))
		}
	}
	if scale == 0 {
		return diff
	}
	return diff / scale
}

// zgemmCase is one ZGEMM/CGEMM problem.
type zgemmCase struct {
	tA, tB      blas.Transpose
	m, n, k     int
	pad         int // added to every leading dimension
	alpha, beta complex128
}

// zgemmCases are every transpose pair over shapes with odd and edge sizes,
// and alpha, beta in {0, 1, i, other}.
func zgemmCases() []zgemmCase {
	var cs []zgemmCase
	shapes := [][3]int{{1, 1, 1}, {3, 5, 2}, {17, 9, 33}, {40, 70, 65}}
	scalars := []complex128{0, 1, 1i, complex(0.75, -1.5)}
	for si, s := range shapes {
		for _, tA := range allTrans {
			for _, tB := range allTrans {
				for bi, beta := range scalars {
					alpha := scalars[(bi+si+1)%len(scalars)]
					cs = append(cs, zgemmCase{tA, tB, s[0], s[1], s[2], (si + bi) % 3, alpha, beta})
				}
			}
		}
	}
	return cs
}

// zgemmInputs makes A, B and C of cs in complex128; C holds a NaN where
// beta == 0 (it must not survive).
func (cs zgemmCase) inputs(rnd *rand.Rand) (a []complex128, lda int, b []complex128, ldb int, c []complex128, ldc int) {
	ar, ac := eng.Stored(cs.tA, cs.m, cs.k)
	br, bc := eng.Stored(cs.tB, cs.k, cs.n)
	lda, ldb, ldc = max(ac, 1)+cs.pad, max(bc, 1)+cs.pad, cs.n+cs.pad
	a, b, c = zRand(rnd, ar*lda), zRand(rnd, br*ldb), zRand(rnd, cs.m*ldc)
	if cs.beta == 0 {
		c[0] = cmplx.NaN()
	}
	return
}

// TestZgemmDevice checks Zgemm and Cgemm on the device against gonum's
// Zgemm in complex128 over every transpose pair, padded leading
// dimensions and special scalars, and that every call ran on the device.
// It logs the largest relative error of each precision (against the
// complex128 product of the same inputs) beside gonum's own Cgemm's.
func TestZgemmDevice(t *testing.T) {
	for _, method := range []struct {
		name string
		m    eng.ZMethod
	}{{"4M", eng.Z4M}, {"3M", eng.Z3M}} {
		t.Run(method.name, func(t *testing.T) {
			impl, e := privateImpl(t, nil)
			e.ZMethod = method.m
			testZgemmDevice(t, impl)
		})
	}
}

// testZgemmDevice checks Zgemm and Cgemm on impl against gonum over
// zgemmCases.
func testZgemmDevice(t *testing.T, impl *Implementation) {
	ref := gonum.Implementation{}
	rnd := rand.New(rand.NewPCG(8, 9))
	var worst128, worst64, gonum64 float64
	cases, calls := zgemmCases(), 0
	for _, cs := range cases {
		if !((cs.alpha == 0 || cs.k == 0) && cs.beta == 1) {
			calls++ // not a quick return
		}
		name := fmt.Sprintf("%c%c/%dx%dx%d/pad%d/alpha=%v/beta=%v", cs.tA, cs.tB, cs.m, cs.n, cs.k, cs.pad, cs.alpha, cs.beta)
		a, lda, b, ldb, c, ldc := cs.inputs(rnd)
		want := append([]complex128(nil), c...)
		ref.Zgemm(cs.tA, cs.tB, cs.m, cs.n, cs.k, cs.alpha, a, lda, b, ldb, cs.beta, want, ldc)
		got := append([]complex128(nil), c...)
		impl.Zgemm(cs.tA, cs.tB, cs.m, cs.n, cs.k, cs.alpha, a, lda, b, ldb, cs.beta, got, ldc)
		e128 := zRelErr(got, want, cs.m, cs.n, ldc)
		if !(e128 <= 1e-14) {
			t.Errorf("Zgemm %s: relative error %g", name, e128)
		}
		worst128 = math.Max(worst128, e128)

		// complex64: the reference is the complex128 product of the
		// complex64 inputs.
		a64, b64, c64 := toC64(a), toC64(b), toC64(c)
		want = toC128(c64)
		ref.Zgemm(cs.tA, cs.tB, cs.m, cs.n, cs.k, cs.alpha, toC128(a64), lda, toC128(b64), ldb, cs.beta, want, ldc)
		g64 := append([]complex64(nil), c64...)
		impl.Cgemm(cs.tA, cs.tB, cs.m, cs.n, cs.k, complex64(cs.alpha), a64, lda, b64, ldb, complex64(cs.beta), g64, ldc)
		e64 := zRelErr(toC128(g64), want, cs.m, cs.n, ldc)
		if !(e64 <= 2e-6) {
			t.Errorf("Cgemm %s: relative error %g", name, e64)
		}
		worst64 = math.Max(worst64, e64)
		r64 := append([]complex64(nil), c64...)
		ref.Cgemm(cs.tA, cs.tB, cs.m, cs.n, cs.k, complex64(cs.alpha), a64, lda, b64, ldb, complex64(cs.beta), r64, ldc)
		gonum64 = math.Max(gonum64, zRelErr(toC128(r64), want, cs.m, cs.n, ldc))
	}
	t.Logf("largest relative error against complex128: Zgemm %.2g, Cgemm %.2g (gonum's Cgemm %.2g)", worst128, worst64, gonum64)
	for _, name := range []string{"Zgemm", "Cgemm"} {
		if st := impl.Stats()[name]; st.Device != int64(calls) || st.CPU != 0 {
			t.Errorf("Stats()[%q] = %+v, want all %d calls on the device", name, st, calls)
		}
	}
}

// TestZgemmNonFinite: a NaN or Inf anywhere in the operands gives gonum's
// answer (the call is redone on the CPU), and the call counts as one kept
// on the CPU for it.
func TestZgemmNonFinite(t *testing.T) {
	impl, _ := privateImpl(t, nil)
	rnd := rand.New(rand.NewPCG(2, 7))
	const m, n, k = 6, 5, 4
	for i, where := range []string{"a", "b", "c"} {
		a, b, c := zRand(rnd, m*k), zRand(rnd, k*n), zRand(rnd, m*n)
		map[string][]complex128{"a": a, "b": b, "c": c}[where][3] = complex(math.Inf(1), 0)
		want := append([]complex128(nil), c...)
		gonum.Implementation{}.Zgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1i, a, k, b, n, 2, want, n)
		got := append([]complex128(nil), c...)
		impl.Zgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1i, a, k, b, n, 2, got, n)
		for j := range got {
			if !zSame(got[j], want[j]) {
				t.Fatalf("Inf in %s: element %d = %v, want gonum's %v", where, j, got[j], want[j])
			}
		}
		if st := impl.Stats()["Zgemm"]; st.NonFinite != int64(i+1) || st.CPU != int64(i+1) {
			t.Errorf("Inf in %s: Stats %+v, want %d calls kept on the CPU for NaN or Inf", where, st, i+1)
		}
	}
}

// TestZgemmDeviceFailure: a device failure at any step leaves gonum's
// answer, logged once per routine.
func TestZgemmDeviceFailure(t *testing.T) {
	for _, site := range []string{"alloc", "build", "enqueue", "read"} {
		t.Run(site, func(t *testing.T) {
			rec := &recorder{}
			impl, e := privateImpl(t, rec)
			rnd := rand.New(rand.NewPCG(4, 4))
			const m, n, k = 9, 7, 5
			a, b, c0 := zRand(rnd, k*m), zRand(rnd, k*n), zRand(rnd, m*n)
			want := append([]complex128(nil), c0...)
			gonum.Implementation{}.Zgemm(blas.ConjTrans, blas.NoTrans, m, n, k, 2-1i, a, m, b, n, 1i, want, n)
			fail := func(s string) error {
				if s == site {
					return fmt.Errorf("%s: %w", s, errInjected)
				}
				return nil
			}
			if err := e.Kernels.Drain(); err != nil {
				t.Fatal(err)
			}
			e.Fault.Store(&fail)
			defer e.Fault.Store(nil)
			// Ztrsm takes the other path of the level 3 routines
			// (engine.ZSlices): an in-place update of B.
			tri := zRand(rnd, m*m)
			for i := range m {
				tri[i*m+i] += 4
			}
			wantX := append([]complex128(nil), c0...)
			gonum.Implementation{}.Ztrsm(blas.Left, blas.Lower, blas.ConjTrans, blas.NonUnit, m, n, 1i, tri, m, wantX, n)
			for range 2 {
				got := append([]complex128(nil), c0...)
				impl.Zgemm(blas.ConjTrans, blas.NoTrans, m, n, k, 2-1i, a, m, b, n, 1i, got, n)
				if err := zRelErr(got, want, m, n, n); err > 1e-14 {
					t.Fatalf("relative error %g after an injected %s failure", err, site)
				}
				got = append([]complex128(nil), c0...)
				impl.Ztrsm(blas.Left, blas.Lower, blas.ConjTrans, blas.NonUnit, m, n, 1i, tri, m, got, n)
				if err := zRelErr(got, wantX, m, n, n); err > 1e-14 {
					t.Fatalf("Ztrsm: relative error %g after an injected %s failure", err, site)
				}
			}
			for _, name := range []string{"Zgemm", "Ztrsm"} {
				if st := impl.Stats()[name]; st.Failed != 2 {
					t.Errorf("%s: Stats %+v, want 2 failed device calls", name, st)
				}
			}
			rec.mu.Lock()
			defer rec.mu.Unlock()
			if len(rec.records) != 2 {
				t.Fatalf("%d log records, want 2 (one per routine)", len(rec.records))
			}
			rec.records[0].Attrs(func(a slog.Attr) bool {
				if a.Key == "err" {
					if err, _ := a.Value.Any().(error); !errors.Is(err, errInjected) {
						t.Errorf("logged error %v, want the injected one", err)
					}
				}
				return true
			})
		})
	}
}

// TestResidentZgemm runs Gemm on complex resident matrices, views with
// offsets included, against gonum.
func TestResidentZgemm(t *testing.T) {
	impl := newTestImpl(t)
	rnd := rand.New(rand.NewPCG(3, 3))
	for _, tA := range allTrans {
		for _, tB := range allTrans {
			const m, n, k = 11, 6, 9
			ar, ac := eng.Stored(tA, m, k)
			br, bc := eng.Stored(tB, k, n)
			a0, b0, c0 := zRand(rnd, (ar+1)*(ac+2)), zRand(rnd, br*bc), zRand(rnd, m*n)
			alpha, beta := complex(0.5, 2), complex(-1, 0.25)
			// A is the view at (1, 2) of an (ar+1)×(ac+2) matrix.
			want := append([]complex128(nil), c0...)
			gonum.Implementation{}.Zgemm(tA, tB, m, n, k, alpha, a0[(ac+2)+2:], ac+2, b0, bc, beta, want, n)
			big, err := NewMatrixFrom(impl, ar+1, ac+2, a0)
			if err != nil {
				t.Fatal(err)
			}
			defer big.Release()
			a, err := big.View(1, 2, ar, ac)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := NewMatrixFrom(impl, br, bc, b0)
			defer b.Release()
			c, _ := NewMatrixFrom(impl, m, n, c0)
			defer c.Release()
			ev, err := Gemm(tA, tB, alpha, a, b, beta, c)
			if err != nil {
				t.Fatal(err)
			}
			if err := ev.Wait(); err != nil {
				t.Fatal(err)
			}
			got := make([]complex128, m*n)
			if err := c.Read(got); err != nil {
				t.Fatal(err)
			}
			if e := zRelErr(got, want, m, n, n); e > 1e-14 {
				t.Errorf("Gemm %v %v: relative error %g", tA, tB, e)
			}
		}
	}
}

// zSame reports whether a and b are equal part by part, NaN matching NaN.
func zSame(a, b complex128) bool {
	same := func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }
	return same(real(a), real(b)) && same(imag(a), imag(b))
}

// zl3Call is one complex level 3 call on (impl, a, b, c); it returns the
// output slice and its shape.
type zl3Call struct {
	name string
	run  func(impl blas.Complex128, a, b, c []complex128) (rows, cols, ld int)
}

// TestZlevel3Device checks the complex level 3 routines besides GEMM on
// the device against gonum at sizes past the blocking of trsm (so that its
// GEMM updates run), every side, triangle, transpose and diagonal, with
// padded leading dimensions and complex scalars, and that each ran on the
// device.
func TestZlevel3Device(t *testing.T) {
	impl, _ := privateImpl(t, nil)
	rnd := rand.New(rand.NewPCG(6, 1))
	const m, n, k = 70, 45, 38
	const pad = 3
	alpha, beta := complex(0.5, -1.25), complex(-0.75, 0.5)
	var calls []zl3Call
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		for _, s := range []blas.Side{blas.Left, blas.Right} {
			ka := n
			if s == blas.Left {
				ka = m
			}
			calls = append(calls,
				zl3Call{fmt.Sprintf("Zsymm/%c/%c", s, ul), func(impl blas.Complex128, a, b, c []complex128) (int, int, int) {
					impl.Zsymm(s, ul, m, n, alpha, a, ka+pad, b, n+pad, beta, c, n+pad)
					return m, n, n + pad
				}},
				zl3Call{fmt.Sprintf("Zhemm/%c/%c", s, ul), func(impl blas.Complex128, a, b, c []complex128) (int, int, int) {
					impl.Zhemm(s, ul, m, n, alpha, a, ka+pad, b, n+pad, beta, c, n+pad)
					return m, n, n + pad
				}})
			for _, tA := range allTrans {
				for _, d := range []blas.Diag{blas.NonUnit, blas.Unit} {
					calls = append(calls,
						zl3Call{fmt.Sprintf("Ztrmm/%c/%c/%c/%c", s, ul, tA, d), func(impl blas.Complex128, a, b, c []complex128) (int, int, int) {
							impl.Ztrmm(s, ul, tA, d, m, n, alpha, a, ka+pad, c, n+pad)
							return m, n, n + pad
						}},
						zl3Call{fmt.Sprintf("Ztrsm/%c/%c/%c/%c", s, ul, tA, d), func(impl blas.Complex128, a, b, c []complex128) (int, int, int) {
							impl.Ztrsm(s, ul, tA, d, m, n, alpha, a, ka+pad, c, n+pad)
							return m, n, n + pad
						}})
				}
			}
		}
		for _, tr := range []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans} {
			lda := k + pad
			if tr != blas.NoTrans {
				lda = n + pad
			}
			if tr != blas.ConjTrans {
				calls = append(calls,
					zl3Call{fmt.Sprintf("Zsyrk/%c/%c", ul, tr), func(impl blas.Complex128, a, b, c []complex128) (int, int, int) {
						impl.Zsyrk(ul, tr, n, k, alpha, a, lda, beta, c, n+pad)
						return n, n, n + pad
					}},
					zl3Call{fmt.Sprintf("Zsyr2k/%c/%c", ul, tr), func(impl blas.Complex128, a, b, c []complex128) (int, int, int) {
						impl.Zsyr2k(ul, tr, n, k, alpha, a, lda, b, lda, beta, c, n+pad)
						return n, n, n + pad
					}})
			}
			if tr != blas.Trans {
				calls = append(calls,
					zl3Call{fmt.Sprintf("Zherk/%c/%c", ul, tr), func(impl blas.Complex128, a, b, c []complex128) (int, int, int) {
						impl.Zherk(ul, tr, n, k, 0.5, a, lda, -0.75, c, n+pad)
						return n, n, n + pad
					}},
					zl3Call{fmt.Sprintf("Zher2k/%c/%c", ul, tr), func(impl blas.Complex128, a, b, c []complex128) (int, int, int) {
						impl.Zher2k(ul, tr, n, k, alpha, a, lda, b, lda, 1.5, c, n+pad)
						return n, n, n + pad
					}})
			}
		}
	}
	big := (max(m, n) + pad) * (max(m, n) + pad)
	for _, call := range calls {
		a, b, c := zRand(rnd, big), zRand(rnd, big), zRand(rnd, big)
		for i := 0; i < big; i += max(m, n) + pad + 1 {
			a[i] += 4 // a well-conditioned triangle for trsm
		}
		want := append([]complex128(nil), c...)
		rows, cols, ld := call.run(gonum.Implementation{}, a, b, want)
		got := append([]complex128(nil), c...)
		call.run(impl, a, b, got)
		if e := zRelErr(got, want, rows, cols, ld); !(e <= 1e-13) {
			t.Errorf("%s: relative error %g", call.name, e)
		}
		for i := range got {
			if i%ld >= cols || i/ld >= rows {
				if got[i] != c[i] {
					t.Fatalf("%s: element %d outside the output changed", call.name, i)
				}
			}
		}
	}
	for name := range complexOnDevice {
		if name == "Zgemm" {
			continue
		}
		if st := impl.Stats()[name]; st.Device == 0 || st.CPU != 0 || st.Failed != 0 {
			t.Errorf("Stats()[%q] = %+v, want every call on the device", name, st)
		}
	}
}

// TestComplexLevel3Shared runs each complex level 3 routine on the shared
// implementation against gonum, so that the device-complete guard and
// Oclgrind (scripts/oclgrind.sh, which cannot afford gonum's testblas
// suites, and runs about a second per kernel) cover them: every kernel of
// zlevel3.cl runs, trsm past its blocking (m = 70) in both sides. The
// routines run in complex128 (complex64 on a device without fp64), and
// Cgemm and Cherk in complex64 too, for the single precision build.
func TestComplexLevel3Shared(t *testing.T) {
	impl := newTestImpl(t)
	rnd := rand.New(rand.NewPCG(1, 9))
	const n, k, big = 9, 7, 70
	z := func(l int) []complex128 { return zRand(rnd, l) }
	a, b, c := z(big*big), z(big*big), z(big*big)
	for i := range big {
		a[i*big+i] += 4 // a well-conditioned triangle for trsm
	}
	a64, b64, c64 := toC64(a), toC64(b), toC64(c)
	alpha, beta := complex(0.5, -1), complex(1, 0.25)
	al, be := complex64(alpha), complex64(beta)
	type call128 = func(impl blas.Complex128, c []complex128)
	type call64 = func(impl blas.Complex64, c []complex64)
	calls := []struct {
		name   string
		m, n   int
		run128 call128
		run64  call64
	}{
		{"gemm", n, n, func(impl blas.Complex128, c []complex128) {
			impl.Zgemm(blas.ConjTrans, blas.Trans, n, n, k, alpha, a, big, b, big, beta, c, big)
		}, func(impl blas.Complex64, c []complex64) {
			impl.Cgemm(blas.Trans, blas.NoTrans, n, n, k, al, a64, big, b64, big, be, c, big)
		}},
		{"symm", n, n, func(impl blas.Complex128, c []complex128) {
			impl.Zsymm(blas.Left, blas.Upper, n, n, alpha, a, big, b, big, beta, c, big)
		}, func(impl blas.Complex64, c []complex64) {
			impl.Csymm(blas.Right, blas.Lower, n, n, al, a64, big, b64, big, be, c, big)
		}},
		{"hemm", n, n, func(impl blas.Complex128, c []complex128) {
			impl.Zhemm(blas.Right, blas.Lower, n, n, alpha, a, big, b, big, beta, c, big)
		}, func(impl blas.Complex64, c []complex64) {
			impl.Chemm(blas.Left, blas.Upper, n, n, al, a64, big, b64, big, be, c, big)
		}},
		{"syrk", n, n, func(impl blas.Complex128, c []complex128) {
			impl.Zsyrk(blas.Lower, blas.Trans, n, k, alpha, a, big, beta, c, big)
		}, func(impl blas.Complex64, c []complex64) {
			impl.Csyrk(blas.Upper, blas.NoTrans, n, k, al, a64, big, be, c, big)
		}},
		{"herk", n, n, func(impl blas.Complex128, c []complex128) {
			impl.Zherk(blas.Upper, blas.NoTrans, n, k, 2, a, big, 0.5, c, big)
		}, func(impl blas.Complex64, c []complex64) {
			impl.Cherk(blas.Lower, blas.ConjTrans, n, k, 2, a64, big, 0, c, big)
		}},
		{"syr2k", n, n, func(impl blas.Complex128, c []complex128) {
			impl.Zsyr2k(blas.Upper, blas.NoTrans, n, k, alpha, a, big, b, big, beta, c, big)
		}, func(impl blas.Complex64, c []complex64) {
			impl.Csyr2k(blas.Lower, blas.Trans, n, k, al, a64, big, b64, big, be, c, big)
		}},
		{"her2k", n, n, func(impl blas.Complex128, c []complex128) {
			impl.Zher2k(blas.Lower, blas.ConjTrans, n, k, alpha, a, big, b, big, 3, c, big)
		}, func(impl blas.Complex64, c []complex64) {
			impl.Cher2k(blas.Upper, blas.NoTrans, n, k, al, a64, big, b64, big, 3, c, big)
		}},
		{"trmm", n, n, func(impl blas.Complex128, c []complex128) {
			impl.Ztrmm(blas.Left, blas.Lower, blas.ConjTrans, blas.NonUnit, n, n, alpha, a, big, c, big)
		}, func(impl blas.Complex64, c []complex64) {
			impl.Ctrmm(blas.Right, blas.Upper, blas.Trans, blas.Unit, n, n, al, a64, big, c, big)
		}},
		{"trsm", big, 5, func(impl blas.Complex128, c []complex128) {
			impl.Ztrsm(blas.Left, blas.Upper, blas.ConjTrans, blas.NonUnit, big, 5, alpha, a, big, c, big)
		}, func(impl blas.Complex64, c []complex64) {
			impl.Ctrsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, big, 5, al, a64, big, c, big)
		}},
		{"trsm", 5, big, func(impl blas.Complex128, c []complex128) {
			impl.Ztrsm(blas.Right, blas.Lower, blas.NoTrans, blas.Unit, 5, big, alpha, a, big, c, big)
		}, func(impl blas.Complex64, c []complex64) {
			impl.Ctrsm(blas.Right, blas.Upper, blas.Trans, blas.NonUnit, 5, big, al, a64, big, c, big)
		}},
	}
	fp64 := testEngine(t).Prof.FP64
	ran := map[string]bool{}
	for _, tc := range calls {
		if fp64 {
			want := append([]complex128(nil), c...)
			tc.run128(gonum.Implementation{}, want)
			got := append([]complex128(nil), c...)
			tc.run128(impl, got)
			if e := zRelErr(got, want, tc.m, tc.n, big); !(e <= 1e-13) {
				t.Errorf("Z%s: relative error %g", tc.name, e)
			}
			ran["Z"+tc.name] = true
		}
		if fp64 && tc.name != "gemm" && tc.name != "herk" {
			continue
		}
		ran["C"+tc.name] = true
		want64 := append([]complex64(nil), c64...)
		tc.run64(gonum.Implementation{}, want64)
		got64 := append([]complex64(nil), c64...)
		tc.run64(impl, got64)
		if e := zRelErr(toC128(got64), toC128(want64), tc.m, tc.n, big); !(e <= 1e-5) {
			t.Errorf("C%s: relative error %g", tc.name, e)
		}
	}
	for r := range ran {
		if st := impl.Stats()[r]; st.Device == 0 || st.CPU != st.NonFinite || st.Failed != 0 {
			t.Errorf("Stats()[%q] = %+v, want every call on the device", r, st)
		}
	}
}

// TestZgemmKeepSlabs: on a device that shares the host's memory, a Zgemm
// with beta ≠ 0 whose kept copy of C would exceed KeepMaxBytes runs in row
// slabs within the bound, with gonum's answer; a NaN met in a later slab
// leaves gonum to finish from that slab on.
func TestZgemmKeepSlabs(t *testing.T) {
	impl, e := privateImpl(t, nil)
	if !e.HostShared() {
		t.Skip("the device does not share the host's memory")
	}
	withKeepMax(t, 5*30*16) // five rows of C
	rnd := rand.New(rand.NewPCG(5, 5))
	const m, n, k = 23, 30, 9
	a, b, c := zRand(rnd, m*k), zRand(rnd, k*n), zRand(rnd, m*n)
	for _, nan := range []bool{false, true} {
		if nan {
			a[17*k+3] = cmplx.NaN() // row 17: the fourth slab
		}
		want := append([]complex128(nil), c...)
		gonum.Implementation{}.Zgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1i, a, k, b, n, 2, want, n)
		got := append([]complex128(nil), c...)
		impl.Zgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1i, a, k, b, n, 2, got, n)
		for i := range got {
			if !zSame(got[i], want[i]) && cmplx.Abs(got[i]-want[i]) > 1e-14*cmplx.Abs(want[i]) {
				t.Fatalf("NaN %v: element %d = %v, want %v", nan, i, got[i], want[i])
			}
		}
	}
	if st := impl.Stats()["Zgemm"]; st.Device != 1 || st.NonFinite != 1 {
		t.Errorf("Stats %+v, want one call on the device and one finished by gonum for its NaN", st)
	}
}

// TestZgemm3MSmall runs the 3M method's kernels (z3_pack, z3_combine) on a
// few small resident products, views of padded matrices, with every
// transpose and complex scalars, against gonum; small enough for Oclgrind.
// (Resident, since on devices other than CPUs the drop-in Zgemm takes the
// staged pipeline, which is 4M.)
func TestZgemm3MSmall(t *testing.T) {
	impl, e := privateImpl(t, nil)
	e.ZMethod = eng.Z3M
	rnd := rand.New(rand.NewPCG(3, 3))
	const m, n, k, ld = 5, 4, 3, 7
	for _, tr := range [][2]blas.Transpose{{blas.NoTrans, blas.ConjTrans}, {blas.Trans, blas.NoTrans}, {blas.ConjTrans, blas.Trans}} {
		for _, beta := range []complex128{0, 1, 0.5 - 2i} {
			a, b, c := zRand(rnd, ld*ld), zRand(rnd, ld*ld), zRand(rnd, ld*ld)
			want := append([]complex128(nil), c...)
			gonum.Implementation{}.Zgemm(tr[0], tr[1], m, n, k, 1.5+1i, a, ld, b, ld, beta, want, ld)
			got := zgemm3MResident(t, impl, tr, m, n, k, 1.5+1i, a, b, beta, c, ld)
			if err := zRelErr(got, want, ld, ld, ld); !(err <= 1e-14) {
				t.Errorf("Gemm %c%c beta=%v: relative error %g", tr[0], tr[1], beta, err)
			}
			w64 := toC64(c)
			gonum.Implementation{}.Cgemm(tr[0], tr[1], m, n, k, 1.5+1i, toC64(a), ld, toC64(b), ld, complex64(beta), w64, ld)
			g64 := zgemm3MResident(t, impl, tr, m, n, k, complex64(1.5+1i), toC64(a), toC64(b), complex64(beta), toC64(c), ld)
			if err := zRelErr(toC128(g64), toC128(w64), ld, ld, ld); !(err <= 2e-6) {
				t.Errorf("Gemm (complex64) %c%c beta=%v: relative error %g", tr[0], tr[1], beta, err)
			}
		}
	}
}

// zgemm3MResident computes C = alpha·op(A)·op(B) + beta·C on views of
// ld×ld device matrices holding a, b and c (op(A) m×k, op(B) k×n) and
// returns the whole of C's matrix afterwards.
func zgemm3MResident[T complex64 | complex128](t *testing.T, impl *Implementation, tr [2]blas.Transpose, m, n, k int, alpha T, a, b []T, beta T, c []T, ld int) []T {
	t.Helper()
	view := func(data []T, r, cols int) (*Matrix[T], *Matrix[T]) {
		full, err := NewMatrixFrom(impl, ld, ld, data)
		if err != nil {
			t.Fatal(err)
		}
		v, err := full.View(0, 0, r, cols)
		if err != nil {
			t.Fatal(err)
		}
		return full, v
	}
	ar, ac := m, k
	if tr[0] != blas.NoTrans {
		ar, ac = k, m
	}
	br, bc := k, n
	if tr[1] != blas.NoTrans {
		br, bc = n, k
	}
	fa, va := view(a, ar, ac)
	fb, vb := view(b, br, bc)
	fc, vc := view(c, m, n)
	defer fa.Release()
	defer fb.Release()
	defer fc.Release()
	ev, err := Gemm(tr[0], tr[1], alpha, va, vb, beta, vc)
	if err == nil {
		err = ev.Wait()
	}
	if err != nil {
		t.Fatal(err)
	}
	out := make([]T, ld*ld)
	if err := fc.Read(out); err != nil {
		t.Fatal(err)
	}
	return out
}
