package clblas

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gocompute/opencl/cl"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	eng "github.com/gocompute/opencl/internal/engine"
)

// TestTrsvBlocked runs the triangular solves on the blocked kernel
// (kernels/trsv.cl) with small blocks, so that the suite's sizes take many
// of them: every transpose, triangle, diagonal and increment of the level
// 2 suite's triangular cases, plus band widths below, at and above the
// block order and not multiples of it, and the last block short. The
// engine is private, on the GPUs' kernels (a CPU device takes the blocked
// kernel only for band storage otherwise), on the launch-per-block
// schedule (trsv_blk; the flow schedule, NVIDIA's default, is
// TestTrsvBlockedFlow's).
func TestTrsvBlocked(t *testing.T) {
	impl, e := privateImpl(t, nil)
	gpuKernels(e)
	e.L2SolveFlow = eng.SolveFlowOff
	defer func() { e.L2SolveNB, e.L2SolveFlow = 0, eng.SolveFlowAuto }()
	for _, nb := range []int{4, 16} {
		e.L2SolveNB = nb
		if _, ok := openclDevice[float64](impl); ok {
			t.Run(fmt.Sprintf("float64/nb=%d", nb), func(t *testing.T) {
				trsvBlockedRun(t, e, "D", l2ops64(impl), l2ops64(gonum.Implementation{}), 1e-12)
			})
		}
		t.Run(fmt.Sprintf("float32/nb=%d", nb), func(t *testing.T) {
			trsvBlockedRun(t, e, "S", l2ops32(impl), l2ops32(gonum.Implementation{}), 2e-4)
		})
	}
}

func trsvBlockedRun[T float32 | float64](t *testing.T, e *eng.Engine, prefix string, got, want l2ops[T], tol float64) {
	before := map[string]int64{}
	for _, r := range []string{"trsv", "tbsv", "tpsv"} {
		before[r] = e.Launched.Of(prefix + r)
	}
	c := &l2run[T]{t: t, got: got, want: want, prefix: prefix, tol: tol,
		r: rand.New(rand.NewPCG(3, uint64(len(prefix)))), calls: map[string]int{}}
	c.tri()
	// Band widths around the block order at a size of several blocks.
	const n = 45
	for _, ul := range l2uplos {
		for _, tA := range l2trans {
			for _, d := range l2diags {
				for _, k := range []int{2, 4, 5, 16, 17, 44} {
					lda := k + 1 + k%2
					s := l2store{upper: ul == blas.Upper, n: n, k: k, lda: lda, storage: eng.L2Band}
					a := c.fill(s, d == blas.Unit, true)
					incX := c.nextInc()
					x := c.strided(n, incX)
					desc := fmt.Sprintf("ul=%c tA=%c d=%c n=%d k=%d lda=%d incX=%d", ul, tA, d, n, k, lda, incX)
					_, sv := c.triOps(eng.L2Band, ul, tA, d, n, k, a, lda, incX)
					c.check(sv.name, desc, x, sv.f)
				}
			}
		}
	}
	for _, r := range []string{"trsv", "tbsv", "tpsv"} {
		if d := e.Launched.Of(prefix+r) - before[r]; d < int64(c.calls[prefix+r]) {
			t.Errorf("%s%s: %d of %d calls ran on the device", prefix, r, d, c.calls[prefix+r])
		}
	}
}

// TestBandMVWide checks the band products on bands wider than their
// tiles, work-groups and row blocks, against gonum: sbmv over several tile
// rows and diagonals of tiles, tbmv and tbsv both ways with unit and
// non-unit diagonals, gbmv in both orientations with unequal kl and ku on
// non-square matrices, every (alpha, beta) pair. It runs the GPUs' kernels
// (kernels/bandmv.cl, level2.cl's mv), and on a CPU device also the
// CPUs' (level2.cl's band_rows, band_t_rows and band_t_sum, and
// tri_solve_seq on band storage).
func TestBandMVWide(t *testing.T) {
	for _, kernels := range []string{"gpu", "cpu"} {
		t.Run(kernels, func(t *testing.T) {
			impl, e := privateImpl(t, nil)
			if kernels == "gpu" {
				gpuKernels(e)
			} else if !e.Prof.IsCPU() {
				t.Skip("the CPU kernels run on CPU devices only")
			}
			// Scratch the kernels should not read holds NaN.
			poisonScratch(t, e, 4096, 8)
			if _, ok := openclDevice[float64](impl); ok {
				t.Run("float64", func(t *testing.T) {
					bandWideRun(t, l2ops64(impl), l2ops64(gonum.Implementation{}), 1e-12)
				})
			}
			t.Run("float32", func(t *testing.T) {
				bandWideRun(t, l2ops32(impl), l2ops32(gonum.Implementation{}), 2e-4)
			})
		})
	}
}

func bandWideRun[T float32 | float64](t *testing.T, got, want l2ops[T], tol float64) {
	c := &l2run[T]{t: t, got: got, want: want, prefix: "", tol: tol,
		r: rand.New(rand.NewPCG(5, 6)), calls: map[string]int{}}
	const n = 200
	for _, ul := range l2uplos {
		for _, k := range []int{31, 63, 64, 65, 130, 199} {
			alpha, beta := c.nextAB()
			lda := k + 1 + k%3
			s := l2store{upper: ul == blas.Upper, n: n, k: k, lda: lda, storage: eng.L2Band}
			a := c.fill(s, false, false)
			incX, incY := c.nextInc(), c.nextInc()
			x, y := c.strided(n, incX), c.strided(n, incY)
			desc := fmt.Sprintf("ul=%c n=%d k=%d lda=%d incX=%d incY=%d alpha=%v beta=%v", ul, n, k, lda, incX, incY, alpha, beta)
			c.check("sbmv", desc, y, func(o l2ops[T], y []T) { o.sbmv(ul, n, k, alpha, a, lda, x, incX, beta, y, incY) })
			// x contiguous too: the CPU kernel's vector path.
			x1 := c.strided(n, 1)
			desc1 := fmt.Sprintf("ul=%c n=%d k=%d lda=%d incX=1 incY=%d alpha=%v beta=%v", ul, n, k, lda, incY, alpha, beta)
			c.check("sbmv", desc1, y, func(o l2ops[T], y []T) { o.sbmv(ul, n, k, alpha, a, lda, x1, 1, beta, y, incY) })
			for _, d := range l2diags {
				// A unit diagonal is stored as NaN: reading it shows.
				ta := c.fill(s, d == blas.Unit, true)
				for _, tA := range l2trans {
					desc := fmt.Sprintf("ul=%c tA=%c d=%c n=%d k=%d lda=%d incX=%d", ul, tA, d, n, k, lda, incX)
					mv, sv := c.triOps(eng.L2Band, ul, tA, d, n, k, ta, lda, incX)
					c.check(mv.name, desc, x, mv.f)
					c.check(sv.name, desc, x, sv.f)
				}
			}
		}
	}
	for _, sh := range [][4]int{{200, 150, 70, 3}, {150, 200, 0, 90}, {97, 130, 40, 40}, {130, 97, 129, 96}, {40, 200, 5, 3}, {33, 97, 0, 0}} {
		m, nn, kl, ku := sh[0], sh[1], sh[2], sh[3]
		// Three (alpha, beta) pairs in a row: at least one with alpha ≠ 0.
		for _, tA := range slices.Repeat(l2trans, 3) {
			alpha, beta := c.nextAB()
			lda := kl + ku + 1 + 2
			a := c.dense(min(m, nn+kl), kl+ku+1, lda)
			lx, ly := nn, m
			if tA == blas.Trans {
				lx, ly = m, nn
			}
			incX, incY := c.nextInc(), c.nextInc()
			x, y := c.strided(lx, incX), c.strided(ly, incY)
			desc := fmt.Sprintf("tA=%c m=%d n=%d kl=%d ku=%d incX=%d incY=%d alpha=%v beta=%v", tA, m, nn, kl, ku, incX, incY, alpha, beta)
			c.check("gbmv", desc, y, func(o l2ops[T], y []T) { o.gbmv(tA, m, nn, kl, ku, alpha, a, lda, x, incX, beta, y, incY) })
		}
	}
}

// TestResidentLevel2Portable runs the resident level 2 suite (views at
// offsets, strided vectors) on the GPUs' kernels, the triangular solves
// in blocks of 4.
func TestResidentLevel2Portable(t *testing.T) {
	impl, e := privateImpl(t, nil)
	gpuKernels(e)
	e.L2SolveNB = 4
	if _, ok := openclDevice[float64](impl); ok {
		t.Run("float64", func(t *testing.T) { residentLevel2[float64](t, impl) })
	}
	t.Run("float32", func(t *testing.T) { residentLevel2[float32](t, impl) })
}

// poisonScratch puts count buffers of the pool's size class for bytes into
// e's pool, filled with NaN, so that calls whose scratch comes from that
// class read NaN wherever their kernels read scratch they did not write.
func poisonScratch(t *testing.T, e *eng.Engine, bytes, count int) {
	t.Helper()
	bufs := make([]*cl.Buffer, count)
	for i := range bufs {
		b, err := e.Buffers.Get(bytes)
		if err != nil {
			t.Fatal(err)
		}
		// All ones: NaN as float32 and as float64.
		if _, err := cl.FillBuffer(e.Queue, b, uint32(0xFFFFFFFF), 0, b.Size()/4); err != nil {
			t.Fatal(err)
		}
		bufs[i] = b
	}
	if err := e.Queue.Finish(); err != nil {
		t.Fatal(err)
	}
	for _, b := range bufs {
		e.Buffers.Put(b)
	}
}
