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

// zOnDevice runs one complex call on host slices on the device (see
// engine.ZSlices), which the policy has sent there, and reports whether
// out holds the result. The callers ask the policy first, so that a call
// kept on the CPU builds none of the closures.
func zOnDevice[T eng.Complex, R eng.Real](impl *Implementation, name string, out []T, rows, cols, ld int, enq func(c *eng.Call, ins []eng.ZMat, out eng.ZMat), ins ...eng.ZIn[T]) bool {
	nonFinite, err := eng.ZSlices[T, R](impl.eng, name, out, rows, cols, ld, enq, ins...)
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

// offloadZ is offloadIf for a complex call whose scalars are finite or not.
func (impl *Implementation) offloadZ(name string, w workload, finite bool) bool {
	return impl.offloadIf(name, w, func() bool { return finite })
}

// unless is x, or nothing when skip.
func unless[T eng.Complex](skip bool, x []T) []T {
	if skip {
		return nil
	}
	return x
}

// zsymmDevice is Zsymm, Zhemm (herm), Csymm and Chemm on the device.
func zsymmDevice[T eng.Complex, R eng.Real](impl *Implementation, name string, herm bool, s blas.Side, ul blas.Uplo, m, n int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) bool {
	left := s == blas.Left
	ka := n
	if left {
		ka = m
	}
	w := work(precOf[T](), 8*fl(m)*fl(n)*fl(ka), 2*(fl(ka)*fl(ka)+3*fl(m)*fl(n))).over(2 * ka).oneCore(4)
	if !impl.offloadZ(name, w, cxFinite(alpha, beta)) {
		return false
	}
	return zOnDevice[T, R](impl, name, c, m, n, ldc, func(cl *eng.Call, ins []eng.ZMat, out eng.ZMat) {
		eng.ZsymmOnDevice[R](cl, left, ul == blas.Upper, herm, m, n, complex128(alpha), complex128(beta), ins[0], ins[1], out)
	}, eng.ZInput(unless(alpha == 0, a), ka, ka, lda), eng.ZInput(unless(alpha == 0, b), m, n, ldb))
}

// zrankDevice is Zsyrk, Zherk, Zsyr2k, Zher2k (b non-nil for the rank-2k
// ones, herm for the Hermitian ones) and their complex64 twins on the
// device. For herm, alpha of Zherk and beta are real, passed as complex.
func zrankDevice[T eng.Complex, R eng.Real](impl *Implementation, name string, herm bool, ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) bool {
	ar, ac := eng.Stored(t, n, k)
	// The device forms the whole square (GEMM's 8n²k flops) where gonum
	// forms a triangle: half as efficient for the rank-k update.
	flops, eff := 4*fl(n)*fl(n)*fl(k), 0.5
	if b != nil {
		flops, eff = 2*flops, 1
	}
	w := work(precOf[T](), flops, 2*(2*fl(n)*fl(k)+2*fl(n)*fl(n))).over(2 * k).direct(eff).oneCore(4)
	if !impl.offloadZ(name, w, cxFinite(alpha, beta)) {
		return false
	}
	skip := alpha == 0 || k == 0
	var bin eng.ZIn[T]
	if b != nil {
		bin = eng.ZInput(unless(skip, b), ar, ac, ldb)
	}
	return zOnDevice[T, R](impl, name, c, n, n, ldc, func(cl *eng.Call, ins []eng.ZMat, out eng.ZMat) {
		var bm *eng.ZMat
		if b != nil {
			bm = &ins[1]
		}
		eng.ZrankOnDevice[R](cl, ul == blas.Upper, herm, t, n, k, complex128(alpha), complex128(beta), ins[0], bm, out)
	}, eng.ZInput(unless(skip, a), ar, ac, lda), bin)
}

// ztriDevice is Ztrmm and Ztrsm (solve) and their complex64 twins on the
// device; the arguments have been checked and m, n > 0.
func ztriDevice[T eng.Complex, R eng.Real](impl *Implementation, name string, solve bool, s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) bool {
	left := s == blas.Left
	ka := n
	if left {
		ka = m
	}
	// Both do about half of a GEMM's work on the device at GEMM's rate
	// (trmm multiplies the full expansion of A; trsm's substitution
	// kernels are slower than its GEMM updates).
	w := work(precOf[T](), 4*fl(m)*fl(n)*fl(ka), 2*(fl(ka)*fl(ka)/2+2*fl(m)*fl(n))).over(2 * ka).direct(0.5).oneCore(6)
	if !impl.offloadZ(name, w, cxFinite(alpha)) {
		return false
	}
	return zOnDevice[T, R](impl, name, b, m, n, ldb, func(cl *eng.Call, ins []eng.ZMat, out eng.ZMat) {
		upper, unit, al := ul == blas.Upper, d == blas.Unit, complex128(alpha)
		if solve {
			eng.ZtrsmOnDevice[R](cl, left, upper, unit, tA, m, n, al, ins[0], out, eng.TrsmBlock(cl.E))
		} else {
			eng.ZtrmmOnDevice[R](cl, left, upper, unit, tA, m, n, al, ins[0], out)
		}
	}, eng.ZInput(unless(alpha == 0, a), ka, ka, lda))
}
