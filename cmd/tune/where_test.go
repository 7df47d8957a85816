package main

import "testing"

func TestWhereFilter(t *testing.T) {
	keep, err := parseWhere("MWG=32|64,MDIMC=16")
	if err != nil {
		t.Fatal(err)
	}
	all := candidates("tiled", 32, false)
	got := filterCandidates(all, keep)
	if len(got) == 0 || len(got) >= len(all) {
		t.Fatalf("kept %d of %d candidates", len(got), len(all))
	}
	for _, c := range got {
		if m := c.Defines["MWG"]; m != 32 && m != 64 {
			t.Errorf("%v: MWG %d kept", c, m)
		}
		if c.Defines["MDIMC"] != 16 {
			t.Errorf("%v: MDIMC kept", c)
		}
	}
	for _, bad := range []string{"MWG", "MWG=", "MWG=x", "=4"} {
		if _, err := parseWhere(bad); err == nil {
			t.Errorf("parseWhere(%q) accepted", bad)
		}
	}
}

// TestWhereSwitches: a gemm_mma switch given in -where also selects on the
// candidates that leave it out of their defines (they take its default).
func TestWhereSwitches(t *testing.T) {
	keep, err := parseWhere("MWG=128,NWG=64,KWG=8,WM=64,WN=32,STAGES=3,CP_VEC=1,MMA_K=4,KM_SWZ=0,PIPE_FRAG=0")
	if err != nil {
		t.Fatal(err)
	}
	got := filterCandidates(candidates("mma", 64, false), keep)
	// ISSUE_MIX is free: 0 and 1.
	if len(got) != 2 {
		t.Fatalf("kept %d candidates, want 2: %v", len(got), got)
	}
	for _, c := range got {
		if c.Defines["CP_VEC"] != 1 {
			t.Errorf("%v: kept without CP_VEC=1", c)
		}
		if _, ok := c.Defines["MMA_K"]; ok {
			t.Errorf("%v: kept with an MMA_K other than 4", c)
		}
		if _, ok := c.Defines["KM_SWZ"]; ok {
			t.Errorf("%v: kept with KM_SWZ", c)
		}
	}
}
