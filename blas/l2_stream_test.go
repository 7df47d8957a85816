package clblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/platform/platformtest"
)

// TestL2StreamDefault runs DGEMV (both ways) and DGER on host slices
// through the stream's own cut (no L2Slab): a padded matrix of several
// MiB, so that it takes chunks of 1 MiB pieces, with unit and negative
// increments, against gonum.
func TestL2StreamDefault(t *testing.T) {
	impl, e := privateImpl(t, nil)
	e.ZeroCopy = eng.ZeroCopyOff
	if _, fp64 := openclDevice[float64](impl); !fp64 {
		t.Skip("no float64 device")
	}
	rnd := rand.New(rand.NewPCG(7, 8))
	const m, n, lda = 1100, 1000, 1003
	a := randF64(rnd, lda*(m-1)+n)
	for _, inc := range [][2]int{{1, 1}, {-2, 3}} {
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			lenX, lenY := n, m
			if tA == blas.Trans {
				lenX, lenY = m, n
			}
			x := randF64(rnd, 1+(lenX-1)*abs(inc[0]))
			y := randF64(rnd, 1+(lenY-1)*abs(inc[1]))
			want := append([]float64(nil), y...)
			native.Dgemv(tA, m, n, 1.5, a, lda, x, inc[0], 0.5, want, inc[1])
			before := e.L2StagedRuns.Load()
			impl.Dgemv(tA, m, n, 1.5, a, lda, x, inc[0], 0.5, y, inc[1])
			name := fmt.Sprintf("Dgemv %c inc%v", tA, inc)
			if e.L2StagedRuns.Load() == before {
				t.Errorf("%s: the matrix was not streamed", name)
			}
			closeTo(t, name, y, want)
		}
		x := randF64(rnd, 1+(m-1)*abs(inc[0]))
		y := randF64(rnd, 1+(n-1)*abs(inc[1]))
		got, want := append([]float64(nil), a...), append([]float64(nil), a...)
		gerNegInc64(m, n, 1.5, x, inc[0], y, inc[1], want, lda)
		before := e.L2StagedRuns.Load()
		impl.Dger(m, n, 1.5, x, inc[0], y, inc[1], got, lda)
		name := fmt.Sprintf("Dger inc%v", inc)
		if e.L2StagedRuns.Load() == before {
			t.Errorf("%s: the matrix was not streamed", name)
		}
		closeTo(t, name, got, want)
	}
}

// closeTo reports the first element of got that differs from want by more
// than rounding.
func closeTo(t *testing.T, name string, got, want []float64) {
	t.Helper()
	for i := range want {
		if !(math.Abs(got[i]-want[i]) <= 1e-12*(1+math.Abs(want[i]))) {
			t.Errorf("%s: [%d] = %v, gonum %v", name, i, got[i], want[i])
			return
		}
	}
}

// TestSymvTrmvStaged runs SYMV and TRMV on host slices with the matrix
// streamed in chunks of a few rows into one device buffer: gonum's
// Dsymv and Dtrmv suites (odd sizes, padded lda, increments of every
// sign, both triangles, transposes, unit diagonals) and our Ssymv and
// Strmv cases.
func TestSymvTrmvStaged(t *testing.T) {
	impl, e := privateImpl(t, nil)
	e.ZeroCopy, e.L2Slab = eng.ZeroCopyOff, 200
	_, fp64 := openclDevice[float64](impl)
	for _, name := range []string{"symv", "trmv"} {
		before := e.L2StagedRuns.Load()
		if fp64 {
			t.Run("D"+name, func(t *testing.T) { runTestblas(t, "D"+name, impl) })
		}
		for i := range level2Routines32 {
			if rt := &level2Routines32[i]; rt.name == "S"+name {
				t.Run(rt.name, func(t *testing.T) { testRoutine32(t, rt, namedImpl32{"staged", impl}) })
			}
		}
		if e.L2StagedRuns.Load() == before || e.Launched.Of("S"+name) == 0 {
			t.Errorf("%s never streamed its matrix to the device", name)
		}
	}
}

// TestSymvTrmvStagedNaN: SYMV and TRMV stream only the stored triangle
// into staging memory that last held NaNs (a GEMV of a NaN matrix of the
// same size ran before), from a matrix whose other triangle is NaN too;
// the results are gonum's, on both kernel families.
func TestSymvTrmvStagedNaN(t *testing.T) {
	impl, e := privateImpl(t, nil)
	e.ZeroCopy, e.L2Slab = eng.ZeroCopyOff, 0
	if _, fp64 := openclDevice[float64](impl); !fp64 {
		t.Skip("no float64 device")
	}
	defer func() { e.L2Portable = false }()
	rnd := rand.New(rand.NewPCG(9, 10))
	const n, lda = 300, 301
	nan := make([]float64, lda*(n-1)+n)
	for i := range nan {
		nan[i] = math.NaN()
	}
	for _, portable := range []bool{false, true} {
		e.L2Portable = portable
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			a := randF64(rnd, lda*(n-1)+n)
			for i := range n {
				for j := range n {
					if (ul == blas.Upper && j < i) || (ul == blas.Lower && j > i) {
						a[i*lda+j] = math.NaN()
					}
				}
			}
			x := randF64(rnd, n)
			name := fmt.Sprintf("%c/portable=%v", ul, portable)
			stale := func() {
				y := make([]float64, n)
				impl.Dgemv(blas.NoTrans, n, n, 1, nan, lda, x, 1, 0, y, 1)
			}
			stale()
			y, want := randF64(rnd, n), make([]float64, n)
			copy(want, y)
			native.Dsymv(ul, n, 1.5, a, lda, x, 1, 0.5, want, 1)
			impl.Dsymv(ul, n, 1.5, a, lda, x, 1, 0.5, y, 1)
			closeTo(t, "Dsymv "+name, y, want)
			for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				stale()
				got := append([]float64(nil), x...)
				want := append([]float64(nil), x...)
				native.Dtrmv(ul, tA, blas.NonUnit, n, a, lda, want, 1)
				impl.Dtrmv(ul, tA, blas.NonUnit, n, a, lda, got, 1)
				closeTo(t, fmt.Sprintf("Dtrmv %c %s", tA, name), got, want)
			}
		}
	}
}

// TestL2StreamHostSlice: a matrix in a HostSlice goes up by rect
// transfers straight from it (no host copies), chunk by chunk, for DGEMV
// both ways, DSYMV, DTRMV and DGER (which still reads back through the
// staging memory), with a padded leading dimension; with and without the
// host's share of GEMV's and GER's rows (which a HostSlice turns off:
// the device takes every row). No call may fail over to the CPU.
func TestL2StreamHostSlice(t *testing.T) {
	rec := &recorder{}
	impl, e := privateImpl(t, rec)
	e.ZeroCopy, e.L2Slab = eng.ZeroCopyOff, 200
	if _, fp64 := openclDevice[float64](impl); !fp64 {
		t.Skip("no float64 device")
	}
	defer func(share int) { e.L2Share = share }(e.L2Share)
	const n, lda = 17, 19
	hs, err := NewHostSlice[float64](impl, lda*(n-1)+n)
	if err != nil {
		t.Fatal(err)
	}
	defer hs.Release()
	a := hs.Data()
	rnd := rand.New(rand.NewPCG(11, 12))
	for _, share := range []int{0, 3} {
		e.L2Share = share
		copy(a, randF64(rnd, len(a)))
		x, y := randF64(rnd, n), randF64(rnd, n)
		before, hostRows := e.L2DirectRuns.Load(), e.L2HostRows.Load()
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			got, want := append([]float64(nil), y...), append([]float64(nil), y...)
			native.Dgemv(tA, n, n, 1.5, a, lda, x, 1, 0.5, want, 1)
			impl.Dgemv(tA, n, n, 1.5, a, lda, x, 1, 0.5, got, 1)
			closeTo(t, fmt.Sprintf("share %d: Dgemv %c", share, tA), got, want)
		}
		got, want := append([]float64(nil), y...), append([]float64(nil), y...)
		native.Dsymv(blas.Lower, n, 1.5, a, lda, x, 1, 0.5, want, 1)
		impl.Dsymv(blas.Lower, n, 1.5, a, lda, x, 1, 0.5, got, 1)
		closeTo(t, fmt.Sprintf("share %d: Dsymv", share), got, want)
		got, want = append([]float64(nil), x...), append([]float64(nil), x...)
		native.Dtrmv(blas.Upper, blas.Trans, blas.Unit, n, a, lda, want, 1)
		impl.Dtrmv(blas.Upper, blas.Trans, blas.Unit, n, a, lda, got, 1)
		closeTo(t, fmt.Sprintf("share %d: Dtrmv", share), got, want)
		wantA := append([]float64(nil), a...)
		native.Dger(n, n, 1.5, x, 1, y, 1, wantA, lda)
		impl.Dger(n, n, 1.5, x, 1, y, 1, a, lda)
		closeTo(t, fmt.Sprintf("share %d: Dger", share), a, wantA)
		if runs := e.L2DirectRuns.Load() - before; runs != 5 {
			t.Errorf("share %d: %d of 5 calls went up straight from the HostSlice", share, runs)
		}
		if rows := e.L2HostRows.Load() - hostRows; rows != 0 {
			t.Errorf("share %d: the host computed %d rows of a matrix in a HostSlice", share, rows)
		}
	}
	for _, w := range rec.warnings() {
		t.Errorf("logged: %s", w)
	}
}

// TestL2StreamNoLeaks: streamed level 2 calls, failing ones included,
// leave no event behind once they return, and Close releases every
// OpenCL object they made; with the stream alone (whose uploads, counted,
// fail GER among others) and with the host's share of GEMV's and GER's
// rows (whose uploads depend on the host's pace).
func TestL2StreamNoLeaks(t *testing.T) {
	platformtest.Device(t)
	base := cl.LiveObjects()
	impl, err := New(WithOffload(Always))
	if err != nil {
		t.Fatal(err)
	}
	e := impl.eng
	e.ZeroCopy, e.L2Slab = eng.ZeroCopyOff, 200
	rnd := rand.New(rand.NewPCG(13, 14))
	const n = 17
	a, x, y := randF64(rnd, n*n), randF64(rnd, n), randF64(rnd, n)
	writes := 0
	fail := func(site string) error {
		if site == "write" {
			if writes++; writes%7 == 0 {
				return errL2Injected
			}
		}
		return nil
	}
	e.Fault.Store(&fail)
	for _, share := range []int{0, 3} {
		e.L2Share = share
		for range 10 {
			impl.Dgemv(blas.NoTrans, n, n, 1, a, n, x, 1, 0, y, 1)
			impl.Dgemv(blas.Trans, n, n, 1, a, n, x, 1, 1, y, 1)
			impl.Dger(n, n, 1e-3, x, 1, y, 1, a, n)
			impl.Dsymv(blas.Upper, n, 1, a, n, x, 1, 0, y, 1)
			impl.Dtrmv(blas.Lower, blas.NoTrans, blas.NonUnit, n, a, n, x, 1)
			if ev := cl.LiveObjects()["event"] - base["event"]; ev != 0 {
				t.Fatalf("share %d: %d events live between calls", share, ev)
			}
		}
	}
	e.Fault.Store(nil)
	if e.L2StagedRuns.Load() == 0 || impl.Stats()["Dger"].Failed == 0 {
		t.Error("no call streamed, or none failed")
	}
	if err := impl.Close(); err != nil {
		t.Fatal(err)
	}
	for kind, n := range cl.LiveObjects() {
		if n != base[kind] {
			t.Errorf("%d %s objects live after Close, %d before New", n, kind, base[kind])
		}
	}
}

// TestGerStagedReadFailure: a GER whose read-back fails part way has
// copied the chunks read before into A (RowsDone); the CPU updates the
// rest, and no row is updated twice.
func TestGerStagedReadFailure(t *testing.T) {
	impl, e := privateImpl(t, nil)
	e.ZeroCopy, e.L2Slab, e.L2Share = eng.ZeroCopyOff, 200, 0 // the stream alone (as TestGerStaged)
	if _, fp64 := openclDevice[float64](impl); !fp64 {
		t.Skip("no float64 device")
	}
	rnd := rand.New(rand.NewPCG(15, 16))
	const m, n, lda = 17, 7, 9
	for _, failAt := range []int{1, 3, 6} {
		a := randF64(rnd, lda*(m-1)+n)
		x, y := randF64(rnd, m), randF64(rnd, n)
		want := append([]float64(nil), a...)
		native.Dger(m, n, 1.5, x, 1, y, 1, want, lda)
		reads := 0
		fail := func(site string) error {
			if site == "read" {
				if reads++; reads == failAt {
					return errL2Injected
				}
			}
			return nil
		}
		e.Fault.Store(&fail)
		failed := impl.Stats()["Dger"].Failed
		impl.Dger(m, n, 1.5, x, 1, y, 1, a, lda)
		e.Fault.Store(nil)
		if impl.Stats()["Dger"].Failed != failed+1 {
			t.Errorf("fail at read %d: the device call did not fail", failAt)
		}
		closeTo(t, fmt.Sprintf("fail at read %d", failAt), a, want)
	}
}
