package platform_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
	"github.com/gocompute/opencl/platform/platformtest"
)

// TestProgramReleasedByCaller: a caller that releases the program Program
// gave it (as code written against a plain cl.Program does) breaks
// nothing: kernels already made still run, and later calls get a live
// program, from memory, without a rebuild.
func TestProgramReleasedByCaller(t *testing.T) {
	r := platformtest.Runtime(t, platform.WithoutDiskCache())
	src := []string{addSource(t.Name())}
	p, err := r.Program(src, "")
	if err != nil {
		t.Fatal(err)
	}
	k, err := p.CreateKernel("add")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Release()
	if err := p.Release(); err != nil {
		t.Fatal(err)
	}
	if !p.Released() {
		t.Fatal("Released() = false after Release")
	}
	p2, err := r.Program(src, "")
	if err != nil {
		t.Fatal(err)
	}
	if p2 == p || p2.Released() {
		t.Fatalf("after the caller's Release, Program returned the released reference")
	}
	runAdd(t, r, p2) // creates its own kernel from p2
	k2, err := r.Kernel(src, "", "add")
	if err != nil {
		t.Fatalf("Kernel after a caller released the program: %v", err)
	}
	k2.Release()
	if got := r.Stats(); got.Compiled != 1 {
		t.Errorf("stats %+v: the program was rebuilt", got)
	}
	if err := k.SetArgs((*cl.Buffer)(nil), (*cl.Buffer)(nil), float32(1)); err != nil {
		t.Errorf("the kernel made before the Release: %v", err)
	}
}

// TestKernelWrongName: a misspelt kernel name is an error that lists the
// program's kernels.
func TestKernelWrongName(t *testing.T) {
	r := platformtest.Runtime(t, platform.WithoutDiskCache())
	_, err := r.Kernel([]string{addSource(t.Name())}, "", "ad")
	if !errors.Is(err, cl.InvalidKernelName) {
		t.Fatalf("err = %v, want CL_INVALID_KERNEL_NAME", err)
	}
	if !strings.Contains(err.Error(), "the program has add") {
		t.Errorf("error %q does not list the program's kernels", err)
	}
}
