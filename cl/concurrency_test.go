package cl

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentKernels: 16 goroutines, each with its own kernel object
// and buffer, enqueue on one shared queue and read back.
func TestConcurrentKernels(t *testing.T) {
	e := newEnv(t, 0)
	p := e.program(t, scaleSrc, "")
	const workers, n = 16, 4096
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- func() error {
				k, err := p.CreateKernel("scale")
				if err != nil {
					return err
				}
				defer k.Release()
				b, err := e.ctx.CreateBuffer(MemReadWrite, 4*n)
				if err != nil {
					return err
				}
				defer b.Release()
				for round := range 5 {
					in := make([]float32, n)
					for i := range in {
						in[i] = float32(i + w)
					}
					wr, err := WriteBuffer(e.q, b, false, 0, in)
					if err != nil {
						return err
					}
					if err := k.SetArgs(b, float32(w+1)); err != nil {
						return err
					}
					run, err := e.q.EnqueueKernel(k, []int{n}, nil, wr)
					if err != nil {
						return err
					}
					out := make([]float32, n)
					rd, err := ReadBuffer(e.q, b, true, 0, out, run)
					if err != nil {
						return err
					}
					ReleaseAll(wr, run, rd)
					for i, v := range out {
						if want := float32(i+w) * float32(w+1); v != want {
							return fmt.Errorf("worker %d round %d: out[%d] = %v, want %v", w, round, i, v, want)
						}
					}
				}
				return nil
			}()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// TestMultiDevice builds one context over every device of the first
// platform with two or more, and runs a kernel on a queue per device.
// Where no platform has two devices and PoCL is present, it reruns itself
// with POCL_DEVICES="pthread pthread", which makes PoCL expose two.
func TestMultiDevice(t *testing.T) {
	testDevice(t)
	ps, err := Platforms()
	if err != nil {
		t.Fatal(err)
	}
	var devs []*Device
	for _, p := range ps {
		ds, err := p.Devices(DeviceTypeAll)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) >= 2 {
			devs = ds
			break
		}
	}
	if devs == nil {
		if os.Getenv("GOCL_MULTIDEV_CHILD") == "" && os.Getenv("POCL_DEVICES") == "" && hasPoCL(ps) {
			rerunWithTwoPoCLDevices(t)
			return
		}
		noDevice(t, "no platform has two or more devices (with PoCL, set POCL_DEVICES=\"pthread pthread\")")
	}
	ctx, err := CreateContext(devs...)
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Release()
	if got := ctx.Devices(); len(got) != len(devs) {
		t.Fatalf("context has %d devices, want %d", len(got), len(devs))
	}
	p, err := ctx.CreateProgramWithSource(scaleSrc)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	if err := p.Build(nil, ""); err != nil {
		t.Fatal(err)
	}
	pd, err := p.Devices()
	if err != nil || len(pd) != len(devs) {
		t.Fatalf("Program.Devices = %v, %v", pd, err)
	}
	if bins, err := p.Binaries(); err != nil || len(bins) != len(devs) {
		t.Errorf("Binaries: %d, %v", len(bins), err)
	}
	for i, d := range devs {
		q, err := ctx.CreateQueue(d, 0)
		if err != nil {
			t.Fatal(err)
		}
		k, err := p.CreateKernel("scale")
		if err != nil {
			t.Fatal(err)
		}
		b, err := CreateBufferFrom(ctx, MemReadWrite, []float32{1, 2, 3, 4})
		if err != nil {
			t.Fatal(err)
		}
		if err := k.SetArgs(b, float32(i+2)); err != nil {
			t.Fatal(err)
		}
		run, err := q.EnqueueKernel(k, []int{4}, nil)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]float32, 4)
		rd, err := ReadBuffer(q, b, true, 0, out, run)
		if err != nil {
			t.Fatal(err)
		}
		if out[3] != 4*float32(i+2) {
			t.Errorf("device %d (%s): %v", i, d.Name(), out)
		}
		ReleaseAll(run, rd)
		b.Release()
		k.Release()
		q.Release()
	}
	t.Logf("ran on %d devices of %s", len(devs), devs[0].Platform().Name())
}

func hasPoCL(ps []*Platform) bool {
	for _, p := range ps {
		if strings.Contains(p.Name(), "Portable Computing Language") || strings.Contains(p.Version(), "PoCL") {
			return true
		}
	}
	return false
}

// rerunWithTwoPoCLDevices runs TestMultiDevice in a child process (PoCL
// reads POCL_DEVICES once, at start-up) and reports its outcome.
func rerunWithTwoPoCLDevices(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestMultiDevice$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "POCL_DEVICES=pthread pthread", "GOCL_MULTIDEV_CHILD=1")
	out, err := cmd.CombinedOutput()
	t.Logf("child with POCL_DEVICES=\"pthread pthread\":\n%s", out)
	switch {
	case err != nil:
		t.Fatalf("child failed: %v", err)
	case strings.Contains(string(out), "--- SKIP: TestMultiDevice"):
		t.Skip("no second device even with POCL_DEVICES=\"pthread pthread\"")
	case !strings.Contains(string(out), "--- PASS: TestMultiDevice"):
		t.Fatal("child did not run TestMultiDevice")
	}
}

// TestConcurrentEnumeration lists platforms and devices from many
// goroutines at once (a fresh process's first enumeration is the risky
// one; the child of TestMultiDevice and this test cover it in part).
func TestConcurrentEnumeration(t *testing.T) {
	testDevice(t)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ps, err := Platforms()
			if err != nil {
				t.Error(err)
				return
			}
			for _, p := range ps {
				if _, err := p.Devices(DeviceTypeAll); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
}
