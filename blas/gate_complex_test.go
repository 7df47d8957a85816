package clblas

import (
	"reflect"
	"testing"
)

// TestComplexLevel1Limits: each complex level 1 limit is the least n whose
// workload (cxLevel1PerElement) passes the gate of its precision, on every
// model and policy, and every routine of both precisions has one.
func TestComplexLevel1Limits(t *testing.T) {
	twin := map[string]string{"Dznrm2": "Scnrm2", "Dzasum": "Scasum", "Izamax": "Icamax", "Zdscal": "Csscal"}
	for name, cm := range gateModels() {
		for _, p := range []Policy{Auto, Always, Never} {
			impl := &Implementation{policy: p}
			impl.setCost(cm)
			v := reflect.ValueOf(impl.cxLim)
			checked := 0
			for z, pe := range cxLevel1PerElement {
				c, ok := twin[z]
				if !ok {
					c = "C" + z[1:]
				}
				for _, r := range []struct {
					routine string
					prec    precision
				}{{z, prec64}, {c, prec32}} {
					f := v.FieldByName(r.routine)
					if !f.IsValid() {
						t.Fatalf("no limit for %s", r.routine)
					}
					checked++
					lim := int(f.Int())
					for _, n := range []int{lim - 1, lim} {
						if n < 0 || n == lim && lim == int(^uint(0)>>1) {
							continue
						}
						w := work(r.prec, pe.flops*fl(n), pe.parts*fl(n))
						if got := impl.gated(w); got != (n < lim) {
							t.Errorf("%s %v: %s n=%d: gated %v, limit %d", name, p, r.routine, n, got, lim)
						}
					}
				}
			}
			if checked != v.NumField() {
				t.Errorf("%d limits checked, %d fields", checked, v.NumField())
			}
		}
	}
}
