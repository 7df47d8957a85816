package clblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestConcurrent has 32 goroutines call a mix of routines of both
// precisions at once, each on its own data, and checks every result against
// gonum. Run it under -race.
func TestConcurrent(t *testing.T) {
	ref, _ := newRefImpl(t)
	for _, im := range []struct {
		name string
		impl *Implementation
	}{{"default", newTestImpl(t)}, {"refdevice", ref}} {
		t.Run(im.name, func(t *testing.T) {
			const goroutines, rounds = 32, 4
			var wg sync.WaitGroup
			errs := make(chan error, goroutines*rounds*10)
			for g := range goroutines {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := rand.New(rand.NewPCG(uint64(g), 11))
					for round := range rounds {
						for _, step := range concurrentSteps {
							if err := step(im.impl, r); err != nil {
								errs <- fmt.Errorf("goroutine %d round %d: %w", g, round, err)
							}
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}

func randVec64(r *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 2*r.Float64() - 1
	}
	return s
}

// closeEnough compares got with want elementwise at relative tolerance tol.
func closeEnough[T float32 | float64](what string, got, want []T, tol float64) error {
	for i := range want {
		if !same32(float64(got[i]), float64(want[i]), tol) {
			return fmt.Errorf("%s[%d] = %v, gonum %v", what, i, got[i], want[i])
		}
	}
	return nil
}

// concurrentSteps are the calls each goroutine makes, each checked against
// gonum.
var concurrentSteps = []func(impl *Implementation, r *rand.Rand) error{
	func(impl *Implementation, r *rand.Rand) error { // Dgemm
		m, n, k := 1+r.IntN(40), 1+r.IntN(40), 1+r.IntN(40)
		a, b, c := randVec64(r, m*k), randVec64(r, k*n), randVec64(r, m*n)
		want := slices.Clone(c)
		native.Dgemm(blas.NoTrans, blas.Trans, m, n, k, 0.5, a, k, b, k, -1, want, n)
		impl.Dgemm(blas.NoTrans, blas.Trans, m, n, k, 0.5, a, k, b, k, -1, c, n)
		return closeEnough("Dgemm c", c, want, 1e-12)
	},
	func(impl *Implementation, r *rand.Rand) error { // Sgemm
		m, n, k := 1+r.IntN(40), 1+r.IntN(40), 1+r.IntN(40)
		a, b, c := randSlice(r, k*m), randSlice(r, k*n), randSlice(r, m*n)
		want := slices.Clone(c)
		native.Sgemm(blas.Trans, blas.NoTrans, m, n, k, 1, a, m, b, n, 0, want, n)
		impl.Sgemm(blas.Trans, blas.NoTrans, m, n, k, 1, a, m, b, n, 0, c, n)
		return closeEnough("Sgemm c", c, want, 1e-4*math.Sqrt(float64(k)))
	},
	func(impl *Implementation, r *rand.Rand) error { // Dgemv
		m, n := 1+r.IntN(40), 1+r.IntN(40)
		a, x, y := randVec64(r, m*n), randVec64(r, n), randVec64(r, m)
		want := slices.Clone(y)
		native.Dgemv(blas.NoTrans, m, n, 2, a, n, x, 1, 0.5, want, 1)
		impl.Dgemv(blas.NoTrans, m, n, 2, a, n, x, 1, 0.5, y, 1)
		return closeEnough("Dgemv y", y, want, 1e-12)
	},
	func(impl *Implementation, r *rand.Rand) error { // Sgemv
		m, n := 1+r.IntN(40), 1+r.IntN(40)
		a, x, y := randSlice(r, m*n), randSlice(r, m), randSlice(r, n)
		want := slices.Clone(y)
		native.Sgemv(blas.Trans, m, n, 1, a, n, x, 1, 0, want, 1)
		impl.Sgemv(blas.Trans, m, n, 1, a, n, x, 1, 0, y, 1)
		return closeEnough("Sgemv y", y, want, 1e-4*math.Sqrt(float64(m)))
	},
	func(impl *Implementation, r *rand.Rand) error { // Ddot, Sdot
		n := 1 + r.IntN(400)
		x, y := randVec64(r, n), randVec64(r, n)
		if err := closeEnough("Ddot", []float64{impl.Ddot(n, x, 1, y, 1)}, []float64{native.Ddot(n, x, 1, y, 1)}, 1e-12); err != nil {
			return err
		}
		xs, ys := randSlice(r, n), randSlice(r, n)
		return closeEnough("Sdot", []float32{impl.Sdot(n, xs, 1, ys, 1)}, []float32{native.Sdot(n, xs, 1, ys, 1)}, 1e-4*math.Sqrt(float64(n)))
	},
	func(impl *Implementation, r *rand.Rand) error { // Daxpy, Saxpy
		n := 1 + r.IntN(400)
		x, y := randVec64(r, n), randVec64(r, n)
		want := slices.Clone(y)
		native.Daxpy(n, 0.3, x, 1, want, 1)
		impl.Daxpy(n, 0.3, x, 1, y, 1)
		if err := closeEnough("Daxpy y", y, want, 1e-14); err != nil {
			return err
		}
		xs, ys := randSlice(r, n), randSlice(r, n)
		wants := slices.Clone(ys)
		native.Saxpy(n, -2, xs, 1, wants, 1)
		impl.Saxpy(n, -2, xs, 1, ys, 1)
		return closeEnough("Saxpy y", ys, wants, 1e-6)
	},
	func(impl *Implementation, r *rand.Rand) error { // Dtrsm, Strsm
		m, n := 1+r.IntN(40), 1+r.IntN(40)
		a, b := randVec64(r, m*m), randVec64(r, m*n)
		for i := range m {
			for j := range m {
				a[i*m+j] /= float64(m + 1)
			}
			a[i*m+i] = 1 + r.Float64()
		}
		want := slices.Clone(b)
		native.Dtrsm(blas.Left, blas.Upper, blas.NoTrans, blas.NonUnit, m, n, 1.5, a, m, want, n)
		impl.Dtrsm(blas.Left, blas.Upper, blas.NoTrans, blas.NonUnit, m, n, 1.5, a, m, b, n)
		if err := closeEnough("Dtrsm b", b, want, 1e-12); err != nil {
			return err
		}
		as, bs := make([]float32, n*n), randSlice(r, m*n)
		for i := range n {
			for j := range n {
				as[i*n+j] = (2*r.Float32() - 1) / float32(n+1)
			}
			as[i*n+i] = -1 - r.Float32()
		}
		wants := slices.Clone(bs)
		native.Strsm(blas.Right, blas.Lower, blas.Trans, blas.NonUnit, m, n, 1, as, n, wants, n)
		impl.Strsm(blas.Right, blas.Lower, blas.Trans, blas.NonUnit, m, n, 1, as, n, bs, n)
		return closeEnough("Strsm b", bs, wants, 1e-4*math.Sqrt(float64(n)))
	},
}
