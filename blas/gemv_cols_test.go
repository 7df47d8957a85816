package clblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// TestGemvColsWidths runs GEMV T on the device (a CPU device's gemv_cols:
// a work-item per 32 columns) with n below, at and past multiples of 32,
// increments of both signs and β = 0 or not, against gonum.
func TestGemvColsWidths(t *testing.T) {
	impl, _ := privateImpl(t, nil)
	if _, fp64 := openclDevice[float64](impl); !fp64 {
		t.Skip("no float64 device")
	}
	rnd := rand.New(rand.NewPCG(11, 12))
	for _, sh := range []struct{ m, n, incX, incY int }{
		{5, 31, 1, 1}, {5, 32, 1, 1}, {7, 33, 2, -1}, {3, 70, -1, 2}, {64, 96, 1, 1}, {1, 65, 1, -3},
	} {
		for _, beta := range []float64{0, -0.5} {
			name := fmt.Sprintf("%dx%d/inc%d,%d/beta%v", sh.m, sh.n, sh.incX, sh.incY, beta)
			lda := sh.n + 3
			a := randF64(rnd, lda*(sh.m-1)+sh.n)
			x := randF64(rnd, 1+(sh.m-1)*abs(sh.incX))
			y := randF64(rnd, 1+(sh.n-1)*abs(sh.incY))
			want := append([]float64(nil), y...)
			native.Dgemv(blas.Trans, sh.m, sh.n, 1.25, a, lda, x, sh.incX, beta, want, sh.incY)
			impl.Dgemv(blas.Trans, sh.m, sh.n, 1.25, a, lda, x, sh.incX, beta, y, sh.incY)
			for i := range want {
				if math.Abs(y[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
					t.Errorf("%s: y[%d] = %v, gonum %v", name, i, y[i], want[i])
					break
				}
			}
		}
	}
	if impl.Stats()["Dgemv"].Device == 0 {
		t.Error("no Dgemv ran on the device")
	}
}

// TestTriColsWidths runs SYMV, SPMV, SBMV, TRMV and TBMV (both
// transposes) and GEMV T on the device (a CPU device's band_rows,
// band_t_rows, sym_rows and gemv_t_rows over the rows in blocks) with n
// below, at and past multiples of 32, against gonum; with the partial
// sums added in the same launch (gemv_t_rows', band_t_rows' and sym_rows'
// last work-item) and by gemv_t_sum and band_t_sum.
func TestTriColsWidths(t *testing.T) {
	impl, e := privateImpl(t, nil)
	if _, fp64 := openclDevice[float64](impl); !fp64 {
		t.Skip("no float64 device")
	}
	defer func() { e.GemvT = eng.GemvTShape{} }()
	poisonScratch(t, e, 4096, 8)
	rnd := rand.New(rand.NewPCG(13, 14))
	check := func(name string, got, want []float64) {
		t.Helper()
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
				t.Errorf("%s: [%d] = %v, gonum %v", name, i, got[i], want[i])
				return
			}
		}
	}
	for _, launches := range []int{1, 2} {
		e.GemvT = eng.GemvTShape{Launches: launches}
		for _, n := range []int{31, 32, 33, 70, 96} {
			for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
				for _, inc := range []int{1, -2} {
					lda := n + 1
					a := randF64(rnd, lda*n)
					ap := randF64(rnd, n*(n+1)/2)
					const k = 5 // band's diagonals
					ab := randF64(rnd, (k+1)*n)
					x := randF64(rnd, 1+(n-1)*abs(inc))
					y := randF64(rnd, 1+(n-1)*abs(inc))
					name := fmt.Sprintf("launches=%d/n=%d/%c/inc%d", launches, n, ul, inc)
					want, got := append([]float64(nil), y...), append([]float64(nil), y...)
					native.Dsymv(ul, n, 0.75, a, lda, x, inc, 0.5, want, inc)
					impl.Dsymv(ul, n, 0.75, a, lda, x, inc, 0.5, got, inc)
					check("Dsymv/"+name, got, want)
					want, got = append([]float64(nil), y...), append([]float64(nil), y...)
					native.Dspmv(ul, n, 0.75, ap, x, inc, 0.5, want, inc)
					impl.Dspmv(ul, n, 0.75, ap, x, inc, 0.5, got, inc)
					check("Dspmv/"+name, got, want)
					want, got = append([]float64(nil), y...), append([]float64(nil), y...)
					native.Dsbmv(ul, n, k, 0.75, ab, k+1, x, inc, 0, want, inc)
					impl.Dsbmv(ul, n, k, 0.75, ab, k+1, x, inc, 0, got, inc)
					check("Dsbmv/"+name, got, want)
					want, got = append([]float64(nil), y...), append([]float64(nil), y...)
					native.Dgemv(blas.Trans, n, n, 0.75, a, lda, x, inc, 0.5, want, inc)
					impl.Dgemv(blas.Trans, n, n, 0.75, a, lda, x, inc, 0.5, got, inc)
					check("Dgemv-T/"+name, got, want)
					for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
						for _, d := range []blas.Diag{blas.NonUnit, blas.Unit} {
							want, got = append([]float64(nil), x...), append([]float64(nil), x...)
							native.Dtrmv(ul, tA, d, n, a, lda, want, inc)
							impl.Dtrmv(ul, tA, d, n, a, lda, got, inc)
							check(fmt.Sprintf("Dtrmv/%c/%c/%s", tA, d, name), got, want)
							want, got = append([]float64(nil), x...), append([]float64(nil), x...)
							native.Dtbmv(ul, tA, d, n, k, ab, k+1, want, inc)
							impl.Dtbmv(ul, tA, d, n, k, ab, k+1, got, inc)
							check(fmt.Sprintf("Dtbmv/%c/%c/%s", tA, d, name), got, want)
						}
					}
				}
			}
		}
	}
	for _, r := range []string{"Dsymv", "Dspmv", "Dsbmv", "Dgemv", "Dtrmv", "Dtbmv"} {
		if impl.Stats()[r].Device == 0 {
			t.Errorf("%s never ran on the device", r)
		}
	}
}
