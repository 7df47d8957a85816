package clblas

import (
	"fmt"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	eng "github.com/gocompute/opencl/internal/engine"
)

// TestGemvTShapes runs the GPUs' gemv_t_part, gbmv_t_part (band_t too,
// and both for TBMV's triangular bands) and ger_rows on PoCL (the
// CPU-device kernels turned off) at launches BenchmarkGemvTShape may
// choose (rows in flight 1 to 8, odd ones, explicit row blocks) against
// gonum: ragged sizes, lda past n, increments ±1 and ±2 (GER: 1, 2), views one
// element into their slices, alpha·x(r) == 0 rows in GER, NaN in A.
func TestGemvTShapes(t *testing.T) {
	impl, e, d64, fp64 := portableImpl(t)
	defer func() {
		e.GemvT, e.Ger, e.GbmvTKernel, e.TrmvKernel = eng.GemvTShape{}, eng.GemvTShape{}, eng.GbmvTAuto, eng.TrmvAuto
	}()
	for _, s := range []eng.GemvTShape{
		{},
		{TX: 64, TY: 2, Unroll: 8, RowBlocks: 3, Launches: 1},
		{TX: 16, TY: 4, Unroll: 3, RowBlocks: 5, Launches: 2},
		{TX: 8, TY: 2, Unroll: 2, RowBlocks: 100, Launches: 1},
	} {
		t.Run(gemvTName(s), func(t *testing.T) {
			for _, en := range []*eng.Engine{e, d64.E} {
				if en != nil {
					en.GemvT, en.Ger = s, s
				}
			}
			if fp64 {
				gemvTCases(t, "Dgemv", "Dger", e.Launched.Of, impl.Dgemv, gonum.Implementation{}.Dgemv, impl.Dger, gonum.Implementation{}.Dger, 1e-12)
			}
			gemvTCases(t, "Sgemv", "Sger", e.Launched.Of, impl.Sgemv, gonum.Implementation{}.Sgemv, impl.Sger, gonum.Implementation{}.Sger, 1e-4)
			// TRMV through gemv_n and gemv_t_part (a unit diagonal's x added
			// by the sums' last step).
			for _, en := range []*eng.Engine{e, d64.E} {
				if en != nil {
					en.TrmvKernel = eng.TrmvGemv
				}
			}
			if fp64 {
				trmvGPUCases(t, "Dtrmv", e.Launched.Of, impl.Dtrmv, gonum.Implementation{}.Dtrmv, 1e-12)
			}
			trmvGPUCases(t, "Strmv", e.Launched.Of, impl.Strmv, gonum.Implementation{}.Strmv, 1e-4)
			for _, k := range []eng.GbmvTKernel{eng.GbmvTPart, eng.GbmvTCols} {
				for _, en := range []*eng.Engine{e, d64.E} {
					if en != nil {
						en.GbmvTKernel = k
					}
				}
				if fp64 {
					gbmvTCases(t, "Dgbmv", e.Launched.Of, impl.Dgbmv, gonum.Implementation{}.Dgbmv, 1e-12)
					tbmvGPUCases(t, "Dtbmv", e.Launched.Of, impl.Dtbmv, gonum.Implementation{}.Dtbmv, 1e-12)
				}
				gbmvTCases(t, "Sgbmv", e.Launched.Of, impl.Sgbmv, gonum.Implementation{}.Sgbmv, 1e-4)
				tbmvGPUCases(t, "Stbmv", e.Launched.Of, impl.Stbmv, gonum.Implementation{}.Stbmv, 1e-4)
			}
		})
	}
}

// portableImpl is privateImpl with the GPUs' level 2 kernels on every
// device (L2Portable), in its float engine e and, where the device has
// double (fp64), in d64's.
func portableImpl(t *testing.T) (impl *Implementation, e *eng.Engine, d64 eng.Device[float64], fp64 bool) {
	t.Helper()
	impl, e = privateImpl(t, nil)
	gpuKernels(e)
	d64, fp64 = openclDevice[float64](impl)
	if fp64 {
		gpuKernels(d64.E)
	}
	return impl, e, d64, fp64
}

// gbmvTCases checks the transposed band product against gonum: bands
// from the diagonal alone to past the matrix, wide and tall matrices
// (columns past the band's last row), lda at and past kl+ku+1, NaN in
// the storage outside the matrix.
func gbmvTCases[T float32 | float64](t *testing.T, name string, launched func(string) int64,
	got, want func(tA blas.Transpose, m, n, kl, ku int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int), tol float64) {
	vec := uniformVecs[T](6)
	onDevice := expectOnDevice(t, name, launched)
	calls := 0
	for _, gc := range genBandCases() {
		a := vec(1 + gc.span())
		for _, i := range gc.unread() {
			a[1+i] = T(l2nan)
		}
		x := vec(1 + (gc.m-1)*abs(gc.inc) + 1)
		y := vec(1 + (gc.n-1)*abs(gc.inc) + 1)
		alpha, beta := T(0.8), T(0)
		if gc.beta {
			beta = 1.5
		}
		yg, yw := slices.Clone(y), slices.Clone(y)
		got(blas.Trans, gc.m, gc.n, gc.kl, gc.ku, alpha, a[1:], gc.lda, x[1:], gc.inc, beta, yg[1:], gc.inc)
		want(blas.Trans, gc.m, gc.n, gc.kl, gc.ku, alpha, a[1:], gc.lda, x[1:], gc.inc, beta, yw[1:], gc.inc)
		calls++
		checkL2Result(t, name+" T "+gc.String(), "y", yg, yw, tol)
	}
	onDevice(calls)
}

// genBandCase is one general band product of the transposed band tests:
// A is m×n with kl sub- and ku super-diagonals, row stride lda; x and y
// step by inc; beta is nonzero if beta is set.
type genBandCase struct {
	m, n, kl, ku, lda, inc int
	beta                   bool
}

// genBandCases lists bands from the diagonal alone to past the matrix,
// wide and tall matrices (columns past the band's last row), lda at and
// past kl+ku+1, increments ±1, ±2, ±3, beta zero and not.
func genBandCases() []genBandCase {
	var cs []genBandCase
	for c, sh := range [][4]int{{1, 1, 0, 0}, {40, 40, 0, 0}, {70, 70, 3, 5}, {130, 140, 33, 64}, {50, 150, 7, 2},
		{150, 50, 60, 1}, {64, 64, 64, 64}, {200, 170, 16, 31}} {
		cs = append(cs, genBandCase{m: sh[0], n: sh[1], kl: sh[2], ku: sh[3], lda: sh[2] + sh[3] + 1 + c%2,
			inc: []int{1, -2, 1, -1, 3, 1, 2, -3}[c], beta: c%2 == 1})
	}
	return cs
}

func (gc genBandCase) String() string {
	return fmt.Sprintf("m=%d n=%d kl=%d ku=%d lda=%d inc=%d", gc.m, gc.n, gc.kl, gc.ku, gc.lda, gc.inc)
}

// span is the length of the band's storage.
func (gc genBandCase) span() int { return (gc.m-1)*gc.lda + gc.kl + gc.ku + 1 }

// unread lists the places in the band's storage outside the matrix,
// which the product must not read.
func (gc genBandCase) unread() []int {
	var out []int
	for i := range gc.m {
		for s := range gc.kl + gc.ku + 1 {
			if j := i - gc.kl + s; j < 0 || j >= gc.n {
				out = append(out, i*gc.lda+s)
			}
		}
	}
	return out
}

func gemvTCases[T float32 | float64](t *testing.T, gname, rname string, launched func(string) int64,
	gemv, gemvWant func(tA blas.Transpose, m, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int),
	ger, gerWant func(m, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int), tol float64) {
	vec := uniformVecs[T](5)
	gemvOnDevice, gerOnDevice := expectOnDevice(t, gname, launched), expectOnDevice(t, rname, launched)
	calls := 0
	for c, sz := range [][2]int{{1, 1}, {37, 19}, {130, 67}, {64, 256}, {300, 9}} {
		m, n := sz[0], sz[1]
		lda := n + c%3
		inc := []int{1, -2, 2, -1, 1}[c]
		a := vec(1 + (m-1)*lda + n)
		if c == 2 {
			a[1+5*lda+3] = T(l2nan)
		}
		x := vec(1 + (m-1)*abs(inc) + 1)
		y := vec(1 + (n-1)*abs(inc) + 1)
		yg, yw := slices.Clone(y), slices.Clone(y)
		gemv(blas.Trans, m, n, 0.7, a[1:], lda, x[1:], inc, -1.5, yg[1:], inc)
		gemvWant(blas.Trans, m, n, 0.7, a[1:], lda, x[1:], inc, -1.5, yw[1:], inc)
		checkL2Result(t, fmt.Sprintf("%s T m=%d n=%d lda=%d inc=%d", gname, m, n, lda, inc), "y", yg, yw, tol)
		// GER, with a zero in x (its row skipped); positive increments
		// (gonum's assembly Dger reads before x for negative ones).
		x[1] = 0
		inc = abs(inc)
		ag, aw := slices.Clone(a), slices.Clone(a)
		x0, y0 := slices.Clone(x), slices.Clone(y)
		ger(m, n, 1.3, x[1:], inc, y[1:], 1, ag[1:], lda)
		if !slices.Equal(x0, x) || !slices.Equal(y0, y) {
			t.Errorf("ger changed x or y")
		}
		gerWant(m, n, 1.3, x[1:], inc, y[1:], 1, aw[1:], lda)
		checkL2Result(t, fmt.Sprintf("%s m=%d n=%d lda=%d inc=%d", rname, m, n, lda, inc), "a", ag, aw, tol)
		calls++
	}
	gemvOnDevice(calls)
	gerOnDevice(calls)
}

// TestGemvTTicketsGrow runs the transposed GEMV in one launch on more
// column pieces than the engine's first ticket buffer holds (1024), so
// that it is replaced by a longer one, then on fewer again and more
// again: every call must match gonum, which it would not if a piece
// found its ticket at anything but 0. Then a call whose longer buffer
// cannot be created (an injected failure) must finish on the CPU.
func TestGemvTTicketsGrow(t *testing.T) {
	impl, e, _, _ := portableImpl(t)
	defer func() { e.GemvT = eng.GemvTShape{} }()
	e.GemvT = eng.GemvTShape{TX: 1, TY: 2, Unroll: 1, RowBlocks: 2, Launches: 1}
	vec := uniformVecs[float32](9)
	onDevice := expectOnDevice(t, "Sgemv", e.Launched.Of)
	calls := 0
	// A piece is one work-item's vector of columns: at most 16 of them.
	for _, n := range []int{16*1024 + 33, 40, 16*2100 + 5, 16*1030 + 1} {
		m := 3
		a, x, y := vec(m*n), vec(m), vec(n)
		yg, yw := slices.Clone(y), slices.Clone(y)
		impl.Sgemv(blas.Trans, m, n, 0.5, a, n, x, 1, 2, yg, 1)
		gonum.Implementation{}.Sgemv(blas.Trans, m, n, 0.5, a, n, x, 1, 2, yw, 1)
		checkL2Result(t, fmt.Sprintf("Sgemv T 3×%d", n), "y", yg, yw, 1e-4)
		calls++
	}
	onDevice(calls)

	// A longer buffer that cannot be created fails the device call, which
	// finishes on the CPU with gonum's answer; the next call gets it.
	fail := func(site string) error {
		if site == "tickets" {
			return errL2Injected
		}
		return nil
	}
	n := 16*5000 + 3
	a, x, y := vec(3*n), vec(3), vec(n)
	yw := slices.Clone(y)
	gonum.Implementation{}.Sgemv(blas.Trans, 3, n, 0.5, a, n, x, 1, 2, yw, 1)
	failed := impl.Stats()["Sgemv"].Failed
	e.Fault.Store(&fail)
	yg := slices.Clone(y)
	impl.Sgemv(blas.Trans, 3, n, 0.5, a, n, x, 1, 2, yg, 1)
	e.Fault.Store(nil)
	checkL2Result(t, "Sgemv T, no tickets", "y", yg, yw, 1e-4)
	if got := impl.Stats()["Sgemv"].Failed - failed; got != 1 {
		t.Errorf("Sgemv T, no tickets: %d failed device calls, want 1", got)
	}
	onDevice = expectOnDevice(t, "Sgemv", e.Launched.Of)
	yg = slices.Clone(y)
	impl.Sgemv(blas.Trans, 3, n, 0.5, a, n, x, 1, 2, yg, 1)
	checkL2Result(t, "Sgemv T, tickets again", "y", yg, yw, 1e-4)
	onDevice(1)
}

// TestGemvTCPUKernels runs the transposed GEMV's CPU-device kernels,
// gemv_cols and gemv_t_rows (with gemv_t_sum), against gonum on the cases
// of TestGemvTShapes. They run on CPU devices only; a GPU takes
// gemv_t_part, which TestGemvTShapes covers.
func TestGemvTCPUKernels(t *testing.T) {
	impl, e := privateImpl(t, nil)
	if !e.Prof.IsCPU() {
		t.Skipf("the CPU-device kernels do not run on %s", e.Prof.Name)
	}
	d64, fp64 := openclDevice[float64](impl)
	defer func() { e.GemvTCPU = eng.GemvTCPUAuto }()
	for _, k := range []eng.GemvTCPU{eng.GemvTCPUCols, eng.GemvTCPURows} {
		t.Run(fmt.Sprintf("kernel=%d", k), func(t *testing.T) {
			for _, en := range []*eng.Engine{e, d64.E} {
				if en != nil {
					en.GemvTCPU = k
				}
			}
			if fp64 {
				gemvTCases(t, "Dgemv", "Dger", e.Launched.Of, impl.Dgemv, gonum.Implementation{}.Dgemv, impl.Dger, gonum.Implementation{}.Dger, 1e-12)
			}
			gemvTCases(t, "Sgemv", "Sger", e.Launched.Of, impl.Sgemv, gonum.Implementation{}.Sgemv, impl.Sger, gonum.Implementation{}.Sger, 1e-4)
		})
	}
}
