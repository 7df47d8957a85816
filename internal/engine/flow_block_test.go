package engine

import (
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

// TestFlowBlockT checks the width of the CPU flow solves' blocks with
// op(A) = Aᵀ or Aᴴ: n over twice the compute units, a multiple of 64,
// within [256, 512] (complex128: 256); Engine.FlowBlockT over it.
func TestFlowBlockT(t *testing.T) {
	cpu := func(units int) *Engine {
		return &Engine{Prof: platform.Profile{Type: cl.DeviceTypeCPU, ComputeUnits: units}}
	}
	set := cpu(2)
	set.FlowBlockT = 40
	for _, c := range []struct {
		name    string
		e       *Engine
		prec, n int
		cplx    bool
		want    int
	}{
		{"2 cores, small", cpu(2), 32, 100, false, 256},
		{"2 cores, 1024", cpu(2), 64, 1024, false, 256},
		{"2 cores, 1300: a multiple of 64", cpu(2), 64, 1300, false, 320},
		{"2 cores, 2048", cpu(2), 32, 2048, false, 512},
		{"2 cores, 8192", cpu(2), 64, 8192, false, 512},
		{"16 cores, 2048", cpu(16), 32, 2048, false, 256},
		{"16 cores, 8192", cpu(16), 64, 8192, false, 256},
		{"16 cores, 12288", cpu(16), 64, 12288, false, 384},
		{"16 cores, 16384", cpu(16), 32, 16384, false, 512},
		{"no compute units reported", cpu(0), 32, 8192, false, 512},
		{"complex64, 2 cores, 4096", cpu(2), 32, 4096, true, 512},
		{"complex128, 2 cores, 4096", cpu(2), 64, 4096, true, 256},
		{"complex128, 16 cores, 16384", cpu(16), 64, 16384, true, 256},
		{"set", set, 64, 8192, false, 40},
		{"set, complex128", set, 64, 8192, true, 40},
	} {
		if got := flowBlockT(&Call{E: c.e, prec: c.prec}, c.n, c.cplx); got != c.want {
			t.Errorf("%s: width %d, want %d", c.name, got, c.want)
		}
	}
}
