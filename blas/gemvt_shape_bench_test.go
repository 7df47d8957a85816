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
	gemvtN = flag.Int("gemvt.n", 512, "BenchmarkGemvTShape: the order of A")
	gemvtK = flag.Int("gemvt.k", 0, "BenchmarkGemvTShape: Gbmv's kl = ku, at most (n-1)/2 (0: n/8)")
)

// gemvTVariants are the launches BenchmarkGemvTShape compares: the
// engine's (zero), then work-group TX×TY, rows in flight, row blocks
// (GEMV T) or row slices (GER).
var gemvTVariants = []eng.GemvTShape{
	{},
	{Launches: 1},
	{Launches: 2},
	{TX: 64, TY: 2, Unroll: 4, RowBlocks: 33},
	{TX: 64, TY: 2, Unroll: 4, RowBlocks: 66},
	{TX: 64, TY: 2, Unroll: 8, RowBlocks: 16},
	{TX: 64, TY: 2, Unroll: 8, RowBlocks: 33},
	{TX: 64, TY: 4, Unroll: 4, RowBlocks: 33},
	{TX: 32, TY: 4, Unroll: 4, RowBlocks: 33},
	{TX: 32, TY: 8, Unroll: 4, RowBlocks: 66},
	{TX: 128, TY: 2, Unroll: 4, RowBlocks: 66},
}

// gbmvTVariants are GBMV T's launches beyond gemvTVariants: more rows in
// flight and fewer, longer row blocks.
var gbmvTVariants = []eng.GemvTShape{
	{TX: 64, TY: 2, Unroll: 4, RowBlocks: 16},
	{TX: 64, TY: 2, Unroll: 8, RowBlocks: 8},
	{TX: 64, TY: 2, Unroll: 8, RowBlocks: 12},
	{TX: 64, TY: 2, Unroll: 16, RowBlocks: 8},
	{TX: 64, TY: 2, Unroll: 16, RowBlocks: 16},
	{TX: 32, TY: 4, Unroll: 8, RowBlocks: 8},
	{TX: 32, TY: 4, Unroll: 8, RowBlocks: 16},
	{TX: 64, TY: 4, Unroll: 8, RowBlocks: 8},
	{TX: 64, TY: 4, Unroll: 8, RowBlocks: 16},
	{TX: 32, TY: 2, Unroll: 8, RowBlocks: 16},
	{TX: 64, TY: 2, Unroll: 8, RowBlocks: 4},
	{TX: 64, TY: 2, Unroll: 8, RowBlocks: 24},
}

var gerVariants = []eng.GemvTShape{
	{},
	{TX: 64, TY: 2, Unroll: 1},
	{TX: 64, TY: 2, Unroll: 2},
	{TX: 64, TY: 2, Unroll: 4},
	{TX: 64, TY: 2, Unroll: 4, RowBlocks: 33},
	{TX: 64, TY: 2, Unroll: 8, RowBlocks: 16},
	{TX: 128, TY: 2, Unroll: 4},
	{TX: 32, TY: 8, Unroll: 4},
}

// syrVariants are SYR's and SYR2's (RowBlocks: rows a work-item).
var syrVariants = []eng.GemvTShape{
	{},
	{TX: 64, TY: 2, Unroll: 1, RowBlocks: 16},
	{TX: 64, TY: 2, Unroll: 4, RowBlocks: 16},
	{TX: 64, TY: 4, Unroll: 4, RowBlocks: 8},
	{TX: 64, TY: 4, Unroll: 4, RowBlocks: 32},
	{TX: 128, TY: 2, Unroll: 4, RowBlocks: 16},
	{TX: 32, TY: 8, Unroll: 4, RowBlocks: 16},
	{TX: 64, TY: 2, Unroll: 8, RowBlocks: 64},
}

func gemvTName(s eng.GemvTShape) string {
	if s == (eng.GemvTShape{}) {
		return "auto"
	}
	name := fmt.Sprintf("%dx%d.u%d.b%d", s.TX, s.TY, s.Unroll, s.RowBlocks)
	if s.Launches > 0 {
		name += fmt.Sprintf(".l%d", s.Launches)
	}
	return name
}

// BenchmarkGemvTShape times resident Gemv T and Ger on an n×n matrix
// (n = -gemvt.n), real and complex, with each launch of gemvTVariants
// and gerVariants, Syr
// and Syr2 (upper) with syrVariants, and
// Gbmv T (kl = ku = n/8, or -gemvt.k) with band_t and gbmv_t_part at gemvTVariants, in
// GB/s of the bytes the call must move (as cmd/bench counts them), to
// choose the launches on a device in one run.
//
//	go test -run XXX -bench GemvTShape ./blas -gemvt.n 8192
func BenchmarkGemvTShape(b *testing.B) {
	impl := newTestImpl(b)
	defer func() { impl.eng.GemvT, impl.eng.Ger = eng.GemvTShape{}, eng.GemvTShape{} }()
	gemvTShapePrec[float32](b, impl, "f32", *gemvtN)
	gemvTShapePrec[float64](b, impl, "f64", *gemvtN)
	gemvTShapeComplex[complex64](b, impl, "c64", *gemvtN)
	gemvTShapeComplex[complex128](b, impl, "c128", *gemvtN)
}

// gemvTShapeComplex times the complex Gemv with Aᵀ and Aᴴ (zgemv-t,
// zgemv-c) at gemvTVariants and Ger (zgeru, on zger_rows) at gerVariants.
func gemvTShapeComplex[T complex64 | complex128](b *testing.B, impl *Implementation, prec string, n int) {
	e := impl.eng
	host := make([]T, n*n)
	for i := range host {
		host[i] = T(complex(float64(i%7)/8/float64(n), float64(i%5)/8/float64(n)))
	}
	a, err1 := NewMatrixFrom(impl, n, n, host)
	x, err2 := NewVectorFrom(impl, host[:n])
	y, err3 := NewVectorFrom(impl, host[n:2*n])
	if err := errors.Join(err1, err2, err3); err != nil {
		b.Fatal(err)
	}
	defer a.Release()
	defer x.Release()
	defer y.Release()
	var z T
	es, nf := float64(unsafe.Sizeof(z)), float64(n)
	for _, v := range gemvTVariants {
		for _, tA := range []blas.Transpose{blas.Trans, blas.ConjTrans} {
			b.Run(fmt.Sprintf("zgemv-%c/%s/%s", tA+'a'-'A', prec, gemvTName(v)), func(b *testing.B) {
				e.GemvT = v
				symvTime(b, es*(nf*nf+3*nf), func() (*Event, error) { return Gemv(tA, T(1), a, x, T(0.5), y) })
			})
		}
	}
	e.GemvT = eng.GemvTShape{}
	for _, v := range gerVariants {
		b.Run(fmt.Sprintf("zgeru/%s/%s", prec, gemvTName(v)), func(b *testing.B) {
			e.Ger = v
			symvTime(b, es*(2*nf*nf+2*nf), func() (*Event, error) { return Ger(T(1e-9), x, y, a) })
		})
	}
	e.Ger = eng.GemvTShape{}
}

func gemvTShapePrec[T float32 | float64](b *testing.B, impl *Implementation, prec string, n int) {
	e := impl.eng
	host := make([]T, n*n)
	for i := range host {
		host[i] = T(i%7) / 8 / T(n)
	}
	a, err1 := NewMatrixFrom(impl, n, n, host)
	x, err2 := NewVectorFrom(impl, host[:n])
	y, err3 := NewVectorFrom(impl, host[n:2*n])
	if err := errors.Join(err1, err2, err3); err != nil {
		b.Fatal(err)
	}
	defer a.Release()
	defer x.Release()
	defer y.Release()
	var z T
	es, nf := float64(unsafe.Sizeof(z)), float64(n)
	for _, v := range gemvTVariants {
		b.Run(fmt.Sprintf("gemv-t/%s/%s", prec, gemvTName(v)), func(b *testing.B) {
			e.GemvT = v
			symvTime(b, es*(nf*nf+3*nf), func() (*Event, error) { return Gemv(blas.Trans, 1, a, x, 0.5, y) })
		})
	}
	e.GemvT = eng.GemvTShape{}
	for _, v := range gerVariants {
		b.Run(fmt.Sprintf("ger/%s/%s", prec, gemvTName(v)), func(b *testing.B) {
			e.Ger = v
			symvTime(b, es*(2*nf*nf+2*nf), func() (*Event, error) { return Ger(T(1e-9), x, y, a) })
		})
	}
	tri := nf * (nf + 1) / 2
	for _, v := range syrVariants {
		e.Ger = v
		b.Run(fmt.Sprintf("syr/%s/%s", prec, gemvTName(v)), func(b *testing.B) {
			symvTime(b, es*(2*tri+nf), func() (*Event, error) { return Syr(blas.Upper, T(1e-9), x, a) })
		})
		b.Run(fmt.Sprintf("syr2/%s/%s", prec, gemvTName(v)), func(b *testing.B) {
			symvTime(b, es*(2*tri+2*nf), func() (*Event, error) { return Syr2(blas.Upper, T(1e-9), x, y, a) })
		})
	}
	e.Ger = eng.GemvTShape{}
	// GBMV T with kl = ku = n/8 (as cmd/bench) or -gemvt.k: band_t, then
	// gbmv_t_part at GEMV T's launches.
	kb := max(n/8, 1)
	if *gemvtK > 0 {
		kb = min(*gemvtK, (n-1)/2) // the band's 2·kb + 1 columns come from host's n
	}
	w := 2*kb + 1
	band, err := NewMatrixFrom(impl, n, w, host[:n*w])
	if err != nil {
		b.Fatal(err)
	}
	defer band.Release()
	inBand := nf*float64(w) - float64(kb)*float64(kb+1)
	defer func() { e.GbmvTKernel, e.GemvT = eng.GbmvTAuto, eng.GemvTShape{} }()
	for i, v := range append(append([]eng.GemvTShape{{}}, gemvTVariants...), gbmvTVariants...) {
		k, name := eng.GbmvTPart, gemvTName(v)
		if i == 0 {
			k, name = eng.GbmvTCols, "band_t"
		}
		b.Run(fmt.Sprintf("gbmv-t/%s/%s", prec, name), func(b *testing.B) {
			e.GbmvTKernel, e.GemvT = k, v
			symvTime(b, es*(inBand+3*nf), func() (*Event, error) { return Gbmv(blas.Trans, n, n, kb, kb, 1, band, x, 0.5, y) })
		})
	}
}
