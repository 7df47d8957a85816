package engine

import "testing"

func TestZMethodFor(t *testing.T) {
	for _, c := range []struct {
		set     ZMethod
		m, n, k int
		want    ZMethod
	}{
		{ZAuto, 2048, 2048, 2048, Z3M},
		{ZAuto, 8192, 4096, 2048, Z3M},
		{ZAuto, 2047, 8192, 8192, Z4M},
		{ZAuto, 8192, 8192, 64, Z4M},
		{Z4M, 8192, 8192, 8192, Z4M},
		{Z3M, 1, 1, 1, Z3M},
	} {
		e := &Engine{ZMethod: c.set}
		if got := e.zMethod(c.m, c.n, c.k); got != c.want {
			t.Errorf("zMethod(set %d, %d×%d×%d) = %d, want %d", c.set, c.m, c.n, c.k, got, c.want)
		}
	}
	for v, want := range map[string]ZMethod{"": ZAuto, "auto": ZAuto, "4M": Z4M, " 3m ": Z3M} {
		if got, err := ParseZMethod(v); err != nil || got != want {
			t.Errorf("ParseZMethod(%q) = %d, %v; want %d", v, got, err, want)
		}
	}
	if _, err := ParseZMethod("5m"); err == nil {
		t.Error("ParseZMethod(5m): no error")
	}
}
