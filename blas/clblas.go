// Package clblas is a drop-in implementation of gonum's BLAS interfaces
// (blas.Float64 and blas.Float32) that runs each call on an OpenCL device
// when that pays, and on gonum's own Go code otherwise. It also satisfies
// blas.Complex128 and blas.Complex64, whose calls run gonum's code for now.
//
// Switching a program over takes a few lines:
//
//	impl, err := clblas.New()
//	if err != nil {
//		log.Fatal(err)
//	}
//	blas64.Use(impl)
//	blas32.Use(impl)
//
// Every method panics on bad arguments exactly as gonum's does (same
// messages, same order of checks) and takes gonum's quick returns. A call
// that goes to the device and fails there is finished on the CPU, so a
// device problem never yields a wrong answer; the first failure of each
// routine is logged through log/slog.
//
// Where a call runs is chosen by the offload Policy: WithOffload, or the
// environment variable GOCL_OFFLOAD=always|never|auto when no WithOffload
// option is given.
//
// On a device that shares the host's memory (a CPU device) level 3 kernels
// work on the caller's slices in place. Elsewhere, large GEMMs on host
// slices are tiled and pipelined: panels are copied into pinned staging
// memory, uploaded, multiplied and read back while the
// next ones move. Matrices whose data lie in a HostSlice (pinned memory)
// skip the copies. Data that stays on the device between calls lives in a
// Matrix or Vector; every BLAS operation on those is enqueued without
// waiting and returns an Event. A scalar the next operation needs (a step
// length, a ratio of dot products) can stay on the device too, as one
// element of a Vector: DotTo, Div, AxpyBy and ScalBy read and write it
// there, so iterations chain without host reads.
package clblas

//go:generate go run ./internal/gen32

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/internal/multi"
	"github.com/gocompute/opencl/internal/settings"
	"github.com/gocompute/opencl/platform"
)

var (
	_ blas.Float64 = (*Implementation)(nil)
	_ blas.Float32 = (*Implementation)(nil)
)

// native is gonum's Go implementation: the CPU path, and the reference the
// device results are held to.
var native gonum.Implementation

// envOffload is the environment variable New reads when no WithOffload
// option is given.
const envOffload = settings.Offload

// Policy says which calls are sent to the device.
type Policy int

const (
	// Auto sends a call to the device when the estimated device time,
	// host↔device transfers and launch overhead included, is below the
	// estimated time of gonum's Go code. It is the default.
	Auto Policy = iota
	// Always sends every call the device can run to the device, whatever
	// its size (float64 calls stay on the CPU when the device has no double
	// precision). Tests use it.
	Always
	// Never runs everything with gonum's Go code.
	Never
)

// String returns "auto", "always" or "never".
func (p Policy) String() string {
	switch p {
	case Auto:
		return "auto"
	case Always:
		return "always"
	case Never:
		return "never"
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// ParsePolicy parses "auto", "always" or "never" (in any case, surrounding
// space ignored) as used by GOCL_OFFLOAD.
func ParsePolicy(s string) (Policy, error) {
	w, err := settings.ParseOffload(s)
	if err != nil || strings.TrimSpace(s) == "" {
		w = ""
	}
	switch w {
	case "auto":
		return Auto, nil
	case "always":
		return Always, nil
	case "never":
		return Never, nil
	}
	return 0, fmt.Errorf("clblas: invalid offload policy %q (want always, never or auto)", s)
}

// config collects what the options set.
type config struct {
	policy    Policy
	policySet bool
	logger    *slog.Logger

	// devices, when set, replaces newDevice (see withDevices).
	devices *injected

	// device and runtime choose where the OpenCL engine runs (WithDevice,
	// WithRuntime); both nil means platform.Default().
	device  *platform.Device
	runtime *platform.Runtime

	// tensor is the tensor-core mode of WithTensorCores when tensorSet;
	// otherwise GOCL_TENSOR decides (see tensor.go).
	tensor    TensorMode
	tensorSet bool

	// deviceList is WithDevices's devices (multi.go); multiHook is the
	// multi-device tile hook of tests.
	deviceList []*platform.Device
	multiHook  func(int, multi.Tile) error

	// options holds the values the other With… options give their
	// settings (settings.go), by variable name.
	options map[string]string
	// engine is what the engine is told, filled in by readSettings.
	engine eng.Options
}

// injected is a device pair with its cost model given directly to New.
type injected struct {
	dev64 device[float64]
	dev32 device[float32]
	cost  costModel
}

// An Option configures New.
type Option func(*config)

// WithOffload sets the offload policy. It takes precedence over GOCL_OFFLOAD.
func WithOffload(p Policy) Option {
	return func(c *config) {
		c.policy = p
		c.policySet = true
	}
}

// WithLogger sets the logger for device trouble (default slog.Default();
// nil also means the default).
func WithLogger(l *slog.Logger) Option {
	return func(c *config) { c.logger = l }
}

// withDevices makes New use the given devices and cost model instead of
// calling newDevice. Tests use it to put fake devices behind the front end.
func withDevices(d64 device[float64], d32 device[float32], cost costModel) Option {
	return func(c *config) { c.devices = &injected{dev64: d64, dev32: d32, cost: cost} }
}

// Implementation is gonum's blas.Float64 and blas.Float32 on an OpenCL
// device. Its methods are safe for concurrent use. Make one with New and
// release its device with Close.
type Implementation struct {
	policy Policy
	log    *slog.Logger
	// dev64 and dev32 are the devices of each precision, nil where there
	// is none (no OpenCL device; no double precision on it).
	dev64 device[float64]
	dev32 device[float32]
	cost  costModel
	// gate32 and gate64 are the offload gates of each precision (gate.go),
	// set with cost by setCost.
	gate32, gate64 gate
	// lim holds the level 1 routines' gates as limits on n.
	lim level1Limits
	// cxLim holds the complex level 1 routines' (gate_complex.go).
	cxLim cxLevel1Limits
	// lim2 holds the gates of the level 2 routines of order n alone
	// (gate_level2.go).
	lim2 level2Limits
	// cxLim2 holds the complex ones' (gate_level2.go).
	cxLim2 cxLevel2Limits
	// cxSq holds the square limits of the complex routines of several
	// dimensions (gate_int.go).
	cxSq cxSquareLimits
	// ig holds the integer gates of the level 2 and 3 routines of several
	// dimensions (gate_int.go).
	ig intGates
	// eng is the OpenCL engine behind dev64 and dev32 (nil when they are
	// not OpenCL devices): the resident API and the statistics use it.
	eng *eng.Engine

	closed    atomic.Bool
	closeOnce sync.Once
	closeErr  error

	// failed holds the names of the routines whose device failure has been
	// logged already.
	failed sync.Map
	// counts holds each routine's *routineCounts (Stats).
	counts sync.Map
}

// RoutineStats counts the calls of one BLAS routine that the offload
// policy weighed: sent to the device, run on the CPU by the policy, and,
// of those sent to the device, the ones that failed there and were
// finished on the CPU. Quick returns are not counted. Of the real
// (float32 and float64) routines, neither are the calls that could not go
// to the device (policy Never, no device, float64 on a device without it)
// or that are too small for it ever to pay (gonum needs less than the
// device's fixed cost of a call): those run gonum's code without any
// bookkeeping, so that they cost what they cost in gonum.
type RoutineStats struct {
	Device, CPU, Failed int64
	// NonFinite counts the calls among CPU that the policy would have sent
	// to the device but that ran gonum's code because a scalar or an
	// operand gonum reads was NaN or ±Inf: gonum skips zero multipliers,
	// which the device's kernels do not, so only gonum gives gonum's answer.
	NonFinite int64
}

type routineCounts struct {
	device, cpu, failed atomic.Int64
	// nonFinite counts the CPU calls the policy would have offloaded but
	// that went to gonum for their non-finite operands (offloadIf).
	nonFinite atomic.Int64
}

// counted returns routine's counters.
func (impl *Implementation) counted(routine string) *routineCounts {
	if v, ok := impl.counts.Load(routine); ok {
		return v.(*routineCounts)
	}
	v, _ := impl.counts.LoadOrStore(routine, new(routineCounts))
	return v.(*routineCounts)
}

// Stats returns, for every routine called so far, where its calls ran:
// what to look at when a program is not as fast as hoped (GOCL_OFFLOAD
// and WithOffload change the choice).
func (impl *Implementation) Stats() map[string]RoutineStats {
	out := map[string]RoutineStats{}
	impl.counts.Range(func(k, v any) bool {
		c := v.(*routineCounts)
		out[k.(string)] = RoutineStats{Device: c.device.Load(), CPU: c.cpu.Load(), Failed: c.failed.Load(), NonFinite: c.nonFinite.Load()}
		return true
	})
	return out
}

// New returns an Implementation on the default device. Without a
// WithOffload option the policy comes from GOCL_OFFLOAD (always, never or
// auto; unset or empty means auto), and an invalid value is an error.
func New(opts ...Option) (*Implementation, error) {
	cfg := config{policy: Auto}
	for _, o := range opts {
		o(&cfg)
	}
	if err := cfg.readSettingsEnv(); err != nil {
		return nil, err
	}
	switch cfg.policy {
	case Auto, Always, Never:
	default:
		return nil, fmt.Errorf("clblas: invalid offload policy %v", cfg.policy)
	}
	if cfg.logger == nil {
		cfg.logger = slog.Default()
	}

	impl := &Implementation{policy: cfg.policy, log: cfg.logger}
	if cfg.devices != nil {
		impl.dev64, impl.dev32 = cfg.devices.dev64, cfg.devices.dev32
		impl.setCost(cfg.devices.cost)
	} else {
		e, d64, d32, cost, err := openDevices(&cfg)
		if err != nil {
			return nil, err
		}
		impl.eng, impl.dev64, impl.dev32 = e, d64, d32
		impl.setCost(cost)
	}
	return impl, nil
}

// Policy returns the offload policy in force.
func (impl *Implementation) Policy() Policy { return impl.policy }

// Close releases the device. Calls made after Close run on the CPU. Close
// may be called more than once; later calls return the first result.
func (impl *Implementation) Close() error {
	impl.closeOnce.Do(func() {
		impl.closed.Store(true)
		var errs []error
		if impl.dev64 != nil {
			errs = append(errs, impl.dev64.Close())
		}
		if impl.dev32 != nil {
			errs = append(errs, impl.dev32.Close())
		}
		impl.closeErr = errors.Join(errs...)
	})
	return impl.closeErr
}

// deviceFailed records that the device could not run routine. The call is
// then finished on the CPU by the caller; the failure is logged once per
// routine per Implementation.
func (impl *Implementation) deviceFailed(routine string, err error) {
	impl.counted(routine).failed.Add(1)
	if impl.closed.Load() {
		// A call that raced with Close; nothing worth reporting.
		return
	}
	if _, seen := impl.failed.LoadOrStore(routine, struct{}{}); seen {
		return
	}
	impl.log.Warn("clblas: device call failed, finishing on the CPU (further failures of this routine are not logged)",
		"routine", routine, "err", err)
}
