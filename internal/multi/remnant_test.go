package multi

import (
	"testing"
	"time"
)

// TestRemnant: a fast device with a large fixed cost per tile (a GPU that
// sends B again with every tile) beside a slow one whose rate is misjudged
// optimistic. The fast device takes one tile; what the slow one leaves at
// the end does not cost the fast one a second fixed cost, so the call ends
// no later than the fast device alone.
func TestRemnant(t *testing.T) {
	const ms = time.Millisecond
	for _, factor := range []float64{1, 2, 4} {
		gpu := dev(80000, 25*ms, 32)
		gpu.est.MinUnits = 18000
		cpu := misjudged(2400, factor, ms/10, 32)
		res := simulate(t, 8192, 32, []simDev{gpu, cpu})
		covered(t, 8192, res.tiles)
		alone := gpu.overhead + seconds(8192/gpu.rate)
		t.Logf("factor %v: end %v (alone %v), stats %+v", factor, res.end, alone, res.stats)
		if res.end > alone {
			t.Errorf("cpu misjudged %v×: together end at %v, later than the fast device alone (%v); stats %+v", factor, res.end, alone, res.stats)
		}
	}
}
