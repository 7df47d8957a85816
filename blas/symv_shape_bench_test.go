package clblas

import (
	"flag"
	"fmt"
	"testing"
	"unsafe"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

var (
	symvN     = flag.Int("symv.n", 512, "BenchmarkSymvShape: the order of A")
	symvBand  = flag.Int("symv.k", 0, "BenchmarkSymvShape: the band width of Sbmv (0: n/4)")
	symvLower = flag.Bool("symv.lower", false, "BenchmarkSymvShape: the lower triangles too")
)

// symvVariant is a kernel of the dense symv and sbmv with its launch
// shape (zero: the engine's).
type symvVariant struct {
	kernel eng.SymvKernel
	tile   [2]int              // symv_part's (SymvTiles)
	stream eng.SymvStreamShape // symv_stream's (SymvStream)
}

func (v symvVariant) String() string {
	switch v.kernel {
	case eng.SymvTiles:
		return fmt.Sprintf("tiles=%dx%d", v.tile[0], v.tile[1])
	case eng.SymvStream:
		s := v.stream
		return fmt.Sprintf("stream=v%d.%dx%d.c%d", s.Vec, s.TX, s.TY, s.Chunk)
	}
	return "auto"
}

// symvVariants are the variants BenchmarkSymvShape compares for elements
// of es bytes: the engine's choice, the local-memory tiles, the stream at
// its derived shape and around it.
func symvVariants(es int) []symvVariant {
	vs := []symvVariant{{kernel: eng.SymvAuto}, {kernel: eng.SymvTiles}, {kernel: eng.SymvStream}}
	st := func(vec, tx, ty, ch int) symvVariant {
		return symvVariant{kernel: eng.SymvStream, stream: eng.SymvStreamShape{Vec: vec, TX: tx, TY: ty, Chunk: ch}}
	}
	if es == 8 {
		return append(vs, st(2, 32, 8, 1), st(2, 32, 8, 2), st(2, 32, 8, 4), st(2, 32, 8, 8),
			st(2, 32, 4, 4), st(2, 32, 16, 4), st(2, 16, 8, 4), st(2, 16, 16, 4), st(1, 32, 8, 4))
	}
	return append(vs, st(4, 16, 16, 4), st(4, 16, 8, 4), st(4, 16, 16, 2), st(4, 16, 16, 8),
		st(4, 32, 8, 4), st(4, 32, 4, 4), st(2, 32, 8, 4), st(4, 8, 32, 4))
}

// BenchmarkSymvShape times resident Symv (n = -symv.n) and Sbmv (band
// width -symv.k) with each kernel and launch shape of symvVariants, in
// GB/s of the stored triangle or band read (the upper; the lower too
// with -symv.lower), to choose the kernel and shape on a device in one
// run.
//
//	go test -run XXX -bench SymvShape ./blas -symv.n 8192
func BenchmarkSymvShape(b *testing.B) {
	impl := newTestImpl(b)
	e := impl.eng
	defer func() { e.SymvTile, e.SymvKernel, e.SymvStream = [2]int{}, eng.SymvAuto, eng.SymvStreamShape{} }()
	uls := []blas.Uplo{blas.Upper}
	if *symvLower {
		uls = append(uls, blas.Lower)
	}
	n, k := *symvN, *symvBand
	if k <= 0 {
		k = max(n/4, 1)
	}
	for _, op := range []string{"symv", "sbmv"} {
		for _, ul := range uls {
			for _, v := range symvVariants(4) {
				b.Run(fmt.Sprintf("%s/f32/%c/%v", op, ul, v), func(b *testing.B) { symvShapeRun[float32](b, impl, op, ul, n, k, v) })
			}
			for _, v := range symvVariants(8) {
				b.Run(fmt.Sprintf("%s/f64/%c/%v", op, ul, v), func(b *testing.B) { symvShapeRun[float64](b, impl, op, ul, n, k, v) })
			}
		}
	}
}

func symvShapeRun[T float32 | float64](b *testing.B, impl *Implementation, op string, ul blas.Uplo, n, k int, v symvVariant) {
	e := impl.eng
	e.SymvKernel, e.SymvTile, e.SymvStream = v.kernel, v.tile, v.stream
	cols := n
	if op == "sbmv" {
		cols = k + 1
	}
	host := make([]T, n*cols)
	for i := range host {
		host[i] = T(i%7) / 8
	}
	a, err1 := NewMatrixFrom(impl, n, cols, host)
	x, err2 := NewVectorFrom(impl, host[:n])
	y, err3 := NewVector[T](impl, n)
	if err1 != nil || err2 != nil || err3 != nil {
		b.Fatal(err1, err2, err3)
	}
	defer a.Release()
	defer x.Release()
	defer y.Release()
	call := func() (*Event, error) { return Symv(ul, 1, a, x, 0, y) }
	elems := float64(n) * float64(n+1) / 2
	if op == "sbmv" {
		call = func() (*Event, error) { return Sbmv(ul, k, 1, a, x, 0, y) }
		nf, kf := float64(n), float64(k)
		elems = nf*(kf+1) - kf*(kf+1)/2
	}
	run := func(reps int) {
		var last *Event
		for range reps {
			ev, err := call()
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
	bytes := elems * float64(unsafe.Sizeof(z))
	b.ResetTimer()
	run(b.N)
	b.ReportMetric(bytes*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}
