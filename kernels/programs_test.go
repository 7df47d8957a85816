package kernels

import (
	"slices"
	"strings"
	"testing"
)

// TestPrograms: every embedded .cl file but common.cl is a program; each
// program is built from embedded files, its own last, with common.cl first
// exactly when it is not standalone (gemm.cl, gemm_mma.cl).
func TestPrograms(t *testing.T) {
	var want []string
	for _, n := range Names() {
		if strings.HasSuffix(n, ".cl") && n != Common {
			want = append(want, n)
		}
	}
	if got := Programs(); !slices.Equal(got, want) {
		t.Errorf("programs %v, want every source but %s: %v", got, Common, want)
	}
	for _, name := range Programs() {
		srcs, err := Program(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		standalone := name == "gemm.cl" || name == "gemm_mma.cl"
		if srcs[len(srcs)-1] != MustSource(name) {
			t.Errorf("%s: not built from its own file last", name)
		}
		// A program is its own file after common.cl, or after common.cl
		// and the files whose helpers it shares (gemv.cl: level1.cl).
		if first := srcs[0] == MustSource(Common); first == standalone || (standalone && len(srcs) != 1) || (!standalone && len(srcs) < 2) {
			t.Errorf("%s: %d sources, common.cl first %v; standalone %v", name, len(srcs), first, standalone)
		}
	}
	if _, err := Program("nothing.cl"); err == nil || !strings.Contains(err.Error(), "level1.cl") {
		t.Errorf("an unknown program: %v, want an error listing the programs", err)
	}
}
