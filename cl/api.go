package cl

import "unsafe"

// The OpenCL handle types. Handles are opaque pointers that Go never
// dereferences, so they are held as uintptr. The scalar typedefs map as
// the specification fixes them on every platform: cl_int int32, cl_uint
// and cl_bool uint32, cl_ulong and the cl_bitfield types (device type,
// memory and map flags, queue properties, FP config) uint64, the *_info
// enums uint32, size_t uintptr, cl_context_properties intptr_t.
type (
	clPlatformID   uintptr
	clDeviceID     uintptr
	clContext      uintptr
	clCommandQueue uintptr
	clMem          uintptr
	clProgram      uintptr
	clKernel       uintptr
	clEvent        uintptr
)

// clBufferRegion is cl_buffer_region: two size_t.
type clBufferRegion struct {
	origin, size uintptr
}

// cstring returns s NUL-terminated, for the char * arguments.
func cstring(s string) []byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b
}

// proc is an entry point of the OpenCL library; addr is 0 until the
// library is loaded, and stays 0 for a function the library lacks.
type proc struct {
	name string
	addr uintptr
}

// call calls the entry point with 14 arguments, the most any takes
// (clEnqueueReadBufferRect and clEnqueueWriteBufferRect): the C calling
// conventions of every supported platform let a caller pass more
// arguments than the callee reads. Pointers are converted to uintptr in the
// call expression, which (go:uintptrescapes) puts what they point to on
// the heap, where it does not move, and keeps it alive for the call. It
// returns the function's result, or 0 and statusNoRuntime or
// statusNoSymbol when no call could be made.
//
//go:uintptrescapes
func (p *proc) call(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13 uintptr) (uintptr, int32) {
	if !lib.loaded.Load() && LoadRuntime() != nil {
		return 0, statusNoRuntime
	}
	if p.addr == 0 {
		return 0, statusNoSymbol
	}
	return rawCall(p.addr, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13), 0
}

// status calls an entry point that returns a cl_int.
//
//go:uintptrescapes
func (p *proc) status(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13 uintptr) int32 {
	r, st := p.call(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13)
	if st != 0 {
		return st
	}
	return int32(r)
}

// object calls an entry point that returns an object and reports its
// status through errcode_ret, which must be non-nil and among the
// arguments.
//
//go:uintptrescapes
func (p *proc) object(errcode *int32, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13 uintptr) uintptr {
	r, st := p.call(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13)
	if st != 0 {
		*errcode = st
		return 0
	}
	return r
}

// status6 and object6 are status and object for entry points of at most
// six arguments.
//
//go:uintptrescapes
func (p *proc) status6(a0, a1, a2, a3, a4, a5 uintptr) int32 {
	return p.status(a0, a1, a2, a3, a4, a5, 0, 0, 0, 0, 0, 0, 0, 0)
}

//go:uintptrescapes
func (p *proc) object6(errcode *int32, a0, a1, a2, a3, a4, a5 uintptr) uintptr {
	return p.object(errcode, a0, a1, a2, a3, a4, a5, 0, 0, 0, 0, 0, 0, 0, 0)
}

var (
	procGetPlatformIDs                   = &proc{name: "clGetPlatformIDs"}
	procGetPlatformInfo                  = &proc{name: "clGetPlatformInfo"}
	procGetDeviceIDs                     = &proc{name: "clGetDeviceIDs"}
	procGetDeviceInfo                    = &proc{name: "clGetDeviceInfo"}
	procCreateContext                    = &proc{name: "clCreateContext"}
	procGetContextInfo                   = &proc{name: "clGetContextInfo"}
	procReleaseContext                   = &proc{name: "clReleaseContext"}
	procCreateCommandQueue               = &proc{name: "clCreateCommandQueue"}
	procCreateCommandQueueWithProperties = &proc{name: "clCreateCommandQueueWithProperties"}
	procGetCommandQueueInfo              = &proc{name: "clGetCommandQueueInfo"}
	procReleaseCommandQueue              = &proc{name: "clReleaseCommandQueue"}
	procFlush                            = &proc{name: "clFlush"}
	procFinish                           = &proc{name: "clFinish"}
	procCreateBuffer                     = &proc{name: "clCreateBuffer"}
	procCreateSubBuffer                  = &proc{name: "clCreateSubBuffer"}
	procGetMemObjectInfo                 = &proc{name: "clGetMemObjectInfo"}
	procReleaseMemObject                 = &proc{name: "clReleaseMemObject"}
	procSetMemObjectDestructorCallback   = &proc{name: "clSetMemObjectDestructorCallback"}
	procCreateProgramWithSource          = &proc{name: "clCreateProgramWithSource"}
	procCreateProgramWithBinary          = &proc{name: "clCreateProgramWithBinary"}
	procBuildProgram                     = &proc{name: "clBuildProgram"}
	procGetProgramBuildInfo              = &proc{name: "clGetProgramBuildInfo"}
	procGetProgramInfo                   = &proc{name: "clGetProgramInfo"}
	procReleaseProgram                   = &proc{name: "clReleaseProgram"}
	procRetainProgram                    = &proc{name: "clRetainProgram"}
	procCreateKernel                     = &proc{name: "clCreateKernel"}
	procGetKernelInfo                    = &proc{name: "clGetKernelInfo"}
	procGetKernelWorkGroupInfo           = &proc{name: "clGetKernelWorkGroupInfo"}
	procSetKernelArg                     = &proc{name: "clSetKernelArg"}
	procReleaseKernel                    = &proc{name: "clReleaseKernel"}
	procEnqueueNDRangeKernel             = &proc{name: "clEnqueueNDRangeKernel"}
	procEnqueueReadBuffer                = &proc{name: "clEnqueueReadBuffer"}
	procEnqueueWriteBuffer               = &proc{name: "clEnqueueWriteBuffer"}
	procEnqueueReadBufferRect            = &proc{name: "clEnqueueReadBufferRect"}
	procEnqueueWriteBufferRect           = &proc{name: "clEnqueueWriteBufferRect"}
	procEnqueueCopyBuffer                = &proc{name: "clEnqueueCopyBuffer"}
	procEnqueueCopyBufferRect            = &proc{name: "clEnqueueCopyBufferRect"}
	procEnqueueFillBuffer                = &proc{name: "clEnqueueFillBuffer"}
	procEnqueueMapBuffer                 = &proc{name: "clEnqueueMapBuffer"}
	procEnqueueUnmapMemObject            = &proc{name: "clEnqueueUnmapMemObject"}
	procEnqueueMarkerWithWaitList        = &proc{name: "clEnqueueMarkerWithWaitList"}
	procEnqueueBarrierWithWaitList       = &proc{name: "clEnqueueBarrierWithWaitList"}
	procWaitForEvents                    = &proc{name: "clWaitForEvents"}
	procGetEventInfo                     = &proc{name: "clGetEventInfo"}
	procGetEventProfilingInfo            = &proc{name: "clGetEventProfilingInfo"}
	procCreateUserEvent                  = &proc{name: "clCreateUserEvent"}
	procSetUserEventStatus               = &proc{name: "clSetUserEventStatus"}
	procSetEventCallback                 = &proc{name: "clSetEventCallback"}
	procReleaseEvent                     = &proc{name: "clReleaseEvent"}
)

// procs lists every entry point, for the loader.
var procs = []*proc{
	procGetPlatformIDs, procGetPlatformInfo, procGetDeviceIDs, procGetDeviceInfo,
	procCreateContext, procGetContextInfo, procReleaseContext,
	procCreateCommandQueue, procCreateCommandQueueWithProperties, procGetCommandQueueInfo,
	procReleaseCommandQueue, procFlush, procFinish,
	procCreateBuffer, procCreateSubBuffer, procGetMemObjectInfo, procReleaseMemObject,
	procSetMemObjectDestructorCallback,
	procCreateProgramWithSource, procCreateProgramWithBinary, procBuildProgram,
	procGetProgramBuildInfo, procGetProgramInfo, procReleaseProgram, procRetainProgram,
	procCreateKernel, procGetKernelInfo, procGetKernelWorkGroupInfo, procSetKernelArg, procReleaseKernel,
	procEnqueueNDRangeKernel, procEnqueueReadBuffer, procEnqueueWriteBuffer,
	procEnqueueReadBufferRect, procEnqueueWriteBufferRect, procEnqueueCopyBuffer,
	procEnqueueCopyBufferRect, procEnqueueFillBuffer, procEnqueueMapBuffer, procEnqueueUnmapMemObject,
	procEnqueueMarkerWithWaitList, procEnqueueBarrierWithWaitList,
	procWaitForEvents, procGetEventInfo, procGetEventProfilingInfo, procCreateUserEvent,
	procSetUserEventStatus, procSetEventCallback, procReleaseEvent,
}

// The functions below are the C API with Go types, one for each entry
// point, in the order of the specification's chapters.

func clGetPlatformIDs(n uint32, ids *clPlatformID, num *uint32) int32 {
	return procGetPlatformIDs.status6(uintptr(n), uintptr(unsafe.Pointer(ids)), uintptr(unsafe.Pointer(num)), 0, 0, 0)
}

func clGetPlatformInfo(p clPlatformID, param uint32, size uintptr, v unsafe.Pointer, ret *uintptr) int32 {
	return procGetPlatformInfo.status6(uintptr(p), uintptr(param), size, uintptr(v), uintptr(unsafe.Pointer(ret)), 0)
}

func clGetDeviceIDs(p clPlatformID, t uint64, n uint32, ids *clDeviceID, num *uint32) int32 {
	return procGetDeviceIDs.status6(uintptr(p), uintptr(t), uintptr(n), uintptr(unsafe.Pointer(ids)), uintptr(unsafe.Pointer(num)), 0)
}

func clGetDeviceInfo(d clDeviceID, param uint32, size uintptr, v unsafe.Pointer, ret *uintptr) int32 {
	return procGetDeviceInfo.status6(uintptr(d), uintptr(param), size, uintptr(v), uintptr(unsafe.Pointer(ret)), 0)
}

func clCreateContext(props *uintptr, n uint32, ids *clDeviceID, st *int32) clContext {
	return clContext(procCreateContext.object6(st, uintptr(unsafe.Pointer(props)), uintptr(n), uintptr(unsafe.Pointer(ids)), 0, 0, uintptr(unsafe.Pointer(st))))
}

func clGetContextInfo(c clContext, param uint32, size uintptr, v unsafe.Pointer, ret *uintptr) int32 {
	return procGetContextInfo.status6(uintptr(c), uintptr(param), size, uintptr(v), uintptr(unsafe.Pointer(ret)), 0)
}

func clReleaseContext(c clContext) int32 {
	return procReleaseContext.status6(uintptr(c), 0, 0, 0, 0, 0)
}

func clCreateCommandQueue(c clContext, d clDeviceID, props uint64, st *int32) clCommandQueue {
	return clCommandQueue(procCreateCommandQueue.object6(st, uintptr(c), uintptr(d), uintptr(props), uintptr(unsafe.Pointer(st)), 0, 0))
}

func clCreateCommandQueueWithProperties(c clContext, d clDeviceID, props *uint64, st *int32) clCommandQueue {
	return clCommandQueue(procCreateCommandQueueWithProperties.object6(st, uintptr(c), uintptr(d), uintptr(unsafe.Pointer(props)), uintptr(unsafe.Pointer(st)), 0, 0))
}

func clGetCommandQueueInfo(q clCommandQueue, param uint32, size uintptr, v unsafe.Pointer, ret *uintptr) int32 {
	return procGetCommandQueueInfo.status6(uintptr(q), uintptr(param), size, uintptr(v), uintptr(unsafe.Pointer(ret)), 0)
}

func clReleaseCommandQueue(q clCommandQueue) int32 {
	return procReleaseCommandQueue.status6(uintptr(q), 0, 0, 0, 0, 0)
}
func clFlush(q clCommandQueue) int32 {
	return procFlush.status6(uintptr(q), 0, 0, 0, 0, 0)
}
func clFinish(q clCommandQueue) int32 {
	return procFinish.status6(uintptr(q), 0, 0, 0, 0, 0)
}

func clCreateBuffer(c clContext, flags uint64, size uintptr, host unsafe.Pointer, st *int32) clMem {
	return clMem(procCreateBuffer.object6(st, uintptr(c), uintptr(flags), size, uintptr(host), uintptr(unsafe.Pointer(st)), 0))
}

func clCreateSubBuffer(m clMem, flags uint64, kind uint32, info *clBufferRegion, st *int32) clMem {
	return clMem(procCreateSubBuffer.object6(st, uintptr(m), uintptr(flags), uintptr(kind), uintptr(unsafe.Pointer(info)), uintptr(unsafe.Pointer(st)), 0))
}

func clGetMemObjectInfo(m clMem, param uint32, size uintptr, v unsafe.Pointer, ret *uintptr) int32 {
	return procGetMemObjectInfo.status6(uintptr(m), uintptr(param), size, uintptr(v), uintptr(unsafe.Pointer(ret)), 0)
}

func clReleaseMemObject(m clMem) int32 {
	return procReleaseMemObject.status6(uintptr(m), 0, 0, 0, 0, 0)
}

func clSetMemObjectDestructorCallback(m clMem, fn, user uintptr) int32 {
	return procSetMemObjectDestructorCallback.status6(uintptr(m), fn, user, 0, 0, 0)
}

// clCreateProgramWithSource takes the sources as pointers to their bytes
// (not NUL-terminated: lens gives each length).
func clCreateProgramWithSource(c clContext, n uint32, srcs *uintptr, lens *uintptr, st *int32) clProgram {
	return clProgram(procCreateProgramWithSource.object6(st, uintptr(c), uintptr(n), uintptr(unsafe.Pointer(srcs)), uintptr(unsafe.Pointer(lens)), uintptr(unsafe.Pointer(st)), 0))
}

func clCreateProgramWithBinary(c clContext, n uint32, ids *clDeviceID, lens *uintptr, bins *uintptr, binStatus *int32, st *int32) clProgram {
	return clProgram(procCreateProgramWithBinary.object(st, uintptr(c), uintptr(n), uintptr(unsafe.Pointer(ids)), uintptr(unsafe.Pointer(lens)), uintptr(unsafe.Pointer(bins)), uintptr(unsafe.Pointer(binStatus)), uintptr(unsafe.Pointer(st)), 0, 0, 0, 0, 0, 0, 0))
}

// clBuildProgram takes the options NUL-terminated.
func clBuildProgram(p clProgram, n uint32, ids *clDeviceID, options *byte) int32 {
	return procBuildProgram.status6(uintptr(p), uintptr(n), uintptr(unsafe.Pointer(ids)), uintptr(unsafe.Pointer(options)), 0, 0)
}

func clGetProgramBuildInfo(p clProgram, d clDeviceID, param uint32, size uintptr, v unsafe.Pointer, ret *uintptr) int32 {
	return procGetProgramBuildInfo.status6(uintptr(p), uintptr(d), uintptr(param), size, uintptr(v), uintptr(unsafe.Pointer(ret)))
}

func clGetProgramInfo(p clProgram, param uint32, size uintptr, v unsafe.Pointer, ret *uintptr) int32 {
	return procGetProgramInfo.status6(uintptr(p), uintptr(param), size, uintptr(v), uintptr(unsafe.Pointer(ret)), 0)
}

func clReleaseProgram(p clProgram) int32 {
	return procReleaseProgram.status6(uintptr(p), 0, 0, 0, 0, 0)
}

func clRetainProgram(p clProgram) int32 {
	return procRetainProgram.status6(uintptr(p), 0, 0, 0, 0, 0)
}

// clCreateKernel takes the name NUL-terminated.
func clCreateKernel(p clProgram, name *byte, st *int32) clKernel {
	return clKernel(procCreateKernel.object6(st, uintptr(p), uintptr(unsafe.Pointer(name)), uintptr(unsafe.Pointer(st)), 0, 0, 0))
}

func clGetKernelInfo(k clKernel, param uint32, size uintptr, v unsafe.Pointer, ret *uintptr) int32 {
	return procGetKernelInfo.status6(uintptr(k), uintptr(param), size, uintptr(v), uintptr(unsafe.Pointer(ret)), 0)
}

func clGetKernelWorkGroupInfo(k clKernel, d clDeviceID, param uint32, size uintptr, v unsafe.Pointer, ret *uintptr) int32 {
	return procGetKernelWorkGroupInfo.status6(uintptr(k), uintptr(d), uintptr(param), size, uintptr(v), uintptr(unsafe.Pointer(ret)))
}

func clSetKernelArg(k clKernel, i uint32, size uintptr, v unsafe.Pointer) int32 {
	return procSetKernelArg.status6(uintptr(k), uintptr(i), size, uintptr(v), 0, 0)
}

func clReleaseKernel(k clKernel) int32 {
	return procReleaseKernel.status6(uintptr(k), 0, 0, 0, 0, 0)
}

func clEnqueueNDRangeKernel(q clCommandQueue, k clKernel, dim uint32, off, global, local *uintptr, n uint32, w *clEvent, ev *clEvent) int32 {
	return procEnqueueNDRangeKernel.status(uintptr(q), uintptr(k), uintptr(dim), uintptr(unsafe.Pointer(off)), uintptr(unsafe.Pointer(global)), uintptr(unsafe.Pointer(local)), uintptr(n), uintptr(unsafe.Pointer(w)), uintptr(unsafe.Pointer(ev)), 0, 0, 0, 0, 0)
}

func clEnqueueReadBuffer(q clCommandQueue, m clMem, blocking uint32, off, size uintptr, host unsafe.Pointer, n uint32, w *clEvent, ev *clEvent) int32 {
	return procEnqueueReadBuffer.status(uintptr(q), uintptr(m), uintptr(blocking), off, size, uintptr(host), uintptr(n), uintptr(unsafe.Pointer(w)), uintptr(unsafe.Pointer(ev)), 0, 0, 0, 0, 0)
}

func clEnqueueWriteBuffer(q clCommandQueue, m clMem, blocking uint32, off, size uintptr, host unsafe.Pointer, n uint32, w *clEvent, ev *clEvent) int32 {
	return procEnqueueWriteBuffer.status(uintptr(q), uintptr(m), uintptr(blocking), off, size, uintptr(host), uintptr(n), uintptr(unsafe.Pointer(w)), uintptr(unsafe.Pointer(ev)), 0, 0, 0, 0, 0)
}

func clEnqueueReadBufferRect(q clCommandQueue, m clMem, blocking uint32, bo, ho, reg *uintptr, brp, bsp, hrp, hsp uintptr, host unsafe.Pointer, n uint32, w *clEvent, ev *clEvent) int32 {
	return procEnqueueReadBufferRect.status(uintptr(q), uintptr(m), uintptr(blocking), uintptr(unsafe.Pointer(bo)), uintptr(unsafe.Pointer(ho)), uintptr(unsafe.Pointer(reg)), brp, bsp, hrp, hsp, uintptr(host), uintptr(n), uintptr(unsafe.Pointer(w)), uintptr(unsafe.Pointer(ev)))
}

func clEnqueueWriteBufferRect(q clCommandQueue, m clMem, blocking uint32, bo, ho, reg *uintptr, brp, bsp, hrp, hsp uintptr, host unsafe.Pointer, n uint32, w *clEvent, ev *clEvent) int32 {
	return procEnqueueWriteBufferRect.status(uintptr(q), uintptr(m), uintptr(blocking), uintptr(unsafe.Pointer(bo)), uintptr(unsafe.Pointer(ho)), uintptr(unsafe.Pointer(reg)), brp, bsp, hrp, hsp, uintptr(host), uintptr(n), uintptr(unsafe.Pointer(w)), uintptr(unsafe.Pointer(ev)))
}

func clEnqueueCopyBuffer(q clCommandQueue, src, dst clMem, so, do, size uintptr, n uint32, w *clEvent, ev *clEvent) int32 {
	return procEnqueueCopyBuffer.status(uintptr(q), uintptr(src), uintptr(dst), so, do, size, uintptr(n), uintptr(unsafe.Pointer(w)), uintptr(unsafe.Pointer(ev)), 0, 0, 0, 0, 0)
}

func clEnqueueCopyBufferRect(q clCommandQueue, src, dst clMem, so, do, reg *uintptr, srp, ssp, drp, dsp uintptr, n uint32, w *clEvent, ev *clEvent) int32 {
	return procEnqueueCopyBufferRect.status(uintptr(q), uintptr(src), uintptr(dst), uintptr(unsafe.Pointer(so)), uintptr(unsafe.Pointer(do)), uintptr(unsafe.Pointer(reg)), srp, ssp, drp, dsp, uintptr(n), uintptr(unsafe.Pointer(w)), uintptr(unsafe.Pointer(ev)), 0)
}

func clEnqueueFillBuffer(q clCommandQueue, m clMem, pattern unsafe.Pointer, psize, off, size uintptr, n uint32, w *clEvent, ev *clEvent) int32 {
	return procEnqueueFillBuffer.status(uintptr(q), uintptr(m), uintptr(pattern), psize, off, size, uintptr(n), uintptr(unsafe.Pointer(w)), uintptr(unsafe.Pointer(ev)), 0, 0, 0, 0, 0)
}

// clEnqueueMapBuffer returns the mapped address, which is the driver's
// memory, as an unsafe.Pointer.
func clEnqueueMapBuffer(q clCommandQueue, m clMem, blocking uint32, flags uint64, off, size uintptr, n uint32, w *clEvent, ev *clEvent, st *int32) unsafe.Pointer {
	r := procEnqueueMapBuffer.object(st, uintptr(q), uintptr(m), uintptr(blocking), uintptr(flags), off, size, uintptr(n), uintptr(unsafe.Pointer(w)), uintptr(unsafe.Pointer(ev)), uintptr(unsafe.Pointer(st)), 0, 0, 0, 0)
	return *(*unsafe.Pointer)(unsafe.Pointer(&r))
}

func clEnqueueUnmapMemObject(q clCommandQueue, m clMem, mapped unsafe.Pointer, n uint32, w *clEvent, ev *clEvent) int32 {
	return procEnqueueUnmapMemObject.status6(uintptr(q), uintptr(m), uintptr(mapped), uintptr(n), uintptr(unsafe.Pointer(w)), uintptr(unsafe.Pointer(ev)))
}

func clEnqueueMarkerWithWaitList(q clCommandQueue, n uint32, w *clEvent, ev *clEvent) int32 {
	return procEnqueueMarkerWithWaitList.status6(uintptr(q), uintptr(n), uintptr(unsafe.Pointer(w)), uintptr(unsafe.Pointer(ev)), 0, 0)
}

func clEnqueueBarrierWithWaitList(q clCommandQueue, n uint32, w *clEvent, ev *clEvent) int32 {
	return procEnqueueBarrierWithWaitList.status6(uintptr(q), uintptr(n), uintptr(unsafe.Pointer(w)), uintptr(unsafe.Pointer(ev)), 0, 0)
}

func clWaitForEvents(n uint32, w *clEvent) int32 {
	return procWaitForEvents.status6(uintptr(n), uintptr(unsafe.Pointer(w)), 0, 0, 0, 0)
}

func clGetEventInfo(e clEvent, param uint32, size uintptr, v unsafe.Pointer, ret *uintptr) int32 {
	return procGetEventInfo.status6(uintptr(e), uintptr(param), size, uintptr(v), uintptr(unsafe.Pointer(ret)), 0)
}

func clGetEventProfilingInfo(e clEvent, param uint32, size uintptr, v unsafe.Pointer, ret *uintptr) int32 {
	return procGetEventProfilingInfo.status6(uintptr(e), uintptr(param), size, uintptr(v), uintptr(unsafe.Pointer(ret)), 0)
}

func clCreateUserEvent(c clContext, st *int32) clEvent {
	return clEvent(procCreateUserEvent.object6(st, uintptr(c), uintptr(unsafe.Pointer(st)), 0, 0, 0, 0))
}

func clSetUserEventStatus(e clEvent, s int32) int32 {
	return procSetUserEventStatus.status6(uintptr(e), uintptr(s), 0, 0, 0, 0)
}

func clSetEventCallback(e clEvent, kind int32, fn, user uintptr) int32 {
	return procSetEventCallback.status6(uintptr(e), uintptr(kind), fn, user, 0, 0)
}

func clReleaseEvent(e clEvent) int32 {
	return procReleaseEvent.status6(uintptr(e), 0, 0, 0, 0, 0)
}
