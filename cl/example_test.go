package cl_test

import (
	"fmt"
	"log"

	"github.com/gocompute/opencl/cl"
)

const vecAdd = `
__kernel void add(__global const float* a, __global const float* b, __global float* c) {
	size_t i = get_global_id(0);
	c[i] = a[i] + b[i];
}`

// Example adds two vectors on the first OpenCL device.
func Example() {
	platforms, err := cl.Platforms()
	if err != nil || len(platforms) == 0 {
		log.Fatalf("no OpenCL platform (%v)", err)
	}
	devices, err := platforms[0].Devices(cl.DeviceTypeAll)
	if err != nil || len(devices) == 0 {
		log.Fatalf("no OpenCL device (%v)", err)
	}
	d := devices[0]

	ctx, err := cl.CreateContext(d)
	if err != nil {
		log.Fatal(err)
	}
	defer ctx.Release()
	q, err := ctx.CreateQueue(d, 0)
	if err != nil {
		log.Fatal(err)
	}
	defer q.Release()

	prog, err := ctx.CreateProgramWithSource(vecAdd)
	if err != nil {
		log.Fatal(err)
	}
	defer prog.Release()
	if err := prog.Build(nil, ""); err != nil {
		log.Fatal(err) // a *cl.BuildError with the compiler's log
	}
	k, err := prog.CreateKernel("add")
	if err != nil {
		log.Fatal(err)
	}
	defer k.Release()

	a := []float32{0, 1, 2, 3, 4, 5, 6, 7}
	b := []float32{0, 2, 4, 6, 8, 10, 12, 14}
	ba, _ := cl.CreateBufferFrom(ctx, cl.MemReadOnly, a)
	bb, _ := cl.CreateBufferFrom(ctx, cl.MemReadOnly, b)
	bc, _ := ctx.CreateBuffer(cl.MemWriteOnly, 4*len(a))
	defer ba.Release()
	defer bb.Release()
	defer bc.Release()

	if err := k.SetArgs(ba, bb, bc); err != nil {
		log.Fatal(err)
	}
	run, err := q.EnqueueKernel(k, []int{len(a)}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer run.Release()
	c := make([]float32, len(a))
	read, err := cl.ReadBuffer(q, bc, false, 0, c, run) // waits for the kernel
	if err != nil {
		log.Fatal(err)
	}
	defer read.Release()
	if err := read.Wait(); err != nil {
		log.Fatal(err)
	}
	fmt.Println(c)
	// Output: [0 3 6 9 12 15 18 21]
}
