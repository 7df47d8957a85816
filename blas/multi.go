package clblas

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"sync/atomic"

	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/internal/multi"
	"github.com/gocompute/opencl/platform"
)

// One Implementation over several devices, by composition: the primary
// device (the best of them, by platform.Best) runs everything as before,
// behind the same front end and offload policy; a level 3 call that the
// policy sends to the device is split into tiles of C that every device
// takes from one queue (multi_gemm.go). Each device keeps its own engine:
// context, queues, programs, buffers, pools and staging.

// WithDevices runs the implementation on several devices: level 1 and 2
// calls, and level 3 calls too small to split, run on the best of them
// (platform.Best), and larger level 3 calls from Go slices are split
// across all of them. One device is the same as WithDevice. It takes
// precedence over GOCL_DEVICE, whose forms all, WORD:* and comma lists name
// several devices too.
func WithDevices(devs ...*platform.Device) Option {
	return func(c *config) { c.deviceList = append([]*platform.Device{}, devs...) }
}

// member is one device of a multi-device Implementation.
type member struct {
	e    *eng.Engine
	d64  device[float64] // nil without double precision
	d32  device[float32]
	cost costModel
	name string
	// sub is the single-device Implementation on this device (OnDevice).
	sub *Implementation

	tiles, units, failed, whole atomic.Int64
	// speeds holds, by routine name, what the device's tiles measured as
	// a factor of the cost model's estimate (*atomic.Uint64 of float64
	// bits; 0: not measured).
	speeds sync.Map
}

// multiSet is the devices of a multi-device Implementation; devs[0] is
// the primary.
type multiSet struct {
	devs   []*member
	log    *slog.Logger
	logged sync.Map // device name → struct{}: its failure is logged
	closed atomic.Bool

	// hook, when set (tests), runs before each tile on device i: a delay
	// simulates a slower device, an error a failing one.
	hook func(i int, t multi.Tile) error
}

// withMultiHook sets the multi-device tile hook (tests).
func withMultiHook(h func(i int, t multi.Tile) error) Option {
	return func(c *config) { c.multiHook = h }
}

// multiDev is the device of precision T of a multi-device Implementation:
// the primary's, with the level 3 calls that split overridden
// (multi_gemm.go, multi_l3.go).
type multiDev[T float32 | float64] struct {
	device[T]
	set *multiSet
}

// deviceOf is member mb's device of precision T, or nil.
func deviceOf[T float32 | float64](mb *member) device[T] {
	var d any = mb.d32
	if eng.ElemSize[T]() == 8 {
		d = mb.d64
	}
	dv, _ := d.(device[T])
	return dv
}

// borrowed is a member's device as its OnDevice Implementation sees it:
// closing that Implementation does nothing, closing the multi-device one
// closes it.
type borrowed[T float32 | float64] struct{ device[T] }

func (borrowed[T]) Close() error { return nil }

// borrow wraps d (nil stays nil).
func borrow[T float32 | float64](d device[T]) device[T] {
	if d == nil {
		return nil
	}
	return borrowed[T]{d}
}

// Close closes every member's device of precision T.
func (m *multiDev[T]) Close() error {
	m.set.close()
	errs := []error{m.device.Close()}
	for _, mb := range m.set.devs[1:] {
		if d := deviceOf[T](mb); d != nil {
			errs = append(errs, d.Close())
		}
	}
	return errors.Join(errs...)
}

// close marks the set and the Implementations of OnDevice closed, so that
// calls racing with Close run on the CPU without logging a failure.
func (set *multiSet) close() {
	set.closed.Store(true)
	for _, mb := range set.devs {
		mb.sub.closed.Store(true)
	}
}

// deviceList is the devices New is to open: WithDevices's, or the several
// GOCL_DEVICE names; nil means one device, chosen as before.
func (cfg *config) deviceListFor() ([]*platform.Device, error) {
	if cfg.deviceList != nil {
		if len(cfg.deviceList) == 0 {
			return nil, errors.New("clblas: WithDevices with no device")
		}
		return cfg.deviceList, nil
	}
	o := cfg.engine
	if o.Device != nil || o.Runtime != nil || !platform.IsMultiSpec(o.Spec) {
		return nil, nil
	}
	devs, err := platform.SelectAll(o.Spec)
	if err != nil {
		return nil, fmt.Errorf("clblas: choosing devices: %w", err)
	}
	return devs, nil
}

// openDevices opens what New puts behind the front end: one device as
// newDevice does, or several (WithDevices, GOCL_DEVICE=all, …).
func openDevices(cfg *config) (*eng.Engine, device[float64], device[float32], costModel, error) {
	devs, err := cfg.deviceListFor()
	if err != nil {
		return nil, nil, nil, costModel{}, err
	}
	if len(devs) == 0 {
		return newDevice(cfg)
	}
	if len(devs) == 1 {
		one := *cfg
		one.engine.Device, one.engine.Runtime = devs[0], nil
		return newDevice(&one)
	}
	// The primary first: the device one would get alone.
	best := platform.Best(devs)
	ordered := []*platform.Device{best}
	for _, d := range devs {
		if d != best {
			ordered = append(ordered, d)
		}
	}
	set := &multiSet{log: cfg.logger, hook: cfg.multiHook}
	closeAll := func() {
		for _, mb := range set.devs {
			if mb.d64 != nil {
				mb.d64.Close()
			}
			mb.d32.Close()
		}
	}
	for _, d := range ordered {
		one := *cfg
		one.engine.Device, one.engine.Runtime = d, nil
		e, d64, d32, cost, err := newDevice(&one)
		if err != nil {
			closeAll()
			return nil, nil, nil, costModel{}, fmt.Errorf("clblas: opening %s: %w", d, err)
		}
		cost.fillCPU()
		mb := &member{e: e, d64: d64, d32: d32, cost: cost, name: d.String()}
		mb.sub = &Implementation{policy: cfg.policy, log: cfg.logger, dev64: borrow(d64), dev32: borrow(d32), cost: cost, eng: e}
		set.devs = append(set.devs, mb)
	}
	p := set.devs[0]
	var d64 device[float64]
	if p.d64 != nil {
		d64 = &multiDev[float64]{p.d64, set}
	}
	return p.e, d64, &multiDev[float32]{p.d32, set}, p.cost, nil
}

// logFail logs a device's first failure in a split call.
func (set *multiSet) logFail(mb *member, routine string, err error) {
	mb.failed.Add(1)
	if set.closed.Load() {
		return // a call that raced with Close
	}
	if _, seen := set.logged.LoadOrStore(mb.name, struct{}{}); seen {
		return
	}
	set.log.Warn("clblas: a device failed during a split call; its unfinished tiles go to the other devices or the CPU (further failures of this device are not logged)",
		"device", mb.name, "routine", routine, "err", err)
}

// speed is the factor by which the device's tiles of routine ran faster
// than its cost model said (0: not measured yet).
func (mb *member) speed(routine string) *atomic.Uint64 {
	if v, ok := mb.speeds.Load(routine); ok {
		return v.(*atomic.Uint64)
	}
	v, _ := mb.speeds.LoadOrStore(routine, new(atomic.Uint64))
	return v.(*atomic.Uint64)
}

func loadFloat(a *atomic.Uint64) float64     { return math.Float64frombits(a.Load()) }
func storeFloat(a *atomic.Uint64, v float64) { a.Store(math.Float64bits(v)) }

// multiOf returns the device set of a multi-device Implementation, or nil.
func (impl *Implementation) multiOf() *multiSet {
	if d, ok := impl.dev32.(*multiDev[float32]); ok {
		return d.set
	}
	if d, ok := impl.dev64.(*multiDev[float64]); ok {
		return d.set
	}
	return nil
}

// shareHostSlice registers p, the pinned memory of a HostSlice made on
// impl's primary device, with impl's other devices, so that their GEMM
// tiles move it without staging copies too; it returns their engines.
func shareHostSlice(impl *Implementation, p *eng.Pinned) []*eng.Engine {
	set := impl.multiOf()
	if set == nil {
		return nil
	}
	var out []*eng.Engine
	for _, mb := range set.devs[1:] {
		if mb.e.HostSlices.Share(p) == nil {
			out = append(out, mb.e)
		}
	}
	return out
}

// DeviceStats is what one device of an Implementation did in split level 3
// calls.
type DeviceStats struct {
	// Device names the device ("P:D name (platform, type)").
	Device string
	// Tiles is the number of tiles of split calls it finished; Units the
	// rows (or columns) of C in them.
	Tiles, Units int64
	// Failed counts its tiles that failed and went to another device or
	// the CPU.
	Failed int64
	// Whole counts the level 3 calls sent to the devices that it ran
	// unsplit: too small to pay for a split, or with no other device that
	// joins it (a discrete GPU's split leaves CPU devices out). Only the
	// primary runs such calls.
	Whole int64
}

// DeviceStats returns, for each device the Implementation runs on (the
// primary first), the tiles of split level 3 calls it ran and the calls it
// ran unsplit. An Implementation on one device returns that device with
// zero counts.
func (impl *Implementation) DeviceStats() []DeviceStats {
	set := impl.multiOf()
	if set == nil {
		return []DeviceStats{{Device: impl.DeviceName()}}
	}
	out := make([]DeviceStats, len(set.devs))
	for i, mb := range set.devs {
		out[i] = DeviceStats{Device: mb.name, Tiles: mb.tiles.Load(), Units: mb.units.Load(), Failed: mb.failed.Load(), Whole: mb.whole.Load()}
	}
	return out
}

// NumDevices returns the number of devices the Implementation runs on (0
// when it has none).
func (impl *Implementation) NumDevices() int {
	if set := impl.multiOf(); set != nil {
		return len(set.devs)
	}
	if impl.eng != nil {
		return 1
	}
	return 0
}

// OnDevice returns an Implementation on device i alone (0 is the primary,
// the Implementation itself): its BLAS calls run on that device only, and
// the device-resident Matrix and Vector values made with it (NewMatrix,
// NewVector…) live on that device. An operation whose operands live on
// different devices is an error; CopyMatrix and CopyVector move data
// between devices. The returned Implementation shares the devices of impl:
// closing it does nothing, closing impl closes them. It panics if i is
// out of range.
func (impl *Implementation) OnDevice(i int) *Implementation {
	set := impl.multiOf()
	if i == 0 && set == nil {
		return impl
	}
	if set == nil || i < 0 || i >= len(set.devs) {
		panic(fmt.Sprintf("clblas: OnDevice(%d) with %d devices", i, impl.NumDevices()))
	}
	if i == 0 {
		return impl
	}
	return set.devs[i].sub
}
