// Package hostlu is the LU factorization of a narrow panel on the host's
// CPU, for device LU's panels on CPU devices (cllapack's getrfHost): gonum's
// Dgetf2, with the rank-one updates of the columns right of each strip of
// eight deferred to one rank-eight update, in AVX2 where the CPU has it.
package hostlu

import (
	"math"

	"gonum.org/v1/gonum/blas/gonum"
)

// strip is the width of the column strips Getf2 factorises with rank-one
// updates before it updates the columns right of them once.
const strip = 8

// dlamchS is LAPACK's safe minimum, gonum's dlamchS: the least pivot
// Getf2 scales by its reciprocal.
const dlamchS = 0x1p-1022

// Getf2 is gonum's Dgetf2 for the m×n matrix a (row stride lda; the
// caller has checked the arguments as gonum does): the LU factorization with
// partial pivoting by columns, L and U in a, ipiv[j] the row interchanged
// with row j (len(ipiv) == min(m, n)), false when a pivot is exactly zero.
// Its pivots are gonum's rule (the first element of largest magnitude),
// its scaling gonum's (the reciprocal of a pivot of at least the safe
// minimum; below it, gonum's loop, which divides only the next row's
// element); the terms each element takes are gonum's, in gonum's order.
// What differs is when: the columns of a strip of eight take their
// rank-one updates at once, as gonum's Dger would give them, and the
// columns right of the strip take all eight afterwards, each a fused
// multiply-add on CPUs with FMA (one rounding where gonum's has two).
func Getf2(m, n int, a []float64, lda int, ipiv []int) bool {
	mn := min(m, n)
	ok := true
	for j0 := 0; j0 < mn; j0 += strip {
		jb := min(strip, mn-j0)
		if !factorStrip(m, n, a, lda, ipiv, j0, jb) {
			ok = false
		}
		c0 := j0 + jb
		if c0 >= n {
			continue
		}
		// The strip's rows of the columns right of it: each row takes the
		// updates of the strip's rows above it.
		for r := j0 + 1; r < j0+jb && r < m; r++ {
			ar := a[r*lda : r*lda+n]
			for p := j0; p < r; p++ {
				axpyNeg(ar[p], a[p*lda+c0:p*lda+n], ar[c0:])
			}
		}
		if rows := m - c0; rows > 0 {
			if jb == strip {
				update8(rows, n-c0, a[c0*lda+c0:], lda, a[c0*lda+j0:], lda, a[j0*lda+c0:], lda)
			} else {
				for i := c0; i < m; i++ {
					ai := a[i*lda : i*lda+n]
					for p := j0; p < c0; p++ {
						axpyNeg(ai[p], a[p*lda+c0:p*lda+n], ai[c0:])
					}
				}
			}
		}
	}
	return ok
}

// factorStrip is gonum's Dgetf2 loop for columns [j0, j0+jb) of a, whose
// earlier columns' updates they have taken: each column's pivot, the
// interchange of whole rows, the scaling, and the rank-one update of the
// strip's columns right of it (those right of the strip wait for Getf2).
// A whole strip takes each column in one pass over the rows below it: a
// row's multiplier, its update, and the next column's candidate pivot.
func factorStrip(m, n int, a []float64, lda int, ipiv []int, j0, jb int) bool {
	ok := true
	mn := min(m, n)
	jp := pivotRow(m, a, lda, j0) // the pivot of column j, found by the pass before
	for j := j0; j < j0+jb; j++ {
		ipiv[j] = jp
		d := a[jp*lda+j]
		if d == 0 {
			ok = false
		} else if jp != j {
			rj, rp := a[j*lda:j*lda+n], a[jp*lda:jp*lda+n]
			for c := range rj {
				rj[c], rp[c] = rp[c], rj[c]
			}
		}
		if j+1 >= m {
			continue
		}
		scale := d != 0 && math.Abs(d) >= dlamchS
		r := 1 / d
		switch {
		case d != 0 && !scale:
			// gonum's loop for a pivot below the safe minimum (or NaN):
			// the next row's element, m−j−1 times; the others stay.
			for range m - j - 1 {
				a[(j+1)*lda+j] /= d
			}
		case scale && r == 0:
			// An infinite pivot: gonum's Dscal by 0 assigns zeros.
			for i := j + 1; i < m; i++ {
				a[i*lda+j] = 0
			}
			scale = false
		}
		update := j < mn-1
		if jb == strip {
			jp = stripPass(m, a, lda, j0, j, scale, r, update)
			continue
		}
		for i := j + 1; i < m; i++ {
			if scale {
				a[i*lda+j] *= r
			}
			if update {
				axpyNeg(a[i*lda+j], a[j*lda+j+1:j*lda+j0+jb], a[i*lda+j+1:i*lda+j0+jb])
			}
		}
		if j+1 < j0+jb {
			jp = pivotRow(m, a, lda, j+1)
		}
	}
	return ok
}

// stripPass is column j's pass over rows j+1 … m−1 of a whole strip
// (columns j0 … j0+7): each row's multiplier (scaled by r with scale),
// with update the row's rank-one update of the strip's columns right of
// j, and the first row of largest magnitude in column j+1 (rows j+1 on),
// which it returns (j+1 when j+1 is past the strip).
func stripPass(m int, a []float64, lda, j0, j int, scale bool, r float64, update bool) int {
	jj := j - j0
	u := (*[strip]float64)(a[j*lda+j0 : j*lda+j0+strip])
	if haveFMA && scale && update && jj+1 < strip {
		rows := m - j - 1
		s := a[(j+1)*lda+j0 : (m-1)*lda+j0+strip]
		best := stripPassFMA(rows, s, lda, u, &lanes[jj], jj, r)
		if best < 0 || math.IsNaN(s[jj+1]) {
			// gonum's Idamax keeps the first element when it is NaN.
			return j + 1
		}
		return j + 1 + best
	}
	next, big := j+1, -1.0
	for i := j + 1; i < m; i++ {
		row := (*[strip]float64)(a[i*lda+j0 : i*lda+j0+strip])
		l := row[jj]
		if scale {
			l *= r
			row[jj] = l
		}
		if update {
			al := -l
			for c := jj + 1; c < strip; c++ {
				row[c] += float64(al * u[c])
			}
		}
		if jj+1 < strip {
			if v := math.Abs(row[jj+1]); v > big || big < 0 {
				next, big = i, v
			}
		}
	}
	return next
}

// lanes[jj] has all bits set in the lanes of a strip's columns right of
// column jj ([0]: those stripPassFMA updates) and in column jj's ([1]).
var lanes = func() (t [strip][2][strip]uint64) {
	for jj := range t {
		for c := jj + 1; c < strip; c++ {
			t[jj][0][c] = ^uint64(0)
		}
		t[jj][1][jj] = ^uint64(0)
	}
	return t
}()

// pivotRow is the first row of largest magnitude in column j of a, from
// row j on: gonum's Idamax, as gonum's Dgetf2 takes it.
func pivotRow(m int, a []float64, lda, j int) int {
	return j + gonum.Implementation{}.Idamax(m-j, a[j*lda+j:], lda)
}

// axpyNeg is y −= l·x, as gonum's Dger takes it: (−l)·x[k] + y[k], the
// product rounded before the sum (the Go paths below round it the same way,
// so that without FMA the panel is gonum's bit for bit).
func axpyNeg(l float64, x, y []float64) {
	al := -l
	for k, v := range x {
		y[k] += float64(al * v) // the conversion rounds the product: no fused multiply-add
	}
}

// update8 is c[i·ldc+j] −= l[i·ldl+p]·u[p·ldu+j] for p = 0 … 7 in turn, for
// i < rows and j < cols: the eight rank-one updates of a strip, one fused
// multiply-add each where the CPU has FMA (update8FMA over whole groups of
// four columns), else as axpyNeg takes them.
func update8(rows, cols int, c []float64, ldc int, l []float64, ldl int, u []float64, ldu int) {
	if rows <= 0 || cols <= 0 {
		return
	}
	// The last elements each operand is read or written at.
	_, _, _ = c[(rows-1)*ldc+cols-1], l[(rows-1)*ldl+strip-1], u[(strip-1)*ldu+cols-1]
	v := 0
	if haveFMA {
		if v = cols &^ 3; v > 0 {
			update8FMA(rows, v, c, ldc, l, ldl, u, ldu)
		}
	}
	for i := range rows {
		ci, li := c[i*ldc:i*ldc+cols], l[i*ldl:i*ldl+strip]
		for j := v; j < cols; j++ {
			s := ci[j]
			for p, lp := range li {
				if haveFMA {
					s = math.FMA(-lp, u[p*ldu+j], s)
				} else {
					s += float64(-lp * u[p*ldu+j])
				}
			}
			ci[j] = s
		}
	}
}
