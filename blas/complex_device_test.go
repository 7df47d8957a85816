package clblas

import (
	"errors"
	"fmt"
	"log/slog"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// complexL12OnDevice are the complex128 level 1 and 2 routines whose calls
// go to the device under Always (complexOnDevice has level 3's).
var complexL12OnDevice = map[string]bool{
	"Zaxpy": true, "Zcopy": true, "Zdotc": true, "Zdotu": true, "Zdscal": true,
	"Zscal": true, "Zswap": true, "Dzasum": true, "Dznrm2": true, "Izamax": true,
	"Zgemv": true, "Zgbmv": true, "Zgerc": true, "Zgeru": true, "Zhemv": true,
	"Zhbmv": true, "Zhpmv": true, "Zher": true, "Zher2": true, "Zhpr": true,
	"Zhpr2": true, "Ztrmv": true, "Ztbmv": true, "Ztpmv": true, "Ztrsv": true,
	"Ztbsv": true, "Ztpsv": true,
}

// checkComplexStats checks where the calls of routine ran under policy p:
// with Never, none counted (all kept on the CPU at the gate); for a routine
// not on the device, all on the CPU;
// with Always, on the device, but for those kept on the CPU for NaN or
// Inf in their operands (NonFinite), and none failed there.
func checkComplexStats(t *testing.T, impl *Implementation, p Policy, routine string) {
	t.Helper()
	st := impl.Stats()[routine]
	switch {
	case p == Always && (complexOnDevice[routine] || complexL12OnDevice[routine]):
		if st.Device == 0 || st.CPU != st.NonFinite || st.Failed != 0 {
			t.Errorf("Stats()[%q] = %+v, want every call on the device (or kept for NaN/Inf), none failed", routine, st)
		}
	case p == Never:
		// Kept on the CPU at the gate, without being counted.
		if st != (RoutineStats{}) {
			t.Errorf("Stats()[%q] = %+v, want no calls counted (all kept at the gate)", routine, st)
		}
	default:
		if st.CPU == 0 || st.Device != 0 || st.Failed != 0 {
			t.Errorf("Stats()[%q] = %+v, want only calls kept on the CPU", routine, st)
		}
	}
}

// TestComplexLevel2Small runs each complex level 2 routine that gonum's
// testblas calls thousands of times (Zgemv, Zgbmv, Zhemv, Zhbmv, Ztrmv,
// Ztbmv, Ztrsv, Ztbsv) a few times on the shared implementation, over
// every transpose, triangle and diagonal and increments ±1, ±2, against
// gonum: few enough calls for Oclgrind (scripts/oclgrind.sh), where
// testblas's would take too long. The zmv_bands subtest runs the bands
// with Aᵀ and Aᴴ on zmv and zmv_wg, which zband_t replaced on GPUs.
func TestComplexLevel2Small(t *testing.T) {
	t.Run("default", func(t *testing.T) { complexLevel2Small(t, newTestImpl(t)) })
	t.Run("portable", func(t *testing.T) {
		// The kernels GPUs take, also on a CPU device.
		impl, e := privateImpl(t, nil)
		gpuKernels(e)
		complexLevel2Small(t, impl)
	})
	t.Run("zmv_bands", func(t *testing.T) {
		// Bands with Aᵀ and Aᴴ on zmv and zmv_wg (Engine.ZbandTOff).
		impl, e := privateImpl(t, nil)
		gpuKernels(e)
		e.ZbandTOff = true
		complexLevel2Small(t, impl)
	})
}

func complexLevel2Small(t *testing.T, impl *Implementation) {
	rnd := rand.New(rand.NewPCG(17, 2))
	vec := func(n int) []complex128 {
		v := make([]complex128, n)
		for i := range v {
			v[i] = complex(2*rnd.Float64()-1, 2*rnd.Float64()-1)
		}
		return v
	}
	// check runs f on ours and on gonum with copies of the same operands
	// and compares the operand out.
	check := func(name string, out int, ops [][]complex128, f func(b blas.Complex128, s [][]complex128)) {
		t.Helper()
		ours, ref := make([][]complex128, len(ops)), make([][]complex128, len(ops))
		for i, o := range ops {
			ours[i], ref[i] = append([]complex128(nil), o...), append([]complex128(nil), o...)
		}
		f(impl, ours)
		f(native, ref)
		for i := range ref[out] {
			if g, w := ours[out][i], ref[out][i]; cmplx.Abs(g-w) > 1e-12*(1+cmplx.Abs(w)) {
				t.Errorf("%s: element %d = %v, gonum %v", name, i, g, w)
				return
			}
		}
	}
	const m, n, k = 5, 7, 2
	alpha, beta := complex(0.5, -1.25), complex(-0.75, 0.5)
	incs := [][2]int{{1, 1}, {-2, 2}}
	for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans} {
		for _, inc := range incs {
			incX, incY := inc[0], inc[1]
			name := fmt.Sprintf("trans %c inc %v", tA, inc)
			lx, ly := n, m
			if tA != blas.NoTrans {
				lx, ly = m, n
			}
			x, y := vec(1+(lx-1)*max(incX, -incX)), vec(1+(ly-1)*max(incY, -incY))
			check("Zgemv "+name, 2, [][]complex128{vec(m * (n + 1)), x, y}, func(b blas.Complex128, s [][]complex128) {
				b.Zgemv(tA, m, n, alpha, s[0], n+1, s[1], incX, beta, s[2], incY)
			})
			check("Zgbmv "+name, 2, [][]complex128{vec(m * 6), x, y}, func(b blas.Complex128, s [][]complex128) {
				b.Zgbmv(tA, m, n, 1, k, alpha, s[0], 6, s[1], incX, beta, s[2], incY)
			})
		}
	}
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		x, y := vec(n), vec(1+(n-1)*2)
		check(fmt.Sprintf("Zhemv uplo %c", ul), 2, [][]complex128{vec(n * n), x, y}, func(b blas.Complex128, s [][]complex128) {
			b.Zhemv(ul, n, alpha, s[0], n, s[1], 1, beta, s[2], -2)
		})
		check(fmt.Sprintf("Zhbmv uplo %c", ul), 2, [][]complex128{vec(n * (k + 1)), x, y}, func(b blas.Complex128, s [][]complex128) {
			b.Zhbmv(ul, n, k, alpha, s[0], k+1, s[1], 1, beta, s[2], -2)
		})
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans} {
			for _, d := range []blas.Diag{blas.NonUnit, blas.Unit} {
				name := fmt.Sprintf("uplo %c trans %c diag %c", ul, tA, d)
				a, band := vec(n*n), vec(n*(k+1))
				for i := range n { // well conditioned
					a[i*n+i] += 4
					band[i*(k+1)+k*boolInt(ul == blas.Lower)] += 4
				}
				x := vec(1 + (n-1)*2)
				check("Ztrmv "+name, 1, [][]complex128{a, x}, func(b blas.Complex128, s [][]complex128) { b.Ztrmv(ul, tA, d, n, s[0], n, s[1], -2) })
				check("Ztrsv "+name, 1, [][]complex128{a, x}, func(b blas.Complex128, s [][]complex128) { b.Ztrsv(ul, tA, d, n, s[0], n, s[1], 2) })
				check("Ztbmv "+name, 1, [][]complex128{band, x}, func(b blas.Complex128, s [][]complex128) { b.Ztbmv(ul, tA, d, n, k, s[0], k+1, s[1], 2) })
				check("Ztbsv "+name, 1, [][]complex128{band, x}, func(b blas.Complex128, s [][]complex128) { b.Ztbsv(ul, tA, d, n, k, s[0], k+1, s[1], -2) })
			}
		}
	}
	for _, r := range []string{"Zgemv", "Zgbmv", "Zhemv", "Zhbmv", "Ztrmv", "Ztrsv", "Ztbmv", "Ztbsv"} {
		checkComplexStats(t, impl, Always, r)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// complexSuiteImpl is the implementation TestComplexTestblas runs on: the
// shared one for Always, so that the device-complete guard
// (GOCL_TEST_DEVICE_COMPLETE) counts its calls, else one of its own.
func complexSuiteImpl(t *testing.T, p Policy) *Implementation {
	if p == Always {
		return newTestImpl(t)
	}
	return newComplexImpl(t, p)
}

// sampledZgbmv is what TestComplexTestblas hands gonum's ZgbmvTest: that
// test walks every band shape of sizes up to 5 with every increment pair
// (about 130 000 calls, each checked against a Zgemv of the dense matrix),
// which on the device would add minutes to a -race run. So its Zgemv, the
// reference, is gonum's, and only every zgbmvSample-th Zgbmv call goes to
// the implementation under test, the others to gonum. zgbmvSample is
// prime to the 36 increment pairs and 2 leading dimensions of the
// innermost loops, so the calls tested still take every combination.
type sampledZgbmv struct {
	*Implementation
	calls int
}

const zgbmvSample = 7

func (s sampledZgbmv) Zgemv(tA blas.Transpose, m, n int, alpha complex128, a []complex128, lda int, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	native.Zgemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
}

func (s *sampledZgbmv) Zgbmv(tA blas.Transpose, m, n, kL, kU int, alpha complex128, a []complex128, lda int, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	s.calls++
	if s.calls%zgbmvSample == 0 {
		s.Implementation.Zgbmv(tA, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	native.Zgbmv(tA, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
}

// TestComplexDeviceFailure makes every enqueue (then every read) of the
// device fail and checks that complex level 1 and 2 calls of both
// precisions still return gonum's answer, are counted as failed, and are
// logged once per routine; and that before the fault they ran on the
// device.
func TestComplexDeviceFailure(t *testing.T) {
	for _, site := range []string{"enqueue", "read"} {
		t.Run(site, func(t *testing.T) {
			rec := &recorder{}
			impl, e := privateImpl(t, rec)
			const n = 9
			rnd := rand.New(rand.NewPCG(3, 4))
			z := func(l int) []complex128 {
				v := make([]complex128, l)
				for i := range v {
					v[i] = complex(rnd.Float64(), rnd.Float64())
				}
				return v
			}
			a, x, y := z(n*n), z(n), z(2*n)
			for i := range n {
				a[i*n+i] += 4
			}
			c64 := func(v []complex128) []complex64 {
				w := make([]complex64, len(v))
				for i, u := range v {
					w[i] = complex64(u)
				}
				return w
			}
			// calls runs one call of each routine tested on b and returns
			// what they wrote or returned.
			calls := func(b interface {
				blas.Complex128
				blas.Complex64
			}) []complex128 {
				yy, xx, aa := append([]complex128(nil), y...), append([]complex128(nil), x...), append([]complex128(nil), a...)
				b.Zaxpy(n, 1i, x, 1, yy, 2)
				d := b.Zdotc(n, x, -1, yy, 2)
				i := b.Izamax(n, yy, 2)
				b.Zgemv(blas.ConjTrans, n, n, 2, a, n, x, 1, 0.5, yy, -2)
				b.Zher2(blas.Lower, n, 1-1i, x, 1, yy, 2, aa, n)
				b.Ztrsv(blas.Upper, blas.Trans, blas.NonUnit, n, a, n, xx, 1)
				y32 := c64(y)
				b.Cgemv(blas.NoTrans, n, n, 2, c64(a), n, c64(x), 1, 1i, y32, 2)
				out := append(append(append(yy, xx...), aa...), d, complex(float64(i), 0))
				for _, v := range y32 {
					out = append(out, complex128(v))
				}
				return out
			}
			routines := []string{"Zaxpy", "Zdotc", "Izamax", "Zgemv", "Zher2", "Ztrsv", "Cgemv"}
			want := calls(native)
			check := func(what string) {
				t.Helper()
				got := calls(impl)
				for i := range want {
					if cmplx.Abs(got[i]-want[i]) > 1e-5*(1+cmplx.Abs(want[i])) {
						t.Fatalf("%s: result %d = %v, gonum %v", what, i, got[i], want[i])
					}
				}
			}
			check("healthy")
			for _, r := range routines {
				if st := impl.Stats()[r]; st.Device != 1 || st.Failed != 0 {
					t.Fatalf("healthy %s: Stats %+v, want one device call; the fault test would prove nothing", r, st)
				}
			}
			fail := func(s string) error {
				if s == site {
					return fmt.Errorf("%s: %w", s, errInjected)
				}
				return nil
			}
			e.Fault.Store(&fail)
			defer e.Fault.Store(nil)
			check("faulty")
			check("faulty again")
			logged := map[string]int{}
			rec.mu.Lock()
			for _, r := range rec.records {
				r.Attrs(func(a slog.Attr) bool {
					if a.Key == "routine" {
						logged[a.Value.String()]++
					}
					if err, ok := a.Value.Any().(error); a.Key == "err" && (!ok || !errors.Is(err, errInjected)) {
						t.Errorf("logged error %v, want the injected one", a.Value)
					}
					return true
				})
			}
			rec.mu.Unlock()
			for _, r := range routines {
				if st := impl.Stats()[r]; st.Failed != 2 {
					t.Errorf("%s: Stats %+v, want 2 failed device calls", r, st)
				}
				if logged[r] != 1 {
					t.Errorf("%s logged %d times, want once", r, logged[r])
				}
			}
		})
	}
}

// TestComplexAutoOnCPU: under Auto, complex level 1 and 2 calls on Go
// slices, which move as many bytes as they compute on (at most half a
// flop per byte here), stay on gonum's code: the device's transfers alone
// take as long as gonum's whole call.
func TestComplexAutoOnCPU(t *testing.T) {
	newTestImpl(t)
	impl := newComplexImpl(t, Auto)
	const n = 256
	a, x, y := make([]complex128, n*n), make([]complex128, n), make([]complex128, n)
	impl.Zaxpy(n, 1i, x, 1, y, 1)
	impl.Zdotu(n, x, 1, y, 1)
	impl.Zgemv(blas.ConjTrans, n, n, 1i, a, n, x, 1, 0.5, y, 1)
	impl.Zgerc(n, n, 1i, x, 1, y, 1, a, n)
	impl.Ztrsv(blas.Lower, blas.NoTrans, blas.Unit, n, a, n, x, 1)
	impl.Cher(blas.Upper, n, 2, make([]complex64, n), 1, make([]complex64, n*n), n)
	for _, r := range []string{"Zaxpy", "Zdotu", "Zgemv", "Zgerc", "Ztrsv", "Cher"} {
		// Kept on the CPU by the full decision (counted) or at the gate
		// (not counted): never on the device.
		if st := impl.Stats()[r]; st != (RoutineStats{CPU: 1}) && st != (RoutineStats{}) {
			t.Errorf("Stats()[%q] = %+v, want one call kept on the CPU", r, st)
		}
	}
}
