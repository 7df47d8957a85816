package clblas

import (
	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/internal/multi"
)

// The level 3 routines other than GEMM, split across devices where their
// output cuts into independent tiles: columns of C (symm, A on the left)
// or of B (trmm and trsm, A on the left), rows otherwise; syrk and syr2k
// by rows of their triangle, each tile GEMMs beside a diagonal block.

// symmJob is symm: C = alpha·A·B + beta·C (left) or alpha·B·A + beta·C
// (right), cut into columns (left) or rows (right) of B and C.
func symmJob[T eng.Real](prec precision, routine string, dev func(*member) l3Dev[T],
	s blas.Side, ul blas.Uplo, m, n int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) *splitJob[T] {
	readC := ifNonZero(beta != 0)
	j := &splitJob[T]{routine: routine, prec: prec, dev: dev}
	j.whole = func(d l3Dev[T]) error { return d.Symm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc) }
	if s == blas.Left {
		j.units, j.inner = n, m
		j.unitFlops, j.unitElems, j.fixedElems = 2*fl(m)*fl(m), fl(m)*(2+readC), fl(m)*fl(m)
		j.tile = func(d, _ l3Dev[T], t multi.Tile) (int, error) {
			return 0, d.Symm(s, ul, m, t.Len(), alpha, a, lda, b[t.Lo:], ldb, beta, c[t.Lo:], ldc)
		}
		return j
	}
	j.units, j.inner = m, n
	j.unitFlops, j.unitElems, j.fixedElems = 2*fl(n)*fl(n), fl(n)*(2+readC), fl(n)*fl(n)
	j.tile = func(d, _ l3Dev[T], t multi.Tile) (int, error) {
		return 0, d.Symm(s, ul, t.Len(), n, alpha, a, lda, b[t.Lo*ldb:], ldb, beta, c[t.Lo*ldc:], ldc)
	}
	return j
}

// triJob is trmm (solve false) or trsm (solve true) on B in place, cut into
// columns of B when A is on the left, rows when it is on the right.
func triJob[T eng.Real](prec precision, routine string, dev func(*member) l3Dev[T], solve bool,
	s blas.Side, ul blas.Uplo, tA blas.Transpose, dg blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) *splitJob[T] {
	run := func(d l3Dev[T], m, n int, b []T) error {
		if solve {
			return d.Trsm(s, ul, tA, dg, m, n, alpha, a, lda, b, ldb)
		}
		return d.Trmm(s, ul, tA, dg, m, n, alpha, a, lda, b, ldb)
	}
	j := &splitJob[T]{routine: routine, prec: prec, dev: dev}
	j.whole = func(d l3Dev[T]) error { return run(d, m, n, b) }
	if s == blas.Left {
		j.units, j.inner = n, m
		j.unitFlops, j.unitElems, j.fixedElems = fl(m)*fl(m), 2*fl(m), fl(m)*fl(m)/2
		j.tile = func(d, _ l3Dev[T], t multi.Tile) (int, error) { return 0, run(d, m, t.Len(), b[t.Lo:]) }
		return j
	}
	j.units, j.inner = m, n
	j.unitFlops, j.unitElems, j.fixedElems = fl(n)*fl(n), 2*fl(n), fl(n)*fl(n)/2
	j.tile = func(d, _ l3Dev[T], t multi.Tile) (int, error) { return 0, run(d, t.Len(), n, b[t.Lo*ldb:]) }
	return j
}

// flip is the other transpose.
func flip(t blas.Transpose) blas.Transpose {
	if t == blas.NoTrans {
		return blas.Trans
	}
	return blas.NoTrans
}

// tileStep is one part of a tile: a device call on rows [r0, h) of the
// tile (r0 > 0 only for a GEMM part that the device left half done).
type tileStep[T eng.Real] func(d l3Dev[T], r0 int) error

// runSteps runs a tile's parts in order on d. When a part fails after an
// earlier part or its own first rows were written, cpu finishes that part
// from the rows done and runs the parts after it, and the whole tile (h
// units) counts as done; a first part that fails having written nothing
// leaves the tile to be handed back.
func runSteps[T eng.Real](d, cpu l3Dev[T], h int, steps ...tileStep[T]) (int, error) {
	for i, st := range steps {
		err := st(d, 0)
		if err == nil {
			continue
		}
		done := eng.RowsDone(err)
		if i == 0 && done == 0 {
			return 0, err
		}
		st(cpu, done)
		for _, rest := range steps[i+1:] {
			rest(cpu, 0)
		}
		return h, err
	}
	return 0, nil
}

// triRows is the layout of a row tile [lo, hi) of an n×n triangle: its
// off-diagonal block, columns [c0, c0+w) (left of the diagonal block for
// the lower triangle, right of it for the upper), beside the diagonal
// block.
func triRows(ul blas.Uplo, n, lo, hi int) (c0, w int) {
	if ul == blas.Upper {
		return hi, n - hi
	}
	return 0, lo
}

// syrkJob is syrk on the ul triangle of C, cut into rows: the rows
// [lo, hi) of the triangle are a GEMM block beside the diagonal block, a
// syrk.
func syrkJob[T eng.Real](prec precision, routine string, dev func(*member) l3Dev[T],
	ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, beta T, c []T, ldc int) *splitJob[T] {
	readC := ifNonZero(beta != 0)
	j := &splitJob[T]{routine: routine, prec: prec, dev: dev, units: n, inner: k}
	j.unitFlops, j.unitElems, j.fixedElems = fl(n)*fl(k), fl(k)+fl(n)*(1+readC)/2, fl(n)*fl(k)
	j.whole = func(d l3Dev[T]) error { return d.Syrk(ul, t, n, k, alpha, a, lda, beta, c, ldc) }
	j.tile = func(d, cpu l3Dev[T], tl multi.Tile) (int, error) {
		lo, h := tl.Lo, tl.Len()
		c0, w := triRows(ul, n, lo, tl.Hi)
		diag := func(d l3Dev[T], _ int) error {
			return d.Syrk(ul, t, h, k, alpha, a[eng.OpRow(t, lo, lda):], lda, beta, c[lo*ldc+lo:], ldc)
		}
		if w == 0 {
			return runSteps(d, cpu, h, diag)
		}
		gemm := func(d l3Dev[T], r0 int) error {
			return d.Gemm(t, flip(t), h-r0, w, k, alpha, a[eng.OpRow(t, lo+r0, lda):], lda, a[eng.OpRow(t, c0, lda):], lda, beta, c[(lo+r0)*ldc+c0:], ldc)
		}
		return runSteps(d, cpu, h, gemm, diag)
	}
	return j
}

// syr2kJob is syr2k on the ul triangle of C, cut into rows as syrkJob: the
// off-diagonal block is two GEMMs (op(A)·op(B)ᵀ with beta, then
// op(B)·op(A)ᵀ added), beside the diagonal block, a syr2k.
func syr2kJob[T eng.Real](prec precision, routine string, dev func(*member) l3Dev[T],
	ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) *splitJob[T] {
	readC := ifNonZero(beta != 0)
	j := &splitJob[T]{routine: routine, prec: prec, dev: dev, units: n, inner: k}
	j.unitFlops, j.unitElems, j.fixedElems = 2*fl(n)*fl(k), 2*fl(k)+fl(n)*(1+readC)/2, 2*fl(n)*fl(k)
	j.whole = func(d l3Dev[T]) error { return d.Syr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc) }
	j.tile = func(d, cpu l3Dev[T], tl multi.Tile) (int, error) {
		lo, h := tl.Lo, tl.Len()
		c0, w := triRows(ul, n, lo, tl.Hi)
		diag := func(d l3Dev[T], _ int) error {
			return d.Syr2k(ul, t, h, k, alpha, a[eng.OpRow(t, lo, lda):], lda, b[eng.OpRow(t, lo, ldb):], ldb, beta, c[lo*ldc+lo:], ldc)
		}
		if w == 0 {
			return runSteps(d, cpu, h, diag)
		}
		ab := func(d l3Dev[T], r0 int) error {
			return d.Gemm(t, flip(t), h-r0, w, k, alpha, a[eng.OpRow(t, lo+r0, lda):], lda, b[eng.OpRow(t, c0, ldb):], ldb, beta, c[(lo+r0)*ldc+c0:], ldc)
		}
		ba := func(d l3Dev[T], r0 int) error {
			return d.Gemm(t, flip(t), h-r0, w, k, alpha, b[eng.OpRow(t, lo+r0, ldb):], ldb, a[eng.OpRow(t, c0, lda):], lda, 1, c[(lo+r0)*ldc+c0:], ldc)
		}
		return runSteps(d, cpu, h, ab, ba, diag)
	}
	return j
}

// Symm splits B and C across the devices (symmJob).
func (m *multiDev[T]) Symm(s blas.Side, ul blas.Uplo, mm, n int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error {
	return runSplit(m.set, symmJob(realPrec[T](), routineName[T]("symm"), l3For[T], s, ul, mm, n, alpha, a, lda, b, ldb, beta, c, ldc))
}

// Trmm splits B across the devices (triJob).
func (m *multiDev[T]) Trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, mm, n int, alpha T, a []T, lda int, b []T, ldb int) error {
	return runSplit(m.set, triJob(realPrec[T](), routineName[T]("trmm"), l3For[T], false, s, ul, tA, d, mm, n, alpha, a, lda, b, ldb))
}

// Trsm splits B across the devices (triJob).
func (m *multiDev[T]) Trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, mm, n int, alpha T, a []T, lda int, b []T, ldb int) error {
	return runSplit(m.set, triJob(realPrec[T](), routineName[T]("trsm"), l3For[T], true, s, ul, tA, d, mm, n, alpha, a, lda, b, ldb))
}

// Syrk splits the triangle of C across the devices (syrkJob).
func (m *multiDev[T]) Syrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, beta T, c []T, ldc int) error {
	return runSplit(m.set, syrkJob(realPrec[T](), routineName[T]("syrk"), l3For[T], ul, t, n, k, alpha, a, lda, beta, c, ldc))
}

// Syr2k splits the triangle of C across the devices (syr2kJob).
func (m *multiDev[T]) Syr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error {
	return runSplit(m.set, syr2kJob(realPrec[T](), routineName[T]("syr2k"), l3For[T], ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc))
}
