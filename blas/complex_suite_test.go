package clblas_test

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	clblas "github.com/gocompute/opencl/blas"
	"github.com/gocompute/opencl/platform/platformtest"
)

// This file holds the complex suite: every complex routine, both
// precisions, called on random arguments (shapes 0, 1 and odd, increments
// ±1 and ±3, padded leading dimensions, every enum ConjTrans included, α
// and β in {0, 1, i, other}, NaN and Inf among data and scalars, and now
// and then an invalid argument) with each operand inside a larger
// allocation whose other elements are canaries: before the slice, beyond
// its length (within its capacity), in row padding, between the elements
// of a strided vector, and in the triangle a triangular, symmetric or
// Hermitian routine must not touch. The implementation must panic with
// gonum's message when gonum's does, return what gonum returns, write
// what gonum writes, keep its inputs and leave every canary's bits alone.

// cxCanaryBits are the real and imaginary bits of the canary: quiet NaNs
// with payloads no arithmetic produces.
const (
	cxCanaryRe, cxCanaryIm uint64 = 0x7ff8_dead_beef_0bad, 0x7ff8_0bad_f00d_cafe
	cxCanaryRe32           uint32 = 0x7fc0_0bad
	cxCanaryIm32           uint32 = 0x7fc0_cafe
)

func cxCanary[T cxElem]() T {
	var z T
	if _, ok := any(z).(complex64); ok {
		return any(complex(math.Float32frombits(cxCanaryRe32), math.Float32frombits(cxCanaryIm32))).(T)
	}
	return any(complex(math.Float64frombits(cxCanaryRe), math.Float64frombits(cxCanaryIm))).(T)
}

// cxSameBits reports whether a and b have the same bits.
func cxSameBits[T cxElem](a, b T) bool {
	switch a := any(a).(type) {
	case complex64:
		b := any(b).(complex64)
		return math.Float32bits(real(a)) == math.Float32bits(real(b)) && math.Float32bits(imag(a)) == math.Float32bits(imag(b))
	case complex128:
		b := any(b).(complex128)
		return math.Float64bits(real(a)) == math.Float64bits(real(b)) && math.Float64bits(imag(a)) == math.Float64bits(imag(b))
	}
	return false
}

// cxClose reports whether got agrees with want: both NaN (in either part),
// the same infinity, or within a relative tolerance that allows for a
// different order of summation.
func cxClose(got, want complex128, tol float64) bool {
	partClose := func(g, w float64) bool {
		switch {
		case math.IsNaN(g) || math.IsNaN(w):
			return math.IsNaN(g) && math.IsNaN(w)
		case math.IsInf(g, 0) || math.IsInf(w, 0):
			return g == w
		}
		return math.Abs(g-w) <= tol*(1+math.Abs(w))
	}
	if cmplx.IsNaN(got) || cmplx.IsNaN(want) {
		return cmplx.IsNaN(got) == cmplx.IsNaN(want)
	}
	return partClose(real(got), real(want)) && partClose(imag(got), imag(want))
}

// cxOperand is one slice argument: s = buf[off:off+n] (its capacity runs
// to the end of buf); mine[i] says whether s[i] belongs to the operand.
type cxOperand[T cxElem] struct {
	name   string
	out    bool
	buf    []T
	off, n int
	mine   []bool
}

// cxGen draws the arguments of one call and records its operands.
type cxGen[T cxElem, R cxReal] struct {
	rnd *rand.Rand
	ops []*cxOperand[T]
	// prep, if set, adjusts the operands' data before the call (to keep
	// the triangular solves well conditioned).
	prep func(s [][]T)
}

// rare is true with probability 1/n.
func (g *cxGen[T, R]) rare(n int) bool { return g.rnd.IntN(n) == 0 }

// dim is a dimension: 0, 1 or small and odd, now and then larger, rarely
// negative.
func (g *cxGen[T, R]) dim() int {
	switch {
	case g.rare(60):
		return -1
	case g.rare(4):
		return 9 + 2*g.rnd.IntN(5)
	}
	return []int{0, 1, 1, 2, 3, 3, 5, 7}[g.rnd.IntN(8)]
}

// band is a number of sub- or super-diagonals.
func (g *cxGen[T, R]) band() int {
	if g.rare(60) {
		return -1
	}
	return g.rnd.IntN(4)
}

// inc is ±1 or ±3, rarely 0.
func (g *cxGen[T, R]) inc() int {
	if g.rare(80) {
		return 0
	}
	return []int{1, -1, 3, -3}[g.rnd.IntN(4)]
}

// ld is a leading dimension for rows of cols elements: at least
// max(1, cols), often padded, rarely too small.
func (g *cxGen[T, R]) ld(cols int) int {
	if cols > 1 && g.rare(60) {
		return cols - 1
	}
	return max(1, cols) + []int{0, 0, 1, 3}[g.rnd.IntN(4)]
}

func (g *cxGen[T, R]) trans() blas.Transpose {
	if g.rare(80) {
		return 0
	}
	return []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans}[g.rnd.IntN(3)]
}

func (g *cxGen[T, R]) uplo() blas.Uplo {
	if g.rare(80) {
		return 0
	}
	return []blas.Uplo{blas.Upper, blas.Lower}[g.rnd.IntN(2)]
}

func (g *cxGen[T, R]) diag() blas.Diag {
	if g.rare(80) {
		return 0
	}
	return []blas.Diag{blas.NonUnit, blas.Unit}[g.rnd.IntN(2)]
}

func (g *cxGen[T, R]) side() blas.Side {
	if g.rare(80) {
		return 0
	}
	return []blas.Side{blas.Left, blas.Right}[g.rnd.IntN(2)]
}

// part is a real number for data: uniform in [-1, 1), now and then NaN or
// ±Inf.
func (g *cxGen[T, R]) part() float64 {
	if g.rare(150) {
		return []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[g.rnd.IntN(3)]
	}
	return 2*g.rnd.Float64() - 1
}

func (g *cxGen[T, R]) val() T { return T(complex(g.part(), g.part())) }

// scalar is α or β: 0, 1, i or another value, rarely NaN or Inf.
func (g *cxGen[T, R]) scalar() T {
	switch g.rnd.IntN(5) {
	case 0:
		return 0
	case 1:
		return 1
	case 2:
		return T(1i)
	case 3:
		if g.rare(8) {
			return T(complex(math.NaN(), 1))
		}
		if g.rare(8) {
			return T(complex(math.Inf(1), 0))
		}
	}
	return T(complex(2*g.rnd.Float64()-1, 2*g.rnd.Float64()-1))
}

// rscalar is a real α or β: 0, 1 or another value, rarely NaN.
func (g *cxGen[T, R]) rscalar() R {
	switch g.rnd.IntN(4) {
	case 0:
		return 0
	case 1:
		return 1
	case 2:
		if g.rare(8) {
			return R(math.NaN())
		}
	}
	return R(2*g.rnd.Float64() - 1)
}

// operand records an operand of n elements, mine telling which belong to
// it; a rare one is one element short.
func (g *cxGen[T, R]) operand(name string, out bool, n int, mine func(i int) bool) {
	if n > 0 && g.rare(60) {
		n--
	}
	o := &cxOperand[T]{name: name, out: out, n: n, mine: make([]bool, n)}
	for i := range o.mine {
		o.mine[i] = mine(i)
	}
	g.ops = append(g.ops, o)
}

// vec records an n-vector with increment inc.
func (g *cxGen[T, R]) vec(name string, out bool, n, inc int) {
	l, step := 0, max(1, cxAbs(inc))
	if n > 0 {
		l = 1 + (n-1)*step
	}
	g.operand(name, out, l, func(i int) bool { return i%step == 0 })
}

// mat records an r×c row-major matrix with leading dimension ld whose
// element (i, j) belongs to it when in(i, j).
func (g *cxGen[T, R]) mat(name string, out bool, r, c, ld int, in func(i, j int) bool) {
	l := 0
	if r > 0 {
		l = max(0, (r-1)*ld+c)
	}
	g.operand(name, out, l, func(p int) bool {
		i, j := p/max(1, ld), p%max(1, ld)
		return j < c && in(i, j)
	})
}

// packed records an n×n triangular matrix in packed form.
func (g *cxGen[T, R]) packed(name string, out bool, n int) {
	g.operand(name, out, max(0, n*(n+1)/2), func(int) bool { return true })
}

// cxEvery takes every element of a matrix.
func cxEvery(i, j int) bool { return true }

// cxTriangle is the uplo triangle of a square matrix (all of it for an
// invalid uplo, which gonum rejects before looking at the matrix).
func cxTriangle(ul blas.Uplo) func(i, j int) bool {
	switch ul {
	case blas.Upper:
		return func(i, j int) bool { return j >= i }
	case blas.Lower:
		return func(i, j int) bool { return j <= i }
	}
	return cxEvery
}

func cxAbs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// cxRows returns the dimensions of op(X) stored: r×c when t is NoTrans, c×r
// otherwise.
func cxRows(t blas.Transpose, r, c int) (int, int) {
	if t == blas.NoTrans {
		return r, c
	}
	return c, r
}

// cxCall is a drawn call: it runs the routine of api on the operand
// slices s and returns its scalar result, if any.
type cxCall[T cxElem, R cxReal] func(api capi[T, R], s [][]T) any

// cxCase draws one call of a routine.
type cxCase[T cxElem, R cxReal] struct {
	name string
	draw func(g *cxGen[T, R]) cxCall[T, R]
}

// runCxCall runs call and returns its result or the message it panicked
// with.
func runCxCall[T cxElem, R cxReal](call cxCall[T, R], api capi[T, R], s [][]T) (res any, msg any) {
	defer func() { msg = recover() }()
	return call(api, s), nil
}

// cxSuite runs trials random calls of each case against ours and ref.
func cxSuite[T cxElem, R cxReal](t *testing.T, ours, ref capi[T, R], cases []cxCase[T, R], trials int, tol float64) {
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for trial := range trials {
				rnd := rand.New(rand.NewPCG(uint64(ci), uint64(trial)))
				g := &cxGen[T, R]{rnd: rnd}
				call := c.draw(g)
				where := fmt.Sprintf("%s trial %d", c.name, trial)
				if !cxTrial(t, g, call, ours, ref, tol, where) {
					return
				}
			}
		})
	}
}

// cxTrial fills the operands of one drawn call, runs it on ours and on ref
// with the same data, and reports whether all was well.
func cxTrial[T cxElem, R cxReal](t *testing.T, g *cxGen[T, R], call cxCall[T, R], ours, ref capi[T, R], tol float64, where string) bool {
	t.Helper()
	canary := cxCanary[T]()
	bufO, bufR := make([][]T, len(g.ops)), make([][]T, len(g.ops))
	sO, sR := make([][]T, len(g.ops)), make([][]T, len(g.ops))
	for _, o := range g.ops {
		o.off = g.rnd.IntN(3)
		o.buf = make([]T, o.off+o.n+1+g.rnd.IntN(2))
		for i := range o.buf {
			o.buf[i] = canary
			if j := i - o.off; j >= 0 && j < o.n && o.mine[j] {
				o.buf[i] = g.val()
			}
		}
	}
	if g.prep != nil {
		s := make([][]T, len(g.ops))
		for k, o := range g.ops {
			s[k] = o.buf[o.off : o.off+o.n]
		}
		g.prep(s)
	}
	for k, o := range g.ops {
		bufO[k] = append([]T(nil), o.buf...)
		bufR[k] = append([]T(nil), o.buf...)
		sO[k] = bufO[k][o.off : o.off+o.n]
		sR[k] = bufR[k][o.off : o.off+o.n]
	}
	resO, panicO := runCxCall(call, ours, sO)
	resR, panicR := runCxCall(call, ref, sR)
	if panicO != nil || panicR != nil {
		if fmt.Sprint(panicO) != fmt.Sprint(panicR) {
			t.Errorf("%s: panicked with %v, gonum with %v", where, panicO, panicR)
			return false
		}
		return true
	}
	if !cxSameResult(resO, resR, tol) {
		t.Errorf("%s: returned %v, gonum %v", where, resO, resR)
		return false
	}
	for k, o := range g.ops {
		for i, got := range bufO[k] {
			j := i - o.off
			mine := j >= 0 && j < o.n && o.mine[j]
			if o.out && mine {
				if !cxClose(complex128(got), complex128(bufR[k][i]), tol) {
					t.Errorf("%s: %s[%d] = %v, gonum wrote %v", where, o.name, j, got, bufR[k][i])
					return false
				}
				continue
			}
			if !cxSameBits(got, o.buf[i]) {
				what := "canary"
				switch {
				case mine:
					what = "input element"
				case j < 0:
					what = "canary before the slice"
				case j >= o.n:
					what = "canary beyond the slice's length"
				}
				t.Errorf("%s: %s[%d], a %s, changed from %v to %v", where, o.name, j, what, o.buf[i], got)
				return false
			}
		}
	}
	return true
}

// cxSameResult compares the scalar results of a call.
func cxSameResult(a, b any, tol float64) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case int:
		return a == b
	case float32:
		return cxClose(complex(float64(a), 0), complex(float64(b.(float32)), 0), tol)
	case float64:
		return cxClose(complex(a, 0), complex(b.(float64), 0), tol)
	case complex64:
		return cxClose(complex128(a), complex128(b.(complex64)), tol)
	case complex128:
		return cxClose(a, b.(complex128), tol)
	}
	return false
}

// cxCases is one drawn call of every complex routine.
func cxCases[T cxElem, R cxReal]() []cxCase[T, R] {
	return append(append(cxLevel1[T, R](), cxLevel2[T, R]()...), cxLevel3[T, R]()...)
}

func cxLevel1[T cxElem, R cxReal]() []cxCase[T, R] {
	type g = cxGen[T, R]
	type call = cxCall[T, R]
	type api = capi[T, R]
	two := func(name string, outX, outY bool, f func(a api, n int, alpha T, x []T, incX int, y []T, incY int) any) cxCase[T, R] {
		return cxCase[T, R]{name, func(g *g) call {
			n, incX, incY, alpha := g.dim(), g.inc(), g.inc(), g.scalar()
			g.vec("x", outX, n, incX)
			g.vec("y", outY, n, incY)
			return func(a api, s [][]T) any { return f(a, n, alpha, s[0], incX, s[1], incY) }
		}}
	}
	one := func(name string, out bool, f func(a api, n int, alpha T, ralpha R, x []T, incX int) any) cxCase[T, R] {
		return cxCase[T, R]{name, func(g *g) call {
			n, incX, alpha, ralpha := g.dim(), g.inc(), g.scalar(), g.rscalar()
			g.vec("x", out, n, incX)
			return func(a api, s [][]T) any { return f(a, n, alpha, ralpha, s[0], incX) }
		}}
	}
	return []cxCase[T, R]{
		two("dotu", false, false, func(a api, n int, _ T, x []T, incX int, y []T, incY int) any { return a.dotu(n, x, incX, y, incY) }),
		two("dotc", false, false, func(a api, n int, _ T, x []T, incX int, y []T, incY int) any { return a.dotc(n, x, incX, y, incY) }),
		two("swap", true, true, func(a api, n int, _ T, x []T, incX int, y []T, incY int) any { a.swap(n, x, incX, y, incY); return nil }),
		two("copy", false, true, func(a api, n int, _ T, x []T, incX int, y []T, incY int) any { a.copy(n, x, incX, y, incY); return nil }),
		two("axpy", false, true, func(a api, n int, al T, x []T, incX int, y []T, incY int) any {
			a.axpy(n, al, x, incX, y, incY)
			return nil
		}),
		one("nrm2", false, func(a api, n int, _ T, _ R, x []T, incX int) any { return a.nrm2(n, x, incX) }),
		one("asum", false, func(a api, n int, _ T, _ R, x []T, incX int) any { return a.asum(n, x, incX) }),
		one("iamax", false, func(a api, n int, _ T, _ R, x []T, incX int) any { return a.iamax(n, x, incX) }),
		one("scal", true, func(a api, n int, al T, _ R, x []T, incX int) any { a.scal(n, al, x, incX); return nil }),
		one("rscal", true, func(a api, n int, _ T, al R, x []T, incX int) any { a.rscal(n, al, x, incX); return nil }),
	}
}

// cxBoost adds 3 to the n diagonal elements s[first+i*step] of a triangular
// matrix to be solved with, so that the solves stay well conditioned.
func cxBoost[T cxElem](s []T, n, first, step int) {
	for i := range n {
		if p := first + i*step; p >= 0 && p < len(s) {
			s[p] += 3
		}
	}
}

// cxBoostPacked is cxBoost for a triangular matrix in packed form.
func cxBoostPacked[T cxElem](s []T, ul blas.Uplo, n int) {
	for i := range n {
		p := i*(i+1)/2 + i // lower: row i starts at i(i+1)/2
		if ul == blas.Upper {
			p = i*n - i*(i-1)/2
		}
		if p < len(s) {
			s[p] += 3
		}
	}
}

func cxLevel2[T cxElem, R cxReal]() []cxCase[T, R] {
	type g = cxGen[T, R]
	type call = cxCall[T, R]
	type api = capi[T, R]
	tri := func(name string, solve bool) cxCase[T, R] {
		return cxCase[T, R]{name, func(g *g) call {
			ul, tA, d, n, incX := g.uplo(), g.trans(), g.diag(), g.dim(), g.inc()
			lda := g.ld(n)
			g.mat("a", false, n, n, lda, cxTriangle(ul))
			g.vec("x", true, n, incX)
			if solve {
				g.prep = func(s [][]T) { cxBoost(s[0], n, 0, lda+1) }
			}
			return func(a api, s [][]T) any {
				if !solve {
					a.trmv(ul, tA, d, n, s[0], lda, s[1], incX)
					return nil
				}
				a.trsv(ul, tA, d, n, s[0], lda, s[1], incX)
				return nil
			}
		}}
	}
	triBand := func(name string, solve bool) cxCase[T, R] {
		return cxCase[T, R]{name, func(g *g) call {
			ul, tA, d, n, k, incX := g.uplo(), g.trans(), g.diag(), g.dim(), g.band(), g.inc()
			lda := g.ld(k + 1)
			g.mat("a", false, n, k+1, lda, cxEvery)
			g.vec("x", true, n, incX)
			if solve && ul == blas.Lower {
				// The diagonal is column k of the band storage.
				g.prep = func(s [][]T) { cxBoost(s[0], n, k, lda) }
			} else if solve {
				g.prep = func(s [][]T) { cxBoost(s[0], n, 0, lda) }
			}
			return func(a api, s [][]T) any {
				if !solve {
					a.tbmv(ul, tA, d, n, k, s[0], lda, s[1], incX)
					return nil
				}
				a.tbsv(ul, tA, d, n, k, s[0], lda, s[1], incX)
				return nil
			}
		}}
	}
	triPacked := func(name string, solve bool) cxCase[T, R] {
		return cxCase[T, R]{name, func(g *g) call {
			ul, tA, d, n, incX := g.uplo(), g.trans(), g.diag(), g.dim(), g.inc()
			g.packed("ap", false, n)
			g.vec("x", true, n, incX)
			if solve {
				g.prep = func(s [][]T) { cxBoostPacked(s[0], ul, n) }
			}
			return func(a api, s [][]T) any {
				if !solve {
					a.tpmv(ul, tA, d, n, s[0], s[1], incX)
					return nil
				}
				a.tpsv(ul, tA, d, n, s[0], s[1], incX)
				return nil
			}
		}}
	}
	ger := func(name string, conj bool) cxCase[T, R] {
		return cxCase[T, R]{name, func(g *g) call {
			m, n, alpha, incX, incY := g.dim(), g.dim(), g.scalar(), g.inc(), g.inc()
			lda := g.ld(n)
			g.vec("x", false, m, incX)
			g.vec("y", false, n, incY)
			g.mat("a", true, m, n, lda, cxEvery)
			return func(a api, s [][]T) any {
				if conj {
					a.gerc(m, n, alpha, s[0], incX, s[1], incY, s[2], lda)
				} else {
					a.geru(m, n, alpha, s[0], incX, s[1], incY, s[2], lda)
				}
				return nil
			}
		}}
	}
	return []cxCase[T, R]{
		{"gemv", func(g *g) call {
			tA, m, n, alpha, beta, incX, incY := g.trans(), g.dim(), g.dim(), g.scalar(), g.scalar(), g.inc(), g.inc()
			lda := g.ld(n)
			lx, ly := cxRows(tA, n, m)
			g.mat("a", false, m, n, lda, cxEvery)
			g.vec("x", false, lx, incX)
			g.vec("y", true, ly, incY)
			return func(a api, s [][]T) any {
				a.gemv(tA, m, n, alpha, s[0], lda, s[1], incX, beta, s[2], incY)
				return nil
			}
		}},
		{"gbmv", func(g *g) call {
			tA, m, n, kL, kU := g.trans(), g.dim(), g.dim(), g.band(), g.band()
			alpha, beta, incX, incY := g.scalar(), g.scalar(), g.inc(), g.inc()
			lda := g.ld(kL + kU + 1)
			lx, ly := cxRows(tA, n, m)
			g.mat("a", false, min(m, n+kL), kL+kU+1, lda, cxEvery)
			g.vec("x", false, lx, incX)
			g.vec("y", true, ly, incY)
			return func(a api, s [][]T) any {
				a.gbmv(tA, m, n, kL, kU, alpha, s[0], lda, s[1], incX, beta, s[2], incY)
				return nil
			}
		}},
		tri("trmv", false), tri("trsv", true),
		triBand("tbmv", false), triBand("tbsv", true),
		triPacked("tpmv", false), triPacked("tpsv", true),
		{"hemv", func(g *g) call {
			ul, n, alpha, beta, incX, incY := g.uplo(), g.dim(), g.scalar(), g.scalar(), g.inc(), g.inc()
			lda := g.ld(n)
			g.mat("a", false, n, n, lda, cxTriangle(ul))
			g.vec("x", false, n, incX)
			g.vec("y", true, n, incY)
			return func(a api, s [][]T) any {
				a.hemv(ul, n, alpha, s[0], lda, s[1], incX, beta, s[2], incY)
				return nil
			}
		}},
		{"hbmv", func(g *g) call {
			ul, n, k, alpha, beta, incX, incY := g.uplo(), g.dim(), g.band(), g.scalar(), g.scalar(), g.inc(), g.inc()
			lda := g.ld(k + 1)
			g.mat("a", false, n, k+1, lda, cxEvery)
			g.vec("x", false, n, incX)
			g.vec("y", true, n, incY)
			return func(a api, s [][]T) any {
				a.hbmv(ul, n, k, alpha, s[0], lda, s[1], incX, beta, s[2], incY)
				return nil
			}
		}},
		{"hpmv", func(g *g) call {
			ul, n, alpha, beta, incX, incY := g.uplo(), g.dim(), g.scalar(), g.scalar(), g.inc(), g.inc()
			g.packed("ap", false, n)
			g.vec("x", false, n, incX)
			g.vec("y", true, n, incY)
			return func(a api, s [][]T) any {
				a.hpmv(ul, n, alpha, s[0], s[1], incX, beta, s[2], incY)
				return nil
			}
		}},
		ger("geru", false), ger("gerc", true),
		{"her", func(g *g) call {
			ul, n, alpha, incX := g.uplo(), g.dim(), g.rscalar(), g.inc()
			lda := g.ld(n)
			g.vec("x", false, n, incX)
			g.mat("a", true, n, n, lda, cxTriangle(ul))
			return func(a api, s [][]T) any { a.her(ul, n, alpha, s[0], incX, s[1], lda); return nil }
		}},
		{"hpr", func(g *g) call {
			ul, n, alpha, incX := g.uplo(), g.dim(), g.rscalar(), g.inc()
			g.vec("x", false, n, incX)
			g.packed("ap", true, n)
			return func(a api, s [][]T) any { a.hpr(ul, n, alpha, s[0], incX, s[1]); return nil }
		}},
		{"her2", func(g *g) call {
			ul, n, alpha, incX, incY := g.uplo(), g.dim(), g.scalar(), g.inc(), g.inc()
			lda := g.ld(n)
			g.vec("x", false, n, incX)
			g.vec("y", false, n, incY)
			g.mat("a", true, n, n, lda, cxTriangle(ul))
			return func(a api, s [][]T) any { a.her2(ul, n, alpha, s[0], incX, s[1], incY, s[2], lda); return nil }
		}},
		{"hpr2", func(g *g) call {
			ul, n, alpha, incX, incY := g.uplo(), g.dim(), g.scalar(), g.inc(), g.inc()
			g.vec("x", false, n, incX)
			g.vec("y", false, n, incY)
			g.packed("ap", true, n)
			return func(a api, s [][]T) any { a.hpr2(ul, n, alpha, s[0], incX, s[1], incY, s[2]); return nil }
		}},
	}
}

func cxLevel3[T cxElem, R cxReal]() []cxCase[T, R] {
	type g = cxGen[T, R]
	type call = cxCall[T, R]
	type api = capi[T, R]
	sm := func(name string, herm bool) cxCase[T, R] {
		return cxCase[T, R]{name, func(g *g) call {
			side, ul, m, n, alpha, beta := g.side(), g.uplo(), g.dim(), g.dim(), g.scalar(), g.scalar()
			na := n
			if side == blas.Left {
				na = m
			}
			lda, ldb, ldc := g.ld(na), g.ld(n), g.ld(n)
			g.mat("a", false, na, na, lda, cxTriangle(ul))
			g.mat("b", false, m, n, ldb, cxEvery)
			g.mat("c", true, m, n, ldc, cxEvery)
			return func(a api, s [][]T) any {
				if herm {
					a.hemm(side, ul, m, n, alpha, s[0], lda, s[1], ldb, beta, s[2], ldc)
				} else {
					a.symm(side, ul, m, n, alpha, s[0], lda, s[1], ldb, beta, s[2], ldc)
				}
				return nil
			}
		}}
	}
	// rk draws a rank-k (two == false) or rank-2k update.
	rk := func(name string, herm, two bool) cxCase[T, R] {
		return cxCase[T, R]{name, func(g *g) call {
			ul, tr, n, k := g.uplo(), g.trans(), g.dim(), g.dim()
			alpha, beta, ralpha, rbeta := g.scalar(), g.scalar(), g.rscalar(), g.rscalar()
			ra, ca := cxRows(tr, n, k)
			lda, ldb, ldc := g.ld(ca), g.ld(ca), g.ld(n)
			g.mat("a", false, ra, ca, lda, cxEvery)
			if two {
				g.mat("b", false, ra, ca, ldb, cxEvery)
			}
			g.mat("c", true, n, n, ldc, cxTriangle(ul))
			return func(a api, s [][]T) any {
				switch {
				case herm && two:
					a.her2k(ul, tr, n, k, alpha, s[0], lda, s[1], ldb, rbeta, s[2], ldc)
				case two:
					a.syr2k(ul, tr, n, k, alpha, s[0], lda, s[1], ldb, beta, s[2], ldc)
				case herm:
					a.herk(ul, tr, n, k, ralpha, s[0], lda, rbeta, s[1], ldc)
				default:
					a.syrk(ul, tr, n, k, alpha, s[0], lda, beta, s[1], ldc)
				}
				return nil
			}
		}}
	}
	tr := func(name string, solve bool) cxCase[T, R] {
		return cxCase[T, R]{name, func(g *g) call {
			side, ul, tA, d, m, n, alpha := g.side(), g.uplo(), g.trans(), g.diag(), g.dim(), g.dim(), g.scalar()
			na := n
			if side == blas.Left {
				na = m
			}
			lda, ldb := g.ld(na), g.ld(n)
			g.mat("a", false, na, na, lda, cxTriangle(ul))
			g.mat("b", true, m, n, ldb, cxEvery)
			if solve {
				g.prep = func(s [][]T) { cxBoost(s[0], na, 0, lda+1) }
			}
			return func(a api, s [][]T) any {
				if solve {
					a.trsm(side, ul, tA, d, m, n, alpha, s[0], lda, s[1], ldb)
				} else {
					a.trmm(side, ul, tA, d, m, n, alpha, s[0], lda, s[1], ldb)
				}
				return nil
			}
		}}
	}
	return []cxCase[T, R]{
		{"gemm", func(g *g) call {
			tA, tB, m, n, k, alpha, beta := g.trans(), g.trans(), g.dim(), g.dim(), g.dim(), g.scalar(), g.scalar()
			ra, ca := cxRows(tA, m, k)
			rb, cb := cxRows(tB, k, n)
			lda, ldb, ldc := g.ld(ca), g.ld(cb), g.ld(n)
			g.mat("a", false, ra, ca, lda, cxEvery)
			g.mat("b", false, rb, cb, ldb, cxEvery)
			g.mat("c", true, m, n, ldc, cxEvery)
			return func(a api, s [][]T) any {
				a.gemm(tA, tB, m, n, k, alpha, s[0], lda, s[1], ldb, beta, s[2], ldc)
				return nil
			}
		}},
		sm("symm", false), sm("hemm", true),
		rk("syrk", false, false), rk("herk", true, false),
		rk("syr2k", false, true), rk("her2k", true, true),
		tr("trmm", false), tr("trsm", true),
	}
}

// cxImpl returns an Implementation with policy p, closed when the test
// ends; without a device the test is skipped (a failure under
// GOCL_REQUIRE_DEVICE=1).
func cxImpl(t *testing.T, p clblas.Policy) *clblas.Implementation {
	t.Helper()
	platformtest.Device(t)
	impl, err := clblas.New(clblas.WithOffload(p))
	if err != nil {
		t.Fatalf("New(WithOffload(%v)): %v", p, err)
	}
	t.Cleanup(func() {
		if err := impl.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return impl
}

// TestComplex64Suite checks every complex64 routine against
// gonum.Implementation{} under each offload policy, canaries included.
func TestComplex64Suite(t *testing.T) {
	for _, p := range []clblas.Policy{clblas.Always, clblas.Never, clblas.Auto} {
		t.Run(p.String(), func(t *testing.T) {
			impl := cxImpl(t, p)
			cxSuite(t, api64(impl), api64(gonum.Implementation{}), cxCases[complex64, float32](), 300, 1e-4)
		})
	}
}

// TestComplex128Canary is the same suite over the complex128 routines.
func TestComplex128Canary(t *testing.T) {
	for _, p := range []clblas.Policy{clblas.Always, clblas.Never} {
		t.Run(p.String(), func(t *testing.T) {
			impl := cxImpl(t, p)
			cxSuite(t, api128(impl), api128(gonum.Implementation{}), cxCases[complex128, float64](), 300, 1e-11)
		})
	}
}
