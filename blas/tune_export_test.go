package clblas

import (
	"errors"
	"testing"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/internal/gemm"
)

// TestTuneBench runs the tuner's hooks on the test device: a valid
// candidate is checked and timed, invalid ones are refused before any
// build.
func TestTuneBench(t *testing.T) {
	impl := newTestImpl(t)
	g, err := NewGemmBench[float32](impl, blas.NoTrans, blas.Trans, 33, 47, 29)
	if err != nil {
		t.Fatalf("NewGemmBench: %v", err)
	}
	defer g.Close()
	good := gemm.TuneConfig{Kernel: gemm.KernelCPU, Defines: map[string]int{"CPU_VEC": 16, "CPU_MB": 4, "CPU_NB": 4}}
	if testEngine(t).Prof.IsGPU() {
		good = gemm.TuneConfig{Kernel: gemm.KernelTiled, Defines: map[string]int{"MWG": 32, "NWG": 32, "KWG": 16, "MDIMC": 8, "NDIMC": 8}}
	}
	res, err := g.Run(good, 3)
	if err != nil || !res.OK || len(res.Times) != 3 || res.GFLOPS <= 0 {
		t.Fatalf("Run(%v) = %+v, %v; want a checked, timed result", good, res, err)
	}
	for _, bad := range []gemm.TuneConfig{
		{Kernel: gemm.KernelTiled, Defines: map[string]int{"MWG": 48, "MDIMC": 16, "VWM": 4}},
		{Kernel: gemm.KernelTiled, Defines: map[string]int{"MDIMC": 64, "NDIMC": 64}},
		{Kernel: gemm.KernelCPU, Defines: map[string]int{"CPU_VEC": 3, "CPU_MB": 8, "CPU_NB": 24}},
		{Kernel: "gemm_nonsense"},
	} {
		if _, err := g.Run(bad, 1); !errors.Is(err, gemm.ErrInvalidConfig) {
			t.Errorf("Run(%v): %v, want ErrInvalidConfig", bad, err)
		}
	}
	// The tensor-core kernel needs NVIDIA sm_80+.
	if !gemm.TensorCapable(testEngine(t).GemmDev()) {
		if err := TuneCheck(impl, 32, blas.NoTrans, blas.NoTrans, gemm.TuneConfig{Kernel: gemm.KernelMMA}); !errors.Is(err, gemm.ErrInvalidConfig) {
			t.Errorf("TuneCheck(gemm_mma) on %s: %v, want ErrInvalidConfig", testEngine(t).Prof.Name, err)
		}
	}
}
