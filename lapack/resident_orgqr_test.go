package cllapack

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	clblas "github.com/gocompute/opencl/blas"
)

// TestResidentOrgqr forms Q on the device from the reflectors of gonum's
// Dgeqrf (in float64 and rounded to float32), against gonum's Dorgqr on
// the same reflectors: square and tall, k below n (the columns from k on
// start as the identity's), k == 0, one column, one block and several
// (blocks of 32), with a last block narrower than the others.
func TestResidentOrgqr(t *testing.T) {
	impl := newTestImpl(t, 32)
	t.Run("float64", func(t *testing.T) { residentOrgqr[float64](t, impl, 1e-12) })
	t.Run("float32", func(t *testing.T) { residentOrgqr[float32](t, impl, 1e-5) })
}

func residentOrgqr[T float32 | float64](t *testing.T, impl *Implementation, tol float64) {
	rnd := rand.New(rand.NewPCG(81, 82))
	g := gonum.Implementation{}
	for _, sh := range []struct{ m, n, k int }{
		{5, 5, 5}, {7, 4, 4}, {7, 4, 2}, {6, 3, 0}, {9, 1, 1},
		{32, 32, 32}, {70, 40, 40}, {70, 40, 33}, {130, 100, 100}, {130, 100, 70},
	} {
		what := fmt.Sprintf("m=%d n=%d k=%d", sh.m, sh.n, sh.k)
		a, tau := gonumQR[T](rnd, sh.m, sh.n)
		tau = tau[:sh.k]
		want := append([]float64(nil), a...)
		w := make([]float64, 64*sh.n)
		g.Dorgqr(sh.m, sh.n, sh.k, want, sh.n, tau, w, len(w))
		da := upload[T](t, impl, a, sh.m, sh.n)
		ev, err := Orgqr(impl, da, toT[T](tau))
		got := download(t, ev, err, da)
		if d, _ := maxDiff(got, want); !(d <= tol*float64(sh.m)) {
			t.Errorf("%s: max difference %g from gonum's Dorgqr", what, d)
		}
	}
}

// TestResidentOrgqrArgs: bad arguments to Orgqr are errors wrapping
// clblas.ErrInvalidArg or clblas.ErrShape, and leave a as it was.
func TestResidentOrgqrArgs(t *testing.T) {
	impl := newTestImpl(t, 32)
	a := upload[float64](t, impl, []float64{1, 2, 3, 4, 5, 6}, 3, 2)
	wide := upload[float64](t, impl, make([]float64, 6), 2, 3)
	for _, x := range []struct {
		name string
		err  error
		want error
	}{
		{"nil a", second(Orgqr[float64](impl, nil, []float64{1})), clblas.ErrInvalidArg},
		{"wider than tall", second(Orgqr(impl, wide, []float64{1})), clblas.ErrShape},
		{"more reflectors than columns", second(Orgqr(impl, a, make([]float64, 3))), clblas.ErrInvalidArg},
	} {
		if !errors.Is(x.err, x.want) {
			t.Errorf("%s: %v, want an error wrapping %v", x.name, x.err, x.want)
		}
		if x.err != nil && !strings.HasPrefix(x.err.Error(), "cllapack: Orgqr: ") {
			t.Errorf("%s: %q does not name Orgqr", x.name, x.err)
		}
	}
	if got := download(t, nil, nil, a); fmt.Sprint(got) != "[1 2 3 4 5 6]" {
		t.Errorf("a = %v after the bad calls, want it untouched", got)
	}
}

// TestResidentQRFailedDependency: a failed event among the dependencies of
// Ormqr from the right and of Orgqr is an error naming the operation and
// the dependency, and nothing is enqueued.
func TestResidentQRFailedDependency(t *testing.T) {
	impl := newTestImpl(t, 32)
	failed := failedEvent(t, impl)
	a := upload[float64](t, impl, []float64{2, 1, 1, 3}, 2, 2)
	c := upload[float64](t, impl, []float64{1, 2}, 1, 2)
	_, err := Ormqr(impl, blas.Right, blas.NoTrans, a, []float64{0.5}, c, nil, failed)
	if err == nil || !strings.Contains(err.Error(), "Ormqr: a dependency failed") {
		t.Errorf("Ormqr from the right after a failed event: %v", err)
	}
	_, err = Orgqr(impl, a, []float64{0.5}, failed)
	if err == nil || !strings.Contains(err.Error(), "Orgqr: a dependency failed") {
		t.Errorf("Orgqr after a failed event: %v", err)
	}
	if got := download(t, nil, nil, c); fmt.Sprint(got) != "[1 2]" {
		t.Errorf("C = %v, want it untouched", got)
	}
	if got := download(t, nil, nil, a); fmt.Sprint(got) != "[2 1 1 3]" {
		t.Errorf("a = %v, want it untouched", got)
	}
}
