package engine

import (
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

// TestGbmvTKernelFor checks the transposed band product's kernel choice:
// band_t on CPU devices and, on GPUs, for bands narrower than
// gbmvTPartMinBand and for double bands of gbmvTColsMinN columns or more;
// gbmv_t_part for the other wide bands there; a setting over either.
func TestGbmvTKernelFor(t *testing.T) {
	gpu := &Engine{Prof: platform.Profile{Type: cl.DeviceTypeGPU}}
	cpu := &Engine{Prof: platform.Profile{Type: cl.DeviceTypeCPU}}
	set := &Engine{Prof: platform.Profile{Type: cl.DeviceTypeGPU}, GbmvTKernel: GbmvTCols}
	const wide = gbmvTColsMinN
	for _, c := range []struct {
		name          string
		e             *Engine
		n, kl, ku, es int
		want          GbmvTKernel
	}{
		{"GPU, tridiagonal", gpu, 100, 1, 1, 4, GbmvTCols},
		{"GPU, float, just narrow", gpu, wide, gbmvTPartMinBand - 2, 0, 4, GbmvTCols},
		{"GPU, float, just wide", gpu, wide, gbmvTPartMinBand - 1, 0, 4, GbmvTPart},
		{"GPU, float, kl = ku = 1024", gpu, 2 * wide, 1024, 1024, 4, GbmvTPart},
		{"GPU, double, just narrow", gpu, wide - 1, gbmvTPartMinBand - 2, 0, 8, GbmvTCols},
		{"GPU, double, just wide, few columns", gpu, wide - 1, gbmvTPartMinBand - 1, 0, 8, GbmvTPart},
		{"GPU, double, wide, just enough columns", gpu, wide, 4096, 4096, 8, GbmvTCols},
		{"CPU, wide", cpu, 100, 4096, 4096, 8, GbmvTCols},
		{"GPU, set", set, 100, 4096, 4096, 4, GbmvTCols},
	} {
		if k := gbmvTKernelFor(&Call{E: c.e}, c.n, c.kl, c.ku, c.es); k != c.want {
			t.Errorf("%s (n %d, kl %d, ku %d, %d bytes): kernel %d, want %d", c.name, c.n, c.kl, c.ku, c.es, k, c.want)
		}
	}
}
