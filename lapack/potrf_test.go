package cllapack

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
)

// TestPotrfSlabs runs Dpotrf with trailing updates cut into slabs of
// several heights (one row, less than, more than and not a multiple of a
// block), so that the band of the unreferenced triangle the slabs'
// GEMMs overwrite is wide or narrow: the factor must match gonum's and
// the other triangle and the padding must come back bit for bit, also
// when a later block is not positive definite; half of them with the
// diagonal blocks factorised on the host.
func TestPotrfSlabs(t *testing.T) {
	impl := newTestImpl(t, 16)
	rnd := rand.New(rand.NewPCG(31, 32))
	for i, slab := range []int{1, 8, 24, 100} {
		impl.slab = slab
		impl.hostDiag = i%2 == 1
		for _, n := range []int{40, 97} {
			for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
				for _, fail := range []bool{false, true} {
					lda := n + 2
					a := spd(n, lda, rnd)
					bad := -1
					if fail {
						bad = n - 5
						a[bad*lda+bad] = -1e6
					}
					orig := append([]float64(nil), a...)
					want := append([]float64(nil), a...)
					okWant := gonum.Implementation{}.Dpotrf(ul, n, want, lda)
					ok := impl.Dpotrf(ul, n, a, lda)
					if ok != okWant || ok == fail {
						t.Fatalf("slab %d n=%d %c fail=%v: ok=%v, gonum %v", slab, n, ul, fail, ok, okWant)
					}
					rows := n
					if fail {
						rows = bad / 16 * 16
					}
					compare(t, "Dpotrf", rows, rows, a, want, lda, 1e-11)
					checkPadding(t, "Dpotrf", n, n, a, orig, lda)
					checkOtherTriangle(t, ul, n, a, orig, lda)
				}
			}
		}
	}
}

// checkOtherTriangle fails t if an element strictly outside the ul
// triangle of the n×n matrix a differs from orig's.
func checkOtherTriangle(t *testing.T, ul blas.Uplo, n int, a, orig []float64, lda int) {
	t.Helper()
	for i := range n {
		for j := range n {
			if (ul == blas.Upper && j >= i) || (ul == blas.Lower && j <= i) {
				continue
			}
			g, w := a[i*lda+j], orig[i*lda+j]
			if !(g == w || math.IsNaN(g) && math.IsNaN(w)) {
				t.Fatalf("%c: unreferenced [%d,%d] changed to %v from %v", ul, i, j, g, w)
			}
		}
	}
}

// potrfModel is what potrf enqueues for an n×n matrix of elements of es
// bytes with blocks nb and slabs slab: kernel launches (GEMMs, the two
// band copies and, on the device, potf2_inv and copy_ok), device-side
// copies, host transfers and their bytes. Each step but the last: one
// GEMM for U12 and one per slab of the trailing update; with the
// diagonal blocks on the host (hostDiag) the next block row is one more
// GEMM, U12 is a device copy, and the factor block and its inverse are
// written and the next block read; on the device, potf2_inv runs on each
// block, copy_ok copies U12, and only info is read, at the end.
func potrfModel(n, nb, slab, es int, hostDiag bool) (launches, copies, transfers, bytes int) {
	if n > nb {
		launches = 2
	}
	if !hostDiag {
		transfers, bytes = 1, 4
	} else {
		transfers, bytes = 1, min(nb, n)*min(nb, n)*es // the first block's read
	}
	for j := 0; j < n; j += nb {
		jb := min(nb, n-j)
		r := n - j - jb
		if !hostDiag {
			launches++ // potf2_inv
			if r > 0 {
				launches += 2 + (r+slab-1)/slab
			}
			continue
		}
		transfers++ // the factor block's write
		bytes += jb * jb * es
		if r == 0 {
			break
		}
		jbn := min(nb, r)
		launches += 2 + (r-jbn+slab-1)/slab
		copies++
		transfers += 2 // the inverse's write, the next block's read
		bytes += (jb*jb + jbn*jbn) * es
	}
	return launches, copies, transfers, bytes
}

// TestPotrfCounts checks the counters the benchmarks report against
// potrfModel, so that the model predicts what a size costs on a GPU.
func TestPotrfCounts(t *testing.T) {
	impl := newTestImpl(t, 16)
	impl.slab = 40
	impl.hostBand = false  // the model is a GPU's: the band saved and restored on the device
	impl.ahead = false     // nor does it split each step's update for look-ahead
	impl.gridPotrf = false // nor make a block row one potrf_row launch (NVIDIA's default)
	rnd := rand.New(rand.NewPCG(33, 34))
	for _, host := range []bool{false, true} {
		impl.hostDiag = host
		for _, n := range []int{10, 16, 100, 131} {
			a := spd(n, n, rnd)
			before := impl.counts()
			if !impl.Dpotrf(blas.Upper, n, a, n) {
				t.Fatalf("n=%d: not positive definite", n)
			}
			got := impl.counts().sub(before)
			l, c, tr, b := potrfModel(n, 16, 40, 8, host)
			want := counts{launches: int64(l), copies: int64(c), transfers: int64(tr), bytes: int64(b)}
			if got != want {
				t.Errorf("hostDiag %v, n=%d: counted %+v, model %+v", host, n, got, want)
			}
		}
	}
}

// TestPotrfWideBlock factorises with diagonal blocks wider than
// potf2_inv's reduction rounds (POTF_KB = 128 columns), both triangles.
func TestPotrfWideBlock(t *testing.T) {
	impl := newTestImpl(t, 150)
	rnd := rand.New(rand.NewPCG(35, 36))
	const n = 170
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		a := spd(n, n, rnd)
		want := append([]float64(nil), a...)
		gonum.Implementation{}.Dpotrf(ul, n, want, n)
		if !impl.Dpotrf(ul, n, a, n) {
			t.Fatalf("%c: not positive definite", ul)
		}
		compare(t, "Dpotrf", n, n, a, want, n, 1e-11)
	}
}
