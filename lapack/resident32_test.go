package cllapack

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/gonum"

	clblas "github.com/gocompute/opencl/blas"
)

// TestResidentFloat32 factorises float32 matrices on the device and checks
// the residuals ‖UᵀU − A‖, ‖L·U − P·A‖ and ‖Q·R − A‖ with ‖QᵀQ − I‖ (in
// float64 on the host) against float32's precision, and that a non-positive-definite and a singular
// matrix are reported.
func TestResidentFloat32(t *testing.T) { residentFloat32(t, newTestImpl(t, 32)) }

// TestResidentFloat32Grid is TestResidentFloat32 with LU's panels by
// getrf_grid in float32.
func TestResidentFloat32Grid(t *testing.T) {
	impl := gridTestImpl(t, 32, 1, 4)
	residentFloat32(t, impl)
	if s := impl.gridState.Load(); s != gridYes {
		t.Errorf("the grid path did not run (state %d)", s)
	}
}

func residentFloat32(t *testing.T, impl *Implementation) {
	rnd := rand.New(rand.NewPCG(33, 34))
	const n = 100
	tol := 50 * n * math.Pow(2, -24)

	a := spd(n, n, rnd)
	ok, got := factor32(t, a, func(d *clblas.Matrix[float32]) (bool, error) { return Potrf(impl, blas.Upper, d) })
	if !ok {
		t.Fatal("Potrf: not positive definite")
	}
	for i := range n {
		for j := range i {
			got[i*n+j] = 0
		}
	}
	uu := make([]float64, n*n)
	blas64.Implementation().Dgemm(blas.Trans, blas.NoTrans, n, n, n, 1, got, n, got, n, 0, uu, n)
	if r := relDiff(uu, rounded(a)); r > tol {
		t.Errorf("Potrf: ‖UᵀU − A‖/‖A‖ = %g > %g", r, tol)
	}

	g := make([]float64, n*n)
	for i := range g {
		g[i] = rnd.NormFloat64()
	}
	ipiv := make([]int, n)
	ok, lu := factor32(t, g, func(d *clblas.Matrix[float32]) (bool, error) { return Getrf(impl, d, ipiv) })
	if !ok {
		t.Fatal("Getrf: singular")
	}
	l, u := make([]float64, n*n), make([]float64, n*n)
	for i := range n {
		for j := range n {
			switch {
			case j < i:
				l[i*n+j] = lu[i*n+j]
			case j == i:
				l[i*n+j] = 1
				u[i*n+j] = lu[i*n+j]
			default:
				u[i*n+j] = lu[i*n+j]
			}
		}
	}
	prod := make([]float64, n*n)
	blas64.Implementation().Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, l, n, u, n, 0, prod, n)
	pa := rounded(g)
	gonum.Implementation{}.Dlaswp(n, pa, n, 0, n-1, ipiv, 1)
	if r := relDiff(prod, pa); r > tol {
		t.Errorf("Getrf: ‖L·U − P·A‖/‖A‖ = %g > %g", r, tol)
	}

	tau := make([]float32, n)
	_, qr := factor32(t, g, func(d *clblas.Matrix[float32]) (bool, error) { return true, Geqrf(impl, d, tau) })
	checkQR32(t, g, qr, tau, n, tol)

	a[50*n+50] = -1e6
	if ok, _ := factor32(t, a, func(d *clblas.Matrix[float32]) (bool, error) { return Potrf(impl, blas.Lower, d) }); ok {
		t.Error("Potrf of a matrix that is not positive definite: ok")
	}
	for i := range n {
		g[i*n+40] = 0
	}
	if ok, _ := factor32(t, g, func(d *clblas.Matrix[float32]) (bool, error) { return Getrf(impl, d, ipiv) }); ok {
		t.Error("Getrf of a singular matrix: ok")
	}
}

// checkQR32 checks Geqrf's float32 factorization qr (tau) of the n×n a:
// Q formed from the reflectors by gonum's Dorgqr in float64, and R, must
// give ‖Q·R − A‖/‖A‖ and ‖QᵀQ − I‖ within tol.
func checkQR32(t *testing.T, a, qr []float64, tau32 []float32, n int, tol float64) {
	t.Helper()
	tau := make([]float64, n)
	for i, v := range tau32 {
		tau[i] = float64(v)
	}
	r := make([]float64, n*n)
	for i := range n {
		for j := i; j < n; j++ {
			r[i*n+j] = qr[i*n+j]
		}
	}
	q := append([]float64(nil), qr...)
	work := make([]float64, 64*n)
	gonum.Implementation{}.Dorgqr(n, n, n, q, n, tau, work, len(work))
	prod := make([]float64, n*n)
	blas64.Implementation().Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, q, n, r, n, 0, prod, n)
	if d := relDiff(prod, rounded(a)); d > tol {
		t.Errorf("Geqrf: ‖Q·R − A‖/‖A‖ = %g > %g", d, tol)
	}
	qtq := make([]float64, n*n)
	blas64.Implementation().Dgemm(blas.Trans, blas.NoTrans, n, n, n, 1, q, n, q, n, 0, qtq, n)
	var d float64
	for i := range n {
		qtq[i*n+i]--
		for j := range n {
			d = max(d, math.Abs(qtq[i*n+j]))
		}
	}
	if d > tol {
		t.Errorf("Geqrf: ‖QᵀQ − I‖ = %g > %g", d, tol)
	}
}

// factor32 uploads a (n×n) as float32, runs f on it and returns f's ok and
// the result widened to float64.
func factor32(t *testing.T, a []float64, f func(*clblas.Matrix[float32]) (bool, error)) (bool, []float64) {
	t.Helper()
	n := int(math.Sqrt(float64(len(a))))
	a32 := make([]float32, len(a))
	for i, v := range a {
		a32[i] = float32(v)
	}
	d, err := clblas.NewMatrixFrom(shared.blas, n, n, a32)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Release()
	ok, err := f(d)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Read(a32); err != nil {
		t.Fatal(err)
	}
	out := make([]float64, len(a))
	for i, v := range a32 {
		out[i] = float64(v)
	}
	return ok, out
}

// rounded returns a copy of a rounded to float32.
func rounded(a []float64) []float64 {
	out := make([]float64, len(a))
	for i, v := range a {
		out[i] = float64(float32(v))
	}
	return out
}

// relDiff is max|a − b| / max|b|.
func relDiff(a, b []float64) float64 {
	var d, s float64
	for i := range a {
		d = max(d, math.Abs(a[i]-b[i]))
		s = max(s, math.Abs(b[i]))
	}
	return d / s
}
