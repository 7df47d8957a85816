#include "clinc.h"
#include <stdint.h>
#include "_cgo_export.h"

static void CL_CALLBACK gocl_event_trampoline(cl_event e, cl_int status, void *user) {
	/* OpenCL 1.1+ passes a command's error code when it terminated
	 * abnormally; NVIDIA's driver (580) passes CL_COMPLETE and records the
	 * error only in the event's status, so the status is read back. */
	if (status == CL_COMPLETE) {
		cl_int s;
		if (clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL) == CL_SUCCESS && s < 0) {
			status = s;
		}
	}
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

/* gocl_origin_aligned reports whether origin (bytes) is a multiple of the
 * base address alignment of some device of m's context, as
 * clCreateSubBuffer requires; 1 when the devices cannot be queried (the
 * driver then decides). */
int gocl_origin_aligned(cl_mem m, size_t origin) {
	cl_context ctx;
	cl_device_id devs[64];
	size_t sz = 0;
	if (clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof ctx, &ctx, NULL) != CL_SUCCESS ||
	    clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof devs, devs, &sz) != CL_SUCCESS) {
		return 1;
	}
	for (size_t i = 0; i < sz / sizeof devs[0]; i++) {
		cl_uint bits;
		if (clGetDeviceInfo(devs[i], CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL) != CL_SUCCESS || bits < 8) {
			return 1;
		}
		if (origin % (bits / 8) == 0) {
			return 1;
		}
	}
	return sz == 0;
}
