//go:build clblast

// Package clblast calls CLBlast (libclblast, Debian's libclblast-dev) on
// our cl objects, so that benchmarks can run it beside our kernels on the
// same device, in the same process. It is built only with -tags clblast.
package clblast

/*
#cgo LDFLAGS: -lclblast -lOpenCL
#define CL_TARGET_OPENCL_VERSION 300
#include <stdint.h>
#include <clblast_c.h>

static int gocl_sgemm(int ta, int tb, size_t m, size_t n, size_t k, float alpha,
	uintptr_t a, size_t oa, size_t lda, uintptr_t b, size_t ob, size_t ldb,
	float beta, uintptr_t c, size_t oc, size_t ldc, uintptr_t q) {
	cl_command_queue queue = (cl_command_queue)q;
	return CLBlastSgemm(CLBlastLayoutRowMajor, ta ? CLBlastTransposeYes : CLBlastTransposeNo,
		tb ? CLBlastTransposeYes : CLBlastTransposeNo, m, n, k, alpha,
		(cl_mem)a, oa, lda, (cl_mem)b, ob, ldb, beta, (cl_mem)c, oc, ldc, &queue, NULL);
}

static int gocl_dgemm(int ta, int tb, size_t m, size_t n, size_t k, double alpha,
	uintptr_t a, size_t oa, size_t lda, uintptr_t b, size_t ob, size_t ldb,
	double beta, uintptr_t c, size_t oc, size_t ldc, uintptr_t q) {
	cl_command_queue queue = (cl_command_queue)q;
	return CLBlastDgemm(CLBlastLayoutRowMajor, ta ? CLBlastTransposeYes : CLBlastTransposeNo,
		tb ? CLBlastTransposeYes : CLBlastTransposeNo, m, n, k, alpha,
		(cl_mem)a, oa, lda, (cl_mem)b, ob, ldb, beta, (cl_mem)c, oc, ldc, &queue, NULL);
}
*/
import "C"

import (
	"fmt"

	"github.com/gocompute/opencl/cl"
)

// Available reports whether CLBlast was linked in.
const Available = true

// Gemm runs CLBlast's row-major GEMM, C = alpha·op(A)·op(B) + beta·C, on
// device buffers (offsets and leading dimensions in elements), enqueued on
// q. It does not wait for completion.
func Gemm[T float32 | float64](q *cl.Queue, tA, tB bool, m, n, k int, alpha T, a *cl.Buffer, offA, lda int,
	b *cl.Buffer, offB, ldb int, beta T, c *cl.Buffer, offC, ldc int) error {
	var status C.int
	err := q.Raw(func(hq uintptr) error {
		return a.Raw(func(ha uintptr) error {
			return b.Raw(func(hb uintptr) error {
				return c.Raw(func(hc uintptr) error {
					ta, tb := C.int(bool2int(tA)), C.int(bool2int(tB))
					switch any(alpha).(type) {
					case float32:
						status = C.gocl_sgemm(ta, tb, C.size_t(m), C.size_t(n), C.size_t(k), C.float(alpha),
							C.uintptr_t(ha), C.size_t(offA), C.size_t(lda), C.uintptr_t(hb), C.size_t(offB), C.size_t(ldb),
							C.float(beta), C.uintptr_t(hc), C.size_t(offC), C.size_t(ldc), C.uintptr_t(hq))
					case float64:
						status = C.gocl_dgemm(ta, tb, C.size_t(m), C.size_t(n), C.size_t(k), C.double(alpha),
							C.uintptr_t(ha), C.size_t(offA), C.size_t(lda), C.uintptr_t(hb), C.size_t(offB), C.size_t(ldb),
							C.double(beta), C.uintptr_t(hc), C.size_t(offC), C.size_t(ldc), C.uintptr_t(hq))
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
			return fmt.Errorf("clblast: gemm: %w", cl.ErrorCode(status))
		}
		return fmt.Errorf("clblast: gemm: CLBlast status %d", int(status))
	}
	return nil
}

func bool2int(b bool) int {
	if b {
		return 1
	}
	return 0
}
