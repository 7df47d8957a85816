package clblas

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// BenchmarkResidentGemmHost measures the host cost of one resident Gemm
// call: the shapes are small enough that the device is never the
// bottleneck, and the queue is drained every 256 calls.
//
//	go test -run XXX -bench ResidentGemmHost ./blas/
func BenchmarkResidentGemmHost(b *testing.B) {
	impl := newTestImpl(b)
	for _, n := range []int{16, 64} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			a, err1 := NewMatrix[float32](impl, n, n)
			bm, err2 := NewMatrix[float32](impl, n, n)
			c, err3 := NewMatrix[float32](impl, n, n)
			if err1 != nil || err2 != nil || err3 != nil {
				b.Fatal(err1, err2, err3)
			}
			defer a.Release()
			defer bm.Release()
			defer c.Release()
			run := func(i int) {
				ev, err := Gemm(blas.NoTrans, blas.Trans, 1, a, bm, 0, c)
				if err != nil {
					b.Fatal(err)
				}
				if i%256 == 255 {
					if err := ev.Wait(); err != nil {
						b.Fatal(err)
					}
				}
			}
			run(255) // builds the kernel
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				run(i)
			}
			run(255)
		})
	}
}
