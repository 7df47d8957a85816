package cllapack

import (
	"bytes"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	clblas "github.com/gocompute/opencl/blas"
)

// rowsTestImpl returns an Implementation whose Potrf takes potrf_row in
// steps of nb (potf_steps' register blocks nb wide), block rows h high, at
// most groups work-groups, polling a short while, and restores the
// triangle it must not touch on the device. On a CPU device, which does
// not take potrf_row by itself, the programs are built unoptimised (PoCL
// builds them many times faster).
func rowsTestImpl(t *testing.T, nb, h, groups int) *Implementation {
	impl := gpuPathsOnCPU(newTestImpl(t, nb))
	impl.hostDiag, impl.potfRegs, impl.gridPotrf = false, true, true
	impl.hostBand = false // the band the GEMMs overwrite restored on the device (a GPU's way)
	impl.potrfRowH, impl.gridMax, impl.gridSpin = h, groups, 1<<16
	return impl
}

// TestPotrfRows runs Dpotrf with every block row one potrf_row launch, or
// several (potrfRowSub, the block row updated by a GEMM after each), against
// gonum, both triangles, padded rows (NaN in the padding and the
// triangle not referenced must stay as they were): orders of one step and
// a few, block rows asked for as a multiple of the step and not (rounded
// down to one), a last block row and a last step narrower than the others, and one work-group (every device)
// or several (NVIDIA's GPUs, where grid launches are the default; on
// PoCL groups that poll each other are not promised to run together).
// Then matrices that are not positive definite in the first block row, in
// a later step of a later one, and in the last step, and with a NaN: ok
// false and gonum's factor up to the failing step.
// With -test.short (Oclgrind's pass, which simulates every work-item) it
// runs two orders of the four, and each failing step with one of the two
// bad values.
func TestPotrfRows(t *testing.T) {
	const nb = 16
	rnd := rand.New(rand.NewPCG(71, 72))
	multi := newTestImpl(t, 0).gridLU
	sizes := []int{17, 50, 100, 131}
	if testing.Short() {
		sizes = []int{17, 100}
	}
	cases := []struct{ h, sub, groups int }{{48, 0, 1}, {40, 0, 1}, {16, 0, 1}, {48, 3, 1}, {64, 40, 1}, {48, 0, 3}, {64, 16, 3}, {32, 0, 0}}
	for _, c := range cases {
		if c.groups != 1 && !multi {
			t.Logf("block rows %d, %d groups: not this device's path", c.h, c.groups)
			continue
		}
		impl := rowsTestImpl(t, nb, c.h, c.groups)
		impl.potrfRowSub = c.sub
		h := max(nb, c.h/nb*nb) // rounded down to whole steps
		sub := h
		if c.sub > 0 {
			sub = min(max(nb, c.sub/nb*nb), h)
		}
		// launches a block row of jb rows
		launches := func(jb int) int { return (jb + sub - 1) / sub }
		// launches a factorization of order n
		count := func(n int) int { return (n/h)*launches(h) + launches(n%h) }
		what := fmt.Sprintf("potrf_row, block rows %d in launches of %d, %d groups", h, sub, c.groups)
		calls, rows := 0, 0
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			for _, n := range sizes {
				lda := n + 3
				a := spd(n, lda, rnd)
				want := append([]float64(nil), a...)
				gonum.Implementation{}.Dpotrf(ul, n, want, lda)
				if !impl.Dpotrf(ul, n, a, lda) {
					t.Fatalf("%s %c n=%d: not positive definite", what, ul, n)
				}
				calls++
				rows += count(n)
				compare(t, what, n, n, a, want, lda, 1e-11)
				checkPadding(t, what, n, n, a, want, lda)
			}
			const n = 70
			for i, k := range []int{5, 37, 66} {
				for j, bad := range []float64{-1e3, math.NaN()} {
					if testing.Short() && (i+j)%2 == 1 {
						continue
					}
					a := spd(n, n, rnd)
					a[k*n+k] = bad
					want := append([]float64(nil), a...)
					okWant := gonum.Implementation{}.Dpotrf(ul, n, want, n)
					if ok := impl.Dpotrf(ul, n, a, n); ok || okWant {
						t.Fatalf("%s %c k=%d: ok %v, gonum's %v", what, ul, k, ok, okWant)
					}
					// A NaN is found beside the device's work, and the
					// call is then finished by gonum's code.
					if !math.IsNaN(bad) {
						calls++
					}
					rows += count(n)
					m := k / nb * nb
					compare(t, fmt.Sprintf("%s %c, not positive definite at %d", what, ul, k), m, m, a, want, n, 1e-11)
				}
			}
		}
		if got := impl.onDevice.Load(); got != int64(calls) {
			t.Fatalf("%s: %d of %d calls finished on the device", what, got, calls)
		}
		if got := impl.stats.rows.Load(); got != int64(rows) {
			t.Fatalf("%s: %d potrf_row launches, want %d", what, got, rows)
		}
	}
}

// TestPotrfRowsWide runs potrf_row in steps of 32 (NVIDIA's default:
// potf_steps' blocks 2×2 a work-item, four rows of U12 a work-item) and,
// on GPUs, of 64 (4×4, sixteen rows, products staged in several chunks a
// step) against gonum: both triangles, left-looking, block rows of two
// and three steps and a short last one. Steps of 64 are GPUs only: PoCL
// takes minutes to build them, and they do not fit Oclgrind's 32 KiB of
// local memory.
func TestPotrfRowsWide(t *testing.T) {
	rnd := rand.New(rand.NewPCG(77, 78))
	for _, c := range []struct{ nb, h, n, launches int }{{32, 96, 200, 6}, {64, 128, 300, 6}} {
		impl := rowsTestImpl(t, c.nb, c.h, 1)
		if c.nb > 32 && impl.blas.Runtime().Device().Profile().IsCPU() || !potrfRows[float64](impl, c.n, c.nb) {
			t.Logf("potrf_row in steps of %d is not this device's path", c.nb)
			continue
		}
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			a := spd(c.n, c.n+1, rnd)
			want := append([]float64(nil), a...)
			gonum.Implementation{}.Dpotrf(ul, c.n, want, c.n+1)
			if !impl.Dpotrf(ul, c.n, a, c.n+1) {
				t.Fatalf("steps of %d, %c: not positive definite", c.nb, ul)
			}
			compare(t, fmt.Sprintf("potrf_row, steps of %d, %c", c.nb, ul), c.n, c.n, a, want, c.n+1, 1e-11)
		}
		if got := impl.stats.rows.Load(); got != int64(c.launches) {
			t.Fatalf("steps of %d: %d potrf_row launches, want %d", c.nb, got, c.launches)
		}
	}
}

// TestPotrfRowFits: potrf_row in steps of 16 fits every device's local
// memory, in both precisions; in steps of 64 it does not fit a device with
// less than its 43 KiB (Oclgrind), and there Dpotrf takes the launch a
// step, on the device, with gonum's answer.
func TestPotrfRowFits(t *testing.T) {
	impl := rowsTestImpl(t, 16, 32, 1)
	if !potrfRowFits[float64](impl) || !potrfRowFits[float32](impl) {
		t.Fatal("potrf_row in steps of 16 does not fit")
	}
	if impl.blas.Runtime().Device().Profile().LocalMemBytes >= 43*1024 {
		t.Log("steps of 64 fit this device's local memory")
		return
	}
	wide := rowsTestImpl(t, 64, 128, 1)
	if potrfRowFits[float64](wide) {
		t.Fatalf("potrf_row in steps of 64 fits %d bytes of local memory", impl.blas.Runtime().Device().Profile().LocalMemBytes)
	}
	const n = 150
	rnd := rand.New(rand.NewPCG(79, 80))
	a := spd(n, n, rnd)
	want := append([]float64(nil), a...)
	gonum.Implementation{}.Dpotrf(blas.Upper, n, want, n)
	if !wide.Dpotrf(blas.Upper, n, a, n) {
		t.Fatal("not positive definite")
	}
	compare(t, "steps of 64 where potrf_row does not fit", n, n, a, want, n, 1e-11)
	if wide.stats.rows.Load() != 0 || wide.onDevice.Load() != 1 {
		t.Fatalf("%d potrf_row launches, %d calls on the device: want 0 and 1", wide.stats.rows.Load(), wide.onDevice.Load())
	}
}

// TestPotrfRowsFloat32 runs the resident Potrf in float32 on potrf_row,
// both triangles, against gonum's float64 factor of the same matrix.
func TestPotrfRowsFloat32(t *testing.T) {
	impl := rowsTestImpl(t, 16, 32, 1)
	rnd := rand.New(rand.NewPCG(73, 74))
	const n = 90
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		a := spd(n, n, rnd)
		want := append([]float64(nil), a...)
		gonum.Implementation{}.Dpotrf(ul, n, want, n)
		ok, got := factor32(t, a, func(d *clblas.Matrix[float32]) (bool, error) { return Potrf(impl, ul, d) })
		if !ok {
			t.Fatalf("%c: not positive definite", ul)
		}
		compare(t, fmt.Sprintf("float32 potrf_row %c", ul), n, n, got, want, n, 1e-5)
	}
	if got := impl.stats.rows.Load(); got != 6 {
		t.Fatalf("%d potrf_row launches, want 6", got)
	}
}

// TestPotrfRowsFailed starts the second block row's counters failed:
// every group leaves the launch, Dpotrf finishes on the CPU with gonum's
// answer and says so once, and later calls take the launch a step.
func TestPotrfRowsFailed(t *testing.T) {
	rnd := rand.New(rand.NewPCG(75, 76))
	impl := rowsTestImpl(t, 16, 32, 1)
	var log bytes.Buffer
	impl.logger = slog.New(slog.NewTextHandler(&log, nil))
	// Block rows of 32 take 1+2·2 counters each: the second block row's
	// reason is counter 5, in "panel" 3's pair (gridPoison's count of pairs).
	impl.gridPoison = 3
	const n = 90
	for i, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		a := spd(n, n, rnd)
		want := append([]float64(nil), a...)
		gonum.Implementation{}.Dpotrf(ul, n, want, n)
		if !impl.Dpotrf(ul, n, a, n) {
			t.Fatalf("%c: not positive definite", ul)
		}
		compare(t, fmt.Sprintf("%c after a failed launch", ul), n, n, a, want, n, 1e-11)
		if i == 0 {
			if !strings.Contains(log.String(), "did not run together") {
				t.Errorf("no fall-back logged: %q", log.String())
			}
			if s := impl.gridState.Load(); s != gridNo {
				t.Errorf("grid state %d after a failed launch, want %d", s, gridNo)
			}
		}
	}
	if got := impl.stats.rows.Load(); got != 3 {
		t.Errorf("%d potrf_row launches, want the first call's 3", got)
	}
}

// TestPotrfRowShape: potrfWide's block rows and launches replace
// potrfRowH's from its order on, and Dpotrf takes them there (counted in
// potrf_row launches) with gonum's answer on both sides of that order.
func TestPotrfRowShape(t *testing.T) {
	impl := rowsTestImpl(t, 16, 48, 1)
	impl.potrfWide = potrfShape{min: 100, h: 64, sub: 32}
	for _, c := range []struct{ n, h, sub, launches int }{{99, 48, 0, 3}, {100, 64, 32, 4}, {131, 64, 32, 5}} {
		if h, sub := impl.rowShape(c.n); h != c.h || sub != c.sub {
			t.Fatalf("order %d: block rows %d in launches of %d, want %d and %d", c.n, h, sub, c.h, c.sub)
		}
		before := impl.stats.rows.Load()
		a := spd(c.n, c.n, rand.New(rand.NewPCG(83, uint64(c.n))))
		want := append([]float64(nil), a...)
		gonum.Implementation{}.Dpotrf(blas.Lower, c.n, want, c.n)
		if !impl.Dpotrf(blas.Lower, c.n, a, c.n) {
			t.Fatalf("order %d: not positive definite", c.n)
		}
		compare(t, fmt.Sprintf("order %d", c.n), c.n, c.n, a, want, c.n, 1e-11)
		if got := impl.stats.rows.Load() - before; got != int64(c.launches) {
			t.Errorf("order %d: %d potrf_row launches, want %d", c.n, got, c.launches)
		}
	}
}
