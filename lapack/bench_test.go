package cllapack

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	clblas "github.com/gocompute/opencl/blas"
)

var benchSizes = flag.String("lapack.sizes", "2048,4096",
	"comma-separated orders for BenchmarkDpotrf and BenchmarkDgetrf (gonum's runs at the first only)")

var benchNB = flag.Int("lapack.nb", 0, "block size of the benchmarks' implementation (0: the device's defaults)")

var benchSlab = flag.Int("lapack.slab", defaultSlab, "Potrf's slab (rows of the trailing update per GEMM) in the benchmarks")

var benchLeaf = flag.Int("lapack.leaf", defaultLeaf, "LU's leaf panel width (one work-group) in the benchmarks")

var benchLUWG = flag.Int("lapack.luwg", defaultLUWG, "getf2_leaf's work-group size (a power of two) in the benchmarks")

var benchQRLeaf = flag.Int("lapack.qrleaf", defaultQRLeaf, "QR's leaf panel width (one work-group) in the benchmarks")

var benchHostDiag = flag.Bool("lapack.hostdiag", false, "Potrf's diagonal blocks on the host (with look-ahead) in the benchmarks")

var benchHostBand = flag.Bool("lapack.hostband", false, "Dpotrf restores the untouched triangle on the host (no tri_band) in the benchmarks")

var benchReuse = flag.Bool("lapack.reuse", false, "keep the device matrices of calls from Go slices for the next call in the benchmarks")

var benchOuter = flag.Int("lapack.outer", 0, "Potrf's block rows (the trailing updates' k) in the benchmarks (0 or the block size: one level)")

var benchPotfRegs = flag.Bool("lapack.potfregs", false, "potf2_inv with its block in registers in the benchmarks")

var benchPotfGrid = flag.Int("lapack.potfgrid", potfGridDefault, "the side of potf2_inv's grid of work-items with its block in registers in the benchmarks")

var benchAhead = flag.Bool("lapack.ahead", false, "Potrf with look-ahead (next diagonal block on a second queue) in the benchmarks")

var benchRowAheadMin = flag.Int("lapack.rowaheadmin", defaultRowAheadMin, "the least order at which Potrf's look-ahead also runs inside block rows in the benchmarks")

var benchLUOuter = flag.Int("lapack.luouter", 0, "LU's column blocks (the trailing updates' k) in the benchmarks (0 or the block size: one level)")

var benchLUAhead = flag.Bool("lapack.luahead", false, "LU with look-ahead (the next getrf_grid panel on a second queue) in the benchmarks")

var benchQRAhead = flag.Bool("lapack.qrahead", false, "QR with look-ahead (the next geqrf_grid panel on a second queue) in the benchmarks")

var benchGridShfl = flag.Bool("lapack.gridshfl", false, "getrf_grid reduces its pivot candidates within a work-group by warp shuffles (NVIDIA only) in the benchmarks")

var benchLUCoal = flag.Bool("lapack.lucoal", false, "getf2_leaf with a row's columns on neighbouring work-items in the benchmarks")

var benchGridMax = flag.Int("lapack.gridmax", 0, "the most work-groups of a grid panel launch in the benchmarks (0: one a compute unit)")
var benchGridLU = flag.Bool("lapack.grid", false, "LU panels in one getrf_grid launch each (where the probe passes) in the benchmarks")

var benchGridQRSplit = flag.Int("lapack.gridqrsplit", gridQRSplitGroups, "geqrf_grid's fewest groups that add each sum in one group after a second grid barrier in the benchmarks")

var benchGridQR = flag.Bool("lapack.gridqr", false, "QR panels in one geqrf_grid launch each (where the probe passes) in the benchmarks")

var benchGridQROne = flag.Bool("lapack.gridqrone", true, "geqrf_grid loads a group's rows in one batch of 16 where 8 would take two")
var benchGridQRRows = flag.Int("lapack.gridqrrows", gridQRMinRows, "geqrf_grid's fewest rows a work-group in the benchmarks")

var benchStage = flag.Bool("lapack.stage", false, "calls from Go slices move their matrix through a pinned buffer in the benchmarks")

var benchCondDevice = flag.Bool("lapack.conddevice", false, "the condition estimates' solves on the device (from order 1024) in the benchmarks; a GPU's default, =false keeps them on the host")

var benchPotrfRows = flag.Bool("lapack.potrfrows", false, "Potrf's block rows in one potrf_row launch each (where the probe passes) in the benchmarks")

var benchRowH = flag.Int("lapack.rowh", defaultPotrfRowH, "the height of potrf_row's block rows (rounded down to whole steps) at every order in the benchmarks (the wide rows from 6144 off)")

var benchRowSub = flag.Int("lapack.rowsub", 0, "the height of potrf_row's launches inside a block row (0: one a block row) at every order in the benchmarks (the wide rows from 6144 off)")

var benchHostPanel = flag.Bool("lapack.hostpanel", false, "LU panels on the host (the previous design) in the benchmarks")

// benchImpl returns a device implementation sending every call to the
// device with the block size -lapack.nb, Potrf's slab -lapack.slab, LU's
// leaf -lapack.leaf and work-group -lapack.luwg, and LU's panels and
// Cholesky's diagonal blocks where -lapack.hostpanel and -lapack.hostdiag
// say (each flag not given: the implementation's default for the device).
func benchImpl(b *testing.B) *Implementation {
	impl := newTestImpl(b, *benchNB)
	setBenchFlags(b, impl)
	return impl
}

// setBenchFlags sets impl's tuning fields from the -lapack flags given on
// the command line; the others keep the implementation's defaults for the
// device.
func setBenchFlags(b *testing.B, impl *Implementation) {
	if *benchQRLeaf < 1 || *benchQRLeaf > qrBMax {
		b.Fatalf("-lapack.qrleaf %d: want 1 to %d", *benchQRLeaf, qrBMax)
	}
	if *benchSlab < 1 || *benchLeaf < 1 || *benchLeaf > luBMax || *benchLUWG < 1 || *benchLUWG&(*benchLUWG-1) != 0 {
		b.Fatalf("-lapack.slab %d, -lapack.leaf %d, -lapack.luwg %d: want ≥ 1, 1 to %d, a power of two", *benchSlab, *benchLeaf, *benchLUWG, luBMax)
	}
	flag.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "lapack.qrleaf":
			impl.qrLeaf = *benchQRLeaf
		case "lapack.slab":
			impl.slab = *benchSlab
		case "lapack.leaf":
			impl.leaf = *benchLeaf
		case "lapack.hostpanel":
			impl.hostPanel, impl.hostLU = *benchHostPanel, *benchHostPanel
		case "lapack.luwg":
			impl.luWG = *benchLUWG
		case "lapack.hostdiag":
			impl.hostDiag = *benchHostDiag
		case "lapack.hostband":
			impl.hostBand = *benchHostBand
		case "lapack.reuse":
			impl.reuse = *benchReuse
		case "lapack.outer":
			impl.potrfOuter = *benchOuter
		case "lapack.potfregs":
			impl.potfRegs = *benchPotfRegs
		case "lapack.potfgrid":
			impl.potfG = *benchPotfGrid
		case "lapack.ahead":
			impl.ahead = *benchAhead
		case "lapack.rowaheadmin":
			impl.rowAheadMin = *benchRowAheadMin
		case "lapack.luahead":
			impl.luAhead = *benchLUAhead
		case "lapack.luouter":
			impl.luOuter = *benchLUOuter
		case "lapack.qrahead":
			impl.qrAhead = *benchQRAhead
		case "lapack.gridshfl":
			impl.gridShfl = *benchGridShfl
		case "lapack.lucoal":
			impl.luCoal = *benchLUCoal
		case "lapack.grid":
			impl.gridLU = *benchGridLU
		case "lapack.gridmax":
			impl.gridMax = *benchGridMax
		case "lapack.gridqrsplit":
			impl.gridQRSplit = *benchGridQRSplit
		case "lapack.gridqr":
			impl.gridQR = *benchGridQR
		case "lapack.gridqrrows":
			impl.gridQRRows = *benchGridQRRows
		case "lapack.gridqrone":
			impl.gridQROne = *benchGridQROne
		case "lapack.stage":
			impl.stageIO = *benchStage
		case "lapack.potrfrows":
			impl.gridPotrf = *benchPotrfRows
		case "lapack.rowh":
			impl.potrfRowH, impl.potrfWide = *benchRowH, potrfShape{}
		case "lapack.rowsub":
			impl.potrfRowSub, impl.potrfWide = *benchRowSub, potrfShape{}
		case "lapack.conddevice":
			impl.condDevice = *benchCondDevice
		}
	})
}

func sizes(b *testing.B) []int { return parseOrders(b, "lapack.sizes", *benchSizes) }

// parseOrders returns the comma-separated orders s of flag name, failing
// tb on one that is not a positive integer.
func parseOrders(tb testing.TB, name, s string) []int {
	tb.Helper()
	var ns []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			tb.Fatalf("-%s: bad order %q", name, f)
		}
		ns = append(ns, n)
	}
	return ns
}

type factorizer interface {
	Dpotrf(blas.Uplo, int, []float64, int) bool
	Dgetrf(int, int, []float64, int, []int) bool
	Dgeqrf(m, n int, a []float64, lda int, tau, work []float64, lwork int)
	Dorgqr(m, n, k int, a []float64, lda int, tau, work []float64, lwork int)
}

// runFactor times f on a fresh copy of orig per iteration (the copy is not
// timed) and reports GFLOP/s for flops per call.
func runFactor(b *testing.B, flops float64, orig []float64, f func(a []float64) bool) {
	a := make([]float64, len(orig))
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		copy(a, orig)
		b.StartTimer()
		if !f(a) {
			b.Fatal("factorization failed")
		}
	}
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkDpotrf factorises a random SPD matrix (upper triangle) from a Go
// slice: upload, factorization and read back. Flops: n³/3.
func BenchmarkDpotrf(b *testing.B) {
	impl := benchImpl(b)
	ns := sizes(b)
	for i, n := range ns {
		orig := spdBench(n, rand.New(rand.NewPCG(1, uint64(n))))
		flops := float64(n) * float64(n) * float64(n) / 3
		impls := []struct {
			name string
			f    factorizer
		}{{"device", impl}}
		if i == 0 {
			impls = append(impls, struct {
				name string
				f    factorizer
			}{"gonum", gonum.Implementation{}})
		}
		for _, im := range impls {
			b.Run(fmt.Sprintf("%s/n=%d", im.name, n), func(b *testing.B) {
				runFactor(b, flops, orig, func(a []float64) bool { return im.f.Dpotrf(blas.Upper, n, a, n) })
			})
		}
	}
}

// BenchmarkDgetrf factorises a random square matrix from a Go slice.
// Flops: 2n³/3.
func BenchmarkDgetrf(b *testing.B) {
	impl := benchImpl(b)
	ns := sizes(b)
	for i, n := range ns {
		orig := generalBench(n)
		flops := 2 * float64(n) * float64(n) * float64(n) / 3
		ipiv := make([]int, n)
		impls := []struct {
			name string
			f    factorizer
		}{{"device", impl}}
		if i == 0 {
			impls = append(impls, struct {
				name string
				f    factorizer
			}{"gonum", gonum.Implementation{}})
		}
		for _, im := range impls {
			b.Run(fmt.Sprintf("%s/n=%d", im.name, n), func(b *testing.B) {
				runFactor(b, flops, orig, func(a []float64) bool { return im.f.Dgetrf(n, n, a, n, ipiv) })
			})
		}
	}
}

// BenchmarkDgeqrf factorises a random square matrix from a Go slice.
// Flops: 4n³/3.
func BenchmarkDgeqrf(b *testing.B) {
	impl := benchImpl(b)
	for i, n := range sizes(b) {
		rnd := rand.New(rand.NewPCG(3, uint64(n)))
		orig := make([]float64, n*n)
		for k := range orig {
			orig[k] = rnd.NormFloat64()
		}
		flops := 4 * float64(n) * float64(n) * float64(n) / 3
		tau := make([]float64, n)
		work := make([]float64, 1)
		gonum.Implementation{}.Dgeqrf(n, n, orig, n, tau, work, -1)
		work = make([]float64, int(work[0]))
		type geqrfer interface {
			Dgeqrf(m, n int, a []float64, lda int, tau, work []float64, lwork int)
		}
		impls := map[string]geqrfer{"device": impl}
		if i == 0 {
			impls["gonum"] = gonum.Implementation{}
		}
		for _, name := range []string{"device", "gonum"} {
			im, ok := impls[name]
			if !ok {
				continue
			}
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				runFactor(b, flops, orig, func(a []float64) bool {
					im.Dgeqrf(n, n, a, n, tau, work, len(work))
					return true
				})
			})
		}
	}
}

// runResident times factor on a device matrix refilled from orig before
// each iteration (the refill is not timed) and reports GFLOP/s and, per
// factorization, what impl's counters saw: kernel launches, device copies,
// host transfers and the MB they moved.
func runResident(b *testing.B, impl *Implementation, n int, flops float64, orig []float64, factor func(d *clblas.Matrix[float64]) (bool, error)) {
	d, err := clblas.NewMatrix[float64](shared.blas, n, n)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Release()
	before := impl.counts()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		ev, err := d.Write(orig)
		if err == nil {
			err = ev.Wait()
		}
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if ok, err := factor(d); !ok || err != nil {
			b.Fatalf("factorization failed: ok=%v, err=%v", ok, err)
		}
	}
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	c := impl.counts().sub(before)
	per := func(v int64) float64 { return float64(v) / float64(b.N) }
	b.ReportMetric(per(c.launches), "launches/op")
	b.ReportMetric(per(c.copies), "copies/op")
	b.ReportMetric(per(c.transfers), "xfers/op")
	b.ReportMetric(per(c.bytes)/1e6, "xferMB/op")
}

// BenchmarkResident times Potrf, Getrf and Geqrf on matrices already on
// the device, and Orgqr forming Q from k = n/16 and k = n reflectors
// (their τ all 1: the timing does not depend on them).
func BenchmarkResident(b *testing.B) {
	impl := benchImpl(b)
	for _, n := range sizes(b) {
		spdA := spdBench(n, rand.New(rand.NewPCG(1, uint64(n))))
		gen := generalBench(n)
		nf := float64(n)
		b.Run(fmt.Sprintf("Potrf/n=%d", n), func(b *testing.B) {
			runResident(b, impl, n, nf*nf*nf/3, spdA, func(d *clblas.Matrix[float64]) (bool, error) {
				return Potrf(impl, blas.Upper, d)
			})
		})
		ipiv := make([]int, n)
		b.Run(fmt.Sprintf("Getrf/n=%d", n), func(b *testing.B) {
			runResident(b, impl, n, 2*nf*nf*nf/3, gen, func(d *clblas.Matrix[float64]) (bool, error) {
				return Getrf(impl, d, ipiv)
			})
		})
		tau := make([]float64, n)
		b.Run(fmt.Sprintf("Geqrf/n=%d", n), func(b *testing.B) {
			runResident(b, impl, n, 4*nf*nf*nf/3, gen, func(d *clblas.Matrix[float64]) (bool, error) {
				return true, Geqrf(impl, d, tau)
			})
		})
		for _, k := range []int{n / 16, n} {
			ones := make([]float64, k)
			for i := range ones {
				ones[i] = 1
			}
			kf := float64(k)
			// Dorgqr's flops for m = n (LAPACK's count).
			flops := 4*nf*nf*kf - 4*nf*kf*kf + 4*kf*kf*kf/3
			b.Run(fmt.Sprintf("Orgqr/n=%d/k=%d", n, k), func(b *testing.B) {
				runResident(b, impl, n, flops, gen, func(d *clblas.Matrix[float64]) (bool, error) {
					ev, err := Orgqr(impl, d, ones)
					if err == nil {
						err = ev.Wait()
					}
					return true, err
				})
			})
		}
	}
}

// generalBench returns the benchmarks' general n×n matrix: standard
// normal elements from a PCG seeded with (2, n).
func generalBench(n int) []float64 {
	rnd := rand.New(rand.NewPCG(2, uint64(n)))
	a := make([]float64, n*n)
	for k := range a {
		a[k] = rnd.NormFloat64()
	}
	return a
}

// spdBench returns a random n×n symmetric positive definite matrix (both
// triangles) in O(n²): off-diagonal elements uniform in [−1, 1) and n on
// the diagonal, so that it is strictly diagonally dominant. The tests'
// spd forms BᵀB with gonum's Dsyrk, which takes minutes at n = 8192 and
// kept the benchmarks at that order from finishing.
func spdBench(n int, rnd *rand.Rand) []float64 {
	a := make([]float64, n*n)
	for i := range n {
		a[i*n+i] = float64(n)
		for j := i + 1; j < n; j++ {
			v := 2*rnd.Float64() - 1
			a[i*n+j], a[j*n+i] = v, v
		}
	}
	return a
}
