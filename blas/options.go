package clblas

import (
	"github.com/gocompute/opencl/platform"
)

// WithDevice runs the implementation on d instead of platform.Default().
// The implementation creates its own runtime (context, queue, program
// cache) on d and releases it on Close.
func WithDevice(d *platform.Device) Option {
	return func(c *config) { c.device = d }
}

// WithRuntime runs the implementation on an existing runtime, sharing its
// context, queue and program cache with the caller (for example with the
// device-resident API). Close does not close rt.
func WithRuntime(rt *platform.Runtime) Option {
	return func(c *config) { c.runtime = rt }
}

// DeviceName names the device the implementation runs on ("none" when it
// has no OpenCL device and everything runs on the CPU).
func (impl *Implementation) DeviceName() string {
	if impl.eng != nil {
		return impl.eng.RT.Device().String()
	}
	return "none"
}

// Runtime returns the platform runtime (context, queue, program cache) the
// implementation runs on, or nil when it has no OpenCL device. Do not close
// it; Close the Implementation instead.
func (impl *Implementation) Runtime() *platform.Runtime {
	if impl.eng != nil {
		return impl.eng.RT
	}
	return nil
}

// WithTensorCores sets when GEMM may run on tensor cores (NVIDIA devices of
// compute capability ≥ 8.0): TensorAuto (the default: DGEMM, and SGEMM by
// the 3xTF32 method where the tuning database says so), TensorOff, or
// TensorTF32x3 (SGEMM by 3xTF32 wherever there are tensor cores). It takes
// precedence over GOCL_TENSOR.
func WithTensorCores(mode TensorMode) Option {
	return func(c *config) {
		c.tensor = mode
		c.tensorSet = true
	}
}
