package cl

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// ErrorCode is an OpenCL status code. Its Error method returns the CL_* name,
// so a wrapped error prints as "cl: clBuildProgram: CL_BUILD_PROGRAM_FAILURE".
type ErrorCode int32

// Error returns the CL_* name of the code, or CL_ERROR(n) for an unknown one.
func (e ErrorCode) Error() string {
	if s, ok := errorNames[e]; ok {
		return s
	}
	return "CL_ERROR(" + strconv.Itoa(int(e)) + ")"
}

// The OpenCL status codes callers most often test for with errors.Is.
const (
	DeviceNotFound            ErrorCode = -1
	DeviceNotAvailable        ErrorCode = -2
	CompilerNotAvailable      ErrorCode = -3
	MemObjectAllocationFail   ErrorCode = -4
	OutOfResources            ErrorCode = -5
	OutOfHostMemory           ErrorCode = -6
	ProfilingInfoNotAvail     ErrorCode = -7
	BuildProgramFailure       ErrorCode = -11
	ExecStatusErrorForEvents  ErrorCode = -14
	InvalidValue              ErrorCode = -30
	InvalidDevice             ErrorCode = -33
	InvalidContext            ErrorCode = -34
	InvalidQueueProperties    ErrorCode = -35
	InvalidCommandQueue       ErrorCode = -36
	InvalidMemObject          ErrorCode = -38
	InvalidBinary             ErrorCode = -42
	InvalidBuildOptions       ErrorCode = -43
	InvalidProgram            ErrorCode = -44
	InvalidProgramExecutable  ErrorCode = -45
	InvalidKernelName         ErrorCode = -46
	InvalidKernel             ErrorCode = -48
	InvalidArgIndex           ErrorCode = -49
	InvalidArgValue           ErrorCode = -50
	InvalidArgSize            ErrorCode = -51
	InvalidKernelArgs         ErrorCode = -52
	InvalidWorkDimension      ErrorCode = -53
	InvalidWorkGroupSize      ErrorCode = -54
	InvalidWorkItemSize       ErrorCode = -55
	InvalidGlobalOffset       ErrorCode = -56
	InvalidEventWaitList      ErrorCode = -57
	InvalidEvent              ErrorCode = -58
	InvalidOperation          ErrorCode = -59
	InvalidBufferSize         ErrorCode = -61
	InvalidGlobalWorkSize     ErrorCode = -63
	InvalidProperty           ErrorCode = -64
	MemCopyOverlap            ErrorCode = -8
	MapFailure                ErrorCode = -12
	MisalignedSubBufferOffset ErrorCode = -13
	CompileProgramFailure     ErrorCode = -15
	LinkProgramFailure        ErrorCode = -17
	InvalidPlatform           ErrorCode = -32
	InvalidHostPtr            ErrorCode = -37
	InvalidKernelDefinition   ErrorCode = -47
	PlatformNotFoundKHR       ErrorCode = -1001
)

var errorNames = map[ErrorCode]string{
	-1142: "CL_INVALID_SEMAPHORE_KHR",
	-1141: "CL_INVALID_MUTABLE_COMMAND_KHR",
	-1140: "CL_INCOMPATIBLE_COMMAND_QUEUE_KHR",
	-1139: "CL_INVALID_SYNC_POINT_WAIT_LIST_KHR",
	-1138: "CL_INVALID_COMMAND_BUFFER_KHR",
	-1121: "CL_CONTEXT_TERMINATED_KHR",
	-1108: "CL_COMMAND_TERMINATED_ITSELF_WITH_FAILURE_ARM",
	-1097: "CL_ACCELERATOR_TYPE_NOT_SUPPORTED_INTEL",
	-1096: "CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL",
	-1095: "CL_INVALID_ACCELERATOR_TYPE_INTEL",
	-1094: "CL_INVALID_ACCELERATOR_INTEL",
	-1059: "CL_INVALID_PARTITION_NAME_EXT",
	-1058: "CL_INVALID_PARTITION_COUNT_EXT",
	-1057: "CL_DEVICE_PARTITION_FAILED_EXT",
	-1001: "CL_PLATFORM_NOT_FOUND_KHR",
	-72:   "CL_MAX_SIZE_RESTRICTION_EXCEEDED",
	-71:   "CL_INVALID_SPEC_ID",
	-70:   "CL_INVALID_DEVICE_QUEUE",
	-69:   "CL_INVALID_PIPE_SIZE",
	-68:   "CL_INVALID_DEVICE_PARTITION_COUNT",
	-67:   "CL_INVALID_LINKER_OPTIONS",
	-66:   "CL_INVALID_COMPILER_OPTIONS",
	-65:   "CL_INVALID_IMAGE_DESCRIPTOR",
	-64:   "CL_INVALID_PROPERTY",
	-63:   "CL_INVALID_GLOBAL_WORK_SIZE",
	-62:   "CL_INVALID_MIP_LEVEL",
	-61:   "CL_INVALID_BUFFER_SIZE",
	-60:   "CL_INVALID_GL_OBJECT",
	-59:   "CL_INVALID_OPERATION",
	-58:   "CL_INVALID_EVENT",
	-57:   "CL_INVALID_EVENT_WAIT_LIST",
	-56:   "CL_INVALID_GLOBAL_OFFSET",
	-55:   "CL_INVALID_WORK_ITEM_SIZE",
	-54:   "CL_INVALID_WORK_GROUP_SIZE",
	-53:   "CL_INVALID_WORK_DIMENSION",
	-52:   "CL_INVALID_KERNEL_ARGS",
	-51:   "CL_INVALID_ARG_SIZE",
	-50:   "CL_INVALID_ARG_VALUE",
	-49:   "CL_INVALID_ARG_INDEX",
	-48:   "CL_INVALID_KERNEL",
	-47:   "CL_INVALID_KERNEL_DEFINITION",
	-46:   "CL_INVALID_KERNEL_NAME",
	-45:   "CL_INVALID_PROGRAM_EXECUTABLE",
	-44:   "CL_INVALID_PROGRAM",
	-43:   "CL_INVALID_BUILD_OPTIONS",
	-42:   "CL_INVALID_BINARY",
	-41:   "CL_INVALID_SAMPLER",
	-40:   "CL_INVALID_IMAGE_SIZE",
	-39:   "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR",
	-38:   "CL_INVALID_MEM_OBJECT",
	-37:   "CL_INVALID_HOST_PTR",
	-36:   "CL_INVALID_COMMAND_QUEUE",
	-35:   "CL_INVALID_QUEUE_PROPERTIES",
	-34:   "CL_INVALID_CONTEXT",
	-33:   "CL_INVALID_DEVICE",
	-32:   "CL_INVALID_PLATFORM",
	-31:   "CL_INVALID_DEVICE_TYPE",
	-30:   "CL_INVALID_VALUE",
	-19:   "CL_KERNEL_ARG_INFO_NOT_AVAILABLE",
	-18:   "CL_DEVICE_PARTITION_FAILED",
	-17:   "CL_LINK_PROGRAM_FAILURE",
	-16:   "CL_LINKER_NOT_AVAILABLE",
	-15:   "CL_COMPILE_PROGRAM_FAILURE",
	-14:   "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST",
	-13:   "CL_MISALIGNED_SUB_BUFFER_OFFSET",
	-12:   "CL_MAP_FAILURE",
	-11:   "CL_BUILD_PROGRAM_FAILURE",
	-10:   "CL_IMAGE_FORMAT_NOT_SUPPORTED",
	-9:    "CL_IMAGE_FORMAT_MISMATCH",
	-8:    "CL_MEM_COPY_OVERLAP",
	-7:    "CL_PROFILING_INFO_NOT_AVAILABLE",
	-6:    "CL_OUT_OF_HOST_MEMORY",
	-5:    "CL_OUT_OF_RESOURCES",
	-4:    "CL_MEM_OBJECT_ALLOCATION_FAILURE",
	-3:    "CL_COMPILER_NOT_AVAILABLE",
	-2:    "CL_DEVICE_NOT_AVAILABLE",
	-1:    "CL_DEVICE_NOT_FOUND",
	0:     "CL_SUCCESS",
}

// ErrReleased is returned when an object is used after its Release.
var ErrReleased = errors.New("cl: object already released")

// ErrNotSupported is returned for a call the platform or device cannot do,
// such as a 2.0 feature on a 1.2 device. The wrapping error says what.
var ErrNotSupported = errors.New("cl: not supported by this platform or device")

// Error is a failed OpenCL call: the operation and the status it returned.
type Error struct {
	Op   string    // the OpenCL entry point, e.g. "clEnqueueNDRangeKernel"
	Code ErrorCode // the status it returned
}

func (e *Error) Error() string { return "cl: " + e.Op + ": " + e.Code.Error() }

// Unwrap returns the ErrorCode, so errors.Is(err, cl.InvalidArgSize) works.
func (e *Error) Unwrap() error { return e.Code }

// check turns an OpenCL status into nil or an *Error naming op.
func check(op string, status int32) error {
	if status == 0 {
		return nil
	}
	if status == statusNoRuntime || status == statusNoSymbol {
		return callError(op, status)
	}
	return &Error{Op: op, Code: ErrorCode(status)}
}

// BuildError is returned when a program fails to build. It carries the
// options used and every device's build log, which holds the compiler's
// messages.
type BuildError struct {
	Err     error             // the underlying *Error (CL_BUILD_PROGRAM_FAILURE, …)
	Options string            // the build options passed to the compiler
	Logs    map[string]string // device name → build log
}

func (e *BuildError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v (options %q)", e.Err, e.Options)
	for _, dev := range slices.Sorted(maps.Keys(e.Logs)) {
		fmt.Fprintf(&b, "\n--- build log for %s ---\n%s", dev, strings.TrimSpace(e.Logs[dev]))
	}
	return b.String()
}

// Unwrap returns the underlying error, so errors.Is(err,
// cl.BuildProgramFailure) works.
func (e *BuildError) Unwrap() error { return e.Err }
