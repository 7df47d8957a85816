package hostlu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/lapack/gonum"
)

// panelCase is a matrix Getf2 is checked on: m×n with row stride lda,
// changed by mod after random filling.
type panelCase struct {
	m, n, lda int
	mod       string
}

// panelCases covers strips whole and partial, tall, square and wide
// shapes, padded strides, and the special columns of gonum's branches: a
// zero column (a zero pivot), a column of subnormal values (gonum's loop
// for a pivot below the safe minimum), a zero row, ties of magnitude, and
// NaN or −Inf planted in a few columns.
func panelCases() []panelCase {
	var cs []panelCase
	for _, s := range [][3]int{{1, 1, 1}, {5, 3, 4}, {8, 8, 8}, {9, 8, 11}, {40, 17, 17}, {64, 64, 64}, {300, 64, 70}, {1024, 64, 64}, {130, 45, 45}, {20, 33, 40}, {7, 64, 64}} {
		for _, mod := range []string{"", "zero column 5", "subnormal column 9", "zero row 3", "ties", "NaN", "Inf"} {
			cs = append(cs, panelCase{s[0], s[1], s[2], mod})
		}
	}
	return cs
}

func (c panelCase) fill(rnd *rand.Rand) []float64 {
	a := make([]float64, (c.m-1)*c.lda+c.n)
	for i := range a {
		a[i] = rnd.NormFloat64()
		if i%c.lda >= c.n {
			a[i] = math.NaN() // padding, never to be read or written
		}
	}
	for i := 0; i < c.m; i++ {
		row := a[i*c.lda : i*c.lda+c.n]
		switch {
		case c.mod == "zero column 5" && c.n > 5:
			row[5] = 0
		case c.mod == "subnormal column 9" && c.n > 9:
			row[9] *= 1e-310
		case c.mod == "zero row 3" && i == 3:
			clear(row)
		case c.mod == "ties":
			for j := range row {
				row[j] = float64(rnd.IntN(5) - 2)
			}
		case (c.mod == "NaN" || c.mod == "Inf") && (i == 2 || i == c.m/2):
			v := math.NaN()
			if c.mod == "Inf" {
				v = math.Inf(-1)
			}
			row[min(i, c.n-1)] = v // a pivot's column, and one below it
			if i == 2 && c.n > 11 {
				row[11] = v
			}
		}
	}
	return a
}

// TestGetf2 checks Getf2 against gonum's Dgetf2 on panelCases: without
// FMA bit for bit (the same terms in the same order, each rounded as
// gonum's Dger rounds them), with it (where the CPU has it) the same
// pivots and ok and factors within 1e-13 of the largest magnitude, and
// the padding between rows untouched either way.
func TestGetf2(t *testing.T) {
	fma := haveFMA
	defer func() { haveFMA = fma }()
	rnd := rand.New(rand.NewPCG(7, 8))
	for _, useFMA := range []bool{false, true} {
		if useFMA && !fma {
			t.Log("this CPU has no FMA: only the path without it is checked")
			continue
		}
		haveFMA = useFMA
		for _, c := range panelCases() {
			name := fmt.Sprintf("fma %v, %d×%d lda %d %s", useFMA, c.m, c.n, c.lda, c.mod)
			a := c.fill(rnd)
			want := append([]float64(nil), a...)
			mn := min(c.m, c.n)
			ipiv, wpiv := make([]int, mn), make([]int, mn)
			ok := Getf2(c.m, c.n, a, c.lda, ipiv)
			wok := gonum.Implementation{}.Dgetf2(c.m, c.n, want, c.lda, wpiv)
			if ok != wok {
				t.Errorf("%s: ok %v, gonum's %v", name, ok, wok)
			}
			for j := range ipiv {
				if ipiv[j] != wpiv[j] {
					t.Fatalf("%s: ipiv[%d] = %d, gonum's %d", name, j, ipiv[j], wpiv[j])
				}
			}
			big := 0.0
			for _, v := range want {
				if !math.IsNaN(v) && !math.IsInf(v, 0) {
					big = max(big, math.Abs(v))
				}
			}
			for k := range a {
				got, w := a[k], want[k]
				same := got == w || math.IsNaN(got) && math.IsNaN(w)
				if !same && (!useFMA || !(math.Abs(got-w) <= 1e-13*big)) {
					t.Fatalf("%s: element (%d, %d) = %v, gonum's %v", name, k/c.lda, k%c.lda, got, w)
				}
			}
		}
	}
}

// TestUpdate8 checks update8 (update8FMA over groups of four columns and
// the Go loop for the rest) against the same fused multiply-adds in Go,
// bit for bit, with column counts on both sides of a multiple of four and
// padded strides; the elements past each row's cols stay as they were.
func TestUpdate8(t *testing.T) {
	if !haveFMA {
		t.Log("this CPU has no FMA: update8 runs in Go, checked by TestGetf2")
	}
	rnd := rand.New(rand.NewPCG(9, 10))
	for _, s := range [][2]int{{1, 1}, {1, 4}, {3, 5}, {17, 8}, {33, 63}, {64, 56}, {5, 3}} {
		rows, cols := s[0], s[1]
		ldc, ldl, ldu := cols+3, strip+2, cols+1
		c := make([]float64, rows*ldc)
		l := make([]float64, rows*ldl)
		u := make([]float64, strip*ldu)
		for _, x := range [][]float64{c, l, u} {
			for i := range x {
				x[i] = rnd.NormFloat64()
			}
		}
		want := append([]float64(nil), c...)
		for i := range rows {
			for j := range cols {
				v := want[i*ldc+j]
				for p := range strip {
					if haveFMA {
						v = math.FMA(-l[i*ldl+p], u[p*ldu+j], v)
					} else {
						v += float64(-l[i*ldl+p] * u[p*ldu+j])
					}
				}
				want[i*ldc+j] = v
			}
		}
		update8(rows, cols, c, ldc, l, ldl, u, ldu)
		for k := range c {
			if c[k] != want[k] {
				t.Fatalf("%d×%d: element (%d, %d) = %v, want %v", rows, cols, k/ldc, k%ldc, c[k], want[k])
			}
		}
	}
}
