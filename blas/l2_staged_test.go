package clblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// TestGemvStaged runs GEMV on host slices through the path of devices with
// memory of their own (the matrix streamed in slabs through pinned
// staging), with slabs of a few rows so that every call takes several:
// gonum's Dgemv suite, our Sgemv cases, and shapes whose row count is not
// a multiple of the slab, with padded rows, negative increments and
// β = 0 or not, against gonum.
func TestGemvStaged(t *testing.T) {
	impl, e := privateImpl(t, nil)
	e.ZeroCopy = eng.ZeroCopyOff
	e.L2Slab = 200 // 3 rows of 7 float64s, 7 of 7 float32s
	_, fp64 := openclDevice[float64](impl)
	if fp64 {
		t.Run("Dgemv", func(t *testing.T) {
			runTestblas(t, "Dgemv", impl)
		})
	}
	for i := range level2Routines32 {
		if rt := &level2Routines32[i]; rt.name == "Sgemv" {
			t.Run(rt.name, func(t *testing.T) { testRoutine32(t, rt, namedImpl32{"staged", impl}) })
		}
	}
	rnd := rand.New(rand.NewPCG(3, 4))
	// Both kernel families: a CPU device's, and the GPUs' (L2Portable).
	defer func() { e.L2Portable = false }()
	for _, portable := range []bool{false, true} {
		e.L2Portable = portable
		gemvStagedShapes(t, impl, e, rnd, fp64)
	}
	if e.Launched.Of("Sgemv") == 0 || e.L2StagedRuns.Load() == 0 {
		t.Error("Sgemv never streamed its matrix to the device")
	}
}

// gemvStagedShapes runs TestGemvStaged's shapes against gonum.
func gemvStagedShapes(t *testing.T, impl *Implementation, e *eng.Engine, rnd *rand.Rand, fp64 bool) {
	for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
		for _, sh := range []stagedGemvShape{
			{10, 7, 7, 1, 1}, {10, 7, 9, -2, 3}, {1, 7, 7, 1, -1}, {17, 5, 6, 3, -2},
		} {
			for _, beta := range []float64{0, 0.5} {
				name := fmt.Sprintf("%c/%dx%d/lda%d/inc%d,%d/beta%v/portable=%v", tA, sh.m, sh.n, sh.lda, sh.incX, sh.incY, beta, e.L2Portable)
				a, x, y, want := stagedGemvCase(rnd, tA, sh, beta)
				if !fp64 {
					continue
				}
				before := e.L2StagedRuns.Load()
				if err := impl.dev64.Gemv(tA, sh.m, sh.n, 1.5, a, sh.lda, x, sh.incX, beta, y, sh.incY); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if e.L2StagedRuns.Load() == before {
					t.Errorf("%s: the matrix was not streamed", name)
				}
				checkStaged64(t, name, "y", y, want)
			}
		}
	}
}

// stagedGemvShape is an m×n GEMV with leading dimension lda and
// increments incX and incY.
type stagedGemvShape struct{ m, n, lda, incX, incY int }

// stagedGemvCase returns random A, x and y for a GEMV of shape sh with tA,
// alpha 1.5 and beta, and want, gonum's result from that y.
func stagedGemvCase(rnd *rand.Rand, tA blas.Transpose, sh stagedGemvShape, beta float64) (a, x, y, want []float64) {
	lenX, lenY := sh.n, sh.m
	if tA == blas.Trans {
		lenX, lenY = sh.m, sh.n
	}
	a = randF64(rnd, sh.lda*(sh.m-1)+sh.n)
	x = randF64(rnd, 1+(lenX-1)*abs(sh.incX))
	y = randF64(rnd, 1+(lenY-1)*abs(sh.incY))
	want = append([]float64(nil), y...)
	native.Dgemv(tA, sh.m, sh.n, 1.5, a, sh.lda, x, sh.incX, beta, want, sh.incY)
	return a, x, y, want
}

// checkStaged64 reports the first element of got more than 1e-12
// (relative to 1 + |want|) from gonum's want, as "name: elem[i] = …".
func checkStaged64(t *testing.T, name, elem string, got, want []float64) {
	t.Helper()
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
			t.Errorf("%s: %s[%d] = %v, gonum %v", name, elem, i, got[i], want[i])
			return
		}
	}
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// TestGerStaged runs GER on host slices with A streamed in slabs both
// ways (as TestGemvStaged), and a call whose device part fails at the
// fifth slab: the rows the device already wrote back are not updated
// twice, and the result is gonum's.
func TestGerStaged(t *testing.T) {
	impl, e := privateImpl(t, nil)
	// The stream alone: every row on the device (a GPU's default shares
	// them with the host; TestGerShare).
	e.ZeroCopy, e.L2Slab, e.L2Share = eng.ZeroCopyOff, 200, 0
	d, fp64 := openclDevice[float64](impl)
	if fp64 {
		t.Run("Dger", func(t *testing.T) {
			runTestblas(t, "Dger", impl)
		})
	}
	for i := range level2Routines32 {
		if rt := &level2Routines32[i]; rt.name == "Sger" {
			t.Run(rt.name, func(t *testing.T) { testRoutine32(t, rt, namedImpl32{"staged", impl}) })
		}
	}
	if !fp64 {
		return
	}
	rnd := rand.New(rand.NewPCG(5, 6))
	defer func() { e.L2Portable = false }()
	for _, portable := range []bool{false, true} {
		e.L2Portable = portable
		gerStagedShapes(t, impl, d.E, rnd)
	}
	if st := impl.Stats()["Dger"]; st.Failed != 12 {
		t.Errorf("Dger: %d failed device calls, want 12", st.Failed)
	}
}

// gerStagedShapes runs TestGerStaged's shapes against gonum's Go code,
// failing the device part at the second and the fifth slab.
func gerStagedShapes(t *testing.T, impl *Implementation, e *eng.Engine, rnd *rand.Rand) {
	for _, sh := range []struct{ m, n, lda, incX, incY int }{{17, 7, 7, 1, 1}, {17, 7, 9, -2, 3}, {16, 7, 8, 2, -1}} {
		for _, failAt := range []int{0, 2, 5} { // the failing slab upload (0: none)
			name := fmt.Sprintf("%dx%d/lda%d/inc%d,%d/fail%d/portable=%v", sh.m, sh.n, sh.lda, sh.incX, sh.incY, failAt, e.L2Portable)
			a := randF64(rnd, sh.lda*(sh.m-1)+sh.n)
			x := randF64(rnd, 1+(sh.m-1)*abs(sh.incX))
			y := randF64(rnd, 1+(sh.n-1)*abs(sh.incY))
			want := append([]float64(nil), a...)
			gerNegInc64(sh.m, sh.n, 1.5, x, sh.incX, y, sh.incY, want, sh.lda) // gonum's Go code
			writes := 0
			fail := func(site string) error {
				if site == "write" {
					if writes++; writes == failAt {
						return errL2Injected
					}
				}
				return nil
			}
			e.Fault.Store(&fail)
			before := e.L2StagedRuns.Load()
			impl.Dger(sh.m, sh.n, 1.5, x, sh.incX, y, sh.incY, a, sh.lda)
			e.Fault.Store(nil)
			if e.L2StagedRuns.Load() == before {
				t.Errorf("%s: the matrix was not streamed", name)
			}
			checkStaged64(t, name, "a", a, want)
		}
	}
}
