package clblas

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// TestNonFiniteLevel3MatchesGonum is issue 19's item 1: with a zero
// multiplier against an infinity, the device forms 0·Inf = NaN where gonum
// skips the product. The drop-in must give gonum's answer on the device
// path (Always), so these calls run on the CPU. The routines are the
// issue's: Dgemm, Dtrmm, Dsyrk, Dtrsm, Ssyr2k and their twins.
func TestNonFiniteLevel3MatchesGonum(t *testing.T) {
	impl := newTestImpl(t)
	inf := math.Inf(1)
	var g gonum.Implementation

	// The example: [0 1]·[Inf 2]ᵀ is 2 in gonum.
	c := []float64{0}
	impl.Dgemm(blas.NoTrans, blas.NoTrans, 1, 1, 2, 1, []float64{0, 1}, 2, []float64{inf, 2}, 1, 0, c, 1)
	if c[0] != 2 {
		t.Errorf("Dgemm = %v, gonum 2", c)
	}
	c32 := []float32{0}
	impl.Sgemm(blas.NoTrans, blas.NoTrans, 1, 1, 2, 1, []float32{0, 1}, 2, []float32{float32(inf), 2}, 1, 0, c32, 1)
	if c32[0] != 2 {
		t.Errorf("Sgemm = %v, gonum 2", c32)
	}

	// Every 2×2 B and triangular or general A with entries in {0, 1, Inf}
	// (diagonals 1), on every side, triangle and transpose.
	vals := []float64{0, 1, inf}
	all := func(f func(x []float64)) {
		for i := range 81 {
			x := []float64{vals[i%3], vals[i/3%3], vals[i/9%3], vals[i/27%3]}
			f(x)
		}
	}
	bad := map[string]int{}
	check := func(name string, got, want []float64) {
		for i := range want {
			if got[i] != want[i] && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
				if bad[name] == 0 {
					t.Errorf("%s = %v, gonum %v", name, got, want)
				}
				bad[name]++
				return
			}
		}
	}
	all(func(b0 []float64) {
		for _, off := range []float64{0, inf} {
			for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
				a := []float64{1, off, off, 1}
				for _, s := range []blas.Side{blas.Left, blas.Right} {
					for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
						b, want := append([]float64(nil), b0...), append([]float64(nil), b0...)
						impl.Dtrmm(s, ul, tA, blas.NonUnit, 2, 2, 1, a, 2, b, 2)
						g.Dtrmm(s, ul, tA, blas.NonUnit, 2, 2, 1, a, 2, want, 2)
						check("Dtrmm", b, want)
						b, want = append([]float64(nil), b0...), append([]float64(nil), b0...)
						impl.Dtrsm(s, ul, tA, blas.NonUnit, 2, 2, 1, a, 2, b, 2)
						g.Dtrsm(s, ul, tA, blas.NonUnit, 2, 2, 1, a, 2, want, 2)
						check("Dtrsm", b, want)
					}
				}
				for _, tr := range []blas.Transpose{blas.NoTrans, blas.Trans} {
					cs, want := make([]float64, 4), make([]float64, 4)
					impl.Dsyrk(ul, tr, 2, 2, 1, b0, 2, 0, cs, 2)
					g.Dsyrk(ul, tr, 2, 2, 1, b0, 2, 0, want, 2)
					check("Dsyrk", cs, want)
					cs, want = make([]float64, 4), make([]float64, 4)
					impl.Dsyr2k(ul, tr, 2, 2, 1, b0, 2, a, 2, 0, cs, 2)
					g.Dsyr2k(ul, tr, 2, 2, 1, b0, 2, a, 2, 0, want, 2)
					check("Dsyr2k", cs, want)
					b32, a32 := make([]float32, 4), make([]float32, 4)
					for i := range b32 {
						b32[i], a32[i] = float32(b0[i]), float32(a[i])
					}
					c32, want32 := make([]float32, 4), make([]float32, 4)
					impl.Ssyr2k(ul, tr, 2, 2, 1, b32, 2, a32, 2, 0, c32, 2)
					g.Ssyr2k(ul, tr, 2, 2, 1, b32, 2, a32, 2, 0, want32, 2)
					got, w := make([]float64, 4), make([]float64, 4)
					for i := range got {
						got[i], w[i] = float64(c32[i]), float64(want32[i])
					}
					check("Ssyr2k", got, w)
				}
				c, want := make([]float64, 4), make([]float64, 4)
				impl.Dsymm(blas.Left, ul, 2, 2, 1, a, 2, b0, 2, 0, c, 2)
				g.Dsymm(blas.Left, ul, 2, 2, 1, a, 2, b0, 2, 0, want, 2)
				check("Dsymm", c, want)
			}
		}
	})
	// GEMM: every A in {0, 1, Inf}^(2×2) by Bs holding NaN and ±Inf, for
	// every transpose pair.
	bs := [][]float64{{inf, 2, 3, 4}, {0, inf, 1, 0}, {math.NaN(), 1, 0, 1}, {1, 0, 0, -inf}, {1, 2, 3, 4}}
	all(func(a0 []float64) {
		for _, b0 := range bs {
			for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
					c, want := []float64{1, 2, 3, 4}, []float64{1, 2, 3, 4}
					impl.Dgemm(tA, tB, 2, 2, 2, 1, a0, 2, b0, 2, 0.5, c, 2)
					g.Dgemm(tA, tB, 2, 2, 2, 1, a0, 2, b0, 2, 0.5, want, 2)
					check(fmt.Sprintf("Dgemm %c%c", tA, tB), c, want)
				}
			}
		}
	})
	if len(bad) > 0 {
		t.Errorf("calls that differ from gonum, by routine: %v", bad)
	}
}

// TestNonFiniteStaysOffDevice: a call with a non-finite operand is counted
// as a CPU call, the same call with finite operands goes to the device, and
// a non-finite α sends a level 2 call to the CPU.
func TestNonFiniteStaysOffDevice(t *testing.T) {
	newTestImpl(t)
	impl := ownImpl(t, Always)
	c := []float64{0}
	impl.Dgemm(blas.NoTrans, blas.NoTrans, 1, 1, 2, 1, []float64{0, 1}, 2, []float64{math.NaN(), 2}, 1, 0, c, 1)
	impl.Dgemm(blas.NoTrans, blas.NoTrans, 1, 1, 2, 1, []float64{0, 1}, 2, []float64{5, 2}, 1, 0, c, 1)
	impl.Dgemv(blas.NoTrans, 1, 2, math.Inf(-1), []float64{0, 1}, 2, []float64{1, 1}, 1, 0, c, 1)
	st := impl.Stats()
	if s := st["Dgemm"]; s.CPU != 1 || s.Device != 1 {
		t.Errorf("Dgemm stats %+v, want one CPU call (NaN in B) and one device call", s)
	}
	if s := st["Dgemv"]; s.CPU != 1 || s.Device != 0 {
		t.Errorf("Dgemv stats %+v, want one CPU call (α = −Inf)", s)
	}
}

// TestMatFiniteParallel covers the scan's parallel path: a non-finite
// element in any row is found, padding is not read.
func TestMatFiniteParallel(t *testing.T) {
	const rows, cols, ld = 600, 300, 301
	x := make([]float64, rows*ld)
	for i := range rows {
		x[i*ld+cols] = math.NaN() // padding
	}
	if !matFinite(x, rows, cols, ld) {
		t.Fatal("padding was read")
	}
	for _, i := range []int{0, rows / 3, rows - 1} {
		x[i*ld+cols-1] = math.Inf(1)
		if matFinite(x, rows, cols, ld) {
			t.Errorf("Inf in row %d not found", i)
		}
		x[i*ld+cols-1] = 0
	}
}

// TestResidentGemmIEEE documents the resident API's semantics: its
// operations follow IEEE arithmetic as cuBLAS does, forming every product,
// so [0 1]·[Inf 2]ᵀ is NaN there (gonum skips the zero and gives 2).
func TestResidentGemmIEEE(t *testing.T) {
	impl := newTestImpl(t)
	a, err := NewMatrixFrom(impl, 1, 2, []float64{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	b, err := NewMatrixFrom(impl, 2, 1, []float64{math.Inf(1), 2})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	c, err := NewMatrix[float64](impl, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	ev, err := Gemm(blas.NoTrans, blas.NoTrans, 1, a, b, 0, c)
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Wait(); err != nil {
		t.Fatal(err)
	}
	got := make([]float64, 1)
	if err := c.Read(got); err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(got[0]) {
		t.Errorf("resident Gemm gave %v, want NaN (IEEE: 0·Inf = NaN)", got[0])
	}
}

// TestTriFinite: only the triangle read counts, without the diagonal when
// it is unit.
func TestTriFinite(t *testing.T) {
	nan := math.NaN()
	// Row-major 3×3 with NaN strictly below the diagonal.
	x := []float64{1, 2, 3, nan, 4, 5, nan, nan, 6}
	if !triFinite(x, 3, 3, blas.Upper, false) || triFinite(x, 3, 3, blas.Lower, false) {
		t.Error("NaN below the diagonal: Upper must be finite, Lower not")
	}
	x[4] = math.Inf(1)
	if triFinite(x, 3, 3, blas.Upper, false) || !triFinite([]float64{nan, 2, 3, 0, nan, 5, 0, 0, nan}, 3, 3, blas.Upper, true) {
		t.Error("the diagonal counts unless unit")
	}
}

// BenchmarkMatFinite is the cost of the non-finite scan that precedes a
// level 3 call on its way to the device, for a square float64 operand.
func BenchmarkMatFinite(b *testing.B) {
	for _, n := range []int{256, 1024, 4096} {
		x := make([]float64, n*n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(8 * n * n))
			for b.Loop() {
				if !matFinite(x, n, n, n) {
					b.Fatal("zeros are finite")
				}
			}
		})
	}
}

// TestNonFiniteScanBeside: with beta = 0 the scan of B runs beside the
// device call; a NaN or Inf it finds still gives gonum's answer, over
// whatever the device wrote, and the call counts as a non-finite CPU call.
func TestNonFiniteScanBeside(t *testing.T) {
	newTestImpl(t)
	impl := ownImpl(t, Always)
	const m, n, k = 33, 17, 40
	a := make([]float64, m*k)
	b := make([]float64, k*n)
	for i := range a {
		a[i] = float64(i%7) - 3 // zeros in every row
	}
	for i := range b {
		b[i] = float64(i%5) - 2
	}
	b[3*n+4] = math.Inf(1)
	want := make([]float64, m*n)
	got := make([]float64, m*n)
	for i := range got {
		got[i] = math.NaN() // beta = 0 overwrites it
	}
	native.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 0, want, n)
	impl.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 0, got, n)
	for i := range want {
		if got[i] != want[i] && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
			t.Fatalf("c[%d] = %v, gonum gives %v", i, got[i], want[i])
		}
	}
	if s := impl.Stats()["Dgemm"]; s.Device != 0 || s.CPU != 1 || s.NonFinite != 1 {
		t.Errorf("Dgemm stats %+v, want one non-finite CPU call", s)
	}
}
