package engine

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/internal/gemm"
	"github.com/gocompute/opencl/internal/settings"
	"github.com/gocompute/opencl/kernels"
	"github.com/gocompute/opencl/platform"
)

// Engine is the OpenCL half of the implementation: one runtime (context,
// queue, program cache) on one device, pools of device buffers and of
// kernel objects, and the plumbing every device routine uses. It is safe
// for concurrent use: each call takes its own buffers and kernel objects
// from the pools and enqueues on the runtime's in-order queue.
type Engine struct {
	RT     *platform.Runtime
	ownsRT bool
	Prof   platform.Profile
	Tensor gemm.Tensor // GEMM's tensor-core mode (WithTensorCores or GOCL_TENSOR)
	Tuning *gemm.DB    // GEMM's tuning database (WithGemmTuning or GOCL_GEMM_TUNING)
	Queue  *cl.Queue

	// L2Portable keeps level 2 on its general kernels on a CPU device too
	// (tests: those kernels serve GPUs, and CI has only PoCL).
	L2Portable bool
	// BuildOptions, if set, is added to every program's build options
	// (tests that build many configurations: "-cl-opt-disable", which
	// PoCL builds many times faster). Set it before the first call.
	BuildOptions string
	// L2SolveNB, if positive, is the sub-block order of the blocked
	// triangular solves (tests: many blocks at small n); 0 derives it
	// from the device (L2SolveBlock). L2SolveLaunch, if positive, is the
	// number of sub-blocks per launch and L2SolveGroups the most
	// work-groups of a launch (measurements); 0 takes the defaults
	// (trsv_blocked.go).
	// L2SolveSplit, if positive, has them take the split schedule
	// (svRunSplit) with launch blocks of about that many positions, each
	// solved once by one work-group before a wide update (measurements:
	// off the flow schedule, the default is still the one that solves
	// every block again in each work-group of its update).
	// L2SolveFlow chooses the flow schedule (svRunFlow: every sub-block
	// in one launch, work-groups waiting for each other's published x):
	// SolveFlowAuto takes it on NVIDIA's GPUs only (svFlow), SolveFlowOn
	// and SolveFlowOff force it on or off (tests, measurements);
	// L2SolveSplit overrides it; L2SolveGroups caps its work-groups. On
	// CPU devices it chooses tri_solve_flow and ztri_solve_flow the same
	// way, its default there the tuning entry's OneLaunchL2
	// (cpuSolveFlowGroups).
	// L2SolveFlowSpin, if positive, replaces the polls a wait makes
	// before the launch gives up (svFlowSpin), and
	// L2SolveFlowPoison, if positive, fails the launch at sub-block
	// L2SolveFlowPoison−1 (tests of the rescue).
	L2SolveNB         int
	L2SolveLaunch     int
	L2SolveGroups     int
	L2SolveSplit      int
	L2SolveFlow       SolveFlow
	L2SolveFlowSpin   int
	L2SolveFlowPoison int
	L2SplitSolves     atomic.Int64 // solves enqueued on the split schedule (tests)
	L2FlowSolves      atomic.Int64 // solves enqueued on the flow schedule (tests)
	// ZeroCopy is GOCL_ZERO_COPY's choice for hostShared (tests set
	// eng.ZeroCopyOff to run the copying path, which devices with memory of
	// their own take).
	ZeroCopy ZeroCopy

	Buffers BufferPool

	// Transfers of host slices (transfer.go, gemm_pipeline.go): pinned
	// staging buffers, the pipeline's queues, the pipeline policy and its
	// time accounting.
	Pinned     PinnedPool
	Slots      SlotPool   // pinned result slots of resident reductions (slots.go)
	HostSlices HostSlices // live HostSlices (hostslice.go)
	Pipe       PipeQueues
	PipeMode   settings.Pipeline
	Xfer       XferCounters

	Kernels KernelPool   // free kernel objects by spec key
	specs   SpecCache    // specs of the kernels without extra defines
	l1      l1Shapes     // level 1 shapes (l1shape_set.go)
	l1t     l1Tickets    // the one-pass reductions' counter (l1ticket.go)
	gtt     pieceTickets // the one-launch transposed products' counters (l1ticket.go)
	resq    resQueue     // the queue of result reads apart (slots_apart.go)

	// L3Route chooses how symm, syrk, syr2k and trmm run
	// (device_level3.go): l3Auto by size, or always l3Direct / l3ViaGemm
	// (tests); l3Block, when set, replaces trmm's block size (tests).
	L3Route L3RouteMode
	// L2Slab, when set (tests), replaces the size in bytes of the chunks in
	// which level 2 streams its matrix from host slices (l2_pipe.go);
	// L2Piece and L2Workers, when set (benchmarks), replace the most bytes
	// of one host copy and the number of copying goroutines; L2Share,
	// when positive, has GEMV and GER from slices computed partly on the
	// host, with L2Share-1 goroutines taking host rows first (l2_share.go;
	// New sets defaultL2Share() on devices that stream level 2, unless
	// GOCL_L2_SHARE=off).
	L2Slab       int
	L2Piece      int
	L2Workers    int
	L2Share      int
	L2WholeRows  bool         // SYMV and TRMV upload whole rows, not their triangle (benchmarks)
	L2StagedRuns atomic.Int64 // GEMV calls that streamed their matrix (tests)
	L2DirectRuns atomic.Int64 // those whose matrix lay in a HostSlice (tests)
	L2HostRows   atomic.Int64 // rows of those the host computed (L2Share; tests)
	L3Block      int
	L3ViaGemm    atomic.Int64 // calls that took the GEMM route (tests)
	// CPUTransposeWork, when positive (tests), replaces cpuTransposeWork:
	// the least m·n·k of a GEMM on gemm_cpu whose transposed operands are
	// copied untransposed (GemmLauncher.launch).
	CPUTransposeWork int
	CPUTransposed    atomic.Int64 // operands so copied (tests)
	// ZMethod is complex GEMM's method (GOCL_COMPLEX_GEMM; tests and
	// measurements set it too): ZAuto lets Engine.zMethod choose.
	ZMethod ZMethod
	// Z3MSeq (measurements) runs the 3M method's three real GEMMs one
	// after another instead of as one batched launch (zgemm3M).
	Z3MSeq bool
	// ZExpandB says whether the 4M method packs B or lets the GEMM kernel
	// expand the complex B itself (zgemmFused); tests and measurements
	// force it, ZExpandAuto lets gemm.MMAExpand choose (zgemmFused).
	ZExpandB ZExpand
	// ZFused4M (tests, measurements) keeps the four real products in the
	// kernel that expands a float complex B (zgemmFused); by default that
	// kernel forms the 3M method's three (gemm_mma's Z3M) where its tile
	// allows: a quarter fewer tensor-core products, with the same error
	// as the four's (BENCHMARKS.md, "NVIDIA H200, 2026-12-03").
	ZFused4M bool
	// ZFusedRuns counts the complex GEMMs zgemmFused took, ZFused3MRuns
	// those of them that formed the 3M products (tests).
	ZFusedRuns, ZFused3MRuns atomic.Int64
	// SymvTile, when set (measurements), replaces symv_part's tile side
	// and work-group height (symvShape).
	SymvTile [2]int
	// SymvKernel, when set (tests, measurements), replaces the choice of
	// the dense symv's and sbmv's GPU kernel; SymvStream, when its Vec is
	// set, symv_stream's launch shape.
	SymvKernel SymvKernel
	SymvStream SymvStreamShape
	// TrmvKernel, when set (tests, measurements), replaces the choice of
	// the dense trmv's GPU kernel.
	TrmvKernel TrmvKernel
	// GemvT, where set (measurements), replaces gemv_t_part's launch.
	GemvT GemvTShape
	// Ger, where set (measurements), replaces ger_rows's and syr_rows'
	// launch (Unroll: GR_U; RowBlocks: ger_rows' row slices, syr_rows'
	// rows a work-item).
	Ger GemvTShape
	// GemvTCPU, when set (tests, measurements), replaces the choice of
	// the transposed GEMV's kernel on CPU devices (device_level2.go).
	GemvTCPU GemvTCPU
	// RowsCPU, when set to 4 or 8 (tests, measurements), replaces the
	// choice of how many rows the CPU devices' band_rows, sym_rows and
	// flow solves take in one pass (l2RowsPass).
	RowsCPU int
	// FlowBlockT, when positive (tests), replaces the width of the CPU
	// devices' flow solves' blocks with op(A) = Aᵀ or Aᴴ (flowBlockT).
	FlowBlockT int
	// GbmvTKernel, when set (tests, measurements), replaces the choice of
	// the transposed band product's kernel.
	GbmvTKernel GbmvTKernel
	// ZbandTOff, when set (tests, measurements), sends complex bands with
	// Aᵀ or Aᴴ (ZGBMV, ZTBMV) on devices other than CPUs to zmv and
	// zmv_wg, a work-item or a work-group per column, instead of zband_t,
	// a work-group's columns side by side (BENCHMARKS.md, "Figures behind
	// the code's choices").
	ZbandTOff bool

	// Fault, when set (tests only), is consulted at every step that can
	// fail on a real device; a non-nil result makes that step fail.
	Fault Faults

	// Launched counts successful device calls per routine.
	Launched Launches

	// GemmChoices memoises gemm.Choose per shape.
	GemmChoices GemmChoices

	refs   atomic.Int32 // roles (float64, float32) still open
	closed atomic.Bool
	mu     sync.RWMutex // held for reading by calls, for writing by close
}

// OpenEngine opens the engine o describes with its roles counted: one
// (float32) or, where the device has double precision, two (float64 too);
// each role's Close calls release.
func OpenEngine(o Options) (*Engine, error) {
	e, err := newEngine(o)
	if err != nil {
		return nil, err
	}
	e.refs.Store(1)
	if e.Prof.FP64 {
		e.refs.Store(2)
	}
	return e, nil
}

// newEngine opens the engine o describes.
func newEngine(o Options) (*Engine, error) {
	e := &Engine{}
	switch {
	case o.Runtime != nil:
		e.RT = o.Runtime
	default:
		dev := o.Device
		if dev == nil {
			d, err := platform.Select(o.Spec)
			if err != nil {
				return nil, fmt.Errorf("clblas: choosing a device: %w", err)
			}
			dev = d
		}
		ropts := []platform.RuntimeOption{platform.WithLogger(o.Logger)}
		if o.CacheDir != "" {
			ropts = append(ropts, platform.WithCacheDir(o.CacheDir))
		}
		rt, err := platform.NewRuntime(dev, ropts...)
		if err != nil {
			return nil, fmt.Errorf("clblas: %w", err)
		}
		e.RT, e.ownsRT = rt, true
	}
	e.Prof = e.RT.Device().Profile()
	e.Tensor = o.Tensor
	e.ZMethod = o.ZMethod
	e.Tuning = o.Tuning
	if e.Tuning == nil {
		e.Tuning = gemm.Builtin()
	}
	e.Queue = e.RT.Queue()
	e.Buffers.Init(e.RT.Context(), e.Prof)
	e.Pinned.Init(e.RT.Context(), e.Queue)
	e.Slots.Init(e.RT.Context(), e.Queue)
	e.PipeMode = o.Pipe
	e.ZeroCopy = o.ZeroCopy
	if !o.NoL2Share && e.l2Staged() {
		e.L2Share = defaultL2Share()
	}
	return e, nil
}

// Cost is the engine's estimate of its device's speed, for the offload
// policy.
func (e *Engine) Cost() Cost {
	c := EstimateCost(e.Prof)
	c.StagesLevel2 = e.l2Staged()
	c.SharesLevel2 = c.StagesLevel2 && e.L2Share > 0
	return c
}

// Plan is the staged GEMM's policy on the engine's device.
func (e *Engine) Plan() Plan { return Plan{Mode: e.PipeMode, CPU: e.Prof.IsCPU()} }

// release drops one role; the last one closes the engine. It waits for
// calls in flight, then releases kernels, buffers and, if it owns it, the
// runtime.
func (e *Engine) release() error {
	if e.refs.Add(-1) > 0 {
		return nil
	}
	e.mu.Lock()
	e.closed.Store(true)
	e.mu.Unlock()
	var errs []error
	errs = append(errs, e.Kernels.Close())
	errs = append(errs, e.Pipe.Close())
	errs = append(errs, e.Queue.Finish())
	errs = append(errs, e.resq.close())
	errs = append(errs, e.Slots.Close())
	errs = append(errs, e.l1t.close())
	errs = append(errs, e.gtt.close())
	errs = append(errs, e.HostSlices.Close(&e.Pinned))
	errs = append(errs, e.Pinned.Close())
	e.Buffers.Close()
	if e.ownsRT {
		errs = append(errs, e.RT.Close())
	}
	return errors.Join(errs...)
}

// PrecisionOf is the precision (32 or 64) of T's kernels: its size in
// bits, or its parts' for a complex T.
func PrecisionOf[T Elem]() int {
	if IsComplex[T]() {
		return ElemSize[T]() * 4
	}
	return ElemSize[T]() * 8
}

// ElemSize is the size in bytes of a T.
func ElemSize[T Elem]() int {
	var v T
	return int(unsafe.Sizeof(v))
}

// Call is one device routine in progress. Its methods record the first
// error and turn every later step into a no-op, so routine code reads as a
// straight line and checks c.err once, at the end (the bufio.Scanner
// pattern). finish returns what was borrowed to the pools.
type Call struct {
	E       *Engine
	Routine string
	prec    int
	Err     error
	bufs    []*cl.Buffer
	kernels []pooledKernel
	Events  []*cl.Event

	// q, when set, is the queue run enqueues kernels on (else the
	// engine's); queues are further queues the call enqueued on, which
	// finish waits for when the call failed; pinned are staging buffers
	// borrowed from the engine's pinned pool.
	q      *cl.Queue
	queues []*cl.Queue
	pinned []*Pinned
	// slots are result slots read into (ReadSlot); they are the caller's
	// when the call succeeds.
	slots []*Slot
	// over are buffers over the caller's Go memory (hostOver), released
	// at finish; the driver unpins the memory once their commands are done.
	over []*cl.Buffer

	// Lazy, set by the resident API, makes Run enqueue kernels on the
	// engine's queue without an event (lazy.go); lazyAt is len(Events) at
	// the latest such launch, -1 before any.
	Lazy   bool
	lazyAt int

	// evs and ks back Events and kernels for the calls that enqueue a
	// kernel or two (the small resident operations), so that appending
	// to them allocates nothing.
	evs [2]*cl.Event
	ks  [2]pooledKernel
}

type pooledKernel struct {
	key string
	k   *cl.Kernel
}

// Begin starts a device call of routine in precision T. It fails at once
// if the engine is closed.
func Begin[T Elem](e *Engine, routine string) *Call {
	c := &Call{E: e, Routine: routine, prec: PrecisionOf[T](), lazyAt: -1}
	c.Events, c.kernels = c.evs[:0], c.ks[:0]
	e.mu.RLock()
	if e.closed.Load() {
		c.Err = ErrClosed
	}
	return c
}

// Fail records err unless an earlier error is recorded.
func (c *Call) Fail(err error) {
	if c.Err == nil && err != nil {
		c.Err = err
	}
}

// Finish waits for the call's commands if it failed (so no buffer goes
// back to the pool while a command may still use it), returns buffers and
// kernels to their pools, releases events, and returns the call's error.
// On success it counts the call.
func (c *Call) Finish() error {
	defer c.E.mu.RUnlock()
	if c.Err != nil {
		c.E.Queue.Finish()
		for _, q := range c.queues {
			q.Finish()
		}
	}
	cl.ReleaseAll(c.Events...)
	// In reverse, so that the pool (last in, first out) hands the next
	// call of the same shape the same buffers in the same roles, and its
	// kernel arguments are already set.
	for i := len(c.bufs) - 1; i >= 0; i-- {
		c.E.Buffers.Put(c.bufs[i])
	}
	for _, p := range c.pinned {
		c.E.Pinned.Put(p)
	}
	if c.Err != nil {
		for _, s := range c.slots {
			s.Free()
		}
	}
	for _, b := range c.over {
		b.Release()
	}
	for _, pk := range c.kernels {
		c.E.Kernels.Put(pk.key, pk.k)
	}
	if c.Err != nil {
		return fmt.Errorf("clblas: %s on %s: %w", c.Routine, c.E.Prof.Name, c.Err)
	}
	c.E.Launched.Count(c.Routine)
	return nil
}

// Kernel returns a kernel object for name from program file (built from
// the sources package kernels names for it) with the call's
// PRECISION and the given extra defines ("NAME", "NAME=VALUE"); an entry
// starting with "-" is passed as a build option as it is.
func (c *Call) Kernel(file, name string, defines ...string) *cl.Kernel {
	if c.Err != nil {
		return nil
	}
	if len(defines) == 0 {
		return c.kernelFor(c.E.specs.Get(c.prec, file, name))
	}
	return c.kernelFor(NewKernelSpec(c.prec, file, name, defines...))
}

// kernelFor returns a kernel object for s: a free one from the engine's
// pool, or a new one (its program built or taken from the cache).
func (c *Call) kernelFor(s *KernelSpec) *cl.Kernel {
	if c.Err != nil {
		return nil
	}
	if err := c.E.Fault.Inject("build"); err != nil {
		c.Fail(err)
		return nil
	}
	if k := c.E.Kernels.Take(s.Key()); k != nil {
		c.kernels = append(c.kernels, pooledKernel{s.Key(), k})
		return k
	}
	opts := s.Opts
	if c.E.BuildOptions != "" {
		opts += " " + c.E.BuildOptions
	}
	p, err := c.E.RT.Program(kernels.MustProgram(s.File), opts)
	if err != nil {
		c.Fail(err)
		return nil
	}
	k, err := p.CreateKernel(s.Name)
	if err != nil {
		c.Fail(err)
		return nil
	}
	c.kernels = append(c.kernels, pooledKernel{s.Key(), k})
	return k
}

// Run sets k's arguments and enqueues it over global work-items in groups
// of local (nil: the driver chooses).
func (c *Call) Run(k *cl.Kernel, global, local []int, args ...any) {
	if c.Err != nil {
		return
	}
	if err := c.E.Fault.Inject("enqueue"); err != nil {
		c.Fail(err)
		return
	}
	if err := k.SetArgs(args...); err != nil {
		c.Fail(err)
		return
	}
	if c.Lazy && c.q == nil {
		c.runLazy(k, global, local)
		return
	}
	q := c.E.Queue
	if c.q != nil {
		q = c.q
	}
	ev, err := q.EnqueueKernel(k, global, local)
	if err != nil {
		c.Fail(err)
		return
	}
	c.Events = append(c.Events, ev)
}

// Alloc borrows a device buffer of at least n elements of T.
func Alloc[T Elem](c *Call, n int) *cl.Buffer {
	if c.Err != nil {
		return nil
	}
	if err := c.E.Fault.Inject("alloc"); err != nil {
		c.Fail(err)
		return nil
	}
	b, err := c.E.Buffers.Get(max(n, 1) * ElemSize[T]())
	if err != nil {
		c.Fail(err)
		return nil
	}
	c.bufs = append(c.bufs, b)
	return b
}

// hostOver returns a buffer over host itself (no copy), on devices that
// share the host's memory (hostShared). The memory is the caller's: it
// must not change during the call, and an output written through it is
// defined once syncHost has returned.
func hostOver[T Elem](c *Call, host []T, flags cl.MemFlags) *cl.Buffer {
	if c.Err != nil || len(host) == 0 {
		return nil
	}
	if err := c.E.Fault.Inject("alloc"); err != nil {
		c.Fail(err)
		return nil
	}
	b, err := cl.CreateBufferOver(c.E.RT.Context(), flags, host)
	if err != nil {
		c.Fail(err)
		return nil
	}
	c.over = append(c.over, b)
	return b
}

// syncHost waits for the call's commands and makes the n elements of a
// hostOver buffer visible in the host memory under it (a map and unmap,
// which cost nothing where the driver uses that memory itself).
func syncHost[T Elem](c *Call, b *cl.Buffer, n int) {
	if c.Err != nil {
		return
	}
	if err := c.E.Fault.Inject("read"); err != nil {
		c.Fail(err)
		return
	}
	m, ev, err := cl.MapBuffer[T](c.E.Queue, b, true, cl.MapRead, 0, n)
	if err != nil {
		c.Fail(err)
		return
	}
	c.Events = append(c.Events, ev)
	uev, err := cl.UnmapBuffer(c.E.Queue, b, m)
	if err != nil {
		c.Fail(err)
		return
	}
	c.Events = append(c.Events, uev)
	c.Fail(uev.Wait())
}

// HostShared reports whether host slices go to the device's kernels with
// no copy (hostOver; engine.ZeroCopy.Shared has the rule).
func (e *Engine) HostShared() bool { return e.ZeroCopy.Shared(e.Prof) }

// Upload borrows a device buffer and copies host into it. The write is
// non-blocking; host stays pinned until it completes, and the in-order
// queue runs it before any later kernel.
func Upload[T Elem](c *Call, host []T) *cl.Buffer {
	b := Alloc[T](c, len(host))
	if c.Err != nil || len(host) == 0 {
		return b
	}
	ev, err := cl.WriteBuffer(c.E.Queue, b, false, 0, host)
	if err != nil {
		c.Fail(err)
		return nil
	}
	c.Events = append(c.Events, ev)
	return b
}

// Download reads the first n elements of b into a new host slice, blocking
// until they (and so every earlier command of the call) are done. The
// caller copies from it into the user's slices only when c.err is nil.
func Download[T Elem](c *Call, b *cl.Buffer, n int) []T { return ReadInto[T](c, b, n, true) }

// ReadInto enqueues a read of the first n elements of b into a new host
// slice, which holds them once the read (blocking: before it returns) has
// completed.
func ReadInto[T Elem](c *Call, b *cl.Buffer, n int, blocking bool) []T {
	if c.Err != nil {
		return nil
	}
	if err := c.E.Fault.Inject("read"); err != nil {
		c.Fail(err)
		return nil
	}
	out := make([]T, n)
	ev, err := cl.ReadBuffer(c.E.Queue, b, blocking, 0, out)
	if err != nil {
		c.Fail(err)
		return nil
	}
	c.Events = append(c.Events, ev)
	return out
}

// Detach removes ev from the call's events, so finish does not release it:
// the caller takes ownership (the device-resident API returns it).
func (c *Call) Detach(ev *cl.Event) {
	for i, e := range c.Events {
		if e == ev {
			c.Events = append(c.Events[:i], c.Events[i+1:]...)
			return
		}
	}
}

// LastEvent is the event of the call's most recent command, or nil.
func (c *Call) LastEvent() *cl.Event {
	if len(c.Events) == 0 {
		return nil
	}
	return c.Events[len(c.Events)-1]
}

// Enqueue runs enq on the engine's queue, unless the call has failed, and
// keeps the event of the command it enqueued (finish releases it, or the
// resident API detaches it). A fault at site, when site is not "", fails
// the step as the device could (tests).
func (c *Call) Enqueue(site string, enq func(q *cl.Queue) (*cl.Event, error)) {
	if c.Err != nil {
		return
	}
	if site != "" {
		if err := c.E.Fault.Inject(site); err != nil {
			c.Fail(err)
			return
		}
	}
	q := c.E.Queue
	if c.q != nil {
		q = c.q
	}
	ev, err := enq(q)
	if err != nil {
		c.Fail(err)
		return
	}
	c.Events = append(c.Events, ev)
}

// NewHostSlice allocates bytes of pinned host memory for a HostSlice of the
// front end, registered so that the staged GEMM recognises it and freed
// with the engine at the latest.
func (e *Engine) NewHostSlice(bytes int) (*Pinned, error) { return e.HostSlices.New(&e.Pinned, bytes) }

// FreeHostSlice frees the memory of NewHostSlice.
func (e *Engine) FreeHostSlice(p *Pinned) error { return e.HostSlices.Free(&e.Pinned, p) }
