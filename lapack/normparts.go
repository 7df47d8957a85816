package cllapack

import (
	"math"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/internal/par"
)

// The passes of Dlange, Dlansy and Dlantr over part of A. Each adds in
// gonum's order: a row's sum along the row, a column's sum down the rows.

// partMax is what a pass over part of a matrix found: the largest value
// v, and whether it met a NaN (for trapMaxAbs and trapMaxRowSum v is then
// the first NaN, in row order).
type partMax struct {
	v   float64
	nan bool
}

// fold takes x into p: the larger of p.v and x, or a note of a NaN.
func (p *partMax) fold(x float64) {
	if x > p.v {
		p.v = x
	} else if x != x {
		p.nan = true
	}
}

// rowParts splits the rows [0, m) into at most workers ranges, runs part
// on each on its own goroutine and returns their results in row order.
func rowParts(m, workers int, part func(lo, hi int) partMax) []partMax {
	w := max(1, min(workers, m))
	ps := make([]partMax, w)
	par.For(w, w, func(k, _ int) { ps[k] = part(m*k/w, m*(k+1)/w) })
	return ps
}

// mathMaxOf is the result of folding the values the parts saw, from 0,
// with math.Max, as gonum's Dlange does: +Inf if any is +Inf, else NaN if
// any is NaN, else the largest.
func mathMaxOf(ps []partMax) float64 {
	var all partMax
	for _, p := range ps {
		all.fold(p.v)
		all.nan = all.nan || p.nan
	}
	if all.nan && !math.IsInf(all.v, 1) {
		return math.NaN()
	}
	return all.v
}

// firstNaNOrMax returns the first part, in row order, that met a NaN, or
// else the largest of floor and the parts' maxima.
func firstNaNOrMax(ps []partMax, floor float64) partMax {
	all := partMax{v: floor}
	for _, p := range ps {
		if p.nan {
			return p
		}
		all.fold(p.v)
	}
	return all
}

// maxOrNaN returns the largest of 0 and the elements of s, or NaN if one
// is NaN.
func maxOrNaN(s []float64) float64 {
	var p partMax
	for _, v := range s {
		if v != v {
			return math.NaN()
		}
		p.fold(v)
	}
	return p.v
}

// addAbs adds |src[j]| to dst[j] for every j.
func addAbs(dst, src []float64) {
	dst = dst[:len(src)]
	for j, x := range src {
		dst[j] += math.Abs(x)
	}
}

// geMaxAbs folds |a_ij| of the rows×n matrix in a.
func geMaxAbs(a []float64, rows, n, lda int) partMax {
	var p partMax
	for i := range rows {
		for _, x := range a[i*lda : i*lda+n] {
			p.fold(math.Abs(x))
		}
	}
	return p
}

// geMaxRowSum folds the row sums ∑_j |a_ij| of the rows×n matrix in a.
func geMaxRowSum(a []float64, rows, n, lda int) partMax {
	var p partMax
	for i := range rows {
		var s float64
		for _, x := range a[i*lda : i*lda+n] {
			s += math.Abs(x)
		}
		p.fold(s)
	}
	return p
}

// trapCols returns the columns [j0, j1) of row i of the ul trapezoid of
// an m×n matrix, its diagonal left out if d is blas.Unit.
func trapCols(ul blas.Uplo, d blas.Diag, i, n int) (j0, j1 int) {
	unit := 0
	if d == blas.Unit {
		unit = 1
	}
	if ul == blas.Upper {
		return min(i+unit, n), n
	}
	return 0, min(i+1-unit, n)
}

// trapMaxAbs returns the largest |a_ij| in the rows [lo, hi) of the ul
// trapezoid, or the first that is NaN.
func trapMaxAbs(ul blas.Uplo, d blas.Diag, lo, hi, n int, a []float64, lda int) partMax {
	var p partMax
	for i := lo; i < hi; i++ {
		j0, j1 := trapCols(ul, d, i, n)
		for _, x := range a[i*lda+j0 : i*lda+j1] {
			t := math.Abs(x)
			if t != t {
				return partMax{t, true}
			}
			p.fold(t)
		}
	}
	return p
}

// trapMaxRowSum returns the largest row sum ∑_j |a_ij| (with 1 for a unit
// diagonal) of the rows [lo, hi) of the ul trapezoid of the m×n A, or the
// first that is NaN.
func trapMaxRowSum(ul blas.Uplo, d blas.Diag, lo, hi, m, n int, a []float64, lda int) partMax {
	var p partMax
	for i := lo; i < hi; i++ {
		var s float64
		if d == blas.Unit && i < min(m, n) {
			s = 1
		}
		j0, j1 := trapCols(ul, d, i, n)
		for _, x := range a[i*lda+j0 : i*lda+j1] {
			s += math.Abs(x)
		}
		if s != s {
			return partMax{s, true}
		}
		p.fold(s)
	}
	return p
}

// trapColSums sets work[j], lo ≤ j < hi, to the column sum ∑_i |a_ij|
// (with 1 for a unit diagonal) of the ul trapezoid of the m×n A.
func trapColSums(ul blas.Uplo, d blas.Diag, lo, hi, m, n int, a []float64, lda int, work []float64) {
	clear(work[lo:hi])
	if d == blas.Unit {
		for j := lo; j < min(hi, m, n); j++ {
			work[j] = 1
		}
	}
	rows0, rows1 := 0, m // the rows that reach the columns [lo, hi)
	if ul == blas.Upper {
		rows1 = min(m, hi)
	} else {
		rows0 = min(m, lo)
	}
	for i := rows0; i < rows1; i++ {
		j0, j1 := trapCols(ul, d, i, n)
		j0, j1 = max(j0, lo), min(j1, hi)
		if j0 < j1 {
			addAbs(work[j0:j1], a[i*lda+j0:i*lda+j1])
		}
	}
}

// symRowSumsUpper sets work[i], lo ≤ i < hi, to the row sum ∑_j |a_ij| of
// the symmetric n×n A held in its upper triangle, adding in gonum's
// order: a_ji (j < i) down column i, then a_ii, then a_ij (j > i) along
// row i.
func symRowSumsUpper(lo, hi, n int, a []float64, lda int, work []float64) {
	clear(work[lo:hi])
	for i := range hi {
		row := a[i*lda : i*lda+n]
		if i < lo {
			addAbs(work[lo:hi], row[lo:hi])
			continue
		}
		s := work[i] + math.Abs(row[i])
		for j := i + 1; j < hi; j++ {
			v := math.Abs(row[j])
			s += v
			work[j] += v
		}
		for _, x := range row[hi:] {
			s += math.Abs(x)
		}
		work[i] = s
	}
}

// symRowSumsLower is symRowSumsUpper for A held in its lower triangle:
// a_ij (j < i) along row i, then a_ii, then a_ji (j > i) down column i.
func symRowSumsLower(lo, hi, n int, a []float64, lda int, work []float64) {
	clear(work[lo:hi])
	for i := lo; i < n; i++ {
		row := a[i*lda : i*lda+i+1]
		if i >= hi {
			addAbs(work[lo:hi], row[lo:hi])
			continue
		}
		var s float64
		for _, x := range row[:lo] {
			s += math.Abs(x)
		}
		for j := lo; j < i; j++ {
			v := math.Abs(row[j])
			s += v
			work[j] += v
		}
		work[i] = s + math.Abs(row[i])
	}
}
