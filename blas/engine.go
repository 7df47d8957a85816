package clblas

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gocompute/opencl/cl"
	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/internal/gemm"
	"github.com/gocompute/opencl/internal/settings"
	"github.com/gocompute/opencl/kernels"
	"github.com/gocompute/opencl/platform"
)

// engine is the OpenCL half of the implementation: one runtime (context,
// queue, program cache) on one device, pools of device buffers and of
// kernel objects, and the plumbing every device routine uses. It is safe
// for concurrent use: each call takes its own buffers and kernel objects
// from the pools and enqueues on the runtime's in-order queue.
type engine struct {
	rt     *platform.Runtime
	ownsRT bool
	prof   platform.Profile
	tensor gemm.Tensor // GEMM's tensor-core mode (WithTensorCores or GOCL_TENSOR)
	tuning *gemm.DB    // GEMM's tuning database (WithGemmTuning or GOCL_GEMM_TUNING)
	queue  *cl.Queue

	// l2Portable keeps level 2 on its general kernels on a CPU device too
	// (tests: those kernels serve GPUs, and CI has only PoCL).
	l2Portable bool
	// zeroCopy is GOCL_ZERO_COPY's choice for hostShared (tests set
	// eng.ZeroCopyOff to run the copying path, which devices with memory of
	// their own take).
	zeroCopy eng.ZeroCopy

	buffers eng.BufferPool

	// Transfers of host slices (transfer.go, gemm_pipeline.go): pinned
	// staging buffers, the pipeline's queues, the pipeline policy and its
	// time accounting.
	pinned     eng.PinnedPool
	hostSlices eng.HostSlices // live HostSlices (hostslice.go)
	pipe       eng.PipeQueues
	pipeMode   settings.Pipeline
	xfer       eng.XferCounters

	kernels eng.KernelPool // free kernel objects by spec key

	// l3Route chooses how symm, syrk, syr2k and trmm run
	// (device_level3.go): l3Auto by size, or always l3Direct / l3ViaGemm
	// (tests); l3Block, when set, replaces trmm's block size (tests).
	l3Route   l3RouteMode
	l3Block   int
	l3ViaGemm atomic.Int64 // calls that took the GEMM route (tests)

	// fault, when set (tests only), is consulted at every step that can
	// fail on a real device; a non-nil result makes that step fail.
	fault eng.Faults

	// launched counts successful device calls per routine.
	launched eng.Launches

	// gemmChoices memoises gemm.Choose per shape.
	gemmChoices eng.GemmChoices

	refs   atomic.Int32 // roles (float64, float32) still open
	closed atomic.Bool
	mu     sync.RWMutex // held for reading by calls, for writing by close
}

// errClosed is returned by device calls after Close.
var errClosed = eng.ErrClosed

// newDevice opens the device New puts behind the front end: the device of
// WithDevice/WithRuntime, or platform.Default().
func newDevice(cfg *config) (*engine, deviceFloat64, deviceFloat32, costModel, error) {
	o := cfg.engine
	o.Logger = cfg.logger
	e, err := newEngine(o)
	if err != nil {
		return nil, nil, nil, costModel{}, err
	}
	var d64 deviceFloat64 = noDevice64{}
	e.refs.Store(1)
	if e.prof.FP64 {
		d64 = clDevice64{e}
		e.refs.Store(2)
	}
	return e, d64, clDevice32{e}, e.costModel(), nil
}

// newEngine opens the engine o describes.
func newEngine(o eng.Options) (*engine, error) {
	e := &engine{}
	switch {
	case o.Runtime != nil:
		e.rt = o.Runtime
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
		e.rt, e.ownsRT = rt, true
	}
	e.prof = e.rt.Device().Profile()
	e.tensor = o.Tensor
	e.tuning = o.Tuning
	if e.tuning == nil {
		e.tuning = gemm.Builtin()
	}
	e.queue = e.rt.Queue()
	e.buffers.Init(e.rt.Context(), e.prof)
	e.pinned.Init(e.rt.Context(), e.queue)
	e.pipeMode = o.Pipe
	e.zeroCopy = o.ZeroCopy
	return e, nil
}

// costModel is what the offload policy knows of the engine's device.
func (e *engine) costModel() costModel {
	return costModel{present: true, Cost: eng.EstimateCost(e.prof)}
}

// plan is the staged GEMM's policy on the engine's device.
func (e *engine) plan() eng.Plan { return eng.Plan{Mode: e.pipeMode, CPU: e.prof.IsCPU()} }

// release drops one role; the last one closes the engine. It waits for
// calls in flight, then releases kernels, buffers and, if it owns it, the
// runtime.
func (e *engine) release() error {
	if e.refs.Add(-1) > 0 {
		return nil
	}
	e.mu.Lock()
	e.closed.Store(true)
	e.mu.Unlock()
	var errs []error
	errs = append(errs, e.kernels.Close())
	errs = append(errs, e.pipe.Close())
	errs = append(errs, e.queue.Finish())
	errs = append(errs, e.hostSlices.Close(&e.pinned))
	errs = append(errs, e.pinned.Close())
	e.buffers.Close()
	if e.ownsRT {
		errs = append(errs, e.rt.Close())
	}
	return errors.Join(errs...)
}

// real is the element type of a device routine.
type real = eng.Real

// precisionOf is the precision (32 or 64) of T's kernels: its size in
// bits, or its real part's for a complex T (float2 and double2 kernels
// take the PRECISION of their parts).
func precisionOf[T elem]() int {
	if isComplex[T]() {
		return elemSize[T]() * 4
	}
	return elemSize[T]() * 8
}

// elemSize is the size in bytes of a T.
func elemSize[T elem]() int {
	var v T
	return int(unsafe.Sizeof(v))
}

// call is one device routine in progress. Its methods record the first
// error and turn every later step into a no-op, so routine code reads as a
// straight line and checks c.err once, at the end (the bufio.Scanner
// pattern). finish returns what was borrowed to the pools.
type call struct {
	e       *engine
	routine string
	prec    int
	err     error
	bufs    []*cl.Buffer
	kernels []pooledKernel
	events  []*cl.Event

	// q, when set, is the queue run enqueues kernels on (else the
	// engine's); queues are further queues the call enqueued on, which
	// finish waits for when the call failed; pinned are staging buffers
	// borrowed from the engine's pinned pool.
	q      *cl.Queue
	queues []*cl.Queue
	pinned []*eng.Pinned
	// over are buffers over the caller's Go memory (hostOver), released
	// at finish; the driver unpins the memory once their commands are done.
	over []*cl.Buffer
}

type pooledKernel struct {
	key string
	k   *cl.Kernel
}

// begin starts a device call of routine in precision T. It fails at once
// if the engine is closed.
func begin[T elem](e *engine, routine string) *call {
	c := &call{e: e, routine: routine, prec: precisionOf[T]()}
	e.mu.RLock()
	if e.closed.Load() {
		c.err = errClosed
	}
	return c
}

// fail records err unless an earlier error is recorded.
func (c *call) fail(err error) {
	if c.err == nil && err != nil {
		c.err = err
	}
}

// finish waits for the call's commands if it failed (so no buffer goes
// back to the pool while a command may still use it), returns buffers and
// kernels to their pools, releases events, and returns the call's error.
// On success it counts the call.
func (c *call) finish() error {
	defer c.e.mu.RUnlock()
	if c.err != nil {
		c.e.queue.Finish()
		for _, q := range c.queues {
			q.Finish()
		}
	}
	cl.ReleaseAll(c.events...)
	for _, b := range c.bufs {
		c.e.buffers.Put(b)
	}
	for _, p := range c.pinned {
		c.e.pinned.Put(p)
	}
	for _, b := range c.over {
		b.Release()
	}
	for _, pk := range c.kernels {
		c.e.kernels.Put(pk.key, pk.k)
	}
	if c.err != nil {
		return fmt.Errorf("clblas: %s on %s: %w", c.routine, c.e.prof.Name, c.err)
	}
	c.e.launched.Count(c.routine)
	return nil
}

// kernel returns a kernel object for name from program file (built from
// the sources package kernels names for it) with the call's
// PRECISION and the given extra defines ("NAME", "NAME=VALUE"); an entry
// starting with "-" is passed as a build option as it is.
func (c *call) kernel(file, name string, defines ...string) *cl.Kernel {
	if c.err != nil {
		return nil
	}
	return c.kernelFor(eng.NewKernelSpec(c.prec, file, name, defines...))
}

// kernelFor returns a kernel object for s: a free one from the engine's
// pool, or a new one (its program built or taken from the cache).
func (c *call) kernelFor(s *eng.KernelSpec) *cl.Kernel {
	if c.err != nil {
		return nil
	}
	if err := c.e.fault.Inject("build"); err != nil {
		c.fail(err)
		return nil
	}
	if k := c.e.kernels.Take(s.Key()); k != nil {
		c.kernels = append(c.kernels, pooledKernel{s.Key(), k})
		return k
	}
	p, err := c.e.rt.Program(kernels.MustProgram(s.File), s.Opts)
	if err != nil {
		c.fail(err)
		return nil
	}
	k, err := p.CreateKernel(s.Name)
	if err != nil {
		c.fail(err)
		return nil
	}
	c.kernels = append(c.kernels, pooledKernel{s.Key(), k})
	return k
}

// run sets k's arguments and enqueues it over global work-items in groups
// of local (nil: the driver chooses).
func (c *call) run(k *cl.Kernel, global, local []int, args ...any) {
	if c.err != nil {
		return
	}
	if err := c.e.fault.Inject("enqueue"); err != nil {
		c.fail(err)
		return
	}
	if err := k.SetArgs(args...); err != nil {
		c.fail(err)
		return
	}
	q := c.e.queue
	if c.q != nil {
		q = c.q
	}
	ev, err := q.EnqueueKernel(k, global, local)
	if err != nil {
		c.fail(err)
		return
	}
	c.events = append(c.events, ev)
}

// alloc borrows a device buffer of at least n elements of T.
func alloc[T elem](c *call, n int) *cl.Buffer {
	if c.err != nil {
		return nil
	}
	if err := c.e.fault.Inject("alloc"); err != nil {
		c.fail(err)
		return nil
	}
	b, err := c.e.buffers.Get(max(n, 1) * elemSize[T]())
	if err != nil {
		c.fail(err)
		return nil
	}
	c.bufs = append(c.bufs, b)
	return b
}

// hostOver returns a buffer over host itself (no copy), on devices that
// share the host's memory (hostShared). The memory is the caller's: it
// must not change during the call, and an output written through it is
// defined once syncHost has returned.
func hostOver[T elem](c *call, host []T, flags cl.MemFlags) *cl.Buffer {
	if c.err != nil || len(host) == 0 {
		return nil
	}
	if err := c.e.fault.Inject("alloc"); err != nil {
		c.fail(err)
		return nil
	}
	b, err := cl.CreateBufferOver(c.e.rt.Context(), flags, host)
	if err != nil {
		c.fail(err)
		return nil
	}
	c.over = append(c.over, b)
	return b
}

// syncHost waits for the call's commands and makes the n elements of a
// hostOver buffer visible in the host memory under it (a map and unmap,
// which cost nothing where the driver uses that memory itself).
func syncHost[T elem](c *call, b *cl.Buffer, n int) {
	if c.err != nil {
		return
	}
	if err := c.e.fault.Inject("read"); err != nil {
		c.fail(err)
		return
	}
	m, ev, err := cl.MapBuffer[T](c.e.queue, b, true, cl.MapRead, 0, n)
	if err != nil {
		c.fail(err)
		return
	}
	c.events = append(c.events, ev)
	uev, err := cl.UnmapBuffer(c.e.queue, b, m)
	if err != nil {
		c.fail(err)
		return
	}
	c.events = append(c.events, uev)
	c.fail(uev.Wait())
}

// hostShared reports whether host slices go to the device's kernels with
// no copy (hostOver; engine.ZeroCopy.Shared has the rule).
func (e *engine) hostShared() bool { return e.zeroCopy.Shared(e.prof) }

// upload borrows a device buffer and copies host into it. The write is
// non-blocking; host stays pinned until it completes, and the in-order
// queue runs it before any later kernel.
func upload[T elem](c *call, host []T) *cl.Buffer {
	b := alloc[T](c, len(host))
	if c.err != nil || len(host) == 0 {
		return b
	}
	ev, err := cl.WriteBuffer(c.e.queue, b, false, 0, host)
	if err != nil {
		c.fail(err)
		return nil
	}
	c.events = append(c.events, ev)
	return b
}

// download reads the first n elements of b into a new host slice, blocking
// until they (and so every earlier command of the call) are done. The
// caller copies from it into the user's slices only when c.err is nil.
func download[T elem](c *call, b *cl.Buffer, n int) []T { return readInto[T](c, b, n, true) }

// readInto enqueues a read of the first n elements of b into a new host
// slice, which holds them once the read (blocking: before it returns) has
// completed.
func readInto[T elem](c *call, b *cl.Buffer, n int, blocking bool) []T {
	if c.err != nil {
		return nil
	}
	if err := c.e.fault.Inject("read"); err != nil {
		c.fail(err)
		return nil
	}
	out := make([]T, n)
	ev, err := cl.ReadBuffer(c.e.queue, b, blocking, 0, out)
	if err != nil {
		c.fail(err)
		return nil
	}
	c.events = append(c.events, ev)
	return out
}

// detach removes ev from the call's events, so finish does not release it:
// the caller takes ownership (the device-resident API returns it).
func (c *call) detach(ev *cl.Event) {
	for i, e := range c.events {
		if e == ev {
			c.events = append(c.events[:i], c.events[i+1:]...)
			return
		}
	}
}

// lastEvent is the event of the call's most recent command, or nil.
func (c *call) lastEvent() *cl.Event {
	if len(c.events) == 0 {
		return nil
	}
	return c.events[len(c.events)-1]
}
