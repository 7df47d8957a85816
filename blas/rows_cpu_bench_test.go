package clblas

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
)

var rowsCPUSizes = flag.String("rowscpu.n", "2048,8192", "BenchmarkRowsCPU: matrix orders, comma-separated")

// BenchmarkRowsCPU times the CPU devices' row kernels that take four or
// eight rows a pass (Engine.RowsCPU: sym_rows for SYMV, SPMV and SBMV,
// band_rows for TRMV), the two alternating call by call so that a shared
// machine's drift falls on both; it reports each one's median time and
// rows4/rows8, the ratio of the medians.
func BenchmarkRowsCPU(b *testing.B) {
	impl := newTestImpl(b)
	e := impl.eng
	if !e.Prof.IsCPU() {
		b.Skipf("the row kernels are CPU devices'; %s is not one", e.Prof.Name)
	}
	defer func() { e.RowsCPU = 0 }()
	for _, s := range strings.Split(*rowsCPUSizes, ",") {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("-rowscpu.n: %q", s)
		}
		rowsCPUPrec[float32](b, impl, "S", n)
		if e.Prof.FP64 {
			rowsCPUPrec[float64](b, impl, "D", n)
		}
	}
}

func rowsCPUPrec[T float32 | float64](b *testing.B, impl *Implementation, prefix string, n int) {
	rnd := rand.New(rand.NewPCG(1, 2))
	host := make([]T, n*n)
	for i := range host {
		host[i] = T(rnd.Float64() / float64(n))
	}
	k := n / 4
	a, err1 := NewMatrixFrom(impl, n, n, host)
	ab, err2 := NewMatrixFrom(impl, n, k+1, host[:n*(k+1)])
	ap, err3 := NewVectorFrom(impl, host[:n*(n+1)/2])
	x, err4 := NewVectorFrom(impl, host[:n])
	y, err5 := NewVectorFrom(impl, host[n:2*n])
	if err := errors.Join(err1, err2, err3, err4, err5); err != nil {
		b.Fatal(err)
	}
	defer a.Release()
	defer ab.Release()
	defer ap.Release()
	defer x.Release()
	defer y.Release()
	ops := []struct {
		name string
		call func() (*Event, error)
	}{
		{"SYMV", func() (*Event, error) { return Symv(blas.Upper, T(1), a, x, T(0.5), y) }},
		{"SPMV", func() (*Event, error) { return Spmv(blas.Upper, T(1), ap, x, T(0.5), y) }},
		{"SBMV", func() (*Event, error) { return Sbmv(blas.Upper, k, T(1), ab, x, T(0.5), y) }},
		{"TRMV", func() (*Event, error) { return Trmv(blas.Upper, blas.NoTrans, blas.NonUnit, a, y) }},
	}
	for _, op := range ops {
		b.Run(fmt.Sprintf("%s%s/n=%d", prefix, op.name, n), func(b *testing.B) {
			var ms [2][]float64
			for i := 0; i < b.N; i++ {
				for v, rows := range []int{4, 8} {
					impl.eng.RowsCPU = rows
					t0 := time.Now()
					ev, err := op.call()
					if err == nil {
						err = ev.Wait()
					}
					if err != nil {
						b.Fatal(err)
					}
					ms[v] = append(ms[v], float64(time.Since(t0).Microseconds())/1e3)
				}
			}
			m4, m8 := median(ms[0]), median(ms[1])
			b.ReportMetric(m4, "rows4-ms")
			b.ReportMetric(m8, "rows8-ms")
			b.ReportMetric(m4/m8, "rows4/rows8")
		})
	}
}

// median is the middle of s (sorted in place), the upper one of two.
func median(s []float64) float64 {
	slices.Sort(s)
	return s[len(s)/2]
}
