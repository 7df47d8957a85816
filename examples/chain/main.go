// Command chain shows data that stays on the device: a chain of matrix
// products X ← s·A·X, run three ways — gonum's Go code, the drop-in BLAS on
// Go slices (every product uploads and downloads its matrices), and the
// device-resident API (the matrices are uploaded once, every product is
// enqueued without waiting, and one read at the end brings the result
// back) — with the timings and the largest difference from gonum.
//
//	go run ./examples/chain -n 1024 -steps 20
//
// GOCL_DEVICE chooses the device (see the README).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	clblas "github.com/gocompute/opencl/blas"
)

func main() {
	n := flag.Int("n", 512, "order of the matrices")
	steps := flag.Int("steps", 10, "products in the chain")
	flag.Parse()
	if *n < 1 || *steps < 1 {
		log.Fatal("chain: -n and -steps must be positive")
	}

	impl, err := clblas.New(clblas.WithOffload(clblas.Always))
	if err != nil {
		log.Fatalf("chain: %v", err)
	}
	defer impl.Close()
	fmt.Printf("device: %s\nX ← s·A·X, %d×%d, %d steps\n\n", impl.DeviceName(), *n, *n, *steps)

	rnd := rand.New(rand.NewPCG(1, 2))
	a, x0 := make([]float64, *n**n), make([]float64, *n**n)
	for i := range a {
		a[i], x0[i] = rnd.Float64()-0.5, rnd.Float64()-0.5
	}
	// s keeps the entries of X of order one: A's entries have variance
	// 1/12, so A·X grows by about √(n/12) per step.
	s := 1 / math.Sqrt(float64(*n)/12)

	// chainOn runs the chain through a blas.Float64 on Go slices.
	chainOn := func(impl blas.Float64) ([]float64, time.Duration) {
		x, t := append([]float64(nil), x0...), make([]float64, len(x0))
		start := time.Now()
		for range *steps {
			impl.Dgemm(blas.NoTrans, blas.NoTrans, *n, *n, *n, s, a, *n, x, *n, 0, t, *n)
			x, t = t, x
		}
		return x, time.Since(start)
	}
	want, tGonum := chainOn(gonum.Implementation{})
	gotSlices, tSlices := chainOn(impl)

	// The resident chain: upload, enqueue every product, read once.
	start := time.Now()
	da, err := clblas.NewMatrixFrom(impl, *n, *n, a)
	if err != nil {
		log.Fatalf("chain: %v", err)
	}
	defer da.Release()
	dx, err := clblas.NewMatrixFrom(impl, *n, *n, x0)
	if err != nil {
		log.Fatalf("chain: %v", err)
	}
	defer dx.Release()
	dt, err := clblas.NewMatrix[float64](impl, *n, *n)
	if err != nil {
		log.Fatalf("chain: %v", err)
	}
	defer dt.Release()
	for range *steps {
		if _, err := clblas.Gemm(blas.NoTrans, blas.NoTrans, s, da, dx, 0, dt); err != nil {
			log.Fatalf("chain: %v", err)
		}
		dx, dt = dt, dx
	}
	// A reduction on the device as a future (the norm of X's first row):
	// its value is read when asked.
	row0, err := dx.Row(0)
	if err != nil {
		log.Fatalf("chain: %v", err)
	}
	norm, err := clblas.Nrm2(row0)
	if err != nil {
		log.Fatalf("chain: %v", err)
	}
	gotResident := make([]float64, len(x0))
	if err := dx.Read(gotResident); err != nil {
		log.Fatalf("chain: %v", err)
	}
	tResident := time.Since(start)
	nrm, err := norm.Value(context.Background())
	if err != nil {
		log.Fatalf("chain: %v", err)
	}

	flops := 2 * math.Pow(float64(*n), 3) * float64(*steps)
	row := func(name string, d time.Duration, got []float64) {
		diff := "-"
		if got != nil {
			diff = fmt.Sprintf("%.2e", maxRelDiff(got, want))
		}
		fmt.Printf("%-34s %12v %10.1f GFLOP/s   max rel diff %s\n", name, d.Round(time.Microsecond), flops/d.Seconds()/1e9, diff)
	}
	row("gonum (Go)", tGonum, nil)
	row("drop-in BLAS on Go slices", tSlices, gotSlices)
	row("resident (one upload, one read)", tResident, gotResident)
	fmt.Printf("\n‖first row of X‖ on the device: %.6g (gonum: %.6g)\n", nrm, norm2(want[:*n]))
}

// maxRelDiff is max|got−want| / max|want|.
func maxRelDiff(got, want []float64) float64 {
	var d, m float64
	for i := range want {
		d = math.Max(d, math.Abs(got[i]-want[i]))
		m = math.Max(m, math.Abs(want[i]))
	}
	return d / m
}

func norm2(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}
