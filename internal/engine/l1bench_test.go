package engine

import "testing"

// TestL1Bench checks level 1 and GEMV on the test device under shapes the
// tuner tries (blocked loads, 32-bit indices, a covering grid, an odd
// unroll; GEMV on its GPU kernels too), and runs each routine of the
// bench and the copy once.
func TestL1Bench(t *testing.T) {
	e := testEngine(t)
	base := e.L1Shape(32)
	defer func() {
		if err := e.SetL1Shape(32, base); err != nil {
			t.Error(err)
		}
	}()
	portable := e.L2Portable
	defer func() { e.L2Portable = portable }()
	for _, sh := range []L1Shape{
		base,
		// The defines of TestLevel1ShapeVariants's first float32 shape
		// (package clblas), whose program the cache may hold.
		{Local: min(64, base.Local), Vec: base.Vec, Unroll: 3, Groups: 5, Cover: true, Block: true, Idx32: true, Nrm2D: true},
	} {
		if err := e.SetL1Shape(32, sh); err != nil {
			t.Fatal(err)
		}
		for _, p := range []bool{false, true} {
			e.L2Portable = p
			if err := CheckL1Shape[float32](e); err != nil {
				t.Errorf("L2Portable=%v: %v", p, err)
			}
		}
	}
	e.L2Portable = portable
	b, err := NewL1Bench[float32](e, 1000, 40)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, op := range L1Ops {
		if b.Bytes(op) <= 0 {
			t.Errorf("Bytes(%s) = %v", op, b.Bytes(op))
		}
		if err := b.Run(op, 2); err != nil {
			t.Errorf("Run(%s): %v", op, err)
		}
		if err := b.RunCopy(op, 1); err != nil {
			t.Errorf("RunCopy(%s): %v", op, err)
		}
	}
	if err := b.Run("nonsense", 1); err == nil {
		t.Errorf("Run(nonsense) = nil, want an error")
	}
}
