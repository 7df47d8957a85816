package clblas

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	eng "github.com/gocompute/opencl/internal/engine"
	"gonum.org/v1/gonum/blas"
)

// This file holds the canary test: every routine of blas.Float64 and
// blas.Float32 that takes a slice is called with each operand lying inside
// a larger allocation whose other elements are canaries (a NaN with a
// payload of its own): before the first element, after the last one (both
// inside the slice the routine is given and beyond its length, within its
// capacity), in the padding of each row when the leading dimension exceeds
// the row, between the elements of a vector whose increment exceeds 1, in
// the triangle a symmetric or triangular routine must not touch and in the
// corners of band storage. After the call every canary must hold its bits,
// every input must be as it was, and the outputs must agree with gonum's.
// The calls run on every path a call can take: the device (Always), the
// CPU (Never), Auto, the CPU fallback after the device failed at enqueue
// or read back, after a fake device failed, and after Close.

// The canaries' bits: quiet NaNs whose payloads no arithmetic produces.
const (
	canaryBits64 uint64 = 0x7ff8_dead_beef_0bad
	canaryBits32 uint32 = 0x7fc0_0bad
)

type canaryFloat interface{ float32 | float64 }

func canary[T canaryFloat]() T {
	var z T
	if _, ok := any(z).(float32); ok {
		return any(math.Float32frombits(canaryBits32)).(T)
	}
	return any(math.Float64frombits(canaryBits64)).(T)
}

// sameBits reports whether a and b have the same bits.
func sameBits[T canaryFloat](a, b T) bool {
	switch a := any(a).(type) {
	case float32:
		return math.Float32bits(a) == math.Float32bits(any(b).(float32))
	case float64:
		return math.Float64bits(a) == math.Float64bits(any(b).(float64))
	}
	return false
}

// canaryOperand is one slice argument: s = buf[off:off+n] (its capacity
// runs to the end of buf); mine[i] says whether s[i] is an element of the
// operand (one the routine may read, or write if out).
type canaryOperand[T canaryFloat] struct {
	name   string
	out    bool
	buf    []T
	off, n int
	mine   []bool
	before []T
}

func (o *canaryOperand[T]) slice() []T { return o.buf[o.off : o.off+o.n] }

// check reports the first element of buf that changed although it is a
// canary, or belongs to an input.
func (o *canaryOperand[T]) check(t *testing.T, where string) {
	t.Helper()
	for i, v := range o.buf {
		j := i - o.off
		mine := j >= 0 && j < o.n && o.mine[j]
		if o.out && mine {
			continue
		}
		if !sameBits(v, o.before[i]) {
			what := "canary"
			switch {
			case mine:
				what = "input element"
			case j < 0:
				what = "canary before the slice"
			case j >= o.n:
				what = "canary beyond the slice's length"
			}
			t.Errorf("%s: %s[%d], a %s, changed from %v to %v", where, o.name, j, what, o.before[i], v)
			return
		}
	}
}

// canaryGen draws the arguments of one call and records its operands.
type canaryGen[T canaryFloat] struct {
	rnd *rand.Rand
	ops []*canaryOperand[T]
	// specials puts NaN, ±Inf and zeros among the data and NaN and ±Inf
	// among α and β (FuzzDropIn).
	specials bool
}

// special is a value the fuzz target mixes into the data.
func (g *canaryGen[T]) special() T {
	return T([]float64{math.NaN(), math.Inf(1), math.Inf(-1), 0}[g.rnd.IntN(4)])
}

// size is a dimension: mostly small, sometimes up to 70, rarely 0.
func (g *canaryGen[T]) size() int {
	switch r := g.rnd.IntN(20); {
	case r == 0:
		return 0
	case r < 15:
		return 1 + g.rnd.IntN(8)
	default:
		return 9 + g.rnd.IntN(62)
	}
}

// inc is an increment: ±1 half the time, else ±2 or ±3.
func (g *canaryGen[T]) inc() int {
	i := 1
	if g.rnd.IntN(2) == 0 {
		i = 2 + g.rnd.IntN(2)
	}
	if g.rnd.IntN(2) == 0 {
		return -i
	}
	return i
}

// ld is a leading dimension for rows of cols elements: cols plus 0–3.
func (g *canaryGen[T]) ld(cols int) int { return max(1, cols) + g.rnd.IntN(4) }

func (g *canaryGen[T]) trans() blas.Transpose {
	return []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans}[g.rnd.IntN(3)]
}

func (g *canaryGen[T]) uplo() blas.Uplo {
	return []blas.Uplo{blas.Upper, blas.Lower}[g.rnd.IntN(2)]
}

func (g *canaryGen[T]) diag() blas.Diag {
	return []blas.Diag{blas.NonUnit, blas.Unit}[g.rnd.IntN(2)]
}

func (g *canaryGen[T]) side() blas.Side {
	return []blas.Side{blas.Left, blas.Right}[g.rnd.IntN(2)]
}

// scalar is α or β: 0, 1, −1 or a random value.
func (g *canaryGen[T]) scalar() T {
	if g.specials && g.rnd.IntN(8) == 0 {
		return g.special()
	}
	switch g.rnd.IntN(5) {
	case 0:
		return 0
	case 1:
		return 1
	case 2:
		return -1
	}
	return T(2*g.rnd.Float64() - 1)
}

// operand makes an operand of span elements (mine tells which of them
// belong to it) inside canaries, with values from val.
func (g *canaryGen[T]) operand(name string, out bool, span int, mine func(i int) bool, val func(i int) T) []T {
	pre, tail, post := 1+g.rnd.IntN(3), g.rnd.IntN(4), 1+g.rnd.IntN(3)
	if span == 0 {
		tail = 0
	}
	o := &canaryOperand[T]{name: name, out: out, off: pre, n: span + tail}
	o.buf = make([]T, pre+span+tail+post)
	o.mine = make([]bool, o.n)
	for i := range o.buf {
		o.buf[i] = canary[T]()
	}
	for i := range span {
		if mine(i) {
			o.mine[i] = true
			o.buf[pre+i] = val(i)
		}
	}
	o.before = append([]T(nil), o.buf...)
	g.ops = append(g.ops, o)
	return o.slice()
}

func (g *canaryGen[T]) random(scale float64) func(int) T {
	return func(int) T { return g.value(scale) }
}

// value is a random element in [-scale, scale), or with specials now and
// then a special.
func (g *canaryGen[T]) value(scale float64) T {
	if g.specials && g.rnd.IntN(8) == 0 {
		return g.special()
	}
	return T(scale * (2*g.rnd.Float64() - 1))
}

// vec is a vector of n elements spaced inc apart.
func (g *canaryGen[T]) vec(name string, out bool, n, inc int) []T {
	span := 0
	if n > 0 {
		span = eng.VecSpan(n, inc)
	}
	step := max(inc, -inc)
	return g.operand(name, out, span, func(i int) bool { return i%step == 0 }, g.random(1))
}

// mat is a rows×cols matrix with leading dimension ld whose element (i, j)
// belongs to it where in(i, j) (nil: everywhere); diag, when ≥ 0, is the
// column of row i's diagonal element in the storage, which then lies in
// [1, 2) while the others are scaled by scale.
func (g *canaryGen[T]) mat(name string, out bool, rows, cols, ld int, in func(i, j int) bool, diag func(i int) int, scale float64) []T {
	span := 0
	if rows > 0 {
		span = (rows-1)*ld + cols
	}
	mine := func(p int) bool {
		i, j := p/ld, p%ld
		return j < cols && (in == nil || in(i, j))
	}
	val := func(p int) T {
		if diag != nil && p%ld == diag(p/ld) {
			return T(1 + g.rnd.Float64())
		}
		return g.value(scale)
	}
	return g.operand(name, out, span, mine, val)
}

// tri says whether (i, j) lies in the ul triangle of a full matrix.
func tri(ul blas.Uplo) func(i, j int) bool {
	if ul == blas.Upper {
		return func(i, j int) bool { return j >= i }
	}
	return func(i, j int) bool { return j <= i }
}

// packed is an n×n triangular or symmetric matrix in packed form; for
// solves its diagonal lies in [1, 2) and the rest is scaled by scale.
func (g *canaryGen[T]) packed(name string, out bool, ul blas.Uplo, n int, scale float64) []T {
	isDiag := map[int]bool{}
	for i, p := 0, 0; i < n; i++ {
		if ul == blas.Upper {
			isDiag[p] = true
			p += n - i
		} else {
			p += i
			isDiag[p] = true
			p++
		}
	}
	val := func(p int) T {
		if isDiag[p] {
			return T(1 + g.rnd.Float64())
		}
		return g.value(scale)
	}
	return g.operand(name, out, n*(n+1)/2, func(int) bool { return true }, val)
}

// band is an n-row band matrix of kL sub- and kU super-diagonals in gonum's
// row-major band storage: the corners that hold no element are canaries.
func (g *canaryGen[T]) band(name string, rows, cols, kL, kU, ld int, scale float64, solve bool) []T {
	in := func(i, j int) bool { c := i - kL + j; return c >= 0 && c < cols }
	var diag func(int) int
	if solve {
		diag = func(int) int { return kL }
	}
	return g.mat(name, false, rows, kL+kU+1, ld, in, diag, scale)
}

// solveScale keeps triangular solves of order n well conditioned.
func solveScale(n int) float64 { return 1 / float64(max(n, 1)) }

// canaryRoutine is a routine with the argument makers of its float64 and
// float32 methods (D… and S…; nil where the precision has no such method).
type canaryRoutine struct {
	m64, m32 string
	a64      func(*canaryGen[float64]) []any
	a32      func(*canaryGen[float32]) []any
}

func rt(name string, a64 func(*canaryGen[float64]) []any, a32 func(*canaryGen[float32]) []any) canaryRoutine {
	return canaryRoutine{m64: "D" + name, m32: "S" + name, a64: a64, a32: a32}
}

func canaryRoutines() []canaryRoutine {
	return []canaryRoutine{
		rt("dot", argsDot[float64], argsDot[float32]),
		rt("nrm2", argsNrm2[float64], argsNrm2[float32]),
		rt("asum", argsNrm2[float64], argsNrm2[float32]),
		{m64: "Idamax", m32: "Isamax", a64: argsNrm2[float64], a32: argsNrm2[float32]},
		rt("swap", argsSwap[float64], argsSwap[float32]),
		rt("copy", argsCopy[float64], argsCopy[float32]),
		rt("axpy", argsAxpy[float64], argsAxpy[float32]),
		rt("rot", argsRot[float64], argsRot[float32]),
		rt("rotm", argsRotm[float64], argsRotm[float32]),
		rt("scal", argsScal[float64], argsScal[float32]),
		{m32: "Sdsdot", a32: argsSdsdot},
		{m32: "Dsdot", a32: argsDot[float32]},

		rt("gemv", argsGemv[float64], argsGemv[float32]),
		rt("gbmv", argsGbmv[float64], argsGbmv[float32]),
		rt("trmv", argsTrv[float64], argsTrv[float32]),
		rt("trsv", argsTrv[float64], argsTrv[float32]),
		rt("tbmv", argsTbv[float64], argsTbv[float32]),
		rt("tbsv", argsTbv[float64], argsTbv[float32]),
		rt("tpmv", argsTpv[float64], argsTpv[float32]),
		rt("tpsv", argsTpv[float64], argsTpv[float32]),
		rt("symv", argsSymv[float64], argsSymv[float32]),
		rt("sbmv", argsSbmv[float64], argsSbmv[float32]),
		rt("spmv", argsSpmv[float64], argsSpmv[float32]),
		rt("ger", argsGer[float64], argsGer[float32]),
		rt("syr", argsSyr[float64], argsSyr[float32]),
		rt("spr", argsSpr[float64], argsSpr[float32]),
		rt("syr2", argsSyr2[float64], argsSyr2[float32]),
		rt("spr2", argsSpr2[float64], argsSpr2[float32]),

		rt("gemm", argsGemm[float64], argsGemm[float32]),
		rt("symm", argsSymm[float64], argsSymm[float32]),
		rt("syrk", argsSyrk[float64], argsSyrk[float32]),
		rt("syr2k", argsSyr2k[float64], argsSyr2k[float32]),
		rt("trmm", argsTrm[float64], argsTrm[float32]),
		rt("trsm", argsTrm[float64], argsTrm[float32]),
	}
}

func argsDot[T canaryFloat](g *canaryGen[T]) []any {
	n, incX, incY := g.size(), g.inc(), g.inc()
	return []any{n, g.vec("x", false, n, incX), incX, g.vec("y", false, n, incY), incY}
}

func argsSdsdot(g *canaryGen[float32]) []any {
	n, incX, incY := g.size(), g.inc(), g.inc()
	return []any{n, g.scalar(), g.vec("x", false, n, incX), incX, g.vec("y", false, n, incY), incY}
}

func argsNrm2[T canaryFloat](g *canaryGen[T]) []any {
	n, incX := g.size(), g.inc()
	return []any{n, g.vec("x", false, n, incX), incX}
}

func argsScal[T canaryFloat](g *canaryGen[T]) []any {
	n, incX := g.size(), g.inc()
	return []any{n, g.scalar(), g.vec("x", true, n, incX), incX}
}

func argsSwap[T canaryFloat](g *canaryGen[T]) []any {
	n, incX, incY := g.size(), g.inc(), g.inc()
	return []any{n, g.vec("x", true, n, incX), incX, g.vec("y", true, n, incY), incY}
}

func argsCopy[T canaryFloat](g *canaryGen[T]) []any {
	n, incX, incY := g.size(), g.inc(), g.inc()
	return []any{n, g.vec("x", false, n, incX), incX, g.vec("y", true, n, incY), incY}
}

func argsAxpy[T canaryFloat](g *canaryGen[T]) []any {
	n, incX, incY := g.size(), g.inc(), g.inc()
	return []any{n, g.scalar(), g.vec("x", false, n, incX), incX, g.vec("y", true, n, incY), incY}
}

func argsRot[T canaryFloat](g *canaryGen[T]) []any {
	n, incX, incY := g.size(), g.inc(), g.inc()
	th := 2 * math.Pi * g.rnd.Float64()
	return []any{n, g.vec("x", true, n, incX), incX, g.vec("y", true, n, incY), incY, T(math.Cos(th)), T(math.Sin(th))}
}

func argsRotm[T canaryFloat](g *canaryGen[T]) []any {
	n, incX, incY := g.size(), g.inc(), g.inc()
	flag := []blas.Flag{blas.Identity, blas.Rescaling, blas.OffDiagonal, blas.Diagonal}[g.rnd.IntN(4)]
	var h [4]T
	for i := range h {
		h[i] = T(2*g.rnd.Float64() - 1)
	}
	x, y := g.vec("x", true, n, incX), g.vec("y", true, n, incY)
	var p any
	if _, ok := any(h[0]).(float32); ok {
		p = blas.SrotmParams{Flag: flag, H: any(h).([4]float32)}
	} else {
		p = blas.DrotmParams{Flag: flag, H: any(h).([4]float64)}
	}
	return []any{n, x, incX, y, incY, p}
}

func argsGemv[T canaryFloat](g *canaryGen[T]) []any {
	tA, m, n := g.trans(), g.size(), g.size()
	lda, incX, incY := g.ld(n), g.inc(), g.inc()
	lenX, lenY := m, n
	if tA == blas.NoTrans {
		lenX, lenY = n, m
	}
	alpha, beta := g.scalar(), g.scalar()
	a := g.mat("a", false, m, n, lda, nil, nil, 1)
	x := g.vec("x", false, lenX, incX)
	return []any{tA, m, n, alpha, a, lda, x, incX, beta, g.vec("y", true, lenY, incY), incY}
}

func argsGbmv[T canaryFloat](g *canaryGen[T]) []any {
	tA, m, n := g.trans(), g.size(), g.size()
	kL, kU := g.rnd.IntN(4), g.rnd.IntN(4)
	lda, incX, incY := g.ld(kL+kU+1), g.inc(), g.inc()
	lenX, lenY := m, n
	if tA == blas.NoTrans {
		lenX, lenY = n, m
	}
	alpha, beta := g.scalar(), g.scalar()
	a := g.band("a", min(m, n+kL), n, kL, kU, lda, 1, false)
	x := g.vec("x", false, lenX, incX)
	return []any{tA, m, n, kL, kU, alpha, a, lda, x, incX, beta, g.vec("y", true, lenY, incY), incY}
}

// argsTrv serves trmv and trsv.
func argsTrv[T canaryFloat](g *canaryGen[T]) []any {
	ul, tA, d, n := g.uplo(), g.trans(), g.diag(), g.size()
	lda, incX := g.ld(n), g.inc()
	a := g.mat("a", false, n, n, lda, tri(ul), func(i int) int { return i }, solveScale(n))
	return []any{ul, tA, d, n, a, lda, g.vec("x", true, n, incX), incX}
}

// argsTbv serves tbmv and tbsv.
func argsTbv[T canaryFloat](g *canaryGen[T]) []any {
	ul, tA, d, n := g.uplo(), g.trans(), g.diag(), g.size()
	k := g.rnd.IntN(4)
	lda, incX := g.ld(k+1), g.inc()
	kL, kU := 0, k
	if ul == blas.Lower {
		kL, kU = k, 0
	}
	a := g.band("a", n, n, kL, kU, lda, solveScale(n), true)
	return []any{ul, tA, d, n, k, a, lda, g.vec("x", true, n, incX), incX}
}

// argsTpv serves tpmv and tpsv.
func argsTpv[T canaryFloat](g *canaryGen[T]) []any {
	ul, tA, d, n := g.uplo(), g.trans(), g.diag(), g.size()
	incX := g.inc()
	ap := g.packed("ap", false, ul, n, solveScale(n))
	return []any{ul, tA, d, n, ap, g.vec("x", true, n, incX), incX}
}

func argsSymv[T canaryFloat](g *canaryGen[T]) []any {
	ul, n := g.uplo(), g.size()
	lda, incX, incY := g.ld(n), g.inc(), g.inc()
	alpha, beta := g.scalar(), g.scalar()
	a := g.mat("a", false, n, n, lda, tri(ul), nil, 1)
	x := g.vec("x", false, n, incX)
	return []any{ul, n, alpha, a, lda, x, incX, beta, g.vec("y", true, n, incY), incY}
}

func argsSbmv[T canaryFloat](g *canaryGen[T]) []any {
	ul, n, k := g.uplo(), g.size(), g.rnd.IntN(4)
	lda, incX, incY := g.ld(k+1), g.inc(), g.inc()
	alpha, beta := g.scalar(), g.scalar()
	kL, kU := 0, k
	if ul == blas.Lower {
		kL, kU = k, 0
	}
	a := g.band("a", n, n, kL, kU, lda, 1, false)
	x := g.vec("x", false, n, incX)
	return []any{ul, n, k, alpha, a, lda, x, incX, beta, g.vec("y", true, n, incY), incY}
}

func argsSpmv[T canaryFloat](g *canaryGen[T]) []any {
	ul, n := g.uplo(), g.size()
	incX, incY := g.inc(), g.inc()
	alpha, beta := g.scalar(), g.scalar()
	ap := g.packed("ap", false, ul, n, 1)
	x := g.vec("x", false, n, incX)
	return []any{ul, n, alpha, ap, x, incX, beta, g.vec("y", true, n, incY), incY}
}

func argsGer[T canaryFloat](g *canaryGen[T]) []any {
	m, n := g.size(), g.size()
	lda, incX, incY := g.ld(n), g.inc(), g.inc()
	alpha := g.scalar()
	x, y := g.vec("x", false, m, incX), g.vec("y", false, n, incY)
	return []any{m, n, alpha, x, incX, y, incY, g.mat("a", true, m, n, lda, nil, nil, 1), lda}
}

func argsSyr[T canaryFloat](g *canaryGen[T]) []any {
	ul, n := g.uplo(), g.size()
	lda, incX := g.ld(n), g.inc()
	alpha := g.scalar()
	x := g.vec("x", false, n, incX)
	return []any{ul, n, alpha, x, incX, g.mat("a", true, n, n, lda, tri(ul), nil, 1), lda}
}

func argsSpr[T canaryFloat](g *canaryGen[T]) []any {
	ul, n, incX := g.uplo(), g.size(), g.inc()
	alpha := g.scalar()
	x := g.vec("x", false, n, incX)
	return []any{ul, n, alpha, x, incX, g.packed("ap", true, ul, n, 1)}
}

func argsSyr2[T canaryFloat](g *canaryGen[T]) []any {
	ul, n := g.uplo(), g.size()
	lda, incX, incY := g.ld(n), g.inc(), g.inc()
	alpha := g.scalar()
	x, y := g.vec("x", false, n, incX), g.vec("y", false, n, incY)
	return []any{ul, n, alpha, x, incX, y, incY, g.mat("a", true, n, n, lda, tri(ul), nil, 1), lda}
}

func argsSpr2[T canaryFloat](g *canaryGen[T]) []any {
	ul, n := g.uplo(), g.size()
	incX, incY := g.inc(), g.inc()
	alpha := g.scalar()
	x, y := g.vec("x", false, n, incX), g.vec("y", false, n, incY)
	return []any{ul, n, alpha, x, incX, y, incY, g.packed("ap", true, ul, n, 1)}
}

// storedDims returns the stored rows and columns of an r×c operand used as op(·)
// under t.
func storedDims(t blas.Transpose, r, c int) (int, int) {
	if t == blas.NoTrans {
		return r, c
	}
	return c, r
}

func argsGemm[T canaryFloat](g *canaryGen[T]) []any {
	tA, tB := g.trans(), g.trans()
	m, n, k := g.size(), g.size(), g.size()
	ar, ac := storedDims(tA, m, k)
	br, bc := storedDims(tB, k, n)
	lda, ldb, ldc := g.ld(ac), g.ld(bc), g.ld(n)
	alpha, beta := g.scalar(), g.scalar()
	a := g.mat("a", false, ar, ac, lda, nil, nil, 1)
	b := g.mat("b", false, br, bc, ldb, nil, nil, 1)
	c := g.mat("c", true, m, n, ldc, nil, nil, 1)
	return []any{tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc}
}

func argsSymm[T canaryFloat](g *canaryGen[T]) []any {
	s, ul, m, n := g.side(), g.uplo(), g.size(), g.size()
	k := n
	if s == blas.Left {
		k = m
	}
	lda, ldb, ldc := g.ld(k), g.ld(n), g.ld(n)
	alpha, beta := g.scalar(), g.scalar()
	a := g.mat("a", false, k, k, lda, tri(ul), nil, 1)
	b := g.mat("b", false, m, n, ldb, nil, nil, 1)
	c := g.mat("c", true, m, n, ldc, nil, nil, 1)
	return []any{s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc}
}

func argsSyrk[T canaryFloat](g *canaryGen[T]) []any {
	ul, t, n, k := g.uplo(), g.trans(), g.size(), g.size()
	ar, ac := storedDims(t, n, k)
	lda, ldc := g.ld(ac), g.ld(n)
	alpha, beta := g.scalar(), g.scalar()
	a := g.mat("a", false, ar, ac, lda, nil, nil, 1)
	c := g.mat("c", true, n, n, ldc, tri(ul), nil, 1)
	return []any{ul, t, n, k, alpha, a, lda, beta, c, ldc}
}

func argsSyr2k[T canaryFloat](g *canaryGen[T]) []any {
	ul, t, n, k := g.uplo(), g.trans(), g.size(), g.size()
	ar, ac := storedDims(t, n, k)
	lda, ldb, ldc := g.ld(ac), g.ld(ac), g.ld(n)
	alpha, beta := g.scalar(), g.scalar()
	a := g.mat("a", false, ar, ac, lda, nil, nil, 1)
	b := g.mat("b", false, ar, ac, ldb, nil, nil, 1)
	c := g.mat("c", true, n, n, ldc, tri(ul), nil, 1)
	return []any{ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc}
}

// argsTrm serves trmm and trsm.
func argsTrm[T canaryFloat](g *canaryGen[T]) []any {
	s, ul, tA, d := g.side(), g.uplo(), g.trans(), g.diag()
	m, n := g.size(), g.size()
	k := n
	if s == blas.Left {
		k = m
	}
	lda, ldb := g.ld(k), g.ld(n)
	alpha := g.scalar()
	a := g.mat("a", false, k, k, lda, tri(ul), func(i int) int { return i }, solveScale(k))
	b := g.mat("b", true, m, n, ldb, nil, nil, 1)
	return []any{s, ul, tA, d, m, n, alpha, a, lda, b, ldb}
}

// canaryCall runs one drawn call of method on impl and on ref (which works
// on copies) and checks canaries, inputs and outputs.
func canaryCall[T canaryFloat](t *testing.T, impl, ref *Implementation, method string, args []any, ops []*canaryOperand[T], where string) {
	t.Helper()
	refArgs := make([]any, len(args))
	var refOps []*canaryOperand[T]
	next := 0
	for i, a := range args {
		refArgs[i] = a
		if _, ok := a.([]T); ok {
			o := *ops[next]
			o.buf = append([]T(nil), o.buf...)
			refOps = append(refOps, &o)
			refArgs[i] = o.slice()
			next++
		}
	}
	got, err := callMethod(impl, method, args)
	if err != nil {
		t.Errorf("%s: %v", where, err)
		return
	}
	want, err := callMethod(ref, method, refArgs)
	if err != nil {
		t.Fatalf("%s: reference: %v", where, err)
	}
	for _, o := range ops {
		o.check(t, where)
	}
	tol := 1e-9
	if _, ok := any(T(0)).(float32); ok {
		tol = 2e-3
	}
	for i := range got {
		g, w := got[i].Interface(), want[i].Interface()
		if !closeScalar(g, w, tol) {
			t.Errorf("%s: returned %v, gonum %v", where, g, w)
		}
	}
	for i, o := range ops {
		if !o.out {
			continue
		}
		r := refOps[i]
		for j := range o.n {
			if !o.mine[j] {
				continue
			}
			g, w := o.buf[o.off+j], r.buf[r.off+j]
			if !closeScalar(float64(g), float64(w), tol) {
				t.Errorf("%s: %s[%d] = %v, gonum %v%s", where, o.name, j, g, w, operandValues(refOps))
				break
			}
		}
	}
}

// operandValues prints small operands as they were before the call, for
// failure messages.
func operandValues[T canaryFloat](ops []*canaryOperand[T]) string {
	var b strings.Builder
	for _, o := range ops {
		if o.n > 32 {
			return ""
		}
		fmt.Fprintf(&b, "\n\t%s = %v", o.name, o.before[o.off:o.off+o.n])
	}
	return b.String()
}

// closeScalar compares two results of the same type within tol relative to
// max(1, |want|); NaN matches NaN.
func closeScalar(got, want any, tol float64) bool {
	var g, w float64
	switch want := want.(type) {
	case int:
		return got.(int) == want
	case float32:
		g, w = float64(got.(float32)), float64(want)
	case float64:
		g, w = got.(float64), want
	default:
		return reflect.DeepEqual(got, want)
	}
	if g == w {
		return true // equal, or the same infinity
	}
	if math.IsNaN(w) || math.IsNaN(g) || math.IsInf(w, 0) || math.IsInf(g, 0) {
		return math.IsNaN(w) && math.IsNaN(g)
	}
	return math.Abs(g-w) <= tol*max(1, math.Abs(w))
}

// callMethod calls impl's method with args, turning a panic into an error.
func callMethod(impl *Implementation, method string, args []any) (out []reflect.Value, err error) {
	m := reflect.ValueOf(impl).MethodByName(method)
	if !m.IsValid() {
		return nil, fmt.Errorf("no method %s", method)
	}
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		in[i] = reflect.ValueOf(a)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s panicked: %v", method, r)
		}
	}()
	return m.Call(in), nil
}

// canaryPath is a way a call can run.
type canaryPath struct {
	name string
	impl func(t *testing.T) *Implementation
	// fallback: every call the device takes fails there.
	fallback bool
	// reps is the number of calls per routine and precision.
	reps int
}

func canaryPaths() []canaryPath {
	faulty := func(site string) func(t *testing.T) *Implementation {
		return func(t *testing.T) *Implementation {
			impl, e := privateImpl(t, &recorder{})
			fail := func(s string) error {
				if s == site {
					return fmt.Errorf("%s: %w", s, errInjected)
				}
				return nil
			}
			e.Fault.Store(&fail)
			t.Cleanup(func() { e.Fault.Store(nil) })
			return impl
		}
	}
	return []canaryPath{
		{name: "always", reps: 8, impl: func(t *testing.T) *Implementation {
			return newTestImpl(t)
		}},
		{name: "never", reps: 100, impl: func(t *testing.T) *Implementation {
			newTestImpl(t)
			return ownImpl(t, Never)
		}},
		{name: "auto", reps: 20, impl: func(t *testing.T) *Implementation {
			newTestImpl(t)
			return ownImpl(t, Auto)
		}},
		{name: "fallback-enqueue", reps: 3, fallback: true, impl: faulty("enqueue")},
		{name: "fallback-read", reps: 3, fallback: true, impl: faulty("read")},
		{name: "fallback-fake", reps: 40, fallback: true, impl: func(t *testing.T) *Implementation {
			impl, _, _ := newFailingImpl(t)
			return impl
		}},
		{name: "closed", reps: 40, impl: func(t *testing.T) *Implementation {
			newTestImpl(t)
			impl := ownImpl(t, Always)
			if err := impl.Close(); err != nil {
				t.Fatal(err)
			}
			return impl
		}},
	}
}

// ownImpl is an Implementation of its own on the default device.
func ownImpl(t *testing.T, p Policy) *Implementation {
	t.Helper()
	impl, err := New(WithOffload(p))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { impl.Close() })
	return impl
}

// checkCanaryPath checks from impl's Stats that the calls took path p: the
// device for Always, the CPU after Close, and a failure for every call the
// device took on a fallback path.
func checkCanaryPath(t *testing.T, p canaryPath, impl *Implementation) {
	t.Helper()
	var dev, failed int64
	for name, s := range impl.Stats() {
		dev += s.Device
		failed += s.Failed
		if p.fallback && s.Failed != s.Device {
			t.Errorf("%s: %d of %d device calls of %s failed, want all", p.name, s.Failed, s.Device, name)
		}
		if !p.fallback && s.Failed != 0 {
			t.Errorf("%s: %d device calls of %s failed", p.name, s.Failed, name)
		}
	}
	switch {
	case p.name == "always" && dev == 0, p.fallback && failed == 0:
		t.Errorf("%s: no call went to the device", p.name)
	case (p.name == "never" || p.name == "closed") && dev != 0:
		t.Errorf("%s: %d calls went to the device", p.name, dev)
	}
	t.Logf("%s: %d calls sent to the device, %d of them failed", p.name, dev, failed)
}

// TestCanaries is the canary test described at the top of this file.
func TestCanaries(t *testing.T) {
	ref, err := New(WithOffload(Never), withDevices(nil, nil, costModel{}))
	if err != nil {
		t.Fatal(err)
	}
	routines := canaryRoutines()
	checkCanaryCoverage(t, routines)
	for _, p := range canaryPaths() {
		t.Run(p.name, func(t *testing.T) {
			impl := p.impl(t)
			reps := p.reps
			if testing.Short() {
				reps = max(1, reps/4)
			}
			for _, r := range routines {
				if r.a64 != nil {
					runCanary(t, impl, ref, r.m64, r.a64, reps, p.name)
				}
				if r.a32 != nil {
					runCanary(t, impl, ref, r.m32, r.a32, reps, p.name)
				}
			}
			checkCanaryPath(t, p, impl)
		})
	}
}

// runCanary makes reps calls of method with arguments from args.
func runCanary[T canaryFloat](t *testing.T, impl, ref *Implementation, method string, args func(*canaryGen[T]) []any, reps int, path string) {
	t.Helper()
	h := fnv.New64a()
	h.Write([]byte(path + "/" + method))
	rnd := rand.New(rand.NewPCG(h.Sum64(), 19))
	for i := range reps {
		g := &canaryGen[T]{rnd: rnd}
		a := args(g)
		canaryCall(t, impl, ref, method, a, g.ops, fmt.Sprintf("%s call %d %s%v", path, i, method, shortArgs(a)))
	}
}

// shortArgs prints a call's arguments with each slice as its length.
func shortArgs(args []any) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		v := reflect.ValueOf(a)
		if v.Kind() == reflect.Slice {
			fmt.Fprintf(&b, "[%d]", v.Len())
			continue
		}
		fmt.Fprint(&b, a)
	}
	b.WriteByte(')')
	return b.String()
}

// checkCanaryCoverage fails unless every method of blas.Float64 and
// blas.Float32 that takes a slice is in routines.
func checkCanaryCoverage(t *testing.T, routines []canaryRoutine) {
	t.Helper()
	have := map[string]bool{}
	for _, r := range routines {
		if r.a64 != nil {
			have[r.m64] = true
		}
		if r.a32 != nil {
			have[r.m32] = true
		}
	}
	n := 0
	for _, iface := range []reflect.Type{reflect.TypeFor[blas.Float64](), reflect.TypeFor[blas.Float32]()} {
		for i := range iface.NumMethod() {
			m := iface.Method(i)
			takesSlice := false
			for j := range m.Type.NumIn() {
				takesSlice = takesSlice || m.Type.In(j).Kind() == reflect.Slice
			}
			if !takesSlice {
				continue
			}
			n++
			if !have[m.Name] {
				t.Errorf("%s takes a slice but is not in the canary test", m.Name)
			}
		}
	}
	if n != len(have) {
		t.Errorf("the canary test names %d methods, the interfaces have %d that take slices", len(have), n)
	}
	t.Logf("canary test: %d routines (float64 and float32)", n)
}
