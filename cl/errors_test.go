package cl

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestErrorCodeNames(t *testing.T) {
	for _, c := range []struct {
		code ErrorCode
		want string
	}{
		{0, "CL_SUCCESS"},
		{DeviceNotFound, "CL_DEVICE_NOT_FOUND"},
		{BuildProgramFailure, "CL_BUILD_PROGRAM_FAILURE"},
		{InvalidArgSize, "CL_INVALID_ARG_SIZE"},
		{InvalidKernelArgs, "CL_INVALID_KERNEL_ARGS"},
		{InvalidBinary, "CL_INVALID_BINARY"},
		{-13, "CL_MISALIGNED_SUB_BUFFER_OFFSET"},
		{PlatformNotFoundKHR, "CL_PLATFORM_NOT_FOUND_KHR"},
		{-9999, "CL_ERROR(-9999)"},
		{7, "CL_ERROR(7)"},
	} {
		if got := c.code.Error(); got != c.want {
			t.Errorf("ErrorCode(%d).Error() = %q, want %q", int32(c.code), got, c.want)
		}
	}
}

func TestErrorWrapping(t *testing.T) {
	base := &Error{Op: "clEnqueueNDRangeKernel", Code: InvalidKernelArgs}
	if got, want := base.Error(), "cl: clEnqueueNDRangeKernel: CL_INVALID_KERNEL_ARGS"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	err := fmt.Errorf("blas: sgemm: %w", fmt.Errorf("launch: %w", base))
	if !errors.Is(err, InvalidKernelArgs) {
		t.Error("errors.Is through two fmt.Errorf wraps failed")
	}
	if errors.Is(err, InvalidArgSize) {
		t.Error("errors.Is matched the wrong code")
	}
	var ce *Error
	if !errors.As(err, &ce) || ce.Op != "clEnqueueNDRangeKernel" {
		t.Errorf("errors.As: %v", ce)
	}
	var code ErrorCode
	if !errors.As(err, &code) || code != InvalidKernelArgs {
		t.Errorf("errors.As(ErrorCode) = %v", code)
	}
	be := &BuildError{Err: &Error{Op: "clBuildProgram", Code: BuildProgramFailure}, Options: "-DN=4", Logs: map[string]string{"b": "log b", "a": "log a"}}
	if !errors.Is(fmt.Errorf("x: %w", be), BuildProgramFailure) {
		t.Error("BuildError does not unwrap to its code")
	}
	if s := be.Error(); strings.Index(s, "log a") > strings.Index(s, "log b") {
		t.Errorf("build logs not in device-name order:\n%s", s)
	}
	if !errors.Is(CommandStatus(-5).Err(), OutOfResources) || Complete.Err() != nil {
		t.Error("CommandStatus.Err")
	}
	if s := CommandStatus(-5).String(); !strings.Contains(s, "CL_OUT_OF_RESOURCES") {
		t.Errorf("CommandStatus(-5).String() = %q", s)
	}
}

func TestBuildError(t *testing.T) {
	e := newEnv(t, 0)
	p, err := e.ctx.CreateProgramWithSource("__kernel void broken(__global float* x) { x[0] = undeclared_thing + ; }")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	const opts = "-DMY_OPTION=42 -cl-mad-enable"
	err = p.Build(nil, opts)
	if err == nil {
		t.Fatal("a kernel with a syntax error built")
	}
	var be *BuildError
	if !errors.As(err, &be) {
		t.Fatalf("error %T is not a *BuildError: %v", err, err)
	}
	if !errors.Is(err, BuildProgramFailure) {
		t.Errorf("errors.Is(err, BuildProgramFailure) is false: %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"CL_BUILD_PROGRAM_FAILURE", opts, "undeclared_thing", e.d.Name()} {
		if !strings.Contains(msg, want) {
			t.Errorf("build error lacks %q:\n%s", want, msg)
		}
	}
	if be.Options != opts || len(be.Logs) != 1 {
		t.Errorf("Options %q, %d logs", be.Options, len(be.Logs))
	}
	for _, log := range be.Logs {
		if !strings.Contains(log, "error") {
			t.Errorf("build log has no compiler error:\n%s", log)
		}
	}
	if log := p.BuildLog(e.d); !strings.Contains(log, "undeclared_thing") {
		t.Errorf("BuildLog: %q", log)
	}
	t.Log(err)
}

func TestKernelArgErrors(t *testing.T) {
	e := newEnv(t, 0)
	k := e.kernel(t, axpySrc, "axpy")
	if n, err := k.NumArgs(); err != nil || n != 3 {
		t.Fatalf("NumArgs = %d, %v", n, err)
	}
	x := e.buffer(t, MemReadWrite, 64)

	// Two of three arguments: SetArgs refuses them, saying which is
	// missing; set one by one, the launch fails.
	if err := k.SetArgs(float32(2), x); !errors.Is(err, InvalidKernelArgs) || !strings.Contains(err.Error(), "argument 2 is missing") {
		t.Errorf("SetArgs with two of three arguments: got %v", err)
	}
	if err := SetArg(k, 0, float32(2)); err != nil {
		t.Fatal(err)
	}
	if err := k.SetArgBuffer(1, x); err != nil {
		t.Fatal(err)
	}
	_, err := e.q.EnqueueKernel(k, []int{16}, nil)
	if !errors.Is(err, InvalidKernelArgs) || !strings.Contains(err.Error(), "CL_INVALID_KERNEL_ARGS") {
		t.Errorf("missing argument: got %v", err)
	}

	// float64 for a float parameter.
	err = SetArg(k, 0, float64(2))
	if !errors.Is(err, InvalidArgSize) || !strings.Contains(err.Error(), "CL_INVALID_ARG_SIZE") {
		t.Errorf("wrong size: got %v", err)
	}
	// An index past the last parameter.
	if err := SetArg(k, 3, float32(1)); !errors.Is(err, InvalidArgIndex) {
		t.Errorf("index 3: got %v", err)
	}
	if err := SetArg(k, -1, float32(1)); !errors.Is(err, InvalidArgIndex) {
		t.Errorf("index -1: got %v", err)
	}
	// Go's int has no OpenCL counterpart.
	for _, bad := range []any{int(2), uint(2), "x", nil, []float32{1}} {
		err := k.SetArgs(bad)
		if err == nil || !errors.Is(err, InvalidArgValue) {
			t.Errorf("SetArgs(%T) = %v", bad, err)
		}
	}
	if err := k.SetArgs(int(2)); !strings.Contains(err.Error(), "int") {
		t.Errorf("SetArgs(int) error does not name the type: %v", err)
	}
	if err := k.SetArgLocal(1, 0); !errors.Is(err, InvalidArgSize) {
		t.Errorf("SetArgLocal(0) = %v", err)
	}
	// Bad NDRange shapes are caught before the driver.
	if err := k.SetArgs(float32(1), x, x); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		global, local []int
		want          ErrorCode
	}{
		{nil, nil, InvalidWorkDimension},
		{[]int{1, 1, 1, 1}, nil, InvalidWorkDimension},
		{[]int{16}, []int{4, 4}, InvalidWorkDimension},
		{[]int{0}, nil, InvalidGlobalWorkSize},
		{[]int{16}, []int{0}, InvalidWorkGroupSize},
	} {
		if _, err := e.q.EnqueueKernel(k, c.global, c.local); !errors.Is(err, c.want) {
			t.Errorf("EnqueueKernel(%v, %v) = %v, want %v", c.global, c.local, err, c.want)
		}
	}
	if _, err := e.q.EnqueueKernel(nil, []int{1}, nil); !errors.Is(err, InvalidKernel) {
		t.Errorf("nil kernel: %v", err)
	}
	// With every argument right it runs.
	wait(t, ev(t)(e.q.EnqueueKernel(k, []int{16}, nil)))
}
