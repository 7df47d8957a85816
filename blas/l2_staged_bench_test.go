package clblas

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// BenchmarkGemvSlices measures DGEMV from Go slices on the device
// (GOCL_OFFLOAD=always's path: on a device with memory of its own, A is
// streamed through the pinned staging buffers) beside gonum, in GB/s of A
// moved; staged is the fraction of calls that streamed A.
//
//	go test -run XXX -bench GemvSlices ./blas/
func BenchmarkGemvSlices(b *testing.B) {
	impl := newTestImpl(b)
	e := impl.eng
	for _, n := range []int{1024, 4096} {
		a, x, y := make([]float64, n*n), make([]float64, n), make([]float64, n)
		for i := range a {
			a[i] = float64(i%13) / 16
		}
		for i := range x {
			x[i] = 1
		}
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, side := range []struct {
				name string
				f    blas.Float64
			}{{"device", impl}, {"gonum", gonumRef{}}} {
				b.Run(fmt.Sprintf("%c/n=%d/%s", tA, n, side.name), func(b *testing.B) {
					side.f.Dgemv(tA, n, n, 1, a, n, x, 1, 0, y, 1) // warm-up, kernel build
					before := e.L2StagedRuns.Load()
					b.SetBytes(int64(8 * n * n))
					b.ResetTimer()
					for range b.N {
						side.f.Dgemv(tA, n, n, 1, a, n, x, 1, 0, y, 1)
					}
					b.ReportMetric(float64(8*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
					b.ReportMetric(float64(e.L2StagedRuns.Load()-before)/float64(b.N), "staged")
				})
			}
		}
	}
}
