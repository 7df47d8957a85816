package clblas

import (
	"errors"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// residentView uploads data (rows×cols, packed) as the view at (1, 2) of
// a larger matrix, so that the operations see an offset and a stride.
func residentView(t *testing.T, impl *Implementation, rows, cols int, data []complex128) *Matrix[complex128] {
	t.Helper()
	big, err := NewMatrix[complex128](impl, rows+2, cols+3)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { big.Release() })
	v, err := big.View(1, 2, rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := v.Write(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Wait(); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestResidentComplexLevel3 runs the resident level 3 operations on
// complex128 views against gonum's Z routines.
func TestResidentComplexLevel3(t *testing.T) {
	impl := newTestImpl(t)
	rnd := rand.New(rand.NewPCG(12, 5))
	g := gonum.Implementation{}
	const m, n, k = 40, 35, 20
	alpha, beta := complex(0.5, 1), complex(-1, 0.5)
	check := func(name string, ev *Event, err error, c *Matrix[complex128], want []complex128) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := ev.Wait(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r, cc := c.Dims()
		got := make([]complex128, r*cc)
		if err := c.Read(got); err != nil {
			t.Fatal(err)
		}
		if e := zRelErr(got, want, r, cc, cc); !(e <= 1e-13) {
			t.Errorf("%s: relative error %g", name, e)
		}
	}
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		for _, s := range []blas.Side{blas.Left, blas.Right} {
			ka := n
			if s == blas.Left {
				ka = m
			}
			a0, b0, c0 := zRand(rnd, ka*ka), zRand(rnd, m*n), zRand(rnd, m*n)
			for i := range ka {
				a0[i*ka+i] += 4
			}
			a, b := residentView(t, impl, ka, ka, a0), residentView(t, impl, m, n, b0)
			want := append([]complex128(nil), c0...)
			g.Zsymm(s, ul, m, n, alpha, a0, ka, b0, n, beta, want, n)
			c := residentView(t, impl, m, n, c0)
			ev, err := Symm(s, ul, alpha, a, b, beta, c)
			check("Symm", ev, err, c, want)

			want = append([]complex128(nil), c0...)
			g.Zhemm(s, ul, m, n, alpha, a0, ka, b0, n, beta, want, n)
			c = residentView(t, impl, m, n, c0)
			ev, err = Hemm(s, ul, alpha, a, b, beta, c)
			check("Hemm", ev, err, c, want)

			for _, tA := range allTrans {
				for _, d := range []blas.Diag{blas.NonUnit, blas.Unit} {
					want = append([]complex128(nil), b0...)
					g.Ztrmm(s, ul, tA, d, m, n, alpha, a0, ka, want, n)
					bb := residentView(t, impl, m, n, b0)
					ev, err = Trmm(s, ul, tA, d, alpha, a, bb)
					check("Trmm", ev, err, bb, want)

					want = append([]complex128(nil), b0...)
					g.Ztrsm(s, ul, tA, d, m, n, alpha, a0, ka, want, n)
					bb = residentView(t, impl, m, n, b0)
					ev, err = Trsm(s, ul, tA, d, alpha, a, bb)
					check("Trsm", ev, err, bb, want)
				}
			}
		}
		for _, tr := range allTrans {
			ar, ac := n, k
			if tr != blas.NoTrans {
				ar, ac = k, n
			}
			a0, b0, c0 := zRand(rnd, ar*ac), zRand(rnd, ar*ac), zRand(rnd, n*n)
			a, b := residentView(t, impl, ar, ac, a0), residentView(t, impl, ar, ac, b0)
			if tr != blas.ConjTrans {
				want := append([]complex128(nil), c0...)
				g.Zsyrk(ul, tr, n, k, alpha, a0, ac, beta, want, n)
				c := residentView(t, impl, n, n, c0)
				ev, err := Syrk(ul, tr, alpha, a, beta, c)
				check("Syrk", ev, err, c, want)

				want = append([]complex128(nil), c0...)
				g.Zsyr2k(ul, tr, n, k, alpha, a0, ac, b0, ac, beta, want, n)
				c = residentView(t, impl, n, n, c0)
				ev, err = Syr2k(ul, tr, alpha, a, b, beta, c)
				check("Syr2k", ev, err, c, want)
			} else if _, err := Syrk(ul, tr, alpha, a, beta, residentView(t, impl, n, n, c0)); !errors.Is(err, ErrInvalidArg) {
				t.Errorf("Syrk with ConjTrans on complex matrices: err = %v, want ErrInvalidArg", err)
			}
			if tr != blas.Trans {
				want := append([]complex128(nil), c0...)
				g.Zherk(ul, tr, n, k, 0.5, a0, ac, -2, want, n)
				c := residentView(t, impl, n, n, c0)
				ev, err := Herk(ul, tr, 0.5, a, -2, c)
				check("Herk", ev, err, c, want)

				want = append([]complex128(nil), c0...)
				g.Zher2k(ul, tr, n, k, alpha, a0, ac, b0, ac, 0.25, want, n)
				c = residentView(t, impl, n, n, c0)
				ev, err = Her2k(ul, tr, alpha, a, b, 0.25, c)
				check("Her2k", ev, err, c, want)
			}
		}
	}
}
