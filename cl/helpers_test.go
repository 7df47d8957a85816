package cl

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

// requireDevice is GOCL_REQUIRE_DEVICE=1: a missing device fails the
// tests instead of skipping them (CI machines that have one set it).
var requireDevice = os.Getenv("GOCL_REQUIRE_DEVICE") == "1"

func TestMain(m *testing.M) {
	flag.Parse()
	// Examples cannot skip themselves: without a device, skip them here
	// (unless a device is required, when they should fail).
	if d, _ := findDevice(); d == nil && !requireDevice {
		skip := "^Example"
		if old := flag.Lookup("test.skip").Value.String(); old != "" {
			skip = old + "|" + skip
		}
		flag.Set("test.skip", skip)
		fmt.Fprintln(os.Stderr, "cl: no OpenCL device: skipping examples")
	}
	os.Exit(m.Run())
}

// findDevice returns the first device of the first platform that has one;
// with GOCL_DEVICE set, the first whose platform or device name contains
// it (case-insensitive; the platform package's fuller syntax is not
// understood here, so a spec that names no device falls back to the first).
func findDevice() (*Device, error) {
	ps, err := Platforms()
	if err != nil {
		return nil, err
	}
	want := strings.ToLower(os.Getenv("GOCL_DEVICE"))
	var first *Device
	for _, p := range ps {
		ds, err := p.Devices(DeviceTypeAll)
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			if first == nil {
				first = d
			}
			if want != "" && strings.Contains(strings.ToLower(p.Name()+" "+d.Name()), want) {
				return d, nil
			}
		}
	}
	return first, nil
}

// noDevice skips the test with the reason, or fails it when a device is
// required.
func noDevice(t testing.TB, format string, args ...any) {
	t.Helper()
	reason := fmt.Sprintf(format, args...)
	if requireDevice {
		t.Fatalf("%s (GOCL_REQUIRE_DEVICE=1)", reason)
	}
	t.Skip(reason)
}

// testDevice returns the first OpenCL device found through Platforms.
func testDevice(t testing.TB) *Device {
	t.Helper()
	d, err := findDevice()
	if err != nil {
		noDevice(t, "cl.Platforms: %v", err)
	}
	if d == nil {
		noDevice(t, "no OpenCL device found by cl.Platforms")
	}
	return d
}

// env is a device with a context and a queue, released when the test ends.
type env struct {
	d   *Device
	ctx *Context
	q   *Queue
}

func newEnv(t testing.TB, props QueueProperties) *env {
	t.Helper()
	d := testDevice(t)
	ctx, err := CreateContext(d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ctx.Release() })
	q, err := ctx.CreateQueue(d, props)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Release() })
	return &env{d: d, ctx: ctx, q: q}
}

// program builds source and releases the program when the test ends.
func (e *env) program(t testing.TB, source, options string) *Program {
	t.Helper()
	p, err := e.ctx.CreateProgramWithSource(source)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Release() })
	if err := p.Build(nil, options); err != nil {
		t.Fatal(err)
	}
	return p
}

func (e *env) kernel(t testing.TB, source, name string) *Kernel {
	t.Helper()
	k, err := e.program(t, source, "").CreateKernel(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { k.Release() })
	return k
}

func (e *env) buffer(t testing.TB, flags MemFlags, size int) *Buffer {
	t.Helper()
	b, err := e.ctx.CreateBuffer(flags, size)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Release() })
	return b
}

// ev returns a function that fails the test on error and otherwise
// returns the event, released when the test ends:
// ev(t)(q.EnqueueMarker()).
func ev(t testing.TB) func(*Event, error) *Event {
	return func(e *Event, err error) *Event {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Release() })
		return e
	}
}

func wait(t testing.TB, events ...*Event) {
	t.Helper()
	if err := WaitForEvents(events...); err != nil {
		t.Fatal(err)
	}
}

const (
	// axpySrc: y[i] += a*x[i].
	axpySrc = `__kernel void axpy(float a, __global const float* x, __global float* y) {
	size_t i = get_global_id(0);
	y[i] += a * x[i];
}`
	// scaleSrc: x[i] *= s.
	scaleSrc = `__kernel void scale(__global float* x, float s) { x[get_global_id(0)] *= s; }`
)
