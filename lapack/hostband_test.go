package cllapack

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestDpotrfHostBand runs Dpotrf from slices with the untouched triangle
// restored on the host or by tri_band, with pooled device matrices or
// fresh ones, against gonum: both triangles, a padded stride, several
// slabs per step, and a matrix that is not positive definite in a later
// block (whose other triangle must be the caller's).
func TestDpotrfHostBand(t *testing.T) {
	impl := newTestImpl(t, 16)
	impl.slab = 24
	rnd := rand.New(rand.NewPCG(41, 42))
	for _, hostBand := range []bool{true, false} {
		for _, reuse := range []bool{true, false} {
			impl.hostBand, impl.reuse = hostBand, reuse
			for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
				for _, n := range []int{17, 100, 100} {
					checkDpotrf(t, impl, fmt.Sprintf("hostBand %v, reuse %v", hostBand, reuse), ul, n, n+3, rnd, 1e-11)
				}
				n, a, want := checkDpotrfNotSPD(t, impl, fmt.Sprintf("hostBand %v", hostBand), ul, rnd)
				// The triangle Dpotrf must not touch is the caller's.
				for i := range n {
					for j := range n {
						if (ul == blas.Upper && j < i) || (ul == blas.Lower && j > i) {
							if a[i*n+j] != want[i*n+j] {
								t.Fatalf("hostBand %v, %c: element (%d, %d) of the other triangle changed", hostBand, ul, i, j)
							}
						}
					}
				}
			}
		}
	}
}

// TestScratchPool checks that the calls from slices keep their device
// matrices (reuse) within the pool's bounds and take them again.
func TestScratchPool(t *testing.T) {
	impl := newTestImpl(t, 16)
	impl.reuse = true
	rnd := rand.New(rand.NewPCG(43, 44))
	const n = 70
	for range 3 {
		a := spd(n, n, rnd)
		if !impl.Dpotrf(blas.Upper, n, a, n) {
			t.Fatal("not positive definite")
		}
		ipiv := make([]int, n)
		impl.Dgetrf(n, n, a, n, ipiv)
	}
	impl.pmu.Lock()
	defer impl.pmu.Unlock()
	total := 0
	for key, l := range impl.pool {
		if len(l) > poolPerShape {
			t.Errorf("%+v: %d kept, want at most %d", key, len(l), poolPerShape)
		}
		total += len(l) * key.rows * key.cols * key.es
	}
	if l := impl.pool[poolKey{n, n, 8}]; len(l) != 1 {
		t.Errorf("%d matrices of the calls' shape kept, want 1 (taken again each call)", len(l))
	}
	if total != impl.pbytes || total > poolBytes {
		t.Errorf("pool holds %d bytes, counted %d, bound %d", total, impl.pbytes, poolBytes)
	}
}
