package cllapack

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestDgetrfNonFinite runs FuzzLapack's Dgetrf case with NaN and ±Inf
// planted, a few hundred draws, on the device's panels (a GPU's path, built
// unoptimised on CPU devices), with the matrix staged through pinned
// memory as on a discrete GPU and not, and on the host's panels (a CPU
// device's): ok and where NaN lies must be gonum's. gonum's Dtrsm and
// Dgemm skip a zero multiplier where the device's products would form
// 0·Inf, so such matrices go to gonum's code (keepChecked).
func TestDgetrfNonFinite(t *testing.T) {
	for _, c := range []struct{ host, stage bool }{{false, false}, {false, true}, {true, false}} {
		impl := gpuPathsOnCPU(newTestImpl(t, 8))
		impl.hostLU, impl.stageIO = c.host, c.stage
		rnd := rand.New(rand.NewPCG(11, 12))
		for it := range 300 {
			data := make([]byte, 48)
			for i := range data {
				data[i] = byte(rnd.IntN(256))
			}
			g := &lapackGen{rnd: newLapackFuzzRand(data), specials: true}
			if !t.Run(fmt.Sprintf("hostLU=%v/staged=%v/%d", c.host, c.stage, it), func(t *testing.T) { lapackFuzzCases[0].run(t, impl, g) }) {
				return
			}
		}
		if c.stage && impl.stg.hs == nil {
			t.Error("no call was staged")
		}
	}
}
