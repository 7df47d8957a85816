package clblas_test

import (
	"fmt"
	"log"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/cblas128"
	"gonum.org/v1/gonum/blas/gonum"

	clblas "github.com/gocompute/opencl/blas"
)

// Example_complex switches gonum's complex BLAS over too. A call as small
// as this one stays on gonum's Go code at the offload gate, before any
// counting, so Stats has no call of it.
func Example_complex() {
	impl, err := clblas.New()
	if err != nil {
		log.Fatal(err)
	}
	defer impl.Close()
	cblas128.Use(impl)
	defer cblas128.Use(gonum.Implementation{}) // back to gonum's own before Close

	a := cblas128.General{Rows: 2, Cols: 2, Stride: 2, Data: []complex128{1, 1i, 2, 0}}
	c := cblas128.General{Rows: 2, Cols: 2, Stride: 2, Data: make([]complex128, 4)}
	cblas128.Gemm(blas.NoTrans, blas.ConjTrans, 1, a, a, 0, c) // C = A·Aᴴ
	fmt.Println(c.Data)
	fmt.Printf("%+v\n", impl.Stats()["Zgemm"])
	// Output:
	// [(2+0i) (2+0i) (2+0i) (4+0i)]
	// {Device:0 CPU:0 Failed:0 NonFinite:0}
}
