package clblas

import (
	"slices"
	"testing"
)

// TestParseCounts: BenchmarkFlowBlockT's lists of orders and widths, and
// what it must refuse.
func TestParseCounts(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int
	}{
		{"512", []int{512}},
		{"512,256,1024", []int{512, 256, 1024}},
		{"1,1", []int{1, 1}},
	} {
		if got, err := parseCounts(c.in); err != nil || !slices.Equal(got, c.want) {
			t.Errorf("parseCounts(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "0", "-4", "512,", ",512", "512,,256", "x", "5 12", "1.5"} {
		if got, err := parseCounts(in); err == nil {
			t.Errorf("parseCounts(%q) = %v, want an error", in, got)
		}
	}
}
