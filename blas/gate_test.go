package clblas

import (
	"math/rand/v2"
	"reflect"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/platform"
)

// gateModels are the cost models the gate tests run on.
func gateModels() map[string]costModel {
	h200 := costModel{present: true, Cost: eng.EstimateCost(profH200)}
	h200.fillCPU()
	pocl := costModel{present: true, Cost: eng.EstimateCost(profPoCL)}
	pocl.fillCPU()
	return map[string]costModel{
		"gpu-like": gpuLikeModel(), "cpu-device": cpuDeviceModel(60), "h200": h200, "pocl": pocl,
	}
}

// profPoCL is a two-core PoCL profile, for tests of choices made from it.
var profPoCL = platform.Profile{Name: "cpu", Vendor: platform.VendorPoCL, Platform: "Portable Computing Language",
	Type: cl.DeviceTypeCPU, ComputeUnits: 2, ClockMHz: 2000, MaxWorkGroupSize: 4096, FP64: true}

// TestGateNeverWrong: a call the gate keeps on the CPU is one that the
// full decision keeps there too, on every model and workload; Always gates
// nothing and Never everything.
func TestGateNeverWrong(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for name, cm := range gateModels() {
		for _, p := range []Policy{Auto, Always, Never} {
			impl := &Implementation{policy: p}
			impl.setCost(cm)
			gatedSome := false
			for range 20000 {
				prec := prec32
				if rnd.IntN(2) == 0 {
					prec = prec64
				}
				w := work(prec, rnd.ExpFloat64()*pow10(rnd.IntN(10)), rnd.ExpFloat64()*pow10(rnd.IntN(10)))
				if rnd.IntN(2) == 0 {
					w = w.direct(rnd.Float64()).over(1 + rnd.IntN(4096))
				}
				g := impl.gated(w)
				gatedSome = gatedSome || g
				switch {
				case p == Always && g:
					t.Fatalf("%s, always: %+v gated", name, w)
				case p == Never && !g:
					t.Fatalf("%s, never: %+v not gated", name, w)
				case g && decide(p, &impl.cost, w):
					t.Fatalf("%s, %v: %+v gated, but the device is faster (device %.3gs, cpu %.3gs)",
						name, p, w, impl.cost.deviceTime(w), impl.cost.cpuTime(w))
				}
			}
			if p == Auto && !gatedSome {
				t.Errorf("%s, auto: no workload was gated", name)
			}
		}
	}
}

func pow10(e int) float64 {
	r := 1.0
	for range e {
		r *= 10
	}
	return r
}

// TestLevel1Limits: a level 1 call of n = limit − 1 elements is gated
// (not counted), one of n = limit is weighed (counted): the limits agree
// with the workloads the front ends describe.
func TestLevel1Limits(t *testing.T) {
	impl, err := New(WithOffload(Auto), withDevices(refDevice64{new(atomic.Int64)}, refDevice32{new(atomic.Int64)}, gpuLikeModel()))
	if err != nil {
		t.Fatal(err)
	}
	defer impl.Close()
	rot := blas.DrotmParams{Flag: blas.Diagonal, H: [4]float64{1, 0, 0, 1}}
	rot32 := blas.SrotmParams{Flag: blas.Diagonal, H: [4]float32{1, 0, 0, 1}}
	calls := map[string]func(n int, x, y []float64, x32, y32 []float32){
		"Ddot":   func(n int, x, y []float64, _, _ []float32) { impl.Ddot(n, x, 1, y, 1) },
		"Dnrm2":  func(n int, x, y []float64, _, _ []float32) { impl.Dnrm2(n, x, 1) },
		"Dasum":  func(n int, x, y []float64, _, _ []float32) { impl.Dasum(n, x, 1) },
		"Idamax": func(n int, x, y []float64, _, _ []float32) { impl.Idamax(n, x, 1) },
		"Dswap":  func(n int, x, y []float64, _, _ []float32) { impl.Dswap(n, x, 1, y, 1) },
		"Dcopy":  func(n int, x, y []float64, _, _ []float32) { impl.Dcopy(n, x, 1, y, 1) },
		"Daxpy":  func(n int, x, y []float64, _, _ []float32) { impl.Daxpy(n, 2, x, 1, y, 1) },
		"Drot":   func(n int, x, y []float64, _, _ []float32) { impl.Drot(n, x, 1, y, 1, 0.6, 0.8) },
		"Drotm":  func(n int, x, y []float64, _, _ []float32) { impl.Drotm(n, x, 1, y, 1, rot) },
		"Dscal":  func(n int, x, y []float64, _, _ []float32) { impl.Dscal(n, 2, x, 1) },
		"Sdot":   func(n int, _, _ []float64, x, y []float32) { impl.Sdot(n, x, 1, y, 1) },
		"Snrm2":  func(n int, _, _ []float64, x, y []float32) { impl.Snrm2(n, x, 1) },
		"Sasum":  func(n int, _, _ []float64, x, y []float32) { impl.Sasum(n, x, 1) },
		"Isamax": func(n int, _, _ []float64, x, y []float32) { impl.Isamax(n, x, 1) },
		"Sswap":  func(n int, _, _ []float64, x, y []float32) { impl.Sswap(n, x, 1, y, 1) },
		"Scopy":  func(n int, _, _ []float64, x, y []float32) { impl.Scopy(n, x, 1, y, 1) },
		"Saxpy":  func(n int, _, _ []float64, x, y []float32) { impl.Saxpy(n, 2, x, 1, y, 1) },
		"Srot":   func(n int, _, _ []float64, x, y []float32) { impl.Srot(n, x, 1, y, 1, 0.6, 0.8) },
		"Srotm":  func(n int, _, _ []float64, x, y []float32) { impl.Srotm(n, x, 1, y, 1, rot32) },
		"Sscal":  func(n int, _, _ []float64, x, y []float32) { impl.Sscal(n, 2, x, 1) },
		"Dsdot":  func(n int, _, _ []float64, x, y []float32) { impl.Dsdot(n, x, 1, y, 1) },
		"Sdsdot": func(n int, _, _ []float64, x, y []float32) { impl.Sdsdot(n, 1, x, 1, y, 1) },
	}
	lims := reflect.ValueOf(impl.lim)
	if lims.NumField() != len(calls) {
		t.Fatalf("%d level 1 limits, %d routines tested", lims.NumField(), len(calls))
	}
	for i := range lims.NumField() {
		name := lims.Type().Field(i).Name
		call, ok := calls[name]
		if !ok {
			t.Fatalf("no test call for %s", name)
		}
		lim := int(lims.Field(i).Int())
		if lim < 2 || lim > 1<<22 {
			t.Fatalf("%s: limit %d on the GPU-like model", name, lim)
		}
		x, y := make([]float64, lim), make([]float64, lim)
		x32, y32 := make([]float32, lim), make([]float32, lim)
		for j := range x {
			x[j], y[j], x32[j], y32[j] = 1, 1, 1, 1
		}
		call(lim-1, x, y, x32, y32)
		if st, ok := impl.Stats()[name]; ok {
			t.Errorf("%s: n = %d (limit − 1) was counted: %+v", name, lim-1, st)
		}
		call(lim, x, y, x32, y32)
		if st := impl.Stats()[name]; st.Device+st.CPU != 1 {
			t.Errorf("%s: n = %d (the limit) counted %+v, want one call", name, lim, st)
		}
	}
}

// TestTestblasAuto runs gonum's conformance tests (panics included) under
// Auto on a GPU-like model, so that calls take the gate's path straight to
// gonum, or are weighed and run on the reference device.
func TestTestblasAuto(t *testing.T) {
	impl, err := New(WithOffload(Auto), withDevices(refDevice64{new(atomic.Int64)}, refDevice32{new(atomic.Int64)}, gpuLikeModel()))
	if err != nil {
		t.Fatal(err)
	}
	defer impl.Close()
	for _, tc := range testblasSuite {
		t.Run(tc.name, func(t *testing.T) { tc.test(t, impl) })
	}
}

// TestAutoLevel2Staged: on a discrete GPU that streams GEMV (and SYMV,
// TRMV) through the pinned staging buffers, auto sends a large GEMV or SYMV
// from Go slices to the device and keeps a small one, level 2 moved from
// pageable memory and level 1 on the CPU; without streaming GEMV stays
// too.
func TestAutoLevel2Staged(t *testing.T) {
	cm := costModel{present: true, Cost: eng.EstimateCost(profH200), cpuGFLOPS32: 92, cpuGFLOPS64: 46, cpuMemGBps: 60, cpuStreamGBps: 10, stagedGBps: stagedLevel2GBps}
	cm.StagesLevel2 = true
	gemv := func(n int) workload { return work(prec64, 2*fl(n)*fl(n), fl(n)*fl(n)+2*fl(n)).streamed() }
	symv := func(n int) workload {
		return work(prec64, 2*fl(n)*fl(n), fl(n)*fl(n)+2*fl(n)).streamedTriangle()
	}
	trmv := func(n int) workload {
		return work(prec64, fl(n)*fl(n), fl(n)*fl(n)+2*fl(n)).streamedTriangle().halfOnCPU()
	}
	ger := func(n int) workload { return work(prec64, 2*fl(n)*fl(n), 2*fl(n)*fl(n)+2*fl(n)).streamed().halfOnCPU() }
	for _, tc := range []struct {
		name string
		w    workload
		want bool
	}{
		{"dgemv 4096", gemv(4096), true},
		// On the H200's host gonum reads a 2048² A (32 MiB) from cache
		// faster than the staging streams it (BENCHMARKS.md, the sweep).
		{"dgemv 2048", gemv(2048), false},
		{"dgemv 1024", gemv(1024), false},
		{"dgemv 256", gemv(256), false},
		{"dsymv 4096 (pageable)", work(prec64, 2*4096*4096, 4096*4096+2*4096), false},
		// SYMV and TRMV stream their triangle. gonum's Dsymv took 2.0 ms
		// at 2048 on the H200's host, against 0.9–1.0 ms from slices on
		// the device; its Dtrmv 0.75–0.85 ms against 0.93–1.04
		// (BENCHMARKS.md, 2026-12-04).
		{"dsymv 4096", symv(4096), true},
		{"dsymv 2048", symv(2048), true},
		{"dsymv 1024", symv(1024), false},
		{"dtrmv 4096", trmv(4096), true},
		{"dtrmv 2048", trmv(2048), false},
		// gonum's Dger reads and writes a 2048² A (32 MiB) in one pass
		// from cache; the device moves it both ways.
		{"dger 2048", ger(2048), false},
		{"dger 4096", ger(4096), true},
		{"ddot 1e8", work(prec64, 2e8, 2e8), false},
	} {
		if got := decide(Auto, &cm, tc.w); got != tc.want {
			t.Errorf("%s: decide = %v, want %v (device %.3gs, cpu %.3gs)", tc.name, got, tc.want, cm.deviceTime(tc.w), cm.cpuTime(tc.w))
		}
	}
	cm.StagesLevel2 = false
	if decide(Auto, &cm, gemv(4096)) {
		t.Error("dgemv 4096 goes to a device that would move A from pageable memory")
	}
}
