package cllapack_test

import (
	"fmt"
	"log"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	blasgonum "gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	clblas "github.com/gocompute/opencl/blas"
	cllapack "github.com/gocompute/opencl/lapack"
)

// Example sends gonum/mat's factorizations to the device: a Cholesky
// factorization and a solve, with the device forced for this small matrix.
func Example() {
	impl, err := clblas.New(clblas.WithOffload(clblas.Always))
	if err != nil {
		log.Fatal(err)
	}
	defer impl.Close()
	blas64.Use(impl)
	defer blas64.Use(blasgonum.Implementation{})
	l, err := cllapack.New(impl) // import cllapack "github.com/gocompute/opencl/lapack"
	if err != nil {
		log.Fatal(err)
	}
	lapack64.Use(l)
	defer lapack64.Use(gonum.Implementation{}) // lapack/gonum: back to gonum's own before Close

	a := mat.NewSymDense(2, []float64{4, 2, 2, 3})
	var chol mat.Cholesky
	if ok := chol.Factorize(a); !ok {
		log.Fatal("not positive definite")
	}
	var x mat.VecDense
	if err := chol.SolveVecTo(&x, mat.NewVecDense(2, []float64{8, 7})); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%.3f\n", mat.Formatted(&x))
	// Output:
	// ⎡1.250⎤
	// ⎣1.500⎦
}

// ExampleGetrs factorises a matrix that lives on the device and solves
// with the factors there: only the pivots and the solution come back.
func ExampleGetrs() {
	impl, err := clblas.New()
	if err != nil {
		log.Fatal(err)
	}
	defer impl.Close()
	l, err := cllapack.New(impl)
	if err != nil {
		log.Fatal(err)
	}
	a, err := clblas.NewMatrixFrom(impl, 3, 3, []float64{
		2, 1, 1,
		4, -6, 0,
		-2, 7, 2,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer a.Release()
	b, err := clblas.NewMatrixFrom(impl, 3, 1, []float64{5, -2, 9})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Release()
	ipiv := make([]int, 3)
	if ok, err := cllapack.Getrf(l, a, ipiv); err != nil || !ok {
		log.Fatal("Getrf: ", ok, err)
	}
	ev, err := cllapack.Getrs(l, blas.NoTrans, a, ipiv, b)
	if err != nil {
		log.Fatal(err)
	}
	if err := ev.Wait(); err != nil {
		log.Fatal(err)
	}
	x := make([]float64, 3)
	if err := b.Read(x); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%.3f\n", x)
	// Output:
	// [1.000 1.000 2.000]
}

// ExampleOrmqr solves a least-squares problem min ‖A·x − b‖ with the
// matrix on the device: A = Q·R by Geqrf, Qᵀ·b by Ormqr, then x = R⁻¹ times
// the top of Qᵀ·b by clblas.Trsm; only x comes back.
func ExampleOrmqr() {
	impl, err := clblas.New()
	if err != nil {
		log.Fatal(err)
	}
	defer impl.Close()
	l, err := cllapack.New(impl)
	if err != nil {
		log.Fatal(err)
	}
	a, err := clblas.NewMatrixFrom(impl, 4, 2, []float64{1, 1, 1, 2, 1, 3, 1, 4})
	if err != nil {
		log.Fatal(err)
	}
	defer a.Release()
	b, err := clblas.NewMatrixFrom(impl, 4, 1, []float64{6, 5, 7, 10})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Release()
	tau := make([]float64, 2)
	if err := cllapack.Geqrf(l, a, tau); err != nil {
		log.Fatal(err)
	}
	if _, err := cllapack.Ormqr(l, blas.Left, blas.Trans, a, tau, b); err != nil {
		log.Fatal(err)
	}
	r, err := a.View(0, 0, 2, 2)
	if err != nil {
		log.Fatal(err)
	}
	top, err := b.View(0, 0, 2, 1)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := clblas.Trsm(blas.Left, blas.Upper, blas.NoTrans, blas.NonUnit, 1, r, top); err != nil {
		log.Fatal(err)
	}
	x := make([]float64, 2)
	if err := top.Read(x); err != nil { // waits for the operations before it
		log.Fatal(err)
	}
	fmt.Printf("%.3f\n", x)
	// Output:
	// [3.500 1.400]
}

// ExampleOrgqr forms the orthogonal factor Q of A = Q·R on the device:
// Geqrf leaves the reflectors in a, and Orgqr overwrites them with Q's
// columns (here an orthonormal basis of A's column space).
func ExampleOrgqr() {
	impl, err := clblas.New()
	if err != nil {
		log.Fatal(err)
	}
	defer impl.Close()
	l, err := cllapack.New(impl)
	if err != nil {
		log.Fatal(err)
	}
	a, err := clblas.NewMatrixFrom(impl, 3, 2, []float64{3, 1, 0, 2, 4, 3})
	if err != nil {
		log.Fatal(err)
	}
	defer a.Release()
	tau := make([]float64, 2)
	if err := cllapack.Geqrf(l, a, tau); err != nil {
		log.Fatal(err)
	}
	if _, err := cllapack.Orgqr(l, a, tau); err != nil {
		log.Fatal(err)
	}
	q := make([]float64, 6)
	if err := a.Read(q); err != nil { // waits for the operations before it
		log.Fatal(err)
	}
	for i := range 3 {
		fmt.Printf("%5.2f\n", q[2*i:2*i+2])
	}
	// Output:
	// [-0.60  0.36]
	// [ 0.00 -0.89]
	// [-0.80 -0.27]
}
