package clblas

import (
	"flag"
	"fmt"
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// sweepFull selects the full size sweep of BenchmarkSweep (level 1 to
// 10⁷, level 2 to 4096², level 3 to 2048); without it the sweep is a
// subset that runs in seconds on a CPU device.
var sweepFull = flag.Bool("sweep.full", false, "BenchmarkSweep: the full size sweep")

// sweepSizes returns the sizes of BenchmarkSweep for a level.
func sweepSizes(level int) []int {
	full := map[int][]int{
		1: {1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000},
		2: {1, 4, 16, 64, 256, 1024, 1280, 1536, 2048, 4096},
		3: {1, 4, 16, 32, 64, 128, 256, 512, 1024, 2048},
	}
	quick := map[int][]int{
		1: {1, 10, 100, 1000, 100_000},
		2: {1, 16, 64, 256},
		3: {1, 8, 32, 64, 128},
	}
	if *sweepFull {
		return full[level]
	}
	return quick[level]
}

// sweepCase is one routine of the sweep at one size: call runs it once
// through the given implementation.
type sweepCase struct {
	name, routine string
	call          func(impl blas.Float64, impl32 blas.Float32)
}

// sweepCases returns the routines of the sweep at size n, on operands
// allocated here.
func sweepCases(level, n int) []sweepCase {
	vec := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = 1 + float64(i%7)/8
		}
		return v
	}
	vec32 := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = 1 + float32(i%7)/8
		}
		return v
	}
	switch level {
	case 1:
		x, y := vec(n), vec(n)
		return []sweepCase{
			{"Daxpy", "Daxpy", func(f blas.Float64, _ blas.Float32) { f.Daxpy(n, 1e-9, x, 1, y, 1) }},
			{"Ddot", "Ddot", func(f blas.Float64, _ blas.Float32) { sweepSink = f.Ddot(n, x, 1, y, 1) }},
			{"Dnrm2", "Dnrm2", func(f blas.Float64, _ blas.Float32) { sweepSink = f.Dnrm2(n, x, 1) }},
			{"Dscal", "Dscal", func(f blas.Float64, _ blas.Float32) { f.Dscal(n, 1, x, 1) }},
		}
	case 2:
		a, x, y, small := vec(n*n), vec(n), vec(n), vec(n*n)
		for i := range small {
			small[i] *= 1e-12
		}
		return []sweepCase{
			{"DgemvN", "Dgemv", func(f blas.Float64, _ blas.Float32) { f.Dgemv(blas.NoTrans, n, n, 1, a, n, x, 1, 0, y, 1) }},
			{"DgemvT", "Dgemv", func(f blas.Float64, _ blas.Float32) { f.Dgemv(blas.Trans, n, n, 1, a, n, x, 1, 0, y, 1) }},
			{"Dger", "Dger", func(f blas.Float64, _ blas.Float32) { f.Dger(n, n, 1e-12, x, 1, y, 1, a, n) }},
			{"Dsymv", "Dsymv", func(f blas.Float64, _ blas.Float32) { f.Dsymv(blas.Upper, n, 1, a, n, x, 1, 0, y, 1) }},
			// A unit diagonal and small elements keep x from growing.
			{"Dtrmv", "Dtrmv", func(f blas.Float64, _ blas.Float32) {
				f.Dtrmv(blas.Upper, blas.NoTrans, blas.Unit, n, small, n, x, 1)
			}},
		}
	case 3:
		a, b, c := vec(n*n), vec(n*n), vec(n*n)
		a32, b32, c32 := vec32(n*n), vec32(n*n), vec32(n*n)
		return []sweepCase{
			{"Dgemm", "Dgemm", func(f blas.Float64, _ blas.Float32) {
				f.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, b, n, 0, c, n)
			}},
			{"Sgemm", "Sgemm", func(_ blas.Float64, f blas.Float32) {
				f.Sgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a32, n, b32, n, 0, c32, n)
			}},
		}
	}
	return nil
}

var sweepSink float64

// BenchmarkSweep compares the drop-in under the default auto policy with
// gonum's Go code, routine by routine, over a range of sizes. Each
// iteration runs the call once through gonum and once through ours, in
// alternating batches, so that both sides see the same machine load; it
// reports both times per call, their ratio (x-gonum: gonum's time over
// ours, ≥ 0.95 is the target) and the fraction of our calls that auto sent
// to the device (on-device). ns/op is the pair.
//
//	go test -run XXX -bench Sweep ./blas/
//	go test -run XXX -bench Sweep ./blas/ -sweep.full   (the GPU host)
func BenchmarkSweep(b *testing.B) {
	ours, err := New(WithOffload(Auto))
	if err != nil {
		b.Skipf("New: %v", err)
	}
	defer ours.Close()
	var ref gonum.Implementation
	for level := 1; level <= 3; level++ {
		for _, n := range sweepSizes(level) {
			for _, c := range sweepCases(level, n) {
				sweepRun(b, ours, c.name, c.routine, n, func() { c.call(ref, ref) }, func() { c.call(ours, ours) })
			}
		}
	}
}

// sweepRun runs the sub-benchmark name/n=n of a sweep: sweepPair on the
// two calls, and the fraction of ours that auto sent to the device
// (on-device, from routine's counters).
func sweepRun(b *testing.B, ours *Implementation, name, routine string, n int, gonumCall, oursCall func()) {
	b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
		before := ours.Stats()[routine].Device
		calls := sweepPair(b, gonumCall, oursCall)
		dev := ours.Stats()[routine].Device - before
		b.ReportMetric(float64(dev)/float64(calls), "on-device")
	})
}

// sweepPair times b.N calls of each of gonum and ours, in batches of
// about 20 µs whose order alternates. It reports each side's time per call
// in its fastest batch (other processes' interference only ever adds time,
// so the fastest batch is the steadiest figure on a shared machine) and
// their ratio.
// It returns the number of calls of ours.
func sweepPair(b *testing.B, gonumCall, oursCall func()) (calls int) {
	gonumCall() // first touches, kernel builds
	oursCall()
	t0 := time.Now()
	gonumCall()
	k := int(min(max(20*time.Microsecond/max(time.Since(t0), 1), 1), 4096))
	b.ResetTimer()
	bestG, bestO := math.Inf(1), math.Inf(1)
	batch := func(f func(), k int, best *float64) {
		t0 := time.Now()
		for range k {
			f()
		}
		if d := float64(time.Since(t0).Nanoseconds()) / float64(k); d < *best {
			*best = d
		}
	}
	for done, round := 0, 0; done < b.N; round++ {
		k := min(b.N-done, k)
		if round%2 == 0 {
			batch(gonumCall, k, &bestG)
			batch(oursCall, k, &bestO)
		} else {
			batch(oursCall, k, &bestO)
			batch(gonumCall, k, &bestG)
		}
		done += k
	}
	b.ReportMetric(bestG, "gonum-ns/op")
	b.ReportMetric(bestO, "auto-ns/op")
	b.ReportMetric(bestG/bestO, "x-gonum")
	return b.N + 1
}
