package clblas

import (
	"os/exec"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/testblas"
)

// complexTestblasSuite is every exported Complex128 test of
// gonum.org/v1/gonum/blas/testblas (v0.17.0), by the routine it tests.
var complexTestblasSuite = []struct {
	name string
	test func(*testing.T, *Implementation)
}{
	{"Zaxpy", func(t *testing.T, impl *Implementation) { testblas.ZaxpyTest(t, impl) }},
	{"Zcopy", func(t *testing.T, impl *Implementation) { testblas.ZcopyTest(t, impl) }},
	{"Zdotc", func(t *testing.T, impl *Implementation) { testblas.ZdotcTest(t, impl) }},
	{"Zdotu", func(t *testing.T, impl *Implementation) { testblas.ZdotuTest(t, impl) }},
	{"Zdscal", func(t *testing.T, impl *Implementation) { testblas.ZdscalTest(t, impl) }},
	{"Zscal", func(t *testing.T, impl *Implementation) { testblas.ZscalTest(t, impl) }},
	{"Zswap", func(t *testing.T, impl *Implementation) { testblas.ZswapTest(t, impl) }},
	{"Dzasum", func(t *testing.T, impl *Implementation) { testblas.DzasumTest(t, impl) }},
	{"Dznrm2", func(t *testing.T, impl *Implementation) { testblas.Dznrm2Test(t, impl) }},
	{"Izamax", func(t *testing.T, impl *Implementation) { testblas.IzamaxTest(t, impl) }},
	{"Zgbmv", func(t *testing.T, impl *Implementation) { testblas.ZgbmvTest(t, &sampledZgbmv{impl, 0}) }},
	{"Zgemv", func(t *testing.T, impl *Implementation) { testblas.ZgemvTest(t, impl) }},
	{"Zgerc", func(t *testing.T, impl *Implementation) { testblas.ZgercTest(t, impl) }},
	{"Zgeru", func(t *testing.T, impl *Implementation) { testblas.ZgeruTest(t, impl) }},
	{"Zhbmv", func(t *testing.T, impl *Implementation) { testblas.ZhbmvTest(t, impl) }},
	{"Zhemv", func(t *testing.T, impl *Implementation) { testblas.ZhemvTest(t, impl) }},
	{"Zher", func(t *testing.T, impl *Implementation) { testblas.ZherTest(t, impl) }},
	{"Zher2", func(t *testing.T, impl *Implementation) { testblas.Zher2Test(t, impl) }},
	{"Zhpmv", func(t *testing.T, impl *Implementation) { testblas.ZhpmvTest(t, impl) }},
	{"Zhpr", func(t *testing.T, impl *Implementation) { testblas.ZhprTest(t, impl) }},
	{"Zhpr2", func(t *testing.T, impl *Implementation) { testblas.Zhpr2Test(t, impl) }},
	{"Ztbmv", func(t *testing.T, impl *Implementation) { testblas.ZtbmvTest(t, impl) }},
	{"Ztbsv", func(t *testing.T, impl *Implementation) { testblas.ZtbsvTest(t, impl) }},
	{"Ztpmv", func(t *testing.T, impl *Implementation) { testblas.ZtpmvTest(t, impl) }},
	{"Ztpsv", func(t *testing.T, impl *Implementation) { testblas.ZtpsvTest(t, impl) }},
	{"Ztrmv", func(t *testing.T, impl *Implementation) { testblas.ZtrmvTest(t, impl) }},
	{"Ztrsv", func(t *testing.T, impl *Implementation) { testblas.ZtrsvTest(t, impl) }},
	{"Zgemm", func(t *testing.T, impl *Implementation) { testblas.ZgemmTest(t, impl) }},
	{"Zhemm", func(t *testing.T, impl *Implementation) { testblas.ZhemmTest(t, impl) }},
	{"Zher2k", func(t *testing.T, impl *Implementation) { testblas.Zher2kTest(t, impl) }},
	{"Zherk", func(t *testing.T, impl *Implementation) { testblas.ZherkTest(t, impl) }},
	{"Zsymm", func(t *testing.T, impl *Implementation) { testblas.ZsymmTest(t, impl) }},
	{"Zsyr2k", func(t *testing.T, impl *Implementation) { testblas.Zsyr2kTest(t, impl) }},
	{"Zsyrk", func(t *testing.T, impl *Implementation) { testblas.ZsyrkTest(t, impl) }},
	{"Ztrmm", func(t *testing.T, impl *Implementation) { testblas.ZtrmmTest(t, impl) }},
	{"Ztrsm", func(t *testing.T, impl *Implementation) { testblas.ZtrsmTest(t, impl) }},
}

// TestComplexTestblas runs gonum's Complex128 conformance tests against
// the implementation with the device forced on (Always) and off (Never),
// and checks in Stats where the calls ran (checkComplexStats).
func TestComplexTestblas(t *testing.T) {
	for _, p := range []Policy{Always, Never} {
		t.Run(p.String(), func(t *testing.T) {
			impl := complexSuiteImpl(t, p)
			for _, tc := range complexTestblasSuite {
				t.Run(tc.name, func(t *testing.T) {
					tc.test(t, impl)
					checkComplexStats(t, impl, p, tc.name)
				})
			}
		})
	}
}

// newComplexImpl returns an Implementation of its own with policy p, closed
// when the test ends.
func newComplexImpl(t *testing.T, p Policy) *Implementation {
	t.Helper()
	newTestImpl(t) // skips (or fails under GOCL_REQUIRE_DEVICE=1) without a device
	impl, err := New(WithOffload(p))
	if err != nil {
		t.Fatalf("New(WithOffload(%v)): %v", p, err)
	}
	t.Cleanup(func() {
		if err := impl.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return impl
}

// TestComplexStatsQuickReturns checks that gonum's quick returns are not
// counted as calls kept on the CPU, and calls that did work are.
func TestComplexStatsQuickReturns(t *testing.T) {
	impl := newComplexImpl(t, Always)
	c := []complex128{1, 2, 3, 4}
	impl.Zgemm(blas.NoTrans, blas.NoTrans, 2, 2, 0, 1, c, 1, c, 2, 1, c, 2)
	impl.Zaxpy(0, 1, nil, 1, nil, 1)
	impl.Dznrm2(2, c, -1)
	impl.Zherk(blas.Upper, blas.NoTrans, 2, 1, 0, c, 1, 1, c, 2)
	if st := impl.Stats(); len(st) != 0 {
		t.Errorf("quick returns were counted: %v", st)
	}
	impl.Zgemm(blas.NoTrans, blas.ConjTrans, 2, 2, 1, 1, c, 1, c, 1, 0, c, 2)
	impl.Cherk(blas.Lower, blas.ConjTrans, 1, 1, 2, []complex64{1i}, 1, 0, []complex64{5}, 1)
	want := map[string]RoutineStats{"Zgemm": {Device: 1}, "Cherk": {Device: 1}}
	for name, w := range want {
		if got := impl.Stats()[name]; got != w {
			t.Errorf("Stats()[%q] = %+v, want %+v", name, got, w)
		}
	}
}

// TestComplex64Generated checks that level{1,2,3}complex64.go are what
// gen_complex64.go makes of level{1,2,3}complex128.go.
func TestComplex64Generated(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to check the generated files: %v", err)
	}
	cmd := exec.Command(goTool, "run", "gen_complex64.go", "-check")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go run gen_complex64.go -check: %v\n%s", err, out)
	}
}
