package clblas

import (
	"fmt"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// BenchmarkGemvSlices measures DGEMV (N and T), DGER, DSYMV and DTRMV
// from Go slices on the device (GOCL_OFFLOAD=always's path: on a device with memory of its
// own, A is streamed through the pinned staging memory) beside gonum, in
// GB/s of A's n² elements (DGER moves them both ways and counts them
// once; gonum's DSYMV and DTRMV read half of them); staged
// is the fraction of calls that streamed A.
//
//	go test -run XXX -bench GemvSlices ./blas/
func BenchmarkGemvSlices(b *testing.B) {
	impl := newTestImpl(b)
	e := impl.eng
	for _, n := range []int{256, 1024, 2048, 4096} {
		a, x, y := l2BenchOperands(n)
		// The same matrix in a HostSlice: the device reads it by DMA.
		hs, err := NewHostSlice[float64](impl, n*n)
		if err != nil {
			b.Fatal(err)
		}
		pinned := hs.Data()
		copy(pinned, a)
		for _, op := range []string{"N", "T", "Ger", "Symv", "Trmv"} {
			call := func(f blas.Float64, a []float64) {
				switch op {
				case "Symv":
					f.Dsymv(blas.Upper, n, 1, a, n, x, 1, 0, y, 1)
				case "Trmv":
					copy(y, x)
					f.Dtrmv(blas.Upper, blas.NoTrans, blas.NonUnit, n, a, n, y, 1)
				case "Ger":
					f.Dger(n, n, 1e-12, x, 1, y, 1, a, n)
				case "T":
					f.Dgemv(blas.Trans, n, n, 1, a, n, x, 1, 0, y, 1)
				default:
					f.Dgemv(blas.NoTrans, n, n, 1, a, n, x, 1, 0, y, 1)
				}
			}
			for _, side := range []struct {
				name string
				f    blas.Float64
				a    []float64
			}{{"device", impl, a}, {"hostslice", impl, pinned}, {"gonum", gonumRef{}, a}} {
				b.Run(fmt.Sprintf("%s/n=%d/%s", op, n, side.name), func(b *testing.B) {
					call(side.f, side.a) // warm-up, kernel build, pinned memory
					before := e.L2StagedRuns.Load()
					benchL2(b, n, func() { call(side.f, side.a) })
					b.ReportMetric(float64(e.L2StagedRuns.Load()-before)/float64(b.N), "staged")
				})
			}
		}
		if err := hs.Release(); err != nil {
			b.Fatal(err)
		}
	}
}

// l2BenchOperands returns the level 2 benchmarks' operands: an n×n
// matrix a of entries (i mod 13)/16, x of ones and y of n elements.
func l2BenchOperands(n int) (a, x, y []float64) {
	a, x, y = make([]float64, n*n), make([]float64, n), make([]float64, n)
	for i := range a {
		a[i] = float64(i%13) / 16
	}
	for i := range x {
		x[i] = 1
	}
	return a, x, y
}

// benchL2 times call b.N times (after the caller's warm-up) and reports
// the bandwidth of its n×n float64 matrix, read once a call, in GB/s.
func benchL2(b *testing.B, n int, call func()) {
	b.Helper()
	b.SetBytes(int64(8 * n * n))
	b.ResetTimer()
	for range b.N {
		call()
	}
	b.ReportMetric(float64(8*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}

// BenchmarkL2StreamCut measures DGEMV N 4096² from Go slices on the device
// with other cuts of the stream (l2_pipe.go): the most bytes of one host
// copy, and the number of copying goroutines (0: the default). On a CPU
// device it takes the staged path too.
//
//	go test -run XXX -bench L2StreamCut ./blas/
func BenchmarkL2StreamCut(b *testing.B) {
	impl := newTestImpl(b)
	e := impl.eng
	// On a CPU device too (whose calls otherwise work on Go memory in place).
	zc := e.ZeroCopy
	e.ZeroCopy = eng.ZeroCopyOff
	defer func() { e.L2Piece, e.L2Workers, e.ZeroCopy = 0, 0, zc }()
	const n = 4096
	a, x, y := make([]float64, n*n), make([]float64, n), make([]float64, n)
	for i := range a {
		a[i] = float64(i%13) / 16
	}
	procs := runtime.GOMAXPROCS(0)
	for _, piece := range []int{256 << 10, 512 << 10, 1 << 20, 2 << 20, 4 << 20} {
		for _, workers := range []int{0, procs, max(1, procs/2)} {
			b.Run(fmt.Sprintf("piece=%dK/workers=%d", piece>>10, workers), func(b *testing.B) {
				e.L2Piece, e.L2Workers = piece, workers
				impl.Dgemv(blas.NoTrans, n, n, 1, a, n, x, 1, 0, y, 1)
				benchL2(b, n, func() { impl.Dgemv(blas.NoTrans, n, n, 1, a, n, x, 1, 0, y, 1) })
			})
		}
	}
}

// BenchmarkL2TriangleUpload measures DSYMV and DTRMV from Go slices on the
// device with each chunk of the stored triangle uploaded as the band of
// columns it holds (the default) and as whole rows (Engine.L2WholeRows),
// in GB/s of A's n² elements. On a CPU device the stream is forced (as
// BenchmarkL2StreamCut).
//
//	go test -run XXX -bench L2TriangleUpload ./blas/
func BenchmarkL2TriangleUpload(b *testing.B) {
	impl := newTestImpl(b)
	e := impl.eng
	zc := e.ZeroCopy
	e.ZeroCopy = eng.ZeroCopyOff
	defer func() { e.ZeroCopy, e.L2WholeRows = zc, false }()
	for _, n := range []int{2048, 4096, 8192} {
		a, x, y := l2BenchOperands(n)
		for _, op := range []string{"Symv", "Trmv"} {
			for _, whole := range []bool{false, true} {
				name := "triangle"
				if whole {
					name = "whole-rows"
				}
				b.Run(fmt.Sprintf("%s/n=%d/%s", op, n, name), func(b *testing.B) {
					e.L2WholeRows = whole
					call := func() {
						if op == "Symv" {
							impl.Dsymv(blas.Upper, n, 1, a, n, x, 1, 0, y, 1)
							return
						}
						copy(y, x)
						impl.Dtrmv(blas.Lower, blas.NoTrans, blas.NonUnit, n, a, n, y, 1)
					}
					call() // warm-up, kernel build, pinned memory
					benchL2(b, n, call)
				})
			}
		}
	}
}
