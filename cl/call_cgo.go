//go:build cgo

package cl

/*
#include <stdint.h>

typedef uintptr_t (*gocl_fn)(uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t);

// gocl_call calls fn with 14 integer arguments; fn reads as many as it
// takes. No OpenCL header is needed: every argument is an integer or a
// pointer, and the result is a cl_int or a pointer.
static uintptr_t gocl_call(uintptr_t fn, uintptr_t a0, uintptr_t a1, uintptr_t a2, uintptr_t a3, uintptr_t a4, uintptr_t a5, uintptr_t a6, uintptr_t a7, uintptr_t a8, uintptr_t a9, uintptr_t a10, uintptr_t a11, uintptr_t a12, uintptr_t a13) {
	return ((gocl_fn)fn)(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13);
}
*/
import "C"

// rawCall calls the C function at fn. With cgo, a call through a small C
// function costs what a direct cgo call costs, a fraction of
// purego.SyscallN's; without cgo (call_nocgo.go), purego makes the call.
func rawCall(fn, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13 uintptr) uintptr {
	return uintptr(C.gocl_call(C.uintptr_t(fn), C.uintptr_t(a0), C.uintptr_t(a1), C.uintptr_t(a2), C.uintptr_t(a3), C.uintptr_t(a4), C.uintptr_t(a5), C.uintptr_t(a6), C.uintptr_t(a7), C.uintptr_t(a8), C.uintptr_t(a9), C.uintptr_t(a10), C.uintptr_t(a11), C.uintptr_t(a12), C.uintptr_t(a13)))
}
