// Package engine is the OpenCL half of clblas, the part that knows devices
// and memory but not gonum's argument rules. It holds what the device
// routines of package clblas build on:
//
//   - the engine's options (Options) and what running on the device costs
//     (Cost, EstimateCost), which the offload policy weighs;
//   - the pools of device buffers, pinned staging buffers and kernel
//     objects (BufferPool, PinnedPool, KernelPool, KernelSpec), and the
//     registry of pinned host slices (HostSlices) that lets GEMM copy
//     from them directly;
//   - the staged GEMM pipeline: its policy (Plan), its queues
//     (PipeQueues), its schedules (RowPanels, TileOrder, SlabSchedule, …),
//     its block copies and its time accounting (XferCounters,
//     DeviceTimeline);
//   - the per-shape cache of GEMM's kernel choice (GemmChoices);
//   - the geometry of strided vectors and matrices (VecSpan, MatSpan, …);
//   - the fault-injection hook that tests use (Faults) and the launch
//     counts (Launches).
//
// It imports only downward: internal/gemm, internal/settings, kernels,
// platform and cl.
package engine

// Real is the element type of a device routine.
type Real interface{ ~float32 | ~float64 }

// Elem is the element type of a device buffer: Real, or complex, whose
// parts are Real (OpenCL's float2 and double2). The kernels of a complex
// routine are built with the PRECISION of its parts.
type Elem interface {
	Real | ~complex64 | ~complex128
}

// IsComplex reports whether T is complex64 or complex128.
func IsComplex[T Elem]() bool {
	var v T
	switch any(v).(type) {
	case complex64, complex128:
		return true
	}
	return false
}
