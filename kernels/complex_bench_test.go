package kernels_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// BenchmarkComplexGemm times cgemm (C = A·B, n×n, data already on the
// device, CTS = 16) beside gonum's Zgemm and Cgemm on the same sizes.
// Rates are reported in GFLOP/s counting 8·n³ real flops.
func BenchmarkComplexGemm(b *testing.B) {
	for _, n := range []int{128, 512} {
		b.Run(fmt.Sprintf("complex128/n=%d/device", n), func(b *testing.B) { benchGemm[complex128, float64](b, n, true) })
		b.Run(fmt.Sprintf("complex128/n=%d/gonum", n), func(b *testing.B) { benchGemm[complex128, float64](b, n, false) })
		b.Run(fmt.Sprintf("complex64/n=%d/device", n), func(b *testing.B) { benchGemm[complex64, float32](b, n, true) })
		b.Run(fmt.Sprintf("complex64/n=%d/gonum", n), func(b *testing.B) { benchGemm[complex64, float32](b, n, false) })
	}
}

func benchGemm[T cxT, F fT](b *testing.B, n int, device bool) {
	rnd := rand.New(rand.NewPCG(5, 6))
	a, bm, c := randVec[T](rnd, n*n), randVec[T](rnd, n*n), make([]T, n*n)
	if !device {
		for b.Loop() {
			refGemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, bm, n, 0, c, n)
		}
	} else {
		r := newRig[T, F](b)
		da, db, dc := r.upload(a), r.upload(bm), r.upload(c)
		args := []any{int32(0), int32(0), int32(n), int32(n), int32(n), F(1), F(0),
			da, int64(0), int32(n), db, int64(0), int32(n), F(0), F(0), dc, int64(0), int32(n)}
		r.run("cgemm", []int{n, n}, []int{16, 16}, args...) // warm-up
		for b.Loop() {
			r.run("cgemm", []int{n, n}, []int{16, 16}, args...)
		}
	}
	b.ReportMetric(8*float64(n)*float64(n)*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
