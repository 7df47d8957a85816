package engine

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/internal/gemm"
)

// TuneCheck reports whether candidate t is valid for precision prec and
// the transposes tA, tB on e's device: the #error rules of the kernel
// source (gemm.cl's header, gemm_mma.cl's header) and the device's limits
// (work-group size, local memory, fp64, tensor cores). The tuner uses it.
func TuneCheck(e *Engine, prec int, tA, tB blas.Transpose, t gemm.TuneConfig) error {
	if prec == 64 && !e.Prof.FP64 {
		return fmt.Errorf("clblas: %s has no fp64: %w", e.Prof.Name, gemm.ErrInvalidConfig)
	}
	return gemm.Valid(e.GemmDev(), prec, tA != blas.NoTrans, tB != blas.NoTrans, t.Config(e.Tuning, e.GemmDev(), prec, 64, 64, 64))
}

// GemmBench is one GEMM problem resident on a device, for the tuner:
// random A, B and C in [-0.5, 0.5], and gonum's result to check against.
type GemmBench[T float32 | float64] struct {
	e             *Engine
	tA, tB        blas.Transpose
	m, n, k       int
	lda, ldb, ldc int
	a, b, c       []T
	want          []T
	amax, bmax    float64
	da, db, dc    *cl.Buffer
}

// NewGemmBench puts an m×n×k GEMM with transposes tA, tB (lds equal to the
// stored widths) on e's device.
func NewGemmBench[T float32 | float64](e *Engine, tA, tB blas.Transpose, m, n, k int) (*GemmBench[T], error) {
	if ElemSize[T]() == 8 && !e.Prof.FP64 {
		return nil, fmt.Errorf("clblas: NewGemmBench: %s has no fp64", e.Prof.Name)
	}
	if m <= 0 || n <= 0 || k <= 0 {
		return nil, fmt.Errorf("clblas: NewGemmBench(%d, %d, %d): dimensions must be positive", m, n, k)
	}
	g := &GemmBench[T]{e: e, tA: tA, tB: tB, m: m, n: n, k: k}
	ar, ac := Stored(tA, m, k)
	br, bc := Stored(tB, k, n)
	g.lda, g.ldb, g.ldc = ac, bc, n
	rnd := rand.New(rand.NewPCG(uint64(m), uint64(n)<<20|uint64(k)))
	fill := func(n int) ([]T, float64) {
		x := make([]T, n)
		mx := 0.0
		for i := range x {
			x[i] = T(rnd.Float64() - 0.5)
			mx = math.Max(mx, math.Abs(float64(x[i])))
		}
		return x, mx
	}
	g.a, g.amax = fill(ar * ac)
	g.b, g.bmax = fill(br * bc)
	g.c, _ = fill(m * n)
	g.want = slices.Clone(g.c)
	switch w := any(g.want).(type) {
	case []float64:
		gonum.Implementation{}.Dgemm(tA, tB, m, n, k, 1, any(g.a).([]float64), g.lda, any(g.b).([]float64), g.ldb, 0.5, w, g.ldc)
	case []float32:
		gonum.Implementation{}.Sgemm(tA, tB, m, n, k, 1, any(g.a).([]float32), g.lda, any(g.b).([]float32), g.ldb, 0.5, w, g.ldc)
	}
	ctx := e.RT.Context()
	for _, p := range []struct {
		dst  **cl.Buffer
		data []T
	}{{&g.da, g.a}, {&g.db, g.b}, {&g.dc, g.c}} {
		buf, err := CreateBuffer(ctx, e.Prof, len(p.data)*ElemSize[T]())
		if err != nil {
			g.Close()
			return nil, fmt.Errorf("clblas: NewGemmBench: %w", err)
		}
		*p.dst = buf
		ev, err := cl.WriteBuffer(e.Queue, buf, true, 0, p.data)
		if err != nil {
			g.Close()
			return nil, fmt.Errorf("clblas: NewGemmBench: %w", err)
		}
		ev.Release()
	}
	return g, nil
}

// Close releases the device buffers.
func (g *GemmBench[T]) Close() error {
	var errs []error
	for _, b := range []*cl.Buffer{g.da, g.db, g.dc} {
		if b != nil {
			errs = append(errs, b.Release())
		}
	}
	g.da, g.db, g.dc = nil, nil, nil
	return errors.Join(errs...)
}

// Run compiles and runs candidate t once (C = A·B + 0.5·C from the
// original C), checks the result against gonum, and, if it is right, times
// runs batches of back-to-back launches (C = A·B + 0.5·C again: the data
// stays resident); Times holds each batch's time per launch. A
// candidate the kernel source or the device rejects returns an error
// wrapping gemm.ErrInvalidConfig; a build or launch failure returns its error.
func (g *GemmBench[T]) Run(t gemm.TuneConfig, runs int) (gemm.TuneResult, error) {
	var res gemm.TuneResult
	prec := PrecisionOf[T]()
	tA, tB := g.tA != blas.NoTrans, g.tB != blas.NoTrans
	cfg := t.Config(g.e.Tuning, g.e.GemmDev(), prec, g.m, g.n, g.k)
	if err := gemm.Valid(g.e.GemmDev(), prec, tA, tB, cfg); err != nil {
		return res, err
	}
	launch := func(gl *GemmLauncher[T]) {
		gl.Gemm(cfg, tA, tB, g.m, g.n, g.k, 1, g.da, 0, g.lda, g.db, 0, g.ldb, 0.5, g.dc, 0, g.ldc)
	}
	// Restore C, run once, read back.
	c := Begin[T](g.e, "TuneGemm")
	if c.Err == nil {
		ev, err := cl.WriteBuffer(c.E.Queue, g.dc, false, 0, g.c)
		if err != nil {
			c.Fail(err)
		} else {
			c.Events = append(c.Events, ev)
		}
	}
	launch(NewGemmLauncher[T](c))
	got := Download[T](c, g.dc, len(g.c))
	if err := c.Finish(); err != nil {
		return res, err
	}
	maxErr := 0.0
	for i := range got {
		d := math.Abs(float64(got[i]) - float64(g.want[i]))
		if math.IsNaN(d) {
			maxErr = math.Inf(1)
			break
		}
		maxErr = math.Max(maxErr, d)
	}
	res.RelErr = maxErr / (math.Sqrt(float64(g.k)) * math.Max(g.amax*g.bmax, math.SmallestNonzeroFloat64))
	tol := 1e-4
	if prec == 64 {
		tol = 1e-12
	}
	res.OK = res.RelErr <= tol
	if !res.OK {
		return res, nil
	}
	// A run is a batch of back-to-back launches lasting about a
	// millisecond, timed as a whole: small problems are judged by their
	// throughput, as the library runs them, not by one launch's latency.
	batch := 1
	for r := -1; r < runs; r++ {
		c := Begin[T](g.e, "TuneGemm")
		gl := NewGemmLauncher[T](c)
		start := time.Now()
		for range batch {
			launch(gl)
		}
		if c.Err == nil {
			c.Fail(c.E.Queue.Finish())
		}
		d := time.Since(start)
		if err := c.Finish(); err != nil {
			return res, err
		}
		if r < 0 { // sizing run
			batch = int(min(64, max(1, time.Millisecond/max(d, time.Microsecond))))
			continue
		}
		res.Times = append(res.Times, d/time.Duration(batch))
	}
	if len(res.Times) > 0 {
		s := slices.Clone(res.Times)
		slices.Sort(s)
		res.Median = s[len(s)/2]
		res.GFLOPS = 2 * float64(g.m) * float64(g.n) * float64(g.k) / res.Median.Seconds() / 1e9
	}
	return res, nil
}
