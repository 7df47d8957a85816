package clblas

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// sweepComplexSizes are the sizes of BenchmarkSweepComplex: the small calls
// where a complex routine's decision is most of its cost.
var sweepComplexSizes = []int{1, 4, 16, 64, 256}

// sweepComplexCases returns the complex routines of the sweep at size n
// (vectors of n, n×n matrices), on operands allocated here.
func sweepComplexCases(n int) []sweepCase {
	vec := func(n int) []complex128 {
		v := make([]complex128, n)
		for i := range v {
			v[i] = complex(1+float64(i%7)/8, float64(i%5)/8)
		}
		return v
	}
	x, y := vec(n), vec(n)
	a, b, c := vec(n*n), vec(n*n), vec(n*n)
	z := func(f blas.Float64) blas.Complex128 { return f.(blas.Complex128) }
	return []sweepCase{
		{"Zaxpy", "Zaxpy", func(f blas.Float64, _ blas.Float32) { z(f).Zaxpy(n, 1e-9i, x, 1, y, 1) }},
		{"Zdotc", "Zdotc", func(f blas.Float64, _ blas.Float32) { sweepSinkC = z(f).Zdotc(n, x, 1, y, 1) }},
		{"ZgemvN", "Zgemv", func(f blas.Float64, _ blas.Float32) {
			z(f).Zgemv(blas.NoTrans, n, n, 1, a, n, x, 1, 0, y, 1)
		}},
		{"Zgemm", "Zgemm", func(f blas.Float64, _ blas.Float32) {
			z(f).Zgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, b, n, 0, c, n)
		}},
	}
}

var sweepSinkC complex128

// BenchmarkSweepComplex is BenchmarkSweep for complex routines (ZAXPY,
// ZDOTC, ZGEMV N, ZGEMM) at small sizes: gonum's time and ours under auto
// per call, their ratio (x-gonum, ≥ 0.95 is the target) and the fraction of
// our calls on the device.
//
//	go test -run XXX -bench SweepComplex ./blas/
func BenchmarkSweepComplex(b *testing.B) {
	ours, err := New(WithOffload(Auto))
	if err != nil {
		b.Skipf("New: %v", err)
	}
	defer ours.Close()
	var ref gonum.Implementation
	for _, n := range sweepComplexSizes {
		for _, c := range sweepComplexCases(n) {
			b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
				before := ours.Stats()[c.routine].Device
				calls := sweepPair(b, func() { c.call(ref, nil) }, func() { c.call(ours, nil) })
				dev := ours.Stats()[c.routine].Device - before
				b.ReportMetric(float64(dev)/float64(calls), "on-device")
			})
		}
	}
}
