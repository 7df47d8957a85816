// Command firstrun shows what the first use of a device looks like, and
// how to take its cost up front. With an empty program cache (a fresh
// directory, as on a machine that has never run the library) building the
// kernels takes seconds; the runtime says so in one log line, naming the
// device and the cache directory. Warmup then builds the common programs
// with a progress report, and the products that follow start at once. A
// second runtime on the same cache directory, as the next process would
// be, loads everything from disk.
//
//	go run ./examples/firstrun
//
// GOCL_DEVICE chooses the device (see the README).
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"gonum.org/v1/gonum/blas"

	clblas "github.com/gocompute/opencl/blas"
	"github.com/gocompute/opencl/platform"
)

func main() {
	dir, err := os.MkdirTemp("", "gocl-firstrun-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	dev, err := platform.Default()
	if err != nil {
		log.Fatalf("firstrun: %v", err)
	}
	fmt.Printf("device: %s\nempty program cache: %s\n\n", dev, dir)
	for _, run := range []string{"first run (empty cache)", "next run (same cache)"} {
		fmt.Println(run)
		if err := warmAndMultiply(dev, dir); err != nil {
			log.Fatalf("firstrun: %v", err)
		}
		fmt.Println()
	}
}

// warmAndMultiply starts a runtime on the cache directory, warms it up
// with a progress line, and times one product after.
func warmAndMultiply(dev *platform.Device, dir string) error {
	rt, err := platform.NewRuntime(dev, platform.WithCacheDir(dir))
	if err != nil {
		return err
	}
	defer rt.Close()
	impl, err := clblas.New(clblas.WithRuntime(rt), clblas.WithOffload(clblas.Always))
	if err != nil {
		return err
	}
	defer impl.Close()

	start := time.Now()
	fmt.Print("  Warmup: ")
	err = impl.Warmup(context.Background(), func(done, total int) {
		fmt.Print(".")
		if done == total {
			fmt.Printf(" %d steps", total)
		}
	})
	fmt.Printf(" (%.1f s)\n", time.Since(start).Seconds())
	if err != nil {
		return err
	}
	const n = 512
	a, b, c := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
	start = time.Now()
	impl.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, b, n, 0, c, n)
	fmt.Printf("  the first %d×%d product after it: %.3f s\n", n, n, time.Since(start).Seconds())
	st := rt.Stats()
	fmt.Printf("  programs: %d compiled, %d from the disk cache, %d from memory\n", st.Compiled, st.Disk, st.Memory)
	return nil
}
