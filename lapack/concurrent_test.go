package cllapack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
)

// TestConcurrent runs LU and Cholesky factorizations from several
// goroutines at once on one Implementation (the laswp kernel and the BLAS
// queue are shared) and checks each against gonum's.
func TestConcurrent(t *testing.T) {
	impl := newTestImpl(t, 16)
	const n, workers = 90, 4
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rnd := rand.New(rand.NewPCG(27, uint64(w)))
			g := gonum.Implementation{}
			a := make([]float64, n*n)
			for i := range a {
				a[i] = rnd.NormFloat64()
			}
			want := append([]float64(nil), a...)
			ipiv, ipivWant := make([]int, n), make([]int, n)
			impl.Dgetrf(n, n, a, n, ipiv)
			g.Dgetrf(n, n, want, n, ipivWant)
			if err := near(a, want, 1e-10); err != nil {
				errs <- fmt.Errorf("worker %d Dgetrf: %v", w, err)
				return
			}
			s := spd(n, n, rnd)
			sw := append([]float64(nil), s...)
			impl.Dpotrf(blas.Lower, n, s, n)
			g.Dpotrf(blas.Lower, n, sw, n)
			if err := near(s, sw, 1e-10); err != nil {
				errs <- fmt.Errorf("worker %d Dpotrf: %v", w, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// near is nil when a and want agree to tol relative to want's largest
// element.
func near(a, want []float64, tol float64) error {
	scale := 1.0
	for _, v := range want {
		scale = max(scale, math.Abs(v))
	}
	for i := range a {
		if !(math.Abs(a[i]-want[i]) <= tol*scale) {
			return fmt.Errorf("element %d = %v, want %v", i, a[i], want[i])
		}
	}
	return nil
}
