package clblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
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
		if math.Abs(got[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
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
			for _, tc := range testblasSuite {
				if tc.name == "D"+name {
					t.Run(tc.name, func(t *testing.T) { tc.test(t, impl) })
				}
			}
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
