package clblas_test

import (
	"fmt"
	"log"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/mat"

	clblas "github.com/gocompute/opencl/blas"
)

// Example switches gonum to the device: from here on, gonum/mat and every
// other caller of blas64 and blas32 goes through impl.
func Example() {
	impl, err := clblas.New() // import clblas "github.com/gocompute/opencl/blas"
	if err != nil {
		log.Fatal(err)
	}
	blas64.Use(impl)
	blas32.Use(impl)
	defer impl.Close()
	defer blas64.Use(gonum.Implementation{}) // back to gonum's own before Close

	a := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	var c mat.Dense
	c.Mul(a, a)
	fmt.Println(c.RawMatrix().Data)
	// Output: [7 10 15 22]
}

// ExampleGemm chains products on data that stays on the device: one
// upload per matrix, operations enqueued without waiting, one read.
func ExampleGemm() {
	impl, err := clblas.New()
	if err != nil {
		log.Fatal(err)
	}
	defer impl.Close()

	a, err := clblas.NewMatrixFrom(impl, 2, 2, []float64{1, 2, 3, 4})
	if err != nil {
		log.Fatal(err)
	}
	defer a.Release()
	c, err := clblas.NewMatrix[float64](impl, 2, 2) // zeros
	if err != nil {
		log.Fatal(err)
	}
	defer c.Release()
	d, err := clblas.NewMatrix[float64](impl, 2, 2)
	if err != nil {
		log.Fatal(err)
	}
	defer d.Release()
	if _, err := clblas.Gemm(blas.NoTrans, blas.NoTrans, 1, a, a, 0, c); err != nil { // C = A·A
		log.Fatal(err)
	}
	if _, err := clblas.Gemm(blas.NoTrans, blas.NoTrans, 1, c, a, 0, d); err != nil { // D = C·A, after it
		log.Fatal(err)
	}
	out := make([]float64, 4)
	if err := d.Read(out); err != nil { // after everything submitted before it
		log.Fatal(err)
	}
	fmt.Println(out)
	// Output: [37 54 81 118]
}

// ExampleNrm2To is a power iteration that runs on the device from start
// to end: each step computes y = A·x, its norm, and x = y/‖y‖ there, and
// only the final estimate of the largest eigenvalue is read.
func ExampleNrm2To() {
	impl, err := clblas.New()
	if err != nil {
		log.Fatal(err)
	}
	defer impl.Close()

	a, err := clblas.NewMatrixFrom(impl, 2, 2, []float64{2, 1, 1, 2}) // eigenvalues 3 and 1
	if err != nil {
		log.Fatal(err)
	}
	defer a.Release()
	x, err := clblas.NewVectorFrom(impl, []float64{1, 0})
	if err != nil {
		log.Fatal(err)
	}
	defer x.Release()
	y, err := clblas.NewVector[float64](impl, 2)
	if err != nil {
		log.Fatal(err)
	}
	defer y.Release()
	s, err := clblas.NewVector[float64](impl, 2) // s[0] = ‖A·x‖, s[1] = 1/s[0]
	if err != nil {
		log.Fatal(err)
	}
	defer s.Release()
	nrm, _ := s.View(0, 1, 1)
	inv, _ := s.View(1, 1, 1)

	for range 40 {
		if _, err := clblas.Gemv(blas.NoTrans, 1, a, x, 0, y); err != nil {
			log.Fatal(err)
		}
		if _, err := clblas.Nrm2To(y, nrm); err != nil {
			log.Fatal(err)
		}
		if _, err := clblas.Recip(nrm, inv); err != nil {
			log.Fatal(err)
		}
		if _, err := clblas.ScalBy(1, inv, y); err != nil {
			log.Fatal(err)
		}
		x, y = y, x
	}
	lambda := make([]float64, 1)
	if err := nrm.Read(lambda); err != nil { // the one read
		log.Fatal(err)
	}
	fmt.Printf("largest eigenvalue ≈ %.6f\n", lambda[0])
	// Output: largest eigenvalue ≈ 3.000000
}

// ExampleNewMatrixFromGeneral64 takes a view of a gonum matrix to the
// device and back: its stride is honoured both ways.
func ExampleNewMatrixFromGeneral64() {
	impl, err := clblas.New()
	if err != nil {
		log.Fatal(err)
	}
	defer impl.Close()

	big := mat.NewDense(4, 4, []float64{
		1, 2, 3, 4,
		5, 6, 7, 8,
		9, 10, 11, 12,
		13, 14, 15, 16,
	})
	view := big.Slice(1, 3, 1, 3).(*mat.Dense) // Stride 4, Cols 2
	m, err := clblas.NewMatrixFromGeneral64(impl, view.RawMatrix())
	if err != nil {
		log.Fatal(err)
	}
	defer m.Release()
	back := mat.NewDense(2, 2, nil)
	if err := clblas.ReadGeneral64(m, back.RawMatrix()); err != nil {
		log.Fatal(err)
	}
	fmt.Println(back.RawMatrix().Data, mat.Equal(back, view))
	// Output: [6 7 10 11] true
}

// ExampleNewHostSlice keeps a matrix in pinned host memory, which a GPU
// reads without a staging copy; gonum's types wrap it as any slice.
func ExampleNewHostSlice() {
	impl, err := clblas.New()
	if err != nil {
		log.Fatal(err)
	}
	defer impl.Close()

	hs, err := clblas.NewHostSlice[float64](impl, 2*2) // pinned, zeroed
	if err != nil {
		log.Fatal(err)
	}
	defer hs.Release() // Data must not be used after Release or impl.Close
	a := mat.NewDense(2, 2, hs.Data())
	a.Set(0, 0, 1)
	a.Set(1, 1, 2)
	c := make([]float64, 4)
	impl.Dgemm(blas.NoTrans, blas.NoTrans, 2, 2, 2, 1, hs.Data(), 2, hs.Data(), 2, 0, c, 2)
	fmt.Println(c)
	// Output: [1 0 0 4]
}

// laplacian is a 2-D five-point stencil with zeros outside the matrix, on
// row-major matrices given as buffer, element offset and stride.
const laplacian = `
__kernel void laplacian(const int n, __global const double* a, const long offa, const int lda,
                        __global double* b, const long offb, const int ldb) {
	const int i = get_global_id(0), j = get_global_id(1);
	if (i >= n || j >= n) return;
	#define A(r, c) ((r) < 0 || (r) >= n || (c) < 0 || (c) >= n ? 0 : a[offa + (r)*lda + (c)])
	b[offb + i*ldb + j] = 4*A(i, j) - A(i-1, j) - A(i+1, j) - A(i, j-1) - A(i, j+1);
}`

// ExampleEventFromCL runs a kernel of our own (a 2-D stencil) on resident
// matrices, then a GEMM on its result: the buffers are the matrices'
// own, and the queue keeps the order; the kernel's event, converted, makes
// the GEMM fail if the kernel did.
func ExampleEventFromCL() {
	impl, err := clblas.New()
	if err != nil {
		log.Fatal(err)
	}
	defer impl.Close()
	const n = 3
	a, err := clblas.NewMatrixFrom(impl, n, n, []float64{0, 0, 0, 0, 1, 0, 0, 0, 0})
	if err != nil {
		log.Fatal(err)
	}
	defer a.Release()
	b, _ := clblas.NewMatrix[float64](impl, n, n)
	defer b.Release()
	c, _ := clblas.NewMatrix[float64](impl, n, n)
	defer c.Release()

	rt := impl.Runtime()
	k, err := rt.Kernel([]string{laplacian}, "", "laplacian")
	if err != nil {
		log.Fatal(err)
	}
	defer k.Release()
	abuf, aoff, _ := a.Buffer()
	bbuf, boff, _ := b.Buffer()
	run, err := rt.Queue().Launch(k, []int{n, n}, []int{8, 8}, // rounded up to 8×8
		int32(n), abuf, int64(aoff), int32(a.Stride()), bbuf, int64(boff), int32(b.Stride()))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := clblas.Gemm(blas.NoTrans, blas.NoTrans, 1, b, b, 0, c, clblas.EventFromCL(run)); err != nil {
		log.Fatal(err)
	}
	out := make([]float64, n*n)
	if err := c.Read(out); err != nil {
		log.Fatal(err)
	}
	fmt.Println(out)
	// Output: [1 -4 1 -4 18 -4 1 -4 1]
}
