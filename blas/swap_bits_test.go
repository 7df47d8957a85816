package clblas

import (
	"math"
	"testing"
)

// TestSwapBits holds the device's SWAP to a bit-for-bit exchange of
// numbers, denormals, −0 and infinities among them, and to NaN for NaN
// (whose bits NVIDIA's float arithmetic does not keep: kernels/level1.cl),
// on the vector path (unit increments) with a ragged tail and on strided
// elements. Float runs both ways the kernel can exchange: through a
// multiplication by 1 (a device whose float arithmetic keeps denormals)
// and bare (one that does not, as the engine is told here).
func TestSwapBits(t *testing.T) {
	impl, e := privateImpl(t, nil)
	keep := e.Prof.FP32Denorm
	defer func() { e.Prof.FP32Denorm = keep }()
	f32 := []float32{math.Float32frombits(1), math.Float32frombits(0x007fffff), float32(math.Copysign(0, -1)),
		float32(math.Inf(-1)), float32(math.NaN()), 1.5, -2.25e-30}
	f64 := []float64{math.Float64frombits(1), math.Float64frombits(0x000fffffffffffff), math.Copysign(0, -1),
		math.Inf(1), math.NaN(), 1.5, -2.25e-300}
	for _, denorm := range []bool{keep, !keep} {
		e.Prof.FP32Denorm = denorm
		for _, inc := range []int{1, 2} {
			x, y := swapCase(f32, 1001, inc, 0), swapCase(f32, 1001, inc, 3)
			impl.Sswap(1001, x, inc, y, inc)
			swapCheck(t, "Sswap", inc, x, swapCase(f32, 1001, inc, 3), func(v float32) uint64 { return uint64(math.Float32bits(v)) })
			swapCheck(t, "Sswap", inc, y, swapCase(f32, 1001, inc, 0), func(v float32) uint64 { return uint64(math.Float32bits(v)) })
		}
	}
	if _, ok := openclDevice[float64](impl); !ok {
		return
	}
	for _, inc := range []int{1, 3} {
		x, y := swapCase(f64, 777, inc, 1), swapCase(f64, 777, inc, 5)
		impl.Dswap(777, x, inc, y, inc)
		swapCheck(t, "Dswap", inc, x, swapCase(f64, 777, inc, 5), math.Float64bits)
		swapCheck(t, "Dswap", inc, y, swapCase(f64, 777, inc, 1), math.Float64bits)
	}
}

// swapCase is a strided vector of n elements cycling through vals from
// shift on; the gaps hold 42.
func swapCase[T float32 | float64](vals []T, n, inc, shift int) []T {
	s := make([]T, (n-1)*inc+1)
	for i := range s {
		s[i] = 42
		if i%inc == 0 {
			s[i] = vals[(i/inc+shift)%len(vals)]
		}
	}
	return s
}

// swapCheck fails t unless got and want have the same bits everywhere but
// where want is NaN, and got NaN there.
func swapCheck[T float32 | float64](t *testing.T, name string, inc int, got, want []T, bits func(T) uint64) {
	t.Helper()
	for i := range want {
		if math.IsNaN(float64(want[i])) {
			if !math.IsNaN(float64(got[i])) {
				t.Errorf("%s inc %d: element %d is %v, want NaN", name, inc, i, got[i])
				return
			}
			continue
		}
		if bits(got[i]) != bits(want[i]) {
			t.Errorf("%s inc %d: element %d has bits %#x, want %#x", name, inc, i, bits(got[i]), bits(want[i]))
			return
		}
	}
}
