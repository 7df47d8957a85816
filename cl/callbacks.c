#include "clinc.h"
#include <stdint.h>
#include "_cgo_export.h"

static void CL_CALLBACK gocl_event_trampoline(cl_event e, cl_int status, void *user) {
	goclEventDone((uintptr_t)user, status);
}

cl_int gocl_set_event_callback(cl_event e, uintptr_t handle) {
	return clSetEventCallback(e, CL_COMPLETE, gocl_event_trampoline, (void *)handle);
}

static void CL_CALLBACK gocl_mem_trampoline(cl_mem m, void *user) {
	goclMemDestroyed((uintptr_t)user);
}

cl_int gocl_set_mem_destructor(cl_mem m, uintptr_t handle) {
	return clSetMemObjectDestructorCallback(m, gocl_mem_trampoline, (void *)handle);
}
