package cl

import (
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// OpenCL calls back into Go for two things: an event's completion
// (clSetEventCallback) and a buffer's deletion
// (clSetMemObjectDestructorCallback). The C function pointers that purego
// makes for Go functions come from a fixed pool that is never freed, so
// there is one trampoline per kind, made when the library is loaded, and
// each registration passes a handle in user_data that names the Go
// function to run. The registry holds the function until the one call the
// driver makes.

var (
	eventTrampoline uintptr // void (*)(cl_event, cl_int, void *)
	memTrampoline   uintptr // void (*)(cl_mem, void *)
)

// callbacks maps the handles passed as user_data to what they run.
var callbacks struct {
	mu   sync.Mutex
	next uintptr
	m    map[uintptr]any
}

// register stores v and returns the handle to pass as user_data; 0 is
// never a handle.
func register(v any) uintptr {
	callbacks.mu.Lock()
	defer callbacks.mu.Unlock()
	if callbacks.m == nil {
		callbacks.m = make(map[uintptr]any)
	}
	callbacks.next++
	h := callbacks.next
	callbacks.m[h] = v
	return h
}

// unregister removes and returns the value of handle h (nil if none).
func unregister(h uintptr) any {
	callbacks.mu.Lock()
	defer callbacks.mu.Unlock()
	v := callbacks.m[h]
	delete(callbacks.m, h)
	return v
}

// pendingCallbacks is how many registrations wait for their call.
func pendingCallbacks() int {
	callbacks.mu.Lock()
	defer callbacks.mu.Unlock()
	return len(callbacks.m)
}

// makeTrampolines creates the trampolines once, when the library loads.
// Their arguments are all uintptr so that one signature serves every
// platform's callback conventions; the cl_int status is in the low 32 bits.
func makeTrampolines() {
	eventTrampoline = purego.NewCallback(func(e, status, user uintptr) uintptr {
		eventDone(clEvent(e), int32(status), user)
		return 0
	})
	memTrampoline = purego.NewCallback(func(m, user uintptr) uintptr {
		memDestroyed(user)
		return 0
	})
}

// eventDone runs the function registered under handle. OpenCL 1.1+ passes
// a command's error code when it terminated abnormally; NVIDIA's driver
// (580) passes CL_COMPLETE and records the error only in the event's
// status, so the status is read back.
func eventDone(e clEvent, status int32, handle uintptr) {
	if status == clComplete {
		var s int32
		if clGetEventInfo(e, clEventCommandExecutionStatus, 4, unsafe.Pointer(&s), nil) == clSuccess && s < 0 {
			status = s
		}
	}
	fn, _ := unregister(handle).(func(error))
	if fn != nil {
		fn(CommandStatus(status).Err())
	}
}
