package clblas

import (
	"context"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// TestResidentComplexL12 runs the resident level 1 and 2 operations on
// complex128 views (vectors with an offset and increment 2, matrices at an
// offset with a padded stride) against gonum's Z routines, and Dot and
// Gemv on complex64 ones.
func TestResidentComplexL12(t *testing.T) { residentComplexL12(t, newTestImpl(t)) }

// TestResidentComplexL12TwoLaunches is TestResidentComplexL12 with the
// partial sums and TRMV's copy over x in launches of their own (the
// engine's GemvT.Launches = 2), where PoCL takes one launch.
func TestResidentComplexL12TwoLaunches(t *testing.T) {
	impl, e := privateImpl(t, nil)
	e.GemvT = eng.GemvTShape{Launches: 2}
	residentComplexL12(t, impl)
}

func residentComplexL12(t *testing.T, impl *Implementation) {
	rnd := rand.New(rand.NewPCG(12, 13))
	const m, n = 13, 9
	z := func(l int) []complex128 {
		v := make([]complex128, l)
		for i := range v {
			v[i] = complex(2*rnd.Float64()-1, 2*rnd.Float64()-1)
		}
		return v
	}
	// vec uploads data as the view (1, len, 2) of a larger vector.
	vec := func(data []complex128) *Vector[complex128] {
		t.Helper()
		big, err := NewVector[complex128](impl, 2*len(data)+2)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { big.Release() })
		v, err := big.View(1, len(data), 2)
		if err != nil {
			t.Fatal(err)
		}
		if ev, err := v.Write(data); err != nil || ev.Wait() != nil {
			t.Fatalf("writing a vector: %v", err)
		}
		return v
	}
	same := func(name string, got, want []complex128) {
		t.Helper()
		for i := range want {
			if cmplx.Abs(got[i]-want[i]) > 1e-12*(1+cmplx.Abs(want[i])) {
				t.Errorf("%s: element %d = %v, gonum %v", name, i, got[i], want[i])
				return
			}
		}
	}
	readV := func(v *Vector[complex128]) []complex128 {
		t.Helper()
		out := make([]complex128, v.Len())
		if err := v.Read(out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	readM := func(a *Matrix[complex128]) []complex128 {
		t.Helper()
		r, c := a.Dims()
		out := make([]complex128, r*c)
		if err := a.Read(out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	done := func(name string, ev *Event, err error) {
		t.Helper()
		if err == nil {
			err = ev.Wait()
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	value := func(s *Scalar[complex128], err error) complex128 {
		t.Helper()
		if err == nil {
			var v complex128
			if v, err = s.Value(context.Background()); err == nil {
				return v
			}
		}
		t.Fatal(err)
		return 0
	}
	alpha, beta := complex(0.5, -1.5), complex(-0.25, 0.75)

	// Level 1.
	x0, y0 := z(n), z(n)
	x, y := vec(x0), vec(y0)
	if got, want := value(Dot(x, y)), native.Zdotu(n, x0, 1, y0, 1); cmplx.Abs(got-want) > 1e-12 {
		t.Errorf("Dot = %v, gonum %v", got, want)
	}
	if got, want := value(Dotc(x, y)), native.Zdotc(n, x0, 1, y0, 1); cmplx.Abs(got-want) > 1e-12 {
		t.Errorf("Dotc = %v, gonum %v", got, want)
	}
	if got, want := value(Asum(x)), native.Dzasum(n, x0, 1); cmplx.Abs(got-complex(want, 0)) > 1e-12 {
		t.Errorf("Asum = %v, gonum %v", got, want)
	}
	if got, want := value(Nrm2(x)), native.Dznrm2(n, x0, 1); cmplx.Abs(got-complex(want, 0)) > 1e-12 {
		t.Errorf("Nrm2 = %v, gonum %v", got, want)
	}
	if s, err := Iamax(x); err != nil {
		t.Fatal(err)
	} else if got, err := s.Value(context.Background()); err != nil || got != native.Izamax(n, x0, 1) {
		t.Errorf("Iamax = %d, %v; gonum %d", got, err, native.Izamax(n, x0, 1))
	}
	ev, err := Axpy(alpha, x, y)
	done("Axpy", ev, err)
	native.Zaxpy(n, alpha, x0, 1, y0, 1)
	same("Axpy", readV(y), y0)
	ev, err = Scal(beta, y)
	done("Scal", ev, err)
	native.Zscal(n, beta, y0, 1)
	same("Scal", readV(y), y0)
	ev, err = Swap(x, y)
	done("Swap", ev, err)
	same("Swap x", readV(x), y0)
	same("Swap y", readV(y), x0)
	ev, err = Copy(y, x)
	done("Copy", ev, err)
	same("Copy", readV(x), x0)

	// Level 2.
	a0 := z(m * n)
	for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans} {
		a := residentView(t, impl, m, n, a0)
		lx, ly := n, m
		if tA != blas.NoTrans {
			lx, ly = m, n
		}
		xs, ys := z(lx), z(ly)
		x, y := vec(xs), vec(ys)
		ev, err := Gemv(tA, alpha, a, x, beta, y)
		done("Gemv", ev, err)
		native.Zgemv(tA, m, n, alpha, a0, n, xs, 1, beta, ys, 1)
		same("Gemv "+string(rune(tA)), readV(y), ys)
	}
	xm, yn := z(m), z(n)
	for _, conj := range []bool{false, true} {
		a := residentView(t, impl, m, n, a0)
		want := append([]complex128(nil), a0...)
		var ev *Event
		var err error
		if conj {
			ev, err = Gerc(alpha, vec(xm), vec(yn), a)
			native.Zgerc(m, n, alpha, xm, 1, yn, 1, want, n)
		} else {
			ev, err = Ger(alpha, vec(xm), vec(yn), a)
			native.Zgeru(m, n, alpha, xm, 1, yn, 1, want, n)
		}
		done("Ger", ev, err)
		same("Ger", readM(a), want)
	}
	s0 := z(n * n)
	for i := range n {
		s0[i*n+i] += 4
	}
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		xs, ys := z(n), z(n)
		yv := vec(ys)
		ev, err := Hemv(ul, alpha, residentView(t, impl, n, n, s0), vec(xs), beta, yv)
		done("Hemv", ev, err)
		native.Zhemv(ul, n, alpha, s0, n, xs, 1, beta, ys, 1)
		same("Hemv", readV(yv), ys)
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.ConjTrans} {
			for _, solve := range []bool{false, true} {
				xs := z(n)
				xv := vec(xs)
				var ev *Event
				var err error
				if solve {
					ev, err = Trsv(ul, tA, blas.NonUnit, residentView(t, impl, n, n, s0), xv)
					native.Ztrsv(ul, tA, blas.NonUnit, n, s0, n, xs, 1)
				} else {
					ev, err = Trmv(ul, tA, blas.Unit, residentView(t, impl, n, n, s0), xv)
					native.Ztrmv(ul, tA, blas.Unit, n, s0, n, xs, 1)
				}
				done("Trmv/Trsv", ev, err)
				same("Trmv/Trsv", readV(xv), xs)
			}
		}
		a := residentView(t, impl, n, n, s0)
		want := append([]complex128(nil), s0...)
		xs = z(n)
		ev, err = Her(ul, 0.75, vec(xs), a)
		done("Her", ev, err)
		native.Zher(ul, n, 0.75, xs, 1, want, n)
		same("Her", readM(a), want)
		ev, err = Her2(ul, alpha, vec(xs), vec(ys), a)
		done("Her2", ev, err)
		native.Zher2(ul, n, alpha, xs, 1, ys, 1, want, n)
		same("Her2", readM(a), want)
	}

	// Band and packed storage.
	const k = 2
	band, packed := z(n*(k+1)), z(n*(n+1)/2)
	for i := range n {
		band[i*(k+1)] += 4 // upper band: the diagonal comes first
		band[i*(k+1)+k] += 4
	}
	for i, p := 0, 0; i < n; i++ { // both packed triangles' diagonals
		packed[p] += 4
		packed[i*(i+1)/2+i] += 4
		p += n - i
	}
	packedV := func() *Vector[complex128] {
		v, err := NewVectorFrom(impl, packed)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { v.Release() })
		return v
	}
	gb := z(m * (1 + k + 1))
	for _, tA := range []blas.Transpose{blas.NoTrans, blas.ConjTrans} {
		lx, ly := n, m
		if tA != blas.NoTrans {
			lx, ly = m, n
		}
		xs, ys := z(lx), z(ly)
		yv := vec(ys)
		ev, err := Gbmv(tA, m, n, 1, k, alpha, residentView(t, impl, m, k+2, gb), vec(xs), beta, yv)
		done("Gbmv", ev, err)
		native.Zgbmv(tA, m, n, 1, k, alpha, gb, k+2, xs, 1, beta, ys, 1)
		same("Gbmv", readV(yv), ys)
	}
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		xs, ys := z(n), z(n)
		yv := vec(ys)
		ev, err := Hbmv(ul, k, alpha, residentView(t, impl, n, k+1, band), vec(xs), beta, yv)
		done("Hbmv", ev, err)
		native.Zhbmv(ul, n, k, alpha, band, k+1, xs, 1, beta, ys, 1)
		same("Hbmv", readV(yv), ys)
		yv = vec(ys)
		ev, err = Hpmv(ul, alpha, packedV(), vec(xs), beta, yv)
		done("Hpmv", ev, err)
		native.Zhpmv(ul, n, alpha, packed, xs, 1, beta, ys, 1)
		same("Hpmv", readV(yv), ys)
		for _, tA := range []blas.Transpose{blas.Trans, blas.ConjTrans} {
			type triCall struct {
				name string
				dev  func(x *Vector[complex128]) (*Event, error)
				ref  func(x []complex128)
			}
			for _, tc := range []triCall{
				{"Tbmv", func(x *Vector[complex128]) (*Event, error) {
					return Tbmv(ul, tA, blas.NonUnit, k, residentView(t, impl, n, k+1, band), x)
				}, func(x []complex128) { native.Ztbmv(ul, tA, blas.NonUnit, n, k, band, k+1, x, 1) }},
				{"Tbsv", func(x *Vector[complex128]) (*Event, error) {
					return Tbsv(ul, tA, blas.NonUnit, k, residentView(t, impl, n, k+1, band), x)
				}, func(x []complex128) { native.Ztbsv(ul, tA, blas.NonUnit, n, k, band, k+1, x, 1) }},
				{"Tpmv", func(x *Vector[complex128]) (*Event, error) { return Tpmv(ul, tA, blas.Unit, packedV(), x) },
					func(x []complex128) { native.Ztpmv(ul, tA, blas.Unit, n, packed, x, 1) }},
				{"Tpsv", func(x *Vector[complex128]) (*Event, error) { return Tpsv(ul, tA, blas.NonUnit, packedV(), x) },
					func(x []complex128) { native.Ztpsv(ul, tA, blas.NonUnit, n, packed, x, 1) }},
			} {
				xs := z(n)
				xv := vec(xs)
				ev, err := tc.dev(xv)
				done(tc.name, ev, err)
				tc.ref(xs)
				same(tc.name, readV(xv), xs)
			}
		}
		ap := packedV()
		want := append([]complex128(nil), packed...)
		ev, err = Hpr(ul, -0.5, vec(xs), ap)
		done("Hpr", ev, err)
		native.Zhpr(ul, n, -0.5, xs, 1, want)
		ev, err = Hpr2(ul, alpha, vec(xs), vec(ys), ap)
		done("Hpr2", ev, err)
		native.Zhpr2(ul, n, alpha, xs, 1, ys, 1, want)
		same("Hpr, Hpr2", readV(ap), want)
	}

	// complex64: Dot and Gemv.
	x32, y32 := make([]complex64, n), make([]complex64, m)
	a32 := make([]complex64, m*n)
	for i := range a32 {
		a32[i] = complex64(a0[i])
	}
	for i := range x32 {
		x32[i] = complex64(x0[i])
	}
	xv, err := NewVectorFrom(impl, x32)
	if err != nil {
		t.Fatal(err)
	}
	defer xv.Release()
	yv, err := NewVector[complex64](impl, m)
	if err != nil {
		t.Fatal(err)
	}
	defer yv.Release()
	av, err := NewMatrixFrom(impl, m, n, a32)
	if err != nil {
		t.Fatal(err)
	}
	defer av.Release()
	ev, err = Gemv(blas.NoTrans, complex64(alpha), av, xv, 0, yv)
	done("Gemv complex64", ev, err)
	native.Cgemv(blas.NoTrans, m, n, complex64(alpha), a32, n, x32, 1, 0, y32, 1)
	got := make([]complex64, m)
	if err := yv.Read(got); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if cmplx.Abs(complex128(got[i]-y32[i])) > 1e-4 {
			t.Errorf("Gemv complex64: element %d = %v, gonum %v", i, got[i], y32[i])
		}
	}
	s, err := Dot(yv, yv)
	if err != nil {
		t.Fatal(err)
	}
	if d, err := s.Value(context.Background()); err != nil || cmplx.Abs(complex128(d-native.Cdotu(m, y32, 1, y32, 1))) > 1e-3 {
		t.Errorf("Dot complex64 = %v, %v; gonum %v", d, err, native.Cdotu(m, y32, 1, y32, 1))
	}
}
