package clblas

// This file holds what the CPU path needs to give gonum's answers without
// gonum v0.17.0's known faults (see also gerNegInc64 and gerNegInc32). It is
// the front end's own (internal/engine has VecSpan for the device side).

// vecExtent returns the length of the shortest slice that holds n ≥ 1
// elements spaced inc ≠ 0 apart: the part of a vector operand a routine
// may touch.
//
// Handing gonum an output vector cut to its span keeps every write inside
// the operand: gonum v0.17.0's float32 gemv assembly, called with β = 0 and
// incY = 1, clears the whole slice it is given rather than its first lenY
// elements.
func vecExtent(n, inc int) int {
	if inc < 0 {
		inc = -inc
	}
	return 1 + (n-1)*inc
}
