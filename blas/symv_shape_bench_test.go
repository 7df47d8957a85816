package clblas

import (
	"flag"
	"fmt"
	"testing"
	"unsafe"

	"gonum.org/v1/gonum/blas"
)

var symvN = flag.Int("symv.n", 512, "BenchmarkSymvShape: the order of A")

// BenchmarkSymvShape times resident Symv (both triangles, n = -symv.n) with each
// of several symv_part tile shapes (side × work-group height), in GB/s of
// the stored triangle read, to choose symvShape's rule on a device.
//
//	go test -run XXX -bench SymvShape ./blas -symv.n 8192
func BenchmarkSymvShape(b *testing.B) {
	impl := newTestImpl(b)
	defer func() { impl.eng.SymvTile = [2]int{} }()
	for _, sh := range [][2]int{{0, 0}, {64, 2}, {64, 4}, {64, 8}} {
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			b.Run(fmt.Sprintf("f32/%c/tile=%dx%d", ul, sh[0], sh[1]), func(b *testing.B) { symvShapeRun[float32](b, impl, ul, *symvN, sh) })
			b.Run(fmt.Sprintf("f64/%c/tile=%dx%d", ul, sh[0], sh[1]), func(b *testing.B) { symvShapeRun[float64](b, impl, ul, *symvN, sh) })
		}
	}
}

func symvShapeRun[T float32 | float64](b *testing.B, impl *Implementation, ul blas.Uplo, n int, sh [2]int) {
	impl.eng.SymvTile = sh
	host := make([]T, n*n)
	for i := range host {
		host[i] = T(i%7) / 8
	}
	a, err1 := NewMatrixFrom(impl, n, n, host)
	x, err2 := NewVectorFrom(impl, host[:n])
	y, err3 := NewVector[T](impl, n)
	if err1 != nil || err2 != nil || err3 != nil {
		b.Fatal(err1, err2, err3)
	}
	defer a.Release()
	defer x.Release()
	defer y.Release()
	run := func(reps int) {
		var last *Event
		for range reps {
			ev, err := Symv(ul, 1, a, x, 0, y)
			if err != nil {
				b.Fatal(err)
			}
			last = ev
		}
		if err := last.Wait(); err != nil {
			b.Fatal(err)
		}
	}
	run(1)
	var z T
	bytes := float64(n) * float64(n+1) / 2 * float64(unsafe.Sizeof(z))
	b.ResetTimer()
	run(b.N)
	b.ReportMetric(bytes*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}
