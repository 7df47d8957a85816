package cl_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/gocompute/opencl/cl"
)

const vecAdd = `
__kernel void add(const int n, __global const float* a, __global const float* b, __global float* c) {
	const int i = get_global_id(0);
	if (i < n) c[i] = a[i] + b[i];
}`

// Example adds two vectors on the first OpenCL device, with nothing but
// package cl. (With package platform, a Runtime makes the context and the
// queue and caches the program: see platform's examples.)
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
	defer prog.Release() // ours: we created it (a Runtime's programs need no Release)
	if err := prog.Build(nil, ""); err != nil {
		log.Fatal(err) // a *cl.BuildError with the compiler's log
	}
	k, err := prog.CreateKernel("add")
	if err != nil {
		log.Fatal(err) // a wrong name lists the program's kernels
	}
	defer k.Release()

	const n = 8
	a, _ := cl.NewArrayFrom(ctx, cl.MemReadOnly, []float32{0, 1, 2, 3, 4, 5, 6, 7})
	b, _ := cl.NewArrayFrom(ctx, cl.MemReadOnly, []float32{0, 2, 4, 6, 8, 10, 12, 14})
	c, _ := cl.NewArray[float32](ctx, cl.MemWriteOnly, n) // sizes in elements
	defer a.Release()
	defer b.Release()
	defer c.Release()

	run, err := q.Launch(k, []int{n}, []int{32}, int32(n), a, b, c) // global rounded up to 32
	if err != nil {
		log.Fatal(err) // a missing or extra argument is named here
	}
	defer run.Release()
	out := make([]float32, n)
	if err := c.Read(q, 0, out, run); err != nil {
		log.Fatal(err)
	}
	fmt.Println(out)
	// Output: [0 3 6 9 12 15 18 21]
}

// ExampleEvent_WaitContext waits for a command with a deadline. Here the
// command is a user event that the host completes later.
func ExampleEvent_WaitContext() {
	platforms, err := cl.Platforms()
	if err != nil || len(platforms) == 0 {
		log.Fatalf("no OpenCL platform (%v)", err)
	}
	devices, err := platforms[0].Devices(cl.DeviceTypeAll)
	if err != nil || len(devices) == 0 {
		log.Fatalf("no OpenCL device (%v)", err)
	}
	ctx, err := cl.CreateContext(devices[0])
	if err != nil {
		log.Fatal(err)
	}
	defer ctx.Release()
	ev, err := ctx.CreateUserEvent()
	if err != nil {
		log.Fatal(err)
	}
	defer ev.Release()

	short, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	fmt.Println(ev.WaitContext(short)) // not complete yet: the deadline wins
	ev.SetComplete()
	<-ev.Done()
	fmt.Println(ev.WaitContext(context.Background()))
	// Output:
	// context deadline exceeded
	// <nil>
}
