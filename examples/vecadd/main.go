// Command vecadd runs a kernel of your own on the default OpenCL device,
// end to end: build it (through the runtime's program cache), copy the
// inputs in with non-blocking writes, run it, read the result back, check
// it on the CPU, and print the device and the timings.
//
//	go run ./examples/vecadd
//	go run ./examples/vecadd -n 10000000
//	go run ./examples/vecadd -kernel my_vecadd.cl   # your own source; the kernel must be
//	                                                # vecadd(global const float* a,
//	                                                #        global const float* b,
//	                                                #        global float* c, int n)
//	GOCL_DEVICE=pocl go run ./examples/vecadd        # choose the device
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"time"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

// source is the kernel this example runs unless -kernel names a file.
const source = `
__kernel void vecadd(__global const float* a, __global const float* b,
                     __global float* c, const int n) {
	const int i = get_global_id(0);
	if (i < n)                // the global size is rounded up to the work-group size
		c[i] = a[i] + b[i];
}
`

func main() {
	n := flag.Int("n", 1<<22, "number of elements")
	kernelFile := flag.String("kernel", "", "read the OpenCL C source from this .cl file instead of the built-in one")
	flag.Parse()
	if err := run(*n, *kernelFile); err != nil {
		fmt.Fprintln(os.Stderr, "vecadd:", err)
		os.Exit(1)
	}
}

func run(n int, kernelFile string) error {
	if n <= 0 || n > math.MaxInt32 {
		return fmt.Errorf("-n %d: want 1 … %d", n, math.MaxInt32)
	}
	dev, err := platform.Default()
	if err != nil {
		return fmt.Errorf("no OpenCL device: %w", err)
	}
	fmt.Printf("device: %s\n", dev)

	// The runtime owns the context, a queue (with profiling on, for the
	// timings below) and the program cache.
	rt, err := platform.NewRuntime(dev, platform.WithQueueProperties(cl.QueueProfiling))
	if err != nil {
		return err
	}
	defer rt.Close()

	start := time.Now()
	var prog *cl.Program
	if kernelFile != "" {
		prog, err = rt.ProgramFromFiles([]string{kernelFile}, "")
	} else {
		prog, err = rt.Program([]string{source}, "")
	}
	if err != nil {
		return err // a *cl.BuildError prints the compiler's messages
	}
	s := rt.Stats()
	how := "compiled"
	if s.Disk > 0 {
		how = "loaded from the disk cache " + platform.DefaultCacheDir()
	}
	fmt.Printf("program: %s in %v\n", how, time.Since(start).Round(time.Microsecond))

	k, err := prog.CreateKernel("vecadd")
	if err != nil {
		return err
	}
	defer k.Release()

	a := make([]float32, n)
	b := make([]float32, n)
	for i := range a {
		a[i] = float32(i)
		b[i] = float32(2 * (n - i))
	}
	ctx, q := rt.Context(), rt.Queue()
	bufA, err := ctx.CreateBuffer(cl.MemReadOnly, 4*n)
	if err != nil {
		return err
	}
	defer bufA.Release()
	bufB, err := ctx.CreateBuffer(cl.MemReadOnly, 4*n)
	if err != nil {
		return err
	}
	defer bufB.Release()
	bufC, err := ctx.CreateBuffer(cl.MemWriteOnly, 4*n)
	if err != nil {
		return err
	}
	defer bufC.Release()

	t0 := time.Now()
	// Non-blocking writes: both copies are queued at once; the kernel waits
	// for them through their events. The slices stay pinned until done.
	wa, err := cl.WriteBuffer(q, bufA, false, 0, a)
	if err != nil {
		return err
	}
	defer wa.Release()
	wb, err := cl.WriteBuffer(q, bufB, false, 0, b)
	if err != nil {
		return err
	}
	defer wb.Release()

	if err := k.SetArgs(bufA, bufB, bufC, int32(n)); err != nil {
		return err
	}
	local := min(256, dev.Profile().MaxWorkGroupSize)
	global := (n + local - 1) / local * local
	run, err := q.EnqueueKernel(k, []int{global}, []int{local}, wa, wb)
	if err != nil {
		return err
	}
	defer run.Release()

	c := make([]float32, n)
	rd, err := cl.ReadBuffer(q, bufC, false, 0, c, run)
	if err != nil {
		return err
	}
	defer rd.Release()
	if err := rd.Wait(); err != nil {
		return err
	}
	wall := time.Since(t0)

	for i := range c {
		if want := a[i] + b[i]; c[i] != want {
			return fmt.Errorf("wrong result: c[%d] = %v, want %v", i, c[i], want)
		}
	}

	mb := float64(4*n) / 1e6
	fmt.Printf("n = %d float32 (%.3g MB per vector): result verified\n", n, mb)
	for _, x := range []struct {
		what  string
		ev    *cl.Event
		bytes float64
	}{{"write a", wa, mb}, {"write b", wb, mb}, {"kernel", run, 3 * mb}, {"read c", rd, mb}} {
		pt, err := x.ev.Profile()
		if err != nil {
			fmt.Printf("  %-8s (no profiling: %v)\n", x.what, err)
			continue
		}
		d := pt.Duration()
		fmt.Printf("  %-8s %10v  %8.1f GB/s\n", x.what, d.Round(time.Microsecond), x.bytes/1e3/d.Seconds())
	}
	fmt.Printf("  %-8s %10v  (write, kernel, read, as the host saw it)\n", "total", wall.Round(time.Microsecond))
	return nil
}
