package clblas

import (
	"math"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// The complex products and solves of the device (zmv in
// kernels/complex_level2.cl, the blocked solves of kernels/trsv.cl) sum in
// another order and group α differently than gonum's Go code, which also
// skips some zero multipliers. With
// finite operands that changes only rounding; with NaN or ±Inf it can
// change which parts come out NaN or infinite. So those calls go to the
// device only when their scalars and every element gonum reads are finite
// (the scans below, O(data) like the transfers they precede); the others
// run gonum's code, counted as NonFinite in Stats. The rank updates need no
// scan: zrank does gonum's arithmetic element for element.

// cxFinite (zgemm_front.go) checks the scalars.

// cxVecFinite reports whether the n-vector x with increment inc is finite.
func cxVecFinite[C cplx](x []C, n, inc int) bool {
	if inc < 0 {
		inc = -inc
	}
	for i := 0; i < n; i++ {
		if !cxIsFinite(x[i*inc]) {
			return false
		}
	}
	return true
}

// cxIsFinite reports whether both parts of v are finite.
func cxIsFinite[C cplx](v C) bool {
	z := complex128(v)
	return isFinite(real(z)) && isFinite(imag(z))
}

func isFinite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// The diagonal's part in a scan: all of it, only its real part (Hermitian:
// gonum ignores the imaginary part), or none (unit triangular: not read).
const (
	diagAll = iota
	diagReal
	diagNone
)

// cxRowsFinite reports whether the rows of a stored matrix are finite:
// row i (i < rows) is a[lo:hi] with (lo, hi, d) = row(i), d the index of
// its diagonal element (or -1), which counts as diag says.
func cxRowsFinite[C cplx](a []C, rows int, diag int, row func(i int) (lo, hi, d int)) bool {
	for i := range rows {
		lo, hi, d := row(i)
		for p := lo; p < hi; p++ {
			v := a[p]
			if p == d {
				switch diag {
				case diagNone:
					continue
				case diagReal:
					if !isFinite(real(complex128(v))) {
						return false
					}
					continue
				}
			}
			if !cxIsFinite(v) {
				return false
			}
		}
	}
	return true
}

// cxGeneralFinite reports whether the m×n general matrix (band with kL
// sub- and kU super-diagonals when band) is finite where gonum reads it.
func cxGeneralFinite[C cplx](a []C, m, n, kL, kU, lda int, band bool) bool {
	if !band {
		return cxRowsFinite(a, m, diagAll, func(i int) (int, int, int) { return i * lda, i*lda + n, -1 })
	}
	return cxRowsFinite(a, min(m, n+kL), diagAll, func(i int) (int, int, int) {
		return i*lda + max(0, kL-i), i*lda + min(kL+kU+1, n+kL-i), -1
	})
}

// cxTriFinite reports whether the ul triangle of the n×n matrix (band
// width k in band storage; dense with lda or packed otherwise) is finite
// where gonum reads it, the diagonal counting as diag says.
func cxTriFinite[C cplx](a []C, ul blas.Uplo, storage, n, k, lda, diag int) bool {
	upper := ul == blas.Upper
	return cxRowsFinite(a, n, diag, func(i int) (int, int, int) {
		switch {
		case storage == eng.L2Packed && upper:
			s := i*n - i*(i-1)/2
			return s, s + n - i, s
		case storage == eng.L2Packed:
			s := i * (i + 1) / 2
			return s, s + i + 1, s + i
		case storage == eng.L2Band && upper:
			return i * lda, i*lda + min(k+1, n-i), i * lda
		case storage == eng.L2Band:
			return i*lda + max(0, k-i), i*lda + k + 1, i*lda + k
		case upper:
			return i*lda + i, i*lda + n, i*lda + i
		}
		return i * lda, i*lda + i + 1, i*lda + i
	})
}

// cxDiag is the diagonal's part in a triangular routine's scan.
func cxDiag(d blas.Diag) int {
	if d == blas.Unit {
		return diagNone
	}
	return diagAll
}
