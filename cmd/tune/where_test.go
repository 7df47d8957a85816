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
