package clblas

import (
	"errors"
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
	symvCx    = flag.Bool("symv.complex", false, "BenchmarkSymvShape: Hemv, Hbmv and Trmv in complex64 and complex128 instead")
)

// symvVariant is a kernel of the dense symv and sbmv with its launch
// shape (zero: the engine's).
type symvVariant struct {
	trmv   bool // Trmv's: GEMV's kernels, or the stream (kernel)
	kernel eng.SymvKernel
	tile   [2]int              // symv_part's (SymvTiles)
	stream eng.SymvStreamShape // symv_stream's (SymvStream)
}

func (v symvVariant) String() string {
	if v.trmv && v.kernel != eng.SymvStream {
		return "gemv"
	}
	switch v.kernel {
	case eng.SymvTiles:
		return fmt.Sprintf("tiles=%dx%d", v.tile[0], v.tile[1])
	case eng.SymvStream:
		s := v.stream
		kind := "stream"
		if s.Walk {
			kind = "walk"
		}
		return fmt.Sprintf("%s=v%d.%dx%d.c%d", kind, s.Vec, s.TX, s.TY, s.Chunk)
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
	walk := func(vec, tx, ty, ch int) symvVariant {
		v := st(vec, tx, ty, ch)
		v.stream.Walk = true
		return v
	}
	if es == 8 {
		return append(vs, st(2, 32, 8, 2), st(2, 32, 8, 4), st(2, 32, 8, 8),
			st(2, 32, 4, 4), st(2, 32, 16, 4), st(2, 16, 16, 4),
			walk(2, 32, 8, 4), walk(2, 32, 8, 8), walk(2, 32, 4, 8), walk(2, 16, 16, 8))
	}
	return append(vs, st(4, 16, 16, 4), st(4, 16, 8, 4), st(4, 16, 16, 8),
		st(4, 32, 8, 4), st(4, 32, 4, 4), st(2, 32, 8, 4),
		walk(4, 16, 16, 4), walk(4, 16, 16, 8), walk(4, 32, 8, 4), walk(4, 16, 8, 8))
}

// BenchmarkSymvShape times resident Symv (n = -symv.n), Sbmv (band
// width -symv.k) and Trmv (both transposes) with each kernel and launch
// shape of symvVariants (Trmv: GEMV's kernels, then the stream's), in
// GB/s of the stored triangle or band read (the upper; the lower too
// with -symv.lower), to choose the kernel and shape on a device in one
// run.
//
//	go test -run XXX -bench SymvShape ./blas -symv.n 8192
func BenchmarkSymvShape(b *testing.B) {
	impl := newTestImpl(b)
	e := impl.eng
	defer func() {
		e.SymvTile, e.SymvKernel, e.SymvStream, e.TrmvKernel = [2]int{}, eng.SymvAuto, eng.SymvStreamShape{}, eng.TrmvAuto
	}()
	uls := []blas.Uplo{blas.Upper}
	if *symvLower {
		uls = append(uls, blas.Lower)
	}
	n, k := *symvN, *symvBand
	if k <= 0 {
		k = max(n/4, 1)
	}
	if *symvCx {
		zsymvShapePrec[complex64](b, impl, "c64", n, k, uls)
		zsymvShapePrec[complex128](b, impl, "c128", n, k, uls)
		return
	}
	symvShapePrec[float32](b, impl, "f32", n, k, uls)
	symvShapePrec[float64](b, impl, "f64", n, k, uls)
}

// zsymvVariants are the complex variants for elements of es bytes: the
// stream (down block columns: Hemv, Hbmv, Trmv with Aᵀ or Aᴴ) and the
// walk (along block rows: Trmv with A), each at its derived shape first.
func zsymvVariants(es int) (stream, walk []symvVariant) {
	st := func(vec, tx, ty, ch int, w bool) symvVariant {
		return symvVariant{kernel: eng.SymvStream, stream: eng.SymvStreamShape{Vec: vec, TX: tx, TY: ty, Chunk: ch, Walk: w}}
	}
	stream = []symvVariant{{kernel: eng.SymvStream}}
	walk = []symvVariant{{kernel: eng.SymvStream}}
	if es == 8 {
		for _, s := range [][4]int{{2, 32, 8, 4}, {2, 32, 4, 4}, {2, 32, 16, 4}, {2, 16, 16, 4}, {2, 32, 8, 8}, {1, 32, 8, 4}} {
			stream = append(stream, st(s[0], s[1], s[2], s[3], false))
			walk = append(walk, st(s[0], s[1], s[2], s[3], true))
		}
		return stream, walk
	}
	for _, s := range [][4]int{{1, 32, 8, 4}, {1, 32, 4, 4}, {1, 32, 16, 4}, {1, 16, 16, 4}, {1, 32, 8, 8}, {2, 16, 16, 4}, {2, 16, 8, 4}} {
		stream = append(stream, st(s[0], s[1], s[2], s[3], false))
		walk = append(walk, st(s[0], s[1], s[2], s[3], true))
	}
	return stream, walk
}

// zsymvShapePrec runs BenchmarkSymvShape's complex cases of one
// precision: Hemv, Hbmv, and Trmv with A, Aᵀ and Aᴴ.
func zsymvShapePrec[T complex64 | complex128](b *testing.B, impl *Implementation, prec string, n, k int, uls []blas.Uplo) {
	e := impl.eng
	host := make([]T, n*n)
	for i := range host {
		host[i] = T(complex(float64(i%7)/8/float64(n), float64(i%5)/8/float64(n)))
	}
	a, err1 := NewMatrixFrom(impl, n, n, host)
	band, err2 := NewMatrixFrom(impl, n, k+1, host[:n*(k+1)])
	x, err3 := NewVectorFrom(impl, host[:n])
	y, err4 := NewVector[T](impl, n)
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		b.Fatal(err)
	}
	defer a.Release()
	defer band.Release()
	defer x.Release()
	defer y.Release()
	var z T
	es := int(unsafe.Sizeof(z))
	nf, kf := float64(n), float64(k)
	tri := nf * (nf + 1) / 2 * float64(es)
	stream, walk := zsymvVariants(es)
	for _, ul := range uls {
		for _, v := range stream {
			b.Run(fmt.Sprintf("hemv/%s/%c/%v", prec, ul, v), func(b *testing.B) {
				v.set(e)
				symvTime(b, tri, func() (*Event, error) { return Hemv(ul, 1, a, x, 0, y) })
			})
			b.Run(fmt.Sprintf("hbmv/%s/%c/%v", prec, ul, v), func(b *testing.B) {
				v.set(e)
				symvTime(b, (nf*(kf+1)-kf*(kf+1)/2)*float64(es), func() (*Event, error) { return Hbmv(ul, k, 1, band, x, 0, y) })
			})
		}
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans} {
			vs := stream
			if tA == blas.NoTrans {
				vs = walk
			}
			for _, v := range append([]symvVariant{{trmv: true}}, vs...) {
				v.trmv = true
				b.Run(fmt.Sprintf("trmv-%c/%s/%c/%v", tA, prec, ul, v), func(b *testing.B) {
					v.set(e)
					symvTime(b, tri, func() (*Event, error) { return Trmv(ul, tA, blas.NonUnit, a, x) })
				})
			}
		}
	}
}

// symvShapePrec runs BenchmarkSymvShape's cases of one precision on one
// set of operands.
func symvShapePrec[T float32 | float64](b *testing.B, impl *Implementation, prec string, n, k int, uls []blas.Uplo) {
	e := impl.eng
	host := make([]T, n*n)
	for i := range host {
		host[i] = T(i%7) / 8 / T(n)
	}
	a, err1 := NewMatrixFrom(impl, n, n, host)
	band, err2 := NewMatrixFrom(impl, n, k+1, host[:n*(k+1)])
	x, err3 := NewVectorFrom(impl, host[:n])
	y, err4 := NewVector[T](impl, n)
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		b.Fatal(err)
	}
	defer a.Release()
	defer band.Release()
	defer x.Release()
	defer y.Release()
	var z T
	es := float64(unsafe.Sizeof(z))
	nf, kf := float64(n), float64(k)
	tri := nf * (nf + 1) / 2 * es
	var es8 int
	if es == 8 {
		es8 = 8
	} else {
		es8 = 4
	}
	for _, ul := range uls {
		for _, v := range symvVariants(es8) {
			b.Run(fmt.Sprintf("symv/%s/%c/%v", prec, ul, v), func(b *testing.B) {
				v.set(e)
				symvTime(b, tri, func() (*Event, error) { return Symv(ul, 1, a, x, 0, y) })
			})
		}
		for _, v := range symvVariants(es8) {
			b.Run(fmt.Sprintf("sbmv/%s/%c/%v", prec, ul, v), func(b *testing.B) {
				v.set(e)
				symvTime(b, (nf*(kf+1)-kf*(kf+1)/2)*es, func() (*Event, error) { return Sbmv(ul, k, 1, band, x, 0, y) })
			})
		}
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, v := range trmvVariants(es8) {
				b.Run(fmt.Sprintf("trmv-%c/%s/%c/%v", tA, prec, ul, v), func(b *testing.B) {
					v.set(e)
					symvTime(b, tri, func() (*Event, error) { return Trmv(ul, tA, blas.NonUnit, a, x) })
				})
			}
		}
	}
}

// set makes v the engine's kernel and shape.
func (v symvVariant) set(e *eng.Engine) {
	e.SymvKernel, e.SymvTile, e.SymvStream, e.TrmvKernel = v.kernel, v.tile, v.stream, eng.TrmvAuto
	if v.trmv {
		e.SymvKernel, e.TrmvKernel = eng.SymvAuto, eng.TrmvGemv
		if v.kernel == eng.SymvStream {
			e.TrmvKernel = eng.TrmvStream
		}
	}
}

// trmvVariants are Trmv's: GEMV's kernels, the stream at its derived
// shape and two others.
func trmvVariants(es int) []symvVariant {
	vs := []symvVariant{{trmv: true}, {trmv: true, kernel: eng.SymvStream}}
	for _, v := range []symvVariant{symvVariants(es)[4], symvVariants(es)[9]} {
		v.trmv = true
		vs = append(vs, v)
	}
	return vs
}

// symvTime times back-to-back calls in GB/s of bytes per call.
func symvTime(b *testing.B, bytes float64, call func() (*Event, error)) {
	enqueueWait(b, 1, call)
	b.ResetTimer()
	enqueueWait(b, b.N, call)
	b.ReportMetric(bytes*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}

// enqueueWait makes calls resident calls back to back (calls ≥ 1) and
// waits for the last one's event.
func enqueueWait(tb testing.TB, calls int, call func() (*Event, error)) {
	tb.Helper()
	var last *Event
	for range calls {
		ev, err := call()
		if err != nil {
			tb.Fatal(err)
		}
		last = ev
	}
	if err := last.Wait(); err != nil {
		tb.Fatal(err)
	}
}
