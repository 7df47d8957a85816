package cllapack

import (
	"cmp"
	"fmt"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
)

// Cholesky's block rows in one launch across work-groups (potrf_row in
// kernels/lapack.cl): factorRow makes three launches a step of nb rows
// (potf2_inv, U12's GEMM, the block row's update), each waiting for the
// one before, and on NVIDIA's OpenCL a launch costs several microseconds
// of the host and of the device; potrf_row runs every step of a block row
// in one launch over the compute units, its work-groups ordered by
// counters, so that the only launches left are one a block row and the
// GEMMs of the trailing update (k = the block row's height).

// defaultPotrfRowH is the height of potrf_row's block rows: the m of the
// GEMM before each. Taller rows move more of the work into potrf_row's own
// products, shorter ones more into the GEMMs and more launches; on the
// H200, in steps of 32 (gpuPotrfRowNB), 384 was the fastest of the heights
// tried from 2048 to 4096 and 2 % slower than 256 at 8192 (BENCHMARKS.md,
// "nineteenth session").
const defaultPotrfRowH = 384

// potrfShape is a shape of potrf_row's block rows: h high, each in
// launches of sub rows (0: one launch), from order min.
type potrfShape struct{ min, h, sub int }

// rowShape returns the height of Potrf's block rows in potrf_row at order
// n and that of the launches in them (0: one a block row): potrfWide's
// from its order on, else potrfRowH and potrfRowSub.
func (impl *Implementation) rowShape(n int) (h, sub int) {
	if w := impl.potrfWide; w.min > 0 && n >= w.min {
		return w.h, w.sub
	}
	return impl.potrfRowH, impl.potrfRowSub
}

// potrfRows reports whether a Potrf of order n in steps of nb takes
// potrf_row: on by setting (impl.gridPotrf) with the register kernels,
// steps as wide as potf_steps' block (so that a step is nb rows), more than
// one step, a device whose local memory holds potrf_row's arrays and that
// passed the grid probe.
func potrfRows[T float32 | float64](impl *Implementation, n, nb int) bool {
	if !impl.gridPotrf || !impl.potfRegs || impl.hostDiag || n <= nb {
		return false
	}
	if g := impl.potfGrid(); g*potfT(nb, g) != nb {
		return false
	}
	return potrfRowFits[T](impl) && gridUsable[T](impl)
}

// potrfRowFits reports whether potrf_row, built for impl's steps, fits the
// device's local memory (Oclgrind's 32 KiB do not hold steps of 64), by
// the driver's count: drivers pad its arrays differently.
func potrfRowFits[T float32 | float64](impl *Implementation) bool {
	impl.kmu.Lock()
	defer impl.kmu.Unlock()
	g := impl.potfGrid()
	k, err := impl.kernel(kernelKey{name: "potrf_row", pi: precIndex[T](), regs: true, potfG: g, potfT: potfT(impl.potrfBlock(), g)})
	if err != nil {
		return false
	}
	info, err := k.WorkGroupInfo(impl.blas.Runtime().Device().CL())
	return err == nil && info.LocalMemSize <= impl.blas.Runtime().Device().Profile().LocalMemBytes
}

// potrfGrid is a Potrf's potrf_row state: the copies of the diagonal
// blocks' inverses (xbuf, one launch's worth) and the counters, 1+2S int32 a
// launch of S steps, zero at the start.
type potrfGrid[T float32 | float64] struct {
	impl   *Implementation
	xbuf   *cl.Array[T]
	syncs  *cl.Array[int32]
	stride int // counters a launch
}

func newPotrfGrid[T float32 | float64](impl *Implementation, n, outer, sub, nb int) (*potrfGrid[T], error) {
	steps := (sub + nb - 1) / nb
	launches := (n + outer - 1) / outer * ((outer + sub - 1) / sub)
	g := &potrfGrid[T]{impl: impl, stride: 1 + 2*steps}
	var err error
	if g.syncs, err = newGridSyncs(impl, (launches*g.stride+1)/2); err == nil {
		g.xbuf, err = cl.NewArray[T](impl.blas.Runtime().Context(), cl.MemReadWrite, steps*nb*nb)
	}
	if err != nil {
		g.release()
		return nil, fmt.Errorf("cllapack: potrf_row scratch: %w", err)
	}
	return g, nil
}

func (g *potrfGrid[T]) release() error { return cmp.Or(releaseArray(g.xbuf), releaseArray(g.syncs)) }

// row enqueues potrf_row, launch b of the factorization, on the jb rows
// at (j, j) of p's matrix.
func (g *potrfGrid[T]) row(p *potrfRun[T], b, j, jb int, info *cl.Array[int32]) error {
	buf, off, err := p.d.Buffer()
	if err != nil {
		return err
	}
	cols := p.n - j
	groups := min(g.impl.gridGroups(), (cols+p.nb-1)/p.nb)
	upper := int32(0)
	if p.ul == blas.Upper {
		upper = 1
	}
	ld := p.d.Stride()
	wg := g.impl.potfGroup()
	err = launch[T](g.impl, "potrf_row", []int{groups * wg}, []int{wg}, int32(jb), int32(cols), upper,
		buf, int64(off+j*ld+j), int32(ld), info, int32(j), g.xbuf, g.syncs, int32(b*g.stride),
		int32(g.impl.gridSpin))
	if err == nil {
		g.impl.stats.rows.Add(1)
	}
	return err
}

// leftUpdate enqueues, before block row j (jb high) is factorised, its
// update by the rows of U above it: A[j:j+jb, j:n] −= U[0:j, j:j+jb]ᵀ·U[0:j,
// j:n] (Upper terms).
func (p *potrfRun[T]) leftUpdate(j, jb int) error {
	w, err := p.tview(p.d, 0, j, j, p.n-j)
	if err != nil {
		return err
	}
	return p.updateFrom(w, j, j, 0, jb, p.n-j)
}

// launchRows is the height of runRows' potrf_row launches: p.rowSub
// rounded down to whole steps, at most the block rows' height (p.rowSub
// 0: one launch a block row).
func (p *potrfRun[T]) launchRows() int {
	if p.rowSub <= 0 {
		return p.outer
	}
	return min(max(p.rowSub/p.nb*p.nb, p.nb), p.outer)
}

// rowUpdate enqueues, after the launch that factorised the ib rows at
// (i, i), the update of the h rows of its block row below them:
// A[k:k+h, k:n] −= U[i:k, k:k+h]ᵀ·U[i:k, k:n], k = i+ib (Upper terms).
func (p *potrfRun[T]) rowUpdate(i, ib, h int) error {
	k := i + ib
	w, err := p.tview(p.d, i, k, ib, p.n-k)
	if err != nil {
		return err
	}
	return p.updateFrom(w, k, ib, 0, h, p.n-k)
}

// failed reports, from the counters, whether a launch gave up waiting (its
// rows, and so the factor, are then wrong), and turns the device's
// grid launches off from then on.
func (g *potrfGrid[T]) failed() error {
	s := make([]int32, g.syncs.Len())
	if err := g.syncs.Read(g.impl.blas.Runtime().Queue(), 0, s); err != nil {
		return fmt.Errorf("cllapack: potrf_row: reading its counters: %w", err)
	}
	for b := 0; b+g.stride <= len(s); b += g.stride {
		if s[b] != 0 {
			g.impl.gridState.Store(gridNo)
			return fmt.Errorf("cllapack: potrf_row: the work-groups of launch %d did not run together", b/g.stride)
		}
	}
	return nil
}

// runRows is runDevice with each block row one potrf_row launch,
// left-looking: each block row is first updated by all the rows of U above
// it, in one GEMM with k = j (leftUpdate). (Right-looking, with the trailing
// matrix updated after each launch by GEMMs with k = potrfRowH, re-read and
// re-wrote it every block row: slower on the H200 at every height tried;
// BENCHMARKS.md, "NVIDIA H200, 2026-12-04 (eighteenth session)".) With
// launches lower than the block rows (p.rowSub, from potrfRowSub or
// potrfWide), a block row is several launches, each followed by the update
// of the block row's rows below it (rowUpdate).
func (p *potrfRun[T]) runRows() (ok bool, err error) {
	sub := p.launchRows()
	g, err := newPotrfGrid[T](p.impl, p.n, p.outer, sub, p.nb)
	if err != nil {
		return false, err
	}
	defer func() { err = cmp.Or(err, g.release()) }()
	info, err := newInfo(p.impl)
	if err != nil {
		return false, err
	}
	defer func() { err = cmp.Or(err, info.Release()) }()
	if err := p.band(true); err != nil {
		return false, err
	}
	b := 0
	for j := 0; j < p.n; j += p.outer {
		jb := min(p.outer, p.n-j)
		if j > 0 {
			if err := p.leftUpdate(j, jb); err != nil {
				return false, err
			}
		}
		for i := j; i < j+jb; i += sub {
			ib := min(sub, j+jb-i)
			if err := g.row(p, b, i, ib, info); err != nil {
				return false, err
			}
			b++
			if k := i + ib; k < j+jb {
				if err := p.rowUpdate(i, ib, j+jb-k); err != nil {
					return false, err
				}
			}
		}
	}
	if err := p.band(false); err != nil {
		return false, err
	}
	if ok, err = readInfo(p.impl, info); err != nil {
		return false, err
	}
	return ok, g.failed()
}
