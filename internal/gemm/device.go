package gemm

import "github.com/gocompute/opencl/internal/settings"

// Device is what the GEMM choice needs to know of a device: a plain
// description, filled in from the OpenCL device's profile by the engine
// (the choice itself makes no OpenCL call).
type Device struct {
	Name       string // device name, e.g. "NVIDIA H200"
	Vendor     string // normalised vendor word ("nvidia", "amd", "pocl", …)
	VendorName string // the driver's vendor string
	Platform   string // platform name

	CPU, GPU          bool
	ComputeCapability [2]int // NVIDIA only; zeros elsewhere
	ComputeUnits      int
	MaxWorkGroupSize  int
	LocalMemBytes     int64
	FP64              bool // cl_khr_fp64

	PreferredVectorFloat, PreferredVectorDouble int
}

// IsCPU reports whether the device is a CPU.
func (d Device) IsCPU() bool { return d.CPU }

// IsGPU reports whether the device is a GPU.
func (d Device) IsGPU() bool { return d.GPU }

// VendorNVIDIA is the Vendor word of NVIDIA's devices.
const VendorNVIDIA = "nvidia"

// Tensor says when GEMM may run on tensor cores (the front end's
// TensorMode, whose values it has).
type Tensor int

const (
	TensorAuto   Tensor = iota // DGEMM on tensor cores, SGEMM where the database says "default"
	TensorOff                  // never
	TensorTF32x3               // SGEMM by 3xTF32 wherever there are tensor cores
)

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// groups rounds n up to a multiple of the work-group size wg.
func groups(n, wg int) int { return ceilDiv(n, wg) * wg }

// ParseTensor parses a GOCL_TENSOR value (settings.ParseTensor's words).
func ParseTensor(s string) (Tensor, error) {
	w, err := settings.ParseTensor(s)
	switch w {
	case "off":
		return TensorOff, nil
	case "tf32x3":
		return TensorTF32x3, nil
	}
	return TensorAuto, err
}
