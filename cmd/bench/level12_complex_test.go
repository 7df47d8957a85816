package main

import "testing"

// TestLevel12ComplexSmoke runs every complex row of the level 1 and 2
// mode on small sizes with all columns (and the checks of the reductions),
// so that a broken row fails here rather than in the next GPU session.
func TestLevel12ComplexSmoke(t *testing.T) {
	b := testBencher(t)
	precs := []string{"c64", "c128"}
	if !b.impl.Runtime().Device().Profile().FP64 {
		precs = precs[:1]
	}
	if err := level12Main(b, []string{"1", "2"}, precs, 1000, 24, nil, true, true, ""); err != nil {
		t.Fatal(err)
	}
}
