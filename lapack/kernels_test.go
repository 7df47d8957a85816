package cllapack

import (
	"bytes"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
)

// TestKernelsSmall runs every kernel of kernels/lapack.cl at small sizes,
// in few launches, against gonum: Potrf (tri_band, potf2_inv, copy_ok,
// both triangles, slabs narrower than a block, a block that fails), Getrf
// (getf2_leaf, trsm_llu, laswp, a leaf narrower than the panel) and
// Geqrf (geqr2_leaf, larft_t, two leaves a panel), Orgqr (eye_cols).
// scripts/oclgrind.sh
// runs it on Oclgrind.
func TestKernelsSmall(t *testing.T) {
	impl := newTestImpl(t, 8)
	impl.slab, impl.leaf = 6, 4
	impl.hostLU = false // getf2_leaf on CPU devices too
	// A kernel that fails (say, asks for more local memory than the
	// device has) is finished on the CPU with the right answer: the log
	// tells.
	var log bytes.Buffer
	impl.logger = slog.New(slog.NewTextHandler(&log, nil))
	defer func() {
		if log.Len() > 0 {
			t.Errorf("a call fell back to the CPU:\n%s", log.String())
		}
	}()
	rnd := rand.New(rand.NewPCG(51, 52))
	const n = 20
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		checkDpotrf(t, impl, "Dpotrf", ul, n, n+1, rnd, 1e-12)
	}
	// Not positive definite in the second block: potf2_inv sets info,
	// and the later steps run with it set.
	a := spd(n, n, rnd)
	a[9*n+9] = -1
	if impl.Dpotrf(blas.Lower, n, a, n) {
		t.Fatal("Dpotrf: a matrix that is not positive definite passed")
	}
	// potf2_inv with its block in registers, on GPUs (Oclgrind among
	// them): PoCL takes minutes to compile it.
	// Block sizes 8, 40 and 128: POTF_T 2, 4 and 8, on blocks of 8 and 20.
	for _, nb := range []int{8, 40, 128} {
		if impl.blas.Runtime().Device().Profile().IsCPU() {
			break
		}
		impl.potfRegs, impl.nb = true, nb
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			checkDpotrf(t, impl, "Dpotrf, registers", ul, n, n, rnd, 1e-12)
		}
		a := spd(n, n, rnd)
		a[9*n+9] = -1
		if impl.Dpotrf(blas.Upper, n, a, n) {
			t.Fatal("Dpotrf, registers: a matrix that is not positive definite passed")
		}
		impl.potfRegs, impl.nb = false, 8
	}
	impl.nb = 16
	const m = 37
	a = make([]float64, m*n)
	for i := range a {
		a[i] = rnd.NormFloat64()
	}
	want := append([]float64(nil), a...)
	ipiv, ipivWant := make([]int, n), make([]int, n)
	gonum.Implementation{}.Dgetrf(m, n, want, n, ipivWant)
	if !impl.Dgetrf(m, n, a, n, ipiv) {
		t.Fatal("Dgetrf: singular")
	}
	for i := range ipiv {
		if ipiv[i] != ipivWant[i] {
			t.Fatalf("Dgetrf: ipiv[%d] = %d, gonum's %d", i, ipiv[i], ipivWant[i])
		}
	}
	compare(t, "Dgetrf", m, n, a, want, n, 1e-12)

	impl.nb = 12 // leaves of 8 and 4
	a = make([]float64, m*n)
	for i := range a {
		a[i] = rnd.NormFloat64()
	}
	want = append(want[:0], a...)
	orig := append([]float64(nil), a...)
	tau, tauWant := make([]float64, n), make([]float64, n)
	work := make([]float64, 64*n)
	gonum.Implementation{}.Dgeqrf(m, n, want, n, tauWant, work, len(work))
	impl.Dgeqrf(m, n, a, n, tau, work, len(work))
	compare(t, "Dgeqrf", m, n, a, want, n, 1e-12)
	compare(t, "Dgeqrf tau", 1, n, tau, tauWant, n, 1e-12)

	// geqr2_leaf built for leaves up to 32 wide (QR_B 32), one leaf of 20.
	impl.nb, impl.qrLeaf = 40, 32
	copy(a, orig)
	impl.Dgeqrf(m, n, a, n, tau, work, len(work))
	compare(t, "Dgeqrf, QR_B 32", m, n, a, want, n, 1e-12)
	compare(t, "Dgeqrf, QR_B 32 tau", 1, n, tau, tauWant, n, 1e-12)

	// The panels in one launch (getrf_grid, geqrf_grid, after grid_probe),
	// in one work-group, which every device runs: panels of 12 and 8;
	// geqrf_grid with the sums added by every group and split.
	impl.nb, impl.gridLU, impl.gridQR = 12, true, true
	impl.gridMax, impl.gridRows, impl.gridQRRows, impl.gridSpin = 1, 4, 1, 1<<12
	for _, split := range []int{2, 1} {
		impl.gridQRSplit = split
		copy(a, orig)
		impl.Dgeqrf(m, n, a, n, tau, work, len(work))
		compare(t, fmt.Sprintf("Dgeqrf, geqrf_grid, split from %d groups", split), m, n, a, want, n, 1e-12)
		compare(t, "Dgeqrf, geqrf_grid tau", 1, n, tau, tauWant, n, 1e-12)
	}
	dgetrfAgainstGonum(t, impl, rnd, "Dgetrf, getrf_grid", m, n, -1)
	if s := impl.gridState.Load(); s != gridYes {
		t.Errorf("the grid kernels did not run (state %d)", s)
	}

	// Orgqr (eye_cols) with blocks of 8: k = 9 of 12 columns.
	impl.nb = 8
	qa, qtau := gonumQR[float64](rnd, m, 12)
	qtau = qtau[:9]
	qwant := append([]float64(nil), qa...)
	gonum.Implementation{}.Dorgqr(m, 12, 9, qwant, 12, qtau, work, len(work))
	da := upload[float64](t, impl, qa, m, 12)
	ev, err := Orgqr(impl, da, qtau)
	if d, _ := maxDiff(download(t, ev, err, da), qwant); !(d <= 1e-12*m) {
		t.Errorf("Orgqr: max difference %g from gonum's Dorgqr", d)
	}
}
