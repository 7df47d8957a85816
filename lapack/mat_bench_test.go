package cllapack

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	lapackgonum "gonum.org/v1/gonum/lapack/gonum"

	clblas "github.com/gocompute/opencl/blas"
	"github.com/gocompute/opencl/platform/platformtest"
)

// BenchmarkMatFactorize times mat.LU, mat.Cholesky and mat.QR's Factorize
// from Go memory with ours installed through blas64.Use and lapack64.Use,
// as a gonum user would (the default offload policy, auto), at the
// -lapack.sizes orders: the whole call, with its norm and condition
// estimate, so that a CPU profile (-test.cpuprofile) shows where the time
// outside the factorization goes.
func BenchmarkMatFactorize(b *testing.B) {
	platformtest.Device(b)
	bl, err := clblas.New()
	if err != nil {
		platformtest.Unavailable(b, fmt.Sprintf("clblas.New: %v", err))
	}
	defer bl.Close()
	impl, err := New(bl)
	if err != nil {
		b.Fatal(err)
	}
	defer impl.Close()
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "lapack.stage" {
			impl.stageIO = *benchStage
		}
	})
	blas64.Use(bl)
	lapack64.Use(impl)
	defer func() {
		lapack64.Use(lapackgonum.Implementation{})
		blas64.Use(gonum.Implementation{})
	}()
	for _, n := range sizes(b) {
		gen := mat.NewDense(n, n, generalBench(n))
		sym := mat.NewSymDense(n, spdBench(n, rand.New(rand.NewPCG(1, uint64(n)))))
		b.Run(fmt.Sprintf("LU/n=%d", n), func(b *testing.B) {
			var lu mat.LU
			for range b.N {
				lu.Factorize(gen)
			}
		})
		b.Run(fmt.Sprintf("Cholesky/n=%d", n), func(b *testing.B) {
			var ch mat.Cholesky
			for range b.N {
				if !ch.Factorize(sym) {
					b.Fatal("Cholesky failed")
				}
			}
		})
		b.Run(fmt.Sprintf("QR/n=%d", n), func(b *testing.B) {
			var qr mat.QR
			for range b.N {
				qr.Factorize(gen)
			}
		})
	}
}
