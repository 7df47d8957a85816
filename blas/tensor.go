package clblas

import (
	"fmt"

	"github.com/gocompute/opencl/internal/settings"
)

// TensorMode says when GEMM may run on tensor cores (kernels/gemm_mma.cl:
// NVIDIA devices of compute capability ≥ 8.0 only; elsewhere every mode is
// the FMA kernels of gemm.cl).
type TensorMode int

const (
	// TensorAuto (the default) runs DGEMM on the FP64 tensor cores, which
	// are exact FP64 FMAs (as accurate as the FMA kernel, and about twice
	// as fast: BENCHMARKS.md, "Figures behind the code's choices"), and SGEMM by 3xTF32
	// where the tuning database's entry for the device says "default"
	// (the H200, where it measured faster than the FP32 FMA kernel and
	// more accurate); on other tensor-core devices SGEMM stays on the FMA
	// kernel.
	TensorAuto TensorMode = iota
	// TensorOff never uses tensor cores.
	TensorOff
	// TensorTF32x3 runs SGEMM on tensor cores on every device that has
	// them, with the 3xTF32 method (each operand split in two TF32 halves,
	// three products), which is more accurate than the FP32 FMA kernel
	// (BENCHMARKS.md, "Figures behind the code's choices").
	TensorTF32x3
)

// envTensor is the environment variable New reads when no WithTensorCores
// option is given.
const envTensor = settings.Tensor

// String returns "auto", "off" or "tf32x3".
func (t TensorMode) String() string {
	switch t {
	case TensorAuto:
		return "auto"
	case TensorOff:
		return "off"
	case TensorTF32x3:
		return "tf32x3"
	}
	return fmt.Sprintf("TensorMode(%d)", int(t))
}

// ParseTensorMode parses a GOCL_TENSOR value: "auto" (or empty), "off",
// and "tf32x3" or "on" (every tensor-core path, 3xTF32 SGEMM included);
// any case, surrounding space ignored.
func ParseTensorMode(s string) (TensorMode, error) {
	w, _ := settings.ParseTensor(s)
	switch w {
	case "auto":
		return TensorAuto, nil
	case "off":
		return TensorOff, nil
	case "tf32x3":
		return TensorTF32x3, nil
	}
	return TensorAuto, fmt.Errorf("clblas: invalid %s value %q (want auto, off, on or tf32x3)", envTensor, s)
}
