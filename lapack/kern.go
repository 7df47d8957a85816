package cllapack

import (
	"fmt"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/kernels"
	"github.com/gocompute/opencl/platform"

	clblas "github.com/gocompute/opencl/blas"
)

// kernelKey names a kernel of kernels/lapack.cl in one precision
// (precIndex), built with getf2_leaf's work-group size wg (LU_WG) when
// wg > 0, else with the source's default.
type kernelKey struct {
	name   string
	pi, wg int
	luBW   int  // LU_BW (getf2_leaf) when > 0
	regs   bool // POTF_REGS (potf2_inv)
	potfT  int  // POTF_T, with regs
	potfG  int  // POTF_G, with regs
	qrB    int  // QR_B (geqr2_leaf) when > 0
	split  bool // GRID_QR_SPLIT (geqrf_grid)
	crows  int  // GRID_CROWS (geqrf_grid) when > 0
	shfl   bool // GRID_SHFL (getrf_grid)
	timing bool // GRID_TIMING (getrf_grid, geqrf_grid)
}

// geqrfGridSplit names geqrf_grid built with GRID_QR_SPLIT for launchOn
// (and the profile): the variant is a build of its own, not a kernel
// argument, because PoCL miscompiles barriers under a branch on one.
// geqrfGridOne and geqrfGridSplitOne are those two built to load 16 rows
// at once (qrGridOneBatch).
const (
	geqrfGridSplit    = "geqrf_grid (split)"
	geqrfGridOne      = "geqrf_grid (16 rows)"
	geqrfGridSplitOne = "geqrf_grid (split, 16 rows)"
)

// geqrfGridName names the build of geqrf_grid for launchOn: split adds
// each sum over the groups in one group (GRID_QR_SPLIT), one loads 16
// rows at once (GRID_CROWS=16).
func geqrfGridName(split, one bool) string {
	switch {
	case split && one:
		return geqrfGridSplitOne
	case split:
		return geqrfGridSplit
	case one:
		return geqrfGridOne
	}
	return "geqrf_grid"
}

// qrGridOneBatch reports whether geqrf_grid's groups of rpg rows, for
// panels whose width rounds up to bw, load their rows in one batch of 16
// rows a work-item where 8 would take two: on the H200 one batch paid less
// than two at 32 rows a group, while 16 rows at 63 rows a group (two
// batches instead of four), and in getrf_grid, cost more (BENCHMARKS.md,
// "Figures behind the code's choices").
func qrGridOneBatch(rpg, bw int) bool {
	rg := gridWG / bw // row lanes of a group
	return rpg > 8*rg && rpg <= 16*rg
}

// kernel returns the kernel k, built on first use. The caller holds
// impl.kmu, which also serialises its launches (a kernel's arguments are
// shared state).
func (impl *Implementation) kernel(k kernelKey) (*cl.Kernel, error) {
	if impl.closed {
		return nil, fmt.Errorf("cllapack: Implementation closed")
	}
	if kern, ok := impl.kerns[k]; ok {
		return kern, nil
	}
	if err, ok := impl.kernErr[k]; ok {
		return nil, err
	}
	srcs, err := kernels.Program("lapack.cl")
	var kern *cl.Kernel
	if err == nil {
		opts := fmt.Sprintf("-DPRECISION=%d", 32+32*k.pi)
		if k.wg > 0 {
			opts += fmt.Sprintf(" -DLU_WG=%d", k.wg)
		}
		if k.luBW > 0 {
			opts += fmt.Sprintf(" -DLU_BW=%d", k.luBW)
		}
		if k.qrB > 0 {
			opts += fmt.Sprintf(" -DQR_B=%d", k.qrB)
		}
		if k.split {
			opts += " -DGRID_QR_SPLIT=1"
		}
		if k.crows > 0 {
			opts += fmt.Sprintf(" -DGRID_CROWS=%d", k.crows)
		}
		if k.shfl {
			opts += " -DGRID_SHFL=1"
		}
		if k.timing {
			opts += " -DGRID_TIMING=1"
		}
		if k.regs {
			opts += fmt.Sprintf(" -DPOTF_REGS=1 -DPOTF_T=%d -DPOTF_G=%d", k.potfT, k.potfG)
		}
		if impl.blas.Runtime().Device().Profile().Vendor == platform.VendorNVIDIA {
			// The grid kernels read published values with PTX loads
			// (grid_ld in kernels/lapack.cl).
			opts += " -DGRID_CG=1"
		}
		if impl.buildOpts != "" {
			opts += " " + impl.buildOpts
		}
		kern, err = impl.blas.Runtime().Kernel(srcs, opts, k.name)
	}
	if err != nil {
		err = fmt.Errorf("cllapack: building %s: %w", k.name, err)
		impl.kernErr[k] = err
		return nil, err
	}
	impl.kerns[k] = kern
	return kern, nil
}

// fitLUGroup returns getf2_leaf built for a work-group the device takes
// for it: a group of LU_WG work-items that needs more registers than a
// compute unit has fails to launch (CL_OUT_OF_RESOURCES), so k, built with
// key, is rebuilt for the largest power of two within the kernel's limit
// when LU_WG exceeds it. The answer is kept per key, so that the driver is
// asked once, not on every launch. The caller holds impl.kmu.
func (impl *Implementation) fitLUGroup(k *cl.Kernel, key kernelKey) (*cl.Kernel, kernelKey, error) {
	if fit, ok := impl.luFit[key]; ok {
		if fit == key {
			return k, key, nil
		}
		k, err := impl.kernel(fit)
		return k, fit, err
	}
	fk, fit, err := impl.fitLUGroupOnce(k, key)
	if err == nil {
		if impl.luFit == nil {
			impl.luFit = make(map[kernelKey]kernelKey)
		}
		impl.luFit[key] = fit
	}
	return fk, fit, err
}

// fitLUGroupOnce is fitLUGroup asking the driver.
func (impl *Implementation) fitLUGroupOnce(k *cl.Kernel, key kernelKey) (*cl.Kernel, kernelKey, error) {
	wg := defaultLUWG
	if key.wg > 0 {
		wg = key.wg
	}
	info, err := k.WorkGroupInfo(impl.blas.Runtime().Device().CL())
	if err != nil {
		return nil, key, fmt.Errorf("cllapack: getf2_leaf: %w", err)
	}
	if info.WorkGroupSize >= wg {
		return k, key, nil
	}
	fit := 1
	for fit*2 <= info.WorkGroupSize {
		fit *= 2
	}
	key.wg = fit
	if key.luBW > fit {
		key.luBW = 0 // too few work-items to share rows: a row each
	}
	k, err = impl.kernel(key)
	return k, key, err
}

// elemLocal is the work-group shape of the kernels with a work-item per
// element of a matrix (tri_band, copy_ok), whose global sizes are rounded
// up to it. Left to the driver, a global size such as 1023 = 3·11·31 gets
// groups of a few work-items on NVIDIA's, and the kernel runs a hundred
// times slower than the bytes it moves allow.
var elemLocal = []int{64, 4}

// launch enqueues the lapack.cl kernel name for T on the resident
// operations' queue, so that it runs in order with them.
func launch[T float32 | float64](impl *Implementation, name string, global, local []int, args ...any) error {
	ev, err := launchOn[T](impl, nil, nil, name, global, local, args...)
	if err != nil {
		return err
	}
	return ev.Release()
}

// launchOn enqueues the lapack.cl kernel name for T on q (nil: the
// resident operations' queue) after the events of wait, and returns its
// event, which the caller releases.
func launchOn[T float32 | float64](impl *Implementation, q *cl.Queue, wait []*cl.Event, name string, global, local []int, args ...any) (*cl.Event, error) {
	t0 := time.Now()
	impl.kmu.Lock()
	defer impl.kmu.Unlock()
	key := kernelKey{name: name, pi: precIndex[T]()}
	switch name {
	case geqrfGridSplit, geqrfGridOne, geqrfGridSplitOne:
		key.name = "geqrf_grid"
		key.split = name != geqrfGridOne
		if name != geqrfGridSplit {
			key.crows = 16
		}
	}
	if name == "getf2_leaf" && impl.luWG != defaultLUWG {
		// Only getf2_leaf depends on LU_WG: the other kernels keep the
		// one program built without it.
		key.wg = impl.luWG
	}
	if name == "getf2_leaf" {
		key.luBW = impl.luBW()
	}
	if name == "geqr2_leaf" {
		// Wider leaves take a build of their own; the default keeps
		// geqr2_leaf in the one program of the other kernels.
		key.qrB = qrBuild(impl.qrLeaf)
	}
	if name == "getrf_grid" {
		key.shfl = impl.gridShfl
	}
	if t := impl.gridTimes[key.name]; t != nil {
		key.timing = true
		args = append(args[:len(args):len(args)], t)
	}
	key.regs = (name == "potf2_inv" || name == "potrf_row") && impl.potfRegs
	if key.regs {
		key.potfG = impl.potfGrid()
		key.potfT = potfT(impl.potrfBlock(), key.potfG)
	}
	kern, err := impl.kernel(key)
	if err != nil {
		return nil, err
	}
	if name == "getf2_leaf" {
		if kern, key, err = impl.fitLUGroup(kern, key); err != nil {
			return nil, err
		}
		wg := defaultLUWG
		if key.wg > 0 {
			wg = key.wg
		}
		global, local = []int{wg}, []int{wg}
	}
	main := q == nil
	if main {
		q = impl.blas.Runtime().Queue()
	}
	ev, err := q.LaunchAfter(wait, kern, global, local, args...)
	if err != nil {
		return nil, fmt.Errorf("cllapack: %s: %w", name, err)
	}
	impl.stats.launches.Add(1)
	if main {
		impl.profileCmd(t0, name)
	}
	return ev, nil
}

// aheadQueue returns the second in-order queue on which look-ahead runs
// the next step's first command (Potrf's diagonal block, QR's and, as an
// option, LU's panel) while the main queue finishes the trailing update
// (created on first use, released by Close).
func (impl *Implementation) aheadQueue() (*cl.Queue, error) {
	impl.kmu.Lock()
	defer impl.kmu.Unlock()
	if impl.closed {
		return nil, fmt.Errorf("cllapack: Implementation closed")
	}
	if impl.q2 == nil {
		q, err := impl.blas.Runtime().NewQueue(0)
		if err != nil {
			return nil, fmt.Errorf("cllapack: look-ahead queue: %w", err)
		}
		impl.q2 = q
	}
	return impl.q2, nil
}

// stats counts what the device factorizations enqueue, so that a benchmark
// can report per factorization how many commands reach the device and how
// many bytes cross the bus (the costs that bound a factorization at small
// and middle orders on a discrete GPU).
type stats struct {
	launches  atomic.Int64 // kernels (one per Gemm call and per lapack.cl launch)
	copies    atomic.Int64 // device-side copies
	transfers atomic.Int64 // host↔device reads and writes
	bytes     atomic.Int64 // bytes of those reads and writes
	ahead     atomic.Int64 // diagonal blocks factorised on the look-ahead queue (Potrf)
	rows      atomic.Int64 // block rows factorised by potrf_row (Potrf)
}

// gemm is clblas.Gemm, counted.
func gemm[T float32 | float64](impl *Implementation, tA, tB blas.Transpose, alpha T, a, b *clblas.Matrix[T], beta T, c *clblas.Matrix[T]) error {
	impl.stats.launches.Add(1)
	t0 := time.Now()
	_, err := clblas.Gemm(tA, tB, alpha, a, b, beta, c)
	if err == nil {
		ar, ac := a.Dims()
		m, n := c.Dims()
		impl.profileGemm(t0, tA, ar, ac, m, n)
	}
	return err
}

// elemBytes is the size of T in bytes.
func elemBytes[T float32 | float64]() int64 { return int64(4 + 4*precIndex[T]()) }

// readAsync is m.ReadAsync, counted.
func readAsync[T float32 | float64](impl *Implementation, m *clblas.Matrix[T], dst []T) (*clblas.Event, error) {
	r, c := m.Dims()
	impl.stats.transfers.Add(1)
	impl.stats.bytes.Add(int64(r*c) * elemBytes[T]())
	return m.ReadAsync(dst)
}

// write is m.Write, counted.
func write[T float32 | float64](impl *Implementation, m *clblas.Matrix[T], src []T) (*clblas.Event, error) {
	r, c := m.Dims()
	impl.stats.transfers.Add(1)
	impl.stats.bytes.Add(int64(r*c) * elemBytes[T]())
	return m.Write(src)
}

// copyMatrix enqueues the device-side copy of src into dst (same shape) on
// the resident operations' queue.
func copyMatrix[T float32 | float64](impl *Implementation, src, dst *clblas.Matrix[T]) error {
	sb, so, err := src.Buffer()
	if err != nil {
		return err
	}
	db, do, err := dst.Buffer()
	if err != nil {
		return err
	}
	r, c := src.Dims()
	ss, ds := src.Stride(), dst.Stride()
	rect := cl.Rect{
		BufferOrigin:   [3]int{so % ss, so / ss, 0},
		HostOrigin:     [3]int{do % ds, do / ds, 0},
		Region:         [3]int{c, r, 1},
		BufferRowPitch: ss,
		HostRowPitch:   ds,
	}
	t0 := time.Now()
	ev, err := cl.CopyBufferRect[T](impl.blas.Runtime().Queue(), sb, db, rect)
	if err != nil {
		return fmt.Errorf("cllapack: copy: %w", err)
	}
	impl.stats.copies.Add(1)
	err = ev.Release()
	impl.profileCmd(t0, "copy")
	return err
}

// counts is a snapshot of stats.
type counts struct {
	launches, copies, transfers, bytes int64
}

// counts returns the counters' values now.
func (impl *Implementation) counts() counts {
	s := &impl.stats
	return counts{s.launches.Load(), s.copies.Load(), s.transfers.Load(), s.bytes.Load()}
}

// sub returns c − o.
func (c counts) sub(o counts) counts {
	return counts{c.launches - o.launches, c.copies - o.copies, c.transfers - o.transfers, c.bytes - o.bytes}
}
