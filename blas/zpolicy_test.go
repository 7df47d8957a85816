package clblas

import (
	"runtime"
	"testing"
)

// TestComplexAutoPolicy checks Auto's choice for complex GEMM on a GPU-like
// cost model: tiny products stay with gonum (the launches and transfers
// cost more than gonum's loops), large ones go to the device; and gonum's
// complex code counts as one core's (doubled) rate, not the machine's.
func TestComplexAutoPolicy(t *testing.T) {
	gpu := gpuLikeModel()
	for _, tc := range []struct {
		n      int
		device bool
	}{{2, false}, {8, false}, {512, true}, {2048, true}} {
		w := zgemmWork[complex128](tc.n, tc.n, tc.n, true)
		if got := decide(Auto, &gpu, w); got != tc.device {
			t.Errorf("Zgemm n = %d: device = %v, want %v (device %.3g s, CPU %.3g s)", tc.n, got, tc.device, gpu.deviceTime(w), gpu.cpuTime(w))
		}
		if w.flops != 8*float64(tc.n*tc.n*tc.n) {
			t.Errorf("Zgemm n = %d: %g flops, want 8n³", tc.n, w.flops)
		}
	}
	w := zgemmWork[complex64](100, 100, 100, false)
	serial := gpu.cpuTime(w)
	w.serial = false
	if want := gpu.cpuTime(w) * max(1, float64(runtime.GOMAXPROCS(0))/2); serial < 0.999*want || serial > 1.001*want {
		t.Errorf("serial CPU time %g, want %g", serial, want)
	}
}
