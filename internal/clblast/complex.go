//go:build clblast

package clblast

/*
#cgo LDFLAGS: -lclblast -lOpenCL
#define CL_TARGET_OPENCL_VERSION 300
#include <stdint.h>
#include <clblast_c.h>

static CLBlastTranspose gocl_ztrans(int t) {
	return t == 2 ? CLBlastTransposeConjugate : (t == 1 ? CLBlastTransposeYes : CLBlastTransposeNo);
}

static int gocl_cgemm(int ta, int tb, size_t m, size_t n, size_t k, float are, float aim,
	uintptr_t a, size_t oa, size_t lda, uintptr_t b, size_t ob, size_t ldb,
	float bre, float bim, uintptr_t c, size_t oc, size_t ldc, uintptr_t q) {
	cl_command_queue queue = (cl_command_queue)q;
	cl_float2 alpha, beta;
	alpha.s[0] = are; alpha.s[1] = aim;
	beta.s[0] = bre; beta.s[1] = bim;
	return CLBlastCgemm(CLBlastLayoutRowMajor, gocl_ztrans(ta), gocl_ztrans(tb), m, n, k, alpha,
		(cl_mem)a, oa, lda, (cl_mem)b, ob, ldb, beta, (cl_mem)c, oc, ldc, &queue, NULL);
}

static int gocl_zgemm(int ta, int tb, size_t m, size_t n, size_t k, double are, double aim,
	uintptr_t a, size_t oa, size_t lda, uintptr_t b, size_t ob, size_t ldb,
	double bre, double bim, uintptr_t c, size_t oc, size_t ldc, uintptr_t q) {
	cl_command_queue queue = (cl_command_queue)q;
	cl_double2 alpha, beta;
	alpha.s[0] = are; alpha.s[1] = aim;
	beta.s[0] = bre; beta.s[1] = bim;
	return CLBlastZgemm(CLBlastLayoutRowMajor, gocl_ztrans(ta), gocl_ztrans(tb), m, n, k, alpha,
		(cl_mem)a, oa, lda, (cl_mem)b, ob, ldb, beta, (cl_mem)c, oc, ldc, &queue, NULL);
}
*/
import "C"

import (
	"fmt"

	"github.com/gocompute/opencl/cl"
)

// ComplexGemm runs CLBlast's row-major Cgemm or Zgemm, C = alpha·op(A)·op(B)
// + beta·C, on device buffers holding complex matrices (offsets and leading
// dimensions in complex elements), enqueued on q; tA and tB are 0 (no
// transpose), 1 (transpose) or 2 (conjugate transpose). It does not wait
// for completion.
func ComplexGemm[T complex64 | complex128](q *cl.Queue, tA, tB int, m, n, k int, alpha T, a *cl.Buffer, offA, lda int,
	b *cl.Buffer, offB, ldb int, beta T, c *cl.Buffer, offC, ldc int) error {
	var status C.int
	al, be := complex128(alpha), complex128(beta)
	err := q.Raw(func(hq uintptr) error {
		return a.Raw(func(ha uintptr) error {
			return b.Raw(func(hb uintptr) error {
				return c.Raw(func(hc uintptr) error {
					ta, tb := C.int(tA), C.int(tB)
					switch any(alpha).(type) {
					case complex64:
						status = C.gocl_cgemm(ta, tb, C.size_t(m), C.size_t(n), C.size_t(k), C.float(real(al)), C.float(imag(al)),
							C.uintptr_t(ha), C.size_t(offA), C.size_t(lda), C.uintptr_t(hb), C.size_t(offB), C.size_t(ldb),
							C.float(real(be)), C.float(imag(be)), C.uintptr_t(hc), C.size_t(offC), C.size_t(ldc), C.uintptr_t(hq))
					case complex128:
						status = C.gocl_zgemm(ta, tb, C.size_t(m), C.size_t(n), C.size_t(k), C.double(real(al)), C.double(imag(al)),
							C.uintptr_t(ha), C.size_t(offA), C.size_t(lda), C.uintptr_t(hb), C.size_t(offB), C.size_t(ldb),
							C.double(real(be)), C.double(imag(be)), C.uintptr_t(hc), C.size_t(offC), C.size_t(ldc), C.uintptr_t(hq))
					}
					return nil
				})
			})
		})
	})
	if err != nil {
		return err
	}
	if status != 0 {
		if status < 0 && status > -1100 {
			return fmt.Errorf("clblast: complex gemm: %w", cl.ErrorCode(status))
		}
		return fmt.Errorf("clblast: complex gemm: CLBlast status %d", int(status))
	}
	return nil
}
