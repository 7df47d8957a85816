package cllapack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestPotfRegsWidths runs Dpotrf with potf2_inv's blocks in registers at
// block sizes 64 and 128 (POTF_T 4 and 8; each width is a compile of its
// own, 8×8 takes PoCL minutes, and TestKernelsSmall runs all three on
// Oclgrind), and at 64 on grids of 8×8 and 32×32 work-items (POTF_T 8
// and 2), both triangles, against gonum: n = 150 (a narrower last
// block), and n = 128 (one block as wide as the kernel's grid). Then
// matrices that are not positive definite: failing in the middle of a
// block of 128 (its factor is compared whole, the rows below the failing
// column included, with an unblocked right-looking reference), and in a
// later block, with potf2_inv running after *info was set. On CPU devices
// potrf factorises the diagonal blocks on the host (hostDiag), and so
// the kernel does not run, and the other grids are left out.
func TestPotfRegsWidths(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	for _, w := range []struct{ nb, grid int }{{64, 16}, {128, 16}, {64, 8}, {64, 32}} {
		nb := w.nb
		impl := newTestImpl(t, nb)
		if impl.hostDiag && w.grid != potfGridDefault {
			continue // the kernel does not run, and the grid changes nothing else
		}
		impl.potfRegs, impl.potfG = true, w.grid
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			what := fmt.Sprintf("Dpotrf, registers, nb %d, grid %d", nb, w.grid)
			for _, n := range []int{150, 128} {
				checkDpotrf(t, impl, what, ul, n, n+3, rnd, 1e-11)
			}
			// Not positive definite at k: in the middle of the first
			// block (nb 128) or the second (nb 64), with and without
			// blocks after it, and in the last block, 22 wide.
			for _, c := range []struct{ n, k int }{{128, 70}, {150, 70}, {150, 140}} {
				n, k := c.n, c.k
				a := spd(n, n, rnd)
				a[k*n+k] = 1 - a[k*n+k]
				// The reference factorises the blocks up to the
				// failing one as one block: potrf's factor agrees
				// with it there (beyond it, potrf has also finished
				// the rows of U, or columns of L, before the failing
				// block).
				m := min(n, (k/nb+1)*nb)
				want := append([]float64(nil), a...)
				if k != potf2Right(ul, m, want, n) {
					t.Fatalf("%s %c n=%d: the reference did not fail at %d", what, ul, n, k)
				}
				if impl.Dpotrf(ul, n, a, n) {
					t.Fatalf("%s %c n=%d: a matrix not positive definite at %d passed", what, ul, n, k)
				}
				// On CPU devices gonum's Dpotf2 (left-looking) has
				// left the rows of U from k otherwise.
				rows, cols := m, m
				if impl.hostDiag && ul == blas.Upper {
					rows = k
				} else if impl.hostDiag {
					cols = k
				}
				compare(t, fmt.Sprintf("%s %c, not positive definite at %d", what, ul, k), rows, cols, a, want, n, 1e-11)
			}
		}
	}
}

// potf2Right factorises the leading n×n block of the symmetric matrix a
// (row stride lda) in place, right-looking and unblocked as potf2_inv does,
// and returns the column whose diagonal element was not positive, with
// the rows below it (columns, for Lower) as far as they were updated, or
// n.
func potf2Right(ul blas.Uplo, n int, a []float64, lda int) int {
	at := func(r, c int) *float64 {
		if ul == blas.Upper {
			return &a[r*lda+c]
		}
		return &a[c*lda+r]
	}
	for j := range n {
		d := *at(j, j)
		if !(d > 0) {
			return j
		}
		s := math.Sqrt(d)
		*at(j, j) = s
		for c := j + 1; c < n; c++ {
			*at(j, c) /= s
		}
		for r := j + 1; r < n; r++ {
			for c := r; c < n; c++ {
				*at(r, c) -= *at(j, r) * *at(j, c)
			}
		}
	}
	return n
}
