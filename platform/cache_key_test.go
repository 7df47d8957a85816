package platform_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gocompute/opencl/platform"
	"github.com/gocompute/opencl/platform/platformtest"
)

// TestCacheEntryUnderAnotherKey copies one program's cache entry under
// another program's key (issue 19, item 5): the entry is well formed and
// its checksum holds, but it is not the entry asked for, so the program
// must be compiled again, and it must compute what its own source says.
func TestCacheEntryUnderAnotherKey(t *testing.T) {
	dir := t.TempDir()
	want := []string{addSource(t.Name())}
	// other has the same kernel name and arguments but computes b += 7·a.
	other := []string{strings.Replace(addSource(t.Name()+"/other"), "s * a[i]", "7.0f * a[i]", 1)}
	r1 := platformtest.Runtime(t, platform.WithCacheDir(dir))
	if _, err := r1.Program(want, ""); err != nil {
		t.Fatal(err)
	}
	first := cacheFiles(t, dir)
	if _, err := r1.Program(other, ""); err != nil {
		t.Fatal(err)
	}
	files := cacheFiles(t, dir)
	if len(first) != 1 || len(files) != 2 {
		t.Fatalf("cache files %v then %v, want one then two", first, files)
	}
	wantFile, otherFile := first[0], files[0]
	if otherFile == wantFile {
		otherFile = files[1]
	}
	b, err := os.ReadFile(otherFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(wantFile, b, 0o644); err != nil {
		t.Fatal(err)
	}

	r2 := platformtest.Runtime(t, platform.WithCacheDir(dir), quiet)
	p, err := r2.Program(want, "")
	if err != nil {
		t.Fatal(err)
	}
	wantStats(t, r2, platform.BuildStats{Compiled: 1})
	runAdd(t, r2, p)

	// The rebuild rewrote the entry; a third runtime loads it from disk.
	r3 := platformtest.Runtime(t, platform.WithCacheDir(dir))
	p, err = r3.Program(want, "")
	if err != nil {
		t.Fatal(err)
	}
	wantStats(t, r3, platform.BuildStats{Disk: 1})
	runAdd(t, r3, p)
}

// levels is a slog.Handler that keeps the level of each record.
type levels struct {
	mu  sync.Mutex
	got []slog.Level
}

func (h *levels) Enabled(context.Context, slog.Level) bool { return true }
func (h *levels) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.got = append(h.got, r.Level)
	return nil
}
func (h *levels) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *levels) WithGroup(string) slog.Handler      { return h }

// TestCacheUnwritableWarnsOnce: a cache directory that cannot be written
// (here a path under a regular file, which fails for root too) is logged
// once per process at Warn, later failures at Debug (from any runtime), and
// the programs still build.
func TestCacheUnwritableWarnsOnce(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := &levels{}
	// A runtime per program: still one warning in the process.
	for i := range 3 {
		r := platformtest.Runtime(t, platform.WithCacheDir(filepath.Join(file, "cache")), platform.WithLogger(slog.New(h)))
		p, err := r.Program([]string{addSource(fmt.Sprintf("%s/%d", t.Name(), i))}, "")
		if err != nil {
			t.Fatal(err)
		}
		runAdd(t, r, p)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	want := []slog.Level{slog.LevelWarn, slog.LevelDebug, slog.LevelDebug}
	if fmt.Sprint(h.got) != fmt.Sprint(want) {
		t.Errorf("log levels %v, want %v", h.got, want)
	}
}
