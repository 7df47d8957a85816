package clblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	eng "github.com/gocompute/opencl/internal/engine"
)

// TestZstreamKernels runs symv_stream.cl's complex build (the GPUs' HEMV,
// HBMV, HPMV, TRMV, and TPMV with Aᵀ and Aᴴ; TBMV and TPMV with A, which
// keep zmv_wg, alongside) on PoCL (the
// CPU-device kernels turned off) against gonum, at the derived launch shape and at small ones that make
// many tiles, chunks and ragged edges at the test's sizes, down block
// columns and along block rows, with and without vector loads. Both
// triangles, every transpose and diagonal, bands from the diagonal alone
// to the whole matrix, lda at and past its least, alpha and beta in
// {0, 1, i, other}, increments ±1 and ±3. NaN lies in every element
// outside the stored triangle or band, in the Hermitian diagonal's
// imaginary parts (gonum ignores them) and on a unit diagonal; y is NaN
// when beta is 0 and holds an Inf when beta is 1. The drop-in routines run on Go slices; for positive
// increments the resident ones run on views from an element skew into a
// padded buffer (unaligned: no vector loads), read back whole.
func TestZstreamKernels(t *testing.T) {
	impl, e, d64, fp64 := portableImpl(t)
	defer func() { e.SymvStream = eng.SymvStreamShape{} }()
	// The derived shape has two elements a load (the walk for TRMV with
	// A), the others one.
	for _, sh := range []eng.SymvStreamShape{{}, {Vec: 1, TX: 8, TY: 4, Chunk: 1}, {Vec: 1, TX: 4, TY: 2, Chunk: 3, Walk: true}} {
		t.Run(fmt.Sprintf("shape=%dx%dx%dx%d,walk=%v", sh.Vec, sh.TX, sh.TY, sh.Chunk, sh.Walk), func(t *testing.T) {
			e.SymvStream = sh
			if fp64 {
				d64.E.SymvStream = sh
				zstreamCases[complex128](t, impl, e.Launched.Of, 1e-12)
			}
			zstreamCases[complex64](t, impl, e.Launched.Of, 2e-5)
		})
	}
}

// zsCase is one call of TestZstreamKernels: op is "hemv", "hbmv",
// "hpmv", "trmv", "tbmv" or "tpmv"; the matrix has rows×cols storage (n×n,
// or n×(k+1) for a band) with stride lda, or is packed, from element skew
// of its slice.
type zsCase struct {
	op                          string
	ul                          blas.Uplo
	tA                          blas.Transpose
	diag                        blas.Diag
	n, k, lda, skew, incX, incY int
	alpha, beta                 complex128
}

func (c zsCase) band() bool   { return c.op == "hbmv" || c.op == "tbmv" }
func (c zsCase) tri() bool    { return c.op == "trmv" || c.op == "tbmv" || c.op == "tpmv" }
func (c zsCase) packed() bool { return c.op == "hpmv" || c.op == "tpmv" }

func (c zsCase) String() string {
	return fmt.Sprintf("%s ul=%c tA=%c d=%c n=%d k=%d lda=%d skew=%d incX=%d incY=%d alpha=%v beta=%v",
		c.op, c.ul, c.tA, c.diag, c.n, c.k, c.lda, c.skew, c.incX, c.incY, c.alpha, c.beta)
}

// zsCasesOf lists the calls: every op, triangle, transpose and diagonal
// at sizes up to several tiles.
func zsCasesOf() []zsCase {
	scalars := []complex128{complex(0.6, -0.3), 1, 0, complex(0, 1)}
	incs := [][2]int{{1, 1}, {-3, 3}, {3, -1}, {1, 1}, {-1, -3}}
	var cs []zsCase
	add := func(c zsCase) {
		i := len(cs)
		c.incX, c.incY = incs[i%len(incs)][0], incs[i%len(incs)][1]
		c.skew = i % 2
		c.alpha, c.beta = scalars[[]int{0, 1, 3}[i%3]], scalars[(i/2)%4]
		cols := c.n
		if c.band() {
			cols = c.k + 1
		}
		c.lda = cols + (i/3)%3
		if c.skew > 0 && c.lda == cols {
			c.lda++ // the view must fit its rows
		}
		cs = append(cs, c)
	}
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		for _, n := range []int{1, 31, 70, 130} {
			add(zsCase{op: "hemv", ul: ul, n: n})
			add(zsCase{op: "hpmv", ul: ul, n: n})
			for _, k := range []int{0, 1, 7, 33, n - 1} {
				if k < n {
					add(zsCase{op: "hbmv", ul: ul, n: n, k: k})
				}
			}
			for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans} {
				for _, d := range []blas.Diag{blas.NonUnit, blas.Unit} {
					add(zsCase{op: "trmv", ul: ul, tA: tA, diag: d, n: n})
					add(zsCase{op: "tpmv", ul: ul, tA: tA, diag: d, n: n})
					add(zsCase{op: "tbmv", ul: ul, tA: tA, diag: d, n: n, k: []int{0, 5, 40, n - 1}[n%4]})
				}
			}
		}
	}
	return cs
}

func zstreamCases[T complex64 | complex128](t *testing.T, impl *Implementation, launched func(string) int64, tol float64) {
	vec := zRounded[T](rand.New(rand.NewPCG(45, 46)))
	// Drop-in calls count under their BLAS names, resident ones under
	// the API's.
	on := map[string]func(int){}
	calls := map[string]int{}
	for _, op := range []string{"hemv", "hbmv", "hpmv", "trmv", "tbmv", "tpmv"} {
		res := strings.ToUpper(op[:1]) + op[1:]
		on[op] = expectOnDevice(t, zName[T](op), launched)
		on[res] = expectOnDevice(t, res, launched)
	}
	for _, c := range zsCasesOf() {
		a, x, y := zsOperands(vec, c)
		var got, want []complex128
		if c.tri() {
			got, want = slices.Clone(x), slices.Clone(x)
		} else {
			got, want = slices.Clone(y), slices.Clone(y)
		}
		zsDropIn[T](impl, c, a[c.skew:], x, got)
		zsRef(c, a[c.skew:], x, want)
		zCheckAll(t, c.String(), got, want, tol)
		calls[c.op]++
		if c.incX > 0 && c.incY > 0 {
			got = zsResident[T](t, impl, c, a, x, y)
			zCheckAll(t, "resident "+c.String(), got, want, tol)
			calls[strings.ToUpper(c.op[:1])+c.op[1:]]++
		}
	}
	for op, f := range on {
		f(calls[op])
	}
}

// zsOperands makes the matrix storage and the vectors of case c, with
// NaN where gonum reads nothing or ignores what it reads.
func zsOperands(vec func(int) []complex128, c zsCase) (a, x, y []complex128) {
	if c.packed() {
		return zsPackedOperands(vec, c)
	}
	rows, cols := c.n, c.n
	if c.band() {
		cols = c.k + 1
	}
	a = vec(c.skew + (rows-1)*c.lda + cols + 2)
	nan := math.NaN()
	for i := range rows {
		for s := range cols {
			j := s // the column of storage slot (i, s)
			if c.band() {
				j = i + s
				if c.ul == blas.Lower {
					j = i - c.k + s
				}
			}
			p := &a[c.skew+i*c.lda+s]
			switch {
			case j < 0 || j >= c.n || (c.ul == blas.Upper) != (j >= i) && j != i:
				*p = complex(nan, nan)
			case j == i && c.tri() && c.diag == blas.Unit:
				*p = complex(nan, nan)
			case j == i && !c.tri():
				*p = complex(real(*p), nan)
			}
		}
	}
	x, y = zsVectors(vec, c)
	return a, x, y
}

// zsVectors makes x and y of case c: y is NaN when beta is 0 and holds
// an Inf when beta is 1.
func zsVectors(vec func(int) []complex128, c zsCase) (x, y []complex128) {
	nan := math.NaN()
	x = vec(1 + (c.n-1)*abs(c.incX))
	y = vec(1 + (c.n-1)*abs(c.incY))
	switch c.beta {
	case 0: // y is not read
		for i := range y {
			y[i] = complex(nan, nan)
		}
	case 1: // y is not multiplied: 1·(Inf+0i) would have a NaN part
		y[0] = complex(math.Inf(1), 0)
	}
	return x, y
}

// zsPackedOperands is zsOperands for the packed ops: the triangle from
// element skew, two elements past it.
func zsPackedOperands(vec func(int) []complex128, c zsCase) (a, x, y []complex128) {
	a = vec(c.skew + c.n*(c.n+1)/2 + 2)
	nan := math.NaN()
	for i := range c.n {
		d := c.skew + i*(i+1)/2 + i // lower: row i holds A(i, 0…i)
		if c.ul == blas.Upper {
			d = c.skew + i*(2*c.n-i+1)/2 // row i holds A(i, i…n−1)
		}
		if c.tri() && c.diag == blas.Unit {
			a[d] = complex(nan, nan)
		} else if !c.tri() {
			a[d] = complex(real(a[d]), nan)
		}
	}
	x, y = zsVectors(vec, c)
	return a, x, y
}

// zsRef runs case c on gonum; out is y, or x for the triangular ops.
func zsRef(c zsCase, a, x, out []complex128) {
	var ref gonum.Implementation
	switch c.op {
	case "hemv":
		ref.Zhemv(c.ul, c.n, c.alpha, a, c.lda, x, c.incX, c.beta, out, c.incY)
	case "hbmv":
		ref.Zhbmv(c.ul, c.n, c.k, c.alpha, a, c.lda, x, c.incX, c.beta, out, c.incY)
	case "trmv":
		ref.Ztrmv(c.ul, c.tA, c.diag, c.n, a, c.lda, out, c.incX)
	case "tbmv":
		ref.Ztbmv(c.ul, c.tA, c.diag, c.n, c.k, a, c.lda, out, c.incX)
	case "hpmv":
		ref.Zhpmv(c.ul, c.n, c.alpha, a[:c.n*(c.n+1)/2], x, c.incX, c.beta, out, c.incY)
	case "tpmv":
		ref.Ztpmv(c.ul, c.tA, c.diag, c.n, a[:c.n*(c.n+1)/2], out, c.incX)
	}
}

// zsDropIn runs case c on the drop-in Z… or C… routine, on slices
// converted to T; out (y, or x for the triangular ops) is copied back.
func zsDropIn[T complex64 | complex128](impl *Implementation, c zsCase, a, x, out []complex128) {
	as, xs, os := zdata[T](a), zdata[T](x), zdata[T](out)
	switch os := any(os).(type) {
	case []complex64:
		a, x, al, be := any(as).([]complex64), any(xs).([]complex64), complex64(c.alpha), complex64(c.beta)
		switch c.op {
		case "hemv":
			impl.Chemv(c.ul, c.n, al, a, c.lda, x, c.incX, be, os, c.incY)
		case "hbmv":
			impl.Chbmv(c.ul, c.n, c.k, al, a, c.lda, x, c.incX, be, os, c.incY)
		case "trmv":
			impl.Ctrmv(c.ul, c.tA, c.diag, c.n, a, c.lda, os, c.incX)
		case "tbmv":
			impl.Ctbmv(c.ul, c.tA, c.diag, c.n, c.k, a, c.lda, os, c.incX)
		case "hpmv":
			impl.Chpmv(c.ul, c.n, al, a[:c.n*(c.n+1)/2], x, c.incX, be, os, c.incY)
		case "tpmv":
			impl.Ctpmv(c.ul, c.tA, c.diag, c.n, a[:c.n*(c.n+1)/2], os, c.incX)
		}
	case []complex128:
		a, x := any(as).([]complex128), any(xs).([]complex128)
		switch c.op {
		case "hemv":
			impl.Zhemv(c.ul, c.n, c.alpha, a, c.lda, x, c.incX, c.beta, os, c.incY)
		case "hbmv":
			impl.Zhbmv(c.ul, c.n, c.k, c.alpha, a, c.lda, x, c.incX, c.beta, os, c.incY)
		case "trmv":
			impl.Ztrmv(c.ul, c.tA, c.diag, c.n, a, c.lda, os, c.incX)
		case "tbmv":
			impl.Ztbmv(c.ul, c.tA, c.diag, c.n, c.k, a, c.lda, os, c.incX)
		case "hpmv":
			impl.Zhpmv(c.ul, c.n, c.alpha, a[:c.n*(c.n+1)/2], x, c.incX, c.beta, os, c.incY)
		case "tpmv":
			impl.Ztpmv(c.ul, c.tA, c.diag, c.n, a[:c.n*(c.n+1)/2], os, c.incX)
		}
	}
	for i, v := range os {
		out[i] = complex128(v)
	}
}

// zsResident runs case c (positive increments) on the resident routine,
// the matrix a view from element skew of a, and returns the output
// vector whole.
func zsResident[T complex64 | complex128](t *testing.T, impl *Implementation, c zsCase, a, x, y []complex128) []complex128 {
	t.Helper()
	xv, backX := zResidentVec[T](t, impl, x, c.n, c.incX)
	yv, backY := zResidentVec[T](t, impl, y, c.n, c.incY)
	alpha, beta := T(c.alpha), T(c.beta)
	var err error
	if c.packed() {
		p, err := NewVectorFrom(impl, zdata[T](a))
		if err != nil {
			t.Fatal(err)
		}
		defer p.Release()
		ap, err := p.View(c.skew, c.n*(c.n+1)/2, 1)
		if err != nil {
			t.Fatal(err)
		}
		if c.op == "hpmv" {
			_, err = Hpmv(c.ul, alpha, ap, xv, beta, yv)
		} else {
			_, err = Tpmv(c.ul, c.tA, c.diag, ap, xv)
		}
		if err != nil {
			t.Fatal(err)
		}
		if c.tri() {
			return backX()
		}
		return backY()
	}
	cols := c.n
	if c.band() {
		cols = c.k + 1
	}
	m, _ := zResidentMat[T](t, impl, a, c.lda, c.skew, c.n, cols)
	switch c.op {
	case "hemv":
		_, err = Hemv(c.ul, alpha, m, xv, beta, yv)
	case "hbmv":
		_, err = Hbmv(c.ul, c.k, alpha, m, xv, beta, yv)
	case "trmv":
		_, err = Trmv(c.ul, c.tA, c.diag, m, xv)
	case "tbmv":
		_, err = Tbmv(c.ul, c.tA, c.diag, c.k, m, xv)
	}
	if err != nil {
		t.Fatal(err)
	}
	if c.tri() {
		return backX()
	}
	return backY()
}
