package clblas

import (
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// sweepComplexSizes returns the sizes of BenchmarkSweepComplex for a level:
// the small calls, where a complex routine's decision is most of its cost,
// and with -sweep.full the large ones (level 1 to 10⁶, level 2 to 2048²,
// level 3 to 512).
func sweepComplexSizes(level int) []int {
	quick := map[int][]int{
		1: {1, 4, 16, 64, 256},
		2: {1, 4, 16, 64, 256},
		3: {1, 4, 16, 64, 128},
	}
	more := map[int][]int{
		1: {1024, 10_000, 100_000, 1_000_000},
		2: {1024, 2048},
		3: {256, 512},
	}
	if *sweepFull {
		return append(quick[level], more[level]...)
	}
	return quick[level]
}

// cxSweepCase is one complex routine of BenchmarkSweepComplex at one size:
// call runs it once through the given implementation (the same one for
// both precisions).
type cxSweepCase struct {
	name, routine string
	call          func(z blas.Complex128, c blas.Complex64)
}

// cxSweepOperands are the operands of the complex sweep at size n, all
// upper triangles where a routine reads one:
//
//	x, y     n-vectors
//	a, b, c  n×n matrices (a also Hermitian for ZHEMV and ZHER)
//	tri      an n×n triangle with a unit diagonal stored (NonUnit) and
//	         elements of 1e-12 elsewhere, so that repeated products and
//	         solves keep their right-hand sides bounded
//	band     an n×n band with k = n/4 sub- and super-diagonals (lda 2k+1)
//	tband    tri's band of k super-diagonals (lda k+1)
//	packed   tri packed
type cxSweepOperands[C complex64 | complex128] struct {
	k                        int
	x, y, a, b, c            []C
	tri, band, tband, packed []C
}

// newCxSweepOperands allocates the operands of level (1: the vectors only)
// at size n.
func newCxSweepOperands[C complex64 | complex128](level, n int) *cxSweepOperands[C] {
	vec := func(n int, scale float64) []C {
		v := make([]C, n)
		for i := range v {
			v[i] = C(complex(scale*(1+float64(i%7)/8), scale*float64(i%5)/8))
		}
		return v
	}
	o := &cxSweepOperands[C]{k: n / 4, x: vec(n, 1), y: vec(n, 1)}
	if level == 1 {
		return o
	}
	k := o.k
	o.a, o.b, o.c = vec(n*n, 1), vec(n*n, 1), vec(n*n, 1)
	o.tri, o.tband, o.packed = vec(n*n, 1e-12), vec(n*(k+1), 1e-12), vec(n*(n+1)/2, 1e-12)
	o.band = vec(n*(2*k+1), 1)
	for i := range n {
		o.tri[i*n+i] = 1
		o.tband[i*(k+1)] = 1
		o.packed[i*n-i*(i-1)/2] = 1
	}
	return o
}

// sweepComplexCases returns the complex routines of the sweep of level at
// size n: every routine of blas.Complex128 (ZGEMV in two transpositions)
// and a sample of the complex64 ones, on operands allocated here.
func sweepComplexCases(level, n int) []cxSweepCase {
	z, s := newCxSweepOperands[complex128](level, n), newCxSweepOperands[complex64](level, n)
	k := z.k
	x, y := z.x, z.y
	type (
		Z = blas.Complex128
		C = blas.Complex64
	)
	const (
		up, no, nu = blas.Upper, blas.NoTrans, blas.NonUnit
	)
	switch level {
	case 1:
		return []cxSweepCase{
			{"Zaxpy", "Zaxpy", func(f Z, _ C) { f.Zaxpy(n, 1e-9i, x, 1, y, 1) }},
			{"Zcopy", "Zcopy", func(f Z, _ C) { f.Zcopy(n, x, 1, y, 1) }},
			{"Zdotc", "Zdotc", func(f Z, _ C) { sweepSinkC = f.Zdotc(n, x, 1, y, 1) }},
			{"Zdotu", "Zdotu", func(f Z, _ C) { sweepSinkC = f.Zdotu(n, x, 1, y, 1) }},
			{"Zdscal", "Zdscal", func(f Z, _ C) { f.Zdscal(n, -1, x, 1) }},
			{"Zscal", "Zscal", func(f Z, _ C) { f.Zscal(n, 1i, x, 1) }},
			{"Zswap", "Zswap", func(f Z, _ C) { f.Zswap(n, x, 1, y, 1) }},
			{"Dzasum", "Dzasum", func(f Z, _ C) { sweepSink = f.Dzasum(n, x, 1) }},
			{"Dznrm2", "Dznrm2", func(f Z, _ C) { sweepSink = f.Dznrm2(n, x, 1) }},
			{"Izamax", "Izamax", func(f Z, _ C) { sweepSinkI = f.Izamax(n, x, 1) }},
			{"Caxpy", "Caxpy", func(_ Z, f C) { f.Caxpy(n, 1e-6i, s.x, 1, s.y, 1) }},
			{"Cdotc", "Cdotc", func(_ Z, f C) { sweepSinkC = complex128(f.Cdotc(n, s.x, 1, s.y, 1)) }},
		}
	case 2:
		a, tri, band, tband, packed := z.a, z.tri, z.band, z.tband, z.packed
		return []cxSweepCase{
			{"ZgemvN", "Zgemv", func(f Z, _ C) { f.Zgemv(no, n, n, 1, a, n, x, 1, 0, y, 1) }},
			{"ZgemvC", "Zgemv", func(f Z, _ C) { f.Zgemv(blas.ConjTrans, n, n, 1, a, n, x, 1, 0, y, 1) }},
			{"Zgbmv", "Zgbmv", func(f Z, _ C) { f.Zgbmv(no, n, n, k, k, 1, band, 2*k+1, x, 1, 0, y, 1) }},
			{"Zgerc", "Zgerc", func(f Z, _ C) { f.Zgerc(n, n, 1e-12, x, 1, y, 1, a, n) }},
			{"Zgeru", "Zgeru", func(f Z, _ C) { f.Zgeru(n, n, 1e-12, x, 1, y, 1, a, n) }},
			{"Zhemv", "Zhemv", func(f Z, _ C) { f.Zhemv(up, n, 1, a, n, x, 1, 0, y, 1) }},
			{"Zhbmv", "Zhbmv", func(f Z, _ C) { f.Zhbmv(up, n, k, 1, tband, k+1, x, 1, 0, y, 1) }},
			{"Zhpmv", "Zhpmv", func(f Z, _ C) { f.Zhpmv(up, n, 1, packed, x, 1, 0, y, 1) }},
			{"Zher", "Zher", func(f Z, _ C) { f.Zher(up, n, 1e-12, x, 1, a, n) }},
			{"Zher2", "Zher2", func(f Z, _ C) { f.Zher2(up, n, 1e-12, x, 1, y, 1, a, n) }},
			{"Zhpr", "Zhpr", func(f Z, _ C) { f.Zhpr(up, n, 1e-12, x, 1, packed) }},
			{"Zhpr2", "Zhpr2", func(f Z, _ C) { f.Zhpr2(up, n, 1e-12, x, 1, y, 1, packed) }},
			{"Ztrmv", "Ztrmv", func(f Z, _ C) { f.Ztrmv(up, no, nu, n, tri, n, x, 1) }},
			{"Ztbmv", "Ztbmv", func(f Z, _ C) { f.Ztbmv(up, no, nu, n, k, tband, k+1, x, 1) }},
			{"Ztpmv", "Ztpmv", func(f Z, _ C) { f.Ztpmv(up, no, nu, n, packed, x, 1) }},
			{"Ztrsv", "Ztrsv", func(f Z, _ C) { f.Ztrsv(up, no, nu, n, tri, n, x, 1) }},
			{"Ztbsv", "Ztbsv", func(f Z, _ C) { f.Ztbsv(up, no, nu, n, k, tband, k+1, x, 1) }},
			{"Ztpsv", "Ztpsv", func(f Z, _ C) { f.Ztpsv(up, no, nu, n, packed, x, 1) }},
			{"Cgemv", "Cgemv", func(_ Z, f C) { f.Cgemv(no, n, n, 1, s.a, n, s.x, 1, 0, s.y, 1) }},
			{"Ctrsv", "Ctrsv", func(_ Z, f C) { f.Ctrsv(up, no, nu, n, s.tri, n, s.x, 1) }},
		}
	}
	a, b, c, tri := z.a, z.b, z.c, z.tri
	const l = blas.Left
	return []cxSweepCase{
		{"Zgemm", "Zgemm", func(f Z, _ C) { f.Zgemm(no, no, n, n, n, 1, a, n, b, n, 0, c, n) }},
		{"Zsymm", "Zsymm", func(f Z, _ C) { f.Zsymm(l, up, n, n, 1, a, n, b, n, 0, c, n) }},
		{"Zhemm", "Zhemm", func(f Z, _ C) { f.Zhemm(l, up, n, n, 1, a, n, b, n, 0, c, n) }},
		{"Zsyrk", "Zsyrk", func(f Z, _ C) { f.Zsyrk(up, no, n, n, 1, a, n, 0, c, n) }},
		{"Zherk", "Zherk", func(f Z, _ C) { f.Zherk(up, no, n, n, 1, a, n, 0, c, n) }},
		{"Zsyr2k", "Zsyr2k", func(f Z, _ C) { f.Zsyr2k(up, no, n, n, 1, a, n, b, n, 0, c, n) }},
		{"Zher2k", "Zher2k", func(f Z, _ C) { f.Zher2k(up, no, n, n, 1, a, n, b, n, 0, c, n) }},
		{"Ztrmm", "Ztrmm", func(f Z, _ C) { f.Ztrmm(l, up, no, nu, n, n, 1, tri, n, b, n) }},
		{"Ztrsm", "Ztrsm", func(f Z, _ C) { f.Ztrsm(l, up, no, nu, n, n, 1, tri, n, b, n) }},
		{"Cgemm", "Cgemm", func(_ Z, f C) { f.Cgemm(no, no, n, n, n, 1, s.a, n, s.b, n, 0, s.c, n) }},
		{"Ctrsm", "Ctrsm", func(_ Z, f C) { f.Ctrsm(l, up, no, nu, n, n, 1, s.tri, n, s.b, n) }},
	}
}

var (
	sweepSinkC complex128
	sweepSinkI int
)

// BenchmarkSweepComplex is BenchmarkSweep for the complex routines: every
// routine of blas.Complex128 and a sample of blas.Complex64's, level 1 and
// 2 at n = 1 to 256 and level 3 to 128 (with -sweep.full, level 1 to 10⁶,
// level 2 to 2048 and level 3 to 512). It reports gonum's time and ours
// under auto per call, their ratio (x-gonum, ≥ 0.95 is the target) and the
// fraction of our calls on the device.
//
//	go test -run XXX -bench SweepComplex ./blas/
//	./blas.test -test.run XXX -test.bench SweepComplex -test.benchtime 100ms
func BenchmarkSweepComplex(b *testing.B) {
	ours, err := New(WithOffload(Auto))
	if err != nil {
		b.Skipf("New: %v", err)
	}
	defer ours.Close()
	var ref gonum.Implementation
	for level := 1; level <= 3; level++ {
		for _, n := range sweepComplexSizes(level) {
			for _, c := range sweepComplexCases(level, n) {
				sweepRun(b, ours, c.name, c.routine, n, func() { c.call(ref, ref) }, func() { c.call(ours, ours) })
			}
		}
	}
}
