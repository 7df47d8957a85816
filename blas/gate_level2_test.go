package clblas

import (
	"math"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestLevel2Limits: a level 2 call of order n = limit − 1 stays on the CPU
// at the gate (not counted), one of n = limit with β ≠ 0 is weighed
// (counted): the limits agree with the workloads the routines describe.
func TestLevel2Limits(t *testing.T) {
	impl, err := New(WithOffload(Auto), withDevices(refDevice64{new(atomic.Int64)}, refDevice32{new(atomic.Int64)}, gpuLikeModel()))
	if err != nil {
		t.Fatal(err)
	}
	defer impl.Close()
	const up, nt, nu = blas.Upper, blas.NoTrans, blas.NonUnit
	type ops struct {
		a, x, y       []float64
		a32, x32, y32 []float32
	}
	calls := map[string]func(n int, o ops){
		"Dtrmv": func(n int, o ops) { impl.Dtrmv(up, nt, nu, n, o.a, n, o.x, 1) },
		"Dtrsv": func(n int, o ops) { impl.Dtrsv(up, nt, nu, n, o.a, n, o.x, 1) },
		"Dtpmv": func(n int, o ops) { impl.Dtpmv(up, nt, nu, n, o.a, o.x, 1) },
		"Dtpsv": func(n int, o ops) { impl.Dtpsv(up, nt, nu, n, o.a, o.x, 1) },
		"Dsymv": func(n int, o ops) { impl.Dsymv(up, n, 1, o.a, n, o.x, 1, 1, o.y, 1) },
		"Dspmv": func(n int, o ops) { impl.Dspmv(up, n, 1, o.a, o.x, 1, 1, o.y, 1) },
		"Dsyr":  func(n int, o ops) { impl.Dsyr(up, n, 1, o.x, 1, o.a, n) },
		"Dspr":  func(n int, o ops) { impl.Dspr(up, n, 1, o.x, 1, o.a) },
		"Dsyr2": func(n int, o ops) { impl.Dsyr2(up, n, 1, o.x, 1, o.y, 1, o.a, n) },
		"Dspr2": func(n int, o ops) { impl.Dspr2(up, n, 1, o.x, 1, o.y, 1, o.a) },
		"Strmv": func(n int, o ops) { impl.Strmv(up, nt, nu, n, o.a32, n, o.x32, 1) },
		"Strsv": func(n int, o ops) { impl.Strsv(up, nt, nu, n, o.a32, n, o.x32, 1) },
		"Stpmv": func(n int, o ops) { impl.Stpmv(up, nt, nu, n, o.a32, o.x32, 1) },
		"Stpsv": func(n int, o ops) { impl.Stpsv(up, nt, nu, n, o.a32, o.x32, 1) },
		"Ssymv": func(n int, o ops) { impl.Ssymv(up, n, 1, o.a32, n, o.x32, 1, 1, o.y32, 1) },
		"Sspmv": func(n int, o ops) { impl.Sspmv(up, n, 1, o.a32, o.x32, 1, 1, o.y32, 1) },
		"Ssyr":  func(n int, o ops) { impl.Ssyr(up, n, 1, o.x32, 1, o.a32, n) },
		"Sspr":  func(n int, o ops) { impl.Sspr(up, n, 1, o.x32, 1, o.a32) },
		"Ssyr2": func(n int, o ops) { impl.Ssyr2(up, n, 1, o.x32, 1, o.y32, 1, o.a32, n) },
		"Sspr2": func(n int, o ops) { impl.Sspr2(up, n, 1, o.x32, 1, o.y32, 1, o.a32) },
	}
	lims := reflect.ValueOf(impl.lim2)
	if lims.NumField() != len(calls) {
		t.Fatalf("%d level 2 limits, %d routines tested", lims.NumField(), len(calls))
	}
	for i := range lims.NumField() {
		name := lims.Type().Field(i).Name
		call, ok := calls[name]
		if !ok {
			t.Fatalf("no test call for %s", name)
		}
		lim := int(lims.Field(i).Int())
		if lim < 2 || lim > 1<<12 {
			t.Fatalf("%s: limit %d on the GPU-like model", name, lim)
		}
		var o ops
		o.a, o.x, o.y = make([]float64, lim*lim), make([]float64, lim), make([]float64, lim)
		o.a32, o.x32, o.y32 = make([]float32, lim*lim), make([]float32, lim), make([]float32, lim)
		for j := range lim {
			o.a[j*lim+j], o.a32[j*lim+j] = 1, 1 // a unit diagonal: the solves stay finite
		}
		call(lim-1, o)
		if st, ok := impl.Stats()[name]; ok {
			t.Errorf("%s: n = %d (limit − 1) was counted: %+v", name, lim-1, st)
		}
		call(lim, o)
		if st := impl.Stats()[name]; st.Device+st.CPU != 1 {
			t.Errorf("%s: n = %d (the limit) counted %+v, want one call", name, lim, st)
		}
	}
}

// TestCxLevel2Limits: each complex level 2 limit (cxLim2), and each square
// limit of the complex routines of several dimensions (cxSq), is the least
// order whose workload (cxLevel2Work, cxSquareWork) meets the gate in whole
// numbers (gatedN), as the front ends compared it before they had limits,
// on every model and policy.
func TestCxLevel2Limits(t *testing.T) {
	for model, cm := range gateModels() {
		for _, pol := range []Policy{Auto, Always, Never} {
			impl := &Implementation{policy: pol}
			impl.setCost(cm)
			for _, set := range []struct {
				lims any
				work map[string]func(n float64) (flops, elems float64)
			}{{impl.cxLim2, cxLevel2Work}, {impl.cxSq, cxSquareWork}} {
				lims := reflect.ValueOf(set.lims)
				for i := range lims.NumField() {
					name := lims.Type().Field(i).Name
					p := prec32
					if name[0] == 'Z' {
						p = prec64
					}
					w := set.work[strings.ToLower(name[1:])]
					lim := int(lims.Field(i).Int())
					for _, n := range []int{lim - 1, lim} {
						if n < 0 || lim == math.MaxInt {
							continue
						}
						f, e := w(float64(n))
						if got := impl.gatedN(p, int(f), int(e)); got != (n < lim) {
							t.Errorf("%s %v: %s n=%d: gated %v, limit %d", model, pol, name, n, got, lim)
						}
					}
				}
			}
		}
	}
}
