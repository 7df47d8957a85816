package clblas

import (
	"fmt"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	eng "github.com/gocompute/opencl/internal/engine"
)

// TestSymvKernels runs the GPUs' dense and band symmetric products and
// the dense triangular one on PoCL (the CPU-device kernels turned off)
// with each kernel: the tiles in local memory (symv_part, sbmv_tile) and
// GEMV's kernels for trmv, and the register stream (symv_stream) at its
// derived shape and at small shapes that make many tiles, chunks and
// ragged edges at the test's sizes, with and without vector loads, and
// their packed builds (SPMV, TPMV); and beside them the band triangular
// product (level2.cl's mv on GPUs). Against gonum: both triangles, alpha and beta special
// values (beta == 0 with NaN in y), increments ±1 and ±3, views one
// element into their slices, NaN in every element outside the stored
// triangle or band. Every call must reach the device.
func TestSymvKernels(t *testing.T) {
	impl, e, d64, fp64 := portableImpl(t)
	defer func() { e.SymvKernel, e.SymvStream, e.TrmvKernel = eng.SymvAuto, eng.SymvStreamShape{}, eng.TrmvAuto }()
	type variant struct {
		k  eng.SymvKernel
		tk eng.TrmvKernel
		sh eng.SymvStreamShape
	}
	for _, v := range []variant{
		{eng.SymvTiles, eng.TrmvGemv, eng.SymvStreamShape{}},
		{eng.SymvStream, eng.TrmvStream, eng.SymvStreamShape{}},
		{eng.SymvStream, eng.TrmvStream, eng.SymvStreamShape{Vec: 1, TX: 8, TY: 4, Chunk: 1}},
		{eng.SymvStream, eng.TrmvStream, eng.SymvStreamShape{Vec: 2, TX: 4, TY: 2, Chunk: 3}},
		{eng.SymvStream, eng.TrmvStream, eng.SymvStreamShape{Vec: 4, TX: 4, TY: 8, Chunk: 2}},
		{eng.SymvStream, eng.TrmvStream, eng.SymvStreamShape{Vec: 2, TX: 8, TY: 4, Chunk: 4, Walk: true}},
		{eng.SymvStream, eng.TrmvStream, eng.SymvStreamShape{Vec: 1, TX: 4, TY: 2, Chunk: 3, Walk: true}},
	} {
		name := fmt.Sprintf("kernel=%d,%d/shape=%dx%dx%dx%d,walk=%v", v.k, v.tk, v.sh.Vec, v.sh.TX, v.sh.TY, v.sh.Chunk, v.sh.Walk)
		t.Run(name, func(t *testing.T) {
			for _, en := range []*eng.Engine{e, d64.E} {
				if en != nil {
					en.SymvKernel, en.SymvStream, en.TrmvKernel = v.k, v.sh, v.tk
				}
			}
			if fp64 {
				symvGPUCases(t, "Dsymv", e.Launched.Of, impl.Dsymv, gonum.Implementation{}.Dsymv, 1e-12)
				sbmvGPUCases(t, "Dsbmv", e.Launched.Of, impl.Dsbmv, gonum.Implementation{}.Dsbmv, 1e-12)
				trmvGPUCases(t, "Dtrmv", e.Launched.Of, impl.Dtrmv, gonum.Implementation{}.Dtrmv, 1e-12)
				tbmvGPUCases(t, "Dtbmv", e.Launched.Of, impl.Dtbmv, gonum.Implementation{}.Dtbmv, 1e-12)
				packedGPUCases(t, "Dspmv", "Dtpmv", e.Launched.Of, impl.Dspmv, gonum.Implementation{}.Dspmv, impl.Dtpmv, gonum.Implementation{}.Dtpmv, 1e-12)
			}
			symvGPUCases(t, "Ssymv", e.Launched.Of, impl.Ssymv, gonum.Implementation{}.Ssymv, 1e-4)
			sbmvGPUCases(t, "Ssbmv", e.Launched.Of, impl.Ssbmv, gonum.Implementation{}.Ssbmv, 1e-4)
			trmvGPUCases(t, "Strmv", e.Launched.Of, impl.Strmv, gonum.Implementation{}.Strmv, 1e-4)
			tbmvGPUCases(t, "Stbmv", e.Launched.Of, impl.Stbmv, gonum.Implementation{}.Stbmv, 1e-4)
			packedGPUCases(t, "Sspmv", "Stpmv", e.Launched.Of, impl.Sspmv, gonum.Implementation{}.Sspmv, impl.Stpmv, gonum.Implementation{}.Stpmv, 1e-4)
		})
	}
}

// sbmvGPUCases checks got against want on band widths from the diagonal
// alone to the whole matrix, lda at and past k+1 (aligned and not).
func sbmvGPUCases[T float32 | float64](t *testing.T, name string, launched func(string) int64,
	got, want func(ul blas.Uplo, n, k int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int), tol float64) {
	vec := uniformVecs[T](3)
	onDevice := expectOnDevice(t, name, launched)
	calls := 0
	ab := [][2]T{{1, 0}, {-0.7, 1}, {0.6, -1.3}, {2, 0}}
	incs := [][2]int{{1, 1}, {-3, 3}, {3, -1}, {-1, -3}}
	c := 0
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		for _, n := range []int{1, 31, 70, 150} {
			for _, k := range []int{0, 1, 7, 33, 64, n - 1} {
				if k >= n {
					continue
				}
				c++
				alpha, beta := ab[c%len(ab)][0], ab[c%len(ab)][1]
				incX, incY := incs[c%len(incs)][0], incs[c%len(incs)][1]
				lda := k + 1 + c%2
				a := vec(1 + (n-1)*lda + k + 1)
				// The slots of the band outside the matrix are NaN.
				for i := range n {
					for s := range k + 1 {
						j := i + s
						if ul == blas.Lower {
							j = i - k + s
						}
						if j < 0 || j >= n {
							a[1+i*lda+s] = T(l2nan)
						}
					}
				}
				x, y := symvVectors(vec, n, incX, incY, beta)
				yg, yw := slices.Clone(y), slices.Clone(y)
				got(ul, n, k, alpha, a[1:], lda, x[1:], incX, beta, yg[1:], incY)
				want(ul, n, k, alpha, a[1:], lda, x[1:], incX, beta, yw[1:], incY)
				calls++
				desc := fmt.Sprintf("%s ul=%c n=%d k=%d lda=%d incX=%d incY=%d alpha=%v beta=%v", name, ul, n, k, lda, incX, incY, alpha, beta)
				checkL2Result(t, desc, "y", yg, yw, tol)
			}
		}
	}
	onDevice(calls)
}

// trmvGPUCases checks got against want for both triangles, transposes
// and diagonals, NaN outside the stored triangle (and on a unit
// diagonal).
func trmvGPUCases[T float32 | float64](t *testing.T, name string, launched func(string) int64,
	got, want func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []T, lda int, x []T, incX int), tol float64) {
	vec := uniformVecs[T](4)
	onDevice := expectOnDevice(t, name, launched)
	calls := 0
	c := 0
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, dg := range []blas.Diag{blas.NonUnit, blas.Unit} {
				for _, n := range []int{1, 37, 130} {
					c++
					incX := []int{1, -3, 2, -1}[c%4]
					lda := n + c%3
					a := vec(1 + (n-1)*lda + n)
					for i := range n {
						for j := range n {
							if ul == blas.Upper && j < i || ul == blas.Lower && j > i || dg == blas.Unit && i == j {
								a[1+i*lda+j] = T(l2nan)
							}
						}
					}
					x := vec(1 + (n-1)*abs(incX) + 1)
					xg, xw := slices.Clone(x), slices.Clone(x)
					got(ul, tA, dg, n, a[1:], lda, xg[1:], incX)
					want(ul, tA, dg, n, a[1:], lda, xw[1:], incX)
					calls++
					desc := fmt.Sprintf("%s ul=%c tA=%c d=%c n=%d lda=%d incX=%d", name, ul, tA, dg, n, lda, incX)
					checkL2Result(t, desc, "x", xg, xw, tol)
				}
			}
		}
	}
	onDevice(calls)
}

// tbmvGPUCases checks got against want on triBandCases' bands with A and
// Aᵀ, views one element into their slices, NaN in the band's slots
// outside the matrix and on a unit diagonal (which must not be read).
func tbmvGPUCases[T float32 | float64](t *testing.T, name string, launched func(string) int64,
	got, want func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []T, lda int, x []T, incX int), tol float64) {
	vec := uniformVecs[T](5)
	onDevice := expectOnDevice(t, name, launched)
	calls := 0
	for _, tc := range triBandCases(blas.NoTrans, blas.Trans) {
		a := vec(1 + tc.span())
		for _, i := range tc.unread() {
			a[1+i] = T(l2nan)
		}
		x := vec(1 + (tc.n-1)*abs(tc.inc) + 1)
		xg, xw := slices.Clone(x), slices.Clone(x)
		got(tc.ul, tc.tA, tc.d, tc.n, tc.k, a[1:], tc.lda, xg[1:], tc.inc)
		want(tc.ul, tc.tA, tc.d, tc.n, tc.k, a[1:], tc.lda, xw[1:], tc.inc)
		calls++
		checkL2Result(t, name+" "+tc.String(), "x", xg, xw, tol)
	}
	onDevice(calls)
}

// triBandCase is one triangular band product of the TBMV tests: the
// triangle, op(A), the diagonal, n, k, lda and x's increment.
type triBandCase struct {
	ul   blas.Uplo
	tA   blas.Transpose
	d    blas.Diag
	n, k int
	lda  int
	inc  int
}

// triBandCases lists the TBMV tests' cases for each op(A) of ops: bands
// from the diagonal alone to past the matrix, both triangles, unit and
// not, lda at and past k+1, increments ±1, ±2 and ±3.
func triBandCases(ops ...blas.Transpose) []triBandCase {
	var cs []triBandCase
	for c, sh := range [][2]int{{1, 0}, {37, 1}, {70, 5}, {70, 33}, {130, 64}, {40, 39}, {50, 80}} {
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			for _, tA := range ops {
				for _, d := range []blas.Diag{blas.NonUnit, blas.Unit} {
					cs = append(cs, triBandCase{ul: ul, tA: tA, d: d, n: sh[0], k: sh[1], lda: sh[1] + 1 + c%3,
						inc: []int{1, -2, 2, -1, 3, -3, 1}[c]})
				}
			}
		}
	}
	return cs
}

func (tc triBandCase) String() string {
	return fmt.Sprintf("ul=%c tA=%c d=%c n=%d k=%d lda=%d inc=%d", tc.ul, tc.tA, tc.d, tc.n, tc.k, tc.lda, tc.inc)
}

// span is the length of the band's storage.
func (tc triBandCase) span() int { return (tc.n-1)*tc.lda + tc.k + 1 }

// unread lists the places in the band's storage that the product must
// not read: those outside the matrix and, for a unit diagonal, the
// diagonal.
func (tc triBandCase) unread() []int {
	var out []int
	for i := range tc.n {
		for s := range tc.k + 1 {
			j := i + s // upper: A(i, i+s) at column s
			if tc.ul == blas.Lower {
				j = i - tc.k + s // lower: A(i, i−k+s)
			}
			if j < 0 || j >= tc.n || tc.d == blas.Unit && j == i {
				out = append(out, i*tc.lda+s)
			}
		}
	}
	return out
}

// packedGPUCases checks SPMV and TPMV (got against want) on packed
// triangles of both kinds, every transpose and diagonal, orders up to
// several tiles, increments ±1 and ±3, views one element into their
// slices, NaN on a unit diagonal and in y when beta is 0.
func packedGPUCases[T float32 | float64](t *testing.T, sp, tp string, launched func(string) int64,
	spmv, spmvWant func(ul blas.Uplo, n int, alpha T, ap []T, x []T, incX int, beta T, y []T, incY int),
	tpmv, tpmvWant func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []T, x []T, incX int), tol float64) {
	vec := uniformVecs[T](6)
	onS, onT := expectOnDevice(t, sp, launched), expectOnDevice(t, tp, launched)
	callsS, callsT := 0, 0
	ab := [][2]T{{1, 0}, {-0.7, 1}, {0.6, -1.3}, {2, 0}}
	incs := [][2]int{{1, 1}, {-3, 3}, {3, -1}, {-1, -3}}
	c := 0
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		for _, n := range []int{1, 31, 65, 150} {
			c++
			ap := vec(1 + n*(n+1)/2)
			alpha, beta := ab[c%len(ab)][0], ab[c%len(ab)][1]
			incX, incY := incs[c%len(incs)][0], incs[c%len(incs)][1]
			x, y := symvVectors(vec, n, incX, incY, beta)
			yg, yw := slices.Clone(y), slices.Clone(y)
			spmv(ul, n, alpha, ap[1:], x[1:], incX, beta, yg[1:], incY)
			spmvWant(ul, n, alpha, ap[1:], x[1:], incX, beta, yw[1:], incY)
			callsS++
			checkL2Result(t, fmt.Sprintf("%s ul=%c n=%d incX=%d incY=%d alpha=%v beta=%v", sp, ul, n, incX, incY, alpha, beta), "y", yg, yw, tol)
			for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				for _, dg := range []blas.Diag{blas.NonUnit, blas.Unit} {
					a := slices.Clone(ap)
					if dg == blas.Unit {
						for i := range n {
							d := 1 + i*(i+1)/2 + i
							if ul == blas.Upper {
								d = 1 + i*(2*n-i+1)/2
							}
							a[d] = T(l2nan)
						}
					}
					xg, xw := slices.Clone(x), slices.Clone(x)
					tpmv(ul, tA, dg, n, a[1:], xg[1:], incX)
					tpmvWant(ul, tA, dg, n, a[1:], xw[1:], incX)
					callsT++
					checkL2Result(t, fmt.Sprintf("%s ul=%c tA=%c d=%c n=%d incX=%d", tp, ul, tA, dg, n, incX), "x", xg, xw, tol)
				}
			}
		}
	}
	onS(callsS)
	onT(callsT)
}
