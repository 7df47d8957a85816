package cllapack

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestPotfRegsWidths runs Dpotrf with potf2_inv's blocks in registers at
// block size 64 (POTF_T 4; each width is a compile of its own, 8×8 takes
// PoCL minutes, and TestKernelsSmall runs all three on Oclgrind), both
// triangles, against gonum, and a matrix that is not positive definite.
func TestPotfRegsWidths(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	for _, nb := range []int{64} {
		impl := newTestImpl(t, nb)
		impl.potfRegs = true
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			const n = 150
			checkDpotrf(t, impl, fmt.Sprintf("Dpotrf, registers, nb %d", nb), ul, n, n+3, rnd, 1e-11)
		}
		a := spd(100, 100, rnd)
		a[70*100+70] = -1
		if impl.Dpotrf(blas.Upper, 100, a, 100) {
			t.Fatalf("nb %d: a matrix that is not positive definite passed", nb)
		}
	}
}
