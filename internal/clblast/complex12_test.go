//go:build clblast

package clblast

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform/platformtest"
)

// TestComplex12AgainstGonum runs each complex level 1 and 2 binding once,
// in both precisions, against gonum's Z routines on the same (rounded)
// inputs, on views with offsets, increments and padded leading dimensions
// so that their units (complex elements) are checked too.
func TestComplex12AgainstGonum(t *testing.T) {
	rt := platformtest.Runtime(t)
	t.Run("complex64", func(t *testing.T) { cxBattery[complex64](t, rt.Context(), rt.Queue(), 2e-5) })
	t.Run("complex128", func(t *testing.T) {
		if !rt.Device().Profile().FP64 {
			platformtest.Unavailable(t, "no cl_khr_fp64")
		}
		cxBattery[complex128](t, rt.Context(), rt.Queue(), 1e-12)
	})
}

// cxEnv uploads and reads back complex data as T and compares it with
// gonum's results.
type cxEnv[T complex64 | complex128] struct {
	t   *testing.T
	ctx *cl.Context
	q   *cl.Queue
	rnd *rand.Rand
	tol float64
}

// rand returns l random values rounded to T.
func (e *cxEnv[T]) rand(l int) []complex128 {
	v := make([]complex128, l)
	for i := range v {
		v[i] = complex128(T(complex(2*e.rnd.Float64()-1, 2*e.rnd.Float64()-1)))
	}
	return v
}

// up uploads data as T, released when the test ends.
func (e *cxEnv[T]) up(data []complex128) *cl.Buffer {
	e.t.Helper()
	d := make([]T, len(data))
	for i, v := range data {
		d[i] = T(v)
	}
	b, err := cl.CreateBufferFrom(e.ctx, cl.MemReadWrite, d)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { b.Release() })
	return b
}

// vec uploads data as a Vec with offset off and increment inc (data
// holds the whole storage).
func (e *cxEnv[T]) vec(data []complex128, off, inc int) Vec {
	return Vec{Buf: e.up(data), Off: off, Inc: inc}
}

// read reads l values of b.
func (e *cxEnv[T]) read(b *cl.Buffer, l int) []complex128 {
	e.t.Helper()
	d := make([]T, l)
	if _, err := cl.ReadBuffer(e.q, b, true, 0, d); err != nil {
		e.t.Fatal(err)
	}
	out := make([]complex128, l)
	for i, v := range d {
		out[i] = complex128(v)
	}
	return out
}

// check runs the CLBlast call err, then compares got() with want.
func (e *cxEnv[T]) check(name string, err error, got func() []complex128, want []complex128) {
	e.t.Helper()
	if err != nil {
		e.t.Fatalf("%s: %v", name, err)
	}
	g := got()
	for i := range want {
		if d := cmplx.Abs(g[i] - want[i]); d > e.tol*(1+cmplx.Abs(want[i])) || math.IsNaN(d) {
			e.t.Errorf("%s: [%d] = %v, want %v", name, i, g[i], want[i])
		}
	}
}

func cxBattery[T complex64 | complex128](t *testing.T, ctx *cl.Context, q *cl.Queue, tol float64) {
	e := &cxEnv[T]{t: t, ctx: ctx, q: q, rnd: rand.New(rand.NewPCG(12, 34)), tol: tol}
	g := gonum.Implementation{}
	const m, n = 5, 7
	alpha, beta := complex128(T(complex(0.5, -1.25))), complex128(T(complex(-0.75, 0.5)))
	cxLevel1[T](e, g, n, alpha)

	// General m×n A at offset 2 with leading dimension n+3.
	const oa, lda = 2, n + 3
	a := e.rand(oa + (m-1)*lda + n)
	for tr, bt := range []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans} {
		nin, nout := n, m
		if tr > 0 {
			nin, nout = m, n
		}
		x, y := e.rand(1+2*nin), e.rand(nout)
		bx, by, ba := e.up(x), e.up(y), e.up(a)
		err := ComplexGemv(q, tr, m, n, T(alpha), Mat{ba, oa, lda}, Vec{bx, 1, 2}, T(beta), Vec{by, 0, 1})
		g.Zgemv(bt, m, n, alpha, a[oa:], lda, x[1:], 2, beta, y, 1)
		e.check(fmt.Sprint("Gemv trans ", tr), err, func() []complex128 { return e.read(by, nout) }, y)
	}
	for _, conj := range []bool{false, true} {
		a := append([]complex128(nil), a...)
		x, y := e.rand(1+2*m), e.rand(n)
		ba := e.up(a)
		var err error
		if conj {
			err = ComplexGerc(q, m, n, T(alpha), e.vec(x, 1, 2), e.vec(y, 0, 1), Mat{ba, oa, lda})
			g.Zgerc(m, n, alpha, x[1:], 2, y, 1, a[oa:], lda)
		} else {
			err = ComplexGeru(q, m, n, T(alpha), e.vec(x, 1, 2), e.vec(y, 0, 1), Mat{ba, oa, lda})
			g.Zgeru(m, n, alpha, x[1:], 2, y, 1, a[oa:], lda)
		}
		e.check(fmt.Sprint("Ger conj ", conj), err, func() []complex128 { return e.read(ba, len(a)) }, a)
	}
	cxHermitian[T](e, g, n, alpha, beta)
	cxTrmv[T](e, g, n)

	// A leading dimension below n is refused, in an error naming the call.
	name := "CLBlastCgemv"
	if _, ok := any(T(0)).(complex128); ok {
		name = "CLBlastZgemv"
	}
	err := ComplexGemv(q, 0, m, n, T(alpha), Mat{e.up(a), 0, n - 1}, Vec{e.up(a), 0, 1}, T(beta), Vec{e.up(a), 0, 1})
	if err == nil || !strings.Contains(err.Error(), name) {
		t.Errorf("Gemv with lda < n: error %v, want one naming %s", err, name)
	}
}

// cxLevel1 checks the level 1 bindings on x (offset 1, increment 2) and y
// (unit stride) of n elements.
func cxLevel1[T complex64 | complex128](e *cxEnv[T], g gonum.Implementation, n int, alpha complex128) {
	q := e.q
	x, y := e.rand(1+2*n), e.rand(n)
	vx, vy := e.vec(x, 1, 2), e.vec(y, 0, 1)
	readX := func() []complex128 { return e.read(vx.Buf, len(x)) }
	readY := func() []complex128 { return e.read(vy.Buf, n) }

	err := ComplexAxpy(q, n, T(alpha), vx, vy)
	g.Zaxpy(n, alpha, x[1:], 2, y, 1)
	e.check("Axpy", err, readY, y)
	err = ComplexScal(q, n, T(alpha), vx)
	g.Zscal(n, alpha, x[1:], 2)
	e.check("Scal", err, readX, x)
	err = ComplexSwap[T](q, n, vx, vy)
	g.Zswap(n, x[1:], 2, y, 1)
	e.check("Swap x", err, readX, x)
	e.check("Swap y", nil, readY, y)
	w := e.rand(n + 1)
	vw := e.vec(w, 1, 1)
	err = ComplexCopy[T](q, n, vx, vw)
	g.Zcopy(n, x[1:], 2, w[1:], 1)
	e.check("Copy", err, func() []complex128 { return e.read(vw.Buf, len(w)) }, w)

	// The reductions write element 1 of their result buffers.
	res := e.up(make([]complex128, 2))
	readRes := func() []complex128 { return e.read(res, 2)[1:] }
	err = ComplexDotu[T](q, n, res, 1, vx, vy)
	e.check("Dotu", err, readRes, []complex128{g.Zdotu(n, x[1:], 2, y, 1)})
	err = ComplexDotc[T](q, n, res, 1, vx, vy)
	e.check("Dotc", err, readRes, []complex128{g.Zdotc(n, x[1:], 2, y, 1)})
	// Nrm2 and Asum write the real part of res[1].
	readRe := func() []complex128 { return []complex128{complex(real(e.read(res, 2)[1]), 0)} }
	err = ComplexNrm2[T](q, n, res, 1, vx)
	e.check("Nrm2", err, readRe, []complex128{complex(g.Dznrm2(n, x[1:], 2), 0)})
	err = ComplexAsum[T](q, n, res, 1, vx)
	e.check("Asum", err, readRe, []complex128{complex(g.Dzasum(n, x[1:], 2), 0)})

	// Iamax on a unit-stride vector whose element of the largest |Re| +
	// |Im| also has the largest |Re|: CLBlast before 1.6.0 compares |Re|
	// alone and returns the index into the buffer (ComplexIamax).
	v := e.rand(n)
	v[4] = complex128(T(complex(3, -2)))
	ib, errB := cl.CreateBufferFrom(e.ctx, cl.MemReadWrite, []uint32{99, 99})
	if errB != nil {
		e.t.Fatal(errB)
	}
	defer ib.Release()
	err = ComplexIamax[T](q, n, ib, 1, e.vec(v, 0, 1))
	e.check("Iamax", err, func() []complex128 {
		d := make([]uint32, 2)
		if _, err := cl.ReadBuffer(q, ib, true, 0, d); err != nil {
			e.t.Fatal(err)
		}
		return []complex128{complex(float64(d[1]), 0)}
	}, []complex128{complex(float64(g.Izamax(n, v, 1)), 0)})
}

// hermitian returns an n×n matrix at offset off with leading dimension
// ld whose diagonal is real.
func (e *cxEnv[T]) hermitian(n, off, ld int) []complex128 {
	h := e.rand(off + (n-1)*ld + n)
	for i := range n {
		h[off+i*ld+i] = complex(real(h[off+i*ld+i]), 0)
	}
	return h
}

// cxHermitian checks Her, Her2 and Hemv on both triangles.
func cxHermitian[T complex64 | complex128](e *cxEnv[T], g gonum.Implementation, n int, alpha, beta complex128) {
	off, ld := 1, n+2
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		up := ul == blas.Upper
		h := e.hermitian(n, off, ld)
		x, y := e.rand(1+2*n), e.rand(n)
		bh := e.up(h)
		readH := func() []complex128 { return e.read(bh, len(h)) }
		err := ComplexHer[T](e.q, up, n, 0.75, e.vec(x, 1, 2), Mat{bh, off, ld})
		g.Zher(ul, n, 0.75, x[1:], 2, h[off:], ld)
		e.check(fmt.Sprint("Her upper ", up), err, readH, h)
		err = ComplexHer2(e.q, up, n, T(alpha), e.vec(x, 1, 2), e.vec(y, 0, 1), Mat{bh, off, ld})
		g.Zher2(ul, n, alpha, x[1:], 2, y, 1, h[off:], ld)
		e.check(fmt.Sprint("Her2 upper ", up), err, readH, h)

		h = e.hermitian(n, off, ld)
		vy := e.vec(y, 0, 1)
		err = ComplexHemv(e.q, up, n, T(alpha), Mat{e.up(h), off, ld}, e.vec(x, 1, 2), T(beta), vy)
		g.Zhemv(ul, n, alpha, h[off:], ld, x[1:], 2, beta, y, 1)
		e.check(fmt.Sprint("Hemv upper ", up), err, func() []complex128 { return e.read(vy.Buf, n) }, y)
	}
}

// cxTrmv checks Trmv on both triangles, each transpose and diagonal.
func cxTrmv[T complex64 | complex128](e *cxEnv[T], g gonum.Implementation, n int) {
	off, ld := 3, n+1
	a := e.rand(off + (n-1)*ld + n)
	ba := e.up(a)
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		for tr, bt := range []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans} {
			for _, d := range []blas.Diag{blas.NonUnit, blas.Unit} {
				x := e.rand(1 + 2*n)
				vx := e.vec(x, 1, 2)
				err := ComplexTrmv[T](e.q, ul == blas.Upper, tr, d == blas.Unit, n, Mat{ba, off, ld}, vx)
				g.Ztrmv(ul, bt, d, n, a[off:], ld, x[1:], 2)
				e.check(fmt.Sprintf("Trmv %c %d %c", ul, tr, d), err, func() []complex128 { return e.read(vx.Buf, len(x)) }, x)
			}
		}
	}
}
