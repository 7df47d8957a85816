package cllapack

import (
	"testing"

	clblas "github.com/gocompute/opencl/blas"
)

// TestCrossovers checks the Auto policy's orders: on a CPU device LU and
// Cholesky go to the device from cpuCrossover and QR from cpuQRCrossover,
// elsewhere both from defaultCrossover, and WithCrossover sets one order
// for every routine. A QR call is made too, so that Dgeqrf is seen to ask
// QR's order.
func TestCrossovers(t *testing.T) {
	newTestImpl(t, 0) // the shared BLAS; skips without a device
	auto, err := New(shared.blas, WithOffload(clblas.Auto))
	if err != nil {
		t.Fatal(err)
	}
	defer auto.Close()
	lu, qr := defaultCrossover, defaultCrossover
	if shared.blas.Runtime().Device().Profile().IsCPU() {
		lu, qr = cpuCrossover, cpuQRCrossover
	}
	for _, c := range []struct {
		what    string
		offload func(int) bool
		from    int
	}{{"LU and Cholesky", auto.offload, lu}, {"QR", auto.offloadQR, qr}} {
		if c.offload(c.from-1) || !c.offload(c.from) {
			t.Errorf("%s: Auto goes to the device from %d, want %d", c.what, firstOffload(c.offload), c.from)
		}
	}

	set, err := New(shared.blas, WithOffload(clblas.Auto), WithCrossover(50))
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	if set.offload(49) || !set.offload(50) || set.offloadQR(49) || !set.offloadQR(50) {
		t.Errorf("WithCrossover(50): LU from %d, QR from %d, want 50 for both", firstOffload(set.offload), firstOffload(set.offloadQR))
	}
	const n = 60
	a := make([]float64, n*n)
	rnd := testRand()
	for i := range a {
		a[i] = rnd.NormFloat64()
	}
	tau := make([]float64, n)
	work := make([]float64, 1)
	set.Dgeqrf(n, n, a, n, tau, work, -1)
	work = make([]float64, int(work[0]))
	set.Dgeqrf(n, n, a, n, tau, work, len(work))
	if got := set.onDevice.Load(); got != 1 {
		t.Errorf("Dgeqrf of order %d with crossover 50: %d calls on the device, want 1", n, got)
	}
}

// firstOffload returns the least order from which offload says yes (up
// to 1<<16; -1 if none).
func firstOffload(offload func(int) bool) int {
	for n := 1; n <= 1<<16; n++ {
		if offload(n) {
			return n
		}
	}
	return -1
}
