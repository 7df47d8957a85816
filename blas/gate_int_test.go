package clblas

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestIntGatesNeverWrong: on every model and policy, a call that an
// integer gate keeps on the CPU has a workload (intGateShape's) that the
// full gate keeps there too; under Auto calls of order 1 are kept, under
// Always none, under Never all.
func TestIntGatesNeverWrong(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for name, cm := range gateModels() {
		for _, p := range []Policy{Auto, Always, Never} {
			impl := &Implementation{policy: p}
			impl.setCost(cm)
			v := reflect.ValueOf(impl.ig)
			for i := range v.NumField() {
				routine := v.Type().Field(i).Name
				g := v.Field(i).Interface().(intGate)
				sh := intGateShape[strings.ToLower(routine[1:])]
				prec := prec32
				if routine[0] == 'D' {
					prec = prec64
				}
				if got := g.below(1, 3); got != (p != Always) {
					t.Errorf("%s, %v, %s: order 1 below the gate: %v", name, p, routine, got)
				}
				for range 2000 {
					ps, ss := rnd.IntN(1<<(1+rnd.IntN(40))), rnd.IntN(1<<(1+rnd.IntN(40)))
					if !g.below(ps, ss) {
						continue
					}
					w := work(prec, sh.f*float64(ps), sh.ep*float64(ps)+sh.es*float64(ss))
					if !impl.gated(w) {
						t.Fatalf("%s, %v, %s: p = %d, s = %d below %+v, but %+v is not gated", name, p, routine, ps, ss, g, w)
					}
				}
			}
		}
	}
}
