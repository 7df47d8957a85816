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
// float64 and rounded to float32) and by Qᵀ, from the left and from the
// right, against gonum's Dormqr on the same reflectors: one block and
// several (the implementation's blocks of 32), k below the reflector
// matrix's columns, C of one column (left) or one row (right).
func TestResidentOrmqr(t *testing.T) {
	impl := newTestImpl(t, 32)
	t.Run("float64", func(t *testing.T) { residentOrmqr[float64](t, impl, 1e-12) })
	t.Run("float32", func(t *testing.T) { residentOrmqr[float32](t, impl, 1e-5) })
}

func residentOrmqr[T float32 | float64](t *testing.T, impl *Implementation, tol float64) {
	rnd := rand.New(rand.NewPCG(71, 72))
	g := gonum.Implementation{}
	// C is nq×other from the left, other×nq from the right.
	for _, sh := range []struct{ nq, ka, k, other int }{{5, 3, 3, 2}, {70, 40, 40, 3}, {130, 130, 100, 17}, {97, 64, 64, 1}, {40, 33, 20, 5}} {
		a, tau := gonumQR[T](rnd, sh.nq, sh.ka)
		tau = tau[:sh.k]
		for _, side := range []blas.Side{blas.Left, blas.Right} {
			mc, nc := sh.nq, sh.other
			if side == blas.Right {
				mc, nc = sh.other, sh.nq
			}
			c := roundTo[T](randSlice(rnd, mc*nc))
			for _, tr := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				what := fmt.Sprintf("%c%c nq=%d ka=%d k=%d C %d×%d", side, tr, sh.nq, sh.ka, sh.k, mc, nc)
				want := append([]float64(nil), c...)
				w := make([]float64, 64*max(mc, nc))
				g.Dormqr(side, tr, mc, nc, sh.k, a, sh.ka, tau, want, nc, w, len(w))
				got := ormqrOnDevice[T](t, impl, side, tr, a, sh.nq, sh.ka, tau, c, mc, nc)
				if d, s := maxDiff(got, want); !(d <= tol*s*float64(sh.nq)) {
					t.Errorf("%s: max difference %g from gonum's Dormqr (max |C| %g)", what, d, s)
				}
			}
		}
	}
}

// gonumQR is gonum's Dgeqrf of a random m×n matrix: the factored matrix
// and tau, rounded to T.
func gonumQR[T float32 | float64](rnd *rand.Rand, m, n int) (a, tau []float64) {
	a = randSlice(rnd, m*n)
	tau = make([]float64, min(m, n))
	work := make([]float64, 64*n)
	gonum.Implementation{}.Dgeqrf(m, n, a, n, tau, work, len(work))
	return roundTo[T](a), roundTo[T](tau)
}

// randSlice is n normally distributed numbers.
func randSlice(rnd *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = rnd.NormFloat64()
	}
	return x
}

// maxDiff is the largest |got − want| and the largest |want|.
func maxDiff(got, want []float64) (d, s float64) {
	for i := range want {
		d, s = max(d, math.Abs(got[i]-want[i])), max(s, math.Abs(want[i]))
	}
	return d, s
}

// roundTo returns x rounded to T, as float64.
func roundTo[T float32 | float64](x []float64) []float64 { return to64(toT[T](x)) }

// ormqrOnDevice uploads the reflectors a (nq×ka) and c (mc×nc) as T, runs
// Ormqr and returns C as float64.
func ormqrOnDevice[T float32 | float64](t *testing.T, impl *Implementation, side blas.Side, tr blas.Transpose, a []float64, nq, ka int, tau, c []float64, mc, nc int) []float64 {
	t.Helper()
	da := upload[T](t, impl, a, nq, ka)
	dc := upload[T](t, impl, c, mc, nc)
	ev, err := Ormqr(impl, side, tr, da, toT[T](tau), dc)
	return download(t, ev, err, dc)
}

// upload is x (r×c) on the device as T, released when the test ends.
func upload[T float32 | float64](t *testing.T, impl *Implementation, x []float64, r, c int) *clblas.Matrix[T] {
	t.Helper()
	d, err := clblas.NewMatrixFrom(impl.blas, r, c, toT[T](x))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Release() })
	return d
}

// download waits for ev (if any; after err, the call's error) and returns
// d as float64.
func download[T float32 | float64](t *testing.T, ev *clblas.Event, err error, d *clblas.Matrix[T]) []float64 {
	t.Helper()
	if err == nil && ev != nil {
		err = ev.Wait()
	}
	if err != nil {
		t.Fatal(err)
	}
	r, c := d.Dims()
	got := make([]T, r*c)
	if err := d.Read(got); err != nil {
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
	right, narrow := mk(2, 6), mk(2, 5)
	tau := make([]float64, 3)
	for _, x := range []struct {
		name string
		err  error
		want error
	}{
		{"bad side", second(Ormqr(impl, 'X', blas.NoTrans, a, tau, c)), clblas.ErrInvalidArg},
		{"bad trans", second(Ormqr(impl, blas.Left, 'X', a, tau, c)), clblas.ErrInvalidArg},
		{"bad trans, right", second(Ormqr(impl, blas.Right, 'X', a, tau, right)), clblas.ErrInvalidArg},
		{"nil a", second(Ormqr(impl, blas.Left, blas.NoTrans, nil, tau, c)), clblas.ErrInvalidArg},
		{"nil c", second(Ormqr[float64](impl, blas.Right, blas.Trans, a, tau, nil)), clblas.ErrInvalidArg},
		{"rows of C", second(Ormqr(impl, blas.Left, blas.NoTrans, a, tau, short)), clblas.ErrShape},
		{"columns of C, right", second(Ormqr(impl, blas.Right, blas.NoTrans, a, tau, narrow)), clblas.ErrShape},
		{"rows for columns, right", second(Ormqr(impl, blas.Right, blas.Trans, a, tau, c)), clblas.ErrShape},
		{"no reflectors", second(Ormqr(impl, blas.Left, blas.NoTrans, a, nil, c)), clblas.ErrInvalidArg},
		{"more reflectors than columns", second(Ormqr(impl, blas.Left, blas.NoTrans, a, make([]float64, 4), c)), clblas.ErrInvalidArg},
		{"more reflectors than columns, right", second(Ormqr(impl, blas.Right, blas.NoTrans, a, make([]float64, 4), right)), clblas.ErrInvalidArg},
	} {
		if !errors.Is(x.err, x.want) {
			t.Errorf("%s: %v, want an error wrapping %v", x.name, x.err, x.want)
		}
	}
}
