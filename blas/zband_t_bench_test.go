package clblas

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

var zbandN = flag.Int("zband.n", 8192, "BenchmarkZbandT: the order of the bands")

// BenchmarkZbandT times the resident complex band products with Aᴴ that
// zband_t takes, off (Engine.ZbandTOff: zmv for a general band, zmv_wg
// for a triangular one, the kernels before it) and on, in GB/s of the
// stored band: GBMV on kl = ku = n/8 and TBMV on k = n/32 (cmd/bench's
// widths), complex64 and complex128, n = -zband.n. Meant for GPUs: a CPU
// device takes its own kernels either way.
//
//	go test -run XXX -bench ZbandT ./blas -zband.n 16384
func BenchmarkZbandT(b *testing.B) {
	impl := newTestImpl(b)
	defer func(off bool) { impl.eng.ZbandTOff = off }(impl.eng.ZbandTOff)
	b.Run("complex64", func(b *testing.B) { zbandTBench[complex64](b, impl) })
	b.Run("complex128", func(b *testing.B) { zbandTBench[complex128](b, impl) })
}

func zbandTBench[T complex64 | complex128](b *testing.B, impl *Implementation) {
	n := *zbandN
	kg, kt := max(n/8, 1), max(n/32, 1)
	r := rand.New(rand.NewPCG(3, uint64(n)))
	mat := func(cols int) *Matrix[T] {
		host := make([]T, n*cols)
		for i := range host {
			host[i] = T(complex(r.Float64()/float64(n), r.Float64()/float64(n)))
		}
		m, err := NewMatrixFrom(impl, n, cols, host)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { m.Release() })
		return m
	}
	vec := func() *Vector[T] {
		host := make([]T, n)
		for i := range host {
			host[i] = T(complex(r.Float64(), r.Float64()))
		}
		v, err := NewVectorFrom(impl, host)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { v.Release() })
		return v
	}
	gb, tb, x, y := mat(2*kg+1), mat(kt+1), vec(), vec()
	es := float64(elemSize(T(0)))
	band := func(kl, ku int) float64 {
		nf, l, u := float64(n), float64(kl), float64(ku)
		return nf*(l+u+1) - l*(l+1)/2 - u*(u+1)/2
	}
	ops := []struct {
		name  string
		bytes float64
		run   func() (*Event, error)
	}{
		{"GBMV-C", es * (band(kg, kg) + 3*float64(n)), func() (*Event, error) {
			return Gbmv(blas.ConjTrans, n, n, kg, kg, T(1), gb, x, T(0.5), y)
		}},
		{"TBMV-C", es * (band(kt, 0) + 2*float64(n)), func() (*Event, error) {
			return Tbmv(blas.Lower, blas.ConjTrans, blas.NonUnit, kt, tb, x)
		}},
	}
	for _, op := range ops {
		for _, on := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/zband_t=%v", op.name, on), func(b *testing.B) {
				impl.eng.ZbandTOff = !on
				var ev *Event
				var err error
				for range b.N {
					if ev, err = op.run(); err != nil {
						b.Fatal(err)
					}
				}
				if err := ev.Wait(); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(op.bytes*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
			})
		}
	}
}
