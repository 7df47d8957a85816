package platform_test

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocompute/opencl/platform"
	"github.com/gocompute/opencl/platform/platformtest"
)

// syncBuffer is a bytes.Buffer safe for the logger's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestSlowBuildNotice: a build that outlasts the delay logs one Info line
// naming the device and the cache directory; later slow builds log no
// more, and a build that finishes in time logs nothing.
func TestSlowBuildNotice(t *testing.T) {
	var out syncBuffer
	logger := slog.New(slog.NewTextHandler(&out, nil))
	dir := t.TempDir()

	defer platform.SetSlowBuildAfter(time.Hour)()
	quick := platformtest.Runtime(t, platform.WithCacheDir(dir), platform.WithLogger(logger))
	if _, err := quick.Program([]string{addSource(t.Name() + "quick")}, ""); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); s != "" {
		t.Fatalf("a quick build logged %q", s)
	}

	platform.SetSlowBuildAfter(0)
	r := platformtest.Runtime(t, platform.WithCacheDir(dir), platform.WithLogger(logger))
	for i := range 3 {
		if _, err := r.Program([]string{addSource(t.Name() + strings.Repeat("x", i))}, ""); err != nil {
			t.Fatal(err)
		}
	}
	// The notice runs on a timer goroutine: wait for it.
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "compiling") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d lines logged, want 1:\n%s", len(lines), out.String())
	}
	for _, want := range []string{"level=INFO", "compiling OpenCL kernels", "device=", r.Device().String(), "cache=" + dir} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("notice %q lacks %q", lines[0], want)
		}
	}
}
