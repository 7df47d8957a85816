package engine

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/gocompute/opencl/cl"
)

// L1Ops are the routines L1Bench times: the level 1 kernels of level1.cl
// and the GEMV kernels that take their shape.
var L1Ops = []string{"axpy", "copy", "scal", "swap", "dot", "nrm2", "asum", "iamax", "gemv-n", "gemv-t"}

// L1Reduction reports whether op is a two-pass reduction (its first pass
// takes the shape's Groups; the element-wise kernels take EwGroups).
func L1Reduction(op string) bool {
	switch op {
	case "dot", "nrm2", "asum", "iamax":
		return true
	}
	return false
}

// L1Bench is the level 1 and GEMV problems of the tuner, resident on a
// device: vectors of n elements, a square matrix of order m (none when m
// is 0), and two buffers for the copy roofline. Its routines run with the
// engine's level 1 shape (Engine.SetL1Shape).
type L1Bench[T float32 | float64] struct {
	e            *Engine
	n, m         int
	x, y, res    *cl.Buffer
	a, ax, ay    *cl.Buffer
	cpSrc, cpDst *cl.Buffer
}

// NewL1Bench puts vectors of n elements (random, in [-1, 1)) and, when m
// > 0, an m×m matrix and its vectors on e's device.
func NewL1Bench[T float32 | float64](e *Engine, n, m int) (*L1Bench[T], error) {
	if ElemSize[T]() == 8 && !e.Prof.FP64 {
		return nil, fmt.Errorf("clblas: NewL1Bench: %s has no fp64", e.Prof.Name)
	}
	if n < 1 || n > math.MaxInt32 || m < 0 || !l2fits(m, m*m) {
		return nil, fmt.Errorf("clblas: NewL1Bench(%d, %d): sizes out of range", n, m)
	}
	b := &L1Bench[T]{e: e, n: n, m: m}
	rnd := rand.New(rand.NewPCG(uint64(n), uint64(m)))
	put := func(dst **cl.Buffer, k int, random bool) error {
		if k == 0 {
			return nil
		}
		buf, err := CreateBuffer(e.RT.Context(), e.Prof, k*ElemSize[T]())
		if err != nil {
			return err
		}
		*dst = buf
		if !random {
			return nil
		}
		host := make([]T, k)
		for i := range host {
			host[i] = T(2*rnd.Float64() - 1)
		}
		ev, err := cl.WriteBuffer(e.Queue, buf, true, 0, host)
		if err != nil {
			return err
		}
		return ev.Release()
	}
	err := errors.Join(put(&b.x, n, true), put(&b.y, n, true), put(&b.res, 1, false),
		put(&b.a, m*m, true), put(&b.ax, m, true), put(&b.ay, m, true),
		put(&b.cpSrc, 2*n, false), put(&b.cpDst, 2*n, false))
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("clblas: NewL1Bench: %w", err)
	}
	return b, nil
}

// Close releases the device buffers.
func (b *L1Bench[T]) Close() error {
	var errs []error
	for _, p := range []**cl.Buffer{&b.x, &b.y, &b.res, &b.a, &b.ax, &b.ay, &b.cpSrc, &b.cpDst} {
		if *p != nil {
			errs = append(errs, (*p).Release())
			*p = nil
		}
	}
	return errors.Join(errs...)
}

// Bytes is the number of bytes op must move at the least (AXPY reads x
// and y and writes y: 3n elements); 0 for an op the bench does not have.
// A reduction's parts (l1bench_parts.go) move the reduction's bytes.
func (b *L1Bench[T]) Bytes(op string) float64 {
	es, n, m := float64(ElemSize[T]()), float64(b.n), float64(b.m)
	op = l1BaseOp(op)
	switch op {
	case "axpy":
		return 3 * n * es
	case "copy", "scal", "dot":
		return 2 * n * es
	case "swap":
		return 4 * n * es
	case "nrm2", "asum", "iamax", "read", "write":
		return n * es
	case "gemv-n", "gemv-t":
		if b.m > 0 {
			return (m*m + 3*m) * es
		}
	}
	return 0
}

// Run enqueues batch calls of op, back to back, and waits for them.
func (b *L1Bench[T]) Run(op string, batch int) error {
	if b.Bytes(op) == 0 {
		return fmt.Errorf("clblas: L1Bench: no routine %q", op)
	}
	var slots []*Slot
	defer func() {
		b.e.resq.finish() // the reads apart into slots are done
		for _, s := range slots {
			s.Free()
		}
	}()
	for range batch {
		c := Begin[T](b.e, "TuneL1")
		if !b.enqueuePart(c, op, &slots) {
			b.enqueue(c, op)
		}
		if err := c.Finish(); err != nil {
			return err
		}
	}
	return b.e.Queue.Finish()
}

func (b *L1Bench[T]) enqueue(c *Call, op string) {
	n, x, y := b.n, b.x, b.y
	switch op {
	case "axpy":
		AxpyOnDevice(c, n, T(1e-3), x, 0, 1, y, 0, 1)
	case "copy":
		CopyOnDevice[T](c, n, x, 0, 1, y, 0, 1)
	case "scal":
		ScalOnDevice(c, n, T(-1), x, 0, 1)
	case "swap":
		SwapOnDevice[T](c, n, x, 0, 1, y, 0, 1)
	case "dot":
		DotOnDevice[T](c, n, x, 0, 1, y, 0, 1, b.res, 0)
	case "nrm2":
		Nrm2OnDevice[T](c, n, x, 0, 1, b.res, 0)
	case "asum":
		AsumOnDevice[T](c, n, x, 0, 1, b.res, 0)
	case "iamax":
		IamaxOnDevice[T](c, n, x, 0, 1, b.res, 0)
	case "gemv-n", "gemv-t":
		tA := blas.NoTrans
		if op == "gemv-t" {
			tA = blas.Trans
		}
		d, nout, nin, _ := GemvMat(tA, b.m, b.m, b.m)
		L2mvOnDevice(c, d, b.a, nout, nin, T(1), b.ax, 0, 1, T(0.5), b.ay, 0, 1)
	}
}

// RunCopy enqueues batch device-to-device copies (clEnqueueCopyBuffer) of
// half of op's bytes, the roofline of op (each copy reads and writes that
// half), and waits for them.
func (b *L1Bench[T]) RunCopy(op string, batch int) error {
	k := min(int(b.Bytes(op)/2)/ElemSize[T](), 2*b.n)
	for range batch {
		ev, err := cl.CopyBuffer[T](b.e.Queue, b.cpSrc, b.cpDst, 0, 0, k)
		if err != nil {
			return err
		}
		ev.Release()
	}
	return b.e.Queue.Finish()
}

// CheckL1Shape runs the level 1 routines and GEMV with e's level 1 shape
// in precision T on small problems that take every path of the kernels
// (views at an offset of one element, lengths that are no multiple of the
// vector width, a stride of -2) and compares them with gonum's.
func CheckL1Shape[T float32 | float64](e *Engine) error {
	sh := e.L1Shape(PrecisionOf[T]())
	rnd := rand.New(rand.NewPCG(7, uint64(sh.Local)))
	for _, n := range []int{1, sh.Vec + 1, 2*sh.Local*sh.Vec*sh.Unroll + 3, 5*sh.Local*sh.Vec + 7} {
		for _, inc := range []int{1, -2} {
			if err := checkL1[T](e, rnd, n, inc); err != nil {
				return fmt.Errorf("clblas: level 1 shape %+v, n=%d, inc=%d: %w", sh, n, inc, err)
			}
		}
	}
	if err := checkGemv[T](e, rnd, 33, sh.Local*sh.Vec+5); err != nil {
		return fmt.Errorf("clblas: level 1 shape %+v: %w", sh, err)
	}
	return nil
}

func checkL1[T float32 | float64](e *Engine, rnd *rand.Rand, n, inc int) error {
	const off = 1 // the views start one element into their buffers
	span := VecSpan(n, inc)
	rand64 := func(k int) []float64 {
		v := make([]float64, k)
		for i := range v {
			v[i] = float64(T(2*rnd.Float64() - 1))
		}
		return v
	}
	hx, hy := rand64(off+span), rand64(off+span)
	conv := func(v []float64) []T {
		out := make([]T, len(v))
		for i := range v {
			out[i] = T(v[i])
		}
		return out
	}
	c := Begin[T](e, "CheckL1")
	x, y := Upload(c, conv(hx)), Upload(c, conv(hy))
	res := Alloc[T](c, 4)
	idx := Alloc[float32](c, 1)
	// Dot and Axpy take inc as it is; the routines of one vector, which
	// gonum gives nothing to do for a negative increment, take |inc|.
	o, ainc := off+VecOff(n, inc), max(inc, -inc)
	DotOnDevice[T](c, n, x, o, inc, y, o, inc, res, 0)
	// Dsdot: float32 vectors summed in float64 (dsdot_one or dsdot_part).
	withDsdot := ElemSize[T]() == 4 && e.Prof.FP64
	var res64 *cl.Buffer
	if withDsdot {
		res64 = Alloc[float64](c, 1)
		DsdotOnDevice(c, n, x, o, inc, y, o, inc, res64, 0)
	}
	Nrm2OnDevice[T](c, n, x, off, ainc, res, 1)
	AsumOnDevice[T](c, n, x, off, ainc, res, 2)
	IamaxOnDevice[T](c, n, x, off, ainc, idx, 0)
	AxpyOnDevice(c, n, T(0.5), x, o, inc, y, o, inc)
	ScalOnDevice(c, n, T(-2), x, off, ainc)
	gotX, gotY := Download[T](c, x, off+span), Download[T](c, y, off+span)
	gotR, gotI := Download[T](c, res, 3), Download[float32](c, idx, 1)
	var gotD []float64
	if withDsdot {
		gotD = Download[float64](c, res64, 1)
	}
	if err := c.Finish(); err != nil {
		return err
	}
	gx := blas64.Vector{N: n, Inc: inc, Data: hx[off:]}
	gy := blas64.Vector{N: n, Inc: inc, Data: hy[off:]}
	ax := blas64.Vector{N: n, Inc: max(inc, -inc), Data: hx[off:]}
	tol := 1e-12
	if ElemSize[T]() == 4 {
		tol = 1e-5
	}
	near := func(what string, got T, want float64) error {
		if math.Abs(float64(got)-want) > tol*(1+math.Abs(want))*math.Sqrt(float64(n)) {
			return fmt.Errorf("%s = %v, want %v", what, got, want)
		}
		return nil
	}
	errs := []error{
		near("dot", gotR[0], blas64.Dot(gx, gy)),
		near("nrm2", gotR[1], blas64.Nrm2(ax)),
		near("asum", gotR[2], blas64.Asum(ax)),
	}
	if withDsdot {
		// The elements are float32 values, so their float64 products and
		// sums are what dsdot forms, up to the order of the sums.
		if want := blas64.Dot(gx, gy); math.Abs(gotD[0]-want) > 1e-12*(1+math.Abs(want))*math.Sqrt(float64(n)) {
			errs = append(errs, fmt.Errorf("dsdot = %v, want %v", gotD[0], want))
		}
	}
	if got, want := int(int32(math.Float32bits(gotI[0]))), blas64.Iamax(ax); got != want {
		errs = append(errs, fmt.Errorf("iamax = %d, want %d", got, want))
	}
	blas64.Axpy(0.5, gx, gy)
	blas64.Scal(-2, ax)
	for i := range hx {
		if err := near(fmt.Sprintf("scal x[%d]", i), gotX[i], float64(T(hx[i]))); err != nil {
			errs = append(errs, err)
			break
		}
		if err := near(fmt.Sprintf("axpy y[%d]", i), gotY[i], hy[i]); err != nil {
			errs = append(errs, err)
			break
		}
	}
	return errors.Join(errs...)
}

// checkGemv runs GEMV, both ways, on an m×k matrix of leading dimension
// k+1 (no multiple of the vector width) and compares it with gonum's.
func checkGemv[T float32 | float64](e *Engine, rnd *rand.Rand, m, k int) error {
	lda := k + 1
	rand64 := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(T(2*rnd.Float64() - 1))
		}
		return v
	}
	conv := func(v []float64) []T {
		out := make([]T, len(v))
		for i := range v {
			out[i] = T(v[i])
		}
		return out
	}
	ha := rand64(m * lda)
	var errs []error
	for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
		d, nout, nin, span := GemvMat(tA, m, k, lda)
		hx, hy := rand64(nin), rand64(nout)
		c := Begin[T](e, "CheckGemv")
		a := Upload(c, conv(ha[:span]))
		x, y := Upload(c, conv(hx)), Upload(c, conv(hy))
		L2mvOnDevice(c, d, a, nout, nin, T(1.5), x, 0, 1, T(0.5), y, 0, 1)
		got := Download[T](c, y, nout)
		if err := c.Finish(); err != nil {
			return err
		}
		blas64.Gemv(tA, 1.5, blas64.General{Rows: m, Cols: k, Stride: lda, Data: ha}, blas64.Vector{N: nin, Inc: 1, Data: hx}, 0.5, blas64.Vector{N: nout, Inc: 1, Data: hy})
		tol := 1e-12
		if ElemSize[T]() == 4 {
			tol = 1e-5
		}
		for i, want := range hy {
			if math.Abs(float64(got[i])-want) > tol*float64(nin)*(1+math.Abs(want)) {
				errs = append(errs, fmt.Errorf("gemv %c: y[%d] = %v, want %v", tA, i, got[i], want))
				break
			}
		}
	}
	return errors.Join(errs...)
}
