package platform_test

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
	"github.com/gocompute/opencl/platform/platformtest"
)

// addSource is a small program; tag makes its text (and so its cache key)
// unique to the test that uses it.
func addSource(tag string) string {
	return fmt.Sprintf(`// %s
__kernel void add(__global const float* a, __global float* b, const float s) {
	const int i = get_global_id(0);
	b[i] += s * a[i];
}
`, tag)
}

var quiet = platform.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))

// runAdd runs the "add" kernel of p on r's queue and checks the result, so
// a program that came from the disk cache is shown to work, not just to
// load.
func runAdd(t *testing.T, r *platform.Runtime, p *cl.Program) {
	t.Helper()
	const n = 4096
	k, err := p.CreateKernel("add")
	if err != nil {
		t.Fatalf("CreateKernel: %v", err)
	}
	defer k.Release()
	a := make([]float32, n)
	b := make([]float32, n)
	for i := range a {
		a[i], b[i] = float32(i), 1
	}
	ba, err := cl.CreateBufferFrom(r.Context(), cl.MemReadOnly, a)
	if err != nil {
		t.Fatal(err)
	}
	defer ba.Release()
	bb, err := cl.CreateBufferFrom(r.Context(), cl.MemReadWrite, b)
	if err != nil {
		t.Fatal(err)
	}
	defer bb.Release()
	if err := k.SetArgs(ba, bb, float32(3)); err != nil {
		t.Fatal(err)
	}
	ev, err := r.Queue().EnqueueKernel(k, []int{n}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Release()
	out := make([]float32, n)
	rd, err := cl.ReadBuffer(r.Queue(), bb, true, 0, out, ev)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Release()
	for i := range out {
		if want := 1 + 3*float32(i); out[i] != want {
			t.Fatalf("add: out[%d] = %v, want %v", i, out[i], want)
		}
	}
}

func wantStats(t *testing.T, r *platform.Runtime, want platform.BuildStats) {
	t.Helper()
	if got := r.Stats(); got != want {
		t.Fatalf("Stats() = %+v, want %+v", got, want)
	}
}

func cacheFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.bin"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestProgramMemoryHit(t *testing.T) {
	r := platformtest.Runtime(t, platform.WithCacheDir(t.TempDir()))
	src := []string{addSource(t.Name())}
	p1, err := r.Program(src, "")
	if err != nil {
		t.Fatal(err)
	}
	wantStats(t, r, platform.BuildStats{Compiled: 1})
	p2, err := r.Program(src, "")
	if err != nil {
		t.Fatal(err)
	}
	if p1 != p2 {
		t.Error("second Program call returned a different program")
	}
	wantStats(t, r, platform.BuildStats{Memory: 1, Compiled: 1})

	// Other options, or the same text split differently, are another
	// program.
	if _, err := r.Program(src, "-DUNUSED=1"); err != nil {
		t.Fatal(err)
	}
	wantStats(t, r, platform.BuildStats{Memory: 1, Compiled: 2})
	if _, err := r.Program([]string{src[0][:10], src[0][10:]}, ""); err != nil {
		t.Fatal(err)
	}
	wantStats(t, r, platform.BuildStats{Memory: 1, Compiled: 3})
	runAdd(t, r, p2)
}

func TestProgramConcurrentCompileOnce(t *testing.T) {
	r := platformtest.Runtime(t, platform.WithCacheDir(t.TempDir()))
	src := []string{addSource(t.Name())}
	const callers = 16
	progs := make([]*cl.Program, callers)
	errs := make([]error, callers)
	var start, done sync.WaitGroup
	start.Add(1)
	for i := range callers {
		done.Add(1)
		go func() {
			defer done.Done()
			start.Wait()
			progs[i], errs[i] = r.Program(src, "-DCONCURRENT")
		}()
	}
	start.Done()
	done.Wait()
	for i := range callers {
		if errs[i] != nil {
			t.Fatalf("caller %d: %v", i, errs[i])
		}
		if progs[i] != progs[0] {
			t.Fatalf("caller %d got a different program", i)
		}
	}
	wantStats(t, r, platform.BuildStats{Memory: callers - 1, Compiled: 1})
	runAdd(t, r, progs[0])
}

func TestProgramDiskCacheNewRuntime(t *testing.T) {
	dir := t.TempDir()
	src := []string{addSource(t.Name())}
	r1 := platformtest.Runtime(t, platform.WithCacheDir(dir))
	if _, err := r1.Program(src, "-DX=1"); err != nil {
		t.Fatal(err)
	}
	wantStats(t, r1, platform.BuildStats{Compiled: 1})
	if n := len(cacheFiles(t, dir)); n != 1 {
		t.Fatalf("%d cache files after one build, want 1", n)
	}

	r2 := platformtest.Runtime(t, platform.WithCacheDir(dir))
	p, err := r2.Program(src, "-DX=1")
	if err != nil {
		t.Fatal(err)
	}
	wantStats(t, r2, platform.BuildStats{Disk: 1})
	runAdd(t, r2, p)

	// Other options miss the disk cache.
	if _, err := r2.Program(src, "-DX=2"); err != nil {
		t.Fatal(err)
	}
	wantStats(t, r2, platform.BuildStats{Disk: 1, Compiled: 1})
	if n := len(cacheFiles(t, dir)); n != 2 {
		t.Fatalf("%d cache files after two programs, want 2", n)
	}
}

func TestProgramCacheDirFromEnv(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nested", "cache")
	t.Setenv(platform.EnvCacheDir, dir)
	if got := platform.DefaultCacheDir(); got != dir {
		t.Fatalf("DefaultCacheDir() = %q with %s=%q", got, platform.EnvCacheDir, dir)
	}
	r := platformtest.Runtime(t)
	if _, err := r.Program([]string{addSource(t.Name())}, ""); err != nil {
		t.Fatal(err)
	}
	if n := len(cacheFiles(t, dir)); n != 1 {
		t.Fatalf("%d cache files in %s, want 1 (the directory is created when missing)", n, dir)
	}
	t.Setenv(platform.EnvCacheDir, "")
	if got := platform.DefaultCacheDir(); got == dir || got == "" {
		t.Errorf("DefaultCacheDir() = %q with %s unset", got, platform.EnvCacheDir)
	}
}

// TestDefaultDiskCacheByDriver: with no directory named, the runtime
// keeps binaries under the user cache directory, but not on PoCL, which
// keeps its own kernel cache and compiles a whole program when asked for
// its binary; a directory named there turns the runtime's cache on.
func TestDefaultDiskCacheByDriver(t *testing.T) {
	home := t.TempDir()
	for _, v := range []string{"HOME", "XDG_CACHE_HOME", "LocalAppData"} {
		t.Setenv(v, home)
	}
	t.Setenv(platform.EnvCacheDir, "")
	dir := platform.DefaultCacheDir()
	if !strings.HasPrefix(dir, home) {
		t.Fatalf("DefaultCacheDir() = %q, not under the user cache directory %s", dir, home)
	}
	src := []string{addSource(t.Name())}
	if _, err := platformtest.Runtime(t).Program(src, ""); err != nil {
		t.Fatal(err)
	}
	pocl := platformtest.Device(t).Profile().Vendor == platform.VendorPoCL
	want := 1
	if pocl {
		want = 0
	}
	if n := len(cacheFiles(t, dir)); n != want {
		t.Fatalf("%d cache files in the default directory (PoCL: %v), want %d", n, pocl, want)
	}
	named := t.TempDir()
	t.Setenv(platform.EnvCacheDir, named)
	if _, err := platformtest.Runtime(t).Program(src, ""); err != nil {
		t.Fatal(err)
	}
	if n := len(cacheFiles(t, named)); n != 1 {
		t.Fatalf("%d cache files in the directory named by %s, want 1", n, platform.EnvCacheDir)
	}
}

func TestProgramWithoutDiskCache(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(platform.EnvCacheDir, dir)
	r := platformtest.Runtime(t, platform.WithoutDiskCache())
	if _, err := r.Program([]string{addSource(t.Name())}, ""); err != nil {
		t.Fatal(err)
	}
	if files := cacheFiles(t, dir); len(files) != 0 {
		t.Fatalf("WithoutDiskCache wrote %v", files)
	}
}

// TestProgramCorruptCacheRebuilt damages the cache file in several ways;
// each time a new runtime must rebuild from source without an error,
// rewrite the entry, and a third runtime must load the rewritten entry.
func TestProgramCorruptCacheRebuilt(t *testing.T) {
	var key string // the entry's key, set before each damage
	damage := map[string]func(b []byte) []byte{
		"flipped payload": func(b []byte) []byte {
			for i := len(b) / 2; i < len(b)/2+16 && i < len(b); i++ {
				b[i] ^= 0xff
			}
			return b
		},
		"flipped header": func(b []byte) []byte { b[0] ^= 0xff; b[9] ^= 0x01; return b },
		"truncated":      func(b []byte) []byte { return b[:len(b)*2/3] },
		"header only":    func(b []byte) []byte { return b[:48] },
		"empty":          func(b []byte) []byte { return nil },
		"garbage": func(b []byte) []byte {
			// A well-formed entry whose payload the driver cannot use: the
			// checksum passes, so the driver itself must reject it.
			return wellFormedEntry(key, []byte("this is not a program binary of any driver"))
		},
	}
	for name, f := range damage {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			src := []string{addSource(t.Name())}
			r1 := platformtest.Runtime(t, platform.WithCacheDir(dir))
			if _, err := r1.Program(src, ""); err != nil {
				t.Fatal(err)
			}
			files := cacheFiles(t, dir)
			if len(files) != 1 {
				t.Fatalf("cache files %v, want one", files)
			}
			key = strings.TrimSuffix(filepath.Base(files[0]), ".bin")
			good, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(files[0], f(append([]byte(nil), good...)), 0o644); err != nil {
				t.Fatal(err)
			}

			r2 := platformtest.Runtime(t, platform.WithCacheDir(dir), quiet)
			p, err := r2.Program(src, "")
			if err != nil {
				t.Fatalf("a damaged cache entry must be rebuilt, got %v", err)
			}
			wantStats(t, r2, platform.BuildStats{Compiled: 1})
			runAdd(t, r2, p)

			rewritten, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatalf("entry not rewritten: %v", err)
			}
			if len(rewritten) < len(good)/2 {
				t.Fatalf("rewritten entry is %d bytes, the good one was %d", len(rewritten), len(good))
			}
			r3 := platformtest.Runtime(t, platform.WithCacheDir(dir))
			if _, err := r3.Program(src, ""); err != nil {
				t.Fatal(err)
			}
			wantStats(t, r3, platform.BuildStats{Disk: 1})
		})
	}
}

// wellFormedEntry frames payload as the disk cache does for key (see
// cache.go).
func wellFormedEntry(key string, payload []byte) []byte {
	return platform.CacheEntry(key, payload)
}

func TestProgramBuildError(t *testing.T) {
	dir := t.TempDir()
	r := platformtest.Runtime(t, platform.WithCacheDir(dir))
	src := []string{"__kernel void broken(__global float* x) {\n  x[0] = undeclared_thing_42;\n}\n"}
	p, err := r.Program(src, "-DSOMETHING=1")
	if err == nil {
		t.Fatalf("Program built broken source: %v", p)
	}
	var be *cl.BuildError
	if !errors.As(err, &be) {
		t.Fatalf("error %T is not a *cl.BuildError: %v", err, err)
	}
	if !errors.Is(err, cl.BuildProgramFailure) {
		t.Errorf("error does not wrap CL_BUILD_PROGRAM_FAILURE: %v", err)
	}
	if be.Options != "-DSOMETHING=1" {
		t.Errorf("BuildError.Options = %q", be.Options)
	}
	found := false
	for _, log := range be.Logs {
		found = found || strings.Contains(log, "undeclared_thing_42")
	}
	if !found {
		t.Errorf("no build log names the bad identifier: %v", err)
	}
	if !strings.Contains(err.Error(), "undeclared_thing_42") {
		t.Errorf("error text lacks the compiler message: %v", err)
	}
	wantStats(t, r, platform.BuildStats{})
	if files := cacheFiles(t, dir); len(files) != 0 {
		t.Errorf("a failed build left cache files %v", files)
	}
	// A failure is not cached: the next call tries again.
	if _, err := r.Program(src, "-DSOMETHING=1"); err == nil {
		t.Error("second call succeeded")
	}
	t.Logf("build error as users see it:\n%v", err)
}

func TestProgramFromFiles(t *testing.T) {
	dir := t.TempDir()
	head := filepath.Join(dir, "head.cl")
	body := filepath.Join(dir, "body.cl")
	if err := os.WriteFile(head, []byte("#define SCALE(s, x) ((s) * (x))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	kernel := strings.Replace(addSource(t.Name()), "s * a[i]", "SCALE(s, a[i])", 1)
	if err := os.WriteFile(body, []byte(kernel), 0o644); err != nil {
		t.Fatal(err)
	}
	r := platformtest.Runtime(t, platform.WithCacheDir(t.TempDir()))
	p, err := r.ProgramFromFiles([]string{head, body}, "")
	if err != nil {
		t.Fatal(err)
	}
	runAdd(t, r, p)
	// The same text given as strings is the same program.
	hb, _ := os.ReadFile(head)
	p2, err := r.Program([]string{string(hb), kernel}, "")
	if err != nil || p2 != p {
		t.Errorf("Program with the files' text = %v, %v; want the cached program", p2, err)
	}
	wantStats(t, r, platform.BuildStats{Memory: 1, Compiled: 1})

	_, err = r.ProgramFromFiles([]string{head, filepath.Join(dir, "missing.cl")}, "")
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: got %v, want an os.ErrNotExist error", err)
	}
}

func TestRuntimeCloseNoLeaks(t *testing.T) {
	d := platformtest.Device(t)
	before := cl.LiveObjects()
	r, err := platform.NewRuntime(d, platform.WithCacheDir(t.TempDir()), platform.WithQueueProperties(cl.QueueProfiling))
	if err != nil {
		platformtest.Unavailable(t, err.Error())
	}
	if r.Device() != d {
		t.Errorf("Device() = %v, want %v", r.Device(), d)
	}
	if r.Queue().Properties()&cl.QueueProfiling == 0 {
		t.Error("queue lacks the profiling property asked for")
	}
	p, err := r.Program([]string{addSource(t.Name())}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Program([]string{addSource(t.Name() + "2")}, ""); err != nil {
		t.Fatal(err)
	}
	runAdd(t, r, p)
	q, err := r.NewQueue(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Release(); err != nil {
		t.Fatal(err)
	}
	// Two programs, each held by the runtime and by the callers' reference.
	if during := cl.LiveObjects(); during["program"] != before["program"]+4 || during["context"] != before["context"]+1 {
		t.Errorf("while open: live objects %v, before %v", during, before)
	}

	if err := r.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := r.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := r.Program([]string{addSource(t.Name())}, ""); !errors.Is(err, platform.ErrClosed) {
		t.Errorf("Program after Close: %v, want ErrClosed", err)
	}
	if _, err := r.ProgramFromFiles(nil, ""); !errors.Is(err, platform.ErrClosed) {
		t.Errorf("ProgramFromFiles after Close: %v, want ErrClosed", err)
	}
	after := cl.LiveObjects()
	for kind, n := range before {
		if after[kind] != n {
			t.Errorf("%d live %s objects after Close, %d before", after[kind], kind, n)
		}
	}
}

// TestRuntimeCloseWhileBuilding closes a runtime while builds are in flight:
// each Program call either succeeds or returns ErrClosed, and nothing leaks.
func TestRuntimeCloseWhileBuilding(t *testing.T) {
	d := platformtest.Device(t)
	before := cl.LiveObjects()
	r, err := platform.NewRuntime(d, platform.WithoutDiskCache())
	if err != nil {
		platformtest.Unavailable(t, err.Error())
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = r.Program([]string{addSource(fmt.Sprint(t.Name(), i))}, "")
		}()
	}
	if err := r.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil && !errors.Is(err, platform.ErrClosed) {
			t.Errorf("call %d: %v", i, err)
		}
	}
	after := cl.LiveObjects()
	for kind, n := range before {
		if after[kind] != n {
			t.Errorf("%d live %s objects after Close, %d before", after[kind], kind, n)
		}
	}
}
