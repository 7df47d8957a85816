package clblas

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	eng "github.com/gocompute/opencl/internal/engine"
)

// TestTrsvBlockedComplex runs Ztrsv, Ztbsv, Ztpsv and their complex64
// twins on the blocked kernels (kernels/trsv.cl) with sub-blocks of 4 and
// 16, two per launch, so that n = 45 takes many launches and a short last
// block: every transpose (ConjTrans included), triangle and diagonal,
// increments 1 and −2, bands narrower and wider than a sub-block. A unit
// diagonal holds NaN (it must not be read). Against gonum, on the
// launch-per-block schedule (not the flow schedule, NVIDIA's default).
func TestTrsvBlockedComplex(t *testing.T) {
	impl, e := privateImpl(t, nil)
	gpuKernels(e)
	e.L2SolveFlow = eng.SolveFlowOff
	defer func() { e.L2SolveNB, e.L2SolveLaunch, e.L2SolveFlow = 0, 0, eng.SolveFlowAuto }()
	for _, nb := range []int{4, 16} {
		e.L2SolveNB, e.L2SolveLaunch = nb, 2
		before := e.Launched.Of("Ztrsv") + e.Launched.Of("Ctbsv")
		if e.Prof.FP64 {
			t.Run(fmt.Sprintf("complex128/nb=%d", nb), func(t *testing.T) {
				trsvCxRun(t, impl, gonum.Implementation{}, 1e-12, []int{1, -2})
			})
		}
		t.Run(fmt.Sprintf("complex64/nb=%d", nb), func(t *testing.T) {
			trsvCxRun(t, c64(impl), c64(gonum.Implementation{}), 2e-4, []int{1, -2})
		})
		if e.Launched.Of("Ztrsv")+e.Launched.Of("Ctbsv") == before {
			t.Errorf("nb=%d: no complex solve ran on the device", nb)
		}
	}
}

// cxSolver is the three solves over complex128 operands (complex64
// implementations are wrapped by c64).
type cxSolver interface {
	Ztrsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []complex128, lda int, x []complex128, incX int)
	Ztbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []complex128, lda int, x []complex128, incX int)
	Ztpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []complex128, x []complex128, incX int)
}

// c64 runs a complex64 implementation's solves on complex128 operands
// rounded to complex64.
type c64Solver struct{ b blas.Complex64 }

func c64(b blas.Complex64) cxSolver { return c64Solver{b} }

func backC128(dst []complex128, v []complex64) {
	for i, x := range v {
		dst[i] = complex128(x)
	}
}

func (s c64Solver) Ztrsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []complex128, lda int, x []complex128, incX int) {
	x32 := toC64(x)
	s.b.Ctrsv(ul, tA, d, n, toC64(a), lda, x32, incX)
	backC128(x, x32)
}

func (s c64Solver) Ztbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []complex128, lda int, x []complex128, incX int) {
	x32 := toC64(x)
	s.b.Ctbsv(ul, tA, d, n, k, toC64(a), lda, x32, incX)
	backC128(x, x32)
}

func (s c64Solver) Ztpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []complex128, x []complex128, incX int) {
	x32 := toC64(x)
	s.b.Ctpsv(ul, tA, d, n, toC64(ap), x32, incX)
	backC128(x, x32)
}

// trsvCxRun checks the three solves against want over every triangle,
// transpose and diagonal, dense, band and (with a negative increment)
// packed, for each increment of incs.
func trsvCxRun(t *testing.T, got, want cxSolver, tol float64, incs []int) {
	trsvCxRunN(t, got, want, tol, 45, incs)
}

// trsvCxRunN is trsvCxRun at order n.
func trsvCxRunN(t *testing.T, got, want cxSolver, tol float64, n int, incs []int) {
	r := rand.New(rand.NewPCG(9, 4))
	cv := func() complex128 { return complex(2*r.Float64()-1, 2*r.Float64()-1) }
	nan := cmplx.NaN()
	for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans} {
			for _, d := range []blas.Diag{blas.NonUnit, blas.Unit} {
				for _, k := range []int{n - 1, 2, 5, 17} {
					for _, incX := range incs {
						// The stored triangle: off-diagonal entries of
						// modulus below 1/(k+1), a diagonal near 2.
						s := l2store{upper: ul == blas.Upper, n: n, k: k, lda: k + 2, storage: eng.L2Band}
						packed := k == n-1 && incX < 0
						switch {
						case packed:
							s.storage, s.lda = eng.L2Packed, 0
						case k == n-1:
							s.storage, s.lda = eng.L2Dense, n+1
						}
						a := make([]complex128, s.len())
						for i := range a {
							a[i] = nan
						}
						for i := range n {
							lo, hi := max(0, i-k), i
							if s.upper {
								lo, hi = i, min(n-1, i+k)
							}
							for j := lo; j <= hi; j++ {
								v := cv() / complex(float64(k+1), 0)
								if i == j {
									v = nan
									if d == blas.NonUnit {
										v = complex(2+r.Float64(), r.Float64()-0.5)
									}
								}
								a[s.index(i, j)] = v
							}
						}
						x := make([]complex128, 1+(n-1)*max(incX, -incX))
						for i := range x {
							x[i] = cv()
						}
						desc := fmt.Sprintf("ul=%c tA=%c d=%c n=%d k=%d storage=%d incX=%d", ul, tA, d, n, k, s.storage, incX)
						solve := func(b cxSolver, x []complex128) {
							switch s.storage {
							case eng.L2Packed:
								b.Ztpsv(ul, tA, d, n, a, x, incX)
							case eng.L2Band:
								b.Ztbsv(ul, tA, d, n, k, a, s.lda, x, incX)
							default:
								b.Ztrsv(ul, tA, d, n, a, s.lda, x, incX)
							}
						}
						g, w := append([]complex128(nil), x...), append([]complex128(nil), x...)
						solve(got, g)
						solve(want, w)
						for i := range g {
							if cmplx.Abs(g[i]-w[i]) > tol*math.Max(1, cmplx.Abs(w[i])) {
								t.Errorf("%s: element %d = %v, want %v", desc, i, g[i], w[i])
								break
							}
						}
					}
				}
			}
		}
	}
}

// TestTrsvBlockedNonFinite: a zero on the diagonal (gonum: Inf or NaN from
// there on), Inf or NaN in A's stored triangle or in b, solved on the
// blocked kernels (sub-blocks of 4, two per launch) give NaN and Inf where
// gonum does, with the same signs, and close values elsewhere: real
// (Dtrsv, Dtbsv, which send every operand to the device) and complex
// (Ztrsv, whose zero diagonal goes to the device). The launch-per-block
// schedule (TestTrsvBlockedFlow has the flow schedule's).
func TestTrsvBlockedNonFinite(t *testing.T) {
	impl, e := privateImpl(t, nil)
	gpuKernels(e)
	e.L2SolveNB, e.L2SolveLaunch, e.L2SolveFlow = 4, 2, eng.SolveFlowOff
	defer func() { e.L2SolveNB, e.L2SolveLaunch, e.L2SolveFlow = 0, 0, eng.SolveFlowAuto }()
	trsvNonFiniteRun(t, impl, e)
}

// trsvNonFiniteRun is TestTrsvBlockedNonFinite's cases on impl, whose
// engine e has its blocked schedule set.
func trsvNonFiniteRun(t *testing.T, impl *Implementation, e *eng.Engine) {
	const n = 23
	inf := math.Inf(1)
	for _, c := range []struct {
		name string
		at   [2]int // the element of A set (row, column), or b's at[0] when at[1] < 0
		v    float64
	}{
		{"zero diagonal", [2]int{9, 9}, 0},
		{"zero first diagonal", [2]int{0, 0}, 0},
		{"Inf in A", [2]int{14, 6}, inf},
		{"NaN in A", [2]int{7, 2}, math.NaN()},
		{"Inf in b", [2]int{5, -1}, -inf},
		{"NaN in b", [2]int{17, -1}, math.NaN()},
	} {
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				r := rand.New(rand.NewPCG(2, 7))
				a := make([]float64, n*n)
				for i := range a {
					a[i] = r.Float64() - 0.5
				}
				for i := range n {
					a[i*n+i] = 2 + r.Float64()
				}
				b := make([]float64, n)
				for i := range b {
					b[i] = r.Float64() + 0.5
				}
				i, j := c.at[0], c.at[1]
				if ul == blas.Upper {
					i, j = j, i
				}
				if c.at[1] < 0 {
					b[c.at[0]] = c.v
				} else {
					a[i*n+j] = c.v
				}
				desc := fmt.Sprintf("%s ul=%c tA=%c", c.name, ul, tA)
				g, w := append([]float64(nil), b...), append([]float64(nil), b...)
				impl.Dtrsv(ul, tA, blas.NonUnit, n, a, n, g, 1)
				gonum.Implementation{}.Dtrsv(ul, tA, blas.NonUnit, n, a, n, w, 1)
				sameClass(t, "Dtrsv "+desc, g, w)
				// The same as a band of width 6.
				const k = 6
				ab := make([]float64, n*(k+1))
				for i := range n {
					for j := max(0, i-k); j <= min(n-1, i+k); j++ {
						if (ul == blas.Upper && j >= i) || (ul == blas.Lower && j <= i) {
							ab[i*(k+1)+j-i+k*boolInt(ul == blas.Lower)] = a[i*n+j]
						}
					}
				}
				g, w = append(g[:0], b...), append(w[:0], b...)
				impl.Dtbsv(ul, tA, blas.NonUnit, n, k, ab, k+1, g, 1)
				gonum.Implementation{}.Dtbsv(ul, tA, blas.NonUnit, n, k, ab, k+1, w, 1)
				sameClass(t, "Dtbsv "+desc, g, w)
				if c.name == "zero diagonal" && e.Prof.FP64 {
					za := make([]complex128, n*n)
					for i, v := range a {
						za[i] = complex(v, v/3)
					}
					zb := make([]complex128, n)
					for i, v := range b {
						zb[i] = complex(v, -v/2)
					}
					for _, zt := range []blas.Transpose{tA, blas.ConjTrans} {
						zg, zw := append([]complex128(nil), zb...), append([]complex128(nil), zb...)
						impl.Ztrsv(ul, zt, blas.NonUnit, n, za, n, zg, 1)
						gonum.Implementation{}.Ztrsv(ul, zt, blas.NonUnit, n, za, n, zw, 1)
						re := func(v []complex128, f func(complex128) float64) []float64 {
							out := make([]float64, len(v))
							for i, x := range v {
								out[i] = f(x)
							}
							return out
						}
						sameClass(t, fmt.Sprintf("Ztrsv %s ul=%c tA=%c (real part)", c.name, ul, zt), re(zg, func(z complex128) float64 { return real(z) }), re(zw, func(z complex128) float64 { return real(z) }))
						sameClass(t, fmt.Sprintf("Ztrsv %s ul=%c tA=%c (imaginary part)", c.name, ul, zt), re(zg, func(z complex128) float64 { return imag(z) }), re(zw, func(z complex128) float64 { return imag(z) }))
					}
				}
			}
		}
	}
}

// sameClass reports elements that are NaN in one of got and want only,
// infinite in one only or with other signs, or finite and not close.
func sameClass(t *testing.T, name string, got, want []float64) {
	t.Helper()
	for i, w := range want {
		g := got[i]
		switch {
		case math.IsNaN(w) || math.IsNaN(g):
			if math.IsNaN(w) != math.IsNaN(g) {
				t.Errorf("%s: element %d = %v, want %v", name, i, g, w)
				return
			}
		case math.IsInf(w, 0) || math.IsInf(g, 0):
			if g != w {
				t.Errorf("%s: element %d = %v, want %v", name, i, g, w)
				return
			}
		case math.Abs(g-w) > 1e-12*math.Max(1, math.Abs(w)):
			t.Errorf("%s: element %d = %v, want %v", name, i, g, w)
			return
		}
	}
}
