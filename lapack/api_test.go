package cllapack

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	clblas "github.com/gocompute/opencl/blas"
)

// TestOptions checks that invalid option values are errors.
func TestOptions(t *testing.T) {
	impl := newTestImpl(t, 16)
	for name, o := range map[string]Option{
		"block size 0": WithBlockSize(0),
		"crossover -1": WithCrossover(-1),
		"policy 7":     WithOffload(clblas.Policy(7)),
		"nil logger":   WithLogger(nil),
	} {
		if _, err := New(shared.blas, o); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := New(nil); err == nil {
		t.Error("New(nil): no error")
	}
	if impl.Policy() != clblas.Always {
		t.Errorf("policy %v, want always", impl.Policy())
	}
	never, err := New(shared.blas, WithOffload(clblas.Never))
	if err != nil {
		t.Fatal(err)
	}
	a := spd(40, 40, testRand())
	if !never.Dpotrf(blas.Upper, 40, a, 40) || never.onDevice.Load() != 0 {
		t.Error("Never: the call did not stay on the CPU")
	}
	auto, err := New(shared.blas, WithOffload(clblas.Auto), WithCrossover(50))
	if err != nil {
		t.Fatal(err)
	}
	a = spd(40, 40, testRand())
	auto.Dpotrf(blas.Upper, 40, a, 40)
	if auto.onDevice.Load() != 0 {
		t.Error("Auto: an order below the crossover went to the device")
	}
	a = spd(60, 60, testRand())
	auto.Dpotrf(blas.Upper, 60, a, 60)
	if auto.onDevice.Load() != 1 {
		t.Error("Auto: an order above the crossover stayed on the CPU")
	}
}

// TestPanicsMatchGonum checks that bad arguments panic with gonum's
// message, for every routine we override.
func TestPanicsMatchGonum(t *testing.T) {
	impl := newTestImpl(t, 16)
	g := gonum.Implementation{}
	a := make([]float64, 16)
	b := make([]float64, 16)
	ipiv := make([]int, 4)
	cases := []struct {
		name      string
		ours, gon func()
	}{
		{"Dpotrf uplo", func() { impl.Dpotrf('X', 4, a, 4) }, func() { g.Dpotrf('X', 4, a, 4) }},
		{"Dpotrf lda", func() { impl.Dpotrf(blas.Upper, 4, a, 3) }, func() { g.Dpotrf(blas.Upper, 4, a, 3) }},
		{"Dpotrf short", func() { impl.Dpotrf(blas.Upper, 5, a, 5) }, func() { g.Dpotrf(blas.Upper, 5, a, 5) }},
		{"Dgetrf m", func() { impl.Dgetrf(-1, 4, a, 4, ipiv) }, func() { g.Dgetrf(-1, 4, a, 4, ipiv) }},
		{"Dgetrf ipiv", func() { impl.Dgetrf(4, 4, a, 4, ipiv[:3]) }, func() { g.Dgetrf(4, 4, a, 4, ipiv[:3]) }},
		{"Dgetrf short", func() { impl.Dgetrf(4, 5, a, 5, ipiv) }, func() { g.Dgetrf(4, 5, a, 5, ipiv) }},
		{"Dpotrs ldb", func() { impl.Dpotrs(blas.Lower, 4, 4, a, 4, b, 3) }, func() { g.Dpotrs(blas.Lower, 4, 4, a, 4, b, 3) }},
		{"Dgetrs trans", func() { impl.Dgetrs('X', 4, 4, a, 4, ipiv, b, 4) }, func() { g.Dgetrs('X', 4, 4, a, 4, ipiv, b, 4) }},
		{"Dgetrs short b", func() { impl.Dgetrs(blas.NoTrans, 4, 5, a, 4, ipiv, b, 5) }, func() { g.Dgetrs(blas.NoTrans, 4, 5, a, 4, ipiv, b, 5) }},
		{"Dtrtrs diag", func() { impl.Dtrtrs(blas.Upper, blas.NoTrans, 'X', 4, 4, a, 4, b, 4) }, func() { g.Dtrtrs(blas.Upper, blas.NoTrans, 'X', 4, 4, a, 4, b, 4) }},
	}
	for _, c := range cases {
		got, want := panicOf(c.ours), panicOf(c.gon)
		if want == "" {
			t.Fatalf("%s: gonum does not panic; the case is wrong", c.name)
		}
		if got != want {
			t.Errorf("%s: panic %q, want %q", c.name, got, want)
		}
	}
}

func panicOf(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// testRand is a fixed-seed source.
func testRand() *rand.Rand { return rand.New(rand.NewPCG(13, 14)) }
