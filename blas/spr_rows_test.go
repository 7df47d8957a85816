package clblas

import (
	"fmt"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// TestSprRows runs syr_rows' packed build (SPR and SPR2 on GPUs) on PoCL
// (the CPU-device kernels turned off) against gonum, at TestSyrRows'
// launches: both triangles; orders 1 to 130, so that packed rows start at
// every alignment; increments ±1 and ±3; a zero and a NaN in x (Dspr
// skips no row). The drop-in routines run on Go slices; for positive
// increments the resident Spr and Spr2 run on a view from an element
// skew into a longer vector, read back whole, so that a write outside the
// triangle shows.
func TestSprRows(t *testing.T) {
	atRankShapes(t, func(t *testing.T, impl *Implementation, launched func(string) int64, fp64 bool) {
		if fp64 {
			sprCases(t, impl, "Dspr", "Dspr2", launched, impl.Dspr, gonum.Implementation{}.Dspr, impl.Dspr2, gonum.Implementation{}.Dspr2, 1e-13)
		}
		sprCases(t, impl, "Sspr", "Sspr2", launched, impl.Sspr, gonum.Implementation{}.Sspr, impl.Sspr2, gonum.Implementation{}.Sspr2, 1e-5)
	})
}

func sprCases[T float32 | float64](t *testing.T, impl *Implementation, r1, r2 string, launched func(string) int64,
	spr, sprWant func(ul blas.Uplo, n int, alpha T, x []T, incX int, ap []T),
	spr2, spr2Want func(ul blas.Uplo, n int, alpha T, x []T, incX int, y []T, incY int, ap []T), tol float64) {
	vec := uniformVecs[T](8)
	on1, on2 := expectOnDevice(t, r1, launched), expectOnDevice(t, r2, launched)
	calls := 0
	// n, skew, inc
	for c, sz := range [][3]int{{1, 0, 1}, {3, 1, -1}, {17, 0, 3}, {70, 1, 1}, {130, 0, -3}, {64, 0, 1}, {33, 3, 1}, {130, 2, 1}, {71, 0, 1}} {
		n, skew, inc := sz[0], sz[1], sz[2]
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			span := n * (n + 1) / 2
			ap := vec(skew + span + 5) // 5 elements past the triangle
			x := vec(1 + (n-1)*abs(inc))
			y := vec(1 + (n-1)*abs(inc))
			if n > 2 {
				x[abs(inc)] = 0
			}
			if c == 4 || c == 7 {
				x[2*abs(inc)] = T(l2nan)
			}
			desc := fmt.Sprintf("%c n=%d skew=%d inc=%d", ul, n, skew, inc)
			ag, aw := slices.Clone(ap), slices.Clone(ap)
			spr(ul, n, 0.6, x, inc, ag[skew:skew+span])
			sprWant(ul, n, 0.6, x, inc, aw[skew:skew+span])
			checkL2Result(t, r1+" "+desc, "ap", ag, aw, tol)
			ag, aw = slices.Clone(ap), slices.Clone(ap)
			incY := []int{inc, -inc}[c%2]
			spr2(ul, n, -1.1, x, inc, y, incY, ag[skew:skew+span])
			spr2Want(ul, n, -1.1, x, inc, y, incY, aw[skew:skew+span])
			checkL2Result(t, r2+" "+desc, "ap", ag, aw, tol)
			if inc > 0 && incY > 0 {
				aw = slices.Clone(ap)
				sprWant(ul, n, 0.6, x, inc, aw[skew:skew+span])
				spr2Want(ul, n, -1.1, x, inc, y, incY, aw[skew:skew+span])
				ag = sprResident(t, impl, ul, n, skew, ap, x, y, inc)
				checkL2Result(t, r1+", "+r2+" resident "+desc, "ap", ag, aw, tol)
			}
			calls++
		}
	}
	on1(calls)
	on2(calls)
}

// sprResident runs Spr(ul, 0.6, x) then Spr2(ul, −1.1, x, y) on a
// resident view of the packed triangle from element skew of ap and
// returns the whole of ap as they left it.
func sprResident[T float32 | float64](t *testing.T, impl *Implementation, ul blas.Uplo, n, skew int, ap, x, y []T, inc int) []T {
	t.Helper()
	p, err := NewVectorFrom(impl, ap)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	v, err := p.View(skew, n*(n+1)/2, 1)
	if err != nil {
		t.Fatal(err)
	}
	xv, err := NewVectorFromStrided(impl, n, inc, x)
	if err != nil {
		t.Fatal(err)
	}
	defer xv.Release()
	yv, err := NewVectorFromStrided(impl, n, inc, y)
	if err != nil {
		t.Fatal(err)
	}
	defer yv.Release()
	if _, err := Spr(ul, T(0.6), xv, v); err != nil {
		t.Fatal(err)
	}
	if _, err := Spr2(ul, T(-1.1), xv, yv, v); err != nil {
		t.Fatal(err)
	}
	back := make([]T, len(ap))
	if err := p.Read(back); err != nil {
		t.Fatal(err)
	}
	return back
}
