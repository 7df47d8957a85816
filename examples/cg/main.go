// Command cg solves a dense symmetric positive definite system A·x = b by
// conjugate gradients two ways — gonum's Go BLAS on Go slices, and the
// device-resident API with every scalar of the iteration (the step
// lengths, the ratios of dot products) kept in device memory, so that the
// iterations are enqueued without a single read and the host reads the
// residual only every -check iterations to decide whether to stop — with
// the timings, iteration counts and the difference between the solutions.
//
//	go run ./examples/cg -n 2048 -tol 1e-10
//
// GOCL_DEVICE chooses the device (see the README).
package main

import (
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
	n := flag.Int("n", 1024, "order of the system")
	tol := flag.Float64("tol", 1e-10, "stop when ‖r‖ ≤ tol·‖b‖")
	maxIter := flag.Int("max", 1000, "most iterations")
	check := flag.Int("check", 10, "device: read the residual every this many iterations")
	flag.Parse()
	if *n < 1 || *maxIter < 1 || *check < 1 {
		log.Fatal("cg: -n, -max and -check must be positive")
	}

	impl, err := clblas.New(clblas.WithOffload(clblas.Always))
	if err != nil {
		log.Fatalf("cg: %v", err)
	}
	defer impl.Close()
	fmt.Printf("device: %s\nA·x = b, A %d×%d symmetric positive definite, ‖r‖ ≤ %g·‖b‖\n\n", impl.DeviceName(), *n, *n, *tol)

	a, b := system(*n)
	// One short solve first builds the device's kernels (or loads them
	// from the program cache), which the timed solve should not count.
	if _, _, _, err := cgDevice(impl, a, b, *n, *tol, 1, 1); err != nil {
		log.Fatalf("cg: %v", err)
	}
	xg, itg, tg := cgGonum(a, b, *n, *tol, *maxIter)
	xd, itd, td, err := cgDevice(impl, a, b, *n, *tol, *maxIter, *check)
	if err != nil {
		log.Fatalf("cg: %v", err)
	}
	var diff, norm float64
	for i := range xg {
		diff = max(diff, math.Abs(xd[i]-xg[i]))
		norm = max(norm, math.Abs(xg[i]))
	}
	fmt.Printf("%-28s %12s %6s %8s\n", "", "time", "iters", "per iter")
	fmt.Printf("%-28s %12v %6d %8v\n", "gonum (Go slices)", tg.Round(time.Microsecond), itg, (tg / time.Duration(itg)).Round(time.Microsecond))
	fmt.Printf("%-28s %12v %6d %8v\n", "device, scalars on device", td.Round(time.Microsecond), itd, (td / time.Duration(itd)).Round(time.Microsecond))
	fmt.Printf("\nspeed-up %.2fx; max |x_device − x_gonum| / max |x_gonum| = %.2e\n", float64(tg)/float64(td), diff/norm)
}

// system returns a random symmetric positive definite A (row-major:
// MᵀM/n plus 10⁻³ times the identity, a condition number of a few hundred,
// so CG needs on the order of a hundred iterations) and a random b.
func system(n int) (a, b []float64) {
	rnd := rand.New(rand.NewPCG(1, 2))
	m := make([]float64, n*n)
	for i := range m {
		m[i] = rnd.Float64() - 0.5
	}
	a = make([]float64, n*n)
	gonum.Implementation{}.Dsyrk(blas.Upper, blas.Trans, n, n, 1/float64(n), m, n, 0, a, n)
	for i := range n {
		a[i*n+i] += 1e-3
		for j := i + 1; j < n; j++ {
			a[j*n+i] = a[i*n+j]
		}
	}
	b = make([]float64, n)
	for i := range b {
		b[i] = rnd.Float64() - 0.5
	}
	return a, b
}

// cgGonum is conjugate gradients with gonum's BLAS on Go slices.
func cgGonum(a, b []float64, n int, tol float64, maxIter int) ([]float64, int, time.Duration) {
	g := gonum.Implementation{}
	start := time.Now()
	x, r, p, ap := make([]float64, n), append([]float64(nil), b...), append([]float64(nil), b...), make([]float64, n)
	rr := g.Ddot(n, r, 1, r, 1)
	stop := tol * tol * rr
	it := 0
	for it < maxIter && rr > stop {
		g.Dgemv(blas.NoTrans, n, n, 1, a, n, p, 1, 0, ap, 1)
		alpha := rr / g.Ddot(n, p, 1, ap, 1)
		g.Daxpy(n, alpha, p, 1, x, 1)
		g.Daxpy(n, -alpha, ap, 1, r, 1)
		rrNew := g.Ddot(n, r, 1, r, 1)
		g.Dscal(n, rrNew/rr, p, 1)
		g.Daxpy(n, 1, r, 1, p, 1)
		rr = rrNew
		it++
	}
	return x, it, time.Since(start)
}

// cgDevice is the same iteration on device-resident data; the uploads are
// timed too.
func cgDevice(impl *clblas.Implementation, a, b []float64, n int, tol float64, maxIter, check int) ([]float64, int, time.Duration, error) {
	start := time.Now()
	da, err := clblas.NewMatrixFrom(impl, n, n, a)
	if err != nil {
		return nil, 0, 0, err
	}
	defer da.Release()
	var vs []*clblas.Vector[float64]
	defer func() {
		for _, v := range vs {
			v.Release()
		}
	}()
	vec := func(data []float64) *clblas.Vector[float64] {
		if err != nil {
			return nil
		}
		var v *clblas.Vector[float64]
		v, err = clblas.NewVectorFrom(impl, data)
		vs = append(vs, v)
		return v
	}
	x, r, p, ap := vec(make([]float64, n)), vec(b), vec(b), vec(make([]float64, n))
	sc := vec(make([]float64, 4)) // rr, pAp, alpha (and beta), rrNew
	if err != nil {
		return nil, 0, 0, err
	}
	s := make([]*clblas.Vector[float64], 4)
	for i := range s {
		if s[i], err = sc.View(i, 1, 1); err != nil {
			return nil, 0, 0, err
		}
	}
	rr, pap, alpha, rrNew := s[0], s[1], s[2], s[3]

	var last *clblas.Event
	step := func(op func() (*clblas.Event, error)) {
		if err == nil {
			last, err = op()
		}
	}
	step(func() (*clblas.Event, error) { return clblas.DotTo(r, r, rr) })
	var rr0 [1]float64
	if err == nil {
		err = rr.Read(rr0[:])
	}
	stop := tol * tol * rr0[0]
	it := 0
	for err == nil && it < maxIter {
		step(func() (*clblas.Event, error) { return clblas.Gemv(blas.NoTrans, 1, da, p, 0, ap, last) })
		step(func() (*clblas.Event, error) { return clblas.DotTo(p, ap, pap, last) })
		step(func() (*clblas.Event, error) { return clblas.Div(rr, pap, alpha, last) })
		step(func() (*clblas.Event, error) { return clblas.AxpyBy(1, alpha, p, x, last) })
		step(func() (*clblas.Event, error) { return clblas.AxpyBy(-1, alpha, ap, r, last) })
		step(func() (*clblas.Event, error) { return clblas.DotTo(r, r, rrNew, last) })
		step(func() (*clblas.Event, error) { return clblas.Div(rrNew, rr, alpha, last) }) // beta
		step(func() (*clblas.Event, error) { return clblas.ScalBy(1, alpha, p, last) })
		step(func() (*clblas.Event, error) { return clblas.Axpy(1, r, p, last) })
		step(func() (*clblas.Event, error) { return clblas.Copy(rrNew, rr, last) })
		it++
		if err == nil && it%check == 0 {
			var v [1]float64
			if err = rr.Read(v[:]); err == nil && v[0] <= stop {
				break
			}
		}
	}
	out := make([]float64, n)
	if err == nil {
		err = x.Read(out)
	}
	return out, it, time.Since(start), err
}
