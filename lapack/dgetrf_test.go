package cllapack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/testlapack"
)

// TestDgetrfGonum runs gonum's own Dgetrf suite with the device forced and
// a small block size, so that most cases cross several blocks, with the
// panels in the device's leaves and on the host (a CPU device's default),
// and on the host with the trailing updates in column blocks of three
// panels (luOuter).
func TestDgetrfGonum(t *testing.T) {
	for _, c := range []struct {
		host  bool
		outer int
	}{{false, 0}, {true, 0}, {true, 24}} {
		impl := newTestImpl(t, 8)
		impl.hostLU, impl.luOuter = c.host, c.outer
		t.Run(fmt.Sprintf("hostLU=%v/luOuter=%d", c.host, c.outer), func(t *testing.T) { testlapack.DgetrfTest(t, impl) })
	}
}

func TestDgetrsGonum(t *testing.T) {
	impl := newTestImpl(t, 8)
	testlapack.DgetrsTest(t, impl)
}

// TestDgetrfSizes compares the device factors and pivots with gonum's at
// square and rectangular sizes that cross several blocks, strided.
func TestDgetrfSizes(t *testing.T) {
	impl := newTestImpl(t, 32)
	rnd := rand.New(rand.NewPCG(5, 6))
	for _, mn := range [][2]int{{1, 1}, {7, 7}, {64, 64}, {200, 200}, {257, 257}, {150, 70}, {70, 150}, {1, 40}, {40, 1}} {
		m, n := mn[0], mn[1]
		lda := n + 2
		a := make([]float64, (m-1)*lda+n)
		for i := range a {
			a[i] = rnd.NormFloat64()
		}
		for i := 0; i < m-1; i++ {
			a[i*lda+n] = math.NaN() // padding must not be read or written
		}
		want := append([]float64(nil), a...)
		ipivWant := make([]int, min(m, n))
		okWant := gonum.Implementation{}.Dgetrf(m, n, want, lda, ipivWant)
		ipiv := make([]int, min(m, n))
		ok := impl.Dgetrf(m, n, a, lda, ipiv)
		if ok != okWant || !ok {
			t.Fatalf("%d×%d: ok=%v, gonum %v", m, n, ok, okWant)
		}
		for i := range ipiv {
			if ipiv[i] != ipivWant[i] {
				t.Fatalf("%d×%d: ipiv[%d] = %d, want %d", m, n, i, ipiv[i], ipivWant[i])
			}
		}
		compare(t, "Dgetrf", m, n, a, want, lda, 1e-10)
		checkPadding(t, "Dgetrf", m, n, a, want, lda)
	}
}

// TestDgetrfSingular checks that exactly singular matrices (a zero column
// in the first block and in a later one, a zero row, a zero matrix) return
// false as gonum's Dgetrf does, with the same factors and pivots.
func TestDgetrfSingular(t *testing.T) {
	impl := newTestImpl(t, 16)
	rnd := rand.New(rand.NewPCG(7, 8))
	const n = 50
	for _, c := range []struct {
		name string
		mod  func(a []float64)
	}{
		{"zero column 3", func(a []float64) { zeroCol(a, n, 3) }},
		{"zero column 40", func(a []float64) { zeroCol(a, n, 40) }},
		{"zero row 45", func(a []float64) { clear(a[45*n : 46*n]) }},
		{"zero", func(a []float64) { clear(a) }},
	} {
		a := make([]float64, n*n)
		for i := range a {
			a[i] = rnd.NormFloat64()
		}
		c.mod(a)
		want := append([]float64(nil), a...)
		ipivWant := make([]int, n)
		okWant := gonum.Implementation{}.Dgetrf(n, n, want, n, ipivWant)
		ipiv := make([]int, n)
		ok := impl.Dgetrf(n, n, a, n, ipiv)
		if ok || okWant {
			t.Errorf("%s: ok=%v, gonum %v, want false", c.name, ok, okWant)
		}
		for i := range ipiv {
			if ipiv[i] != ipivWant[i] {
				t.Fatalf("%s: ipiv[%d] = %d, want %d", c.name, i, ipiv[i], ipivWant[i])
			}
		}
		compare(t, "Dgetrf "+c.name, n, n, a, want, n, 1e-10)
	}
}

func zeroCol(a []float64, n, j int) {
	for i := range n {
		a[i*n+j] = 0
	}
}

// TestDgetrfNaN checks that a NaN in the matrix finishes (no hang) with
// gonum's ok and NaN where gonum's factors have NaN.
func TestDgetrfNaN(t *testing.T) {
	impl := newTestImpl(t, 16)
	rnd := rand.New(rand.NewPCG(15, 16))
	const n = 40
	for _, at := range []int{0, 20*n + 30, n*n - 1} {
		a := make([]float64, n*n)
		for i := range a {
			a[i] = rnd.NormFloat64()
		}
		a[at] = math.NaN()
		want := append([]float64(nil), a...)
		okWant := gonum.Implementation{}.Dgetrf(n, n, want, n, make([]int, n))
		ok := impl.Dgetrf(n, n, a, n, make([]int, n))
		if ok != okWant {
			t.Errorf("NaN at %d: ok=%v, gonum %v", at, ok, okWant)
		}
		for i := range a {
			if math.IsNaN(a[i]) != math.IsNaN(want[i]) {
				t.Fatalf("NaN at %d: element %d is %v, gonum's %v", at, i, a[i], want[i])
			}
		}
	}
}
