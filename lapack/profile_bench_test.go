package cllapack

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"

	clblas "github.com/gocompute/opencl/blas"
)

// profiledImpl returns an Implementation with the benchmarks' settings on
// its own runtime, on the shared implementation's device, whose queue has
// profiling on (so that the profiler can work by events).
func profiledImpl(t testing.TB, nb int) *Implementation {
	t.Helper()
	base := newTestImpl(t, nb)
	rt, err := platform.NewRuntime(base.blas.Runtime().Device(), platform.WithQueueProperties(cl.QueueProfiling))
	if err != nil {
		t.Fatal(err)
	}
	bl, err := clblas.New(clblas.WithRuntime(rt), clblas.WithOffload(clblas.Always))
	if err != nil {
		rt.Close()
		t.Fatal(err)
	}
	opts := []Option{WithOffload(clblas.Always)}
	if nb > 0 {
		opts = append(opts, WithBlockSize(nb))
	}
	impl, err := New(bl, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, err := range []error{impl.Close(), bl.Close(), rt.Close()} {
			if err != nil {
				t.Error(err)
			}
		}
	})
	return impl
}

// factorKind names the resident factorizations the profile runs, with their
// flops at order n and their call on a device matrix (tau and ipiv n long).
var factorKinds = []struct {
	name  string
	flops func(n float64) float64
	gen   bool // a general matrix (else SPD)
	call  func(impl *Implementation, d *clblas.Matrix[float64], ipiv []int, tau []float64) (bool, error)
}{
	{"Potrf", func(n float64) float64 { return n * n * n / 3 }, false,
		func(impl *Implementation, d *clblas.Matrix[float64], _ []int, _ []float64) (bool, error) {
			return Potrf(impl, blas.Upper, d)
		}},
	{"Getrf", func(n float64) float64 { return 2 * n * n * n / 3 }, true,
		func(impl *Implementation, d *clblas.Matrix[float64], ipiv []int, _ []float64) (bool, error) {
			return Getrf(impl, d, ipiv)
		}},
	{"Geqrf", func(n float64) float64 { return 4 * n * n * n / 3 }, true,
		func(impl *Implementation, d *clblas.Matrix[float64], _ []int, tau []float64) (bool, error) {
			return true, Geqrf(impl, d, tau)
		}},
}

// profileFactor runs factorization f of order n on d (refilled from orig
// first) under a profiler of mode events, and returns its profile and the
// wall time of the factorization.
func profileFactor(impl *Implementation, d *clblas.Matrix[float64], orig []float64, f int, events bool) ([]profKind, timeline, time.Duration, error) {
	n, _ := d.Dims()
	ev, err := d.Write(orig)
	if err == nil {
		err = ev.Wait()
	}
	if err != nil {
		return nil, timeline{}, 0, err
	}
	p, err := newProfiler(impl.blas.Runtime().Queue(), events)
	if err != nil {
		return nil, timeline{}, 0, err
	}
	if err := p.start(); err != nil {
		return nil, timeline{}, 0, err
	}
	impl.prof = p
	defer func() { impl.prof = nil }()
	t := time.Now()
	ok, err := factorKinds[f].call(impl, d, make([]int, n), make([]float64, n))
	wall := time.Since(t)
	kinds, perr := p.stop()
	if err == nil {
		err = perr
	}
	if err == nil && !ok {
		err = fmt.Errorf("%s failed", factorKinds[f].name)
	}
	return kinds, p.line, wall, err
}

// BenchmarkResidentProfile runs the resident Potrf, Getrf and Geqrf of
// the -lapack.sizes orders (with the -lapack flags' settings) under the
// profiler, in both modes: "wait" (each command waited for in turn) and
// "events" (markers on a profiling queue; the factorization runs
// pipelined). It logs per kind of command (each lapack.cl kernel, GEMMs by
// shape and inner dimension k, copies) the count, the device time charged
// to it per factorization, its share and, for GEMMs, GFLOP/s; it reports
// the GFLOP/s of the factorization under the profiler. Meant to be read,
// not compared:
//
//	go test -run XXX -bench ResidentProfile -lapack.sizes 4096 -benchtime 2x ./lapack
func BenchmarkResidentProfile(b *testing.B) {
	impl := profiledImpl(b, *benchNB)
	setBenchFlags(b, impl)
	for _, n := range sizes(b) {
		spdA := spdBench(n, rand.New(rand.NewPCG(1, uint64(n))))
		gen := generalBench(n)
		d, err := clblas.NewMatrix[float64](impl.blas, n, n)
		if err != nil {
			b.Fatal(err)
		}
		for f, fk := range factorKinds {
			orig := spdA
			if fk.gen {
				orig = gen
			}
			for _, mode := range []string{"wait", "events"} {
				b.Run(fmt.Sprintf("%s/n=%d/%s", fk.name, n, mode), func(b *testing.B) {
					var total time.Duration
					var line timeline
					sum := map[string]*profKind{}
					for range b.N {
						kinds, l, wall, err := profileFactor(impl, d, orig, f, mode == "events")
						if err != nil {
							b.Fatal(err)
						}
						total += wall
						line.Span += l.Span
						line.Idle += l.Idle
						line.Lag = max(line.Lag, l.Lag)
						for _, k := range kinds {
							s := sum[k.Kind]
							if s == nil {
								s = &profKind{Kind: k.Kind}
								sum[k.Kind] = s
							}
							s.N += k.N
							s.Time += k.Time
							s.Host += k.Host
							s.Flops += k.Flops
						}
					}
					b.ReportMetric(fk.flops(float64(n))*float64(b.N)/total.Seconds()/1e9, "GFLOP/s")
					if line.Span > 0 {
						b.ReportMetric(100*line.Idle.Seconds()/line.Span.Seconds(), "%idle")
						b.ReportMetric(float64(line.Lag.Microseconds()), "µs-lag")
					}
					// Printed, not logged: a benchmark's log is cut to a
					// few lines.
					fmt.Printf("%s\n%s", b.Name(), profileTable(sum, b.N))
				})
			}
		}
		if err := d.Release(); err != nil {
			b.Fatal(err)
		}
	}
}

// profileTable formats a summed profile of runs factorizations.
func profileTable(sum map[string]*profKind, runs int) string {
	var all time.Duration
	ks := make([]*profKind, 0, len(sum))
	for _, k := range sum {
		all += k.Time
		ks = append(ks, k)
	}
	// Longest first.
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j].Time > ks[j-1].Time; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "per factorization (%d runs): total %.3f ms\n", runs, all.Seconds()*1e3/float64(runs))
	fmt.Fprintf(&sb, "%-22s %7s %10s %9s %6s %9s %12s\n", "kind", "count", "ms", "µs/cmd", "%", "GFLOP/s", "host µs/cmd")
	for _, k := range ks {
		gf := ""
		if k.Flops > 0 && k.Time > 0 {
			gf = fmt.Sprintf("%.0f", k.Flops/k.Time.Seconds()/1e9)
		}
		fmt.Fprintf(&sb, "%-22s %7d %10.3f %9.1f %6.1f %9s %12.1f\n", k.Kind, k.N/runs,
			k.Time.Seconds()*1e3/float64(runs), k.Time.Seconds()*1e6/float64(max(k.N, 1)),
			100*k.Time.Seconds()/all.Seconds(), gf, k.Host.Seconds()*1e6/float64(max(k.N, 1)))
	}
	return sb.String()
}

// gridPhases names the phases of a column that getrf_grid and geqrf_grid
// built with GRID_TIMING time (GT(k) in kernels/lapack.cl).
var gridPhases = map[string][]string{
	"getrf_grid": {"pivot: candidates reduced", "rows c and p loaded, swapped", "rows scaled, column c+1 updated", "candidate published, arrived", "other columns updated, barrier"},
	"potrf_row":  {"wait for the step's X (D)", "X loaded", "U12 of the own tiles (the owner: next block)", "wait for the range's U12 (P)", "rows below the step updated"},
	"geqrf_grid": {"sums added (after the 2nd barrier if split)", "reflector, row c", "rows updated, sums", "sums published", "grid barrier", "split: totals added"},
}

// BenchmarkGridPhases runs the resident Getrf and Geqrf of the
// -lapack.sizes orders with their grid kernels built with GRID_TIMING and
// logs, per column, the cycles work-item 0 of the last group spent in each phase
// (NVIDIA's GPUs only: the timer is PTX). Meant to be read:
//
//	go test -run XXX -bench GridPhases -lapack.sizes 4096 -benchtime 2x ./lapack
func BenchmarkGridPhases(b *testing.B) {
	impl := benchImpl(b)
	if !impl.gridLU || !gridUsable[float64](impl) {
		b.Skip("no grid kernels on this device")
	}
	for _, n := range sizes(b) {
		gen := generalBench(n)
		nf := float64(n)
		ipiv, tau := make([]int, n), make([]float64, n)
		spdA := spdBench(n, rand.New(rand.NewPCG(1, uint64(n))))
		for _, k := range []struct {
			kern  string
			flops float64
			a     []float64
			call  func(d *clblas.Matrix[float64]) (bool, error)
		}{
			{"getrf_grid", 2 * nf * nf * nf / 3, gen, func(d *clblas.Matrix[float64]) (bool, error) { return Getrf(impl, d, ipiv) }},
			{"geqrf_grid", 4 * nf * nf * nf / 3, gen, func(d *clblas.Matrix[float64]) (bool, error) { return true, Geqrf(impl, d, tau) }},
			{"potrf_row", nf * nf * nf / 3, spdA, func(d *clblas.Matrix[float64]) (bool, error) { return Potrf(impl, blas.Upper, d) }},
		} {
			b.Run(fmt.Sprintf("%s/n=%d", k.kern, n), func(b *testing.B) {
				times, err := cl.NewArray[float64](impl.blas.Runtime().Context(), cl.MemReadWrite, 8)
				if err != nil {
					b.Fatal(err)
				}
				defer times.Release()
				impl.gridTimes = map[string]*cl.Array[float64]{k.kern: times}
				defer func() { impl.gridTimes = nil }()
				// One run to build the kernels, then the timed ones from zero.
				runResident(b, impl, n, k.flops, k.a, k.call)
				ev, err := times.Fill(impl.blas.Runtime().Queue(), 0, 0, 8)
				if err == nil {
					err = ev.Release()
				}
				if err != nil {
					b.Fatal(err)
				}
				runResident(b, impl, n, k.flops, k.a, k.call)
				got := make([]float64, 8)
				if err := times.Read(impl.blas.Runtime().Queue(), 0, got); err != nil {
					b.Fatal(err)
				}
				var total float64
				for _, v := range got {
					total += v
				}
				cols := float64(b.N) * nf
				b.Logf("%s, n = %d: %.0f cycles a column in the last group, work-item 0", k.kern, n, total/cols)
				for i, name := range gridPhases[k.kern] {
					b.Logf("  %-45s %8.0f  %4.1f %%", name, got[i]/cols, 100*got[i]/total)
				}
			})
		}
	}
}
