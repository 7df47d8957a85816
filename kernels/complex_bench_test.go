package kernels_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// BenchmarkComplexGemm times cgemm (C = A·B, n×n, data already on the
// device) for a few tile sizes (CTS) and work per work-item (WPT), beside
// gonum's Zgemm and Cgemm on the same sizes. Rates are reported in GFLOP/s
// counting 8·n³ real flops.
func BenchmarkComplexGemm(b *testing.B) {
	tiles := [][2]int{{16, 1}, {16, 2}, {32, 4}, {32, 2}}
	for _, n := range []int{128, 512} {
		for _, p := range tiles {
			b.Run(fmt.Sprintf("complex128/n=%d/CTS=%d/WPT=%d", n, p[0], p[1]), func(b *testing.B) { benchGemm[complex128, float64](b, n, p) })
			b.Run(fmt.Sprintf("complex64/n=%d/CTS=%d/WPT=%d", n, p[0], p[1]), func(b *testing.B) { benchGemm[complex64, float32](b, n, p) })
		}
		b.Run(fmt.Sprintf("complex128/n=%d/gonum", n), func(b *testing.B) { benchGemm[complex128, float64](b, n, [2]int{}) })
		b.Run(fmt.Sprintf("complex64/n=%d/gonum", n), func(b *testing.B) { benchGemm[complex64, float32](b, n, [2]int{}) })
	}
}

// benchGemm times gonum's code for tile == {0, 0}, else cgemm with
// CTS, WPT = tile[0], tile[1].
func benchGemm[T cxT, F fT](b *testing.B, n int, tile [2]int) {
	device := tile[0] > 0
	rnd := rand.New(rand.NewPCG(5, 6))
	a, bm, c := randVec[T](rnd, n*n), randVec[T](rnd, n*n), make([]T, n*n)
	if !device {
		for b.Loop() {
			refGemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, bm, n, 0, c, n)
		}
	} else {
		r := newRigWith[T, F](b, map[string]string{"CTS": fmt.Sprint(tile[0]), "WPT": fmt.Sprint(tile[1])})
		da, db, dc := r.upload(a), r.upload(bm), r.upload(c)
		args := []any{int32(0), int32(0), int32(n), int32(n), int32(n), F(1), F(0),
			da, int64(0), int32(n), db, int64(0), int32(n), F(0), F(0), dc, int64(0), int32(n)}
		rts := tile[0] / tile[1]
		global := []int{(n + tile[0] - 1) / tile[0] * rts, (n + tile[0] - 1) / tile[0] * rts}
		r.run("cgemm", global, []int{rts, rts}, args...) // warm-up
		for b.Loop() {
			r.run("cgemm", global, []int{rts, rts}, args...)
		}
	}
	b.ReportMetric(8*float64(n)*float64(n)*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
