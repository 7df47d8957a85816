package cllapack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
)

// TestPotrfOuter runs Dpotrf with block rows taller than the block size
// (potrfOuter: each block row factorised in steps of nb, then one trailing
// update with k the block row's height), with and without look-ahead,
// block rows a multiple of nb and not, against gonum, both triangles,
// with the unreferenced triangle and the padding checked; then matrices
// that are not positive definite in the first step of a block row, in a
// later one, and in the last block, and with a NaN: ok false and gonum's
// factor up to the failing block.
func TestPotrfOuter(t *testing.T) {
	const nb = 8
	rnd := rand.New(rand.NewPCG(11, 12))
	for _, ahead := range []bool{false, true} {
		for _, outer := range []int{24, 20} {
			impl := newTestImpl(t, nb)
			impl.hostDiag = false // the block rows are runDevice's
			impl.ahead, impl.potrfOuter, impl.slab = ahead, outer, 12
			impl.rowAheadMin = 0
			what := fmt.Sprintf("Dpotrf, block rows %d, ahead %v", outer, ahead)
			calls, blocks := 0, 0
			for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
				for _, n := range []int{8, 30, 61, 100} {
					lda := n + 2
					a := spd(n, lda, rnd)
					want := append([]float64(nil), a...)
					gonum.Implementation{}.Dpotrf(ul, n, want, lda)
					calls++
					blocks += aheadBlocks(n, nb, outer)
					if !impl.Dpotrf(ul, n, a, lda) {
						t.Fatalf("%s %c n=%d: not positive definite", what, ul, n)
					}
					compare(t, what, n, n, a, want, lda, 1e-11)
					checkPadding(t, what, n, n, a, want, lda)
				}
				const n = 70
				for _, k := range []int{24, 43, 66} {
					for _, bad := range []float64{-1e3, math.NaN()} {
						a := spd(n, n, rnd)
						a[k*n+k] = bad
						want := append([]float64(nil), a...)
						okWant := gonum.Implementation{}.Dpotrf(ul, n, want, n)
						// A NaN is found beside the device's work, and the
						// call is then finished by gonum's code.
						if !math.IsNaN(bad) {
							calls++
						}
						blocks += aheadBlocks(n, nb, outer)
						if ok := impl.Dpotrf(ul, n, a, n); ok || okWant {
							t.Fatalf("%s %c k=%d: ok %v, gonum's %v", what, ul, k, ok, okWant)
						}
						rows := k / nb * nb
						compare(t, fmt.Sprintf("%s %c, not positive definite at %d", what, ul, k), rows, rows, a, want, n, 1e-11)
					}
				}
			}
			// None was finished on the CPU after a device error.
			if got := impl.onDevice.Load(); got != int64(calls) {
				t.Fatalf("%s: %d of %d calls finished on the device", what, got, calls)
			}
			// With look-ahead every diagonal block but each call's first
			// is factorised on the second queue, inside block rows too.
			if !ahead {
				blocks = 0
			}
			if got := impl.stats.ahead.Load(); got != int64(blocks) {
				t.Fatalf("%s: %d diagonal blocks factorised ahead, want %d", what, got, blocks)
			}
		}
	}
}

// aheadBlocks is the number of diagonal blocks Potrf with look-ahead
// factorises on the second queue for an order n in blocks of nb and block
// rows of outer: all but the first (none when one block holds the matrix).
func aheadBlocks(n, nb, outer int) int {
	blocks := 0
	for j := 0; j < n; j += outer {
		blocks += (min(outer, n-j) + nb - 1) / nb
	}
	return blocks - 1
}
