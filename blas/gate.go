package clblas

import (
	"math"
	"reflect"
	"strings"
)

// A gate is the first step of the offload decision, the only one a small
// call pays: a call whose workload is below both limits stays on the CPU
// without weighing, locking or counting, so that gonum's fastest calls
// stay about as fast behind the drop-in.
//
// Under Auto the limits are what gonum's code does in the device's fixed
// cost of a call (Launch): every device estimate is at least Launch, and
// a call below both limits takes gonum less than that. The gate is
// therefore never wrong, only incomplete: calls above it are weighed in
// full (decide).
type gate struct {
	flops, bytes float64
	// The same limits in whole numbers, for gatedN.
	nFlops, nBytes int
}

// gated reports whether w stays on the CPU at the gate.
func (impl *Implementation) gated(w workload) bool {
	g := &impl.gate32
	if w.prec == prec64 {
		g = &impl.gate64
	}
	return w.flops < g.flops && w.bytes < g.bytes
}

// gateFor is the gate of policy p for calls of precision prec on the
// device cm describes.
func gateFor(p Policy, cm *costModel, prec precision) gate {
	shut := gate{flops: math.Inf(1), bytes: math.Inf(1)}
	switch {
	case p == Never, !cm.present, prec == prec64 && !cm.FP64:
		return shut
	case p == Always:
		return gate{} // every call is weighed
	}
	launch := cm.Launch.Seconds()
	gflops := cm.cpuGFLOPS32
	if prec == prec64 {
		gflops = cm.cpuGFLOPS64
	}
	gflops *= serialShare() // cpuTime's slowest rate (workload.serial)
	mem := cm.cpuMemGBps
	if cm.cpuStreamGBps > 0 {
		mem = min(mem, cm.cpuStreamGBps) // cpuTime's rate of either level
	}
	return gate{flops: launch * max(gflops, 0) * 1e9, bytes: launch * max(mem, 0) * 1e9}
}

// setCost installs the cost model cm (with the host's estimates filled
// in) and the gates that follow from it and the policy.
func (impl *Implementation) setCost(cm costModel) {
	cm.fillCPU()
	impl.cost = cm
	impl.gate32 = gateFor(impl.policy, &impl.cost, prec32).whole()
	impl.gate64 = gateFor(impl.policy, &impl.cost, prec64).whole()
	impl.lim = limitsFor(impl.gate32, impl.gate64)
	impl.cxLim = cxLimitsFor(impl.gate32, impl.gate64)
	impl.lim2 = level2LimitsFor(impl.gate32, impl.gate64)
	impl.cxLim2 = cxLevel2LimitsFor(impl.gate32, impl.gate64)
	impl.cxSq = cxSquareLimitsFor(impl.gate32, impl.gate64)
	impl.ig = intGatesFor(impl.gate32, impl.gate64)
}

// level1Limits holds, for each level 1 routine, the n below which its
// calls stay on the CPU at the gate: the one comparison they pay before
// gonum's code (which makes the argument checks, with gonum's messages in
// gonum's order, since it is gonum's).
type level1Limits struct {
	Ddot, Dnrm2, Dasum, Idamax, Dswap, Dcopy, Daxpy, Drot, Drotm, Dscal int
	Sdot, Snrm2, Sasum, Isamax, Sswap, Scopy, Saxpy, Srot, Srotm, Sscal int
	Dsdot, Sdsdot                                                       int
}

// level1PerElement is the workload per element of each level 1 routine
// (its name without the precision letter): flops, and vector elements read
// or written. The front ends describe the same workloads (level1float64.go);
// TestLevel1Limits holds the two together.
var level1PerElement = map[string]struct{ flops, elems float64 }{
	"dot": {2, 2}, "nrm2": {2, 1}, "asum": {1, 1}, "amax": {1, 1},
	"swap": {0, 4}, "copy": {0, 2}, "axpy": {2, 3}, "rot": {6, 4}, "rotm": {6, 4}, "scal": {1, 2},
	"sdot": {2, 2},
}

// limitsFor returns the level 1 limits of the gates g32 and g64.
func limitsFor(g32, g64 gate) level1Limits {
	var l level1Limits
	v := reflect.ValueOf(&l).Elem()
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		g, size, key := g32, 4.0, strings.ToLower(name[1:])
		switch {
		case name == "Dsdot" || name == "Sdsdot":
			g, key = g64, "sdot"
		case name[0] == 'D' || name == "Idamax":
			g, size = g64, 8
		}
		if name[0] == 'I' {
			key = "amax"
		}
		pe, ok := level1PerElement[key]
		if !ok {
			panic("clblas: no level 1 workload for " + name)
		}
		v.Field(i).SetInt(int64(level1Limit(g, pe.flops, pe.elems*size)))
	}
	return l
}

// level1Limit is the n below which a call doing flops operations and
// moving bytes per element is gated by g: the least n with
// n·flops ≥ g.flops or n·bytes ≥ g.bytes.
func level1Limit(g gate, flops, bytes float64) int {
	lim := math.Inf(1)
	if flops > 0 {
		lim = g.flops / flops
	}
	if bytes > 0 {
		lim = min(lim, g.bytes/bytes)
	}
	if lim >= 1<<62 {
		return math.MaxInt
	}
	return int(math.Ceil(lim))
}
