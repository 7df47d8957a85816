package cl

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

const guardedSaxpySrc = `__kernel void saxpy(const int n, const float a, __global const float* x, __global float* y) {
	const int i = get_global_id(0);
	if (i >= n) return;
	y[i] += a * x[i];
}`

// TestLaunchRoundsUp: a global size that is not a multiple of the local
// size is rounded up, the guard keeps the extra work-items out, and typed
// arrays are accepted as buffer arguments with element offsets.
func TestLaunchRoundsUp(t *testing.T) {
	e := newEnv(t, 0)
	k := e.kernel(t, guardedSaxpySrc, "saxpy")
	const n = 100
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(i)
	}
	x, err := NewArrayFrom(e.ctx, MemReadOnly, xs)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Release()
	// One element more than the kernel writes, to show it is left alone.
	y, err := NewArray[float32](e.ctx, MemReadWrite, n+1)
	if err != nil {
		t.Fatal(err)
	}
	defer y.Release()
	wait(t, ev(t)(y.Fill(e.q, 1, 0, n+1)))
	wait(t, ev(t)(e.q.Launch(k, []int{n}, []int{16}, int32(n), float32(2), x, y)))
	got := make([]float32, n+1)
	if err := y.Read(e.q, 0, got); err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		want := float32(1)
		if i < n {
			want += 2 * float32(i)
		}
		if v != want {
			t.Fatalf("y[%d] = %v, want %v", i, v, want)
		}
	}
	tail := make([]float32, 3)
	if err := y.Read(e.q, n-2, tail); err != nil {
		t.Fatal(err)
	}
	if want := []float32{1 + 2*98, 1 + 2*99, 1}; !slices.Equal(tail, want) {
		t.Fatalf("elements %d… = %v, want %v", n-2, tail, want)
	}
	if RoundUp(100, 16) != 112 || RoundUp(96, 16) != 96 || RoundUp(5, 0) != 5 {
		t.Error("RoundUp")
	}
}

// TestSetArgsCount: too few or too many arguments are an error that says
// which, before anything is enqueued.
func TestSetArgsCount(t *testing.T) {
	e := newEnv(t, 0)
	k := e.kernel(t, guardedSaxpySrc, "saxpy")
	x := e.buffer(t, MemReadWrite, 16)
	for _, tc := range []struct {
		args []any
		want string
	}{
		{[]any{int32(4), float32(1), x}, "argument 3 is missing"},
		{[]any{int32(4)}, "arguments 1 to 3 are missing"},
		{[]any{int32(4), float32(1), x, x, x}, "argument 4 does not exist"},
	} {
		err := k.SetArgs(tc.args...)
		if !errors.Is(err, InvalidKernelArgs) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%d arguments: err = %v, want CL_INVALID_KERNEL_ARGS saying %q", len(tc.args), err, tc.want)
		}
		if _, err := e.q.Launch(k, []int{4}, nil, tc.args...); !errors.Is(err, InvalidKernelArgs) {
			t.Errorf("Launch with %d arguments: err = %v", len(tc.args), err)
		}
	}
	if err := k.SetArgs(int32(4), float32(1), x, x); err != nil {
		t.Errorf("the right arguments: %v", err)
	}
	// A float64 for a float parameter: the driver refuses its size; the
	// error names the argument and the Go type given.
	_, err := e.q.Launch(k, []int{4}, nil, int32(4), float64(1), x, x)
	if !errors.Is(err, InvalidArgSize) || !strings.Contains(err.Error(), "argument 1") || !strings.Contains(err.Error(), "float64") {
		t.Errorf("float64 for a float: err = %v", err)
	}
}

// TestLaunchWorkGroupTooLarge: a local size over the kernel's limit names
// the limit.
func TestLaunchWorkGroupTooLarge(t *testing.T) {
	e := newEnv(t, 0)
	k := e.kernel(t, guardedSaxpySrc, "saxpy")
	info, err := k.WorkGroupInfo(e.d)
	if err != nil {
		t.Fatal(err)
	}
	x := e.buffer(t, MemReadWrite, 16)
	big := info.WorkGroupSize * 2
	_, err = e.q.Launch(k, []int{big}, []int{big}, int32(4), float32(1), x, x)
	if !errors.Is(err, InvalidWorkGroupSize) {
		t.Fatalf("local size %d: err = %v, want CL_INVALID_WORK_GROUP_SIZE", big, err)
	}
	if !strings.Contains(err.Error(), "at most") {
		t.Errorf("error %q does not give the kernel's limit", err)
	}
}

// TestArrayUnits: sizes and offsets are elements; ArrayOf refuses a buffer
// that is not whole elements; Sub is a view.
func TestArrayUnits(t *testing.T) {
	e := newEnv(t, 0)
	a, err := NewArrayFrom(e.ctx, MemReadWrite, []float64{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	if a.Len() != 4 || a.Buffer().Size() != 32 {
		t.Fatalf("Len %d, Size %d bytes", a.Len(), a.Buffer().Size())
	}
	wait(t, ev(t)(a.Write(e.q, 2, []float64{30, 40})))
	b, err := NewArray[float64](e.ctx, MemReadWrite, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	wait(t, ev(t)(b.Fill(e.q, 0, 0, 4)))
	wait(t, ev(t)(a.CopyTo(e.q, b, 1, 0, 3)))
	got := make([]float64, 4)
	if err := b.Read(e.q, 0, got); err != nil {
		t.Fatal(err)
	}
	if want := []float64{2, 30, 40, 0}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if _, err := ArrayOf[float64](e.buffer(t, MemReadWrite, 12)); !errors.Is(err, InvalidBufferSize) {
		t.Errorf("ArrayOf a 12-byte buffer as float64: %v", err)
	}
	if _, err := NewArray[int32](e.ctx, MemReadWrite, 0); !errors.Is(err, InvalidBufferSize) {
		t.Errorf("NewArray(0): %v", err)
	}
	if _, err := a.Sub(3, 2); !errors.Is(err, InvalidValue) {
		t.Errorf("Sub past the end: %v", err)
	}
	s, err := a.Sub(0, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Release()
	two := make([]float64, 2)
	if err := s.Read(e.q, 0, two); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(two, []float64{1, 2}) {
		t.Errorf("Sub(0, 2) holds %v", two)
	}
}

// TestEventDoneWaitContext drives a user event: Done stays open and a
// cancelled WaitContext returns at once while it is pending; completion
// closes Done and ends the wait; a failure is the wait's error.
func TestEventDoneWaitContext(t *testing.T) {
	e := newEnv(t, 0)
	u, err := e.ctx.CreateUserEvent()
	if err != nil {
		t.Fatal(err)
	}
	defer u.Release()
	select {
	case <-u.Done():
		t.Fatal("Done closed before the event completed")
	case <-time.After(20 * time.Millisecond):
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := u.WaitContext(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled WaitContext: %v", err)
	}
	waited := make(chan error, 1)
	go func() { waited <- u.WaitContext(context.Background()) }()
	if err := u.SetComplete(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-u.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("Done not closed after completion")
	}
	if err := <-waited; err != nil {
		t.Fatalf("WaitContext: %v", err)
	}
	tctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
	defer stop()
	if err := u.WaitContext(tctx); err != nil {
		t.Fatalf("WaitContext after completion: %v", err)
	}

	f, err := e.ctx.CreateUserEvent()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Release()
	if err := f.SetFailed(OutOfResources); err != nil {
		t.Fatal(err)
	}
	var ce *CommandError
	if err := f.WaitContext(tctx); !errors.As(err, &ce) {
		t.Fatalf("WaitContext on a failed event: %v, want a *CommandError", err)
	}
}
