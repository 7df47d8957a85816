package engine

import (
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/internal/l12tuning"
	"github.com/gocompute/opencl/platform"
)

// TestL1ShapeFrom: a device with an entry takes it (groups counted per
// compute unit), unless it cannot launch it; other devices and
// precisions get the derived shape.
func TestL1ShapeFrom(t *testing.T) {
	src := []byte(`{"schema": 1, "devices": [{"match": {"name": "Dev A", "type": "GPU"}, "entries": [
		{"precision": 32, "local": 512, "vec": 8, "unroll": 4, "groups_per_cu": 2, "elementwise_groups_per_cu": 16, "block": true, "idx32": true},
		{"precision": 64, "local": 1024, "vec": 2, "unroll": 1, "groups_per_cu": 4, "cover": true}]}]}`)
	db, err := l12tuning.Parse(src, "test")
	if err != nil {
		t.Fatal(err)
	}
	a := platform.Profile{Name: "Dev A", Type: cl.DeviceTypeGPU, ComputeUnits: 10, MaxWorkGroupSize: 512, PreferredVectorFloat: 1, PreferredVectorDouble: 1}
	want := L1Shape{Local: 512, Vec: 8, Unroll: 4, Groups: 20, EwGroups: 160, Block: true, Idx32: true}
	if got := L1ShapeFrom(db, a, 32); got != want {
		t.Errorf("Dev A, 32: %+v, want %+v", got, want)
	}
	// Groups of 1024 are over Dev A's limit: the derived shape.
	if got, want := L1ShapeFrom(db, a, 64), L1ShapeDerived(a, 64); got != want {
		t.Errorf("Dev A, 64: %+v, want the derived %+v", got, want)
	}
	b := a
	b.Name = "Dev B"
	if got, want := L1ShapeFrom(db, b, 32), L1ShapeDerived(b, 32); got != want {
		t.Errorf("Dev B, 32: %+v, want the derived %+v", got, want)
	}
}

// TestL1ShapeGroups: element-wise and reduction grids.
func TestL1ShapeGroups(t *testing.T) {
	s := L1Shape{Local: 256, Vec: 4, Unroll: 2, Groups: 100}
	for _, c := range []struct {
		n, red, ew int
		sh         L1Shape
	}{
		{0, 1, 1, s},
		{1, 1, 1, s},
		{1024, 1, 1, s},
		{1025, 2, 2, s},
		{1 << 26, 100, 100, s},
		{1 << 26, 100, 7, L1Shape{Local: 256, Vec: 4, Unroll: 2, Groups: 100, EwGroups: 7}},
		{1 << 26, 100, 1 << 15, L1Shape{Local: 256, Vec: 4, Unroll: 2, Groups: 100, Cover: true}},
		{2049, 3, 2, L1Shape{Local: 256, Vec: 4, Unroll: 2, Groups: 100, Cover: true}},
	} {
		if got := c.sh.GroupsFor(c.n); got != c.red {
			t.Errorf("%+v GroupsFor(%d) = %d, want %d", c.sh, c.n, got, c.red)
		}
		if got := c.sh.EwGroupsFor(c.n); got != c.ew {
			t.Errorf("%+v EwGroupsFor(%d) = %d, want %d", c.sh, c.n, got, c.ew)
		}
	}
}
