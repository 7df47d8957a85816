package cllapack

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
)

// TestPaddedRows runs Dgetrf and Dpotrf from Go slices on device matrices
// whose rows newScratch made a cache line longer (rowPad: rows of a whole
// number of 4 KiB pages, here 512 float64 wide, padRows on as on CPU
// devices), against gonum, twice each so that the second call takes the
// pooled matrix; and checks which widths get the padding.
func TestPaddedRows(t *testing.T) {
	impl := newTestImpl(t, 64)
	impl.reuse, impl.padRows = true, true
	for _, c := range []struct{ cols, pad64, pad32 int }{{512, 8, 0}, {1024, 8, 16}, {500, 0, 0}, {256, 0, 0}, {1536, 8, 0}} {
		if got := rowPad[float64](impl, c.cols); got != c.pad64 {
			t.Errorf("float64 rows of %d: pad %d, want %d", c.cols, got, c.pad64)
		}
		if got := rowPad[float32](impl, c.cols); got != c.pad32 {
			t.Errorf("float32 rows of %d: pad %d, want %d", c.cols, got, c.pad32)
		}
	}
	d, err := newScratch[float64](impl, 3, 512)
	if err != nil {
		t.Fatal(err)
	}
	if d.Stride() != 520 {
		t.Errorf("a scratch matrix 512 wide has stride %d, want 520", d.Stride())
	}
	if err := putScratch(impl, d); err != nil {
		t.Fatal(err)
	}
	const n = 512
	rnd := rand.New(rand.NewPCG(81, 82))
	before := impl.onDevice.Load()
	for call := range 2 {
		a := make([]float64, n*n)
		for i := range a {
			a[i] = rnd.NormFloat64()
		}
		want := append([]float64(nil), a...)
		ipiv, ipivWant := make([]int, n), make([]int, n)
		okWant := gonum.Implementation{}.Dgetrf(n, n, want, n, ipivWant)
		if ok := impl.Dgetrf(n, n, a, n, ipiv); ok != okWant {
			t.Fatalf("Dgetrf call %d: ok %v, gonum's %v", call, ok, okWant)
		}
		compare(t, fmt.Sprintf("Dgetrf %d×%d, call %d", n, n, call), n, n, a, want, n, 1e-10)
		s := spd(n, n, rnd)
		sw := append([]float64(nil), s...)
		gonum.Implementation{}.Dpotrf(blas.Upper, n, sw, n)
		if !impl.Dpotrf(blas.Upper, n, s, n) {
			t.Fatalf("Dpotrf call %d: not positive definite", call)
		}
		compare(t, fmt.Sprintf("Dpotrf %d×%d, call %d", n, n, call), n, n, s, sw, n, 1e-10)
	}
	if got := impl.onDevice.Load() - before; got != 4 {
		t.Errorf("%d of 4 calls ran on the device", got)
	}
}
