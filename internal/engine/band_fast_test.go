package engine

import (
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

// TestGbmvTKernelFor checks the transposed band product's kernel choice:
// band_t on CPU devices and, on GPUs, for bands narrower than
// gbmvTPartMinBand (wider in double than in float); gbmv_t_part for wider
// bands there; a setting over either.
func TestGbmvTKernelFor(t *testing.T) {
	gpu := &Engine{Prof: platform.Profile{Type: cl.DeviceTypeGPU}}
	cpu := &Engine{Prof: platform.Profile{Type: cl.DeviceTypeCPU}}
	set := &Engine{Prof: platform.Profile{Type: cl.DeviceTypeGPU}, GbmvTKernel: GbmvTCols}
	for _, c := range []struct {
		name       string
		e          *Engine
		kl, ku, es int
		want       GbmvTKernel
	}{
		{"GPU, tridiagonal", gpu, 1, 1, 4, GbmvTCols},
		{"GPU, float, just narrow", gpu, 2046, 0, 4, GbmvTCols},
		{"GPU, float, just wide", gpu, 2047, 0, 4, GbmvTPart},
		{"GPU, float, kl = ku = 1024", gpu, 1024, 1024, 4, GbmvTPart},
		{"GPU, double, kl = ku = 1024", gpu, 1024, 1024, 8, GbmvTCols},
		{"GPU, double, just narrow", gpu, 4094, 0, 8, GbmvTCols},
		{"GPU, double, just wide", gpu, 4095, 0, 8, GbmvTPart},
		{"CPU, wide", cpu, 4096, 4096, 8, GbmvTCols},
		{"GPU, set", set, 4096, 4096, 4, GbmvTCols},
	} {
		if k := gbmvTKernelFor(&Call{E: c.e}, c.kl, c.ku, c.es); k != c.want {
			t.Errorf("%s (kl %d, ku %d): kernel %d, want %d", c.name, c.kl, c.ku, k, c.want)
		}
	}
}
