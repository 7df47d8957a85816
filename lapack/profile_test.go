package cllapack

import (
	"math/rand/v2"
	"testing"

	clblas "github.com/gocompute/opencl/blas"
)

// TestProfile checks that the profiler, in both modes, sees every command
// the resident factorizations count (launches and copies), charges time to
// them, and leaves the results right.
func TestProfile(t *testing.T) {
	const n = 40
	impl := profiledImpl(t, 16)
	impl.leaf, impl.qrLeaf = 8, 8
	d, err := clblas.NewMatrix[float64](impl.blas, n, n)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Release()
	spdA := spd(n, n, rand.New(rand.NewPCG(1, 1)))
	rnd := rand.New(rand.NewPCG(2, 2))
	gen := make([]float64, n*n)
	for k := range gen {
		gen[k] = rnd.NormFloat64()
	}
	for f, fk := range factorKinds {
		orig := spdA
		if fk.gen {
			orig = gen
		}
		for _, events := range []bool{false, true} {
			before := impl.counts()
			kinds, line, wall, err := profileFactor(impl, d, orig, f, events)
			if err != nil {
				t.Fatalf("%s (events %v): %v", fk.name, events, err)
			}
			c := impl.counts().sub(before)
			var cmds int
			var sum float64
			for _, k := range kinds {
				if k.Kind != "rest" {
					cmds += k.N
				}
				if k.Time < 0 {
					t.Errorf("%s (events %v): %s charged %v", fk.name, events, k.Kind, k.Time)
				}
				sum += k.Time.Seconds()
			}
			if want := int(c.launches + c.copies); cmds != want {
				t.Errorf("%s (events %v): profile saw %d commands, counters %d", fk.name, events, cmds, want)
			}
			if events && (line.Span <= 0 || line.Idle < 0 || line.Idle > line.Span || line.Lag < 0) {
				t.Errorf("%s: timeline %+v", fk.name, line)
			}
			if sum <= 0 || wall <= 0 {
				t.Errorf("%s (events %v): no time charged (%v s, wall %v)", fk.name, events, sum, wall)
			}
		}
	}
	if impl.prof != nil {
		t.Error("profiler left on")
	}
}
