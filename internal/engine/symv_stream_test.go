package engine

import (
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

// TestSymvStreamShapeFor checks the derived stream shapes: real tiles 64
// elements wide in groups of 256 work-items where the device allows,
// complex ones of 512-byte rows, narrowed by the device's local memory
// and work-group limit.
func TestSymvStreamShapeFor(t *testing.T) {
	for _, c := range []struct {
		vec, es    int
		localMem   int64
		maxLocal   int
		walk, cplx bool
		want       SymvStreamShape
	}{
		{4, 4, 48 << 10, 1024, false, false, SymvStreamShape{Vec: 4, TX: 16, TY: 16, Chunk: 4}},
		{8, 4, 48 << 10, 1024, false, false, SymvStreamShape{Vec: 4, TX: 16, TY: 16, Chunk: 4}},
		{2, 8, 48 << 10, 1024, false, false, SymvStreamShape{Vec: 2, TX: 32, TY: 8, Chunk: 4}},
		{1, 4, 48 << 10, 1024, false, false, SymvStreamShape{Vec: 1, TX: 32, TY: 8, Chunk: 4}},
		{4, 4, 48 << 10, 64, false, false, SymvStreamShape{Vec: 4, TX: 16, TY: 4, Chunk: 4}},
		{2, 8, 48 << 10, 1024, true, false, SymvStreamShape{Vec: 2, TX: 32, TY: 8, Chunk: 4, Walk: true}},
		// Complex: two elements a load, 512-byte tile rows.
		{8, 8, 48 << 10, 1024, false, true, SymvStreamShape{Vec: 2, TX: 32, TY: 4, Chunk: 4}},
		{8, 8, 48 << 10, 1024, true, true, SymvStreamShape{Vec: 2, TX: 32, TY: 8, Chunk: 8, Walk: true}},
		{4, 16, 48 << 10, 1024, false, true, SymvStreamShape{Vec: 2, TX: 16, TY: 8, Chunk: 4}},
		{4, 16, 48 << 10, 1024, true, true, SymvStreamShape{Vec: 2, TX: 16, TY: 8, Chunk: 4, Walk: true}},
		{1, 8, 48 << 10, 1024, false, true, SymvStreamShape{Vec: 1, TX: 32, TY: 4, Chunk: 4}},
		// Narrowed by the local memory: 2·32·(32+1)·16 bytes fits 3/4 of
		// 32 KiB at 16 across.
		{1, 16, 32 << 10, 1024, false, true, SymvStreamShape{Vec: 1, TX: 16, TY: 4, Chunk: 4}},
	} {
		got := symvStreamShapeFor(L1Shape{Vec: c.vec}, c.localMem, c.maxLocal, c.es, c.walk, c.cplx)
		if got != c.want || !got.valid() {
			t.Errorf("vec %d, %d-byte elements (complex %v, walk %v), local %d, max group %d: %+v (valid %v), want %+v",
				c.vec, c.es, c.cplx, c.walk, c.localMem, c.maxLocal, got, got.valid(), c.want)
		}
	}
}

// TestStreamKernelsFor checks the dense symv's and trmv's kernel choice:
// the stream on GPUs, the tiles and GEMV's kernels on CPU devices unless
// L2Portable, and a setting over either.
func TestStreamKernelsFor(t *testing.T) {
	gpu := &Engine{Prof: platform.Profile{Type: cl.DeviceTypeGPU}}
	cpu := &Engine{Prof: platform.Profile{Type: cl.DeviceTypeCPU}}
	portable := &Engine{Prof: platform.Profile{Type: cl.DeviceTypeCPU}, L2Portable: true}
	set := &Engine{Prof: platform.Profile{Type: cl.DeviceTypeGPU}, SymvKernel: SymvTiles, TrmvKernel: TrmvGemv}
	for _, c := range []struct {
		name string
		e    *Engine
		symv SymvKernel
		trmv TrmvKernel
	}{
		{"GPU", gpu, SymvStream, TrmvStream},
		{"CPU", cpu, SymvTiles, TrmvGemv},
		{"CPU, portable", portable, SymvStream, TrmvStream},
		{"GPU, set", set, SymvTiles, TrmvGemv},
	} {
		call := &Call{E: c.e}
		if s, tr := symvKernelFor(call), trmvKernelFor(call); s != c.symv || tr != c.trmv {
			t.Errorf("%s: symv %d, trmv %d; want %d, %d", c.name, s, tr, c.symv, c.trmv)
		}
	}
}
