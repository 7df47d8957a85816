package clblas

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// TestGemvShare runs GEMV on host slices through the staged path with the
// host computing a share of the rows (Engine.L2Share), with slabs of a
// few rows: gonum's Dgemv suite, and shapes with padded rows, negative
// increments and β = 0 or not, against gonum, with the device's part
// failing at its first or third upload (the CPU then redoes the call from
// the caller's y, which the host's share must not have changed).
func TestGemvShare(t *testing.T) {
	impl, e := privateImpl(t, nil)
	_, fp64 := openclDevice[float64](impl)
	if !fp64 {
		t.Skip("no float64 device")
	}
	e.ZeroCopy = eng.ZeroCopyOff
	e.L2Slab = 200 // 3 rows of 7 float64s
	defer func(share int) { e.L2Share = share }(e.L2Share)
	for _, first := range []int{1, 2, 5} {
		e.L2Share = first
		t.Run(fmt.Sprintf("first=%d/Dgemv", first), func(t *testing.T) {
			runTestblas(t, "Dgemv", impl)
		})
		share32(t, impl, e, "Sgemv", first)
		gemvShareShapes(t, impl, e, rand.New(rand.NewPCG(7, 8)))
	}
	if e.L2HostRows.Load() == 0 {
		t.Error("the host computed no rows")
	}
}

// share32 runs the float32 suite's cases of routine name (Sgemv, Sger)
// with the host sharing rows, and checks that the host computed some.
func share32(t *testing.T, impl *Implementation, e *eng.Engine, name string, first int) {
	t.Helper()
	for i := range level2Routines32 {
		if rt := &level2Routines32[i]; rt.name == name {
			before := e.L2HostRows.Load()
			t.Run(fmt.Sprintf("first=%d/%s", first, name), func(t *testing.T) {
				testRoutine32(t, rt, namedImpl32{"shared", impl})
				if e.L2HostRows.Load() == before {
					t.Errorf("the host computed no rows of %s", name)
				}
			})
			return
		}
	}
	t.Fatalf("no float32 case %s", name)
}

// gemvShareShapes runs TestGemvShare's shapes against gonum.
func gemvShareShapes(t *testing.T, impl *Implementation, e *eng.Engine, rnd *rand.Rand) {
	for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
		for _, sh := range []stagedGemvShape{
			{90, 7, 7, 1, 1}, {61, 7, 9, -2, 3}, {1, 7, 7, 1, -1}, {77, 5, 6, 3, -2},
		} {
			for _, beta := range []float64{0, 0.5} {
				for _, failAt := range []int{0, 1, 3} {
					name := fmt.Sprintf("%c/%dx%d/lda%d/inc%d,%d/beta%v/fail%d/first%d", tA, sh.m, sh.n, sh.lda, sh.incX, sh.incY, beta, failAt, e.L2Share)
					a, x, y, want := stagedGemvCase(rnd, tA, sh, beta)
					writes := 0
					fail := func(site string) error {
						if site == "write" {
							// The vectors' uploads come first.
							if writes++; failAt > 0 && writes == failAt+2 {
								return errL2Injected
							}
						}
						return nil
					}
					e.Fault.Store(&fail)
					before := e.L2StagedRuns.Load()
					impl.Dgemv(tA, sh.m, sh.n, 1.5, a, sh.lda, x, sh.incX, beta, y, sh.incY)
					e.Fault.Store(nil)
					if e.L2StagedRuns.Load() == before {
						t.Errorf("%s: the matrix was not streamed", name)
					}
					checkStaged64(t, name, "y", y, want)
				}
			}
		}
	}
}

// TestGerShare runs GER on host slices with a host share, slabs of a few
// rows, against gonum's Go code, failing the device's part at its first,
// third or sixth upload (the engine then finishes A on the host) and at
// its second read-back.
func TestGerShare(t *testing.T) {
	impl, e := privateImpl(t, nil)
	if _, fp64 := openclDevice[float64](impl); !fp64 {
		t.Skip("no float64 device")
	}
	e.ZeroCopy, e.L2Slab = eng.ZeroCopyOff, 200
	rnd := rand.New(rand.NewPCG(9, 10))
	defer func(share int) { e.L2Share = share }(e.L2Share)
	for _, first := range []int{1, 2, 5} {
		e.L2Share = first
		t.Run(fmt.Sprintf("first=%d/Dger", first), func(t *testing.T) {
			runTestblas(t, "Dger", impl)
		})
		share32(t, impl, e, "Sger", first)
		for _, sh := range []struct{ m, n, lda, incX, incY int }{{90, 7, 7, 1, 1}, {61, 7, 9, 2, 3}, {77, 5, 6, 1, 2}} {
			for _, fail := range []struct {
				site string
				at   int
			}{{"", 0}, {"write", 3}, {"write", 5}, {"write", 8}, {"read", 2}} {
				name := fmt.Sprintf("first%d/%dx%d/lda%d/inc%d,%d/fail-%s%d", first, sh.m, sh.n, sh.lda, sh.incX, sh.incY, fail.site, fail.at)
				a := randF64(rnd, sh.lda*(sh.m-1)+sh.n)
				x := randF64(rnd, 1+(sh.m-1)*sh.incX)
				y := randF64(rnd, 1+(sh.n-1)*sh.incY)
				want := append([]float64(nil), a...)
				native.Dger(sh.m, sh.n, 1.5, x, sh.incX, y, sh.incY, want, sh.lda)
				count := 0
				inject := func(site string) error {
					if site == fail.site {
						if count++; count == fail.at {
							return errL2Injected
						}
					}
					return nil
				}
				e.Fault.Store(&inject)
				impl.Dger(sh.m, sh.n, 1.5, x, sh.incX, y, sh.incY, a, sh.lda)
				e.Fault.Store(nil)
				checkStaged64(t, name, "a", a, want)
			}
		}
	}
	if e.L2HostRows.Load() == 0 {
		t.Error("the host computed no rows")
	}
	if st := impl.Stats()["Dger"]; st.Failed == 0 {
		t.Error("no device call failed")
	}
}
