// Package cllapack is gonum's lapack.Float64 with its factorizations on an
// OpenCL device: it embeds gonum's own implementation, so every routine
// keeps working, and overrides those it runs on the device.
//
// Switching a program over takes one line beside the BLAS's:
//
//	b, err := clblas.New(); blas64.Use(b)
//	l, err := cllapack.New(b); lapack64.Use(l)
//
// On the device now: Dpotrf, Dgetrf and Dgeqrf, the solves Dpotrs, Dgetrs
// and Dtrtrs, and Dormqr (side Left) and Dorgqr. The matrix is uploaded
// once and read back once; the factorizations are blocked and
// right-looking and every step runs on the device, so that the host never
// waits for it until the end: the diagonal blocks of Cholesky are
// factorised and inverted in one work-group (potf2_inv), the LU and QR
// panels are split into narrow leaves factorised in one work-group each
// (getf2_leaf, geqr2_leaf: gonum's Dgetf2 and Dgeqr2) and joined by GEMMs
// (on NVIDIA's GPUs an LU or QR panel is instead one getrf_grid or
// geqrf_grid launch over the compute units), and the triangular solves and trailing updates are GEMMs
// on the resident matrix (kernels/lapack.cl holds the kernels). On a
// discrete GPU a matrix from a Go slice moves through a pinned buffer the
// Implementation keeps until Close. The condition
// estimates gonum's mat types make after each factorization, Dgecon,
// Dpocon and Dtrcon, stay on the CPU but solve by rows first (gonum's
// robust solves walk the factor's columns, slower at large orders than
// the factorization on a GPU), split across goroutines at large orders,
// with gonum's answers to rounding; the norms mat takes beside them,
// Dlange, Dlansy and Dlantr, split their sums across goroutines too, with
// gonum's answers bit for bit. Everything else is gonum's code.
//
// Matrices already in device memory (float32 or float64) factorise in
// place with Potrf, Getrf and Geqrf; Getrs and Potrs solve with those
// factors on the device and Ormqr multiplies by Q or Qᵀ, returning an
// event.
//
// Every routine keeps gonum's contract: bad arguments panic with gonum's
// messages in gonum's order (they are forwarded to gonum's routine), a
// matrix that is not positive definite makes Dpotrf return false, a
// singular one makes Dgetrf return false, and pivots are in gonum's
// zero-based format. A device failure is logged once per routine and the
// call is finished by gonum's code on the caller's original data, so it
// never yields a wrong answer.
package cllapack

import (
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"

	clblas "github.com/gocompute/opencl/blas"
	"github.com/gocompute/opencl/cl"
)

// Implementation is gonum's lapack.Float64 with the routines listed in the
// package documentation run on the device of a clblas.Implementation. Its
// methods are safe for concurrent use. Close releases its device objects.
type Implementation struct {
	gonum.Implementation

	blas      *clblas.Implementation
	policy    clblas.Policy
	nb        int
	crossover int
	// qrCrossover is crossover for QR (Dgeqrf, Dorgqr), which gains
	// less from a CPU device than LU and Cholesky do (deviceDefaults).
	qrCrossover int
	logger      *slog.Logger
	// buildOpts, if set, is added to every program's build options
	// (tests that run the GPUs' kernels on a CPU device: "-cl-opt-disable",
	// which PoCL builds many times faster).
	buildOpts string

	mu     sync.Mutex
	logged map[string]bool

	kmu     sync.Mutex // guards kerns, kernErr, luFit and launches of lapack.cl's kernels
	kerns   map[kernelKey]*cl.Kernel
	kernErr map[kernelKey]error
	// luFit maps a getf2_leaf key to the one fitLUGroup settled on for it.
	luFit  map[kernelKey]kernelKey
	closed bool

	// stats counts what the factorizations enqueue (benchmarks report it).
	stats stats
	// slab is the height of the block rows (Upper) or width of the block
	// columns (Lower) in which Potrf updates the trailing matrix (tests
	// make it small).
	slab int
	// leaf is the widest panel getrfDevice factorises in one getf2_leaf
	// launch (≤ luBMax); hostPanel sends LU panels to the CPU instead
	// (getrfHost; benchmarks compare the two).
	leaf      int
	hostPanel bool
	// condDevice (a GPU's default) solves the condition estimates'
	// triangular systems (Dgecon, Dpocon, Dtrcon) on the device from
	// condDeviceMin on (conddevice.go).
	condDevice bool
	// hostLU sends LU's panels (only) to the CPU, as hostPanel does (a
	// CPU device's default: there gonum's Dgetf2 on the host beats the
	// one-work-group leaves, which run on one core too).
	hostLU bool
	// laswpRows applies LU's row interchanges with laswp_rows, each
	// work-item a run of columns through every interchange in turn,
	// instead of laswp's permutation a work-group (a CPU device's
	// default).
	laswpRows bool
	// luWG is getf2_leaf's work-group size (a power of two).
	luWG int
	// luCoal builds getf2_leaf with neighbouring work-items on the columns
	// of one row (LU_BW, leaves up to 32 wide) instead of a row each: on
	// a GPU each load of the row-wise update otherwise touches a cache
	// line per work-item.
	luCoal bool
	// gridLU factorises LU's panels in one getrf_grid launch across
	// work-groups (getrf_grid.go) on devices where the probe passes,
	// instead of panelLU's recursion of one-work-group leaves.
	gridLU bool
	// gridQR does the same for QR's panels (geqrf_grid), with groups of at
	// least gridQRRows rows. Launches of gridQRSplit groups or more add
	// each of a column's sums over the groups in one group and meet at a
	// second grid barrier; with fewer, every group adds all the groups'
	// sums, so fewer groups each with more rows pay less there.
	gridQR      bool
	gridQRRows  int
	gridQRSplit int
	// gridQROne lets geqrf_grid load a group's rows in one batch of 16 a
	// work-item where 8 would take two (qrGridOneBatch).
	gridQROne bool
	// gridState records the probe's answer (gridUnknown, gridYes, gridNo).
	gridState atomic.Int32
	// gridSpin is how many polls a grid barrier waits, gridRows the
	// fewest rows a group of getrf_grid takes and gridMax the most groups
	// a launch takes (0: a compute unit each); tests lower them.
	gridSpin, gridRows, gridMax int
	// gridShfl makes getrf_grid's reductions of pivot candidates within a
	// work-group warp shuffles (GRID_SHFL: PTX, NVIDIA's GPUs only).
	gridShfl bool
	// gridTimes, when set (benchmarks, NVIDIA's GPUs), makes the grid
	// kernels named in it GRID_TIMING builds, which add their phases'
	// cycles to the array given (BenchmarkGridPhases).
	gridTimes map[string]*cl.Array[float64]
	// gridPoison, when > 0, starts panel gridPoison−1's barrier failed
	// (tests of the way back from a failed grid launch).
	gridPoison int
	// qrLeaf is the width of the QR panel's leaves (≤ qrBMax): a wider
	// leaf moves more data through its one work-group, and takes fewer
	// launches (a leaf's reflectors reach the rest of the panel by three
	// GEMMs).
	qrLeaf int
	// hostDiag makes Potrf factorise its diagonal blocks on the CPU
	// (potrfRun.run) instead of on the device (runDevice); benchmarks
	// compare the two.
	hostDiag bool
	// hostBand makes Dpotrf (from a Go slice) restore the triangle it must
	// not touch from its host copy of the matrix after reading the factor
	// back, instead of saving and restoring the band on the device
	// (tri_band): one work-item per element is slow on a CPU device.
	hostBand bool
	// reuse keeps the device matrices of the calls from Go slices for the
	// next call of the same shape (newScratch) instead of releasing them.
	reuse bool
	// padRows makes the rows of newScratch's matrices a cache line longer
	// where a row is a whole number of 4 KiB pages (rowPad; a CPU
	// device's default).
	padRows bool
	pmu     sync.Mutex // guards pool, pbytes and pclosed
	pool    map[poolKey][]any
	pbytes  int // bytes held in pool
	pclosed bool
	// potfRegs builds potf2_inv with its block in registers (POTF_REGS;
	// blocks up to potfMax() wide): a GPU's default (gpuDefaults).
	potfRegs bool
	// potfG is the side of potf2_inv's grid of work-items with potfRegs
	// (0: potfGridDefault).
	potfG int
	// ahead makes Potrf factorise each diagonal block on a second queue
	// (q2) while the main queue finishes the previous step's trailing
	// update (look-ahead).
	ahead bool
	// rowAheadMin is the least order at which ahead's look-ahead also
	// runs between the steps inside a block row (below it, between block
	// rows only).
	rowAheadMin int
	// luAhead does the same for LU's getrf_grid panels: each step updates
	// the next panel's columns first, and the panel is factorised on q2
	// while the main queue updates the rest.
	luAhead bool
	// luOuter, when above the block size, is the width of LU's column
	// blocks whose trailing update is one step (k = luOuter), the block's
	// own panels updated left-looking (getrfDevice; not with luAhead).
	luOuter int
	// qrAhead does the same for QR's geqrf_grid panels, into a second V
	// and T.
	qrAhead bool
	q2      *cl.Queue // guarded by kmu
	// luNB, when > 0, is the block size of LU with host panels (getrfHost)
	// instead of nb (set by deviceDefaults for CPU devices).
	luNB int
	// potrfNB, when > 0, is Potrf's block size instead of nb (set by
	// deviceDefaults; WithBlockSize sets every routine's).
	potrfNB int
	// potrfOuter, when above Potrf's block size, is the height of the
	// block rows whose trailing update is one GEMM step (k = potrfOuter):
	// runDevice factorises each block row in steps of the block size
	// first (factorRow).
	potrfOuter int
	// gridPotrf factorises each of Potrf's block rows in one potrf_row
	// launch across the compute units (potrf_grid.go), in block rows
	// potrfRowH high, each first updated by the rows above it
	// (left-looking), where the grid probe passes.
	gridPotrf bool
	potrfRowH int
	// potrfRowSub, when above zero and below potrfRowH, splits each block
	// row into potrf_row launches potrfRowSub high (rounded down to whole
	// steps), each followed by one GEMM that updates the rest of the block
	// row from it (right-looking inside the block row): the products below
	// a launch's steps then run on the GEMM's tiles instead of potrf_row's.
	potrfRowSub int
	// potrfWide, when its min is above zero, replaces potrfRowH and
	// potrfRowSub from order min on.
	potrfWide potrfShape

	// stageIO moves the matrices of calls from Go slices through a kept
	// pinned buffer, stg (staging.go): on discrete GPUs.
	stageIO bool
	// newPinned, when set (tests), allocates the pinned buffer in place
	// of clblas.NewHostSlice.
	newPinned func(n int) (*clblas.HostSlice[float64], error)
	stg       stager

	// prof, when set (benchmarks and their tests only, before any call),
	// profiles the commands the factorizations enqueue.
	prof *profiler

	// onDevice counts the calls finished on the device (tests check that
	// the device path ran).
	onDevice atomic.Int64
}

var _ lapack.Float64 = (*Implementation)(nil)

const (
	// defaultNB is the block size: the panel width and the inner
	// dimension of the trailing updates.
	defaultNB = 128
	// defaultSlab is Potrf's slab (Implementation.slab): each slab's
	// update is one GEMM that also computes the slab's diagonal square in
	// full, so the slab trades launches per step against extra flops
	// (slab/r of the update of an r×r trailing matrix).
	defaultSlab = 1024
	// defaultLeaf is the LU panel width factorised by one work-group:
	// a narrower leaf moves less data through that one compute unit, a
	// wider one takes fewer launches.
	defaultLeaf = 16
	// defaultLUWG is getf2_leaf's work-group size: every OpenCL GPU
	// takes 256 work-items in a group.
	defaultLUWG = 256
	// defaultQRLeaf is the QR leaf width.
	defaultQRLeaf = 8
	// defaultRowAheadMin is rowAheadMin: inside a block row each step's
	// look-ahead costs two waits between the queues, which pay only where
	// the rest of the block row's update is long enough to hide potf2_inv
	// behind (the H200's measurements in BENCHMARKS.md).
	defaultRowAheadMin = 8192
	// defaultCrossover is the order below which Auto leaves a call to
	// gonum: a small factorization is dominated by transfers and launches.
	defaultCrossover = 512
)

type config struct {
	policy    *clblas.Policy
	nb        int
	nbSet     bool
	crossover int
	// crossoverSet says WithCrossover chose the crossover, for every
	// routine: deviceDefaults leaves it alone.
	crossoverSet bool
	logger       *slog.Logger
}

// Option configures New.
type Option func(*config) error

// WithOffload sets which calls go to the device: clblas.Always (every call
// with arguments gonum accepts and a non-empty matrix; tests use it),
// clblas.Never (gonum's code) or clblas.Auto (orders at or above the
// crossover). Without it the BLAS implementation's policy is used.
func WithOffload(p clblas.Policy) Option {
	return func(c *config) error {
		switch p {
		case clblas.Auto, clblas.Always, clblas.Never:
		default:
			return fmt.Errorf("cllapack: invalid offload policy %d", int(p))
		}
		c.policy = &p
		return nil
	}
}

// WithBlockSize sets the panel width nb (≥ 1) of the blocked
// factorizations.
func WithBlockSize(nb int) Option {
	return func(c *config) error {
		if nb < 1 {
			return fmt.Errorf("cllapack: invalid block size %d (want ≥ 1)", nb)
		}
		c.nb, c.nbSet = nb, true
		return nil
	}
}

// WithCrossover sets the order n (≥ 1) from which the Auto policy sends a
// factorization to the device.
func WithCrossover(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("cllapack: invalid crossover %d (want ≥ 1)", n)
		}
		c.crossover, c.crossoverSet = n, true
		return nil
	}
}

// WithLogger sets where device failures are logged (default slog.Default()).
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error {
		if l == nil {
			return fmt.Errorf("cllapack: nil logger")
		}
		c.logger = l
		return nil
	}
}

// New returns an Implementation that runs its device routines through b,
// which must stay open while the Implementation is used.
func New(b *clblas.Implementation, opts ...Option) (*Implementation, error) {
	if b == nil {
		return nil, fmt.Errorf("cllapack: New: nil BLAS implementation")
	}
	c := config{nb: defaultNB, crossover: defaultCrossover}
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	p := b.Policy()
	if c.policy != nil {
		p = *c.policy
	}
	if c.logger == nil {
		c.logger = slog.Default()
	}
	impl := &Implementation{
		blas:        b,
		policy:      p,
		nb:          c.nb,
		crossover:   c.crossover,
		qrCrossover: c.crossover,
		logger:      c.logger,
		logged:      make(map[string]bool),
		kerns:       make(map[kernelKey]*cl.Kernel),
		kernErr:     make(map[kernelKey]error),
		slab:        defaultSlab,
		leaf:        defaultLeaf,
		luWG:        defaultLUWG,
		qrLeaf:      defaultQRLeaf,
		gridSpin:    gridSpin,
		gridRows:    gridMinRows,
		gridQRRows:  gridQRMinRows,
		gridQRSplit: gridQRSplitGroups,
		gridQROne:   true,
		rowAheadMin: defaultRowAheadMin,
		potrfRowH:   defaultPotrfRowH,
	}
	impl.deviceDefaults(c.nbSet, c.crossoverSet)
	return impl, nil
}

// Close releases the device objects the Implementation made (not the
// BLAS implementation it runs on). Calls after Close are not allowed.
func (impl *Implementation) Close() error {
	impl.kmu.Lock()
	defer impl.kmu.Unlock()
	var err error
	for key, k := range impl.kerns {
		if rerr := k.Release(); rerr != nil && err == nil {
			err = rerr
		}
		delete(impl.kerns, key)
	}
	if impl.q2 != nil {
		for _, rerr := range []error{impl.q2.Finish(), impl.q2.Release()} {
			if rerr != nil && err == nil {
				err = rerr
			}
		}
		impl.q2 = nil
	}
	impl.closed = true
	if perr := impl.closePool(); perr != nil && err == nil {
		err = perr
	}
	if serr := impl.closeStager(); serr != nil && err == nil {
		err = serr
	}
	return err
}

// Policy returns the offload policy in force.
func (impl *Implementation) Policy() clblas.Policy { return impl.policy }

// offload reports whether an LU or Cholesky factorization of order n goes
// to the device.
func (impl *Implementation) offload(n int) bool {
	return impl.offloadFrom(n, impl.crossover)
}

// offloadQR reports whether a QR factorization (or forming its Q) of
// order n goes to the device.
func (impl *Implementation) offloadQR(n int) bool {
	return impl.offloadFrom(n, impl.qrCrossover)
}

// offloadFrom reports whether a call of order n goes to the device when
// Auto sends it there from order crossover on.
func (impl *Implementation) offloadFrom(n, crossover int) bool {
	switch impl.policy {
	case clblas.Always:
		return true
	case clblas.Auto:
		return n >= crossover
	}
	return false
}

// fellBack logs, once per routine, that a device call failed and is being
// finished on the CPU.
func (impl *Implementation) fellBack(routine string, err error) {
	impl.mu.Lock()
	seen := impl.logged[routine]
	impl.logged[routine] = true
	impl.mu.Unlock()
	if !seen {
		impl.logger.Warn("cllapack: device call failed; finished on the CPU",
			"routine", routine, "err", err)
	}
}
