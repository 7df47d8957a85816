//go:build !cgo

package cl

import (
	"sync"

	"github.com/ebitengine/purego"
)

// maxArgs is the number of arguments every call passes (see proc.call).
const maxArgs = 14

// argBlocks recycles the argument arrays handed to purego.SyscallN, whose
// variadic argument escapes: a fresh slice per call would be an
// allocation on every launch.
var argBlocks = sync.Pool{New: func() any { return new([maxArgs]uintptr) }}

// rawCall calls the C function at fn through purego (no cgo: the
// call_cgo.go variant is used when cgo is enabled).
func rawCall(fn, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13 uintptr) uintptr {
	a := argBlocks.Get().(*[maxArgs]uintptr)
	*a = [maxArgs]uintptr{a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13}
	r, _, _ := purego.SyscallN(fn, a[:]...)
	argBlocks.Put(a)
	return r
}
