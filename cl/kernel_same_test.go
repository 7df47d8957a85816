package cl

import (
	"errors"
	"testing"
)

// TestSetArgsSameValues: SetArgs with every value already set makes no
// driver call, yet still reports what the full path reports: too few or
// too many arguments, a released buffer, a released kernel.
func TestSetArgsSameValues(t *testing.T) {
	e := newEnv(t, 0)
	k := e.kernel(t, `kernel void k(global int* out, int v, float w) { out[0] = v + (int)w; }`, "k")
	b := e.buffer(t, MemReadWrite, 4)
	if err := k.SetArgs(b, int32(3), float32(4)); err != nil {
		t.Fatal(err)
	}
	before := setArgCalls.Load()
	if err := k.SetArgs(b, int32(3), float32(4)); err != nil {
		t.Fatal(err)
	}
	if got := setArgCalls.Load() - before; got != 0 {
		t.Errorf("the same values again: %d clSetKernelArg calls, want 0", got)
	}
	if err := k.SetArgs(b, int32(3)); !errors.Is(err, InvalidKernelArgs) {
		t.Errorf("two of three arguments, both already set: %v, want CL_INVALID_KERNEL_ARGS", err)
	}
	if err := k.SetArgs(b, int32(3), float32(4), int32(0)); !errors.Is(err, InvalidKernelArgs) {
		t.Errorf("four arguments for three: %v, want CL_INVALID_KERNEL_ARGS", err)
	}
	if err := k.SetArgs(b, int32(3), 4.0); err == nil {
		t.Errorf("a float64 for a float parameter was accepted")
	}
	b2 := e.buffer(t, MemReadWrite, 4)
	if err := k.SetArgs(b2, int32(3), float32(4)); err != nil {
		t.Fatal(err)
	}
	b2.Release()
	if err := k.SetArgs(b2, int32(3), float32(4)); !errors.Is(err, ErrReleased) {
		t.Errorf("the same values with the buffer released: %v, want ErrReleased", err)
	}
	if err := k.SetArgs(b, int32(3), float32(4)); err != nil {
		t.Fatal(err)
	}
	k.Release()
	if err := k.SetArgs(b, int32(3), float32(4)); !errors.Is(err, ErrReleased) {
		t.Errorf("the same values on a released kernel: %v, want ErrReleased", err)
	}
}
