package engine

import (
	"log/slog"
	"math"
	"testing"

	"github.com/gocompute/opencl/platform/platformtest"
	"gonum.org/v1/gonum/blas/gonum"
)

// TestDeviceSeamNames: the generic device counts each call under gonum's
// name of the routine in its precision (Stats, the launch counts and error
// messages use it), and its float64-accumulated dots also work on float64
// vectors (there they are dot products), though the float64 front end
// never asks for them.
func TestDeviceSeamNames(t *testing.T) {
	e := testEngine(t)
	x := []float32{1, 2, 3, 4, 5}
	y := []float32{0.5, -1, 2, 0.25, 3}
	for _, name := range []string{"Sdot", "Isamax"} {
		before := e.Launched.Of(name)
		d := Device[float32]{E: e}
		var err error
		if name == "Sdot" {
			_, err = d.Dot(len(x), x, 1, y, 1)
		} else {
			_, err = d.Iamax(len(x), x, 1)
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if e.Launched.Of(name) != before+1 {
			t.Errorf("%s was not counted under its name", name)
		}
	}
	if !e.Prof.FP64 {
		t.Skip("the device has no fp64")
	}
	d := Device[float64]{E: e}
	x64 := []float64{1, 2, 3, 4, 5}
	y64 := []float64{0.5, -1, 2, 0.25, 3}
	want := gonum.Implementation{}.Ddot(len(x64), x64, 1, y64, 1)
	before := e.Launched.Of("Dsdot")
	got, err := d.Dsdot(len(x64), x64, 1, y64, 1)
	if err != nil {
		t.Fatalf("Dsdot on float64: %v", err)
	}
	if math.Abs(got-want) > 1e-12 {
		t.Errorf("Dsdot on float64 = %v, want %v", got, want)
	}
	if e.Launched.Of("Dsdot") != before+1 {
		t.Error("Dsdot on float64 was not counted")
	}
	s, err := d.Sdsdot(len(x64), 0.5, x64, 1, y64, 1)
	if err != nil || math.Abs(s-(0.5+want)) > 1e-12 {
		t.Errorf("Sdsdot on float64 = %v, %v; want %v", s, err, 0.5+want)
	}
}

// testEngine opens an engine on the test device (the runtime is the
// test's), closed when the test ends.
func testEngine(t testing.TB) *Engine {
	t.Helper()
	e, err := OpenEngine(Options{Runtime: platformtest.Runtime(t), Logger: slog.Default()})
	if err != nil {
		platformtest.Unavailable(t, err.Error())
	}
	t.Cleanup(func() {
		for range e.refs.Load() {
			if err := e.Close(); err != nil {
				t.Errorf("closing the engine: %v", err)
			}
		}
	})
	return e
}
