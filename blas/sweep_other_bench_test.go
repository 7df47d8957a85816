package clblas

import (
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// sweepOtherCases are level 2 and 3 routines besides GEMV, GER and GEMM
// at size n (level 2 or 3), on operands allocated here: each meets the
// gate before its own checks, as those three do.
func sweepOtherCases(level, n int) []sweepCase {
	vec := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = 1 + float64(i%7)/8
		}
		return v
	}
	a, b, c := vec(n*n), vec(n*n), vec(n*n)
	for i := range n {
		a[i*n+i] = float64(n) // a well-conditioned triangle for the solves
	}
	if level == 2 {
		x, y := vec(n), vec(n)
		return []sweepCase{
			{"Dsymv", "Dsymv", func(f blas.Float64, _ blas.Float32) { f.Dsymv(blas.Upper, n, 1, a, n, x, 1, 0, y, 1) }},
			{"Dtrmv", "Dtrmv", func(f blas.Float64, _ blas.Float32) {
				f.Dtrmv(blas.Upper, blas.NoTrans, blas.NonUnit, n, a, n, x, 1)
				copy(x, y) // keep x bounded
			}},
			{"Dtrsv", "Dtrsv", func(f blas.Float64, _ blas.Float32) { f.Dtrsv(blas.Lower, blas.NoTrans, blas.NonUnit, n, a, n, x, 1) }},
			{"Dsyr2", "Dsyr2", func(f blas.Float64, _ blas.Float32) { f.Dsyr2(blas.Upper, n, 1e-12, x, 1, y, 1, a, n) }},
		}
	}
	return []sweepCase{
		{"Dsymm", "Dsymm", func(f blas.Float64, _ blas.Float32) {
			f.Dsymm(blas.Left, blas.Upper, n, n, 1, a, n, b, n, 0, c, n)
		}},
		{"Dsyrk", "Dsyrk", func(f blas.Float64, _ blas.Float32) { f.Dsyrk(blas.Upper, blas.NoTrans, n, n, 1, a, n, 0, c, n) }},
		{"Dtrsm", "Dtrsm", func(f blas.Float64, _ blas.Float32) {
			f.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.NonUnit, n, n, 1, a, n, b, n)
			copy(b, c) // keep b bounded
		}},
	}
}

// BenchmarkSweepOther is BenchmarkSweep (same sizes, same method) for the
// level 2 and 3 routines of sweepOtherCases.
//
//	go test -run XXX -bench SweepOther ./blas/
func BenchmarkSweepOther(b *testing.B) {
	ours, err := New(WithOffload(Auto))
	if err != nil {
		b.Skipf("New: %v", err)
	}
	defer ours.Close()
	var ref gonum.Implementation
	for level := 2; level <= 3; level++ {
		for _, n := range sweepSizes(level) {
			for _, c := range sweepOtherCases(level, n) {
				sweepRun(b, ours, c.name, c.routine, n, func() { c.call(ref, ref) }, func() { c.call(ours, ours) })
			}
		}
	}
}
