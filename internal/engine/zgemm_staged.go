package engine

import (
	"math"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/internal/par"
)

// Complex GEMM on host slices through the real GEMM's staged pipeline
// (gemm_pipeline.go): the same tiles or row slabs of C, the same pinned
// staging, queues and overlap, with the operands moved as their
// interleaved parts (an element is two Ts: stagedGemm.w = 2). Each panel
// of B (a column panel, or a chunk of rows in the slab schedule) is
// expanded on the device into the real 2k×2n form of alpha·op(B) once,
// right after its upload, and each row panel of a transposed A into its
// m×2k real form likewise (zgemm.go's layouts); a block of C is then one
// real GEMM of mᵢ×2nⱼ×2k on them. An untransposed A needs no expansion:
// its parts are the real matrix already.

// zStaged is what a complex staged call has beyond a real one.
type zStaged struct {
	tA, tB      blas.Transpose
	alpha, beta complex128
	// m3: the 3M method (zgemm3m.go, chosen for the whole call by
	// Engine.zMethod): every panel is packed into its three real planes
	// (re, im, re + im; B's of alpha·op(B)) instead, and a block of C is
	// three real GEMMs of mᵢ×nⱼ×k into scratch planes and z3_combine.
	m3 bool
	// The expanded panels: A's by their first row (op(A) transposed, or
	// every A panel with m3), B's by the element offset of their upload
	// on the device.
	pa, pb map[int]*cl.Buffer
}

// zgemmStaged is ZgemmSlices on the staged path (R is T's part type). It
// reports nonFinite when C came back holding a NaN or an infinity; C is
// then as it was given when beta ≠ 0, and may hold anything otherwise
// (a CPU finish with beta == 0 does not read it).
func zgemmStaged[T Complex, R Real](e *Engine, name string, tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, cc []T, ldc int) (nonFinite bool, err error) {
	if m == 0 || n == 0 {
		return false, nil
	}
	if alpha == 0 {
		k = 0 // C = beta·C: gonum reads neither A nor B
	}
	s := &stagedGemm[R]{
		e: e, start: time.Now(),
		at: tA != blas.NoTrans, bt: tB != blas.NoTrans, m: m, n: n, k: k,
		a: PartsOf[T, R](a), b: PartsOf[T, R](b), cc: PartsOf[T, R](cc),
		lda: 2 * lda, ldb: 2 * ldb, ldc: 2 * ldc, w: 2,
		z: &zStaged{tA: tA, tB: tB, alpha: complex128(alpha), beta: complex128(beta),
			m3: e.zMethod(PrecisionOf[R](), m, n, k) == Z3M, pa: map[int]*cl.Buffer{}, pb: map[int]*cl.Buffer{}},
	}
	if beta != 0 {
		s.beta = 1 // C is read; z.beta is the factor
	}
	err = s.run(name)
	return err == nil && s.nonFinite, err
}

// zAfter makes the compute queue wait for ev (an upload) before what is
// enqueued on it next, and reports whether the call still runs.
func (s *stagedGemm[T]) zAfter(ev *cl.Event) bool {
	c := s.c
	if c.Err != nil || ev == nil {
		return false
	}
	bar, err := s.comp.EnqueueBarrier(ev)
	if err != nil {
		c.Fail(err)
		return false
	}
	c.Events = append(c.Events, bar)
	return true
}

// zExpanded records the expansion kernel just enqueued and returns its
// event (the call's last), or ev when the call has failed.
func (s *stagedGemm[T]) zExpanded(ev *cl.Event) *cl.Event {
	c := s.c
	if c.Err != nil {
		return ev
	}
	k := c.LastEvent()
	s.kerns = append(s.kerns, k)
	c.Fail(s.comp.Flush())
	return k
}

// zExpandB expands, once ev (its upload) completes, B's panel uploaded at
// complex element off (op(B)'s kk×nj block, leading dimension ldB) into
// the real 2kk×2nj form of alpha·op(B), and returns the expansion's
// event; a real call returns ev.
func (s *stagedGemm[T]) zExpandB(ev *cl.Event, off, kk, nj, ldB int) *cl.Event {
	z, c := s.z, s.c
	if z == nil || !s.zAfter(ev) {
		return ev
	}
	if z.m3 {
		z.pb[off] = z3Pack[T](c, z.tB, kk, nj, z.alpha, s.db, off, ldB)
		return s.zExpanded(ev)
	}
	bp := Alloc[T](c, 4*kk*nj)
	kb := c.Kernel(zFile, "zpack_b")
	global, local := l3Work(kk, (nj+1)/2)
	c.Run(kb, global, local, l3Int(c, kk), l3Int(c, nj), zTrans(z.tB), T(real(z.alpha)), T(imag(z.alpha)),
		s.db, int64(off), l3Int(c, ldB), bp, l3Int(c, 2*nj))
	z.pb[off] = bp
	return s.zExpanded(ev)
}

// zExpandA expands, once ev (its upload) completes, the row panel r0…
// (mi rows) of op(A), uploaded at r0·k (as the k×mi block of a transposed
// A), into its real mi×2k form (op(A) transposed) or its three planes
// (m3), and returns the expansion's event; a real call, and a complex one
// whose panel needs no expansion, returns ev.
func (s *stagedGemm[T]) zExpandA(ev *cl.Event, r0, mi int) *cl.Event {
	z, c := s.z, s.c
	if z == nil || !(s.at || z.m3) || !s.zAfter(ev) {
		return ev
	}
	if z.m3 {
		ld := s.k
		if s.at {
			ld = mi
		}
		z.pa[r0] = z3Pack[T](c, z.tA, mi, s.k, 1, s.da, r0*s.k, ld)
		return s.zExpanded(ev)
	}
	x := Alloc[T](c, 2*mi*s.k)
	ka := c.Kernel(zFile, "zpack_a")
	global, local := l3Work(mi, s.k)
	c.Run(ka, global, local, l3Int(c, mi), l3Int(c, s.k), zTrans(z.tA), s.da, int64(r0*s.k), l3Int(c, mi), x)
	z.pa[r0] = x
	return s.zExpanded(ev)
}

// zCompute is compute's kernels for a complex call: C's mi×nj block at
// offC += alpha·op(A)·op(B) over kk of the inner dimension from k0 on
// (A's part at offA with leading dimension ldA, in the row panel r0…; B's
// in the panel uploaded at offB), scaled by beta first when first.
func (s *stagedGemm[T]) zCompute(mi, nj, kk, k0, offA, ldA, offB int, first bool, offC, r0 int) {
	c, z := s.c, s.z
	beta := complex128(1)
	if first {
		beta = z.beta
	}
	if kk == 0 {
		if beta != 1 {
			ZscaleOnDevice[T](c, mi, nj, beta, s.dc, offC, nj, triFull, false)
		}
		return
	}
	if z.m3 {
		s.z3Compute(mi, nj, kk, k0, offB, beta, offC, r0)
		return
	}
	x, offX, ldX := s.da, 2*offA, 2*ldA
	if s.at {
		x, offX, ldX = z.pa[r0], 2*k0, 2*s.k
	}
	// A real beta scales both parts in the real GEMM; a complex one is
	// applied first.
	br := T(real(beta))
	if imag(beta) != 0 {
		ZscaleOnDevice[T](c, mi, nj, beta, s.dc, offC, nj, triFull, false)
		br = 1
	}
	GemmOnDevice(c, false, false, mi, 2*nj, 2*kk, T(1), x, offX, ldX, z.pb[offB], 0, 2*nj, br, s.dc, 2*offC, 2*nj)
}

// z3Compute is zCompute by the 3M method: three real GEMMs of mi×nj×kk on
// the planes of A's panel r0… (from k0 on) and of B's panel uploaded at
// offB into scratch planes, and z3_combine into C's block with beta.
func (s *stagedGemm[T]) z3Compute(mi, nj, kk, k0, offB int, beta complex128, offC, r0 int) {
	c, z := s.c, s.z
	pa, pb := z.pa[r0], z.pb[offB]
	p := Alloc[T](c, 3*mi*nj)
	for i := range 3 {
		GemmOnDevice(c, false, false, mi, nj, kk, T(1), pa, i*mi*s.k+k0, s.k, pb, i*kk*nj, nj, T(0), p, i*mi*nj, nj)
	}
	global, local := l3Work(mi, nj)
	c.Run(c.Kernel(zFile, "z3_combine"), global, local, l3Int(c, mi), l3Int(c, nj), T(real(beta)), T(imag(beta)),
		p, int64(mi*nj), s.dc, int64(offC), l3Int(c, nj))
}

// BlockFinite reports whether the rows×cols block of x (leading dimension
// ld) holds only finite values, on several goroutines when it is large.
func BlockFinite[R Real](x []R, rows, cols, ld int) bool {
	if rows == 0 || cols == 0 {
		return true
	}
	if rows == 1 || ld == cols {
		n := rows * cols
		x := x[:n]
		var bad atomic.Bool
		par.For(n, CopyWorkers(n*ElemSize[R]()), func(lo, hi int) {
			if !finite(x[lo:hi]) {
				bad.Store(true)
			}
		})
		return !bad.Load()
	}
	var bad atomic.Bool
	par.For(rows, CopyWorkers(rows*cols*ElemSize[R]()), func(lo, hi int) {
		for r := lo; r < hi && !bad.Load(); r++ {
			if !finite(x[r*ld : r*ld+cols]) {
				bad.Store(true)
			}
		}
	})
	return !bad.Load()
}

// finite reports whether every element of x is finite: v·0 is 0 for a
// finite v and NaN for NaN and ±Inf, and four sums keep the loop from
// waiting on one addition's latency.
func finite[R Real](x []R) bool {
	var s0, s1, s2, s3 R
	for len(x) >= 4 {
		v := x[:4:4]
		s0 += v[0] * 0
		s1 += v[1] * 0
		s2 += v[2] * 0
		s3 += v[3] * 0
		x = x[4:]
	}
	for _, v := range x {
		s0 += v * 0
	}
	return !math.IsNaN(float64(s0 + s1 + s2 + s3))
}

// unpackTileFinite is unpackTile, also reporting whether the tile's
// values are all finite (each row checked as it is copied, while it is in
// the cache).
func unpackTileFinite[T Real](dst, src []T, ldc, r0, mi, c0, nj, off int) bool {
	d, sr := dst[r0*ldc+c0:], src[off:]
	var bad atomic.Bool
	par.For(mi, CopyWorkers(mi*nj*ElemSize[T]()), func(lo, hi int) {
		ok := true
		for r := lo; r < hi; r++ {
			row := d[r*ldc : r*ldc+nj]
			copy(row, sr[r*nj:r*nj+nj])
			ok = finite(row) && ok
		}
		if !ok {
			bad.Store(true)
		}
	})
	return !bad.Load()
}
