package clblas

import (
	eng "github.com/gocompute/opencl/internal/engine"

	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// withKeepMax sets keepMaxBytes for the test.
func withKeepMax(t *testing.T, n int) {
	old := eng.KeepMaxBytes
	eng.KeepMaxBytes = n
	t.Cleanup(func() { eng.KeepMaxBytes = old })
}

// TestGemmKeepBounded (issue 19, item 6): on a device that shares the
// host's memory, an in-place GEMM with β ≠ 0 whose copy of C would exceed
// keepMaxBytes runs in row slabs that each keep at most that much; when a
// slab fails, the rows already done stay and the CPU finishes the rest,
// giving gonum's answer.
func TestGemmKeepBounded(t *testing.T) {
	rec := &recorder{}
	impl, e := privateImpl(t, rec)
	if !e.HostShared() || e.Plan().Staged() {
		t.Skip("GEMM does not run in place on this device (or GOCL_GEMM_PIPELINE=on stages it)")
	}
	const m, n, k, ldc = 37, 16, 9, 19
	withKeepMax(t, 8*n*8) // slabs of 8 rows of float64
	rnd := rand.New(rand.NewPCG(19, 6))
	for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
		for failAt := range 6 { // 0: no failure; i: the i-th slab's read back fails
			name := fmt.Sprintf("%c/fail at %d", tA, failAt)
			ar, ac := eng.Stored(tA, m, k)
			a, b, c0 := randF64(rnd, ar*ac), randF64(rnd, k*n), randF64(rnd, m*ldc)
			want := append([]float64(nil), c0...)
			gonum.Implementation{}.Dgemm(tA, blas.NoTrans, m, n, k, 1.5, a, ac, b, n, 0.5, want, ldc)
			reads := 0
			fail := func(s string) error {
				if s == "read" {
					if reads++; reads == failAt {
						return fmt.Errorf("%s: %w", s, errInjected)
					}
				}
				return nil
			}
			e.Fault.Store(&fail)
			before := e.Launched.Of("Dgemm")
			c := append([]float64(nil), c0...)
			impl.Dgemm(tA, blas.NoTrans, m, n, k, 1.5, a, ac, b, n, 0.5, c, ldc)
			e.Fault.Store(nil)
			checkClose(t, name, c, want, 1e-12)
			slabs := e.Launched.Of("Dgemm") - before
			switch {
			case failAt == 0 && slabs != 5:
				t.Errorf("%s: %d slabs ran on the device, want 5 of at most 8 rows", name, slabs)
			case failAt > 0 && slabs != int64(failAt-1):
				t.Errorf("%s: %d slabs ran on the device, want %d", name, slabs, failAt-1)
			}
		}
	}
	if s := impl.Stats()["Dgemm"]; s.Failed != 10 {
		t.Errorf("Dgemm stats %+v, want 10 failed calls", s)
	}
}

// TestKeepTooLargeFallsBack: the other in-place routines, whose rows are
// not independent, fail before writing when their copy would exceed the
// bound, and the CPU gives gonum's answer.
func TestKeepTooLargeFallsBack(t *testing.T) {
	rec := &recorder{}
	impl, e := privateImpl(t, rec)
	if !e.HostShared() {
		t.Skip("the device does not share the host's memory: no in-place calls")
	}
	const n = 24
	withKeepMax(t, 8*n*8)
	rnd := rand.New(rand.NewPCG(19, 7))
	a, b, c0 := randF64(rnd, n*n), randF64(rnd, n*n), randF64(rnd, n*n)
	c, want := append([]float64(nil), c0...), append([]float64(nil), c0...)
	impl.Dsymm(blas.Left, blas.Upper, n, n, 1, a, n, b, n, 2, c, n)
	gonum.Implementation{}.Dsymm(blas.Left, blas.Upper, n, n, 1, a, n, b, n, 2, want, n)
	checkClose(t, "Dsymm", c, want, 1e-12)
	if s := impl.Stats()["Dsymm"]; s.Device != 1 || s.Failed != 1 {
		t.Errorf("Dsymm stats %+v, want one device call that failed", s)
	}
	found := false
	rec.mu.Lock()
	for _, r := range rec.records {
		r.Attrs(func(at slog.Attr) bool {
			if err, ok := at.Value.Any().(error); ok && errors.Is(err, eng.ErrKeepTooLarge) {
				found = true
			}
			return true
		})
	}
	rec.mu.Unlock()
	if !found {
		t.Error("no log record carries errKeepTooLarge")
	}
}
