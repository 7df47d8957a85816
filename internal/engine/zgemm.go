package engine

import (
	"unsafe"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
)

// Complex GEMM on the device as one real GEMM (kernels/zlevel3.cl has the
// arithmetic): C viewed as an m×2n real matrix, op(A) as an m×2k one, and
// B' = the 2k×2n real expansion of alpha·op(B). The real GEMM is the engine's
// own (gemmOnDevice), so complex GEMM runs on whatever kernel the tuning
// database picks for the real shape m×2n×2k: on the H200 the FP64 tensor-core
// kernel for complex128 and 3xTF32 for complex64. The method is the 4M one
// (four real products per complex product, exact rounding of each) unless
// Engine.zMethod picks the 3M one (zgemm3m.go), whose imaginary part's error
// grows with the magnitudes of the operands' sums.

// Complex is a complex element type.
type Complex interface{ complex64 | complex128 }

// zFile is the program of the complex level 3 kernels.
const zFile = "zlevel3.cl"

// PartsOf views x as its interleaved real and imaginary parts: R is T's
// part type (float32 for complex64, float64 for complex128).
func PartsOf[T Complex, R Real](x []T) []R {
	var t T
	var r R
	if unsafe.Sizeof(t) != 2*unsafe.Sizeof(r) {
		panic("clblas: PartsOf: part type does not match the complex type")
	}
	if len(x) == 0 {
		return nil
	}
	return unsafe.Slice((*R)(unsafe.Pointer(unsafe.SliceData(x))), 2*len(x))
}

// zTrans is the kernels' transpose selector.
func zTrans(t blas.Transpose) int32 {
	switch t {
	case blas.Trans:
		return 1
	case blas.ConjTrans:
		return 2
	}
	return 0
}

// ZscaleOnDevice enqueues C = beta·C on the m×n complex matrix at offC
// (complex elements) of cb, or on a triangle of it (tri); beta == 0 assigns
// zeros. With herm, beta must be real and the diagonal's imaginary parts
// become zero.
func ZscaleOnDevice[R Real](c *Call, m, n int, beta complex128, cb *cl.Buffer, offC, ldc, tri int, herm bool) {
	k := c.Kernel(zFile, "zscale")
	global, local := l3Work(m, n)
	c.Run(k, global, local, l3Int(c, m), l3Int(c, n), R(real(beta)), R(imag(beta)),
		cb, int64(offC), l3Int(c, ldc), int32(tri), int32(l3Bool(herm)))
}

// ZgemmOnDevice enqueues C = alpha·op(A)·op(B) + beta·C on device buffers
// holding complex matrices (R is the part type): op(A) m×k, op(B) k×n, C
// m×n (m, n ≥ 1, k ≥ 0), at complex element offsets offA, offB, offC with
// leading dimensions lda, ldb, ldc. beta == 0 assigns (NaN in C does not
// survive); with alpha == 0 or k == 0, A and B are not read (and may be
// nil). Products are formed as IEEE arithmetic forms them (see the
// resident API's note on NaN and Inf).
func ZgemmOnDevice[R Real](c *Call, tA, tB blas.Transpose, m, n, k int, alpha, beta complex128, a *cl.Buffer, offA, lda int, b *cl.Buffer, offB, ldb int, cb *cl.Buffer, offC, ldc int) {
	if c.Err != nil {
		return
	}
	if alpha == 0 || k == 0 {
		if beta != 1 {
			ZscaleOnDevice[R](c, m, n, beta, cb, offC, ldc, triFull, false)
		}
		return
	}
	if c.E.zMethod(c.prec, m, n, k) == Z3M {
		zgemm3M[R](c, tA, tB, m, n, k, alpha, beta, a, offA, lda, b, offB, ldb, cb, offC, ldc)
		return
	}
	if zgemmFused[R](c, tA, tB, m, n, k, alpha, beta, a, offA, lda, b, offB, ldb, cb, offC, ldc) {
		return
	}
	// B' = the real expansion of alpha·op(B), 2k×2n.
	bp := Alloc[R](c, 4*k*n)
	kb := c.Kernel(zFile, "zpack_b")
	global, local := l3Work(k, (n+1)/2)
	c.Run(kb, global, local, l3Int(c, k), l3Int(c, n), zTrans(tB), R(real(alpha)), R(imag(alpha)),
		b, int64(offB), l3Int(c, ldb), bp, l3Int(c, 2*n))
	// op(A) as an m×2k real matrix: A itself when it is not transposed.
	x, offX, ldX := a, 2*offA, 2*lda
	if tA != blas.NoTrans {
		x, offX, ldX = Alloc[R](c, 2*m*k), 0, 2*k
		ka := c.Kernel(zFile, "zpack_a")
		global, local := l3Work(m, k)
		c.Run(ka, global, local, l3Int(c, m), l3Int(c, k), zTrans(tA), a, int64(offA), l3Int(c, lda), x)
	}
	// A real beta scales both parts in the real GEMM; a complex one is
	// applied first.
	br := R(real(beta))
	if imag(beta) != 0 {
		ZscaleOnDevice[R](c, m, n, beta, cb, offC, ldc, triFull, false)
		br = 1
	}
	GemmOnDevice(c, false, false, m, 2*n, 2*k, R(1), x, offX, ldX, bp, 0, 2*n, br, cb, 2*offC, 2*ldc)
}

// ZgemmSlices is Zgemm and Cgemm on host slices (one slab of rows of C;
// see zgemmDevice), through pinned staging and pipelined where the real
// GEMM is (zgemm_staged.go). It returns nonFinite when the device's C
// holds a NaN or an infinity: gonum then computes the call, since IEEE
// products on the device and gonum's loops (which apply alpha at different
// places) need not agree on which non-finite value results. C is then as
// it was given, except on the staged path with beta == 0, where the CPU
// finish does not read it.
func ZgemmSlices[T Complex, R Real](e *Engine, name string, tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, cc []T, ldc int) (nonFinite bool, err error) {
	if e.Plan().Staged() { // pinned staging, pipelined (zgemm_staged.go)
		return zgemmStaged[T, R](e, name, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, cc, ldc)
	}
	c := Begin[T](e, name)
	dc := newL3Dest(c, PartsOf[T, R](cc), m, 2*n, 2*ldc, beta != 0)
	var ab, bb *cl.Buffer
	if k > 0 && alpha != 0 {
		ar, ac := Stored(tA, m, k)
		br, bc := Stored(tB, k, n)
		ab = l3In(c, PartsOf[T, R](a[:MatSpan(ar, ac, lda)]))
		bb = l3In(c, PartsOf[T, R](b[:MatSpan(br, bc, ldb)]))
	}
	ZgemmOnDevice[R](c, tA, tB, m, n, k, complex128(alpha), complex128(beta), ab, 0, lda, bb, 0, ldb, dc.buf, 0, ldc)
	return zFinish(c, dc)
}

// zFinish ends a complex call on host slices whose output is dc, like
// l3Dest.finish, but leaves the host matrix as it was and reports
// nonFinite when the device's result holds a NaN or an infinity.
func zFinish[R Real](c *Call, d *l3Dest[R]) (nonFinite bool, err error) {
	if d.over {
		syncHost[R](c, d.buf, d.span)
		err := c.Finish()
		bad := err == nil && !BlockFinite(d.host, d.rows, d.cols, d.ld)
		if d.keep != nil {
			if err != nil || bad {
				CopyBlock(d.host, d.ld, d.keep, d.cols, d.rows, d.cols)
			}
			putKeep(d.keep)
		}
		return bad, err
	}
	out := Download[R](c, d.buf, d.span)
	if err := c.Finish(); err != nil {
		return false, err
	}
	if !BlockFinite(out, d.rows, d.cols, d.ld) {
		return true, nil
	}
	ScatterMat(d.host, out, d.rows, d.cols, d.ld)
	return false, nil
}
