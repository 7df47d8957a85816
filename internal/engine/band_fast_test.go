package engine

import (
	"slices"
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

// TestGbmvTPartShape checks gbmv_t_part's launch: in float by default
// column pieces half of GEMV T's width, 8 rows in flight and at most
// gbmvTFloatRowBlocks row blocks that cover the band's rows; in double
// GEMV T's; a launch setting over either.
func TestGbmvTPartShape(t *testing.T) {
	sh := L1Shape{Local: 256, Vec: 4, Groups: 2112}
	m, n, kl, ku := 8192, 8192, 1024, 1024
	f := gbmvTPartShape(sh, 48<<10, 4, GemvTShape{}, m, n, kl, ku)
	tx, ty := gemvTShape(sh, 48<<10, 4)
	if f.tx != tx/2 || f.ty != ty || !slices.Contains(f.more, "GT_U=8") || f.nb > gbmvTFloatRowBlocks {
		t.Errorf("float: %+v, want %d×%d work-items, GT_U=8, at most %d row blocks", f, tx/2, ty, gbmvTFloatRowBlocks)
	}
	if span := kl + ku + f.tx*sh.Vec; f.nb*f.rpb < span || (f.nb-1)*f.rpb >= span || f.gx*f.tx*sh.Vec < n {
		t.Errorf("float: %d row blocks of %d rows, %d pieces, for %d rows and %d columns", f.nb, f.rpb, f.gx, span, n)
	}
	d := gbmvTPartShape(sh, 48<<10, 8, GemvTShape{}, m, n, kl, ku)
	if tx, ty := gemvTShape(sh, 48<<10, 8); d.tx != tx || d.ty != ty || len(d.more) != 0 || d.nb <= gbmvTFloatRowBlocks {
		t.Errorf("double: %+v, want GEMV T's %d×%d and its row blocks", d, tx, ty)
	}
	o := GemvTShape{TX: 64, TY: 2, Unroll: 4, RowBlocks: 33}
	if s := gbmvTPartShape(sh, 48<<10, 4, o, m, n, kl, ku); s.tx != 64 || s.ty != 2 || s.nb != 33 || slices.Contains(s.more, "GT_U=8") {
		t.Errorf("float with %+v set: %+v", o, s)
	}
}
