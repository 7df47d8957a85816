// Command mat shows the one-line switch: ordinary gonum/mat code (a product,
// LU, QR and Cholesky), run first on gonum's own Go BLAS and LAPACK and then
// on the OpenCL device through gocompute/opencl (blas64.Use and
// lapack64.Use), with the timings and the largest difference between the two
// answers.
//
//	go run ./examples/mat -n 1024
//
// GOCL_DEVICE chooses the device (see the README); GOCL_OFFLOAD=always sends
// every call to the device, =auto (the default) lets the library decide per
// call. Without an OpenCL device (or OpenCL at all) it says so in one line
// and runs on gonum alone.
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	lapackgonum "gonum.org/v1/gonum/lapack/gonum"

	clblas "github.com/gocompute/opencl/blas"
	cllapack "github.com/gocompute/opencl/lapack"
)

func main() {
	n := flag.Int("n", 1024, "matrix size")
	reps := flag.Int("reps", 3, "timed repetitions (best is reported)")
	flag.Parse()

	impl, err := clblas.New()
	if err != nil {
		fmt.Printf("mat: no OpenCL device, running on gonum alone: %v\n", err)
		impl = nil
	} else {
		defer impl.Close()
		fmt.Printf("device: %s (offload policy %v)\n", impl.DeviceName(), impl.Policy())
		if lapackImpl, err = cllapack.New(impl); err != nil {
			log.Fatal(err)
		}
		defer lapackImpl.Close()
		defer use(nil) // gonum's own again before the device closes
	}

	rnd := rand.New(rand.NewPCG(1, 1))
	a := randomDense(rnd, *n)
	b := randomDense(rnd, *n)
	spd := mat.NewSymDense(*n, nil) // a symmetric positive definite matrix for Cholesky
	var at mat.Dense
	at.Mul(a.T(), a)
	for i := 0; i < *n; i++ {
		for j := i; j < *n; j++ {
			v := at.At(i, j)
			if i == j {
				v += float64(*n)
			}
			spd.SetSym(i, j, v)
		}
	}

	type result struct {
		name       string
		gonum, dev time.Duration
		diff       float64
	}
	var results []result
	var checksums []string // of gonum's answers, the same with or without a device
	run := func(name string, flops float64, f func() mat.Matrix) {
		use(nil)
		var want mat.Matrix
		tg := best(*reps, func() { want = f() })
		checksums = append(checksums, fmt.Sprintf("%s %.17g", name, mat.Sum(want)))
		if impl == nil {
			results = append(results, result{name: name, gonum: tg})
			return
		}
		use(impl)
		var got mat.Matrix
		f() // warm-up: compiles the kernels once
		td := best(*reps, func() { got = f() })
		use(nil)
		results = append(results, result{name, tg, td, maxRelDiff(got, want)})
		_ = flops
	}

	N := float64(*n)
	run("Dense.Mul (DGEMM)", 2*N*N*N, func() mat.Matrix {
		var c mat.Dense
		c.Mul(a, b)
		return &c
	})
	run("LU factorization", 2*N*N*N/3, func() mat.Matrix {
		var lu mat.LU
		lu.Factorize(a)
		var l mat.TriDense
		lu.LTo(&l)
		return &l
	})
	run("QR factorization", 4*N*N*N/3, func() mat.Matrix {
		var qr mat.QR
		qr.Factorize(a)
		var r mat.Dense
		qr.RTo(&r)
		return &r
	})
	run("Cholesky", N*N*N/3, func() mat.Matrix {
		var ch mat.Cholesky
		if !ch.Factorize(spd) {
			log.Fatal("mat: matrix not positive definite")
		}
		var u mat.TriDense
		ch.UTo(&u)
		return &u
	})

	fmt.Printf("gonum checksums: %s\n", strings.Join(checksums, ", "))
	if impl == nil {
		for _, r := range results {
			fmt.Printf("%-22s %12v (gonum)\n", r.name, r.gonum.Round(time.Microsecond))
		}
		return
	}
	fmt.Printf("\nn = %d, best of %d\n", *n, *reps)
	fmt.Printf("%-22s %12s %12s %9s %12s\n", "operation", "gonum", "OpenCL", "speed-up", "max rel diff")
	for _, r := range results {
		fmt.Printf("%-22s %12v %12v %8.2fx %12.2e\n", r.name, r.gonum.Round(time.Microsecond), r.dev.Round(time.Microsecond),
			r.gonum.Seconds()/r.dev.Seconds(), r.diff)
	}
	gf := 2 * N * N * N / results[0].dev.Seconds() / 1e9
	fmt.Printf("\nDGEMM through mat.Dense.Mul on the device: %.1f GFLOP/s (gonum: %.1f)\n", gf, 2*N*N*N/results[0].gonum.Seconds()/1e9)
	// Where the BLAS calls behind these ran (the policy's choices).
	stats := impl.Stats()
	names := make([]string, 0, len(stats))
	for name := range stats {
		names = append(names, name)
	}
	sort.Strings(names)
	fmt.Printf("\nBLAS calls, device / CPU (offload policy %v):", impl.Policy())
	for i, name := range names {
		st := stats[name]
		if i%6 == 0 {
			fmt.Print("\n ")
		}
		fmt.Printf(" %s %d/%d", name, st.Device, st.CPU)
		if st.Failed > 0 {
			fmt.Printf(" (%d failed)", st.Failed)
		}
	}
	fmt.Println()
	for _, r := range results {
		if r.diff > 1e-8 || math.IsNaN(r.diff) {
			fmt.Fprintf(os.Stderr, "mat: %s differs from gonum's beyond rounding\n", r.name)
			os.Exit(1)
		}
	}
}

// lapackImpl is gonum's LAPACK with the factorizations on the device.
var lapackImpl *cllapack.Implementation

// use switches gonum's global BLAS and LAPACK: ours, or gonum's own.
func use(impl *clblas.Implementation) {
	if impl == nil {
		blas64.Use(gonum.Implementation{})
		blas32.Use(gonum.Implementation{})
		lapack64.Use(lapackgonum.Implementation{})
		return
	}
	// The lines a user adds:
	blas64.Use(impl)
	blas32.Use(impl)
	lapack64.Use(lapackImpl)
}

func best(reps int, f func()) time.Duration {
	b := time.Duration(math.MaxInt64)
	for range reps {
		t := time.Now()
		f()
		b = min(b, time.Since(t))
	}
	return b
}

func randomDense(rnd *rand.Rand, n int) *mat.Dense {
	d := make([]float64, n*n)
	for i := range d {
		d[i] = rnd.Float64() - 0.5
	}
	return mat.NewDense(n, n, d)
}

func maxRelDiff(got, want mat.Matrix) float64 {
	r, c := want.Dims()
	var worst float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			w, g := want.At(i, j), got.At(i, j)
			d := math.Abs(g-w) / math.Max(1, math.Abs(w))
			if d > worst || math.IsNaN(d) {
				worst = d
			}
		}
	}
	return worst
}
