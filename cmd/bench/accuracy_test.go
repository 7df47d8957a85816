package main

import (
	"math"
	"strings"
	"testing"

	"github.com/gocompute/opencl/platform/platformtest"
)

// TestAccuracy runs -accuracy at small sizes on every input kind and
// checks that each error is finite, positive and of the size float32
// arithmetic gives, and that the FMA kernel is as accurate as gonum's
// float32 Go code (within a factor of 10 either way).
func TestAccuracy(t *testing.T) {
	platformtest.Device(t)
	var out strings.Builder
	rows, err := runAccuracy(&out, []int{64, 96}, accuracyKinds)
	if err != nil {
		if strings.Contains(err.Error(), "needs an OpenCL device") {
			platformtest.Unavailable(t, err.Error())
		}
		t.Fatal(err)
	}
	t.Logf("\n%s", out.String())
	if want := 2 * len(accuracyKinds); len(rows) != want {
		t.Fatalf("%d rows, want %d", len(rows), want)
	}
	// Bounds on ‖C − C₆₄‖_F / ‖C₆₄‖_F: a few float32 ulps for well-scaled
	// inputs; the cancelling inputs lose about log10(1e4·√n) more digits.
	bound := map[string]float64{"uniform": 1e-5, "scaled": 1e-5, "kscaled": 1e-5, "cancel": 1e-2}
	for _, r := range rows {
		for _, e := range []struct {
			name string
			v    float64
		}{{"FMA", r.fma}, {"3xTF32", r.tf32}, {"gonum", r.gonum}} {
			if math.IsNaN(e.v) || math.IsInf(e.v, 0) || e.v <= 0 || e.v > bound[r.kind] {
				t.Errorf("n=%d %s: %s error %g, want finite in (0, %g]", r.n, r.kind, e.name, e.v, bound[r.kind])
			}
		}
		if q := r.fma / r.gonum; q > 10 || q < 0.1 {
			t.Errorf("n=%d %s: FMA error %g is %.2gx gonum's float32 error %g", r.n, r.kind, r.fma, q, r.gonum)
		}
		if r.sameBits && r.fma != r.tf32 {
			t.Errorf("n=%d %s: equal results with different errors %g, %g", r.n, r.kind, r.fma, r.tf32)
		}
	}
	if !strings.Contains(out.String(), "tensor cores: ") {
		t.Errorf("the output does not say whether the tensor path is used:\n%s", out.String())
	}
}

// TestAccuracyInputs checks the input kinds' construction: the scales are
// powers of two in [2^-20, 2^20] along the intended dimension, and the
// cancelling inputs have paired columns of A and ±1e4 shifted rows of B.
func TestAccuracyInputs(t *testing.T) {
	const n = 9
	if _, _, err := accuracyInputs("nonsense", n); err == nil {
		t.Error("an unknown kind was accepted")
	}
	for _, kind := range accuracyKinds {
		a, b, err := accuracyInputs(kind, n)
		if err != nil {
			t.Fatal(err)
		}
		maxAbs := func(x []float32) float64 {
			m := 0.0
			for _, v := range x {
				m = math.Max(m, math.Abs(float64(v)))
			}
			return m
		}
		switch kind {
		case "uniform":
			if maxAbs(a) > 1 || maxAbs(b) > 1 {
				t.Errorf("uniform: entries outside [-1, 1]")
			}
		case "scaled", "kscaled":
			if maxAbs(a) > 1<<20 || maxAbs(b) > 1<<20 || maxAbs(a) <= 1 && maxAbs(b) <= 1 {
				t.Errorf("%s: max |a| = %g, max |b| = %g, want scales up to 2^20 beyond 1", kind, maxAbs(a), maxAbs(b))
			}
		case "cancel":
			for i := range n {
				for p := 1; p < n; p += 2 {
					if a[i*n+p] != a[i*n+p-1] {
						t.Fatalf("cancel: a[%d][%d] != a[%d][%d]", i, p, i, p-1)
					}
				}
			}
			for p := range n - 1 {
				if v := float64(b[p*n]); math.Abs(math.Abs(v)-1e4) > 1 || (v > 0) != (p%2 == 0) {
					t.Fatalf("cancel: b[%d][0] = %g, want ±1e4 alternating", p, v)
				}
			}
		}
	}
}
