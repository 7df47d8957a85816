package cllapack

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/lapack/gonum"
)

// TestDgetrfFallback makes the device path fail after it has started (the
// row-interchange kernel is unavailable) and checks that the call is
// finished by gonum from the original matrix, with gonum's exact answer,
// and that the failure is logged once; from Go memory (a background copy
// of the original kept) and staged through the pinned buffer (no copy:
// the matrix must be untouched until the result is read).
func TestDgetrfFallback(t *testing.T) {
	for _, stage := range []bool{false, true} {
		t.Run(fmt.Sprintf("staged=%v", stage), func(t *testing.T) { dgetrfFallback(t, stage) })
	}
}

func dgetrfFallback(t *testing.T, stage bool) {
	base := newTestImpl(t, 16)
	var log bytes.Buffer
	impl, err := New(shared.blas, WithOffload(base.Policy()), WithBlockSize(16),
		WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	if err != nil {
		t.Fatal(err)
	}
	defer impl.Close()
	impl.stageIO = stage
	for _, k := range []string{"laswp", "laswp_rows"} { // the GPUs' and the CPUs' interchanges
		impl.kernErr[kernelKey{name: k, pi: 1}] = errors.New("injected failure")
	}
	rnd := rand.New(rand.NewPCG(17, 18))
	const n = 60
	for range 2 {
		a := make([]float64, n*n)
		for i := range a {
			a[i] = rnd.NormFloat64()
		}
		want := append([]float64(nil), a...)
		ipivWant := make([]int, n)
		okWant := gonum.Implementation{}.Dgetrf(n, n, want, n, ipivWant)
		ipiv := make([]int, n)
		ok := impl.Dgetrf(n, n, a, n, ipiv)
		if ok != okWant {
			t.Fatalf("ok=%v, gonum %v", ok, okWant)
		}
		for i := range a {
			if a[i] != want[i] {
				t.Fatalf("a[%d] = %v, gonum's %v", i, a[i], want[i])
			}
		}
		for i := range ipiv {
			if ipiv[i] != ipivWant[i] {
				t.Fatalf("ipiv[%d] = %d, gonum's %d", i, ipiv[i], ipivWant[i])
			}
		}
	}
	if impl.onDevice.Load() != 0 {
		t.Error("a failed call was counted as done on the device")
	}
	if c := strings.Count(log.String(), "injected failure"); c != 1 {
		t.Errorf("the failure was logged %d times, want once:\n%s", c, log.String())
	}
	if stage && impl.stg.hs == nil {
		t.Error("the matrix was not staged")
	}
}
