package clblas_test

import (
	"fmt"
	"log"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/mat"

	clblas "github.com/gocompute/opencl/blas"
	"github.com/gocompute/opencl/platform"
)

// ExampleWithDevices runs gonum on every OpenCL device at once: large
// level 3 calls are split across them, the rest runs on the best of them.
// GOCL_DEVICE=all (or gpu:*, or nvidia,cpu) does the same without code.
func ExampleWithDevices() {
	devs, err := platform.SelectAll("all")
	if err != nil {
		log.Fatal(err)
	}
	impl, err := clblas.New(clblas.WithDevices(devs...))
	if err != nil {
		log.Fatal(err)
	}
	defer impl.Close()
	blas64.Use(impl)
	defer blas64.Use(gonum.Implementation{})

	a := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	var c mat.Dense
	c.Mul(a, a)
	fmt.Println(c.RawMatrix().Data)
	// Each device's share of the split calls so far.
	for _, s := range impl.DeviceStats() {
		log.Printf("%s: %d tiles, %d rows or columns", s.Device, s.Tiles, s.Units)
	}
	// Output: [7 10 15 22]
}
