package clblas

import (
	"unsafe"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// The front-end half of complex GEMM shared by Zgemm and Cgemm: gonum's
// checks, and the offload decision with the CPU finish.

// checkZgemm does Zgemm's argument checks in gonum's order, given the
// slices' lengths, and reports whether there is work: false for gonum's
// quick returns (m or n zero, or alpha or k zero with beta one).
func checkZgemm(tA, tB blas.Transpose, m, n, k, lenA, lda, lenB, ldb, lenC, ldc int, noWork bool) bool {
	if badTrans(tA) || badTrans(tB) {
		panic(msgBadTranspose)
	}
	if m < 0 {
		panic(msgMLT0)
	}
	if n < 0 {
		panic(msgNLT0)
	}
	if k < 0 {
		panic(msgKLT0)
	}
	rowA, colA := eng.Stored(tA, m, k)
	if lda < max(1, colA) {
		panic(msgBadLdA)
	}
	rowB, colB := eng.Stored(tB, k, n)
	if ldb < max(1, colB) {
		panic(msgBadLdB)
	}
	if ldc < max(1, n) {
		panic(msgBadLdC)
	}
	if m == 0 || n == 0 {
		return false
	}
	if lenA < (rowA-1)*lda+colA {
		panic(msgShortA)
	}
	if lenB < (rowB-1)*ldb+colB {
		panic(msgShortB)
	}
	if lenC < (m-1)*ldc+n {
		panic(msgShortC)
	}
	return !noWork
}

// precOf is the workload precision of T's parts.
func precOf[T eng.Complex]() precision {
	var v T
	if unsafe.Sizeof(v) == 16 {
		return prec64
	}
	return prec32
}

// cxFinite reports whether every v is finite (both parts).
func cxFinite[T eng.Complex](vs ...T) bool {
	for _, v := range vs {
		if !cxIsFinite(v) {
			return false
		}
	}
	return true
}

// zgemmWork is the workload of a complex GEMM: a complex multiply-add is
// four real ones, so 8·m·n·k flops, over the parts of A, B and C (C read
// in only when beta ≠ 0), with the real GEMM's inner dimension 2k.
func zgemmWork[T eng.Complex](m, n, k int, betaNonZero bool) workload {
	mn := fl(m) * fl(n)
	elems := 2 * (fl(k)*(fl(m)+fl(n)) + mn*(1+ifNonZero(betaNonZero)))
	return work(precOf[T](), 8*mn*fl(k), elems).over(2 * k).oneCore(3)
}

// zgemmDevice runs Zgemm or Cgemm (R is T's part type) on the device if
// the policy sends it there, and reports whether C holds the result. When
// it does not (the policy keeps the call on the CPU, the device failed, or
// its result holds a NaN or an infinity) C holds the rows it did not
// finish as given, from row done on, and the caller computes those with
// gonum. A C that the device updates in place in host memory (a device
// sharing the host's memory, beta ≠ 0) goes in row slabs whose kept
// copies stay within eng.KeepMaxBytes.
func zgemmDevice[T eng.Complex, R eng.Real](impl *Implementation, name string, tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) (done int) {
	if !impl.offloadIf(name, zgemmWork[T](m, n, k, beta != 0), func() bool { return cxFinite(alpha, beta) }) {
		return 0
	}
	e := impl.eng
	rows := m
	if es := int(unsafe.Sizeof(alpha)); beta != 0 && e.HostShared() && m*n*es > eng.KeepMaxBytes {
		rows = max(1, eng.KeepMaxBytes/(n*es))
	}
	for i0 := 0; i0 < m; i0 += rows {
		mi := min(rows, m-i0)
		nonFinite, err := eng.ZgemmSlices[T, R](e, name, tA, tB, mi, n, k, alpha, a[eng.OpRow(tA, i0, lda):], lda, b, ldb, beta, c[i0*ldc:], ldc)
		switch {
		case err != nil:
			impl.deviceFailed(name, err)
			return i0
		case nonFinite:
			impl.nonFiniteAfter(name)
			return i0
		}
	}
	return m
}
