package cllapack

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/lapack/gonum"

	clblas "github.com/gocompute/opencl/blas"
)

// TestLaswpDevice compares laswpDevice with gonum's Dlaswp on random
// pivots as LU makes them (ipiv[i] ≥ i, repeats allowed) and arbitrary
// ones, over a column range, with more interchanges than one permutation
// of the kernel takes (LASWP_MAX) and fewer, and more columns than one
// work-group's (or laswp_rows' work-item's), with each of the two kernels.
func TestLaswpDevice(t *testing.T) {
	impl := newTestImpl(t, 16)
	defer func(rows bool) { impl.laswpRows = rows }(impl.laswpRows)
	for _, rows := range []bool{false, true} {
		impl.laswpRows = rows
		t.Run(fmt.Sprintf("laswp_rows=%v", rows), func(t *testing.T) { laswpCases(t, impl) })
	}
}

// laswpCases runs TestLaswpDevice's cases with impl's kernel.
func laswpCases(t *testing.T, impl *Implementation) {
	rnd := rand.New(rand.NewPCG(11, 12))
	for _, c := range []struct{ m, n, c0, cols, k, kb int }{
		{40, 7, 0, 7, 0, 20}, {300, 50, 3, 40, 10, 200}, {500, 70, 0, 70, 128, 300}, {20, 33, 1, 30, 5, 10},
	} {
		for _, anyPiv := range []bool{false, true} {
			name := fmt.Sprintf("%+v any %v", c, anyPiv)
			a := make([]float64, c.m*c.n)
			for i := range a {
				a[i] = float64(i)
			}
			ipiv := make([]int, c.k+c.kb)
			for i := c.k; i < c.k+c.kb; i++ {
				if anyPiv {
					ipiv[i] = rnd.IntN(c.m)
				} else {
					ipiv[i] = i + rnd.IntN(min(c.m-i, 8))
				}
			}
			d, err := clblas.NewMatrixFrom(impl.blas, c.m, c.n, a)
			if err != nil {
				t.Fatal(err)
			}
			p, err := impl.newPivots(len(ipiv))
			if err != nil {
				t.Fatal(err)
			}
			if err := p.upload(impl.blas.Runtime().Queue(), ipiv, 0, len(ipiv)); err != nil {
				t.Fatal(err)
			}
			if err := laswpDevice(impl, d, p, c.c0, c.cols, c.k, c.kb); err != nil {
				t.Fatal(err)
			}
			got := make([]float64, len(a))
			if err := d.Read(got); err != nil {
				t.Fatal(err)
			}
			gonum.Implementation{}.Dlaswp(c.cols, a[c.c0:], c.n, c.k, c.k+c.kb-1, ipiv, 1)
			for i := range a {
				if got[i] != a[i] {
					t.Fatalf("%s: element %d (row %d, column %d) = %v, want %v", name, i, i/c.n, i%c.n, got[i], a[i])
				}
			}
			if err := p.release(); err != nil {
				t.Error(err)
			}
			if err := d.Release(); err != nil {
				t.Error(err)
			}
		}
	}
}

// BenchmarkLaswp times one laswp launch alone: laswpMax interchanges as
// LU's panels make them (row i with a row at or below it) over all n
// columns of an n×n matrix, launches back to back.
func BenchmarkLaswp(b *testing.B) {
	impl := benchImpl(b)
	rnd := rand.New(rand.NewPCG(3, 4))
	for _, n := range sizes(b) {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			d, err := clblas.NewMatrix[float64](impl.blas, n, n)
			if err != nil {
				b.Fatal(err)
			}
			defer d.Release()
			kb := min(n, laswpMax)
			ipiv := make([]int, kb)
			for i := range ipiv {
				ipiv[i] = i + rnd.IntN(n-i)
			}
			p, err := impl.newPivots(kb)
			if err != nil {
				b.Fatal(err)
			}
			defer p.release()
			q := impl.blas.Runtime().Queue()
			if err := p.upload(q, ipiv, 0, kb); err != nil {
				b.Fatal(err)
			}
			per := timeLaunches(b, q, 20, func() error { return laswpDevice(impl, d, p, 0, n, 0, kb) })
			b.ReportMetric(per*1e6, "µs/launch")
		})
	}
}
