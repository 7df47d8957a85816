#include "clinc.h"
#include <stdint.h>
#include "_cgo_export.h"

static void CL_CALLBACK gocl_event_trampoline(cl_event e, cl_int status, void *user) {
	goclEventDone((uintptr_t)user, status);
}

cl_int gocl_set_event_callback(cl_event e, uintptr_t handle) {
	return clSetEventCallback(e, CL_COMPLETE, gocl_event_trampoline, (void *)handle);
}
