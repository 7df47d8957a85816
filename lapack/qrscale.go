package cllapack

import (
	"math"
	"sync"
	"sync/atomic"

	"github.com/gocompute/opencl/internal/par"
)

// The device QR kernels (geqr2_leaf, geqrf_grid) form a column's products
// with the panel's columns from the unscaled column, x·P[c+1:m, k], and
// scale them once the column's norm is known, so that one reduction gives
// both. gonum's Dlarf forms them from the scaled reflector v. Elements
// beyond about 1e±154 make those products overflow or underflow where
// gonum's do not, so Dgeqrf factorises such a matrix scaled by a power of
// two (exact) and scales R back: the reflectors and tau do not change
// with the scale. A matrix whose columns' sizes span more than about
// 1e150 goes to gonum's Dgeqrf on the CPU.
const (
	qrScaleHi = 0x1p332  // about 1e100
	qrScaleLo = 0x1p-332 // about 1e-100
	qrColMin  = 0x1p-500 // about 3e-151
)

// qrScale returns the e for which the m×n matrix a (row stride lda) is
// factorised as 2^e·a, and whether the device may factorise it at all.
// e is 0 when a's largest magnitude lies within [qrScaleLo, qrScaleHi] or
// is 0, else the e that brings it to [1, 2). The device may not when a
// holds NaN or Inf (see allFinite), or when a nonzero column's largest
// magnitude, scaled, is below qrColMin: its products with another such
// column would underflow, and gonum's scaled reflectors would not.
func qrScale(m, n int, a []float64, lda int) (e int, device bool) {
	var mu sync.Mutex
	colMax := make([]float64, n)
	par.For(m, normWorkers(m, n), func(lo, hi int) {
		cm := make([]float64, n)
		for i := lo; i < hi; i++ {
			for j, v := range a[i*lda : i*lda+n] {
				if v := math.Abs(v); v > cm[j] || v != v {
					cm[j] = v
				}
			}
		}
		mu.Lock()
		for j, v := range cm {
			if v > colMax[j] || v != v {
				colMax[j] = v
			}
		}
		mu.Unlock()
	})
	big := 0.0
	for _, v := range colMax {
		if v > big || v != v {
			big = v
		}
	}
	if math.IsNaN(big) || math.IsInf(big, 0) {
		return 0, false
	}
	if big == 0 {
		return 0, true
	}
	if big < qrScaleLo || big > qrScaleHi {
		e = -math.Ilogb(big)
	}
	for _, v := range colMax {
		if v != 0 && math.Ldexp(v, e) < qrColMin {
			return e, false
		}
	}
	return e, true
}

// scaleRows multiplies the elements of the m×n matrix a (row stride lda)
// in columns from its row's c0(i) on by 2^e (exact unless an element
// leaves the exponent range).
func scaleRows(m, n int, a []float64, lda, e int, c0 func(i int) int) {
	par.For(m, normWorkers(m, n), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := a[i*lda : i*lda+n]
			for j := min(c0(i), n); j < n; j++ {
				row[j] = math.Ldexp(row[j], e)
			}
		}
	})
}

// The device applies a block of reflectors as products with V and T whole,
// zeros included (V's upper triangle, T's lower one), where gonum's Dlarfb
// takes V's triangle with Dtrmm and gonum's unblocked code one reflector
// at a time. Where an operand holds NaN or Inf, 0·Inf and 0·NaN then
// spread NaN to elements that gonum's answers keep finite, so such calls
// go to gonum's code: Dgeqrf through qrScale, Dorgqr and Dormqr through
// allFinite.

// allFinite reports whether the rows×cols matrix a (row stride lda) holds
// only finite elements, reading it on several goroutines when it is large.
// LU and Cholesky read their matrices with it too (hostMatrix.keepChecked).
func allFinite(rows, cols int, a []float64, lda int) bool {
	if rows <= 0 || cols <= 0 {
		return true
	}
	var bad atomic.Bool
	par.For(rows, normWorkers(rows, cols), func(lo, hi int) {
		for i := lo; i < hi && !bad.Load(); i++ {
			for _, v := range a[i*lda : i*lda+cols] {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					bad.Store(true)
					return
				}
			}
		}
	})
	return !bad.Load()
}
