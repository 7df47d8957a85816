package cllapack

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
)

// TestDpotrfInfinitePivot factorises, on the device's diagonal blocks (a
// GPU's path, built unoptimised on CPU devices; staged through pinned
// memory as on a discrete GPU, and not) and on the host's (a CPU
// device's), a matrix whose first pivot is +Inf: gonum's Dpotf2 scales the
// pivot's row by 1/Inf = 0 with Dscal, which zeroes it, -Inf included,
// and succeeds; a device's product would give NaN there and fail. ok and
// the factor must be gonum's (keepChecked sends such matrices to gonum's
// code).
func TestDpotrfInfinitePivot(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct{ host, stage bool }{{false, false}, {false, true}, {true, false}} {
		host := c.host
		impl := gpuPathsOnCPU(newTestImpl(t, 8))
		impl.hostDiag, impl.stageIO = host, c.stage
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			for _, n := range []int{3, 12} {
				a := spd(n, n, testRand())
				a[0] = inf
				if ul == blas.Upper {
					a[2] = -inf
				} else {
					a[2*n] = -inf
				}
				got, want := clone(a), clone(a)
				ok := impl.Dpotrf(ul, n, got, n)
				okWant := gonum.Implementation{}.Dpotrf(ul, n, want, n)
				if ok != okWant {
					t.Errorf("hostDiag %v, staged %v, %c n=%d: ok %v, gonum's %v", host, c.stage, ul, n, ok, okWant)
					continue
				}
				sameFloats(t, "Dpotrf with an infinite pivot", got, want, false)
			}
		}
	}
}
