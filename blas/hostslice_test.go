package clblas

import (
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform/platformtest"
)

// pinnedCopy returns a HostSlice holding a copy of x, released when the
// test ends.
func pinnedCopy[T float32 | float64](t *testing.T, impl *Implementation, x []T) []T {
	t.Helper()
	hs, err := NewHostSlice[T](impl, max(len(x), 1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hs.Release() })
	copy(hs.Data(), x)
	return hs.Data()[:len(x)]
}

// TestHostSliceGemm: the staged GEMM with operands in HostSlices moves them
// straight between the slices and the device (rect transfers, no staging
// copy) and gives gonum's answer, in every transpose, with padded leading
// dimensions and without (panels and tiles of whole rows, and a single
// column panel), beta = 0 (C read back straight) and beta ≠ 0 (C uploaded
// straight, read back through staging), and with only some operands
// pinned.
func TestHostSliceGemm(t *testing.T) {
	t.Run("tiles", func(t *testing.T) { testHostSliceGemm(t, 0) })
	t.Run("slabs", func(t *testing.T) { testHostSliceGemm(t, 2) })
}

// testHostSliceGemm runs TestHostSliceGemm's cases with tiles of 8 (or,
// with chunks > 0, row slabs of 8 and k in that many chunks).
func testHostSliceGemm(t *testing.T, chunks int) {
	impl, e := slabImpl(t, 8, chunks)
	rnd := rand.New(rand.NewPCG(21, 22))
	shapes := []struct{ m, n, k, pad int }{{29, 21, 13, 2}, {29, 21, 13, 0}, {29, 7, 13, 0}, {7, 21, 13, 0}}
	for _, sh := range shapes {
		for _, tA := range stagedTransposes {
			for _, tB := range stagedTransposes {
				for _, beta := range []float64{0, 0.5} {
					for _, which := range []string{"abc", "ab", "a", "c"} {
						g := newGemmCase(rnd, tA, tB, sh.m, sh.n, sh.k, sh.pad, 1.25, beta)
						for _, w := range which {
							switch w {
							case 'a':
								g.a = pinnedCopy(t, impl, g.a)
							case 'b':
								g.b = pinnedCopy(t, impl, g.b)
							}
						}
						c := append([]float64(nil), g.c...)
						if strings.Contains(which, "c") {
							c = pinnedCopy(t, impl, g.c)
						}
						before := e.Xfer.BytesDirect.Load()
						got, err := g.runInto(e, c)
						if err != nil {
							t.Fatalf("%v (%s pinned): %v", g, which, err)
						}
						g.check(t, got, 1e-13)
						if e.Xfer.BytesDirect.Load() == before {
							t.Errorf("%v (%s pinned): nothing moved straight", g, which)
						}
					}
				}
			}
		}
	}
}

// TestHostSliceLifecycle: bad sizes are refused, Release is idempotent,
// closing the Implementation frees HostSlices still live, and nothing
// leaks.
func TestHostSliceLifecycle(t *testing.T) {
	platformtest.Device(t)
	base := cl.LiveObjects()
	impl, err := New(WithOffload(Always))
	if err != nil {
		platformtest.Unavailable(t, err.Error())
	}
	if _, err := NewHostSlice[float32](impl, 0); !errors.Is(err, ErrInvalidArg) {
		t.Errorf("NewHostSlice(0): %v, want ErrInvalidArg", err)
	}
	a, err := NewHostSlice[float32](impl, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range a.Data() {
		if v != 0 {
			t.Fatalf("element %d = %v, want 0", i, v)
		}
	}
	b, err := NewHostSlice[float64](impl, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Release(); err != nil {
		t.Fatal(err)
	}
	if err := a.Release(); err != nil {
		t.Errorf("second Release: %v", err)
	}
	if a.Data() != nil {
		t.Error("Data after Release is not nil")
	}
	// b is still live: Close frees it.
	if err := impl.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Release(); err != nil {
		t.Errorf("Release after Close: %v", err)
	}
	if _, err := NewHostSlice[float64](impl, 3); err == nil {
		t.Error("NewHostSlice on a closed Implementation succeeded")
	}
	for kind, n := range cl.LiveObjects() {
		if n != base[kind] {
			t.Errorf("%d %s objects live after Close, %d before New", n, kind, base[kind])
		}
	}
}

// TestHostSliceFrontEnd: mat-style use through the front end (Dgemm with
// every operand in HostSlices, the staged path forced) gives gonum's
// answer, also when a download fails mid-call (the CPU finish rewrites C).
func TestHostSliceFrontEnd(t *testing.T) {
	impl, e := stagedImpl(t, 8)
	rnd := rand.New(rand.NewPCG(23, 24))
	g := newGemmCase[float64](rnd, blas.NoTrans, blas.Trans, 30, 26, 11, 0, 1, 0)
	a, b := pinnedCopy(t, impl, g.a), pinnedCopy(t, impl, g.b)
	for _, nth := range []int64{0, 3} {
		c := pinnedCopy(t, impl, g.c)
		if nth > 0 {
			fail, _ := failAt("read", nth)
			e.Fault.Store(&fail)
		}
		impl.Dgemm(g.tA, g.tB, g.m, g.n, g.k, g.alpha, a, g.lda, b, g.ldb, g.beta, c, g.ldc)
		e.Fault.Store(nil)
		g.check(t, c, 1e-13)
	}
}

// TestHostSliceConcurrent: goroutines share pinned A and B and each writes
// its own pinned C, on the staged path (tiles, and row slabs with k in 3
// chunks), while others create and release HostSlices (the engine's set
// of them changes under the calls).
func TestHostSliceConcurrent(t *testing.T) {
	t.Run("tiles", func(t *testing.T) { testHostSliceConcurrent(t, 0) })
	t.Run("slabs", func(t *testing.T) { testHostSliceConcurrent(t, 3) })
}

func testHostSliceConcurrent(t *testing.T, chunks int) {
	impl, _ := slabImpl(t, 8, chunks)
	rnd := rand.New(rand.NewPCG(25, 26))
	g := newGemmCase[float64](rnd, blas.Trans, blas.NoTrans, 24, 19, 10, 1, 1, 0)
	a, b := pinnedCopy(t, impl, g.a), pinnedCopy(t, impl, g.b)
	const workers = 6
	cs := make([][]float64, workers)
	for w := range cs {
		cs[w] = pinnedCopy(t, impl, g.c)
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				if w%2 == 0 {
					hs, err := NewHostSlice[float64](impl, 100)
					if err != nil {
						t.Error(err)
						return
					}
					defer hs.Release()
				}
				impl.Dgemm(g.tA, g.tB, g.m, g.n, g.k, g.alpha, a, g.lda, b, g.ldb, g.beta, cs[w], g.ldc)
			}
		}()
	}
	wg.Wait()
	for w := range cs {
		g.check(t, cs[w], 1e-13)
	}
}

// TestHostSliceDefaultPath: HostSlice memory on the test device's default
// path (on a CPU device: kernels over the Go-visible memory, hostOver),
// every transpose, beta 0 and not, with a failure in the middle of one call
// that the front end finishes on the CPU.
func TestHostSliceDefaultPath(t *testing.T) {
	impl, e := privateImpl(t, nil)
	rnd := rand.New(rand.NewPCG(27, 28))
	for _, tA := range stagedTransposes {
		for _, tB := range stagedTransposes {
			for _, beta := range []float64{0, 0.5} {
				g := newGemmCase(rnd, tA, tB, 33, 29, 17, 2, 1.25, beta)
				a, b, c := pinnedCopy(t, impl, g.a), pinnedCopy(t, impl, g.b), pinnedCopy(t, impl, g.c)
				impl.Dgemm(g.tA, g.tB, g.m, g.n, g.k, g.alpha, a, g.lda, b, g.ldb, g.beta, c, g.ldc)
				g.check(t, c, 1e-13)
				fail, _ := failAt("read", 1)
				e.Fault.Store(&fail)
				c = pinnedCopy(t, impl, g.c)
				impl.Dgemm(g.tA, g.tB, g.m, g.n, g.k, g.alpha, a, g.lda, b, g.ldb, g.beta, c, g.ldc)
				e.Fault.Store(nil)
				g.check(t, c, 1e-13)
			}
		}
	}
}
