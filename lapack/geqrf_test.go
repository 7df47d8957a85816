package cllapack

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/lapack/gonum"
)

// TestGeqrfPanels runs Dgeqrf with panels that split into leaves of
// uneven widths (20 = 16+4, 40 = 32+8), on the device and with the host panel, on
// square, tall and wide matrices, against gonum's R, reflectors and tau.
func TestGeqrfPanels(t *testing.T) {
	impl := gpuPathsOnCPU(newTestImpl(t, 20))
	rnd := rand.New(rand.NewPCG(61, 62))
	for _, c := range []struct {
		host     bool
		nb, leaf int
	}{{false, 20, 16}, {true, 20, 16}, {false, 40, 32}} {
		// Device leaves of 16 and 4, or 32 (QR_B 32) and 8.
		host := c.host
		impl.hostPanel, impl.nb, impl.qrLeaf = host, c.nb, c.leaf
		for _, sh := range [][2]int{{50, 50}, {83, 37}, {37, 83}} {
			m, n := sh[0], sh[1]
			k := min(m, n)
			a := make([]float64, m*n)
			for i := range a {
				a[i] = rnd.NormFloat64()
			}
			want := append([]float64(nil), a...)
			tau, tauWant := make([]float64, k), make([]float64, k)
			work := make([]float64, n*64)
			gonum.Implementation{}.Dgeqrf(m, n, want, n, tauWant, work, len(work))
			impl.Dgeqrf(m, n, a, n, tau, work, len(work))
			what := fmt.Sprintf("host %v nb %d %d×%d", host, c.nb, m, n)
			compare(t, what, m, n, a, want, n, 1e-10)
			compare(t, what+" tau", 1, k, tau, tauWant, k, 1e-10)
		}
	}
}
