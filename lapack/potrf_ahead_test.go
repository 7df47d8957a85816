package cllapack

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestPotrfAhead runs Dpotrf with look-ahead (each next diagonal block
// factorised on the second queue) against gonum, both triangles, with
// several slabs per step, and on a matrix that is not positive definite
// in a later block (gonum's factor up to that column, ok false).
func TestPotrfAhead(t *testing.T) {
	impl := newTestImpl(t, 16)
	impl.ahead, impl.slab = true, 24
	impl.hostDiag = false  // the look-ahead is runDevice's (a CPU device's default is the host's)
	impl.gridPotrf = false // and not runRows'
	rnd := rand.New(rand.NewPCG(9, 10))
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		for _, n := range []int{16, 17, 100} {
			checkDpotrf(t, impl, "Dpotrf, look-ahead", ul, n, n+2, rnd, 1e-11)
		}
		checkDpotrfNotSPD(t, impl, "Dpotrf, look-ahead", ul, rnd)
	}
	if impl.q2 == nil {
		t.Error("the look-ahead queue was never made")
	}
}
