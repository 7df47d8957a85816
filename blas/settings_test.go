package clblas

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/internal/gemm"
	"github.com/gocompute/opencl/internal/settings"
	"github.com/gocompute/opencl/platform/platformtest"
)

// clearSettings unsets every GOCL_* setting for the test, so that the
// environment the tests run in does not decide.
func clearSettings(t *testing.T) {
	for _, s := range settings.All() {
		if v, ok := os.LookupEnv(s.Name); ok {
			t.Setenv(s.Name, v) // restored when the test ends
			os.Unsetenv(s.Name)
		}
	}
}

// TestNewRejectsBadSettings: for every setting in the table (so a new one
// is covered when it is added), New fails on its bad value with an error
// that names the variable and the values it accepts.
func TestNewRejectsBadSettings(t *testing.T) {
	for _, s := range settings.All() {
		t.Run(s.Name, func(t *testing.T) {
			if s.Name == settings.Device {
				// With no device at all, the error would be that.
				platformtest.Device(t)
			}
			clearSettings(t)
			t.Setenv(s.Name, s.Bad)
			impl, err := New()
			if err == nil {
				impl.Close()
				t.Fatalf("%s=%q: New succeeded", s.Name, s.Bad)
			}
			if !strings.Contains(err.Error(), s.Name) {
				t.Errorf("%s=%q: error %q does not name the variable", s.Name, s.Bad, err)
			}
			if s.Name != settings.Device && !strings.Contains(err.Error(), s.Values) {
				// GOCL_DEVICE's error lists the devices there are instead.
				t.Errorf("%s=%q: error %q does not give the accepted values", s.Name, s.Bad, err)
			}
		})
	}
}

// TestSettingOptions: a With… option overrides its variable (an invalid
// value of the variable is then not read), and an invalid option value is
// an error from New.
func TestSettingOptions(t *testing.T) {
	clearSettings(t)
	for _, tc := range []struct {
		name, env string
		opt       Option
	}{
		{settings.GemmPipeline, "bogus", WithGemmPipeline("on,tile=64")},
		{settings.ZeroCopy, "bogus", WithZeroCopy(false)},
		{settings.L2Share, "bogus", WithL2HostShare(true)},
		{settings.GemmTuning, "/no/such/file.json", WithGemmTuning("")},
		{settings.CacheDir, "relative", WithCacheDir(t.TempDir())},
		{settings.Offload, "bogus", WithOffload(Never)},
		{settings.Tensor, "bogus", WithTensorCores(TensorOff)},
	} {
		t.Setenv(tc.name, tc.env)
		impl, err := newNoneImpl(tc.opt)
		if err != nil {
			t.Errorf("%s=%q with its option: %v", tc.name, tc.env, err)
		} else {
			impl.Close()
		}
		if impl, err := newNoneImpl(); err == nil {
			impl.Close()
			t.Errorf("%s=%q without its option: no error", tc.name, tc.env)
		}
		os.Unsetenv(tc.name)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, opt := range []Option{WithGemmPipeline("tile=0"), WithCacheDir("rel/dir"), WithGemmTuning(bad)} {
		if impl, err := newNoneImpl(opt); err == nil {
			impl.Close()
			t.Errorf("an invalid option value: no error")
		}
	}
}

// TestSettingsReachEngine: the settings New reads, from the environment
// or an option, are the engine's.
func TestSettingsReachEngine(t *testing.T) {
	platformtest.Device(t)
	clearSettings(t)
	t.Setenv(settings.GemmPipeline, "off")
	t.Setenv(settings.ZeroCopy, "on")
	dir := t.TempDir()
	db := filepath.Join(dir, "db.json")
	if err := os.WriteFile(db, []byte(`{"schema": 1, "devices": [{"match": {"name": "X"}, "entries": []}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(settings.GemmTuning, db)
	t.Setenv(settings.L2Share, "off")
	// The host shares level 2 rows only where level 2 streams: without
	// zero copy.
	share := 0
	if d, ok := openclDevice[float32](newTestImpl(t)); ok && !eng.ZeroCopyOn.Shared(d.E.Prof) {
		share = runtime.GOMAXPROCS(0)/4 + 1
	}
	for _, tc := range []struct {
		opts    []Option
		pipe    settings.Pipeline
		zero    eng.ZeroCopy
		devices int
		share   int
	}{
		{nil, settings.Pipeline{Off: true}, eng.ZeroCopyOn, 1, 0},
		{[]Option{WithGemmPipeline("on,slab=3"), WithZeroCopy(false), WithGemmTuning(""), WithCacheDir(dir), WithL2HostShare(true)},
			settings.Pipeline{Force: true, Slab: 3}, eng.ZeroCopyOff, len(gemm.Builtin().Devices), runtime.GOMAXPROCS(0)/4 + 1},
		{[]Option{WithZeroCopy(false), WithGemmTuning("")}, settings.Pipeline{Off: true}, eng.ZeroCopyOff, len(gemm.Builtin().Devices), 0},
		{[]Option{WithZeroCopy(true), WithGemmTuning(""), WithL2HostShare(true)}, settings.Pipeline{Off: true}, eng.ZeroCopyOn, len(gemm.Builtin().Devices), share},
	} {
		impl, err := New(tc.opts...)
		if err != nil {
			t.Fatalf("New: %v", err)
		}
		d, ok := openclDevice[float32](impl)
		if !ok {
			t.Fatal("the float32 device is not the OpenCL engine")
		}
		if d.E.PipeMode != tc.pipe || d.E.ZeroCopy != tc.zero || len(d.E.Tuning.Devices) != tc.devices || d.E.L2Share != tc.share {
			t.Errorf("%d options: pipe %+v zero copy %v, %d tuned devices, level 2 share %d; want %+v %v %d %d",
				len(tc.opts), d.E.PipeMode, d.E.ZeroCopy, len(d.E.Tuning.Devices), d.E.L2Share, tc.pipe, tc.zero, tc.devices, tc.share)
		}
		if err := impl.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
