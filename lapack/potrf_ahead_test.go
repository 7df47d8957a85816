package cllapack

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
)

// TestPotrfAhead runs Dpotrf with look-ahead (each next diagonal block
// factorised on the second queue) against gonum, both triangles, with
// several slabs per step, and on a matrix that is not positive definite
// in a later block (gonum's factor up to that column, ok false).
func TestPotrfAhead(t *testing.T) {
	impl := newTestImpl(t, 16)
	impl.ahead, impl.slab = true, 24
	impl.hostDiag = false // the look-ahead is runDevice's (a CPU device's default is the host's)
	rnd := rand.New(rand.NewPCG(9, 10))
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		for _, n := range []int{16, 17, 100} {
			checkDpotrf(t, impl, "Dpotrf, look-ahead", ul, n, n+2, rnd, 1e-11)
		}
		const n = 90
		a := spd(n, n, rnd)
		a[50*n+50] = -1
		want := append([]float64(nil), a...)
		okWant := gonum.Implementation{}.Dpotrf(ul, n, want, n)
		if ok := impl.Dpotrf(ul, n, a, n); ok || okWant {
			t.Fatalf("%c: not positive definite: ok %v, gonum's %v", ul, ok, okWant)
		}
		// The factor up to the block that failed (rows and columns
		// before 48) is gonum's.
		compare(t, "Dpotrf, look-ahead, not positive definite", 48, 48, a, want, n, 1e-11)
	}
	if impl.q2 == nil {
		t.Error("the look-ahead queue was never made")
	}
}
