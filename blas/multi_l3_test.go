package clblas

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestMultiL3 splits symm, trmm, trsm, syrk and syr2k over two devices, every
// side, triangle and transpose, against gonum; tiles land on both devices.
func TestMultiL3(t *testing.T) {
	devs := twoDevices(t)
	splitSmall(t)
	impl, err := New(WithDevices(devs...), WithOffload(Always))
	if err != nil {
		t.Fatal(err)
	}
	defer impl.Close()
	rnd := rand.New(rand.NewPCG(21, 4))
	const m, n, k = 150, 131, 40
	// tri is a well-conditioned triangular (and symmetric-use) matrix of
	// order r with leading dimension r+3.
	tri := func(r int) ([]float64, int) {
		ld := r + 3
		a := randF64(rnd, r*ld)
		for i := range r {
			a[i*ld+i] = 4 + a[i*ld+i]
			for j := range r {
				a[i*ld+j] /= float64(r) / 4
			}
		}
		return a, ld
	}
	sides := []blas.Side{blas.Left, blas.Right}
	uplos := []blas.Uplo{blas.Upper, blas.Lower}
	trans := []blas.Transpose{blas.NoTrans, blas.Trans}
	for _, s := range sides {
		r := n
		if s == blas.Left {
			r = m
		}
		for _, ul := range uplos {
			a, lda := tri(r)
			b, ldb := randF64(rnd, m*(n+2)), n+2
			c, ldc := randF64(rnd, m*(n+1)), n+1
			for _, beta := range []float64{0, 0.5} {
				want := append([]float64(nil), c...)
				native.Dsymm(s, ul, m, n, 1.5, a, lda, b, ldb, beta, want, ldc)
				got := append([]float64(nil), c...)
				impl.Dsymm(s, ul, m, n, 1.5, a, lda, b, ldb, beta, got, ldc)
				checkSame(t, fmt.Sprintf("Dsymm(%v, %v, β=%v)", s, ul, beta), got, want, 1e-12*float64(r))
			}
			for _, tA := range trans {
				for _, dg := range []blas.Diag{blas.NonUnit, blas.Unit} {
					want := append([]float64(nil), b...)
					native.Dtrmm(s, ul, tA, dg, m, n, -0.75, a, lda, want, ldb)
					got := append([]float64(nil), b...)
					impl.Dtrmm(s, ul, tA, dg, m, n, -0.75, a, lda, got, ldb)
					what := fmt.Sprintf("(%v, %v, %v, %v)", s, ul, tA, dg)
					checkSame(t, "Dtrmm"+what, got, want, 1e-12*float64(r))

					want = append(want[:0], b...)
					native.Dtrsm(s, ul, tA, dg, m, n, 2, a, lda, want, ldb)
					got = append(got[:0], b...)
					impl.Dtrsm(s, ul, tA, dg, m, n, 2, a, lda, got, ldb)
					checkSame(t, "Dtrsm"+what, got, want, 1e-10)

					b32, a32 := f32s(b), f32s(a)
					want32 := append([]float32(nil), b32...)
					native.Strsm(s, ul, tA, dg, m, n, 2, a32, lda, want32, ldb)
					impl.Strsm(s, ul, tA, dg, m, n, 2, a32, lda, b32, ldb)
					checkSame(t, "Strsm"+what, f64s(b32), f64s(want32), 1e-3)
				}
			}
		}
	}
	for _, ul := range uplos {
		for _, tr := range trans {
			for _, beta := range []float64{0, -1} {
				nn := m
				lda := k + 2
				if tr == blas.Trans {
					lda = nn + 1
				}
				a := randF64(rnd, max(nn, k)*lda)
				c, ldc := randF64(rnd, nn*(nn+4)), nn+4
				want := append([]float64(nil), c...)
				native.Dsyrk(ul, tr, nn, k, 0.5, a, lda, beta, want, ldc)
				got := append([]float64(nil), c...)
				impl.Dsyrk(ul, tr, nn, k, 0.5, a, lda, beta, got, ldc)
				checkSame(t, fmt.Sprintf("Dsyrk(%v, %v, β=%v)", ul, tr, beta), got, want, 1e-12*float64(k))

				b := randF64(rnd, max(nn, k)*lda)
				want2 := append([]float64(nil), c...)
				native.Dsyr2k(ul, tr, nn, k, 0.5, a, lda, b, lda, beta, want2, ldc)
				got2 := append([]float64(nil), c...)
				impl.Dsyr2k(ul, tr, nn, k, 0.5, a, lda, b, lda, beta, got2, ldc)
				checkSame(t, fmt.Sprintf("Dsyr2k(%v, %v, β=%v)", ul, tr, beta), got2, want2, 1e-12*float64(k))

				a32, c32 := f32s(a), f32s(c)
				want32 := append([]float32(nil), c32...)
				native.Ssyrk(ul, tr, nn, k, 0.5, a32, lda, float32(beta), want32, ldc)
				impl.Ssyrk(ul, tr, nn, k, 0.5, a32, lda, float32(beta), c32, ldc)
				checkSame(t, fmt.Sprintf("Ssyrk(%v, %v, β=%v)", ul, tr, beta), f64s(c32), f64s(want32), 1e-4*float64(k))
			}
		}
	}
	st := impl.DeviceStats()
	t.Logf("device stats %+v", st)
	for i, s := range st {
		if s.Tiles == 0 || s.Failed != 0 {
			t.Errorf("device %d: %d tiles, %d failed; want tiles and no failure", i, s.Tiles, s.Failed)
		}
	}
}

// TestRunSteps checks how a tile of several device calls recovers when one
// of them fails: nothing written means the tile goes back; otherwise the
// CPU finishes the failed part and the parts after it.
func TestRunSteps(t *testing.T) {
	// Any l3Dev other than cpu stands for the device (the steps never call
	// it).
	type notCPU struct{ cpu64 }
	dev, cpu := l3Dev[float64](notCPU{}), l3Dev[float64](cpu64{})
	fail := errors.New("device failure")
	for _, tc := range []struct {
		name     string
		failAt   int // the part that fails on the device (-1: none)
		wantDone int
		wantCPU  []int // parts run on the CPU
	}{
		{"no failure", -1, 0, nil},
		{"first part, nothing written", 0, 0, nil},
		{"second part", 1, 10, []int{1, 2}},
		{"last part", 2, 10, []int{2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var onCPU []int
			step := func(i int) tileStep[float64] {
				return func(d l3Dev[float64], r0 int) error {
					if d == cpu {
						onCPU = append(onCPU, i)
						return nil
					}
					if i == tc.failAt {
						return fail
					}
					return nil
				}
			}
			done, err := runSteps(dev, cpu, 10, step(0), step(1), step(2))
			if (err != nil) != (tc.failAt >= 0) || done != tc.wantDone || fmt.Sprint(onCPU) != fmt.Sprint(tc.wantCPU) {
				t.Errorf("runSteps = %d, %v, CPU ran %v; want %d, failure %v, CPU %v", done, err, onCPU, tc.wantDone, tc.failAt >= 0, tc.wantCPU)
			}
		})
	}
}
