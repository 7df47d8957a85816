package clblas

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas/gonum"
)

// Tests of complex level 1 on unit strides, where AXPY, SCAL and DOT run
// level1.cl's z kernels and COPY, SWAP, the real-alpha SCAL and ASUM the
// real kernels over 2n reals: views at every element offset modulo the
// vector width, lengths around the sizes where a vector, a group and the
// grid run out, operands aligned alike (the vector path) and not (the
// element path), and NaN and Inf in the head, the vectors and the tail.
// Each view lies inside a larger parent that is read back whole, so a
// write outside the view fails the test.

func TestLevel1ComplexVectorPath(t *testing.T) {
	t.Run("complex128", func(t *testing.T) { level1ComplexVectorPath[complex128](t) })
	t.Run("complex64", func(t *testing.T) { level1ComplexVectorPath[complex64](t) })
}

// zvec is a resident complex view with its host mirror (complex128, the
// parent's whole length).
type zvec[T complex64 | complex128] struct {
	parent, v *Vector[T]
	host      []complex128
	off, n    int
}

func newZVec[T complex64 | complex128](t *testing.T, impl *Implementation, rnd *rand.Rand, n, off int) *zvec[T] {
	t.Helper()
	host := randC128(rnd, off+n+3)
	for i, v := range host {
		host[i] = complex128(T(v))
	}
	p, err := NewVectorFrom(impl, zdata[T](host))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Release() })
	v, err := p.View(off, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	return &zvec[T]{parent: p, v: v, host: host, off: off, n: n}
}

func zdata[T complex64 | complex128](h []complex128) []T {
	out := make([]T, len(h))
	for i, v := range h {
		out[i] = T(v)
	}
	return out
}

// h is the mirror from the view's first element.
func (z *zvec[T]) h() []complex128 { return z.host[z.off:] }

// sync writes the mirror to the device.
func (z *zvec[T]) sync(t *testing.T) {
	t.Helper()
	ev, err := z.parent.Write(zdata[T](z.host))
	must(t, "Write", ev, err)
}

func (z *zvec[T]) check(t *testing.T, what string) {
	t.Helper()
	got := make([]T, len(z.host))
	if err := z.parent.Read(got); err != nil {
		t.Fatalf("%s: Read: %v", what, err)
	}
	tol := zTol[T]()
	for i, g := range got {
		if !zClose(complex128(g), z.host[i], tol) {
			t.Fatalf("%s: element %d of the parent = %v, want %v", what, i, g, z.host[i])
		}
	}
}

func zTol[T complex64 | complex128]() float64 {
	var z T
	if _, ok := any(z).(complex64); ok {
		return 1e-5
	}
	return 1e-13
}

// zClose compares parts: both NaN, the same infinity, or within tol
// relative to 1 + |want| (1 where want has a part that is not finite).
func zClose(got, want complex128, tol float64) bool {
	scale := 1 + cmplx.Abs(want)
	if math.IsNaN(scale) || math.IsInf(scale, 0) {
		scale = 1
	}
	part := func(g, w float64) bool {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return sameNonFinite(g, w)
		}
		return math.Abs(g-w) <= tol*scale
	}
	return part(real(got), real(want)) && part(imag(got), imag(want))
}

func level1ComplexVectorPath[T complex64 | complex128](t *testing.T) {
	impl := newTestImpl(t)
	var ref gonum.Implementation
	var zero T
	_, single := any(zero).(complex64)
	prec := 64
	if single {
		prec = 32
	}
	sh := testEngine(t).L1Shape(prec)
	per := max(sh.Vec/2, 1) // complex elements a vector load
	rnd := rand.New(rand.NewPCG(31, uint64(prec)))
	tol := zTol[T]()
	alpha := complex128(T(complex(0.75, -0.5)))
	var lengths []int
	for _, n := range []int{1, 2, 3, per - 1, per, per + 1, 2*per + 3, sh.Local*per + 1, sh.Groups*sh.Local*per + per + 1} {
		if n >= 1 {
			lengths = append(lengths, n)
		}
	}
	for _, n := range lengths {
		for _, ox := range []int{0, 1, max(per-1, 1)} {
			for _, oy := range []int{ox, ox + 1} {
				name := fmt.Sprintf("n=%d,offx=%d,offy=%d", n, ox, oy)
				x := newZVec[T](t, impl, rnd, n, ox)
				y := newZVec[T](t, impl, rnd, n, oy)

				ev, err := Axpy(T(alpha), x.v, y.v)
				ref.Zaxpy(n, alpha, x.h(), 1, y.h(), 1)
				must(t, "Axpy", ev, err)
				y.check(t, "Axpy "+name)

				ev, err = Scal(T(complex(-1.5, 0.25)), x.v)
				ref.Zscal(n, complex128(T(complex(-1.5, 0.25))), x.h(), 1)
				must(t, "Scal", ev, err)
				x.check(t, "Scal "+name)

				dropInDscal(t, impl, x, 0.5)
				ref.Zdscal(n, 0.5, x.h(), 1)
				x.check(t, "Zdscal "+name)

				for _, conj := range []bool{false, true} {
					f, want := Dot[T], ref.Zdotu(n, x.h(), 1, y.h(), 1)
					if conj {
						f, want = Dotc[T], ref.Zdotc(n, x.h(), 1, y.h(), 1)
					}
					s, err := f(x.v, y.v)
					if got := scalarValue(t, "Dot", s, err); !zClose(complex128(got), want, tol*math.Sqrt(float64(n))) {
						t.Errorf("Dot (conj %v) %s = %v, want %v", conj, name, got, want)
					}
				}
				a, err := Asum(x.v)
				if got, want := complex128(scalarValue(t, "Asum", a, err)), ref.Dzasum(n, x.h(), 1); !zClose(got, complex(want, 0), tol*math.Sqrt(float64(n))) {
					t.Errorf("Asum %s = %v, want %v", name, got, want)
				}
				im, err := Iamax(x.v)
				if got, want := scalarValue(t, "Iamax", im, err), ref.Izamax(n, x.h(), 1); got != want {
					t.Errorf("Iamax %s = %d, want %d", name, got, want)
				}
				nr, err := Nrm2(x.v)
				if got, want := real(complex128(scalarValue(t, "Nrm2", nr, err))), ref.Dznrm2(n, x.h(), 1); math.Abs(got-want) > tol*want {
					t.Errorf("Nrm2 %s = %v, want %v", name, got, want)
				}

				ev, err = Swap(x.v, y.v)
				ref.Zswap(n, x.h(), 1, y.h(), 1)
				must(t, "Swap", ev, err)
				x.check(t, "Swap x "+name)
				y.check(t, "Swap y "+name)

				ev, err = Copy(x.v, y.v)
				ref.Zcopy(n, x.h(), 1, y.h(), 1)
				must(t, "Copy", ev, err)
				y.check(t, "Copy "+name)

				ev, err = Scal(0, x.v)
				ref.Zscal(n, 0, x.h(), 1)
				must(t, "Scal 0", ev, err)
				x.check(t, "Scal 0 "+name)
			}
		}
	}
	level1ComplexNonFinite[T](t, impl, rnd, per)
}

// level1ComplexNonFinite puts NaN or Inf in one part of one element of
// the head, the vectors or the tail of unaligned views and checks the
// reductions and AXPY against gonum.
func level1ComplexNonFinite[T complex64 | complex128](t *testing.T, impl *Implementation, rnd *rand.Rand, per int) {
	var ref gonum.Implementation
	sh := testEngine(t).L1Shape(64)
	n := sh.Local*per + 2*per + 1
	for _, at := range []int{0, 1, n / 2, n - 1} {
		for _, bad := range []complex128{complex(math.NaN(), 0), complex(0, math.Inf(-1)), complex(math.Inf(1), 1)} {
			name := fmt.Sprintf("x[%d]=%v", at, bad)
			x := newZVec[T](t, impl, rnd, n, 1)
			y := newZVec[T](t, impl, rnd, n, 1)
			x.h()[at] = bad
			x.sync(t)
			for _, conj := range []bool{false, true} {
				f, want := Dot[T], ref.Zdotu(n, x.h(), 1, y.h(), 1)
				if conj {
					f, want = Dotc[T], ref.Zdotc(n, x.h(), 1, y.h(), 1)
				}
				s, err := f(x.v, y.v)
				if got := complex128(scalarValue(t, "Dot", s, err)); !zClose(got, want, 1e-4) {
					t.Errorf("Dot (conj %v) %s = %v, want %v", conj, name, got, want)
				}
			}
			a, err := Asum(x.v)
			if got, want := complex128(scalarValue(t, "Asum", a, err)), ref.Dzasum(n, x.h(), 1); !sameNonFinite(real(got), want) {
				t.Errorf("Asum %s = %v, want %v", name, got, want)
			}
			im, err := Iamax(x.v)
			if got, want := scalarValue(t, "Iamax", im, err), ref.Izamax(n, x.h(), 1); got != want {
				t.Errorf("Iamax %s = %d, want %d", name, got, want)
			}
			nrm2NonFinite(t, x, name)
			ev, err := Axpy(T(complex(0.5, 2)), x.v, y.v)
			ref.Zaxpy(n, complex(0.5, 2), x.h(), 1, y.h(), 1)
			must(t, "Axpy", ev, err)
			y.check(t, "Axpy "+name)
		}
	}
}

// dropInDscal runs the drop-in Zdscal or Csscal on x's view, read into
// a Go slice and written back (the test implementation sends every call
// it can to the device).
func dropInDscal[T complex64 | complex128](t *testing.T, impl *Implementation, z *zvec[T], alpha float64) {
	t.Helper()
	got := make([]T, z.n)
	if err := z.v.Read(got); err != nil {
		t.Fatal(err)
	}
	switch x := any(got).(type) {
	case []complex64:
		impl.Csscal(z.n, float32(alpha), x, 1)
	case []complex128:
		impl.Zdscal(z.n, alpha, x, 1)
	}
	ev, err := z.v.Write(got)
	must(t, "Write", ev, err)
}

// nrm2NonFinite checks Nrm2 of x against gonum's Dznrm2 with x as it is,
// then with a NaN in one more element apart from x's bad one (gonum's
// answer is +Inf if either is infinite, whichever comes first).
func nrm2NonFinite[T complex64 | complex128](t *testing.T, x *zvec[T], name string) {
	t.Helper()
	var ref gonum.Implementation
	check := func(what string) {
		nr, err := Nrm2(x.v)
		if got, want := real(complex128(scalarValue(t, "Nrm2", nr, err))), ref.Dznrm2(x.n, x.h(), 1); !sameNonFinite(got, want) {
			t.Errorf("Nrm2 %s = %v, want %v", what, got, want)
		}
	}
	check(name)
	for _, at := range []int{0, x.n / 3, x.n - 1} {
		old := x.h()[at]
		if cmplx.IsNaN(old) || cmplx.IsInf(old) {
			continue
		}
		x.h()[at] = complex(real(old), math.NaN())
		x.sync(t)
		check(fmt.Sprintf("%s, x[%d] NaN", name, at))
		x.h()[at] = old
		x.sync(t)
	}
}
