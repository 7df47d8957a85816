package clblas

import (
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/gocompute/opencl/cl"
	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/platform/platformtest"
)

var errInjected = errors.New("injected device failure")

// privateImpl returns an Implementation of its own (not the shared one),
// logging into rec, closed when the test ends.
func privateImpl(t *testing.T, rec *recorder) (*Implementation, *eng.Engine) {
	t.Helper()
	platformtest.Device(t)
	opts := []Option{WithOffload(Always)}
	if rec != nil {
		opts = append(opts, WithLogger(slog.New(rec)))
	}
	impl, err := New(opts...)
	if err != nil {
		platformtest.Unavailable(t, err.Error())
	}
	t.Cleanup(func() { impl.Close() })
	return impl, impl.eng
}

// gpuKernels has e keep level 2 on the kernels GPUs take, on a CPU device
// too (Engine.L2Portable), built unoptimised there (unoptimisedOnCPU).
func gpuKernels(e *eng.Engine) {
	e.L2Portable = true
	unoptimisedOnCPU(e)
}

// unoptimisedOnCPU has e build its programs unoptimised on a CPU device:
// the tests that call it check what kernels the device does not take by
// itself compute, in many variants, and PoCL builds an unoptimised program
// several times faster. Elsewhere the builds are the usual ones. Call it
// before e's first call, while e.Prof is still the device's own.
func unoptimisedOnCPU(e *eng.Engine) {
	if e.Prof.IsCPU() {
		e.BuildOptions = "-cl-opt-disable"
	}
}

// TestDeviceFailureFinishesOnCPU forces the device to fail at each step a
// real device can fail at (allocation, program build, enqueue, read back)
// and checks that every call still returns gonum's answer, that the
// failure was logged once per routine, and that the device path was really
// taken before the fault was injected.
func TestDeviceFailureFinishesOnCPU(t *testing.T) {
	for _, site := range []string{"alloc", "build", "enqueue", "read"} {
		t.Run(site, func(t *testing.T) {
			rec := &recorder{}
			impl, e := privateImpl(t, rec)
			rnd := rand.New(rand.NewPCG(1, 2))
			const m, n, k = 13, 11, 7
			a, b := randF64(rnd, m*k), randF64(rnd, k*n)
			c0 := randF64(rnd, m*n)
			x, y0 := randF64(rnd, 40), randF64(rnd, 40)

			gemm := func() []float64 {
				c := append([]float64(nil), c0...)
				impl.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 0.5, a, k, b, n, 2, c, n)
				return c
			}
			axpy := func() []float64 {
				y := append([]float64(nil), y0...)
				impl.Daxpy(40, -1.5, x, 1, y, 1)
				return y
			}
			want := append([]float64(nil), c0...)
			gonum.Implementation{}.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 0.5, a, k, b, n, 2, want, n)
			wantY := append([]float64(nil), y0...)
			gonum.Implementation{}.Daxpy(40, -1.5, x, 1, wantY, 1)

			// The healthy device runs both routines.
			before := e.Launched.Of("Dgemm") + e.Launched.Of("Daxpy")
			checkClose(t, "healthy Dgemm", gemm(), want, 1e-12)
			checkClose(t, "healthy Daxpy", axpy(), wantY, 1e-12)
			if got := e.Launched.Of("Dgemm") + e.Launched.Of("Daxpy"); got != before+2 {
				t.Fatalf("device ran %d of 2 healthy calls; the fault test would prove nothing", got-before)
			}

			fail := func(s string) error {
				if s == site {
					return fmt.Errorf("%s: %w", s, errInjected)
				}
				return nil
			}
			if site == "build" {
				// Kernels already built are pooled; drop them so the
				// next call has to build (and fails).
				if err := e.Kernels.Drain(); err != nil {
					t.Fatal(err)
				}
			}
			e.Fault.Store(&fail)
			defer e.Fault.Store(nil)
			for range 3 {
				checkClose(t, "faulty Dgemm", gemm(), want, 1e-12)
				checkClose(t, "faulty Daxpy", axpy(), wantY, 1e-12)
			}
			if got := e.Launched.Of("Dgemm") + e.Launched.Of("Daxpy"); got != before+2 {
				t.Errorf("device reported success under an injected %s failure", site)
			}
			logged := map[string]int{}
			rec.mu.Lock()
			for _, r := range rec.records {
				r.Attrs(func(a slog.Attr) bool {
					if a.Key == "routine" {
						logged[a.Value.String()]++
					}
					if a.Key == "err" {
						if err, _ := a.Value.Any().(error); !errors.Is(err, errInjected) {
							t.Errorf("logged error %v, want the injected one", err)
						}
					}
					return true
				})
			}
			rec.mu.Unlock()
			if logged["Dgemm"] != 1 || logged["Daxpy"] != 1 {
				t.Errorf("log records per routine = %v, want exactly one each for Dgemm and Daxpy", logged)
			}
		})
	}
}

// TestNoLeakedObjects runs many calls and closes the implementation: the
// buffer pool keeps the number of live buffers bounded while it runs, and
// Close releases every OpenCL object the implementation created.
func TestNoLeakedObjects(t *testing.T) {
	platformtest.Device(t)
	base := cl.LiveObjects()
	impl, err := New(WithOffload(Always))
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(3, 4))
	a, b, c := randF64(rnd, 64*64), randF64(rnd, 64*64), make([]float64, 64*64)
	x, y := randF64(rnd, 100), randF64(rnd, 100)
	var peak int64
	for i := range 200 {
		impl.Dgemm(blas.NoTrans, blas.Trans, 64, 64, 64, 1, a, 64, b, 64, 0, c, 64)
		impl.Daxpy(100, 2, x, 1, y, 1)
		if i%20 == 0 {
			peak = max(peak, cl.LiveObjects()["buffer"]-base["buffer"])
		}
	}
	if peak > 16 {
		t.Errorf("%d live buffers after repeated calls: the pool is not reusing them", peak)
	}
	if err := impl.Close(); err != nil {
		t.Fatal(err)
	}
	after := cl.LiveObjects()
	for kind, n := range after {
		if n != base[kind] {
			t.Errorf("%d %s objects live after Close, %d before New", n, kind, base[kind])
		}
	}
}

func randF64(rnd *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = rnd.Float64() - 0.5
	}
	return s
}

func checkClose(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	for i := range want {
		d := got[i] - want[i]
		if d > tol || d < -tol || got[i] != got[i] {
			t.Errorf("%s: element %d = %v, want %v", what, i, got[i], want[i])
			return
		}
	}
}
