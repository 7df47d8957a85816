package engine

import (
	"fmt"

	"github.com/gocompute/opencl/internal/gemm/profile"
	"github.com/gocompute/opencl/internal/l12tuning"
	"github.com/gocompute/opencl/platform"
)

// L1Shape is how the level 1 kernels (kernels/level1.cl) are built and
// launched on a device in one precision.
type L1Shape struct {
	Local  int // work-group size, a power of two (the reductions need one)
	Vec    int // L1_VW: elements per vector load on the unit-stride path
	Unroll int // L1_UNROLL: vector loads a work-item has in flight
	Groups int // the most work-groups of a reduction's first pass (and GEMV T's, GER's)
	// EwGroups is the most work-groups of an element-wise launch (0:
	// Groups); with Cover, the grid covers the vector instead, each
	// work-item taking Unroll vectors once.
	EwGroups  int
	Cover     bool
	Block     bool // L1_BLOCK: each group takes one run of consecutive vectors
	Idx32     bool // L1_IDX32: 32-bit indices in the unit-stride loops
	Nrm2D     bool // L1_NRM2_D: float nrm2 sums squares in double (devices with fp64)
	LeanNrm2  bool // L1_LEAN_NRM2: nrm2 with fewer instructions per element
	LeanIamax bool // L1_LEAN_IAMAX: iamax with fewer instructions per element
	// OnePass: a reduction is one launch whose last work-group merges
	// the partials (level1.cl's _one kernels), where the call runs on the
	// engine's queue; else a first and a second pass.
	OnePass bool
	// FinWide: the second pass runs as one group of a work-item per
	// partial (FinLocal), not of Local.
	FinWide bool
	// OneLaunchL2: the transposed GEMV and band products are one launch
	// (gemv.cl's GT_ONE; on CPU devices the partial sums' kernels of
	// level2.cl, l2OneLaunch) where the call runs on the engine's queue.
	OneLaunchL2 bool
	// ReadApartMin: a reduction whose operands hold at least this many
	// bytes reads its result back into its Scalar's slot on a queue of
	// its own (slots_apart.go), not the engine's; 0: never.
	ReadApartMin int
}

// L1ShapeFor is the level 1 shape for device p and precision prec (32 or
// 64): the entry of the tuning database (kernels/l12_tuning.json) for p,
// if it has one that p can launch, else the shape L1ShapeDerived derives.
func L1ShapeFor(p platform.Profile, prec int) L1Shape {
	return L1ShapeFrom(l12tuning.Builtin(), p, prec)
}

// L1ShapeFrom is L1ShapeFor with the tuning database db.
func L1ShapeFrom(db *l12tuning.DB, p platform.Profile, prec int) L1Shape {
	if e, ok := l12tuning.Lookup(db, profile.Device(p), prec); ok {
		if s := L1ShapeOfEntry(e, p); s.Valid(p) == nil {
			return s
		}
	}
	return L1ShapeDerived(p, prec)
}

// L1ShapeOfEntry is the shape of a tuning database entry on device p,
// whose compute units count its groups.
func L1ShapeOfEntry(e l12tuning.Entry, p platform.Profile) L1Shape {
	cu := max(p.ComputeUnits, 1)
	return L1Shape{Local: e.Local, Vec: e.Vec, Unroll: e.Unroll, Groups: e.Groups * cu,
		EwGroups: e.EwGroups * cu, Cover: e.Cover, Block: e.Block, Idx32: e.Idx32, Nrm2D: e.Nrm2D,
		LeanNrm2: e.LeanNrm2, LeanIamax: e.LeanIamax, OnePass: e.OnePass, FinWide: e.FinWide, ReadApartMin: e.ReadApartMin, OneLaunchL2: e.OneLaunchL2}
}

// L1ShapeDerived derives the level 1 shape for device p and precision
// prec (32 or 64).
//
// A GPU gets groups of 256 (or the largest power of two it allows), loads
// of at least 16 bytes (a float4 or double2, the widest most GPUs load per
// work-item in one instruction; wider if the device prefers wider vectors),
// two loads in flight per work-item, and enough groups for 2048 work-items
// per compute unit, so that every compute unit holds as many as it can
// run, and a second pass of a work-item per partial. A CPU gets its
// preferred vector width (1 if it reports none) and four work-groups of
// one work-item per core, each taking one run of the vector (L1_BLOCK): a
// work-group is a loop on one core, which then streams through memory in
// order, and a few groups per core even out the load. Both get the lean
// nrm2 (L1_LEAN_NRM2), a GPU the lean iamax too (L1_LEAN_IAMAX: on PoCL's
// CPU device it lost; BENCHMARKS.md, fortieth session), and neither the
// one-pass reductions: their merge relies on global memory fences across
// work-groups, which only a measured entry vouches for on its device.
func L1ShapeDerived(p platform.Profile, prec int) L1Shape {
	pref := p.PreferredVectorFloat
	elem := 4
	if prec == 64 {
		pref, elem = p.PreferredVectorDouble, 8
	}
	cu := max(p.ComputeUnits, 1)
	var s L1Shape
	if p.IsCPU() {
		s = L1Shape{Local: 1, Vec: pow2Floor(min(max(pref, 1), 16)), Unroll: 1, Groups: 4 * cu, Block: true, LeanNrm2: true}
	} else {
		s = L1Shape{Local: 256, Vec: pow2Floor(min(max(pref, 16/elem), 16)), Unroll: 2, LeanNrm2: true, LeanIamax: true, FinWide: true}
	}
	for s.Local > 1 && p.MaxWorkGroupSize > 0 && s.Local > p.MaxWorkGroupSize {
		s.Local /= 2
	}
	if !p.IsCPU() {
		s.Groups = cu * max(2048/s.Local, 1)
	}
	return s
}

// pow2Floor is the largest power of two ≤ n (n ≥ 1).
func pow2Floor(n int) int {
	p := 1
	for p*2 <= n {
		p *= 2
	}
	return p
}

// Defines are the build defines of level1.cl for s.
func (s L1Shape) Defines() []string {
	d := []string{fmt.Sprintf("L1_VW=%d", s.Vec), fmt.Sprintf("L1_UNROLL=%d", s.Unroll)}
	if s.Block {
		d = append(d, "L1_BLOCK=1")
	}
	if s.Idx32 {
		d = append(d, "L1_IDX32=1")
	}
	if s.Nrm2D {
		d = append(d, "L1_NRM2_D=1")
	}
	if s.LeanNrm2 {
		d = append(d, "L1_LEAN_NRM2=1")
	}
	if s.LeanIamax {
		d = append(d, "L1_LEAN_IAMAX=1")
	}
	return d
}

// FinLocal is the work-group size of the second pass over g partials on
// device p: with FinWide the smallest power of two ≥ g (at most the
// device's limit, and 1024), else Local.
func (s L1Shape) FinLocal(p platform.Profile, g int) int {
	if !s.FinWide {
		return s.Local
	}
	limit := 1024
	if p.MaxWorkGroupSize > 0 {
		limit = min(limit, pow2Floor(p.MaxWorkGroupSize))
	}
	ls := 1
	for ls < g && ls < limit {
		ls *= 2
	}
	return ls
}

// GroupsFor is the number of work-groups of a reduction's first pass over
// n elements: as many as give each work-item at least one vector, at most
// s.Groups, at least one.
func (s L1Shape) GroupsFor(n int) int {
	per := s.Local * s.Vec
	return max(min(s.Groups, (n+per-1)/per), 1)
}

// EwGroupsFor is the number of work-groups of an element-wise launch over
// n elements: with Cover, enough for each work-item to take Unroll
// vectors; else as many as give each work-item at least one vector, at
// most EwGroups (Groups if that is 0); at least one.
func (s L1Shape) EwGroupsFor(n int) int {
	per := s.Local * s.Vec
	if s.Cover {
		return max((n+per*s.Unroll-1)/(per*s.Unroll), 1)
	}
	g := s.EwGroups
	if g == 0 {
		g = s.Groups
	}
	return max(min(g, (n+per-1)/per), 1)
}

// Valid reports whether s can be built and launched on p.
func (s L1Shape) Valid(p platform.Profile) error {
	switch {
	case s.Local < 1 || s.Local&(s.Local-1) != 0:
		return fmt.Errorf("level 1: work-group size %d is not a power of two", s.Local)
	case p.MaxWorkGroupSize > 0 && s.Local > p.MaxWorkGroupSize:
		return fmt.Errorf("level 1: work-group size %d over the device's %d", s.Local, p.MaxWorkGroupSize)
	case s.Vec != 1 && s.Vec != 2 && s.Vec != 4 && s.Vec != 8 && s.Vec != 16:
		return fmt.Errorf("level 1: vector width %d (want 1, 2, 4, 8 or 16)", s.Vec)
	case s.Unroll < 1 || s.Unroll > 16:
		return fmt.Errorf("level 1: unroll %d (want 1 to 16)", s.Unroll)
	case s.Groups < 1:
		return fmt.Errorf("level 1: %d work-groups", s.Groups)
	case s.EwGroups < 0:
		return fmt.Errorf("level 1: %d element-wise work-groups", s.EwGroups)
	}
	return nil
}
