package cllapack

import (
	"cmp"
	"fmt"

	"github.com/gocompute/opencl/cl"

	clblas "github.com/gocompute/opencl/blas"
)

// LU panels in one launch across work-groups (getrf_grid in
// kernels/lapack.cl): the recursive device panel (panelLU) makes about
// five launches per leaf, each a short kernel the device runs after the
// one before, and its leaves run in one work-group on one compute unit;
// getrf_grid factorises a whole panel in one launch over every compute
// unit, its groups meeting at a grid barrier once a column.

// Limits of getrf_grid (GRID_WG, GRID_BMAX in kernels/lapack.cl) and the
// fewest rows a group takes (fewer make the barrier, not the rows, the
// cost of a column).
const (
	gridWG      = 256
	gridBMax    = 128
	gridMinRows = 16
	// gridQRMinRows is geqrf_grid's fewest rows a group: with the sums
	// split (gridQRSplitGroups) groups of 32 rows measured faster than
	// groups of 64 on the H200 (BENCHMARKS.md).
	gridQRMinRows = 32
	// gridQRSplitGroups is the fewest groups of a geqrf_grid launch that
	// add the sums over the groups one total a group, after a second
	// grid barrier (BENCHMARKS.md: on the H200 that was slower with 64
	// groups and faster with 128).
	gridQRSplitGroups = 96
)

// gridSpin is how many times a group polls the grid barrier before it
// gives up (a few seconds of polling on a GPU: far longer than any wait for
// groups that run, and the bound that keeps a device which does not run
// them together from hanging).
const gridSpin = 1 << 22

// gridProbeRounds is how many barriers the probe meets.
const gridProbeRounds = 64

// gridState says whether impl's device has been seen to run a grid
// kernel's work-groups together: 0 not asked yet, 1 yes, −1 no (the LU
// panels then take panelLU).
const (
	gridUnknown = 0
	gridYes     = 1
	gridNo      = -1
)

// gridLU is a factorization's getrf_grid state: the barriers (two int32
// a panel, zero at the start), the scratch of the published candidates
// and rows, and the most groups a launch takes.
type gridLU[T float32 | float64] struct {
	impl   *Implementation
	syncs  *cl.Array[int32]
	xs     *cl.Array[T]
	xi     *cl.Array[int32]
	groups int
}

// newGridLU returns the getrf_grid state for an m×n LU in panels nb wide,
// or nil when the panels take panelLU: off by setting (impl.gridLU), on a
// device that failed the probe, or for panels wider than getrf_grid takes.
func newGridLU[T float32 | float64](impl *Implementation, m, n, nb int) (*gridLU[T], error) {
	if !impl.gridLU || nb > gridBMax || !gridUsable[T](impl) {
		return nil, nil
	}
	g := &gridLU[T]{impl: impl, groups: impl.gridGroups()}
	ctx := impl.blas.Runtime().Context()
	panels := (min(m, n) + nb - 1) / nb
	var err error
	if g.syncs, err = newGridSyncs(impl, panels); err == nil {
		if g.xs, err = cl.NewArray[T](ctx, cl.MemReadWrite, 2*g.groups+2*nb+2*g.groups*nb); err == nil {
			g.xi, err = cl.NewArray[int32](ctx, cl.MemReadWrite, 2*g.groups)
		}
	}
	if err != nil {
		g.release()
		return nil, fmt.Errorf("cllapack: getrf_grid scratch: %w", err)
	}
	return g, nil
}

// gridFailedBit is the bit of a barrier's arrival count that says it has
// failed (GRID_FAILED in kernels/lapack.cl).
const gridFailedBit = 1 << 30

// newGridSyncs returns the barriers of a factorization's grid launches,
// two int32 a panel (the failure flag, the arrival count), zeroed on the
// resident operations' queue; panel gridPoison−1's starts failed (its
// reason 1, its count's gridFailedBit set) when a test sets gridPoison.
func newGridSyncs(impl *Implementation, panels int) (*cl.Array[int32], error) {
	syncs, err := cl.NewArray[int32](impl.blas.Runtime().Context(), cl.MemReadWrite, 2*panels)
	if err != nil {
		return nil, err
	}
	err = fillZero(impl, syncs, 2*panels)
	if err == nil && impl.gridPoison > 0 && impl.gridPoison <= panels {
		var ev *cl.Event
		if ev, err = syncs.Write(impl.blas.Runtime().Queue(), 2*(impl.gridPoison-1), []int32{1, gridFailedBit}); err == nil {
			err = ev.Release()
		}
	}
	if err != nil {
		syncs.Release()
		return nil, err
	}
	return syncs, nil
}

// gridGroups is the most work-groups a grid launch takes: one a compute
// unit (gridMax, when set, is fewer).
func (impl *Implementation) gridGroups() int {
	g := max(1, impl.blas.Runtime().Device().Profile().ComputeUnits)
	if impl.gridMax > 0 {
		g = impl.gridMax
	}
	return min(g, gridWG)
}

func (g *gridLU[T]) release() error {
	return cmp.Or(releaseArray(g.syncs), releaseArray(g.xs), releaseArray(g.xi))
}

// panel enqueues getrf_grid on the (m−j)×jb panel of d at (j, j), the
// factorization's panel number j/nb.
func (g *gridLU[T]) panel(d *clblas.Matrix[T], piv *pivots, info *cl.Array[int32], j, jb, nb int) error {
	ev, err := g.panelOn(nil, nil, d, piv, info, j, jb, nb)
	if err != nil {
		return err
	}
	return ev.Release()
}

// panelOn is panel on q (nil: the main queue) after wait, returning the
// launch's event.
func (g *gridLU[T]) panelOn(q *cl.Queue, wait []*cl.Event, d *clblas.Matrix[T], piv *pivots, info *cl.Array[int32], j, jb, nb int) (*cl.Event, error) {
	m, _ := d.Dims()
	mp := m - j
	rpg := max(g.impl.gridRows, (mp+g.groups-1)/g.groups)
	groups := (mp + rpg - 1) / rpg
	bw := 1
	for bw < jb {
		bw *= 2
	}
	buf, off, err := d.Buffer()
	if err != nil {
		return nil, err
	}
	ld := d.Stride()
	return launchOn[T](g.impl, q, wait, "getrf_grid", []int{groups * gridWG}, []int{gridWG},
		int32(mp), int32(jb), int32(bw), int32(rpg), buf, int64(off+j*ld+j), int32(ld), int32(j),
		piv.dev, info, g.syncs, int32(j/nb), int32(g.impl.gridSpin), g.xs, g.xi)
}

// failed reports, from the barriers, whether a launch failed (gridFailed).
func (g *gridLU[T]) failed() error { return gridFailed(g.impl, g.syncs, "getrf_grid") }

// gridUsable reports whether getrf_grid may run on impl's device: it
// takes work-groups of gridWG there, and a probe launch of one group a
// compute unit met at its barrier every time. Asked once.
func gridUsable[T float32 | float64](impl *Implementation) bool {
	switch impl.gridState.Load() {
	case gridYes:
		return true
	case gridNo:
		return false
	}
	ok, err := probeGrid[T](impl)
	if err != nil {
		impl.logger.Warn("cllapack: LU panels in one launch are off on this device", "err", err)
	}
	if ok {
		impl.gridState.CompareAndSwap(gridUnknown, gridYes)
	} else {
		impl.gridState.Store(gridNo)
	}
	return impl.gridState.Load() == gridYes
}

// probeGrid launches grid_probe over one work-group a compute unit and
// checks that every barrier was met.
func probeGrid[T float32 | float64](impl *Implementation) (bool, error) {
	rt := impl.blas.Runtime()
	for _, name := range []string{"getrf_grid", "grid_probe"} {
		impl.kmu.Lock()
		k, err := impl.kernel(kernelKey{name: name, pi: precIndex[T]()})
		var info cl.WorkGroupInfo
		if err == nil {
			info, err = k.WorkGroupInfo(rt.Device().CL())
		}
		impl.kmu.Unlock()
		if err != nil {
			return false, err
		}
		if info.WorkGroupSize < gridWG {
			return false, fmt.Errorf("%s takes work-groups of at most %d, not %d", name, info.WorkGroupSize, gridWG)
		}
	}
	groups := impl.gridGroups()
	sync, err := cl.NewArray[int32](rt.Context(), cl.MemReadWrite, 2)
	if err != nil {
		return false, err
	}
	defer sync.Release()
	xs, err := cl.NewArray[int32](rt.Context(), cl.MemReadWrite, 2*groups*gridWG)
	if err != nil {
		return false, err
	}
	defer xs.Release()
	if err := fillZero(impl, sync, 2); err != nil {
		return false, err
	}
	if err := launch[T](impl, "grid_probe", []int{groups * gridWG}, []int{gridWG},
		sync, int32(gridProbeRounds), int32(impl.gridSpin), xs); err != nil {
		return false, err
	}
	s := make([]int32, 2)
	if err := sync.Read(rt.Queue(), 0, s); err != nil {
		return false, err
	}
	switch {
	case s[0] == 2:
		return false, fmt.Errorf("grid_probe: %d groups met at the barrier but read stale values there", groups)
	case s[0] != 0 || int(s[1]) != gridProbeRounds*groups:
		return false, fmt.Errorf("grid_probe: %d groups met %d of %d times at the barrier", groups, s[1], gridProbeRounds*groups)
	}
	return true, nil
}

// fillZero enqueues the zeroing of the first n elements of x on the
// resident operations' queue.
func fillZero(impl *Implementation, x *cl.Array[int32], n int) error {
	ev, err := x.Fill(impl.blas.Runtime().Queue(), 0, 0, n)
	if err != nil {
		return err
	}
	return ev.Release()
}

// qrGrid is a QR factorization's geqrf_grid state: the barriers (two int32
// a panel, zero at the start) and the scratch of the published sums and
// rows.
type qrGrid[T float32 | float64] struct {
	impl   *Implementation
	syncs  *cl.Array[int32]
	xs     *cl.Array[T]
	groups int
}

// newQRGrid returns the geqrf_grid state for a QR of k = min(m, n)
// reflectors in panels nb wide, or nil when the panels take their leaves:
// off by setting (impl.gridQR), on a device that failed the probe, or for
// panels wider than geqrf_grid takes.
func newQRGrid[T float32 | float64](impl *Implementation, k, nb int) (*qrGrid[T], error) {
	if !impl.gridQR || nb > gridBMax || !gridUsable[T](impl) {
		return nil, nil
	}
	g := &qrGrid[T]{impl: impl, groups: impl.gridGroups()}
	ctx := impl.blas.Runtime().Context()
	panels := (k + nb - 1) / nb
	var err error
	if g.syncs, err = newGridSyncs(impl, panels); err == nil {
		// The groups' sums, the copies of row c and the totals, of two
		// parities each (geqrf_grid_total in kernels/lapack.cl).
		g.xs, err = cl.NewArray[T](ctx, cl.MemReadWrite, 2*g.groups*(nb+2)+2*nb+2*(nb+2))
	}
	if err != nil {
		g.release()
		return nil, fmt.Errorf("cllapack: geqrf_grid scratch: %w", err)
	}
	return g, nil
}

func (g *qrGrid[T]) release() error { return cmp.Or(releaseArray(g.syncs), releaseArray(g.xs)) }

// failed reports, from the barriers, whether a launch failed (gridFailed).
func (g *qrGrid[T]) failed() error { return gridFailed(g.impl, g.syncs, "geqrf_grid") }

// gridFailed reads the barriers syncs (two int32 a panel) of a
// factorization's launches of kernel name back and reports an error if
// any gave up (its panel, and so the factorization, is then wrong), and
// marks impl's device as one whose grid launches are off from now on.
func gridFailed(impl *Implementation, syncs *cl.Array[int32], name string) error {
	s := make([]int32, syncs.Len())
	if err := syncs.Read(impl.blas.Runtime().Queue(), 0, s); err != nil {
		return fmt.Errorf("cllapack: %s: reading its barriers: %w", name, err)
	}
	for p := 0; p < len(s); p += 2 {
		if s[p] != 0 {
			impl.gridState.Store(gridNo)
			why := "did not run together"
			if s[p] == 3 {
				why = "read a pivot row outside the panel"
			}
			return fmt.Errorf("cllapack: %s: the work-groups of panel %d %s", name, p/2, why)
		}
	}
	return nil
}

// releaseArray releases a unless it is nil.
func releaseArray[T cl.Scalar](a *cl.Array[T]) error {
	if a == nil {
		return nil
	}
	return a.Release()
}
