package clblas

import "testing"

// TestTensorNeedsWorkGroups: the tensor-core kernel's large tiles are not
// chosen when they would leave most of the device idle.
func TestTensorNeedsWorkGroups(t *testing.T) {
	for _, tc := range []struct {
		n   int
		mma bool
	}{{512, false}, {768, true}, {1024, true}, {8192, true}} {
		cfg := gemmChoose(builtinTuning(), profH200, 64, tc.n, tc.n, tc.n, TensorAuto)
		if got := cfg.kernel == gemmKernelMMA; got != tc.mma {
			t.Errorf("H200 DGEMM n=%d: kernel %s, want tensor cores %v", tc.n, cfg.kernel, tc.mma)
		}
	}
}
