package clblas

import "math"

// The gate in whole numbers. A complex level 2 or 3 front end's gate is
// all that a call which stays on the CPU pays before gonum's routine, and
// gated's float64 workload costs it three conversions and a chain of
// multiplications; the same workload in ints costs about a nanosecond
// less (BENCHMARKS.md, "Figures behind the code's choices").

// whole returns g with nFlops and nBytes set: the least integers that
// integral workloads below g's limits stay below.
func (g gate) whole() gate {
	g.nFlops, g.nBytes = ceilInt(g.flops), ceilInt(g.bytes)
	return g
}

// ceilInt is ⌈v⌉ for v ≥ 0, and math.MaxInt for v beyond it (+Inf).
func ceilInt(v float64) int {
	switch {
	case !(v > 0):
		return 0
	case v >= math.MaxInt:
		return math.MaxInt
	}
	return int(math.Ceil(v))
}

// gatedN is gated for a workload of flops operations on elems elements of
// precision p, in ints: whether it stays on the CPU at the gate. The
// products of a call's dimensions fit an int for any call whose operands
// fit in memory; a call whose dimensions overflow is one gonum rejects.
func (impl *Implementation) gatedN(p precision, flops, elems int) bool {
	g := &impl.gate32
	if p == prec64 {
		g = &impl.gate64
	}
	return flops < g.nFlops && elems*int(p) < g.nBytes
}
