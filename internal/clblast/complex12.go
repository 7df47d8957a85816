//go:build clblast

package clblast

/*
#cgo LDFLAGS: -lclblast -lOpenCL
#define CL_TARGET_OPENCL_VERSION 300
#include <stdint.h>
#include <clblast_c.h>

// Each wrapper takes the precision (z: complex double, else complex
// float), complex scalars as their two parts in doubles (exact for
// floats), buffers and the queue as uintptr_t handles.

#define Q cl_command_queue queue = (cl_command_queue)q
#define M(h) ((cl_mem)(h))

static cl_float2 cxF2(double re, double im) { cl_float2 v; v.s[0] = (float)re; v.s[1] = (float)im; return v; }
static cl_double2 cxD2(double re, double im) { cl_double2 v; v.s[0] = re; v.s[1] = im; return v; }
static CLBlastTriangle cxTri(int upper) { return upper ? CLBlastTriangleUpper : CLBlastTriangleLower; }
static CLBlastTranspose cxTr(int t) {
	return t == 2 ? CLBlastTransposeConjugate : (t == 1 ? CLBlastTransposeYes : CLBlastTransposeNo);
}

static int gocl_cxaxpy(int z, size_t n, double are, double aim, uintptr_t x, size_t ox, size_t ix,
	uintptr_t y, size_t oy, size_t iy, uintptr_t q) {
	Q;
	return z ? CLBlastZaxpy(n, cxD2(are, aim), M(x), ox, ix, M(y), oy, iy, &queue, NULL)
	         : CLBlastCaxpy(n, cxF2(are, aim), M(x), ox, ix, M(y), oy, iy, &queue, NULL);
}

static int gocl_cxscal(int z, size_t n, double are, double aim, uintptr_t x, size_t ox, size_t ix, uintptr_t q) {
	Q;
	return z ? CLBlastZscal(n, cxD2(are, aim), M(x), ox, ix, &queue, NULL)
	         : CLBlastCscal(n, cxF2(are, aim), M(x), ox, ix, &queue, NULL);
}

// op: 0 copy, 1 swap.
static int gocl_cxtwo(int z, int op, size_t n, uintptr_t x, size_t ox, size_t ix,
	uintptr_t y, size_t oy, size_t iy, uintptr_t q) {
	Q;
	if (op == 0) {
		return z ? CLBlastZcopy(n, M(x), ox, ix, M(y), oy, iy, &queue, NULL)
		         : CLBlastCcopy(n, M(x), ox, ix, M(y), oy, iy, &queue, NULL);
	}
	return z ? CLBlastZswap(n, M(x), ox, ix, M(y), oy, iy, &queue, NULL)
	         : CLBlastCswap(n, M(x), ox, ix, M(y), oy, iy, &queue, NULL);
}

// op: 0 dotu (xᵀ·y), 1 dotc (xᴴ·y), 2 nrm2, 3 asum (real results in the
// real part of a complex element), 4 iamax (into an unsigned int).
static int gocl_cxreduce(int z, int op, size_t n, uintptr_t r, size_t orr,
	uintptr_t x, size_t ox, size_t ix, uintptr_t y, size_t oy, size_t iy, uintptr_t q) {
	Q;
	switch (op) {
	case 0:
		return z ? CLBlastZdotu(n, M(r), orr, M(x), ox, ix, M(y), oy, iy, &queue, NULL)
		         : CLBlastCdotu(n, M(r), orr, M(x), ox, ix, M(y), oy, iy, &queue, NULL);
	case 1:
		return z ? CLBlastZdotc(n, M(r), orr, M(x), ox, ix, M(y), oy, iy, &queue, NULL)
		         : CLBlastCdotc(n, M(r), orr, M(x), ox, ix, M(y), oy, iy, &queue, NULL);
	case 2:
		return z ? CLBlastDznrm2(n, M(r), orr, M(x), ox, ix, &queue, NULL)
		         : CLBlastScnrm2(n, M(r), orr, M(x), ox, ix, &queue, NULL);
	case 3:
		return z ? CLBlastDzasum(n, M(r), orr, M(x), ox, ix, &queue, NULL)
		         : CLBlastScasum(n, M(r), orr, M(x), ox, ix, &queue, NULL);
	default:
		return z ? CLBlastiZamax(n, M(r), orr, M(x), ox, ix, &queue, NULL)
		         : CLBlastiCamax(n, M(r), orr, M(x), ox, ix, &queue, NULL);
	}
}

// Row-major GEMV (herm 0) or HEMV (herm 1, on A's upper or lower
// triangle): y = alpha·op(A)·x + beta·y.
static int gocl_cxmv(int z, int herm, int trans, int upper, size_t m, size_t n, double are, double aim,
	uintptr_t a, size_t oa, size_t lda, uintptr_t x, size_t ox, size_t ix,
	double bre, double bim, uintptr_t y, size_t oy, size_t iy, uintptr_t q) {
	Q;
	const CLBlastLayout L = CLBlastLayoutRowMajor;
	if (herm) {
		return z ? CLBlastZhemv(L, cxTri(upper), n, cxD2(are, aim), M(a), oa, lda, M(x), ox, ix, cxD2(bre, bim), M(y), oy, iy, &queue, NULL)
		         : CLBlastChemv(L, cxTri(upper), n, cxF2(are, aim), M(a), oa, lda, M(x), ox, ix, cxF2(bre, bim), M(y), oy, iy, &queue, NULL);
	}
	return z ? CLBlastZgemv(L, cxTr(trans), m, n, cxD2(are, aim), M(a), oa, lda, M(x), ox, ix, cxD2(bre, bim), M(y), oy, iy, &queue, NULL)
	         : CLBlastCgemv(L, cxTr(trans), m, n, cxF2(are, aim), M(a), oa, lda, M(x), ox, ix, cxF2(bre, bim), M(y), oy, iy, &queue, NULL);
}

// Row-major rank updates. op: 0 geru (A += alpha·x·yᵀ), 1 gerc (A +=
// alpha·x·yᴴ), 2 her (A += alpha·x·xᴴ, alpha real: are), 3 her2 (A +=
// alpha·x·yᴴ + conj(alpha)·y·xᴴ); her and her2 on A's upper or lower
// triangle.
static int gocl_cxrank(int z, int op, int upper, size_t m, size_t n, double are, double aim,
	uintptr_t x, size_t ox, size_t ix, uintptr_t y, size_t oy, size_t iy,
	uintptr_t a, size_t oa, size_t lda, uintptr_t q) {
	Q;
	const CLBlastLayout L = CLBlastLayoutRowMajor;
	switch (op) {
	case 0:
		return z ? CLBlastZgeru(L, m, n, cxD2(are, aim), M(x), ox, ix, M(y), oy, iy, M(a), oa, lda, &queue, NULL)
		         : CLBlastCgeru(L, m, n, cxF2(are, aim), M(x), ox, ix, M(y), oy, iy, M(a), oa, lda, &queue, NULL);
	case 1:
		return z ? CLBlastZgerc(L, m, n, cxD2(are, aim), M(x), ox, ix, M(y), oy, iy, M(a), oa, lda, &queue, NULL)
		         : CLBlastCgerc(L, m, n, cxF2(are, aim), M(x), ox, ix, M(y), oy, iy, M(a), oa, lda, &queue, NULL);
	case 2:
		return z ? CLBlastZher(L, cxTri(upper), n, are, M(x), ox, ix, M(a), oa, lda, &queue, NULL)
		         : CLBlastCher(L, cxTri(upper), n, (float)are, M(x), ox, ix, M(a), oa, lda, &queue, NULL);
	default:
		return z ? CLBlastZher2(L, cxTri(upper), n, cxD2(are, aim), M(x), ox, ix, M(y), oy, iy, M(a), oa, lda, &queue, NULL)
		         : CLBlastCher2(L, cxTri(upper), n, cxF2(are, aim), M(x), ox, ix, M(y), oy, iy, M(a), oa, lda, &queue, NULL);
	}
}

// Row-major TRMV: x = op(A)·x.
static int gocl_cxtrmv(int z, int upper, int trans, int unit, size_t n, uintptr_t a, size_t oa, size_t lda,
	uintptr_t x, size_t ox, size_t ix, uintptr_t q) {
	Q;
	CLBlastDiagonal d = unit ? CLBlastDiagonalUnit : CLBlastDiagonalNonUnit;
	return z ? CLBlastZtrmv(CLBlastLayoutRowMajor, cxTri(upper), cxTr(trans), d, n, M(a), oa, lda, M(x), ox, ix, &queue, NULL)
	         : CLBlastCtrmv(CLBlastLayoutRowMajor, cxTri(upper), cxTr(trans), d, n, M(a), oa, lda, M(x), ox, ix, &queue, NULL);
}
*/
import "C"

import (
	"fmt"

	"github.com/gocompute/opencl/cl"
)

// The complex level 1 and 2 routines, CLBlast's C… (complex64) and Z…
// (complex128) by T, on Vec and Mat views whose offsets, increments and
// leading dimensions count complex elements. Like the real ones they are
// enqueued on q without waiting; an error names CLBlast's routine and its
// status. Transposes are 0 (none), 1 (transpose) or 2 (conjugate
// transpose), as ComplexGemm's.

// cxPrec returns 1 for complex128 (CLBlast's Z routines), 0 for complex64
// (its C routines), and the BLAS letter.
func cxPrec[T complex64 | complex128]() (C.int, string) {
	var z T
	if _, ok := any(z).(complex128); ok {
		return 1, "Z"
	}
	return 0, "C"
}

// parts splits a complex scalar for the C wrappers.
func parts[T complex64 | complex128](v T) (C.double, C.double) {
	c := complex128(v)
	return C.double(real(c)), C.double(imag(c))
}

// cxCall runs fn, which calls CLBlast's routine name (without its
// precision letter, as in "axpy") on the handles of q and bufs (0 for a
// nil buffer, an absent y), and turns its status into an error naming the
// routine.
func cxCall[T complex64 | complex128](name string, q *cl.Queue, bufs []*cl.Buffer, fn func(z C.int, hq C.uintptr_t, h []C.uintptr_t) C.int) error {
	z, letter := cxPrec[T]()
	switch name {
	case "nrm2", "asum": // Scnrm2, Dznrm2, Scasum, Dzasum
		letter = "Sc"
		if z == 1 {
			letter = "Dz"
		}
	case "amax": // iCamax, iZamax
		letter = "i" + letter
	}
	name = "CLBlast" + letter + name
	var present []*cl.Buffer
	for _, b := range bufs {
		if b != nil {
			present = append(present, b)
		}
	}
	var status C.int
	err := withHandles(q, present, func(hq C.uintptr_t, hp []C.uintptr_t) C.int {
		h := make([]C.uintptr_t, len(bufs))
		for i, b := range bufs {
			if b != nil {
				h[i], hp = hp[0], hp[1:]
			}
		}
		status = fn(z, hq, h)
		return 0
	})
	switch {
	case err != nil:
		return fmt.Errorf("clblast: %s: %w", name, err)
	case status == 0:
		return nil
	case status < 0 && status > -1100:
		return fmt.Errorf("clblast: %s: %w", name, cl.ErrorCode(status))
	}
	return fmt.Errorf("clblast: %s: CLBlast status %d", name, int(status))
}

// ComplexAxpy runs y = alpha·x + y over n elements.
func ComplexAxpy[T complex64 | complex128](q *cl.Queue, n int, alpha T, x, y Vec) error {
	are, aim := parts(alpha)
	return cxCall[T]("axpy", q, []*cl.Buffer{x.Buf, y.Buf}, func(z C.int, hq C.uintptr_t, h []C.uintptr_t) C.int {
		return C.gocl_cxaxpy(z, sz(n), are, aim, h[0], sz(x.Off), sz(x.Inc), h[1], sz(y.Off), sz(y.Inc), hq)
	})
}

// ComplexScal runs x = alpha·x.
func ComplexScal[T complex64 | complex128](q *cl.Queue, n int, alpha T, x Vec) error {
	are, aim := parts(alpha)
	return cxCall[T]("scal", q, []*cl.Buffer{x.Buf}, func(z C.int, hq C.uintptr_t, h []C.uintptr_t) C.int {
		return C.gocl_cxscal(z, sz(n), are, aim, h[0], sz(x.Off), sz(x.Inc), hq)
	})
}

func cxTwo[T complex64 | complex128](q *cl.Queue, name string, op, n int, x, y Vec) error {
	return cxCall[T](name, q, []*cl.Buffer{x.Buf, y.Buf}, func(z C.int, hq C.uintptr_t, h []C.uintptr_t) C.int {
		return C.gocl_cxtwo(z, C.int(op), sz(n), h[0], sz(x.Off), sz(x.Inc), h[1], sz(y.Off), sz(y.Inc), hq)
	})
}

// ComplexCopy runs y = x.
func ComplexCopy[T complex64 | complex128](q *cl.Queue, n int, x, y Vec) error {
	return cxTwo[T](q, "copy", 0, n, x, y)
}

// ComplexSwap exchanges x and y.
func ComplexSwap[T complex64 | complex128](q *cl.Queue, n int, x, y Vec) error {
	return cxTwo[T](q, "swap", 1, n, x, y)
}

func cxReduce[T complex64 | complex128](q *cl.Queue, name string, op, n int, res *cl.Buffer, offRes int, x, y Vec) error {
	return cxCall[T](name, q, []*cl.Buffer{res, x.Buf, y.Buf}, func(z C.int, hq C.uintptr_t, h []C.uintptr_t) C.int {
		return C.gocl_cxreduce(z, C.int(op), sz(n), h[0], sz(offRes), h[1], sz(x.Off), sz(x.Inc), h[2], sz(y.Off), sz(y.Inc), hq)
	})
}

// ComplexDotu runs res[offRes] = xᵀ·y (res holds T).
func ComplexDotu[T complex64 | complex128](q *cl.Queue, n int, res *cl.Buffer, offRes int, x, y Vec) error {
	return cxReduce[T](q, "dotu", 0, n, res, offRes, x, y)
}

// ComplexDotc runs res[offRes] = xᴴ·y (res holds T).
func ComplexDotc[T complex64 | complex128](q *cl.Queue, n int, res *cl.Buffer, offRes int, x, y Vec) error {
	return cxReduce[T](q, "dotc", 1, n, res, offRes, x, y)
}

// ComplexNrm2 runs Re res[offRes] = ‖x‖₂ (Scnrm2, Dznrm2). CLBlast types
// the result buffer as T: offRes counts complex elements, and the real
// result goes into the real part of res[offRes] (its imaginary part is
// left as it was).
func ComplexNrm2[T complex64 | complex128](q *cl.Queue, n int, res *cl.Buffer, offRes int, x Vec) error {
	return cxReduce[T](q, "nrm2", 2, n, res, offRes, x, Vec{})
}

// ComplexAsum runs Re res[offRes] = Σ |Re x[i]| + |Im x[i]| (Scasum,
// Dzasum; res as ComplexNrm2's).
func ComplexAsum[T complex64 | complex128](q *cl.Queue, n int, res *cl.Buffer, offRes int, x Vec) error {
	return cxReduce[T](q, "asum", 3, n, res, offRes, x, Vec{})
}

// ComplexIamax runs res[offRes] = the index of the largest |Re x[i]| +
// |Im x[i]| (res holds unsigned ints). CLBlast before 1.6.0 (Debian's
// 1.5.3 among them) compares |Re x[i]| alone and returns the index into
// the buffer, x.Off + i·x.Inc; from 1.6.0 it returns i.
func ComplexIamax[T complex64 | complex128](q *cl.Queue, n int, res *cl.Buffer, offRes int, x Vec) error {
	return cxReduce[T](q, "amax", 4, n, res, offRes, x, Vec{})
}

func cxMV[T complex64 | complex128](q *cl.Queue, name string, herm, trans int, upper bool, m, n int, alpha T, a Mat, x Vec, beta T, y Vec) error {
	are, aim := parts(alpha)
	bre, bim := parts(beta)
	return cxCall[T](name, q, []*cl.Buffer{a.Buf, x.Buf, y.Buf}, func(z C.int, hq C.uintptr_t, h []C.uintptr_t) C.int {
		return C.gocl_cxmv(z, C.int(herm), C.int(trans), C.int(bool2int(upper)), sz(m), sz(n), are, aim,
			h[0], sz(a.Off), sz(a.Ld), h[1], sz(x.Off), sz(x.Inc), bre, bim, h[2], sz(y.Off), sz(y.Inc), hq)
	})
}

// ComplexGemv runs the row-major y = alpha·op(A)·x + beta·y, A m×n, trans
// 0, 1 or 2.
func ComplexGemv[T complex64 | complex128](q *cl.Queue, trans, m, n int, alpha T, a Mat, x Vec, beta T, y Vec) error {
	return cxMV(q, "gemv", 0, trans, false, m, n, alpha, a, x, beta, y)
}

// ComplexHemv runs the row-major y = alpha·A·x + beta·y, A n×n Hermitian
// stored in its upper or lower triangle.
func ComplexHemv[T complex64 | complex128](q *cl.Queue, upper bool, n int, alpha T, a Mat, x Vec, beta T, y Vec) error {
	return cxMV(q, "hemv", 1, 0, upper, n, n, alpha, a, x, beta, y)
}

func cxRank[T complex64 | complex128](q *cl.Queue, name string, op int, upper bool, m, n int, alpha T, x, y Vec, a Mat) error {
	are, aim := parts(alpha)
	return cxCall[T](name, q, []*cl.Buffer{x.Buf, y.Buf, a.Buf}, func(z C.int, hq C.uintptr_t, h []C.uintptr_t) C.int {
		return C.gocl_cxrank(z, C.int(op), C.int(bool2int(upper)), sz(m), sz(n), are, aim,
			h[0], sz(x.Off), sz(x.Inc), h[1], sz(y.Off), sz(y.Inc), h[2], sz(a.Off), sz(a.Ld), hq)
	})
}

// ComplexGeru runs the row-major A += alpha·x·yᵀ, A m×n.
func ComplexGeru[T complex64 | complex128](q *cl.Queue, m, n int, alpha T, x, y Vec, a Mat) error {
	return cxRank(q, "geru", 0, false, m, n, alpha, x, y, a)
}

// ComplexGerc runs the row-major A += alpha·x·yᴴ, A m×n.
func ComplexGerc[T complex64 | complex128](q *cl.Queue, m, n int, alpha T, x, y Vec, a Mat) error {
	return cxRank(q, "gerc", 1, false, m, n, alpha, x, y, a)
}

// ComplexHer runs the row-major A += alpha·x·xᴴ (alpha real), A n×n
// Hermitian, on its upper or lower triangle.
func ComplexHer[T complex64 | complex128](q *cl.Queue, upper bool, n int, alpha float64, x Vec, a Mat) error {
	return cxRank(q, "her", 2, upper, n, n, T(complex(alpha, 0)), x, Vec{}, a)
}

// ComplexHer2 runs the row-major A += alpha·x·yᴴ + conj(alpha)·y·xᴴ, A n×n
// Hermitian, on its upper or lower triangle.
func ComplexHer2[T complex64 | complex128](q *cl.Queue, upper bool, n int, alpha T, x, y Vec, a Mat) error {
	return cxRank(q, "her2", 3, upper, n, n, alpha, x, y, a)
}

// ComplexTrmv runs the row-major x = op(A)·x, A n×n triangular, trans 0, 1
// or 2.
func ComplexTrmv[T complex64 | complex128](q *cl.Queue, upper bool, trans int, unit bool, n int, a Mat, x Vec) error {
	return cxCall[T]("trmv", q, []*cl.Buffer{a.Buf, x.Buf}, func(z C.int, hq C.uintptr_t, h []C.uintptr_t) C.int {
		return C.gocl_cxtrmv(z, C.int(bool2int(upper)), C.int(trans), C.int(bool2int(unit)), sz(n),
			h[0], sz(a.Off), sz(a.Ld), h[1], sz(x.Off), sz(x.Inc), hq)
	})
}
