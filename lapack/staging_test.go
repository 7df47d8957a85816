package cllapack

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	clblas "github.com/gocompute/opencl/blas"
)

// TestStagedTransfers runs Dgetrf, Dpotrf and Dgeqrf from Go slices (row
// strides past the last column) with their matrices moved through the
// pinned buffer, and again with the buffer held by another call (straight
// from Go memory), against gonum's answers; the buffer must have been
// made, and grown for a larger matrix.
func TestStagedTransfers(t *testing.T) {
	impl := newTestImpl(t, 16)
	impl.stageIO = true
	rnd := rand.New(rand.NewPCG(61, 62))
	for _, held := range []bool{false, true} {
		if held {
			impl.stg.mu.Lock()
		}
		for _, n := range []int{37, 90} {
			stagedAgainstGonum(t, impl, rnd, fmt.Sprintf("n %d, buffer held %v", n, held), n)
		}

		if held {
			impl.stg.mu.Unlock()
		}
	}
	if impl.stg.hs == nil || len(impl.stg.hs.Data()) < 97*90 {
		t.Fatal("the pinned buffer was not used")
	}
	if impl.onDevice.Load() == 0 {
		t.Fatal("nothing ran on the device")
	}
}

// stagedAgainstGonum runs Dgetrf, Dpotrf (Upper) and Dgeqrf with impl on
// n-column matrices from Go slices with row strides past the last column,
// against gonum's answers.
func stagedAgainstGonum(t *testing.T, impl *Implementation, rnd *rand.Rand, what string, n int) {
	t.Helper()
	dgetrfAgainstGonum(t, impl, rnd, what, n+5, n, -1)

	lda := n + 3
	a := make([]float64, n*lda)
	s := spd(n, n, rnd)
	for i := range n {
		copy(a[i*lda:i*lda+n], s[i*n:(i+1)*n])
	}
	want := append([]float64(nil), a...)
	if ok := impl.Dpotrf(blas.Upper, n, a, lda); !ok {
		t.Fatalf("%s: Dpotrf: not positive definite", what)
	}
	gonum.Implementation{}.Dpotrf(blas.Upper, n, want, lda)
	compare(t, what+" Dpotrf", n, n, a, want, lda, 1e-10)

	q := make([]float64, (n+7)*lda)
	for i := range q {
		q[i] = rnd.NormFloat64()
	}
	qw := append([]float64(nil), q...)
	tau, tauW := make([]float64, n), make([]float64, n)
	work := make([]float64, 64*n)
	impl.Dgeqrf(n+7, n, q, lda, tau, work, len(work))
	gonum.Implementation{}.Dgeqrf(n+7, n, qw, lda, tauW, work, len(work))
	compare(t, what+" Dgeqrf", n+7, n, q, qw, lda, 1e-10)
	checkPadding(t, what+" Dgeqrf", n+7, n, q, qw, lda)
}

// TestStagedConcurrent: calls from several goroutines share one pinned
// buffer (the others move their matrices from Go memory) and all get
// gonum's answers.
func TestStagedConcurrent(t *testing.T) {
	impl := newTestImpl(t, 16)
	impl.stageIO = true
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rnd := rand.New(rand.NewPCG(63, uint64(g)))
			const m, n = 60, 50
			for range 3 {
				a := make([]float64, m*n)
				for i := range a {
					a[i] = rnd.NormFloat64()
				}
				want := append([]float64(nil), a...)
				ipiv, ipivW := make([]int, n), make([]int, n)
				impl.Dgetrf(m, n, a, n, ipiv)
				gonum.Implementation{}.Dgetrf(m, n, want, n, ipivW)
				if d := maxAbsDiff(a, want); d > 1e-10 || fmt.Sprint(ipiv) != fmt.Sprint(ipivW) {
					t.Errorf("goroutine %d: factors differ from gonum's by %g, pivots %v, gonum's %v", g, d, ipiv, ipivW)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// maxAbsDiff is the largest |a[i] − b[i]|.
func maxAbsDiff(a, b []float64) float64 {
	var d float64
	for i := range a {
		d = max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

// TestStagedNoPinned: when the pinned buffer cannot be had, staged calls
// move their matrices from Go memory (keeping the background copy a
// failure needs) with gonum's answers, and no buffer is kept.
func TestStagedNoPinned(t *testing.T) {
	impl := newTestImpl(t, 16)
	impl.stageIO = true
	tried := 0
	impl.newPinned = func(int) (*clblas.HostSlice[float64], error) {
		tried++
		return nil, errors.New("injected: no pinned memory")
	}
	rnd := rand.New(rand.NewPCG(63, 64))
	stagedAgainstGonum(t, impl, rnd, "no pinned buffer", 37)
	if tried == 0 {
		t.Fatal("the pinned buffer was never asked for")
	}
	if impl.stg.hs != nil {
		t.Fatal("a pinned buffer is kept after its allocation failed")
	}
	if impl.onDevice.Load() == 0 {
		t.Fatal("nothing ran on the device")
	}
}

// TestHostMatrixFinish: a call's own error wins; a failed release of the
// device matrix fails the call before the result has landed in the slice,
// and after it is logged instead (finishing the call again on the CPU
// would factorise the factors).
func TestHostMatrixFinish(t *testing.T) {
	var log bytes.Buffer
	impl := &Implementation{logger: slog.New(slog.NewTextHandler(&log, nil))}
	call, release := errors.New("call failed"), errors.New("release failed")
	h := &hostMatrix{impl: impl}
	if err := h.finish("Dgetrf", call, release); err != call {
		t.Errorf("call and release failed: %v, want the call's error", err)
	}
	if err := h.finish("Dgetrf", nil, release); err != release {
		t.Errorf("release failed before the result landed: %v, want the release's error", err)
	}
	if log.Len() != 0 {
		t.Errorf("logged before the result landed: %q", log.String())
	}
	h.landed = true
	if err := h.finish("Dgetrf", nil, release); err != nil {
		t.Errorf("release failed after the result landed: %v, want nil", err)
	}
	if !strings.Contains(log.String(), "release failed") {
		t.Errorf("the failed release was not logged: %q", log.String())
	}
	if err := h.finish("Dgetrf", nil, nil); err != nil {
		t.Errorf("nothing failed: %v", err)
	}
}
