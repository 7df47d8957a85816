package cl

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
)

// EnvLibrary is the environment variable that names the OpenCL library
// (the ICD loader, or a driver's library) to load instead of the
// platform's default. When it is set, only that path is tried.
const EnvLibrary = "GOCL_OPENCL_LIBRARY"

// ErrNoRuntime is wrapped by every error that arises because no OpenCL
// library could be loaded. The error says which paths were tried and how
// to install a runtime.
var ErrNoRuntime = errors.New("cl: no OpenCL runtime found")

// RuntimeError is the error a call returns when the OpenCL library could
// not be loaded. It unwraps to ErrNoRuntime.
type RuntimeError struct {
	Tried []string // the paths tried, in order
	Errs  []string // why each failed, as the dynamic loader said
}

func (e *RuntimeError) Error() string {
	var b strings.Builder
	b.WriteString("cl: no OpenCL runtime found (tried ")
	for i, p := range e.Tried {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s: %s", p, e.Errs[i])
	}
	b.WriteString("). Install an OpenCL ICD loader and a driver: on Debian or Ubuntu " +
		"`apt-get install ocl-icd-libopencl1 pocl-opencl-icd` (PoCL runs OpenCL on the CPU), " +
		"or your GPU vendor's driver; or set " + EnvLibrary + " to the path of an OpenCL library")
	return b.String()
}

// Unwrap returns ErrNoRuntime.
func (e *RuntimeError) Unwrap() error { return ErrNoRuntime }

// LoadRuntime loads the OpenCL library, once per process, and returns
// nil or the *RuntimeError saying why it could not be loaded. Every
// function of the package loads it on first use; LoadRuntime lets a
// program ask early whether OpenCL is there.
//
// The library is GOCL_OPENCL_LIBRARY when that is set, else the
// platform's: libOpenCL.so.1 then libOpenCL.so (Linux and other Unix
// systems), /System/Library/Frameworks/OpenCL.framework/OpenCL (macOS),
// OpenCL.dll (Windows).
func LoadRuntime() error {
	lib.once.Do(func() { lib.err = loadLibrary(libraryPaths(os.Getenv(EnvLibrary))) })
	return lib.err
}

// RuntimePath returns the path of the OpenCL library loaded, or "" when
// none is.
func RuntimePath() string {
	if LoadRuntime() != nil {
		return ""
	}
	return lib.path
}

var lib struct {
	once   sync.Once
	err    error
	path   string
	loaded atomic.Bool // set once every proc address is stored
}

// libraryPaths is the list of libraries to try, in order: the setting's
// value alone when it is set.
func libraryPaths(setting string) []string {
	if s := strings.TrimSpace(setting); s != "" {
		return []string{s}
	}
	return defaultLibraries
}

// loadLibrary opens the first library of paths that opens and resolves
// every entry point it has. Entry points the library lacks (an OpenCL 1.2
// loader has no clCreateCommandQueueWithProperties) stay zero; calling one
// is an error wrapping ErrNotSupported.
func loadLibrary(paths []string) error {
	rerr := &RuntimeError{}
	for _, p := range paths {
		h, err := openLibrary(p)
		if err != nil {
			rerr.Tried = append(rerr.Tried, p)
			rerr.Errs = append(rerr.Errs, err.Error())
			continue
		}
		if sym(h, "clGetPlatformIDs") == 0 {
			closeLibrary(h)
			rerr.Tried = append(rerr.Tried, p)
			rerr.Errs = append(rerr.Errs, "no clGetPlatformIDs in it: not an OpenCL library")
			continue
		}
		for _, pr := range procs {
			pr.addr = sym(h, pr.name)
		}
		lib.path = p
		makeTrampolines()
		lib.loaded.Store(true)
		return nil
	}
	return rerr
}

// Statuses the call helpers return instead of an OpenCL status when no
// call was made; check turns them into errors. They are outside the range
// of OpenCL's codes.
const (
	statusNoRuntime int32 = -0x7fff0001 // the library could not be loaded
	statusNoSymbol  int32 = -0x7fff0002 // the library lacks the entry point
)

// callError is the error check returns for the statuses above.
func callError(op string, status int32) error {
	if status == statusNoRuntime {
		return fmt.Errorf("cl: %s: %w", op, LoadRuntime())
	}
	return fmt.Errorf("cl: %s is not in the OpenCL library %s: %w", op, lib.path, ErrNotSupported)
}
