// Package cl is a safe, idiomatic binding to the OpenCL C API.
//
// It covers what a compute library needs: platforms and devices (with every
// capability query that kernel choice reads), contexts, command queues,
// programs built from source or binaries, kernels with typed arguments,
// buffers, events and their profiling times.
//
// Conventions:
//
//   - Every failing call returns an error that wraps an [ErrorCode] (whose
//     Error method prints the CL_* name) together with the operation, so
//     errors.Is(err, cl.InvalidKernelArgs) works.
//   - Objects that OpenCL reference-counts (contexts, queues, programs,
//     kernels, buffers, events) have an explicit, idempotent Release. A
//     cleanup attached with runtime.AddCleanup releases an object that
//     became unreachable without Release, as a backstop only. Using a
//     released object returns [ErrReleased]; it never crashes. A Release
//     that races with a call on another goroutine defers the driver
//     release until that call returns. A kernel keeps its buffer
//     arguments reachable.
//   - A command that fails reports a [*CommandError] from Wait.
//   - No C types appear in the exported API. Sizes and offsets are int.
//   - Go memory is never handed to OpenCL beyond the call that receives it,
//     except for non-blocking reads and writes, which pin the Go slice with a
//     runtime.Pinner until the command completes, and buffers over Go
//     memory (CreateBufferOver), pinned until the driver deletes them.
//
// The OpenCL library is loaded at run time, when the package is first used
// (see [LoadRuntime]; GOCL_OPENCL_LIBRARY names another library): building
// needs no OpenCL headers and no cgo, and without a library every call
// returns an error wrapping [ErrNoRuntime]. The entry points used are
// OpenCL 1.2's, plus clCreateCommandQueueWithProperties (2.0). Features
// above 1.2 are detected at run time from the platform and device
// versions; asking a device for something it cannot do returns an error
// that says so ([ErrNotSupported]).
package cl

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
)

// Version is an OpenCL version, as reported by a platform or a device.
type Version struct{ Major, Minor int }

// AtLeast reports whether v is major.minor or later.
func (v Version) AtLeast(major, minor int) bool {
	return v.Major > major || (v.Major == major && v.Minor >= minor)
}

func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// parseVersion reads "OpenCL 3.0 CUDA" or "OpenCL C 1.2 pocl" style strings.
func parseVersion(s string) Version {
	for _, f := range strings.Fields(s) {
		maj, min, ok := strings.Cut(f, ".")
		if !ok {
			continue
		}
		a, err1 := strconv.Atoi(maj)
		b, err2 := strconv.Atoi(strings.TrimFunc(min, func(r rune) bool { return r < '0' || r > '9' }))
		if err1 == nil && err2 == nil {
			return Version{a, b}
		}
	}
	return Version{}
}

// live counts the OpenCL objects this package has created and not yet
// released, by kind. Tests use it to prove that nothing leaks.
var live [numKinds]atomic.Int64

type objectKind int

const (
	kindContext objectKind = iota
	kindQueue
	kindProgram
	kindKernel
	kindBuffer
	kindEvent
	kindHostMem // host memory under a CreateBufferOver or CreateBufferOverForeign buffer
	numKinds
)

var kindNames = [numKinds]string{"context", "queue", "program", "kernel", "buffer", "event", "hostmem"}

// LiveObjects returns how many objects of each kind ("context", "queue",
// "program", "kernel", "buffer", "event") have been created through this
// package and not yet released, and ("hostmem") how many slices of Go
// memory are still pinned under CreateBufferOver buffers that the driver
// has not deleted yet.
func LiveObjects() map[string]int64 {
	m := make(map[string]int64, numKinds)
	for k := range live {
		m[kindNames[k]] = live[k].Load()
	}
	return m
}
