package cl

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"
)

func TestLibraryPaths(t *testing.T) {
	if got := libraryPaths(""); !slices.Equal(got, defaultLibraries) || len(got) == 0 {
		t.Errorf("libraryPaths(\"\") = %q, want the defaults %q", got, defaultLibraries)
	}
	if got := libraryPaths("  "); !slices.Equal(got, defaultLibraries) {
		t.Errorf("libraryPaths(blank) = %q, want the defaults", got)
	}
	// The setting replaces the search: the defaults are not tried after it.
	if got := libraryPaths("/opt/x/libOpenCL.so.1"); !slices.Equal(got, []string{"/opt/x/libOpenCL.so.1"}) {
		t.Errorf("libraryPaths(setting) = %q, want only the setting", got)
	}
}

// checkNoRuntime checks that err is the error of a failed load that tried
// paths, and that it says how to install a runtime.
func checkNoRuntime(t *testing.T, err error, paths ...string) {
	t.Helper()
	if !errors.Is(err, ErrNoRuntime) {
		t.Fatalf("error %v does not wrap ErrNoRuntime", err)
	}
	var re *RuntimeError
	if !errors.As(err, &re) {
		t.Fatalf("error %v is not a *RuntimeError", err)
	}
	if !slices.Equal(re.Tried, paths) || len(re.Errs) != len(paths) {
		t.Errorf("tried %q (errors %q), want %q", re.Tried, re.Errs, paths)
	}
	msg := err.Error()
	for _, want := range append([]string{"no OpenCL runtime found", "apt-get install ocl-icd-libopencl1 pocl-opencl-icd", EnvLibrary}, paths...) {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not contain %q", msg, want)
		}
	}
}

func TestLoadLibraryMissing(t *testing.T) {
	paths := []string{"/nonexistent/libOpenCL.so.1", "/nonexistent/libOpenCL.so"}
	checkNoRuntime(t, loadLibrary(paths), paths...)
}

func TestLoadLibraryNotOpenCL(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("uses the Linux C library")
	}
	err := loadLibrary([]string{"libc.so.6"})
	checkNoRuntime(t, err, "libc.so.6")
	if !strings.Contains(err.Error(), "not an OpenCL library") {
		t.Errorf("error %q does not say the library is not OpenCL's", err)
	}
}

// An entry point the loaded library lacks is an error wrapping
// ErrNotSupported; without a library, ErrNoRuntime.
func TestMissingEntryPoint(t *testing.T) {
	p := &proc{name: "clNoSuchEntryPoint"}
	err := check(p.name, p.status6(0, 0, 0, 0, 0, 0))
	want := ErrNotSupported
	if LoadRuntime() != nil {
		want = ErrNoRuntime
	}
	if !errors.Is(err, want) || !strings.Contains(err.Error(), p.name) {
		t.Errorf("calling a missing entry point: %v, want an error naming it and wrapping %v", err, want)
	}
}

// The process starts, and every call fails with ErrNoRuntime, when the
// library cannot be loaded: the test runs itself again with
// GOCL_OPENCL_LIBRARY naming a file that does not exist (the setting
// replaces the search, so the installed loader is not found either).
func TestNoRuntimeProcess(t *testing.T) {
	if os.Getenv("GOCL_TEST_NO_RUNTIME_CHILD") != "" {
		t.Skip("in the child")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoRuntimeChild$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), EnvLibrary+"=/nonexistent/libOpenCL.so.1", "GOCL_TEST_NO_RUNTIME_CHILD=1", "GOCL_REQUIRE_DEVICE=0")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestNoRuntimeChild") {
		t.Fatalf("child process: %v\n%s", err, out)
	}
}

func TestNoRuntimeChild(t *testing.T) {
	if os.Getenv("GOCL_TEST_NO_RUNTIME_CHILD") == "" {
		t.Skip("run by TestNoRuntimeProcess")
	}
	path := "/nonexistent/libOpenCL.so.1"
	checkNoRuntime(t, LoadRuntime(), path)
	if p := RuntimePath(); p != "" {
		t.Errorf("RuntimePath() = %q, want \"\"", p)
	}
	ps, err := Platforms()
	if ps != nil {
		t.Errorf("Platforms() = %v, want none", ps)
	}
	checkNoRuntime(t, err, path)
	// Values built without the library answer with errors or zero values,
	// never a crash.
	d := &Device{}
	if d.Name() != "" || d.MaxComputeUnits() != 0 || d.Type() != 0 {
		t.Errorf("a device without a runtime answers %q, %d, %v", d.Name(), d.MaxComputeUnits(), d.Type())
	}
	if _, err := d.Info(clDeviceName); !errors.Is(err, ErrNoRuntime) {
		t.Errorf("Device.Info: %v, want ErrNoRuntime", err)
	}
	if _, err := CreateContext(d); !errors.Is(err, ErrNoRuntime) {
		t.Errorf("CreateContext: %v, want ErrNoRuntime", err)
	}
	if _, err := (&Context{}).CreateBuffer(MemReadWrite, 16); !errors.Is(err, ErrNoRuntime) {
		t.Errorf("CreateBuffer: %v, want ErrNoRuntime", err)
	}
	if err := (&Queue{}).Finish(); !errors.Is(err, ErrNoRuntime) {
		t.Errorf("Finish: %v, want ErrNoRuntime", err)
	}
	if err := WaitForEvents(&Event{}); !errors.Is(err, ErrNoRuntime) {
		t.Errorf("WaitForEvents: %v, want ErrNoRuntime", err)
	}
	// Concurrent first calls all see the same error.
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := Platforms(); !errors.Is(err, ErrNoRuntime) {
				t.Errorf("concurrent Platforms: %v", err)
			}
		}()
	}
	wg.Wait()
}

// Every registration of a completion or destructor callback is removed
// when the driver calls it: the registry does not grow with use.
func TestCallbackRegistry(t *testing.T) {
	e := newEnv(t, 0)
	before := pendingCallbacks()
	const n = 200
	var wg sync.WaitGroup
	for range n {
		ev, err := e.q.EnqueueMarker()
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		if err := ev.OnComplete(func(error) { wg.Done() }); err != nil {
			t.Fatal(err)
		}
		ev.Release()
	}
	host := make([]float32, 64)
	b, err := CreateBufferOver(e.ctx, MemReadWrite, host)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Release(); err != nil {
		t.Fatal(err)
	}
	if err := e.q.Finish(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	// The driver may delete the buffer, and call its destructor, on a
	// thread of its own after Release returns.
	deadline := time.Now().Add(10 * time.Second)
	for pendingCallbacks() != before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := pendingCallbacks(); got != before {
		t.Errorf("%d callback registrations pending after every callback ran, want %d", got, before)
	}
}

// The types handed to OpenCL have the C layouts on 64-bit platforms:
// handles and size_t are pointer-sized, cl_buffer_region is two size_t.
func TestABISizes(t *testing.T) {
	const ptr = unsafe.Sizeof(uintptr(0))
	for name, size := range map[string]uintptr{
		"cl_platform_id": unsafe.Sizeof(clPlatformID(0)), "cl_device_id": unsafe.Sizeof(clDeviceID(0)),
		"cl_context": unsafe.Sizeof(clContext(0)), "cl_command_queue": unsafe.Sizeof(clCommandQueue(0)),
		"cl_mem": unsafe.Sizeof(clMem(0)), "cl_program": unsafe.Sizeof(clProgram(0)),
		"cl_kernel": unsafe.Sizeof(clKernel(0)), "cl_event": unsafe.Sizeof(clEvent(0)),
	} {
		if size != ptr {
			t.Errorf("%s is %d bytes, want %d", name, size, ptr)
		}
	}
	var r clBufferRegion
	if unsafe.Sizeof(r) != 2*ptr || unsafe.Offsetof(r.size) != ptr {
		t.Errorf("cl_buffer_region is %d bytes with size at %d, want %d and %d", unsafe.Sizeof(r), unsafe.Offsetof(r.size), 2*ptr, ptr)
	}
}

// GOCL_OPENCL_LIBRARY loads the library it names: Oclgrind's runtime,
// which is an OpenCL library of its own (not an ICD driver), where it is
// installed.
func TestLibrarySetting(t *testing.T) {
	const oclgrind = "/usr/lib/oclgrind/liboclgrind-rt.so"
	if os.Getenv("GOCL_TEST_LIBRARY_CHILD") != "" {
		if err := LoadRuntime(); err != nil {
			t.Fatal(err)
		}
		if p := RuntimePath(); p != oclgrind {
			t.Errorf("RuntimePath() = %q, want %q", p, oclgrind)
		}
		ps, err := Platforms()
		if err != nil || len(ps) != 1 || !strings.Contains(ps[0].Name(), "Oclgrind") {
			names := make([]string, len(ps))
			for i, p := range ps {
				names[i] = p.Name()
			}
			t.Errorf("Platforms() = %q, %v; want Oclgrind's alone", names, err)
		}
		return
	}
	if _, err := os.Stat(oclgrind); err != nil {
		t.Skipf("Oclgrind is not installed: %v", err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLibrarySetting$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), EnvLibrary+"="+oclgrind, "GOCL_TEST_LIBRARY_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestLibrarySetting") {
		t.Fatalf("child process: %v\n%s", err, out)
	}
}
