package clblas

import "testing"

// TestAutoDirectKernels: a routine whose device kernel runs well below the
// GEMM rate (syrk, symm, trmm, …) is kept on the CPU where the GEMM of the
// same size would go to the device, and still goes to a fast enough device.
func TestAutoDirectKernels(t *testing.T) {
	cpuDev := cpuDeviceModel(60) // a CPU device 4× faster than gonum at GEMM
	w := gemmWork(prec64, 1024)
	if !decide(Auto, &cpuDev, w) {
		t.Fatal("a 1024³ GEMM stays on the CPU although the device is 4× faster")
	}
	if decide(Auto, &cpuDev, w.direct(0.1)) {
		t.Error("a direct-kernel routine at a tenth of the GEMM rate goes to a device slower than gonum for it")
	}
	gpu := gpuLikeModel()
	if !decide(Auto, &gpu, gemmWork(prec64, 2048).direct(0.1)) {
		t.Error("a 2048³ direct-kernel routine stays on the CPU next to a GPU 400× faster")
	}
}
