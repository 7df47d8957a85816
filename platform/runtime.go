package platform

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/singleflight"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/internal/settings"
)

// Runtime owns what running on one device needs: a context, a default
// in-order queue, and the programs built for the device. It is safe for
// concurrent use. Close releases everything it created.
type Runtime struct {
	dev   *Device
	ctx   *cl.Context
	queue *cl.Queue
	cache *diskCache // nil: no disk cache
	log   *slog.Logger

	mu       sync.Mutex
	progs    map[string]*cl.Program
	shared   map[string]*cl.Program // the references Program hands out (shared.go)
	closed   bool
	builds   singleflight.Group
	inflight sync.WaitGroup // Program calls past the closed check; Close waits for them

	stats struct{ memory, disk, compiled atomic.Int64 }

	first firstRun // the first-run notice (firstrun.go)
}

// RuntimeOption configures NewRuntime.
type RuntimeOption func(*runtimeConfig)

type runtimeConfig struct {
	queueProps cl.QueueProperties
	cacheDir   string
	noDisk     bool
	log        *slog.Logger
}

// WithQueueProperties sets the properties of the default queue (for
// example cl.QueueProfiling).
func WithQueueProperties(p cl.QueueProperties) RuntimeOption {
	return func(c *runtimeConfig) { c.queueProps = p }
}

// WithCacheDir keeps compiled program binaries in dir instead of
// GOCL_CACHE_DIR or the user cache directory (which PoCL's devices do
// without: Profile.cachesKernels).
func WithCacheDir(dir string) RuntimeOption { return func(c *runtimeConfig) { c.cacheDir = dir } }

// WithoutDiskCache keeps compiled programs in memory only.
func WithoutDiskCache() RuntimeOption { return func(c *runtimeConfig) { c.noDisk = true } }

// WithLogger sets where the runtime logs cache trouble (default
// slog.Default()).
func WithLogger(l *slog.Logger) RuntimeOption { return func(c *runtimeConfig) { c.log = l } }

// EnvCacheDir is the environment variable that overrides the program
// cache directory.
const EnvCacheDir = settings.CacheDir

// NewRuntime creates a context and a default queue on d.
func NewRuntime(d *Device, opts ...RuntimeOption) (*Runtime, error) {
	cfg := runtimeConfig{log: slog.Default()}
	for _, o := range opts {
		o(&cfg)
	}
	ctx, err := cl.CreateContext(d.cl)
	if err != nil {
		return nil, fmt.Errorf("platform: context on %s: %w", d, err)
	}
	q, err := ctx.CreateQueue(d.cl, cfg.queueProps)
	if err != nil {
		ctx.Release()
		return nil, fmt.Errorf("platform: queue on %s: %w", d, err)
	}
	r := &Runtime{dev: d, ctx: ctx, queue: q, log: cfg.log, progs: map[string]*cl.Program{}}
	if !cfg.noDisk {
		dir := cfg.cacheDir
		if dir == "" {
			dir = os.Getenv(EnvCacheDir)
		}
		if dir == "" && !d.profile.cachesKernels() {
			dir = DefaultCacheDir()
		}
		if dir != "" {
			r.cache = &diskCache{dir: dir}
		}
	}
	return r, nil
}

// cachesKernels reports whether the device's driver keeps compiled
// programs on disk by itself, so that the runtime keeps none unless a
// directory is named (GOCL_CACHE_DIR, WithCacheDir). PoCL does: its
// kernel cache (POCL_KERNEL_CACHE, on by default) holds each program's
// code and each kernel's as it is first run. Asked for a binary, PoCL
// compiles every kernel of the program at once; a BLAS program holds
// dozens of kernels, of which a call runs one or two, so storing the
// binary would multiply a first run's compile time.
func (p Profile) cachesKernels() bool { return p.Vendor == VendorPoCL }

// DefaultCacheDir is GOCL_CACHE_DIR, or gocompute-opencl under the user
// cache directory; "" if neither can be had.
func DefaultCacheDir() string {
	if d := os.Getenv(EnvCacheDir); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return d + string(os.PathSeparator) + "gocompute-opencl"
}

// Device returns the runtime's device.
func (r *Runtime) Device() *Device { return r.dev }

// Context returns the runtime's context. Do not release it.
func (r *Runtime) Context() *cl.Context { return r.ctx }

// Queue returns the default in-order queue. Do not release it.
func (r *Runtime) Queue() *cl.Queue { return r.queue }

// NewQueue creates another queue on the device; the caller releases it.
func (r *Runtime) NewQueue(props cl.QueueProperties) (*cl.Queue, error) {
	return r.ctx.CreateQueue(r.dev.cl, props)
}

// BuildStats counts how Program requests were served: from memory, from
// the disk cache, or by compiling.
type BuildStats struct{ Memory, Disk, Compiled int64 }

// Stats returns the runtime's build counters.
func (r *Runtime) Stats() BuildStats {
	return BuildStats{r.stats.memory.Load(), r.stats.disk.Load(), r.stats.compiled.Load()}
}

// Options renders -D defines, sorted by name so that equal sets give equal
// strings (and equal cache keys), followed by extra options.
func Options(defines map[string]string, extra ...string) string {
	keys := make([]string, 0, len(defines))
	for k := range defines {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys)+len(extra))
	for _, k := range keys {
		if v := defines[k]; v != "" {
			parts = append(parts, "-D"+k+"="+v)
		} else {
			parts = append(parts, "-D"+k)
		}
	}
	return strings.Join(append(parts, extra...), " ")
}

// ErrClosed is returned by a Runtime used after Close.
var ErrClosed = errors.New("platform: runtime closed")

// Program returns the program built from sources (concatenated in order)
// with options, for the runtime's device. Programs are cached in memory
// for the runtime's life and on disk across processes, keyed by a hash of
// the sources, the options, the platform, the device name and the driver
// version; concurrent requests for the same program build it once.
//
// The program is shared by every caller that asks for it, and lives until
// Close: there is no need to release it. It is a reference of its own,
// apart from the runtime's, so a Release of it does not break later calls
// (they get a fresh reference); Kernel gives a kernel without handing out
// the program at all.
func (r *Runtime) Program(sources []string, options string) (*cl.Program, error) {
	key := r.key(sources, options)
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil, ErrClosed
	}
	if p, ok := r.progs[key]; ok {
		r.mu.Unlock()
		r.stats.memory.Add(1)
		return r.handOut(key, p)
	}
	// Close waits for calls that got this far, so the context is not
	// released under a build.
	r.inflight.Add(1)
	r.mu.Unlock()
	defer r.inflight.Done()
	built := false // set only in the caller whose function singleflight runs
	v, err, _ := r.builds.Do(key, func() (any, error) {
		r.mu.Lock()
		if r.closed {
			r.mu.Unlock()
			return nil, ErrClosed
		}
		if p, ok := r.progs[key]; ok { // built while we waited
			r.mu.Unlock()
			return p, nil
		}
		r.mu.Unlock()
		p, err := r.build(key, sources, options)
		if err != nil {
			return nil, err
		}
		built = true
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.closed {
			p.Release()
			return nil, ErrClosed
		}
		r.progs[key] = p
		return p, nil
	})
	if err != nil {
		return nil, err
	}
	if !built {
		// Served by another caller's build (or one that finished just
		// before): count it as a memory hit, so that Memory+Disk+Compiled
		// is the number of successful requests.
		r.stats.memory.Add(1)
	}
	return r.handOut(key, v.(*cl.Program))
}

// ProgramFromFiles is Program for OpenCL C sources read from files.
func (r *Runtime) ProgramFromFiles(paths []string, options string) (*cl.Program, error) {
	srcs := make([]string, len(paths))
	for i, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("platform: reading kernel source: %w", err)
		}
		srcs[i] = string(b)
	}
	return r.Program(srcs, options)
}

func (r *Runtime) key(sources []string, options string) string {
	h := sha256.New()
	field := func(s string) { fmt.Fprintf(h, "%d:%s;", len(s), s) }
	field("gocl-program-v1")
	for _, s := range sources {
		field(s)
	}
	field(options)
	p := r.dev.profile
	field(p.Platform)
	field(p.PlatformVer.String())
	field(p.Name)
	field(p.DriverVersion)
	field(p.OpenCL.String())
	return hex.EncodeToString(h.Sum(nil))
}

// build loads the program from the disk cache or compiles it, then stores
// the binary. A cache entry the driver rejects is rebuilt from source.
func (r *Runtime) build(key string, sources []string, options string) (*cl.Program, error) {
	defer r.slowBuildNotice()()
	devs := []*cl.Device{r.dev.cl}
	if r.cache != nil {
		if bin, ok := r.cache.load(key); ok {
			p, err := r.ctx.CreateProgramWithBinary(devs, [][]byte{bin})
			if err == nil {
				if err = p.Build(devs, options); err == nil {
					r.stats.disk.Add(1)
					return p, nil
				}
				p.Release()
			}
			r.log.Warn("gocl: cached program rejected by the driver; rebuilding", "key", key[:16], "err", err)
		}
	}
	p, err := r.ctx.CreateProgramWithSource(sources...)
	if err != nil {
		return nil, fmt.Errorf("platform: creating program: %w", err)
	}
	if err := p.Build(devs, options); err != nil {
		p.Release()
		return nil, fmt.Errorf("platform: building program for %s: %w", r.dev, err)
	}
	r.stats.compiled.Add(1)
	if r.cache != nil {
		if bins, err := p.Binaries(); err == nil && len(bins) == 1 && len(bins[0]) > 0 {
			if err := r.cache.store(key, bins[0]); err != nil {
				r.cache.storeFailed(r.log, err)
			}
		}
	}
	return p, nil
}

// Close releases the programs, the queue and the context. Using the
// runtime afterwards returns ErrClosed; Close is idempotent.
func (r *Runtime) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	r.mu.Unlock()
	r.inflight.Wait()
	r.mu.Lock()
	progs := r.progs
	r.progs = nil
	for _, p := range r.shared {
		p.Release() // the caller's reference, perhaps released already
	}
	r.shared = nil
	r.mu.Unlock()
	var errs []error
	for _, p := range progs {
		errs = append(errs, p.Release())
	}
	errs = append(errs, r.queue.Finish(), r.queue.Release(), r.ctx.Release())
	return errors.Join(errs...)
}
