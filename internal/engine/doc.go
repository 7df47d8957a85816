// Package engine is the OpenCL half of clblas, the part that knows devices
// and memory but not gonum's argument rules: package clblas checks the
// arguments, takes gonum's quick returns and decides what to offload, then
// calls down here. It holds:
//
//   - the Engine: one runtime on one device, opened from its own Options
//     (OpenEngine; EnvOptions reads them from the GOCL_* settings), and
//     Call, one device routine in progress, whose methods record the first
//     error and make every later step a no-op (engine.go);
//   - Device[T], every BLAS routine on host slices, which the front end
//     calls through its device[T] seam (device.go), built on the
//     enqueue-only …OnDevice routines that the drop-in and the
//     device-resident paths share (device_level1.go, device_level2.go,
//     device_level3.go, and their complex peers zgemm.go, zlevel3.go);
//   - the GEMM launcher: the kernel choice of internal/gemm turned into
//     launches, the skinny and split-K routes (gemm.go, gemm_skinny.go);
//   - host↔device transfers and the staged GEMM pipeline: pinned staging
//     (transfer.go), its policy (Plan), queues (PipeQueues), schedules
//     (RowPanels, TileOrder, SlabSchedule, …), the pipeline itself
//     (gemm_pipeline.go, gemm_staged.go, l3_keep.go), its block copies and
//     its time accounting (XferCounters, DeviceTimeline);
//   - device buffers, on huge pages on CPU devices (CreateBuffer), the
//     pools of device buffers, pinned staging buffers and kernel
//     objects (BufferPool, PinnedPool, KernelPool, KernelSpec), and the
//     registry of pinned host slices (HostSlices) that lets GEMM copy
//     from them directly;
//   - what running on the device costs (Cost, EstimateCost), which the
//     offload policy weighs, and the per-shape cache of GEMM's kernel
//     choice (GemmChoices);
//   - the geometry of strided vectors and matrices (VecSpan, MatSpan, …);
//   - the fault-injection hook that tests use (Faults) and the launch
//     counts (Launches);
//   - the tuner's hooks (TuneCheck, GemmBench), which cmd/tune imports.
//
// It imports only downward: internal/gemm, internal/par,
// internal/settings, kernels, platform and cl (internal/docscheck's
// TestLayers checks it).
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
