package clblas

import (
	eng "github.com/gocompute/opencl/internal/engine"
	"gonum.org/v1/gonum/blas"

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
	j.whole = func(d l3Dev[T]) error { return d.symm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc) }
	if s == blas.Left {
		j.units, j.inner = n, m
		j.unitFlops, j.unitElems, j.fixedElems = 2*fl(m)*fl(m), fl(m)*(2+readC), fl(m)*fl(m)
		j.tile = func(d, _ l3Dev[T], t multi.Tile) (int, error) {
			return 0, d.symm(s, ul, m, t.Len(), alpha, a, lda, b[t.Lo:], ldb, beta, c[t.Lo:], ldc)
		}
		return j
	}
	j.units, j.inner = m, n
	j.unitFlops, j.unitElems, j.fixedElems = 2*fl(n)*fl(n), fl(n)*(2+readC), fl(n)*fl(n)
	j.tile = func(d, _ l3Dev[T], t multi.Tile) (int, error) {
		return 0, d.symm(s, ul, t.Len(), n, alpha, a, lda, b[t.Lo*ldb:], ldb, beta, c[t.Lo*ldc:], ldc)
	}
	return j
}

// triJob is trmm (solve false) or trsm (solve true) on B in place, cut into
// columns of B when A is on the left, rows when it is on the right.
func triJob[T eng.Real](prec precision, routine string, dev func(*member) l3Dev[T], solve bool,
	s blas.Side, ul blas.Uplo, tA blas.Transpose, dg blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) *splitJob[T] {
	run := func(d l3Dev[T], m, n int, b []T) error {
		if solve {
			return d.trsm(s, ul, tA, dg, m, n, alpha, a, lda, b, ldb)
		}
		return d.trmm(s, ul, tA, dg, m, n, alpha, a, lda, b, ldb)
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
	j.whole = func(d l3Dev[T]) error { return d.syrk(ul, t, n, k, alpha, a, lda, beta, c, ldc) }
	j.tile = func(d, cpu l3Dev[T], tl multi.Tile) (int, error) {
		lo, h := tl.Lo, tl.Len()
		c0, w := triRows(ul, n, lo, tl.Hi)
		diag := func(d l3Dev[T], _ int) error {
			return d.syrk(ul, t, h, k, alpha, a[eng.OpRow(t, lo, lda):], lda, beta, c[lo*ldc+lo:], ldc)
		}
		if w == 0 {
			return runSteps(d, cpu, h, diag)
		}
		gemm := func(d l3Dev[T], r0 int) error {
			return d.gemm(t, flip(t), h-r0, w, k, alpha, a[eng.OpRow(t, lo+r0, lda):], lda, a[eng.OpRow(t, c0, lda):], lda, beta, c[(lo+r0)*ldc+c0:], ldc)
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
	j.whole = func(d l3Dev[T]) error { return d.syr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc) }
	j.tile = func(d, cpu l3Dev[T], tl multi.Tile) (int, error) {
		lo, h := tl.Lo, tl.Len()
		c0, w := triRows(ul, n, lo, tl.Hi)
		diag := func(d l3Dev[T], _ int) error {
			return d.syr2k(ul, t, h, k, alpha, a[eng.OpRow(t, lo, lda):], lda, b[eng.OpRow(t, lo, ldb):], ldb, beta, c[lo*ldc+lo:], ldc)
		}
		if w == 0 {
			return runSteps(d, cpu, h, diag)
		}
		ab := func(d l3Dev[T], r0 int) error {
			return d.gemm(t, flip(t), h-r0, w, k, alpha, a[eng.OpRow(t, lo+r0, lda):], lda, b[eng.OpRow(t, c0, ldb):], ldb, beta, c[(lo+r0)*ldc+c0:], ldc)
		}
		ba := func(d l3Dev[T], r0 int) error {
			return d.gemm(t, flip(t), h-r0, w, k, alpha, b[eng.OpRow(t, lo+r0, ldb):], ldb, a[eng.OpRow(t, c0, lda):], lda, 1, c[(lo+r0)*ldc+c0:], ldc)
		}
		return runSteps(d, cpu, h, ab, ba, diag)
	}
	return j
}

// Dsymm splits B and C across the devices (symmJob).
func (m *multi64) Dsymm(s blas.Side, ul blas.Uplo, mm, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	return runSplit(m.set, symmJob(prec64, "Dsymm", l3Of64, s, ul, mm, n, alpha, a, lda, b, ldb, beta, c, ldc))
}

// Ssymm splits B and C across the devices (symmJob).
func (m *multi32) Ssymm(s blas.Side, ul blas.Uplo, mm, n int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	return runSplit(m.set, symmJob(prec32, "Ssymm", l3Of32, s, ul, mm, n, alpha, a, lda, b, ldb, beta, c, ldc))
}

// Dtrmm splits B across the devices (triJob).
func (m *multi64) Dtrmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, mm, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error {
	return runSplit(m.set, triJob(prec64, "Dtrmm", l3Of64, false, s, ul, tA, d, mm, n, alpha, a, lda, b, ldb))
}

// Strmm splits B across the devices (triJob).
func (m *multi32) Strmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, mm, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error {
	return runSplit(m.set, triJob(prec32, "Strmm", l3Of32, false, s, ul, tA, d, mm, n, alpha, a, lda, b, ldb))
}

// Dtrsm splits B across the devices (triJob).
func (m *multi64) Dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, mm, n int, alpha float64, a []float64, lda int, b []float64, ldb int) error {
	return runSplit(m.set, triJob(prec64, "Dtrsm", l3Of64, true, s, ul, tA, d, mm, n, alpha, a, lda, b, ldb))
}

// Strsm splits B across the devices (triJob).
func (m *multi32) Strsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, mm, n int, alpha float32, a []float32, lda int, b []float32, ldb int) error {
	return runSplit(m.set, triJob(prec32, "Strsm", l3Of32, true, s, ul, tA, d, mm, n, alpha, a, lda, b, ldb))
}

// Dsyrk splits the triangle of C across the devices (syrkJob).
func (m *multi64) Dsyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) error {
	return runSplit(m.set, syrkJob(prec64, "Dsyrk", l3Of64, ul, t, n, k, alpha, a, lda, beta, c, ldc))
}

// Dsyr2k splits the triangle of C across the devices (syr2kJob).
func (m *multi64) Dsyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	return runSplit(m.set, syr2kJob(prec64, "Dsyr2k", l3Of64, ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc))
}

// Ssyr2k splits the triangle of C across the devices (syr2kJob).
func (m *multi32) Ssyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	return runSplit(m.set, syr2kJob(prec32, "Ssyr2k", l3Of32, ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc))
}

// Ssyrk splits the triangle of C across the devices (syrkJob).
func (m *multi32) Ssyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int) error {
	return runSplit(m.set, syrkJob(prec32, "Ssyrk", l3Of32, ul, t, n, k, alpha, a, lda, beta, c, ldc))
}
