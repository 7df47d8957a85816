package platform_test

import (
	"flag"
	"fmt"
	"log"
	"os"
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
	"github.com/gocompute/opencl/platform/platformtest"
)

func TestMain(m *testing.M) {
	flag.Parse()
	platformtest.SkipExamplesWithoutDevice()
	os.Exit(m.Run())
}

// ExampleRuntime_Elementwise is saxpy, y = a·x + y, as one line of OpenCL
// C: the kernel around it, its build and its cache are the runtime's.
func ExampleRuntime_Elementwise() {
	dev, err := platform.Default() // GOCL_DEVICE chooses
	if err != nil {
		log.Fatal(err)
	}
	rt, err := platform.NewRuntime(dev)
	if err != nil {
		log.Fatal(err)
	}
	defer rt.Close()

	saxpy, err := rt.Elementwise("float a, __global const float* x, __global float* y", "y[i] = a*x[i] + y[i]")
	if err != nil {
		log.Fatal(err)
	}
	defer saxpy.Release()
	x, err := cl.NewArrayFrom(rt.Context(), cl.MemReadOnly, []float32{1, 2, 3, 4})
	if err != nil {
		log.Fatal(err)
	}
	defer x.Release()
	y, err := cl.NewArrayFrom(rt.Context(), cl.MemReadWrite, []float32{10, 20, 30, 40})
	if err != nil {
		log.Fatal(err)
	}
	defer y.Release()
	if _, err := saxpy.Run(4, float32(2), x, y); err != nil {
		log.Fatal(err)
	}
	out := make([]float32, 4)
	if err := y.Read(rt.Queue(), 0, out); err != nil { // after the kernel: the queue is in order
		log.Fatal(err)
	}
	fmt.Println(out)
	// Output: [12 24 36 48]
}

const saxpySrc = `
__kernel void saxpy(const int n, const float a, __global const float* x, __global float* y) {
	const int i = get_global_id(0);
	if (i < n) y[i] += a * x[i];
}`

// ExampleRuntime_Kernel writes the whole kernel: the runtime builds and
// caches its program, the kernel is yours to release, and Launch checks
// the arguments and rounds the global size up to the local one.
func ExampleRuntime_Kernel() {
	dev, err := platform.Default()
	if err != nil {
		log.Fatal(err)
	}
	rt, err := platform.NewRuntime(dev)
	if err != nil {
		log.Fatal(err)
	}
	defer rt.Close()

	k, err := rt.Kernel([]string{saxpySrc}, "", "saxpy")
	if err != nil {
		log.Fatal(err) // a *cl.BuildError carries the compiler's log; a wrong name lists the kernels
	}
	defer k.Release()
	const n = 5
	x, _ := cl.NewArrayFrom(rt.Context(), cl.MemReadOnly, []float32{1, 2, 3, 4, 5})
	y, _ := cl.NewArrayFrom(rt.Context(), cl.MemReadWrite, []float32{1, 1, 1, 1, 1})
	defer x.Release()
	defer y.Release()
	run, err := rt.Queue().Launch(k, []int{n}, []int{64}, int32(n), float32(3), x, y) // 64 work-items
	if err != nil {
		log.Fatal(err)
	}
	defer run.Release()
	out := make([]float32, n)
	if err := y.Read(rt.Queue(), 0, out, run); err != nil {
		log.Fatal(err)
	}
	fmt.Println(out)
	// Output: [4 7 10 13 16]
}
