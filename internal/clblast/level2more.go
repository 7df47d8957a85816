//go:build clblast

package clblast

/*
#cgo LDFLAGS: -lclblast -lOpenCL
#define CL_TARGET_OPENCL_VERSION 300
#include <stdint.h>
#include <clblast_c.h>

#define Q cl_command_queue queue = (cl_command_queue)q
#define M(h) ((cl_mem)(h))

static CLBlastTriangle tri2(int upper) { return upper ? CLBlastTriangleUpper : CLBlastTriangleLower; }
static CLBlastTranspose tr2(int t) { return t ? CLBlastTransposeYes : CLBlastTransposeNo; }

// Row-major TRSV: x = op(A)⁻¹·x.
static int gocl_trsv(int dbl, int upper, int trans, int unit, size_t n, uintptr_t a, size_t oa, size_t lda,
	uintptr_t x, size_t ox, size_t ix, uintptr_t q) {
	Q;
	CLBlastDiagonal d = unit ? CLBlastDiagonalUnit : CLBlastDiagonalNonUnit;
	return dbl ? CLBlastDtrsv(CLBlastLayoutRowMajor, tri2(upper), tr2(trans), d, n, M(a), oa, lda, M(x), ox, ix, &queue, NULL)
	           : CLBlastStrsv(CLBlastLayoutRowMajor, tri2(upper), tr2(trans), d, n, M(a), oa, lda, M(x), ox, ix, &queue, NULL);
}

// Row-major GBMV: y = alpha·op(A)·x + beta·y, A m×n with kl and ku
// off-diagonals in row-major band storage.
static int gocl_gbmv(int dbl, int trans, size_t m, size_t n, size_t kl, size_t ku, double alpha,
	uintptr_t a, size_t oa, size_t lda, uintptr_t x, size_t ox, size_t ix,
	double beta, uintptr_t y, size_t oy, size_t iy, uintptr_t q) {
	Q;
	return dbl ? CLBlastDgbmv(CLBlastLayoutRowMajor, tr2(trans), m, n, kl, ku, alpha, M(a), oa, lda, M(x), ox, ix, beta, M(y), oy, iy, &queue, NULL)
	           : CLBlastSgbmv(CLBlastLayoutRowMajor, tr2(trans), m, n, kl, ku, (float)alpha, M(a), oa, lda, M(x), ox, ix, (float)beta, M(y), oy, iy, &queue, NULL);
}

// Row-major SBMV: y = alpha·A·x + beta·y, A n×n symmetric with k
// off-diagonals, its upper or lower triangle in row-major band storage.
static int gocl_sbmv(int dbl, int upper, size_t n, size_t k, double alpha,
	uintptr_t a, size_t oa, size_t lda, uintptr_t x, size_t ox, size_t ix,
	double beta, uintptr_t y, size_t oy, size_t iy, uintptr_t q) {
	Q;
	return dbl ? CLBlastDsbmv(CLBlastLayoutRowMajor, tri2(upper), n, k, alpha, M(a), oa, lda, M(x), ox, ix, beta, M(y), oy, iy, &queue, NULL)
	           : CLBlastSsbmv(CLBlastLayoutRowMajor, tri2(upper), n, k, (float)alpha, M(a), oa, lda, M(x), ox, ix, (float)beta, M(y), oy, iy, &queue, NULL);
}
*/
import "C"

import "github.com/gocompute/opencl/cl"

// Trsv runs the row-major solve x = op(A)⁻¹·x, A n×n triangular.
func Trsv[T float32 | float64](q *cl.Queue, upper, trans, unit bool, n int, a Mat, x Vec) error {
	return withHandles(q, []*cl.Buffer{a.Buf, x.Buf}, func(hq C.uintptr_t, h []C.uintptr_t) C.int {
		return C.gocl_trsv(isDouble[T](), C.int(bool2int(upper)), C.int(bool2int(trans)), C.int(bool2int(unit)), sz(n),
			h[0], sz(a.Off), sz(a.Ld), h[1], sz(x.Off), sz(x.Inc), hq)
	})
}

// Gbmv runs the row-major y = alpha·op(A)·x + beta·y, A m×n band with kl
// sub- and ku super-diagonals.
func Gbmv[T float32 | float64](q *cl.Queue, trans bool, m, n, kl, ku int, alpha T, a Mat, x Vec, beta T, y Vec) error {
	return withHandles(q, []*cl.Buffer{a.Buf, x.Buf, y.Buf}, func(hq C.uintptr_t, h []C.uintptr_t) C.int {
		return C.gocl_gbmv(isDouble[T](), C.int(bool2int(trans)), sz(m), sz(n), sz(kl), sz(ku), C.double(alpha),
			h[0], sz(a.Off), sz(a.Ld), h[1], sz(x.Off), sz(x.Inc), C.double(beta), h[2], sz(y.Off), sz(y.Inc), hq)
	})
}

// Sbmv runs the row-major y = alpha·A·x + beta·y, A n×n symmetric band
// with k off-diagonals stored in its upper or lower triangle.
func Sbmv[T float32 | float64](q *cl.Queue, upper bool, n, k int, alpha T, a Mat, x Vec, beta T, y Vec) error {
	return withHandles(q, []*cl.Buffer{a.Buf, x.Buf, y.Buf}, func(hq C.uintptr_t, h []C.uintptr_t) C.int {
		return C.gocl_sbmv(isDouble[T](), C.int(bool2int(upper)), sz(n), sz(k), C.double(alpha),
			h[0], sz(a.Off), sz(a.Ld), h[1], sz(x.Off), sz(x.Inc), C.double(beta), h[2], sz(y.Off), sz(y.Inc), hq)
	})
}
