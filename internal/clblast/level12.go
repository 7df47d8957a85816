//go:build clblast

package clblast

/*
#cgo LDFLAGS: -lclblast -lOpenCL
#define CL_TARGET_OPENCL_VERSION 300
#include <stdint.h>
#include <clblast_c.h>

// Each wrapper takes the precision (dbl: double, else float), scalars as
// double (exact for floats), buffers and the queue as uintptr_t handles.

#define Q cl_command_queue queue = (cl_command_queue)q
#define M(h) ((cl_mem)(h))

static int gocl_axpy(int dbl, size_t n, double alpha, uintptr_t x, size_t ox, size_t ix,
	uintptr_t y, size_t oy, size_t iy, uintptr_t q) {
	Q;
	return dbl ? CLBlastDaxpy(n, alpha, M(x), ox, ix, M(y), oy, iy, &queue, NULL)
	           : CLBlastSaxpy(n, (float)alpha, M(x), ox, ix, M(y), oy, iy, &queue, NULL);
}

static int gocl_scal(int dbl, size_t n, double alpha, uintptr_t x, size_t ox, size_t ix, uintptr_t q) {
	Q;
	return dbl ? CLBlastDscal(n, alpha, M(x), ox, ix, &queue, NULL)
	           : CLBlastSscal(n, (float)alpha, M(x), ox, ix, &queue, NULL);
}

// op: 0 copy, 1 swap, 2 rot (c, s).
static int gocl_two(int dbl, int op, size_t n, uintptr_t x, size_t ox, size_t ix,
	uintptr_t y, size_t oy, size_t iy, double c, double s, uintptr_t q) {
	Q;
	switch (op) {
	case 0:
		return dbl ? CLBlastDcopy(n, M(x), ox, ix, M(y), oy, iy, &queue, NULL)
		           : CLBlastScopy(n, M(x), ox, ix, M(y), oy, iy, &queue, NULL);
	case 1:
		return dbl ? CLBlastDswap(n, M(x), ox, ix, M(y), oy, iy, &queue, NULL)
		           : CLBlastSswap(n, M(x), ox, ix, M(y), oy, iy, &queue, NULL);
	default:
		return dbl ? CLBlastDrot(n, M(x), ox, ix, M(y), oy, iy, c, s, &queue, NULL)
		           : CLBlastSrot(n, M(x), ox, ix, M(y), oy, iy, (float)c, (float)s, &queue, NULL);
	}
}

// op: 0 dot (x·y), 1 nrm2, 2 asum, 3 iamax (into an unsigned int).
static int gocl_reduce(int dbl, int op, size_t n, uintptr_t r, size_t orr,
	uintptr_t x, size_t ox, size_t ix, uintptr_t y, size_t oy, size_t iy, uintptr_t q) {
	Q;
	switch (op) {
	case 0:
		return dbl ? CLBlastDdot(n, M(r), orr, M(x), ox, ix, M(y), oy, iy, &queue, NULL)
		           : CLBlastSdot(n, M(r), orr, M(x), ox, ix, M(y), oy, iy, &queue, NULL);
	case 1:
		return dbl ? CLBlastDnrm2(n, M(r), orr, M(x), ox, ix, &queue, NULL)
		           : CLBlastSnrm2(n, M(r), orr, M(x), ox, ix, &queue, NULL);
	case 2:
		return dbl ? CLBlastDasum(n, M(r), orr, M(x), ox, ix, &queue, NULL)
		           : CLBlastSasum(n, M(r), orr, M(x), ox, ix, &queue, NULL);
	default:
		return dbl ? CLBlastiDamax(n, M(r), orr, M(x), ox, ix, &queue, NULL)
		           : CLBlastiSamax(n, M(r), orr, M(x), ox, ix, &queue, NULL);
	}
}

static CLBlastTriangle tri(int upper) { return upper ? CLBlastTriangleUpper : CLBlastTriangleLower; }
static CLBlastTranspose tr(int t) { return t ? CLBlastTransposeYes : CLBlastTransposeNo; }

// Row-major GEMV: y = alpha·op(A)·x + beta·y.
static int gocl_gemv(int dbl, int trans, size_t m, size_t n, double alpha, uintptr_t a, size_t oa, size_t lda,
	uintptr_t x, size_t ox, size_t ix, double beta, uintptr_t y, size_t oy, size_t iy, uintptr_t q) {
	Q;
	return dbl ? CLBlastDgemv(CLBlastLayoutRowMajor, tr(trans), m, n, alpha, M(a), oa, lda, M(x), ox, ix, beta, M(y), oy, iy, &queue, NULL)
	           : CLBlastSgemv(CLBlastLayoutRowMajor, tr(trans), m, n, (float)alpha, M(a), oa, lda, M(x), ox, ix, (float)beta, M(y), oy, iy, &queue, NULL);
}

// Row-major GER: A += alpha·x·yᵀ.
static int gocl_ger(int dbl, size_t m, size_t n, double alpha, uintptr_t x, size_t ox, size_t ix,
	uintptr_t y, size_t oy, size_t iy, uintptr_t a, size_t oa, size_t lda, uintptr_t q) {
	Q;
	return dbl ? CLBlastDger(CLBlastLayoutRowMajor, m, n, alpha, M(x), ox, ix, M(y), oy, iy, M(a), oa, lda, &queue, NULL)
	           : CLBlastSger(CLBlastLayoutRowMajor, m, n, (float)alpha, M(x), ox, ix, M(y), oy, iy, M(a), oa, lda, &queue, NULL);
}

// Row-major SYR: A += alpha·x·xᵀ on A's upper or lower triangle.
static int gocl_syr(int dbl, int upper, size_t n, double alpha, uintptr_t x, size_t ox, size_t ix,
	uintptr_t a, size_t oa, size_t lda, uintptr_t q) {
	Q;
	return dbl ? CLBlastDsyr(CLBlastLayoutRowMajor, tri(upper), n, alpha, M(x), ox, ix, M(a), oa, lda, &queue, NULL)
	           : CLBlastSsyr(CLBlastLayoutRowMajor, tri(upper), n, (float)alpha, M(x), ox, ix, M(a), oa, lda, &queue, NULL);
}

// Row-major SYR2: A += alpha·(x·yᵀ + y·xᵀ) on A's upper or lower triangle.
static int gocl_syr2(int dbl, int upper, size_t n, double alpha, uintptr_t x, size_t ox, size_t ix,
	uintptr_t y, size_t oy, size_t iy, uintptr_t a, size_t oa, size_t lda, uintptr_t q) {
	Q;
	return dbl ? CLBlastDsyr2(CLBlastLayoutRowMajor, tri(upper), n, alpha, M(x), ox, ix, M(y), oy, iy, M(a), oa, lda, &queue, NULL)
	           : CLBlastSsyr2(CLBlastLayoutRowMajor, tri(upper), n, (float)alpha, M(x), ox, ix, M(y), oy, iy, M(a), oa, lda, &queue, NULL);
}

// Row-major SYMV: y = alpha·A·x + beta·y with A's upper or lower triangle.
static int gocl_symv(int dbl, int upper, size_t n, double alpha, uintptr_t a, size_t oa, size_t lda,
	uintptr_t x, size_t ox, size_t ix, double beta, uintptr_t y, size_t oy, size_t iy, uintptr_t q) {
	Q;
	return dbl ? CLBlastDsymv(CLBlastLayoutRowMajor, tri(upper), n, alpha, M(a), oa, lda, M(x), ox, ix, beta, M(y), oy, iy, &queue, NULL)
	           : CLBlastSsymv(CLBlastLayoutRowMajor, tri(upper), n, (float)alpha, M(a), oa, lda, M(x), ox, ix, (float)beta, M(y), oy, iy, &queue, NULL);
}

// Row-major TRMV: x = op(A)·x.
static int gocl_trmv(int dbl, int upper, int trans, int unit, size_t n, uintptr_t a, size_t oa, size_t lda,
	uintptr_t x, size_t ox, size_t ix, uintptr_t q) {
	Q;
	CLBlastDiagonal d = unit ? CLBlastDiagonalUnit : CLBlastDiagonalNonUnit;
	return dbl ? CLBlastDtrmv(CLBlastLayoutRowMajor, tri(upper), tr(trans), d, n, M(a), oa, lda, M(x), ox, ix, &queue, NULL)
	           : CLBlastStrmv(CLBlastLayoutRowMajor, tri(upper), tr(trans), d, n, M(a), oa, lda, M(x), ox, ix, &queue, NULL);
}
*/
import "C"

import (
	"fmt"

	"github.com/gocompute/opencl/cl"
)

// withHandles calls fn with the raw handles of q and bufs (in order),
// holding each object for the duration.
func withHandles(q *cl.Queue, bufs []*cl.Buffer, fn func(hq C.uintptr_t, hb []C.uintptr_t) C.int) error {
	hs := make([]C.uintptr_t, len(bufs))
	var status C.int
	var rec func(i int) error
	rec = func(i int) error {
		if i == len(bufs) {
			return q.Raw(func(hq uintptr) error {
				status = fn(C.uintptr_t(hq), hs)
				return nil
			})
		}
		return bufs[i].Raw(func(h uintptr) error {
			hs[i] = C.uintptr_t(h)
			return rec(i + 1)
		})
	}
	if err := rec(0); err != nil {
		return err
	}
	return statusErr(status)
}

func statusErr(status C.int) error {
	switch {
	case status == 0:
		return nil
	case status < 0 && status > -1100:
		return fmt.Errorf("clblast: %w", cl.ErrorCode(status))
	}
	return fmt.Errorf("clblast: CLBlast status %d", int(status))
}

func isDouble[T float32 | float64]() C.int {
	var z T
	if _, ok := any(z).(float64); ok {
		return 1
	}
	return 0
}

func sz(v int) C.size_t { return C.size_t(v) }

// Axpy runs y = alpha·x + y (n elements; x, y with offsets and increments
// in elements), enqueued on q without waiting.
func Axpy[T float32 | float64](q *cl.Queue, n int, alpha T, x Vec, y Vec) error {
	return withHandles(q, []*cl.Buffer{x.Buf, y.Buf}, func(hq C.uintptr_t, h []C.uintptr_t) C.int {
		return C.gocl_axpy(isDouble[T](), sz(n), C.double(alpha), h[0], sz(x.Off), sz(x.Inc), h[1], sz(y.Off), sz(y.Inc), hq)
	})
}

// Scal runs x = alpha·x.
func Scal[T float32 | float64](q *cl.Queue, n int, alpha T, x Vec) error {
	return withHandles(q, []*cl.Buffer{x.Buf}, func(hq C.uintptr_t, h []C.uintptr_t) C.int {
		return C.gocl_scal(isDouble[T](), sz(n), C.double(alpha), h[0], sz(x.Off), sz(x.Inc), hq)
	})
}

func two[T float32 | float64](q *cl.Queue, op int, n int, x, y Vec, c, s T) error {
	return withHandles(q, []*cl.Buffer{x.Buf, y.Buf}, func(hq C.uintptr_t, h []C.uintptr_t) C.int {
		return C.gocl_two(isDouble[T](), C.int(op), sz(n), h[0], sz(x.Off), sz(x.Inc), h[1], sz(y.Off), sz(y.Inc), C.double(c), C.double(s), hq)
	})
}

// Copy runs y = x.
func Copy[T float32 | float64](q *cl.Queue, n int, x, y Vec) error {
	return two[T](q, 0, n, x, y, 0, 0)
}

// Swap exchanges x and y.
func Swap[T float32 | float64](q *cl.Queue, n int, x, y Vec) error {
	return two[T](q, 1, n, x, y, 0, 0)
}

// Rot applies the plane rotation (c, s) to x and y.
func Rot[T float32 | float64](q *cl.Queue, n int, x, y Vec, c, s T) error {
	return two(q, 2, n, x, y, c, s)
}

func reduce[T float32 | float64](q *cl.Queue, op int, n int, res *cl.Buffer, offRes int, x, y Vec) error {
	bufs := []*cl.Buffer{res, x.Buf}
	if y.Buf != nil {
		bufs = append(bufs, y.Buf)
	}
	return withHandles(q, bufs, func(hq C.uintptr_t, h []C.uintptr_t) C.int {
		var hy C.uintptr_t
		if len(h) > 2 {
			hy = h[2]
		}
		return C.gocl_reduce(isDouble[T](), C.int(op), sz(n), h[0], sz(offRes), h[1], sz(x.Off), sz(x.Inc), hy, sz(y.Off), sz(y.Inc), hq)
	})
}

// Dot runs res[offRes] = x·y.
func Dot[T float32 | float64](q *cl.Queue, n int, res *cl.Buffer, offRes int, x, y Vec) error {
	return reduce[T](q, 0, n, res, offRes, x, y)
}

// Nrm2 runs res[offRes] = ‖x‖₂.
func Nrm2[T float32 | float64](q *cl.Queue, n int, res *cl.Buffer, offRes int, x Vec) error {
	return reduce[T](q, 1, n, res, offRes, x, Vec{})
}

// Asum runs res[offRes] = Σ|x[i]|.
func Asum[T float32 | float64](q *cl.Queue, n int, res *cl.Buffer, offRes int, x Vec) error {
	return reduce[T](q, 2, n, res, offRes, x, Vec{})
}

// Iamax runs res[offRes] = the index of the largest |x[i]| (res holds
// unsigned ints).
func Iamax[T float32 | float64](q *cl.Queue, n int, res *cl.Buffer, offRes int, x Vec) error {
	return reduce[T](q, 3, n, res, offRes, x, Vec{})
}

// Gemv runs the row-major y = alpha·op(A)·x + beta·y, A m×n.
func Gemv[T float32 | float64](q *cl.Queue, trans bool, m, n int, alpha T, a Mat, x Vec, beta T, y Vec) error {
	return withHandles(q, []*cl.Buffer{a.Buf, x.Buf, y.Buf}, func(hq C.uintptr_t, h []C.uintptr_t) C.int {
		return C.gocl_gemv(isDouble[T](), C.int(bool2int(trans)), sz(m), sz(n), C.double(alpha), h[0], sz(a.Off), sz(a.Ld),
			h[1], sz(x.Off), sz(x.Inc), C.double(beta), h[2], sz(y.Off), sz(y.Inc), hq)
	})
}

// Ger runs the row-major A += alpha·x·yᵀ, A m×n.
func Ger[T float32 | float64](q *cl.Queue, m, n int, alpha T, x, y Vec, a Mat) error {
	return withHandles(q, []*cl.Buffer{x.Buf, y.Buf, a.Buf}, func(hq C.uintptr_t, h []C.uintptr_t) C.int {
		return C.gocl_ger(isDouble[T](), sz(m), sz(n), C.double(alpha), h[0], sz(x.Off), sz(x.Inc),
			h[1], sz(y.Off), sz(y.Inc), h[2], sz(a.Off), sz(a.Ld), hq)
	})
}

// Syr runs the row-major A += alpha·x·xᵀ, A n×n symmetric, on its upper
// or lower triangle.
func Syr[T float32 | float64](q *cl.Queue, upper bool, n int, alpha T, x Vec, a Mat) error {
	return withHandles(q, []*cl.Buffer{x.Buf, a.Buf}, func(hq C.uintptr_t, h []C.uintptr_t) C.int {
		return C.gocl_syr(isDouble[T](), C.int(bool2int(upper)), sz(n), C.double(alpha), h[0], sz(x.Off), sz(x.Inc),
			h[1], sz(a.Off), sz(a.Ld), hq)
	})
}

// Syr2 runs the row-major A += alpha·(x·yᵀ + y·xᵀ), A n×n symmetric, on
// its upper or lower triangle.
func Syr2[T float32 | float64](q *cl.Queue, upper bool, n int, alpha T, x, y Vec, a Mat) error {
	return withHandles(q, []*cl.Buffer{x.Buf, y.Buf, a.Buf}, func(hq C.uintptr_t, h []C.uintptr_t) C.int {
		return C.gocl_syr2(isDouble[T](), C.int(bool2int(upper)), sz(n), C.double(alpha), h[0], sz(x.Off), sz(x.Inc),
			h[1], sz(y.Off), sz(y.Inc), h[2], sz(a.Off), sz(a.Ld), hq)
	})
}

// Symv runs the row-major y = alpha·A·x + beta·y, A n×n symmetric, stored
// in its upper or lower triangle.
func Symv[T float32 | float64](q *cl.Queue, upper bool, n int, alpha T, a Mat, x Vec, beta T, y Vec) error {
	return withHandles(q, []*cl.Buffer{a.Buf, x.Buf, y.Buf}, func(hq C.uintptr_t, h []C.uintptr_t) C.int {
		return C.gocl_symv(isDouble[T](), C.int(bool2int(upper)), sz(n), C.double(alpha), h[0], sz(a.Off), sz(a.Ld),
			h[1], sz(x.Off), sz(x.Inc), C.double(beta), h[2], sz(y.Off), sz(y.Inc), hq)
	})
}

// Trmv runs the row-major x = op(A)·x, A n×n triangular.
func Trmv[T float32 | float64](q *cl.Queue, upper, trans, unit bool, n int, a Mat, x Vec) error {
	return withHandles(q, []*cl.Buffer{a.Buf, x.Buf}, func(hq C.uintptr_t, h []C.uintptr_t) C.int {
		return C.gocl_trmv(isDouble[T](), C.int(bool2int(upper)), C.int(bool2int(trans)), C.int(bool2int(unit)), sz(n),
			h[0], sz(a.Off), sz(a.Ld), h[1], sz(x.Off), sz(x.Inc), hq)
	})
}
