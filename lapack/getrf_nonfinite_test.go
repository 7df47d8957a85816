package cllapack

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestDgetrfNonFinite runs FuzzLapack's Dgetrf case with NaN and ±Inf
// planted, a few hundred draws, on the device's panels (a GPU's path, built
// unoptimised on CPU devices) and on the host's (a CPU device's): ok and
// where NaN lies must be gonum's. gonum's Dtrsm and Dgemm skip a zero
// multiplier where the device's products would form 0·Inf, so such
// matrices go to gonum's code (keepChecked).
func TestDgetrfNonFinite(t *testing.T) {
	for _, host := range []bool{false, true} {
		impl := gpuPathsOnCPU(newTestImpl(t, 8))
		impl.hostLU = host
		rnd := rand.New(rand.NewPCG(11, 12))
		for it := range 300 {
			data := make([]byte, 48)
			for i := range data {
				data[i] = byte(rnd.IntN(256))
			}
			g := &lapackGen{rnd: newLapackFuzzRand(data), specials: true}
			if !t.Run(fmt.Sprintf("hostLU=%v/%d", host, it), func(t *testing.T) { lapackFuzzCases[0].run(t, impl, g) }) {
				return
			}
		}
	}
}
