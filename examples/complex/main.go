// Command complex runs complex BLAS through gonum's cblas128 package, first
// on gonum's own Go code and then on gocompute/opencl's Implementation: a
// complex matrix product (Zgemm, C = A·Bᴴ) and a Hermitian rank-k update
// (Zherk, C = A·Aᴴ), with the timings, the largest difference between the
// two answers, and where the library ran each call.
//
//	go run ./examples/complex -n 512
//
// The library runs complex level 3 on the device when its offload policy
// says it pays (GOCL_OFFLOAD=always forces it): Zgemm as one real GEMM on
// the parts (the engine's tuned, tensor-core kernels where the device has
// them), Zherk as one such GEMM over the whole square whose triangle is
// kept. Stats says where each call ran.
package main

import (
	"flag"
	"fmt"
	"log"
	"math/cmplx"
	"math/rand/v2"
	"sort"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/cblas128"
	"gonum.org/v1/gonum/blas/gonum"

	clblas "github.com/gocompute/opencl/blas"
)

func main() {
	n := flag.Int("n", 512, "matrix size")
	reps := flag.Int("reps", 3, "timed repetitions (the best is reported)")
	flag.Parse()
	if *n < 1 || *reps < 1 {
		log.Fatalf("complex: -n and -reps must be positive")
	}

	impl, err := clblas.New()
	if err != nil {
		log.Fatalf("complex: %v", err)
	}
	defer impl.Close()
	fmt.Printf("device: %s (offload policy %v)\n", impl.DeviceName(), impl.Policy())

	rnd := rand.New(rand.NewPCG(1, 1))
	a, b := random(rnd, *n), random(rnd, *n)
	N := float64(*n)
	fmt.Printf("%-28s %12s %12s %14s\n", "n = "+fmt.Sprint(*n), "gonum", "clblas", "max rel diff")

	gemm := func(c cblas128.General) {
		cblas128.Gemm(blas.NoTrans, blas.ConjTrans, 1, a, b, 0, c)
	}
	report("Zgemm  C = A·Bᴴ", 8*N*N*N, *reps, impl, func() cblas128.General {
		c := general(*n)
		gemm(c)
		return c
	})

	herk := func(c cblas128.Hermitian) {
		cblas128.Herk(blas.NoTrans, 1, a, 0, c)
	}
	report("Zherk  C = A·Aᴴ (upper)", 4*N*N*N, *reps, impl, func() cblas128.General {
		c := cblas128.Hermitian{N: *n, Stride: *n, Data: make([]complex128, *n**n), Uplo: blas.Upper}
		herk(c)
		return cblas128.General{Rows: *n, Cols: *n, Stride: *n, Data: c.Data}
	})

	fmt.Println("where the library ran them (Stats):")
	stats := impl.Stats()
	names := make([]string, 0, len(stats))
	for name := range stats {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		s := stats[name]
		fmt.Printf("  %-6s device %d, CPU %d, failed on the device %d\n", name, s.Device, s.CPU, s.Failed)
	}
}

// report times f on gonum's implementation and on impl, and prints the
// best times, the rate in GFLOP/s and the largest relative difference.
func report(name string, flops float64, reps int, impl *clblas.Implementation, f func() cblas128.General) {
	cblas128.Use(gonum.Implementation{})
	var want, got cblas128.General
	tg := best(reps, func() { want = f() })
	cblas128.Use(impl)
	td := best(reps, func() { got = f() })
	cblas128.Use(gonum.Implementation{})
	fmt.Printf("%-28s %12s %12s %14.2e\n", name, rate(tg, flops), rate(td, flops), maxRelDiff(got, want))
}

func rate(d time.Duration, flops float64) string {
	return fmt.Sprintf("%.1f GF/s", flops/d.Seconds()/1e9)
}

func best(reps int, f func()) time.Duration {
	min := time.Duration(1<<63 - 1)
	for range reps {
		t := time.Now()
		f()
		if d := time.Since(t); d < min {
			min = d
		}
	}
	return min
}

func random(rnd *rand.Rand, n int) cblas128.General {
	g := general(n)
	for i := range g.Data {
		g.Data[i] = complex(rnd.NormFloat64(), rnd.NormFloat64())
	}
	return g
}

func general(n int) cblas128.General {
	return cblas128.General{Rows: n, Cols: n, Stride: n, Data: make([]complex128, n*n)}
}

// maxRelDiff is max |got−want| / max |want| over the elements.
func maxRelDiff(got, want cblas128.General) float64 {
	var diff, scale float64
	for i := range want.Data {
		diff = max(diff, cmplx.Abs(got.Data[i]-want.Data[i]))
		scale = max(scale, cmplx.Abs(want.Data[i]))
	}
	if scale == 0 {
		return diff
	}
	return diff / scale
}
