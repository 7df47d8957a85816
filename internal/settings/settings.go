// Package settings is the one table of the GOCL_* environment variables:
// each one's name, accepted values, default, meaning and the Go option that
// overrides it, with the one grammar their values are parsed by.
//
// The grammar: a value has its surrounding space ignored and its words
// compared without regard to case; an empty or unset variable means its
// default; a list is words separated by commas, each a word or key=value.
// A value outside a setting's accepted values is an error that names the
// variable and what it accepts, never silently ignored.
//
// The package imports nothing of the module, so every layer (platform,
// the BLAS front end, the tools) can use it.
package settings

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// The variables.
const (
	Device        = "GOCL_DEVICE"
	CacheDir      = "GOCL_CACHE_DIR"
	Offload       = "GOCL_OFFLOAD"
	Tensor        = "GOCL_TENSOR"
	GemmTuning    = "GOCL_GEMM_TUNING"
	GemmPipeline  = "GOCL_GEMM_PIPELINE"
	ZeroCopy      = "GOCL_ZERO_COPY"
	L2Share       = "GOCL_L2_SHARE"
	ComplexGemm   = "GOCL_COMPLEX_GEMM"
	RequireDevice = "GOCL_REQUIRE_DEVICE"
	OpenCLLibrary = "GOCL_OPENCL_LIBRARY"
)

// A Setting describes one GOCL_* environment variable.
type Setting struct {
	Name    string // the variable
	Values  string // the accepted values, in words (errors and the README)
	Default string // what unset or empty means
	Option  string // the Go option that overrides the variable
	Meaning string // what it does (the README's text, Markdown)

	// Bad is a value the setting does not accept, for tests. Checking it
	// may need more than the grammar (GOCL_DEVICE: a spec that matches no
	// device; GOCL_GEMM_TUNING: a file that cannot be read).
	Bad string

	// check reports whether a non-empty value is well formed.
	check func(string) error
}

// table is every setting. Adding a setting is adding one entry here (and
// running the README test with -update).
var table = []Setting{
	{
		Name:    Device,
		Values:  "an index pair P:D, a type (gpu, cpu, accelerator), a vendor or platform word (nvidia, amd, intel, apple, pocl), or part of a device name; for several devices all, WORD:*, P:*, or a comma-separated list of these",
		Default: "the best device",
		Option:  "clblas.WithDevice, clblas.WithDevices, clblas.WithRuntime",
		Meaning: "Which device `platform.Default()` (and so `clblas.New()`) uses: an index pair `P:D` as `examples/devices` prints it, a type (`gpu`, `cpu`, `accelerator`), a vendor or platform word (`nvidia`, `amd`, `intel`, `apple`, `pocl`), or part of the device name (`H200`). A spec that matches nothing is an error that lists the devices there are. Unset: a GPU over an accelerator over a CPU, then the most compute units × clock, then a vendor's own driver over PoCL. Several devices (`clblas.New()` then runs on all of them: level 3 calls from Go slices split across them, everything else on the best of them, which is also what `platform.Default()` returns; see `docs/scaling.md`): `all`, `WORD:*` for every device a word matches (`gpu:*`, `pocl:*`), `P:*` for every device of platform P, or a comma-separated list of single specs (`nvidia,pocl` is the NVIDIA GPU and the PoCL CPU device); any element that matches nothing is an error.",
		Bad:     "no-such-device-anywhere",
		check:   func(string) error { return nil }, // any spec; one that matches nothing fails in platform.Select
	},
	{
		Name:    CacheDir,
		Values:  "an absolute directory path",
		Default: "gocompute-opencl under the user cache directory",
		Option:  "clblas.WithCacheDir, platform.WithCacheDir",
		Meaning: "Where compiled program binaries are kept between runs (default: `gocompute-opencl` under the user cache directory, e.g. `~/.cache/gocompute-opencl`; on PoCL, none unless a directory is named, since PoCL keeps compiled kernels in a cache of its own and, asked for a program's binary, compiles every kernel in it). Entries are keyed by source, options, platform, device and driver version, and checksummed; a corrupt or stale entry is rebuilt, never fatal. A relative path is an error (the cache would move with the working directory).",
		Bad:     "relative/cache",
		check:   checkAbs,
	},
	{
		Name:    Offload,
		Values:  "auto, always, never",
		Default: "auto",
		Option:  "clblas.WithOffload",
		Meaning: "Whether BLAS calls go to the device. `always` sends every call that can run there (tests use it), `never` is gonum's Go code, `auto` decides per call from the device and the problem size.",
		Bad:     "yes",
		check:   func(v string) error { _, err := ParseOffload(v); return err },
	},
	{
		Name:    Tensor,
		Values:  "auto, off, tf32x3 (or on)",
		Default: "auto",
		Option:  "clblas.WithTensorCores",
		Meaning: "`auto`: DGEMM on NVIDIA's FP64 tensor cores where the device has them, and SGEMM by the 3xTF32 method where the tuning database says it is faster (compute capability 9.0: the H200, the H100); `off`: plain FMA kernels everywhere; `tf32x3` (or `on`): SGEMM by 3xTF32 on every device with tensor cores.",
		Bad:     "bogus",
		check:   func(v string) error { _, err := ParseTensor(v); return err },
	},
	{
		Name:    GemmTuning,
		Values:  "the path of a readable tuning database file",
		Default: "the built-in kernels/gemm_tuning.json",
		Option:  "clblas.WithGemmTuning",
		Meaning: "A GEMM tuning database file (the JSON `cmd/tune -out` writes) used instead of the built-in `kernels/gemm_tuning.json`, to try entries before committing them. A file that cannot be read or parsed is an error from `clblas.New`.",
		Bad:     filepath.Join(string(filepath.Separator), "no-such-dir", "gemm_tuning.json"),
		check:   func(string) error { return nil }, // the reader checks the file
	},
	{
		Name:    GemmPipeline,
		Values:  "a comma-separated list of auto, on, off, tile=N, slab=off, slab=N, timeline=FILE",
		Default: "auto",
		Option:  "clblas.WithGemmPipeline",
		Meaning: "`off` turns off the staged, pipelined transfers of GEMM from Go slices; `on` forces them even on a CPU device; `tile=N` (alone or with others, e.g. `on,tile=1024`) cuts C into N×N tiles (or row slabs of N rows) instead of the size chosen from the problem; `slab=off` never uses row slabs, `slab=N` always does (op(B) not transposed) with k in N chunks; `timeline=FILE` appends every staged call's commands with their device times to FILE (all for measuring).",
		Bad:     "tile=x",
		check:   func(v string) error { _, err := ParsePipeline(v); return err },
	},
	{
		Name:    ZeroCopy,
		Values:  "auto, on, off",
		Default: "auto",
		Option:  "clblas.WithZeroCopy",
		Meaning: "Whether level 3 kernels work on your Go slices in place (buffers over them, no copies): `auto` on CPU devices only; `on` also on other devices that report memory unified with the host's, such as integrated GPUs (correct by the OpenCL rules, **not yet measured**, hence not the default); `off` copies everywhere.",
		Bad:     "sometimes",
		check:   func(v string) error { _, err := ParseSwitch(v); return err },
	},
	{
		Name:    L2Share,
		Values:  "auto, off",
		Default: "auto",
		Option:  "clblas.WithL2HostShare",
		Meaning: "How GEMV and GER on Go slices share their rows between the host and a device with memory of its own (a discrete GPU), where such a call is bound by moving its matrix over the bus, not by the device: `auto` has the goroutines that copy the matrix into the staging memory compute rows from the bottom with gonum's code whenever they have nothing to copy (a quarter of them start with rows), and the device the rows from the top as they arrive, so the split follows the two rates on each machine (on a host whose cores read memory faster than the bus moves it, the host takes most rows; BENCHMARKS.md); `off`: the device takes every row. No effect on CPU devices, whose kernels read Go memory in place, nor on calls whose matrix lies in a `HostSlice`.",
		Bad:     "half",
		check:   func(v string) error { _, err := ParseL2Share(v); return err },
	},
	{
		Name:    ComplexGemm,
		Values:  "auto, 4m, 3m",
		Default: "auto",
		Option:  "none: the variable only",
		Meaning: "How complex GEMM (Zgemm, Cgemm and the level 3 routines built on them) forms its products on the device: `4m` by four real products (each part rounded as gonum's loops round it); `3m` by three (Gauss's method: a quarter fewer flops, the imaginary part's error bounded by the operands' |re| + |im| rather than their parts; measured within 2× of `4m`'s, BENCHMARKS.md); `auto`: `3m` for products whose every dimension is at least 2048, `4m` below.",
		Bad:     "5m",
		check:   func(v string) error { _, err := ParseComplexGemm(v); return err },
	},
	{
		Name:    RequireDevice,
		Values:  "on, off (or 1, 0, true, false)",
		Default: "off",
		Option:  "none: read by the tests (platformtest.Required), not by the library",
		Meaning: "`1` turns \"no OpenCL device\" in tests from a skip into a failure (see below); the test script sets it.",
		Bad:     "maybe",
		check:   func(v string) error { _, err := ParseBool(v); return err },
	},
	{
		Name:    OpenCLLibrary,
		Values:  "an absolute path, or a bare library file name the system's loader searches for",
		Default: "libOpenCL.so.1, then libOpenCL.so (Linux); OpenCL.framework (macOS); OpenCL.dll (Windows)",
		Option:  "none: read once per process, at the first OpenCL call, by package cl",
		Meaning: "The OpenCL library to load (an ICD loader, or one driver's library such as Oclgrind's) instead of the platform's default. When set, it replaces the search: only that library is tried. Without any library, `clblas.New` returns an error wrapping `cl.ErrNoRuntime` and programs run on gonum.",
		Bad:     "relative/libOpenCL.so.1",
		check:   checkLibrary,
	},
}

// checkLibrary accepts an absolute path or a bare file name, which the
// system's loader searches for; a relative path with directories would
// depend on the working directory.
func checkLibrary(v string) error {
	v = strings.TrimSpace(v)
	if filepath.IsAbs(v) || !strings.ContainsAny(v, `/\\`) {
		return nil
	}
	return &parseError{value: v, want: "an absolute path or a bare library file name"}
}

// All returns every setting, in the table's order.
func All() []Setting { return append([]Setting(nil), table...) }

// Lookup returns the setting called name.
func Lookup(name string) (Setting, bool) {
	for _, s := range table {
		if s.Name == name {
			return s, true
		}
	}
	return Setting{}, false
}

// An Error is a value a setting does not accept.
type Error struct {
	Name, Value string
	Values      string // what the setting accepts
	Err         error  // what is wrong, when more can be said
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("%s=%q is not valid: want %s", e.Name, e.Value, e.Values)
	if e.Err != nil {
		msg += " (" + e.Err.Error() + ")"
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// Check reports whether v is a value s accepts; the empty value (the
// default) always is.
func (s Setting) Check(v string) error {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	if err := s.check(v); err != nil {
		var pe *parseError
		if errors.As(err, &pe) {
			err = pe.detail
		}
		return &Error{Name: s.Name, Value: v, Values: s.Values, Err: err}
	}
	return nil
}

// Env is the value of every setting, read once.
type Env map[string]string

// Read reads every setting with lookup (os.LookupEnv, or a test's map),
// leaving out those in skip (settings an option overrides, which are then
// not read at all), and checks each value. The error joins an *Error for
// every invalid value.
func Read(lookup func(string) (string, bool), skip ...string) (Env, error) {
	env := Env{}
	var errs []error
	for _, s := range table {
		if contains(skip, s.Name) {
			continue
		}
		v, ok := lookup(s.Name)
		if !ok {
			continue
		}
		if err := s.Check(v); err != nil {
			errs = append(errs, err)
			continue
		}
		env[s.Name] = v
	}
	return env, errors.Join(errs...)
}

// Get returns the value of the setting called name ("" when unset).
func (e Env) Get(name string) string { return e[name] }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func checkAbs(v string) error {
	if !filepath.IsAbs(strings.TrimSpace(v)) {
		return &parseError{value: v, want: "an absolute directory path"}
	}
	return nil
}
