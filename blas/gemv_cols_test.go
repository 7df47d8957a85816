package clblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
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
