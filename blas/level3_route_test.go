package clblas

import (
	eng "github.com/gocompute/opencl/internal/engine"

	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/testblas"
)

// TestLevel3ViaGemm runs gonum's conformance tests and our float32 checks
// of symm, syrk, syr2k and trmm with the GEMM route forced (it is taken
// from l3GemmMin up; the tests' shapes are smaller; trmm's blocks are cut
// to 3 so that its small matrices have several), and with the direct
// route forced, so both stay right whatever the sizes.
func TestLevel3ViaGemm(t *testing.T) {
	for _, mode := range []struct {
		name  string
		route eng.L3RouteMode
	}{{"gemm", eng.L3ViaGemm}, {"direct", eng.L3Direct}} {
		t.Run(mode.name, func(t *testing.T) {
			impl, e := privateImpl(t, nil)
			e.L3Route, e.L3Block = mode.route, 3
			before := e.L3ViaGemm.Load()
			t.Run("Dsymm", func(t *testing.T) { testblas.DsymmTest(t, impl) })
			t.Run("Dsyrk", func(t *testing.T) { testblas.DsyrkTest(t, impl) })
			t.Run("Dsyr2k", func(t *testing.T) { testblas.Dsyr2kTest(t, impl) })
			t.Run("Dtrmm", func(t *testing.T) { testblas.DtrmmTest(t, impl) })
			for i := range level3Routines32 {
				rt := &level3Routines32[i]
				switch rt.name {
				case "Ssymm", "Ssyrk", "Ssyr2k", "Strmm":
					t.Run(rt.name, func(t *testing.T) { testRoutine32(t, rt, namedImpl32{mode.name, impl}) })
				}
			}
			used := e.L3ViaGemm.Load() - before
			if (mode.route == eng.L3ViaGemm) != (used > 0) {
				t.Errorf("route %s: %d calls took the GEMM route", mode.name, used)
			}
		})
	}
}

// BenchmarkLevel3Route times Dsyrk, Dsyr2k, Dsymm and Dtrmm from host slices
// through the direct kernels and through the GEMM route:
//
//	go test -run XXX -bench Level3Route ./blas/
func BenchmarkLevel3Route(b *testing.B) {
	impl := newTestImpl(b)
	d, ok := impl.dev64.(eng.ClDevice64)
	if !ok {
		b.Skip("no float64 device")
	}
	e := d.E
	defer func() { e.L3Route = eng.L3Auto }()
	sizes := []int{64, 128, 256, 512, 1024}
	if e.Prof.IsCPU() {
		sizes = []int{32, 64, 128, 256, 512}
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, n := range sizes {
		a, bb, c := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
		for i := range a {
			a[i], bb[i] = rnd.Float64()-0.5, rnd.Float64()-0.5
		}
		calls := map[string]func(){
			"syrk":  func() { impl.Dsyrk(blas.Upper, blas.NoTrans, n, n, 1, a, n, 0, c, n) },
			"syr2k": func() { impl.Dsyr2k(blas.Lower, blas.Trans, n, n, 1, a, n, bb, n, 0, c, n) },
			"symm":  func() { impl.Dsymm(blas.Left, blas.Upper, n, n, 1, a, n, bb, n, 0, c, n) },
			"trmm":  func() { impl.Dtrmm(blas.Right, blas.Lower, blas.Trans, blas.NonUnit, n, n, 1, a, n, c, n) },
		}
		for _, name := range []string{"syrk", "syr2k", "symm", "trmm"} {
			for _, r := range []struct {
				name  string
				route eng.L3RouteMode
			}{{"direct", eng.L3Direct}, {"gemm", eng.L3ViaGemm}} {
				b.Run(fmt.Sprintf("%s/%d/%s", name, n, r.name), func(b *testing.B) {
					e.L3Route = r.route
					calls[name]() // builds the kernels
					b.ResetTimer()
					for range b.N {
						calls[name]()
					}
				})
			}
		}
	}
}
