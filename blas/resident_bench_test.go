package clblas

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
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

// BenchmarkResidentLevel2 measures resident float64 level 2 operations
// and the level 1 steps of a conjugate-gradient iteration (DotTo, AxpyBy)
// at n = 1024, each call waited on; GB/s counts the matrix (its stored
// triangle for Symv, Trmv, Trsv) or the vectors read once.
//
//	go test -run XXX -bench ResidentLevel2 ./blas/
func BenchmarkResidentLevel2(b *testing.B) {
	impl := newTestImpl(b)
	const n = 1024
	a, err := NewMatrix[float64](impl, n, n)
	if err != nil {
		b.Fatal(err)
	}
	defer a.Release()
	x, _ := NewVector[float64](impl, n)
	y, _ := NewVector[float64](impl, n)
	s, _ := NewVector[float64](impl, 1)
	defer x.Release()
	defer y.Release()
	defer s.Release()
	for _, op := range []struct {
		name  string
		bytes int64
		f     func() (*Event, error)
	}{
		{"GemvN", 8 * n * n, func() (*Event, error) { return Gemv(blas.NoTrans, 1, a, x, 0, y) }},
		{"GemvT", 8 * n * n, func() (*Event, error) { return Gemv(blas.Trans, 1, a, x, 0, y) }},
		{"Ger", 8 * n * n, func() (*Event, error) { return Ger(1, x, y, a) }},
		{"Symv", 4 * n * n, func() (*Event, error) { return Symv(blas.Upper, 1, a, x, 0, y) }},
		{"TrmvN", 4 * n * n, func() (*Event, error) { return Trmv(blas.Upper, blas.NoTrans, blas.NonUnit, a, x) }},
		{"TrmvT", 4 * n * n, func() (*Event, error) { return Trmv(blas.Upper, blas.Trans, blas.NonUnit, a, x) }},
		{"Trsv", 4 * n * n, func() (*Event, error) { return Trsv(blas.Upper, blas.NoTrans, blas.Unit, a, x) }},
		{"DotTo", 16 * n, func() (*Event, error) { return DotTo(x, y, s) }},
		{"AxpyBy", 24 * n, func() (*Event, error) { return AxpyBy(1, s, x, y) }},
	} {
		b.Run(op.name, func(b *testing.B) {
			run := func() {
				ev, err := op.f()
				if err == nil {
					err = ev.Wait()
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			run() // builds the kernels
			b.SetBytes(op.bytes)
			b.ResetTimer()
			for range b.N {
				run()
			}
		})
	}
}

// BenchmarkGemmUpdate times the trailing update of a blocked factorization,
// C = C − A·Bᵀ with a short inner dimension k, beta = 1 and a padded C, on
// Go slices: the device (GOCL_OFFLOAD=always's path) against gonum, in
// GFLOP/s. It is what auto's kHalf is calibrated on.
//
//	go test -run XXX -bench GemmUpdate ./blas/
func BenchmarkGemmUpdate(b *testing.B) {
	impl := newTestImpl(b)
	const m = 448
	ld := m + 64
	for _, k := range []int{8, 16, 32, 64, 128} {
		a, bm, c := make([]float64, m*k), make([]float64, m*k), make([]float64, m*ld)
		for i := range a {
			a[i], bm[i] = float64(i%7)-3, float64(i%5)-2
		}
		for _, who := range []struct {
			name string
			impl blas.Float64
		}{{"device", impl}, {"gonum", gonum.Implementation{}}} {
			b.Run(fmt.Sprintf("k=%d/%s", k, who.name), func(b *testing.B) {
				who.impl.Dgemm(blas.NoTrans, blas.Trans, m, m, k, -1, a, k, bm, k, 1, c, ld)
				b.ResetTimer()
				for range b.N {
					who.impl.Dgemm(blas.NoTrans, blas.Trans, m, m, k, -1, a, k, bm, k, 1, c, ld)
				}
				b.ReportMetric(2*float64(m*m*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

// BenchmarkResidentTrsm measures the resident float64 TRSM, B = A⁻¹·B with
// a lower triangular A (left side, n×n, n³ flops; n = 512 and 1024 on CPU
// devices, 1024 and 4096 elsewhere), each call waited on: its diagonal
// blocks are solved by the trsm_left kernel and the rest by GEMM updates
// (trsmOnDevice).
//
//	go test -run XXX -bench ResidentTrsm ./blas/
func BenchmarkResidentTrsm(b *testing.B) {
	impl := newTestImpl(b)
	sizes := []int{1024, 4096}
	if impl.Runtime().Device().Profile().IsCPU() {
		sizes = []int{512, 1024}
	}
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			// A: unit diagonal and small entries below it, so that the
			// solves repeated on the same B stay bounded.
			ad, bd := make([]float64, n*n), make([]float64, n*n)
			for i := range n {
				for j := range i {
					ad[i*n+j] = float64((i*7+j*3)%11-5) / float64(10*n)
				}
				ad[i*n+i] = 1
			}
			for i := range bd {
				bd[i] = float64(i%13) - 6
			}
			a, err1 := NewMatrixFrom(impl, n, n, ad)
			bm, err2 := NewMatrixFrom(impl, n, n, bd)
			if err1 != nil || err2 != nil {
				b.Fatal(err1, err2)
			}
			defer a.Release()
			defer bm.Release()
			run := func() {
				ev, err := Trsm(blas.Left, blas.Lower, blas.NoTrans, blas.NonUnit, 1, a, bm)
				if err == nil {
					err = ev.Wait()
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			run() // builds the kernels
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				run()
			}
			b.ReportMetric(float64(n)*float64(n)*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkResidentTrsmBlockRow is LU's solve of a block row: the unit
// lower 64×64 L11 against the 64×w A12 beside it, on views of one matrix
// of order 1024 whose rows are a cache line longer (as cllapack pads them
// on CPU devices), calls enqueued back to back and waited for at the end.
func BenchmarkResidentTrsmBlockRow(b *testing.B) {
	impl := newTestImpl(b)
	const n, ld, nb = 1024, 1032, 64
	ad := make([]float64, n*ld)
	for i := range n {
		for j := range i {
			ad[i*ld+j] = float64((i*7+j*3)%11-5) / float64(10*n)
		}
		ad[i*ld+i] = 1
	}
	a, err := NewMatrixFrom(impl, n, ld, ad)
	if err != nil {
		b.Fatal(err)
	}
	defer a.Release()
	l11, err := a.View(0, 0, nb, nb)
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range []int{128, 512, 960} {
		b.Run(fmt.Sprintf("64x%d", w), func(b *testing.B) {
			a12, err := a.View(0, nb, nb, w)
			if err != nil {
				b.Fatal(err)
			}
			run := func(calls int) {
				var ev *Event
				for range calls {
					if ev, err = Trsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, 1, l11, a12); err != nil {
						b.Fatal(err)
					}
				}
				if err := ev.Wait(); err != nil {
					b.Fatal(err)
				}
			}
			run(1) // builds the kernels
			b.ResetTimer()
			run(b.N)
			b.ReportMetric(float64(nb*nb*w)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
