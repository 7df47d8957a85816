package clblas

import (
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/testblas"
)

// runTestblas runs testblasSuite's test of the routine name on impl.
func runTestblas(t *testing.T, name string, impl blas.Float64) {
	t.Helper()
	for _, tc := range testblasSuite {
		if tc.name == name {
			tc.test(t, impl)
		}
	}
}

// testblasSuite is every exported Float64 test of
// gonum.org/v1/gonum/blas/testblas (v0.17.0), by the routine it tests.
var testblasSuite = []struct {
	name string
	test func(*testing.T, blas.Float64)
}{
	{"Dasum", func(t *testing.T, impl blas.Float64) { testblas.DasumTest(t, impl) }},
	{"Daxpy", func(t *testing.T, impl blas.Float64) { testblas.DaxpyTest(t, impl) }},
	{"Ddot", func(t *testing.T, impl blas.Float64) { testblas.DdotTest(t, impl) }},
	{"Dnrm2", func(t *testing.T, impl blas.Float64) { testblas.Dnrm2Test(t, impl) }},
	{"Idamax", func(t *testing.T, impl blas.Float64) { testblas.IdamaxTest(t, impl) }},
	{"Dswap", func(t *testing.T, impl blas.Float64) { testblas.DswapTest(t, impl) }},
	{"Dcopy", func(t *testing.T, impl blas.Float64) { testblas.DcopyTest(t, impl) }},
	{"Drotg", func(t *testing.T, impl blas.Float64) { testblas.DrotgTest(t, impl, false) }},
	{"Drotmg", func(t *testing.T, impl blas.Float64) { testblas.DrotmgTest(t, impl) }},
	{"Drot", func(t *testing.T, impl blas.Float64) { testblas.DrotTest(t, impl) }},
	{"Drotm", func(t *testing.T, impl blas.Float64) { testblas.DrotmTest(t, impl) }},
	{"Dscal", func(t *testing.T, impl blas.Float64) { testblas.DscalTest(t, impl) }},
	{"Dgemv", func(t *testing.T, impl blas.Float64) { testblas.DgemvTest(t, impl) }},
	{"Dgbmv", func(t *testing.T, impl blas.Float64) { testblas.DgbmvTest(t, impl) }},
	{"Dger", func(t *testing.T, impl blas.Float64) { testblas.DgerTest(t, impl) }},
	{"Dsbmv", func(t *testing.T, impl blas.Float64) { testblas.DsbmvTest(t, impl) }},
	{"Dspmv", func(t *testing.T, impl blas.Float64) { testblas.DspmvTest(t, impl) }},
	{"Dspr", func(t *testing.T, impl blas.Float64) { testblas.DsprTest(t, impl) }},
	{"Dspr2", func(t *testing.T, impl blas.Float64) { testblas.Dspr2Test(t, impl) }},
	{"Dsymv", func(t *testing.T, impl blas.Float64) { testblas.DsymvTest(t, impl) }},
	{"Dsyr", func(t *testing.T, impl blas.Float64) { testblas.DsyrTest(t, impl) }},
	{"Dsyr2", func(t *testing.T, impl blas.Float64) { testblas.Dsyr2Test(t, impl) }},
	{"Dtbmv", func(t *testing.T, impl blas.Float64) { testblas.DtbmvTest(t, impl) }},
	{"Dtbsv", func(t *testing.T, impl blas.Float64) { testblas.DtbsvTest(t, impl) }},
	{"Dtpmv", func(t *testing.T, impl blas.Float64) { testblas.DtpmvTest(t, impl) }},
	{"Dtpsv", func(t *testing.T, impl blas.Float64) { testblas.DtpsvTest(t, impl) }},
	{"Dtrmv", func(t *testing.T, impl blas.Float64) { testblas.DtrmvTest(t, impl) }},
	{"Dtrsv", func(t *testing.T, impl blas.Float64) { testblas.DtrsvTest(t, impl) }},
	{"Dtxmv", func(t *testing.T, impl blas.Float64) { testblas.DtxmvTest(t, impl) }},
	{"Dgemm", func(t *testing.T, impl blas.Float64) { testblas.TestDgemm(t, impl) }},
	{"Dsymm", func(t *testing.T, impl blas.Float64) { testblas.DsymmTest(t, impl) }},
	{"Dsyrk", func(t *testing.T, impl blas.Float64) { testblas.DsyrkTest(t, impl) }},
	{"Dsyr2k", func(t *testing.T, impl blas.Float64) { testblas.Dsyr2kTest(t, impl) }},
	{"Dtrmm", func(t *testing.T, impl blas.Float64) { testblas.DtrmmTest(t, impl) }},
	{"Dtrsm", func(t *testing.T, impl blas.Float64) { testblas.DtrsmTest(t, impl) }},
}

// TestTestblas runs gonum's conformance tests against newTestImpl's
// implementation, and against one with gonum's own code behind the device
// seam, which checks the device path of the front end on its own: the
// reference device must see calls in every test but Drotg's (Drotg always
// runs on the CPU; the Drotmg test also calls Drotm).
func TestTestblas(t *testing.T) {
	for _, tc := range testblasSuite {
		t.Run(tc.name, func(t *testing.T) {
			t.Run("default", func(t *testing.T) { tc.test(t, newTestImpl(t)) })
			t.Run("refdevice", func(t *testing.T) {
				ref, calls := newRefImpl(t)
				tc.test(t, ref)
				if got := calls.Load(); (tc.name == "Drotg") != (got == 0) {
					t.Errorf("%d calls reached the device", got)
				}
			})
		})
	}
}
