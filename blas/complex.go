package clblas

import "gonum.org/v1/gonum/blas"

//go:generate go run gen_complex64.go

var (
	_ blas.Complex128 = (*Implementation)(nil)
	_ blas.Complex64  = (*Implementation)(nil)
)

// complexOnCPU is the routing of every complex routine: complex BLAS runs
// on gonum's Go code (which does gonum's checks and quick returns itself)
// until the complex kernels of kernels/complex.cl are wired into the
// engine. It is called after the routine returned and counts the call as
// kept on the CPU in Stats when it did work (work is false for gonum's
// quick returns; a call that panicked is not counted). Wiring the device
// replaces this function with an offload decision per routine, taken
// after the checks.
func (impl *Implementation) complexOnCPU(routine string, work bool) {
	if work {
		impl.counted(routine).cpu.Add(1)
	}
}
