package clblas

import (
	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
	eng "github.com/gocompute/opencl/internal/engine"
)

// Element is the element type of the device-resident Matrix and Vector:
// real or complex, in single or double precision. A complex element is
// stored as its real part followed by its imaginary part (OpenCL's float2
// and double2). Operations that only make sense for real numbers take
// float32 | float64 instead.
type Element interface {
	float32 | float64 | complex64 | complex128
}

// copyElems enqueues the copy of n elements of T from x (element i at
// offX + i·incX) to y. A complex element is two reals, so its copy is two
// strided real copies, of the real parts and of the imaginary parts, with
// level1.cl's kernel (which runs in c's precision, the parts').
func copyElems[T eng.Elem](c *eng.Call, n int, x *cl.Buffer, offX, incX int, y *cl.Buffer, offY, incY int) {
	if !eng.IsComplex[T]() {
		eng.CopyOnDevice[float32](c, n, x, offX, incX, y, offY, incY)
		return
	}
	for part := range 2 {
		eng.CopyOnDevice[float32](c, n, x, 2*offX+part, 2*incX, y, 2*offY+part, 2*incY)
	}
}

// gemmElem enqueues C = alpha·op(A)·op(B) + beta·C on resident matrices
// of any Element: the real GEMM, or the complex one built on it.
func gemmElem[T Element](c *eng.Call, tA, tB blas.Transpose, m, n, k int, alpha T, a, b *Matrix[T], beta T, cm *Matrix[T]) {
	ta, tb := tA != blas.NoTrans, tB != blas.NoTrans
	switch al := any(alpha).(type) {
	case float32:
		eng.GemmOnDevice(c, ta, tb, m, n, k, al, a.st.buf, a.off, a.stride, b.st.buf, b.off, b.stride, any(beta).(float32), cm.st.buf, cm.off, cm.stride)
	case float64:
		eng.GemmOnDevice(c, ta, tb, m, n, k, al, a.st.buf, a.off, a.stride, b.st.buf, b.off, b.stride, any(beta).(float64), cm.st.buf, cm.off, cm.stride)
	case complex64:
		eng.ZgemmOnDevice[float32](c, tA, tB, m, n, k, complex128(al), complex128(any(beta).(complex64)), a.st.buf, a.off, a.stride, b.st.buf, b.off, b.stride, cm.st.buf, cm.off, cm.stride)
	case complex128:
		eng.ZgemmOnDevice[float64](c, tA, tB, m, n, k, al, any(beta).(complex128), a.st.buf, a.off, a.stride, b.st.buf, b.off, b.stride, cm.st.buf, cm.off, cm.stride)
	}
}
