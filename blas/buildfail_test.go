package clblas

import (
	"slices"
	"strings"
	"testing"

	"github.com/gocompute/opencl/internal/gemm"

	eng "github.com/gocompute/opencl/internal/engine"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// TestBuildFailureWarnsOnce: a GEMM whose program does not build on the
// device (here a gemm_cpu block that breaks gemm.cl's #error check, put in
// the engine's choice cache) gives gonum's answer from the CPU, and the
// failure is one slog warning that carries the compiler's build log;
// further calls of the routine log nothing more.
//
// What the library does today: the warning is per routine (a failing
// Sgemm or Dsymm would log once more), and the call goes straight to the
// CPU, not to another device configuration first.
func TestBuildFailureWarnsOnce(t *testing.T) {
	rec := &recorder{}
	impl, e := privateImpl(t, rec)
	const m, n, k = 21, 19, 17
	bad := gemm.Choose(gemm.Builtin(), eng.GemmDevice(e.Prof), 64, m, n, k, eng.EngineTensor(e))
	bad.Kernel, bad.SplitK, bad.KSlice = gemm.KernelCPU, 0, 0
	bad.CPUVec, bad.CPUVecs = 4, [2][2]int{}
	bad.CPUBlock[0][0] = [2]int{8, 6} // CPU_NB % CPU_VEC != 0: gemm.cl's #error
	if err := gemm.Valid(eng.GemmDevice(e.Prof), 64, false, false, bad); err == nil {
		t.Fatal("gemmValid accepts the broken configuration")
	}
	e.GemmChoices.Set(eng.GemmShape{Prec: 64, M: m, N: n, K: k, Mode: eng.EngineTensor(e)}, bad)

	a, b, c0 := make([]float64, m*k), make([]float64, k*n), make([]float64, m*n)
	for i := range a {
		a[i] = float64(i%7) - 3
	}
	for i := range b {
		b[i] = float64(i%5) - 2
	}
	for i := range c0 {
		c0[i] = float64(i%3) + 0.5
	}
	want := slices.Clone(c0)
	gonum.Implementation{}.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 0.5, a, k, b, n, 2, want, n)
	for call := range 3 {
		got := slices.Clone(c0)
		impl.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 0.5, a, k, b, n, 2, got, n)
		if !slices.Equal(got, want) {
			t.Fatalf("call %d: C differs from gonum's", call)
		}
	}
	if st := impl.Stats()["Dgemm"]; st.Failed != 3 {
		t.Errorf("Dgemm stats %+v, want 3 failed device calls", st)
	}
	warns := rec.warnings()
	if len(warns) != 1 {
		t.Fatalf("%d warnings, want 1: %q", len(warns), warns)
	}
	for _, want := range []string{"routine=Dgemm", "CL_BUILD_PROGRAM_FAILURE", "build log", "CPU_NB must be a multiple of CPU_VEC"} {
		if !strings.Contains(warns[0], want) {
			t.Errorf("the warning does not say %q: %s", want, warns[0])
		}
	}
}
