// Package engine is the OpenCL half of clblas, the part that knows devices
// and memory but not gonum's argument rules: what it costs to run work on
// a device (the offload policy's device side), the pools of device buffers
// and of pinned staging buffers, and the registry of pinned host slices
// that lets GEMM tell memory it can copy from directly.
//
// It imports only downward: internal/gemm, kernels, platform and cl. The
// front end (package clblas) decides what runs where; this package runs it.
package engine

// Real is the element type of a device routine.
type Real interface{ ~float32 | ~float64 }
