package clblas

import (
	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// The device half of the complex level 3 front ends besides GEMM, shared
// by the complex128 and complex64 routines (T is the element type, R its
// part type). Each returns whether the call's result is in place; when it
// is not, the caller runs gonum on the operands, which are as given (the
// policy kept the call on the CPU, the device failed, or the device's
// result held a NaN or an infinity, on which IEEE arithmetic and gonum's
// loops need not agree).

// zin is an input matrix of a call on host slices: rows×cols with leading
// dimension ld, or nothing (data nil) when the call does not read it.
type zin[T cx] struct {
	data           []T
	rows, cols, ld int
}

// zOnDevice runs one complex call on host slices: it uploads ins (or maps
// them, on a device sharing the host's memory), brings in the rows×cols
// output out (leading dimension ld), which the kernels read and update,
// enqueues enq and finishes.
func zOnDevice[T cx, R real](impl *Implementation, name string, w workload, finite bool, out []T, rows, cols, ld int, enq func(c *call, ins []zmat, out zmat), ins ...zin[T]) bool {
	if !impl.offloadIf(name, w, func() bool { return finite }) {
		return false
	}
	c := begin[T](impl.eng, name)
	ms := make([]zmat, len(ins))
	for i, in := range ins {
		if in.data != nil {
			ms[i] = zmat{l3In(c, partsOf[T, R](in.data[:eng.MatSpan(in.rows, in.cols, in.ld)])), 0, in.ld}
		}
	}
	dc := newL3Dest(c, partsOf[T, R](out), rows, 2*cols, 2*ld, true)
	enq(c, ms, zmat{dc.buf, 0, ld})
	nonFinite, err := zFinish(c, dc)
	switch {
	case err != nil:
		impl.deviceFailed(name, err)
		return false
	case nonFinite:
		impl.nonFiniteAfter(name)
		return false
	}
	return true
}

// unless is x, or nothing when skip.
func unless[T cx](skip bool, x []T) []T {
	if skip {
		return nil
	}
	return x
}

// zsymmDevice is Zsymm, Zhemm (herm), Csymm and Chemm on the device.
func zsymmDevice[T cx, R real](impl *Implementation, name string, herm bool, s blas.Side, ul blas.Uplo, m, n int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) bool {
	left := s == blas.Left
	ka := n
	if left {
		ka = m
	}
	w := work(precOf[T](), 8*fl(m)*fl(n)*fl(ka), 2*(fl(ka)*fl(ka)+3*fl(m)*fl(n))).over(2 * ka)
	return zOnDevice[T, R](impl, name, w, cxFinite(alpha, beta), c, m, n, ldc, func(cl *call, ins []zmat, out zmat) {
		zsymmOnDevice[R](cl, left, ul == blas.Upper, herm, m, n, complex128(alpha), complex128(beta), ins[0], ins[1], out)
	}, zin[T]{unless(alpha == 0, a), ka, ka, lda}, zin[T]{unless(alpha == 0, b), m, n, ldb})
}

// zrankDevice is Zsyrk, Zherk, Zsyr2k, Zher2k (b non-nil for the rank-2k
// ones, herm for the Hermitian ones) and their complex64 twins on the
// device. For herm, alpha of Zherk and beta are real, passed as complex.
func zrankDevice[T cx, R real](impl *Implementation, name string, herm bool, ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) bool {
	ar, ac := stored(t, n, k)
	// The device forms the whole square (GEMM's 8n²k flops) where gonum
	// forms a triangle: half as efficient for the rank-k update.
	flops, eff := 4*fl(n)*fl(n)*fl(k), 0.5
	if b != nil {
		flops, eff = 2*flops, 1
	}
	w := work(precOf[T](), flops, 2*(2*fl(n)*fl(k)+2*fl(n)*fl(n))).over(2 * k).direct(eff)
	skip := alpha == 0 || k == 0
	var bin zin[T]
	if b != nil {
		bin = zin[T]{unless(skip, b), ar, ac, ldb}
	}
	return zOnDevice[T, R](impl, name, w, cxFinite(alpha, beta), c, n, n, ldc, func(cl *call, ins []zmat, out zmat) {
		var bm *zmat
		if b != nil {
			bm = &ins[1]
		}
		zrankOnDevice[R](cl, ul == blas.Upper, herm, t, n, k, complex128(alpha), complex128(beta), ins[0], bm, out)
	}, zin[T]{unless(skip, a), ar, ac, lda}, bin)
}

// ztriDevice is Ztrmm and Ztrsm (solve) and their complex64 twins on the
// device; the arguments have been checked and m, n > 0.
func ztriDevice[T cx, R real](impl *Implementation, name string, solve bool, s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) bool {
	left := s == blas.Left
	ka := n
	if left {
		ka = m
	}
	// Both do about half of a GEMM's work on the device at GEMM's rate
	// (trmm multiplies the full expansion of A; trsm's substitution
	// kernels are slower than its GEMM updates).
	w := work(precOf[T](), 4*fl(m)*fl(n)*fl(ka), 2*(fl(ka)*fl(ka)/2+2*fl(m)*fl(n))).over(2 * ka).direct(0.5)
	return zOnDevice[T, R](impl, name, w, cxFinite(alpha), b, m, n, ldb, func(cl *call, ins []zmat, out zmat) {
		upper, unit, al := ul == blas.Upper, d == blas.Unit, complex128(alpha)
		if solve {
			ztrsmOnDevice[R](cl, left, upper, unit, tA, m, n, al, ins[0], out, trsmBlock(cl.e))
		} else {
			ztrmmOnDevice[R](cl, left, upper, unit, tA, m, n, al, ins[0], out)
		}
	}, zin[T]{unless(alpha == 0, a), ka, ka, lda})
}
