package cllapack

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// useForTest installs impl for lapack64 and puts gonum's back when t ends.
func useForTest(t *testing.T, impl *Implementation) {
	lapack64.Use(impl)
	t.Cleanup(func() { lapack64.Use(gonum.Implementation{}) })
}

// TestMatThroughUse checks that mat.Cholesky, mat.LU, mat.QR, mat.Dense.Solve and
// mat.Dense.Inverse give gonum's answers with ours installed through
// lapack64.Use, and that the device path ran.
func TestMatThroughUse(t *testing.T) {
	impl := newTestImpl(t, 32)
	rnd := rand.New(rand.NewPCG(11, 12))
	const n, nrhs = 150, 20
	a := mat.NewDense(n, n, nil)
	b := mat.NewDense(n, nrhs, nil)
	for i := range n {
		for j := range n {
			a.Set(i, j, rnd.NormFloat64())
		}
		for j := range nrhs {
			b.Set(i, j, rnd.NormFloat64())
		}
	}
	sym := mat.NewSymDense(n, spd(n, n, rnd))

	// Gonum's answers first, with gonum's LAPACK installed.
	lapack64.Use(gonum.Implementation{})
	var cholW mat.Cholesky
	if !cholW.Factorize(sym) {
		t.Fatal("gonum: Cholesky failed")
	}
	var xcW, xW, invW, xqW mat.Dense
	var qrW mat.QR
	qrW.Factorize(a)
	if err := qrW.SolveTo(&xqW, false, b); err != nil {
		t.Fatal(err)
	}
	if err := cholW.SolveTo(&xcW, b); err != nil {
		t.Fatal(err)
	}
	if err := xW.Solve(a, b); err != nil {
		t.Fatal(err)
	}
	if err := invW.Inverse(a); err != nil {
		t.Fatal(err)
	}

	useForTest(t, impl)
	before := impl.onDevice.Load()
	var chol mat.Cholesky
	if !chol.Factorize(sym) {
		t.Fatal("Cholesky failed")
	}
	var xc, x, inv mat.Dense
	if err := chol.SolveTo(&xc, b); err != nil {
		t.Fatal(err)
	}
	if err := x.Solve(a, b); err != nil {
		t.Fatal(err)
	}
	if err := inv.Inverse(a); err != nil {
		t.Fatal(err)
	}
	var qr mat.QR
	qr.Factorize(a)
	var xq mat.Dense
	if err := qr.SolveTo(&xq, false, b); err != nil {
		t.Fatal(err)
	}
	var q, qW, r, qr2 mat.Dense
	qr.QTo(&q)
	qrW.QTo(&qW)
	qr.RTo(&r)
	qr2.Mul(&q, &r)
	if !mat.EqualApprox(&q, &qW, 1e-10) {
		t.Error("QR.QTo differs from gonum's")
	}
	if !mat.EqualApprox(&qr2, a, 1e-10) {
		t.Error("Q·R differs from A")
	}
	var lu mat.LU
	lu.Factorize(a)
	var xl mat.Dense
	if err := lu.SolveTo(&xl, false, b); err != nil {
		t.Fatal(err)
	}
	// Cholesky, its solve, Solve's LU and solve, Inverse's LU, the QR,
	// its Qᵀ·B and triangular solve and its Q, the LU and its solve.
	if got := impl.onDevice.Load() - before; got < 11 {
		t.Errorf("%d calls ran on the device, want at least 11", got)
	}
	for _, c := range []struct {
		name      string
		got, want mat.Matrix
	}{
		{"Cholesky.SolveTo", &xc, &xcW},
		{"Dense.Solve", &x, &xW},
		{"LU.SolveTo", &xl, &xW},
		{"QR.SolveTo", &xq, &xqW},
		{"Dense.Inverse", &inv, &invW},
	} {
		if !mat.EqualApprox(c.got, c.want, 1e-9) {
			t.Errorf("%s differs from gonum's", c.name)
		}
	}
	var u, uW mat.TriDense
	chol.UTo(&u)
	cholW.UTo(&uW)
	if !mat.EqualApprox(&u, &uW, 1e-10) {
		t.Error("Cholesky factor differs from gonum's")
	}

	// A singular matrix is reported as gonum reports it.
	s := mat.NewDense(n, n, nil)
	s.Copy(a)
	for i := range n {
		s.Set(i, 7, 0)
	}
	var xs mat.Dense
	if err := xs.Solve(s, b); err == nil {
		t.Error("Dense.Solve of a singular matrix returned no error")
	}
	// So is a matrix that is not positive definite.
	ns := mat.NewSymDense(n, nil)
	ns.CopySym(sym)
	ns.SetSym(100, 100, -1)
	var cn mat.Cholesky
	if cn.Factorize(ns) {
		t.Error("Cholesky of a matrix that is not positive definite succeeded")
	}
}
