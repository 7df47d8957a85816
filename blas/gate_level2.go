package clblas

import (
	"math"
	"reflect"
	"strings"
)

// level2Limits holds, for each level 2 routine whose workload depends on
// n alone, the n below which its calls stay on the CPU at the gate: one
// integer comparison before gonum's code, as level 1 pays (level1Limits).
// Computing the workload in floating point and comparing it with the gate
// cost about as much as gonum's whole call at n = 1.
type level2Limits struct {
	Dtrmv, Dtrsv, Dtpmv, Dtpsv, Dsymv, Dspmv, Dsyr, Dspr, Dsyr2, Dspr2 int
	Strmv, Strsv, Stpmv, Stpsv, Ssymv, Sspmv, Ssyr, Sspr, Ssyr2, Sspr2 int
}

// level2Work is the workload at n of each routine of level2Limits (its
// name without the precision letter): flops and elements moved, no less
// than the routine's own description of a call of that order (the output
// counted as read whatever beta is).
var level2Work = map[string]func(n float64) (flops, elems float64){
	"trmv": func(n float64) (float64, float64) { return n * n, n*n + 2*n },
	"trsv": func(n float64) (float64, float64) { return n * n, n*n + 2*n },
	"tpmv": func(n float64) (float64, float64) { return n * n, n*(n+1)/2 + 2*n },
	"tpsv": func(n float64) (float64, float64) { return n * n, n*(n+1)/2 + 2*n },
	"symv": func(n float64) (float64, float64) { return 2 * n * n, n*n + 3*n },
	"spmv": func(n float64) (float64, float64) { return 2 * n * n, n*(n+1)/2 + 3*n },
	"syr":  func(n float64) (float64, float64) { return n * n, 2*n*n + n },
	"spr":  func(n float64) (float64, float64) { return n * n, n*(n+1) + n },
	"syr2": func(n float64) (float64, float64) { return 2 * n * n, 2*n*n + 2*n },
	"spr2": func(n float64) (float64, float64) { return 2 * n * n, n*(n+1) + 2*n },
}

// cxLevel2Limits is level2Limits for the complex level 2 routines of
// order n alone (complex64 and complex128).
type cxLevel2Limits struct {
	Ztrmv, Ztrsv, Ztpmv, Ztpsv, Zhemv, Zhpmv, Zher, Zhpr, Zher2, Zhpr2 int
	Ctrmv, Ctrsv, Ctpmv, Ctpsv, Chemv, Chpmv, Cher, Chpr, Cher2, Chpr2 int
}

// cxLevel2Work is level2Work for the routines of cxLevel2Limits: flops and
// real parts moved, as the complex front ends (level2complex128.go) count
// them.
var cxLevel2Work = map[string]func(n float64) (flops, elems float64){
	"trmv": func(n float64) (float64, float64) { return 4 * n * n, 2 * (n*(n+1)/2 + 2*n) },
	"trsv": func(n float64) (float64, float64) { return 4 * n * n, 2 * (n*(n+1)/2 + 2*n) },
	"tpmv": func(n float64) (float64, float64) { return 4 * n * n, 2 * (n*(n+1)/2 + 2*n) },
	"tpsv": func(n float64) (float64, float64) { return 4 * n * n, 2 * (n*(n+1)/2 + 2*n) },
	"hemv": func(n float64) (float64, float64) { return 8 * n * n, 2 * (n*(n+1)/2 + 3*n) },
	"hpmv": func(n float64) (float64, float64) { return 8 * n * n, 2 * (n*(n+1)/2 + 3*n) },
	"her":  func(n float64) (float64, float64) { return 4 * n * n, 2 * (n*(n+1) + n) },
	"hpr":  func(n float64) (float64, float64) { return 4 * n * n, 2 * (n*(n+1) + n) },
	"her2": func(n float64) (float64, float64) { return 8 * n * n, 2 * (n*(n+1) + 2*n) },
	"hpr2": func(n float64) (float64, float64) { return 8 * n * n, 2 * (n*(n+1) + 2*n) },
}

// level2LimitsFor returns the level 2 limits of the gates g32 and g64.
func level2LimitsFor(g32, g64 gate) level2Limits {
	var l level2Limits
	fillLevel2Limits(&l, level2Work, g32, g64)
	return l
}

// cxLevel2LimitsFor returns the complex level 2 limits of the gates g32
// (complex64) and g64 (complex128).
func cxLevel2LimitsFor(g32, g64 gate) cxLevel2Limits {
	var l cxLevel2Limits
	fillLevel2Limits(&l, cxLevel2Work, g32, g64)
	return l
}

// fillLevel2Limits sets each int field of the struct *l, named after a
// routine (its precision letter, then the name of its workload in work),
// to the routine's limit: of g64 for the D and Z routines, of g32 for the
// others.
func fillLevel2Limits(l any, work map[string]func(n float64) (flops, elems float64), g32, g64 gate) {
	v := reflect.ValueOf(l).Elem()
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		g, p := g32, prec32
		if name[0] == 'D' || name[0] == 'Z' {
			g, p = g64, prec64
		}
		w, ok := work[strings.ToLower(name[1:])]
		if !ok {
			panic("clblas: no level 2 workload for " + name)
		}
		v.Field(i).SetInt(int64(level2Limit(g, p, w)))
	}
}

// level2Limit is the least n ≥ 0 whose workload w is not below gate g
// (w grows with n), or math.MaxInt when none below 2⁴⁰ is.
func level2Limit(g gate, p precision, w func(n float64) (flops, elems float64)) int {
	below := func(n int) bool {
		f, e := w(float64(n))
		return f < g.flops && e*float64(p) < g.bytes
	}
	const top = 1 << 40
	if below(top) {
		return math.MaxInt
	}
	lo, hi := 0, top // the limit lies in [lo, hi]
	for lo < hi {
		mid := lo + (hi-lo)/2
		if below(mid) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
