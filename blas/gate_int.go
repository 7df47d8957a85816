package clblas

import (
	"math"
	"reflect"
	"strings"
)

// An intGate is the gate of a routine of several dimensions as two integer
// comparisons, cheaper than forming its workload in floating point (about
// as costly as gonum's whole call at order 1): a call whose scale p (the
// product of dimensions its flops grow with) is below p and whose s (what
// its other elements grow with) is below s stays on the CPU. The byte
// budget is split between the two terms, so it is a little stricter than
// the gate and never looser: a call it lets through meets the full gate.
type intGate struct{ p, s int }

// below reports whether a call of scale p and s stays on the CPU.
func (g intGate) below(p, s int) bool { return p < g.p && s < g.s }

// intGates holds the intGate of each routine.
type intGates struct {
	Dgemv, Dger, Dgbmv, Dtbmv, Dtbsv, Dsbmv, Dgemm, Dsymm, Dsyrk, Dsyr2k, Dtrmm, Dtrsm intGate
	Sgemv, Sger, Sgbmv, Stbmv, Stbsv, Ssbmv, Sgemm, Ssymm, Ssyrk, Ssyr2k, Strmm, Strsm intGate
}

// intGateShape describes each routine's workload through its p and s
// (written at the gate in each routine): flops f·p, elements ep·p + es·s,
// no less than the routine's own workload.
var intGateShape = map[string]struct{ f, ep, es float64 }{
	"gemv": {2, 1, 2}, // p = m·n, s = m+n
	"ger":  {2, 2, 1}, // p = m·n, s = m+n
	"gbmv": {2, 1, 2}, // p = m·(kL+kU+1), s = m+n
	"tbmv": {2, 1, 2}, // p = n·(k+1), s = n
	"tbsv": {2, 1, 2}, // p = n·(k+1), s = n
	"sbmv": {4, 1, 3}, // p = n·(k+1), s = n
	"gemm": {2, 0, 1}, // p = m·n·k, s = k·(m+n) + 2·m·n
	"symm": {2, 0, 1}, // p = m·n·k, s = k² + 3·m·n
	"syrk": {1, 0, 1}, // p = n²·k, s = n·k + 2·n²
	// syr2k: p = n²·k, s = 2·n·k + 2·n²; trmm, trsm: p = m·n·k, s = k² + 2·m·n
	"syr2k": {2, 0, 1}, "trmm": {1, 0, 1}, "trsm": {1, 0, 1},
}

// intGatesFor returns the intGates of the gates g32 and g64.
func intGatesFor(g32, g64 gate) intGates {
	var l intGates
	v := reflect.ValueOf(&l).Elem()
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		g, size := g32, float64(prec32)
		if name[0] == 'D' {
			g, size = g64, float64(prec64)
		}
		sh, ok := intGateShape[strings.ToLower(name[1:])]
		if !ok {
			panic("clblas: no integer gate shape for " + name)
		}
		p := g.flops / sh.f
		s := g.bytes / (sh.es * size)
		if sh.ep > 0 {
			p = min(p, g.bytes/(2*sh.ep*size))
			s /= 2
		}
		v.Field(i).Set(reflect.ValueOf(intGate{intLimit(p), intLimit(s)}))
	}
	return l
}

// intLimit is the least integer l with x < l ⇔ x < lim for every integer
// x: ⌈lim⌉, or math.MaxInt when lim is out of int's range.
func intLimit(lim float64) int {
	if lim >= 1<<62 {
		return math.MaxInt
	}
	return int(math.Ceil(max(lim, 0)))
}

// cxSquareLimits holds, for each complex routine of several dimensions, the
// least order whose workload with every dimension equal to it (cxSquareWork)
// is not below the gate: a call whose dimensions are all below its limit
// stays on the CPU after two to four integer comparisons (the workloads
// grow with each dimension), cheaper than the products of its own
// workload; a call with a larger dimension meets its own workload's gate
// in the routine's gated body.
type cxSquareLimits struct {
	Zgemv, Zgbmv, Ztbmv, Ztbsv, Zhbmv, Zgerc, Zgeru                 int
	Zgemm, Zsymm, Zhemm, Zsyrk, Zherk, Zsyr2k, Zher2k, Ztrmm, Ztrsm int
	Cgemv, Cgbmv, Ctbmv, Ctbsv, Chbmv, Cgerc, Cgeru                 int
	Cgemm, Csymm, Chemm, Csyrk, Cherk, Csyr2k, Cher2k, Ctrmm, Ctrsm int
}

// cxSquareWork is the workload of each routine of cxSquareLimits (its name
// without the precision letter) with every dimension n (m, n, k, kL, kU):
// the gate's workload in the complex front ends (level2complex128.go,
// level3complex128.go), flops and real parts moved.
var cxSquareWork = map[string]func(n float64) (flops, elems float64){
	"gemv":  func(n float64) (float64, float64) { return 8 * n * n, 2 * (n*n + 4*n) },
	"gbmv":  func(n float64) (float64, float64) { return 8 * n * (2*n + 1), 2 * (n*(2*n+1) + 4*n) },
	"tbmv":  func(n float64) (float64, float64) { return 8 * n * (n + 1), 2 * (n*(n+1) + 2*n) },
	"tbsv":  func(n float64) (float64, float64) { return 8 * n * (n + 1), 2 * (n*(n+1) + 2*n) },
	"hbmv":  func(n float64) (float64, float64) { return 16 * n * (n + 1), 2 * (n*(n+1) + 3*n) },
	"gerc":  func(n float64) (float64, float64) { return 8 * n * n, 2 * (2*n*n + 2*n) },
	"geru":  func(n float64) (float64, float64) { return 8 * n * n, 2 * (2*n*n + 2*n) },
	"gemm":  func(n float64) (float64, float64) { return 8 * n * n * n, 8 * n * n },
	"symm":  func(n float64) (float64, float64) { return 8 * n * n * n, 8 * n * n },
	"hemm":  func(n float64) (float64, float64) { return 8 * n * n * n, 8 * n * n },
	"syrk":  func(n float64) (float64, float64) { return 8 * n * n * n, 8 * n * n },
	"herk":  func(n float64) (float64, float64) { return 8 * n * n * n, 8 * n * n },
	"syr2k": func(n float64) (float64, float64) { return 8 * n * n * n, 8 * n * n },
	"her2k": func(n float64) (float64, float64) { return 8 * n * n * n, 8 * n * n },
	"trmm":  func(n float64) (float64, float64) { return 4 * n * n * n, 2 * (n*n/2 + 2*n*n) },
	"trsm":  func(n float64) (float64, float64) { return 4 * n * n * n, 2 * (n*n/2 + 2*n*n) },
}

// cxSquareLimitsFor returns the square limits of the gates g32 (complex64)
// and g64 (complex128).
func cxSquareLimitsFor(g32, g64 gate) cxSquareLimits {
	var l cxSquareLimits
	fillLevel2Limits(&l, cxSquareWork, g32, g64)
	return l
}
