package cllapack

import (
	"errors"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	clblas "github.com/gocompute/opencl/blas"
)

// TestResident factorises matrices that live on the device (one of them a
// view of a larger matrix) and compares them with gonum's factorizations.
func TestResident(t *testing.T) {
	impl := newTestImpl(t, 32)
	g := gonum.Implementation{}
	rnd := rand.New(rand.NewPCG(25, 26))
	const n = 100
	big, err := clblas.NewMatrix[float64](shared.blas, n+5, n+9)
	if err != nil {
		t.Fatal(err)
	}
	defer big.Release()
	view, err := big.View(3, 4, n, n)
	if err != nil {
		t.Fatal(err)
	}
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		a := spd(n, n, rnd)
		if _, err := view.Write(a); err != nil {
			t.Fatal(err)
		}
		ok, err := Potrf(impl, ul, view)
		if err != nil || !ok {
			t.Fatalf("Potrf %c: ok=%v, err=%v", ul, ok, err)
		}
		got := make([]float64, n*n)
		if err := view.Read(got); err != nil {
			t.Fatal(err)
		}
		g.Dpotrf(ul, n, a, n)
		compare(t, "Potrf", n, n, got, a, n, 1e-11)
	}

	a := make([]float64, n*n)
	for i := range a {
		a[i] = rnd.NormFloat64()
	}
	if _, err := view.Write(a); err != nil {
		t.Fatal(err)
	}
	ipiv, ipivWant := make([]int, n), make([]int, n)
	ok, err := Getrf(impl, view, ipiv)
	if err != nil || !ok {
		t.Fatalf("Getrf: ok=%v, err=%v", ok, err)
	}
	got := make([]float64, n*n)
	if err := view.Read(got); err != nil {
		t.Fatal(err)
	}
	g.Dgetrf(n, n, a, n, ipivWant)
	compare(t, "Getrf", n, n, got, a, n, 1e-10)
	for i := range ipiv {
		if ipiv[i] != ipivWant[i] {
			t.Fatalf("Getrf: ipiv[%d] = %d, want %d", i, ipiv[i], ipivWant[i])
		}
	}

	for i := range a {
		a[i] = rnd.NormFloat64()
	}
	if _, err := view.Write(a); err != nil {
		t.Fatal(err)
	}
	tau, tauWant := make([]float64, n), make([]float64, n)
	if err := Geqrf(impl, view, tau); err != nil {
		t.Fatalf("Geqrf: %v", err)
	}
	if err := view.Read(got); err != nil {
		t.Fatal(err)
	}
	work := make([]float64, 64*n)
	g.Dgeqrf(n, n, a, n, tauWant, work, len(work))
	compare(t, "Geqrf", n, n, got, a, n, 1e-10)
	compare(t, "Geqrf tau", 1, n, tau, tauWant, n, 1e-10)

	// Nothing outside the view was touched (the big matrix was zeros).
	all := make([]float64, (n+5)*(n+9))
	if err := big.Read(all); err != nil {
		t.Fatal(err)
	}
	for i := range n + 5 {
		for j := range n + 9 {
			inside := i >= 3 && i < 3+n && j >= 4 && j < 4+n
			if !inside && all[i*(n+9)+j] != 0 {
				t.Fatalf("element [%d,%d] outside the view changed to %v", i, j, all[i*(n+9)+j])
			}
		}
	}

	// Bad arguments are errors, not panics.
	rect, err := big.View(0, 0, 4, 5)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Potrf(impl, blas.Upper, rect); !errors.Is(err, clblas.ErrShape) {
		t.Errorf("Potrf of a 4×5 matrix: %v, want ErrShape", err)
	}
	if _, err := Potrf(impl, 'X', view); !errors.Is(err, clblas.ErrInvalidArg) {
		t.Errorf("Potrf with a bad uplo: %v, want ErrInvalidArg", err)
	}
	if _, err := Getrf(impl, rect, make([]int, 5)); !errors.Is(err, clblas.ErrInvalidArg) {
		t.Errorf("Getrf with a long ipiv: %v, want ErrInvalidArg", err)
	}
	if err := Geqrf(impl, rect, make([]float64, 3)); !errors.Is(err, clblas.ErrInvalidArg) {
		t.Errorf("Geqrf with a short tau: %v, want ErrInvalidArg", err)
	}
}
