package clblas

import (
	"strings"
	"sync/atomic"
	"testing"

	eng "github.com/gocompute/opencl/internal/engine"
	"gonum.org/v1/gonum/blas"
)

func TestPolicyString(t *testing.T) {
	for _, p := range []Policy{Auto, Always, Never} {
		got, err := ParsePolicy(" " + strings.ToUpper(p.String()) + " ")
		if err != nil || got != p {
			t.Errorf("ParsePolicy(%q) = %v, %v", p.String(), got, err)
		}
	}
	if s := Policy(7).String(); s != "Policy(7)" {
		t.Errorf("Policy(7).String() = %q", s)
	}
	if _, err := ParsePolicy("sometimes"); err == nil || !strings.Contains(err.Error(), "sometimes") {
		t.Errorf("ParsePolicy(sometimes): err = %v", err)
	}
}

// newNoneImpl returns an Implementation on the "none" device, made with the
// given options.
func newNoneImpl(opts ...Option) (*Implementation, error) {
	return New(append([]Option{withDevices(nil, nil, costModel{})}, opts...)...)
}

func TestNewOffloadEnv(t *testing.T) {
	for _, tc := range []struct {
		env  string
		opts []Option
		want Policy
	}{
		{"", nil, Auto},
		{"never", nil, Never},
		{"Always", nil, Always},
		{"auto", nil, Auto},
		{"never", []Option{WithOffload(Always)}, Always},
		{"bogus", []Option{WithOffload(Never)}, Never},
	} {
		t.Setenv(envOffload, tc.env)
		impl, err := newNoneImpl(tc.opts...)
		if err != nil {
			t.Errorf("GOCL_OFFLOAD=%q: %v", tc.env, err)
			continue
		}
		if impl.Policy() != tc.want {
			t.Errorf("GOCL_OFFLOAD=%q: policy %v, want %v", tc.env, impl.Policy(), tc.want)
		}
		impl.Close()
	}

	t.Setenv(envOffload, "bogus")
	if _, err := newNoneImpl(); err == nil || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("GOCL_OFFLOAD=bogus: err = %v, want one naming the value", err)
	}
	t.Setenv(envOffload, "")
	if _, err := newNoneImpl(WithOffload(Policy(9))); err == nil {
		t.Error("WithOffload(Policy(9)): no error")
	}
}

// cpuDeviceModel is a cost model of a CPU OpenCL device (PoCL) on a host
// whose gonum runs at cpuGFLOPS; the device runs at devGFLOPS.
func cpuDeviceModel(devGFLOPS float64) costModel {
	return costModel{
		present: true,
		Cost: eng.Cost{
			CPUDevice: true,
			FP64:      true,
			GFLOPS32:  2 * devGFLOPS,
			GFLOPS64:  devGFLOPS,
			MemGBps:   20,
			LinkGBps:  10,
			Launch:    50e3, // 50µs
		},
		cpuGFLOPS32: 30,
		cpuGFLOPS64: 15,
		cpuMemGBps:  20,
	}
}

// Workloads as the front end describes them.
func gemmWork(p precision, n int) workload {
	nn := fl(n) * fl(n)
	return work(p, 2*nn*fl(n), 4*nn)
}

func dotWork(p precision, n int) workload { return work(p, 2*fl(n), 2*fl(n)) }

func gemvWork(p precision, n int) workload {
	return work(p, 2*fl(n)*fl(n), fl(n)*fl(n)+3*fl(n))
}

// gemmWorkK is a Dgemm C = C − A·Bᵀ of m×m by inner dimension k (beta = 1:
// C goes both ways), as the front end describes it.
func gemmWorkK(p precision, m, k int) workload {
	mm := fl(m) * fl(m)
	return work(p, 2*mm*fl(k), 2*fl(m)*fl(k)+2*mm).over(k)
}

// pocl2Model is the model eng.EstimateCost gives PoCL on this project's
// 2-core CI machine (2 compute units at 2 GHz), with the CPU rates fillCPU
// gives 2 cores (fixed here: they depend on GOMAXPROCS).
func pocl2Model() costModel {
	return costModel{present: true,
		Cost: eng.Cost{CPUDevice: true, FP64: true,
			GFLOPS32: 64, GFLOPS64: 32, MemGBps: 20, LinkGBps: 30, Launch: 100e3, KHalf: 64},
		cpuGFLOPS64: 8, cpuGFLOPS32: 16, cpuMemGBps: 16}
}

// h200Model is the model eng.EstimateCost gives the H200 (132 compute
// units at 1980 MHz), with the CPU rates fillCPU gives the 16 cores of the
// host it is lent with.
func h200Model() costModel {
	prof := profH200
	prof.ClockMHz = 1980
	cm := engineCost(&eng.Engine{Prof: prof})
	cm.cpuGFLOPS64, cm.cpuGFLOPS32, cm.cpuMemGBps = 4*16, 8*16, 60
	return cm
}

// h200Level2 is h200Model with the rates fillCPU gives level 2 from Go
// slices on the host's 16 cores, the host sharing GEMV's and GER's rows
// or not.
func h200Level2(shares bool) costModel {
	cm := h200Model()
	cm.cpuStreamGBps, cm.stagedGBps = 10, 30
	cm.SharesLevel2 = shares
	return cm
}

// gerWork is a square Dger of order n as the front end describes it.
func gerWork(p precision, n int) workload {
	return work(p, 2*fl(n)*fl(n), 2*fl(n)*fl(n)+2*fl(n)).streamed().halfOnCPU()
}

func TestDecide(t *testing.T) {
	gpu := gpuLikeModel()
	noFP64 := gpuLikeModel()
	noFP64.FP64 = false
	none := costModel{}
	none.fillCPU()
	slowCPUDev := cpuDeviceModel(15)
	fastCPUDev := cpuDeviceModel(100)

	for _, tc := range []struct {
		name   string
		policy Policy
		cm     costModel
		w      workload
		want   bool
	}{
		{"gpu auto dgemm 2048", Auto, gpu, gemmWork(prec64, 2048), true},
		{"gpu auto sgemm 2048", Auto, gpu, gemmWork(prec32, 2048), true},
		{"gpu auto dgemm 16", Auto, gpu, gemmWork(prec64, 16), false},
		{"gpu auto ddot 1e7", Auto, gpu, dotWork(prec64, 1e7), false},
		{"gpu auto sdot 1e7", Auto, gpu, dotWork(prec32, 1e7), false},
		{"gpu auto dgemv 4096", Auto, gpu, gemvWork(prec64, 4096), false},
		{"gpu always ddot 1", Always, gpu, dotWork(prec64, 1), true},
		{"gpu never dgemm 2048", Never, gpu, gemmWork(prec64, 2048), false},
		{"no fp64 always dgemm", Always, noFP64, gemmWork(prec64, 2048), false},
		{"no fp64 auto dgemm", Auto, noFP64, gemmWork(prec64, 2048), false},
		{"no fp64 always sgemm", Always, noFP64, gemmWork(prec32, 16), true},
		{"none auto dgemm 2048", Auto, none, gemmWork(prec64, 2048), false},
		{"none always sgemm 2048", Always, none, gemmWork(prec32, 2048), false},
		{"cpu device auto dgemm 2048", Auto, slowCPUDev, gemmWork(prec64, 2048), false},
		{"cpu device auto sgemm 2048", Auto, slowCPUDev, gemmWork(prec32, 2048), false},
		{"cpu device auto ddot 1e7", Auto, slowCPUDev, dotWork(prec64, 1e7), false},
		{"fast cpu device auto dgemm 2048", Auto, fastCPUDev, gemmWork(prec64, 2048), true},
		{"fast cpu device auto dgemm 16", Auto, fastCPUDev, gemmWork(prec64, 16), false},
		{"fast cpu device auto ddot 1e7", Auto, fastCPUDev, dotWork(prec64, 1e7), false},
		// Measured on PoCL (2 cores, from Go slices, DGEMM NT, beta = 1,
		// padded C), against gonum: 128×128×8 0.53×, 128×128×32 0.93×,
		// 448×448×32 1.37×, 448×448×128 4.0×. (448×448×16 ran at 1.46×;
		// the model, erring towards gonum, keeps it on the CPU.)
		{"pocl dgemm 128×128×8", Auto, pocl2Model(), gemmWorkK(prec64, 128, 8), false},
		{"pocl dgemm 128×128×32", Auto, pocl2Model(), gemmWorkK(prec64, 128, 32), false},
		{"pocl dgemm 448×448×32", Auto, pocl2Model(), gemmWorkK(prec64, 448, 32), true},
		{"pocl dgemm 448×448×128", Auto, pocl2Model(), gemmWorkK(prec64, 448, 128), true},
		{"pocl dgemm 1024×1024×512", Auto, pocl2Model(), gemmWorkK(prec64, 1024, 512), true},
		// Trailing updates C += A·B from Go slices on the H200 and its 16
		// cores (BenchmarkGemmUpdate, 2026-11-30; device time / gonum's):
		// 0.72× at k = 8, 0.64× at 16, 0.85× at 32, 1.67× at 64, 1.76× at 128.
		{"h200 dgemm 448×448×8", Auto, h200Model(), gemmWorkK(prec64, 448, 8), false},
		{"h200 dgemm 448×448×16", Auto, h200Model(), gemmWorkK(prec64, 448, 16), false},
		{"h200 dgemm 448×448×32", Auto, h200Model(), gemmWorkK(prec64, 448, 32), false},
		{"h200 dgemm 448×448×64", Auto, h200Model(), gemmWorkK(prec64, 448, 64), true},
		{"h200 dgemm 448×448×128", Auto, h200Model(), gemmWorkK(prec64, 448, 128), true},
		// Level 2 from Go slices on the H200's host, device forced against
		// gonum (BenchmarkL2Variants, 2026-12-04; gonum's time over ours):
		// with the host's share, GEMV T 0.73× at 1024, 1.8× at 2048, about
		// 10× at 4096, GER 0.65× at 1024 and 2.0× at 2048; the stream
		// alone, GEMV 0.74–0.85× at 2048 and 3–4× at 4096.
		{"h200 dgemv 1024 shared", Auto, h200Level2(true), gemvWork(prec64, 1024).streamed().hostShares(true), false},
		{"h200 dgemv 2048 shared", Auto, h200Level2(true), gemvWork(prec64, 2048).streamed().hostShares(true), true},
		{"h200 dgemv 2048 stream alone", Auto, h200Level2(false), gemvWork(prec64, 2048).streamed().hostShares(true), false},
		{"h200 dgemv 4096 stream alone", Auto, h200Level2(false), gemvWork(prec64, 4096).streamed().hostShares(true), true},
		{"h200 dger 1024 shared", Auto, h200Level2(true), gerWork(prec64, 1024).hostShares(true), false},
		{"h200 dger 2048 shared", Auto, h200Level2(true), gerWork(prec64, 2048).hostShares(true), true},
		{"h200 dger 2048 negative increment", Auto, h200Level2(true), gerWork(prec64, 2048).hostShares(false), false},
		{"unknown device rates", Auto, costModel{present: true, Cost: eng.Cost{FP64: true}, cpuGFLOPS64: 10, cpuMemGBps: 10}, gemmWork(prec64, 4096), false},
	} {
		if got := decide(tc.policy, &tc.cm, tc.w); got != tc.want {
			t.Errorf("%s: decide = %v, want %v (device %.3gs, cpu %.3gs)", tc.name, got, tc.want, tc.cm.deviceTime(tc.w), tc.cm.cpuTime(tc.w))
		}
	}
}

// sinkDevice64 accepts Dgemm and Ddot without computing anything and counts
// them; everything else fails.
type sinkDevice64 struct {
	failDevice64
	calls *atomic.Int64
}

func (d sinkDevice64) Gemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	d.calls.Add(1)
	return nil
}

func (d sinkDevice64) Dot(n int, x []float64, incX int, y []float64, incY int) (float64, error) {
	d.calls.Add(1)
	return 0, nil
}

// sinkAuto returns an Auto Implementation on a GPU-like sink device (it
// counts Dgemm and Ddot calls and computes nothing), the count, and a
// square Dgemm of order n on it.
func sinkAuto(t *testing.T) (*Implementation, *atomic.Int64, func(n int)) {
	t.Helper()
	calls := new(atomic.Int64)
	impl, err := New(WithOffload(Auto), withDevices(sinkDevice64{failDevice64{new(atomic.Int64)}, calls}, nil, gpuLikeModel()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { impl.Close() })
	gemm := func(n int) {
		s := make([]float64, n*n)
		impl.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, s, n, s, n, 0, make([]float64, n*n), n)
	}
	return impl, calls, gemm
}

// TestAutoRouting checks the workloads the front end itself describes: with
// a GPU-like device a large Dgemm goes to the device, a small one and a
// long Ddot stay on the CPU.
func TestAutoRouting(t *testing.T) {
	impl, calls, gemm := sinkAuto(t)
	gemm(512)
	if calls.Load() != 1 {
		t.Errorf("Dgemm n=512 did not go to the device")
	}
	gemm(16)
	x := make([]float64, 1<<20)
	impl.Ddot(len(x), x, 1, x, 1)
	if calls.Load() != 1 {
		t.Errorf("Dgemm n=16 or Ddot n=2²⁰ went to the device")
	}
}

// TestStats: each call the policy weighs is counted where it ran; a call
// below the gate (gonum needs less than the device's fixed cost) is not; a
// device failure (finished on the CPU) counts as a device call that failed.
func TestStats(t *testing.T) {
	impl, _, gemm := sinkAuto(t)
	gemm(512)
	gemm(64) // weighed: above the gate, below the device's break-even
	gemm(64)
	gemm(16) // below the gate: not counted
	x := make([]float64, 4)
	impl.Dscal(0, 2, x, 1) // a quick return: not counted
	if got, want := impl.Stats()["Dgemm"], (RoutineStats{Device: 1, CPU: 2}); got != want {
		t.Errorf("Dgemm stats %+v, want %+v", got, want)
	}
	if _, ok := impl.Stats()["Dscal"]; ok {
		t.Error("a quick return was counted")
	}

	// A float32 device that fails every call it is given.
	impl32, err := New(WithOffload(Always), withDevices(nil, failDevice32{new(atomic.Int64)}, gpuLikeModel()))
	if err != nil {
		t.Fatal(err)
	}
	defer impl32.Close()
	y := []float32{1, 2, 3}
	if got := impl32.Sasum(3, y, 1); got != 6 {
		t.Errorf("Sasum = %v after the device failed, want 6", got)
	}
	if got, want := impl32.Stats()["Sasum"], (RoutineStats{Device: 1, Failed: 1}); got != want {
		t.Errorf("Sasum stats %+v, want %+v", got, want)
	}
}
