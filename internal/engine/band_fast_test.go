package engine

import (
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

// TestGbmvTKernelFor checks the transposed band product's kernel choice:
// band_t on CPU devices and, on GPUs, for bands narrower than
// gbmvTPartMinBand; gbmv_t_part for wider bands there; a setting over
// either.
func TestGbmvTKernelFor(t *testing.T) {
	gpu := &Engine{Prof: platform.Profile{Type: cl.DeviceTypeGPU}}
	cpu := &Engine{Prof: platform.Profile{Type: cl.DeviceTypeCPU}}
	set := &Engine{Prof: platform.Profile{Type: cl.DeviceTypeGPU}, GbmvTKernel: GbmvTCols}
	for _, c := range []struct {
		name   string
		e      *Engine
		kl, ku int
		want   GbmvTKernel
	}{
		{"GPU, tridiagonal", gpu, 1, 1, GbmvTCols},
		{"GPU, just narrow", gpu, gbmvTPartMinBand - 2, 0, GbmvTCols},
		{"GPU, just wide", gpu, gbmvTPartMinBand - 1, 0, GbmvTPart},
		{"GPU, kl = ku = 1024", gpu, 1024, 1024, GbmvTCols},
		{"GPU, kl = ku = 2048", gpu, 2048, 2048, GbmvTPart},
		{"CPU, wide", cpu, 4096, 4096, GbmvTCols},
		{"GPU, set", set, 4096, 4096, GbmvTCols},
	} {
		if k := gbmvTKernelFor(&Call{E: c.e}, c.kl, c.ku); k != c.want {
			t.Errorf("%s (kl %d, ku %d): kernel %d, want %d", c.name, c.kl, c.ku, k, c.want)
		}
	}
}
