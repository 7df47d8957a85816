package clblas

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/internal/multi"
	"github.com/gocompute/opencl/platform"
	"github.com/gocompute/opencl/platform/platformtest"
)

// twoDevices returns two OpenCL devices that a split runs on together
// (keepJoining), or skips: PoCL lists two when POCL_DEVICES="pthread
// pthread" (scripts/test.sh sets it, and then a missing second device fails
// under GOCL_REQUIRE_DEVICE=1). A discrete GPU and a CPU device do not
// split together; TestMultiMixedKinds checks that pair.
func twoDevices(t *testing.T) []*platform.Device {
	t.Helper()
	all := allDevices(t)
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			if joins(all[i], all[j]) {
				return []*platform.Device{all[i], all[j]}
			}
		}
	}
	reason := "no two OpenCL devices that split work together; run with POCL_DEVICES=\"pthread pthread\" to have PoCL list two"
	if len(strings.Fields(os.Getenv("POCL_DEVICES"))) >= 2 {
		platformtest.Unavailable(t, reason+" (POCL_DEVICES is set, but PoCL listed one device)")
	}
	t.Skip(reason)
	return nil
}

// allDevices returns every OpenCL device listed, or skips without one.
func allDevices(t *testing.T) []*platform.Device {
	t.Helper()
	platformtest.Device(t)
	all, err := platform.Devices()
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// kindOf is what keepJoining knows of device d.
func kindOf(d *platform.Device) memberKind {
	p := d.Profile()
	return memberKind{cpu: p.IsCPU(), discrete: !p.HostUnifiedMemory}
}

// joins reports whether a split keeps both a and b.
func joins(a, b *platform.Device) bool {
	return len(keepJoining([]int{0, 1}, []memberKind{kindOf(a), kindOf(b)})) == 2
}

// splitSmall makes every offloaded GEMM split, however small, for the
// test's duration.
func splitSmall(t *testing.T) {
	old := splitMinSeconds
	splitMinSeconds = 0
	t.Cleanup(func() { splitMinSeconds = old })
}

// gemmCases are the shapes the split is checked on: split by rows (m ≥ n),
// by columns, ragged against the tile alignment.
var gemmCases = []struct{ m, n, k int }{{301, 97, 45}, {70, 211, 33}, {64, 64, 1}, {200, 200, 0}}

// scalarCases are the α, β pairs, with whether C starts with NaN (β = 0
// must overwrite it).
var scalarCases = []struct {
	alpha, beta float64
	nanC        bool
}{{1.5, 0, true}, {0.5, -1.25, false}, {0, 2, false}, {-1, 1, false}}

// checkMultiGemm runs every transpose and case of Dgemm and Sgemm on impl
// against gonum.
func checkMultiGemm(t *testing.T, impl *Implementation) {
	t.Helper()
	rnd := rand.New(rand.NewPCG(21, 1))
	trans := []blas.Transpose{blas.NoTrans, blas.Trans}
	for _, sh := range gemmCases {
		for _, tA := range trans {
			for _, tB := range trans {
				for _, sc := range scalarCases {
					m, n, k := sh.m, sh.n, sh.k
					lda, ldb, ldc := max(k, 1)+3, n+1, n+5
					if tA != blas.NoTrans {
						lda = m + 2
					}
					if tB != blas.NoTrans {
						ldb = max(k, 1) + 4
					}
					a := randF64(rnd, max(m, k)*lda)
					b := randF64(rnd, max(n, k)*ldb)
					c := randF64(rnd, m*ldc)
					if sc.nanC {
						for i := range c {
							c[i] = math.NaN()
						}
					}
					want := append([]float64(nil), c...)
					native.Dgemm(tA, tB, m, n, k, sc.alpha, a, lda, b, ldb, sc.beta, want, ldc)
					got := append([]float64(nil), c...)
					impl.Dgemm(tA, tB, m, n, k, sc.alpha, a, lda, b, ldb, sc.beta, got, ldc)
					what := fmt.Sprintf("Dgemm(%v, %v, %d, %d, %d, α=%v, β=%v)", tA, tB, m, n, k, sc.alpha, sc.beta)
					checkSame(t, what, got, want, 1e-12*float64(k+1))

					a32, b32, c32 := f32s(a), f32s(b), f32s(c)
					want32 := append([]float32(nil), c32...)
					native.Sgemm(tA, tB, m, n, k, float32(sc.alpha), a32, lda, b32, ldb, float32(sc.beta), want32, ldc)
					impl.Sgemm(tA, tB, m, n, k, float32(sc.alpha), a32, lda, b32, ldb, float32(sc.beta), c32, ldc)
					checkSame(t, "S"+what[1:], f64s(c32), f64s(want32), 1e-4*float64(k+1))
				}
			}
		}
	}
}

// checkSame is checkClose where NaN equals NaN (the elements between the
// rows of C, which no call touches).
func checkSame(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	for i := range want {
		if math.IsNaN(got[i]) && math.IsNaN(want[i]) {
			continue
		}
		if d := math.Abs(got[i] - want[i]); !(d <= tol) {
			t.Errorf("%s: element %d = %v, want %v", what, i, got[i], want[i])
			return
		}
	}
}

func f32s(s []float64) []float32 {
	out := make([]float32, len(s))
	for i, v := range s {
		out[i] = float32(v)
	}
	return out
}

func f64s(s []float32) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = float64(v)
	}
	return out
}

// TestMultiGemm splits GEMMs over two devices: every transpose, ragged
// sizes, α/β/NaN cases against gonum; tiles land on both devices; Close
// leaves no OpenCL object behind.
func TestMultiGemm(t *testing.T) {
	devs := twoDevices(t)
	splitSmall(t)
	base := cl.LiveObjects()
	impl, err := New(WithDevices(devs...), WithOffload(Always))
	if err != nil {
		t.Fatal(err)
	}
	if got := impl.NumDevices(); got != 2 {
		t.Fatalf("NumDevices() = %d, want 2", got)
	}
	checkMultiGemm(t, impl)
	st := impl.DeviceStats()
	t.Logf("device stats %+v", st)
	for i, s := range st {
		if s.Tiles == 0 || s.Failed != 0 {
			t.Errorf("device %d (%s): %d tiles, %d failed; want tiles and no failure", i, s.Device, s.Tiles, s.Failed)
		}
	}
	if err := impl.Close(); err != nil {
		t.Fatal(err)
	}
	for kind, n := range cl.LiveObjects() {
		if n != base[kind] {
			t.Errorf("%d %s objects live after Close, %d before New", n, kind, base[kind])
		}
	}
	// After Close every call runs on the CPU, still right.
	a, b, c := []float64{1, 2}, []float64{3, 4}, []float64{0}
	impl.Dgemm(blas.NoTrans, blas.NoTrans, 1, 1, 2, 1, a, 2, b, 1, 0, c, 1)
	if c[0] != 11 {
		t.Errorf("Dgemm after Close = %v, want 11", c[0])
	}
}

// TestMultiMixedKinds runs GEMMs on a discrete GPU and a CPU device listed
// first: the GPU is the primary, the split leaves the CPU device out, so
// every call runs whole on the GPU, with gonum's answers.
func TestMultiMixedKinds(t *testing.T) {
	var gpu, cpu *platform.Device
	for _, d := range allDevices(t) {
		switch k := kindOf(d); {
		case k.cpu && cpu == nil:
			cpu = d
		case !k.cpu && k.discrete && gpu == nil:
			gpu = d
		}
	}
	if gpu == nil || cpu == nil {
		t.Skip("needs a discrete GPU and a CPU device (scripts/oclgrind.sh pairs Oclgrind with PoCL)")
	}
	splitSmall(t)
	impl, err := New(WithDevices(cpu, gpu), WithOffload(Always))
	if err != nil {
		t.Fatal(err)
	}
	defer impl.Close()
	if impl.DeviceName() != gpu.String() {
		t.Fatalf("primary %s, want the GPU %s", impl.DeviceName(), gpu)
	}
	checkMultiGemm(t, impl)
	st := impl.DeviceStats()
	t.Logf("device stats %+v", st)
	for i, s := range st {
		if s.Tiles != 0 || s.Failed != 0 || (i == 0) != (s.Whole > 0) {
			t.Errorf("device %d (%s): %d tiles, %d failed, %d whole; want the GPU's calls whole and no tiles", i, s.Device, s.Tiles, s.Failed, s.Whole)
		}
	}
}

// TestMultiSelect checks the ways of naming several devices.
func TestMultiSelect(t *testing.T) {
	devs := twoDevices(t)
	specs := []string{"all", devs[0].Index() + "," + devs[1].Index()}
	if devs[0].Profile().Vendor == platform.VendorPoCL && devs[1].Profile().Vendor == platform.VendorPoCL {
		specs = append(specs, "pocl:*")
	}
	for _, spec := range specs {
		t.Setenv(platform.EnvDevice, spec)
		impl, err := New()
		if err != nil {
			t.Errorf("GOCL_DEVICE=%q: %v", spec, err)
			continue
		}
		if got := impl.NumDevices(); got < 2 {
			t.Errorf("GOCL_DEVICE=%q: NumDevices() = %d, want at least 2", spec, got)
		}
		impl.Close()
	}
	bad := []string{devs[0].Index() + ",no-such-device-anywhere", "pocl,"}
	if !anyAccelerator(t) {
		bad = append(bad, "accelerator:*")
	}
	for _, bad := range bad {
		t.Setenv(platform.EnvDevice, bad)
		if impl, err := New(); err == nil {
			impl.Close()
			t.Errorf("GOCL_DEVICE=%q: New succeeded, want an error", bad)
		}
	}
	t.Setenv(platform.EnvDevice, "all")
	impl, err := New(WithDevices(devs[1]))
	if err != nil {
		t.Fatal(err)
	}
	defer impl.Close()
	if impl.NumDevices() != 1 || impl.DeviceName() != devs[1].String() {
		t.Errorf("WithDevices(one) over GOCL_DEVICE=all: %d devices, %s; want only %s", impl.NumDevices(), impl.DeviceName(), devs[1])
	}
	if _, err := New(WithDevices()); err == nil {
		t.Error("WithDevices() with no device: New succeeded")
	}
}

// anyAccelerator reports whether a listed device calls itself an
// accelerator (Oclgrind does, beside CPU and GPU).
func anyAccelerator(t *testing.T) bool {
	return slices.ContainsFunc(allDevices(t), func(d *platform.Device) bool {
		return d.Profile().Type&cl.DeviceTypeAccelerator != 0
	})
}

// TestMultiSlowDevice delays every tile of the second device: it gets
// proportionally fewer rows, and the answers stay right.
func TestMultiSlowDevice(t *testing.T) {
	devs := twoDevices(t)
	splitSmall(t)
	hook := func(i int, _ multi.Tile) error {
		if i == 1 {
			time.Sleep(100 * time.Millisecond)
		}
		return nil
	}
	impl, err := New(WithDevices(devs...), WithOffload(Always), withMultiHook(hook))
	if err != nil {
		t.Fatal(err)
	}
	defer impl.Close()
	rnd := rand.New(rand.NewPCG(21, 2))
	const m, n, k = 512, 128, 128
	a, b := randF64(rnd, m*k), randF64(rnd, k*n)
	for range 4 {
		c, want := make([]float64, m*n), make([]float64, m*n)
		impl.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 0, c, n)
		native.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 0, want, n)
		checkClose(t, "Dgemm", c, want, 1e-12*k)
	}
	st := impl.DeviceStats()
	t.Logf("device stats %+v", st)
	if st[0].Units+st[1].Units != 4*m {
		t.Errorf("the devices did %d rows in all, want %d", st[0].Units+st[1].Units, 4*m)
	}
	if 2*st[1].Units > st[0].Units {
		t.Errorf("the slow device did %d rows, the fast %d: want the slow one well under half of the fast one's", st[1].Units, st[0].Units)
	}
	set := impl.multiOf()
	if s0, s1 := loadFloat(set.devs[0].speed("Dgemm")), loadFloat(set.devs[1].speed("Dgemm")); !(s1 < s0) {
		t.Errorf("measured speed factors %v (fast) and %v (slow): the slow device is not measured slower", s0, s1)
	}
}

// TestMultiFault fails the second device during split calls, by the
// engine's own fault injection (every command it enqueues fails) and by
// its first tile failing while the first device works: the answers stay right, the first device
// finishes, each failing device is logged once.
func TestMultiFault(t *testing.T) {
	devs := twoDevices(t)
	splitSmall(t)
	for _, how := range []string{"engine", "mid-call"} {
		t.Run(how, func(t *testing.T) {
			var tiles atomic.Int64
			hook := func(i int, _ multi.Tile) error {
				if how == "mid-call" && i == 1 && tiles.Add(1) == 1 {
					time.Sleep(20 * time.Millisecond) // the first device works meanwhile
					return errors.New("injected tile failure")
				}
				return nil
			}
			rec := &recorder{}
			impl, err := New(WithDevices(devs...), WithOffload(Always), WithLogger(slog.New(rec)), withMultiHook(hook))
			if err != nil {
				t.Fatal(err)
			}
			defer impl.Close()
			if how == "engine" {
				fail := func(site string) error { return cl.OutOfResources }
				impl.multiOf().devs[1].e.Fault.Store(&fail)
			}
			rnd := rand.New(rand.NewPCG(21, 3))
			const m, n, k = 300, 100, 64
			a, b := randF64(rnd, m*k), randF64(rnd, k*n)
			for call := range 3 {
				c, want := randF64(rnd, m*n), make([]float64, m*n)
				copy(want, c)
				impl.Dgemm(blas.NoTrans, blas.Trans, m, n, k, 0.5, a, k, b, k, 2, c, n)
				native.Dgemm(blas.NoTrans, blas.Trans, m, n, k, 0.5, a, k, b, k, 2, want, n)
				checkClose(t, fmt.Sprintf("Dgemm call %d", call), c, want, 1e-12*k)
			}
			st := impl.DeviceStats()
			t.Logf("device stats %+v", st)
			if st[1].Failed == 0 || st[0].Failed != 0 || st[0].Tiles == 0 {
				t.Errorf("device stats %+v: want failures on the second device only, tiles on the first", st)
			}
			rec.mu.Lock()
			logged := len(rec.records)
			rec.mu.Unlock()
			if logged != 1 {
				t.Errorf("%d log records, want the one failing device logged once", logged)
			}
		})
	}
}

// TestMultiHostSlices: a HostSlice made on a multi-device Implementation
// is registered with every device, so that each device's staged GEMM tiles
// move it without staging copies; the answers are right; Release
// unregisters it everywhere; nothing leaks.
func TestMultiHostSlices(t *testing.T) {
	devs := twoDevices(t)
	splitSmall(t)
	base := cl.LiveObjects()
	// Copies and the staged pipeline on PoCL too: the path GPUs take.
	impl, err := New(WithDevices(devs...), WithOffload(Always), WithZeroCopy(false), WithGemmPipeline("on"))
	if err != nil {
		t.Fatal(err)
	}
	const m, n, k = 256, 96, 80
	hs := make([]*HostSlice[float64], 3)
	for i, size := range []int{m * k, k * n, m * n} {
		if hs[i], err = NewHostSlice[float64](impl, size); err != nil {
			t.Fatal(err)
		}
	}
	a, b, c := hs[0].Data(), hs[1].Data(), hs[2].Data()
	rnd := rand.New(rand.NewPCG(21, 6))
	copy(a, randF64(rnd, m*k))
	copy(b, randF64(rnd, k*n))
	second := impl.multiOf().devs[1].e
	if !eng.Contains(&second.HostSlices, b[k:]) {
		t.Error("the second device does not know the HostSlice")
	}
	for range 3 {
		want := make([]float64, m*n)
		native.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 0, want, n)
		impl.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 0, c, n)
		checkClose(t, "Dgemm on HostSlices", c, want, 1e-12*k)
	}
	st := impl.DeviceStats()
	t.Logf("device stats %+v", st)
	if st[0].Tiles == 0 || st[1].Tiles == 0 {
		t.Errorf("device stats %+v: want tiles on both devices", st)
	}
	if x := &second.Xfer; x.Calls.Load() == 0 || x.BytesDirect.Load() == 0 {
		t.Errorf("the second device's staged GEMM: %d calls, %d bytes moved straight from pinned memory; want both > 0",
			x.Calls.Load(), x.BytesDirect.Load())
	}
	for _, h := range hs {
		h.Release()
	}
	if eng.Contains(&second.HostSlices, b[k:]) {
		t.Error("the second device still knows the released HostSlice")
	}
	if err := impl.Close(); err != nil {
		t.Fatal(err)
	}
	for kind, n := range cl.LiveObjects() {
		if n != base[kind] {
			t.Errorf("%d %s objects live after Close, %d before New", n, kind, base[kind])
		}
	}
}
