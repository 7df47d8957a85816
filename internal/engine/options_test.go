package engine

import "testing"

func TestParseZeroCopy(t *testing.T) {
	for v, want := range map[string]ZeroCopy{"": ZeroCopyAuto, "auto": ZeroCopyAuto, " ON ": ZeroCopyOn, "off": ZeroCopyOff} {
		if got, err := ParseZeroCopy(v); err != nil || got != want {
			t.Errorf("ParseZeroCopy(%q) = %v, %v; want %v", v, got, err, want)
		}
	}
	if _, err := ParseZeroCopy("sometimes"); err == nil {
		t.Error(`ParseZeroCopy("sometimes"): no error`)
	}
}
