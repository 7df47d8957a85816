package cllapack

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	clblas "github.com/gocompute/opencl/blas"
)

// TestResidentOrmqr multiplies matrices on the device by the Q of a QR
// factorization (gonum's Dgeqrf on the host, its reflectors uploaded, in
// float64 and rounded to float32) and by Qᵀ, against gonum's Dormqr on the
// same reflectors: one block and several (the implementation's blocks of
// 32), k below the reflector matrix's columns, C narrower than a block.
func TestResidentOrmqr(t *testing.T) {
	impl := newTestImpl(t, 32)
	t.Run("float64", func(t *testing.T) { residentOrmqr[float64](t, impl, 1e-12) })
	t.Run("float32", func(t *testing.T) { residentOrmqr[float32](t, impl, 1e-5) })
}

func residentOrmqr[T float32 | float64](t *testing.T, impl *Implementation, tol float64) {
	rnd := rand.New(rand.NewPCG(71, 72))
	g := gonum.Implementation{}
	for _, sh := range []struct{ m, ka, k, n int }{{5, 3, 3, 2}, {70, 40, 40, 3}, {130, 130, 100, 17}, {97, 64, 64, 1}} {
		a := make([]float64, sh.m*sh.ka)
		for i := range a {
			a[i] = rnd.NormFloat64()
		}
		tau := make([]float64, min(sh.m, sh.ka))
		work := make([]float64, 64*sh.ka)
		g.Dgeqrf(sh.m, sh.ka, a, sh.ka, tau, work, len(work))
		a, tau = roundTo[T](a), roundTo[T](tau[:sh.k])
		c := make([]float64, sh.m*sh.n)
		for i := range c {
			c[i] = rnd.NormFloat64()
		}
		c = roundTo[T](c)
		for _, tr := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			what := fmt.Sprintf("%c m=%d ka=%d k=%d n=%d", tr, sh.m, sh.ka, sh.k, sh.n)
			want := append([]float64(nil), c...)
			w := make([]float64, 64*sh.n)
			g.Dormqr(blas.Left, tr, sh.m, sh.n, sh.k, a, sh.ka, tau, want, sh.n, w, len(w))
			got := ormqrOnDevice[T](t, impl, tr, a, sh.m, sh.ka, tau, c, sh.n)
			var d, s float64
			for i := range want {
				d, s = max(d, math.Abs(got[i]-want[i])), max(s, math.Abs(want[i]))
			}
			if !(d <= tol*s*float64(sh.m)) {
				t.Errorf("%s: max difference %g from gonum's Dormqr (max |C| %g)", what, d, s)
			}
		}
	}
}

// roundTo returns x rounded to T, as float64.
func roundTo[T float32 | float64](x []float64) []float64 { return to64(toT[T](x)) }

// ormqrOnDevice uploads the reflectors a (m×ka) and c (m×n) as T, runs
// Ormqr and returns C as float64.
func ormqrOnDevice[T float32 | float64](t *testing.T, impl *Implementation, tr blas.Transpose, a []float64, m, ka int, tau, c []float64, n int) []float64 {
	t.Helper()
	da, err := clblas.NewMatrixFrom(impl.blas, m, ka, toT[T](a))
	if err != nil {
		t.Fatal(err)
	}
	defer da.Release()
	dc, err := clblas.NewMatrixFrom(impl.blas, m, n, toT[T](c))
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Release()
	ev, err := Ormqr(impl, tr, da, toT[T](tau), dc)
	if err == nil {
		err = ev.Wait()
	}
	if err != nil {
		t.Fatal(err)
	}
	got := make([]T, m*n)
	if err := dc.Read(got); err != nil {
		t.Fatal(err)
	}
	return to64(got)
}

// toT is x converted to T.
func toT[T float32 | float64](x []float64) []T {
	out := make([]T, len(x))
	for i, v := range x {
		out[i] = T(v)
	}
	return out
}

// to64 is x converted to float64.
func to64[T float32 | float64](x []T) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// TestResidentOrmqrArgs: bad arguments to Ormqr are errors wrapping
// clblas.ErrInvalidArg or clblas.ErrShape.
func TestResidentOrmqrArgs(t *testing.T) {
	impl := newTestImpl(t, 32)
	mk := func(r, c int) *clblas.Matrix[float64] {
		m, err := clblas.NewMatrix[float64](impl.blas, r, c)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Release() })
		return m
	}
	a, c, short := mk(6, 3), mk(6, 2), mk(5, 2)
	tau := make([]float64, 3)
	for _, x := range []struct {
		name string
		err  error
		want error
	}{
		{"bad trans", second(Ormqr(impl, 'X', a, tau, c)), clblas.ErrInvalidArg},
		{"nil a", second(Ormqr(impl, blas.NoTrans, nil, tau, c)), clblas.ErrInvalidArg},
		{"nil c", second(Ormqr[float64](impl, blas.Trans, a, tau, nil)), clblas.ErrInvalidArg},
		{"rows of C", second(Ormqr(impl, blas.NoTrans, a, tau, short)), clblas.ErrShape},
		{"no reflectors", second(Ormqr(impl, blas.NoTrans, a, nil, c)), clblas.ErrInvalidArg},
		{"more reflectors than columns", second(Ormqr(impl, blas.NoTrans, a, make([]float64, 4), c)), clblas.ErrInvalidArg},
	} {
		if !errors.Is(x.err, x.want) {
			t.Errorf("%s: %v, want an error wrapping %v", x.name, x.err, x.want)
		}
	}
}
