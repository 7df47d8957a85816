package clblas

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGatedNAgrees: the gate in whole numbers decides as the float64 one
// on every model and policy, for integral workloads around its limits and
// far from them.
func TestGatedNAgrees(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for name, cm := range gateModels() {
		for _, p := range []Policy{Auto, Always, Never} {
			impl := &Implementation{policy: p}
			impl.setCost(cm)
			gatedSome := false
			for i := range 20000 {
				prec := prec32
				if rnd.IntN(2) == 0 {
					prec = prec64
				}
				g := impl.gate32
				if prec == prec64 {
					g = impl.gate64
				}
				flops, elems := rnd.IntN(1<<40), rnd.IntN(1<<37)
				if i%2 == 0 && p == Auto { // at the limits
					flops = max(0, g.nFlops+rnd.IntN(3)-2)
					elems = max(0, g.nBytes/int(prec)+rnd.IntN(3)-2)
				}
				want := impl.gated(work(prec, float64(flops), float64(elems)))
				gatedSome = gatedSome || want
				if got := impl.gatedN(prec, flops, elems); got != want {
					t.Fatalf("%s, %v, %d-byte: %d flops on %d elements: gatedN %v, gated %v (limits %+v)", name, p, prec, flops, elems, got, want, g)
				}
			}
			if p == Auto && !gatedSome {
				t.Errorf("%s, auto: nothing gated", name)
			}
		}
	}
}

// TestGateWhole: fractional limits round up (an integral workload below
// 10.5 is one of at most 10), infinite ones become the largest int, and
// a closed gate stays closed.
func TestGateWhole(t *testing.T) {
	impl := &Implementation{}
	impl.gate64 = gate{flops: 10.5, bytes: 64.2}.whole()
	for _, c := range []struct {
		flops, elems int
		want         bool
	}{{10, 8, true}, {11, 8, false}, {10, 9, false}, {0, 0, true}} {
		if got := impl.gatedN(prec64, c.flops, c.elems); got != c.want {
			t.Errorf("%d flops, %d elements: gated %v, want %v", c.flops, c.elems, got, c.want)
		}
	}
	if g := (gate{flops: math.Inf(1), bytes: math.Inf(1)}).whole(); g.nFlops != math.MaxInt || g.nBytes != math.MaxInt {
		t.Errorf("infinite limits: %+v", g)
	}
	if g := (gate{}).whole(); g.nFlops != 0 || g.nBytes != 0 {
		t.Errorf("closed gate: %+v", g)
	}
}
