package clblas

// cxLevel1Limits holds, for each complex level 1 routine, the n below
// which its calls stay on the CPU at the gate, as level1Limits does for
// the real ones: one comparison before gonum's routine, which makes the
// checks.
type cxLevel1Limits struct {
	Zdotu, Zdotc, Dznrm2, Dzasum, Izamax, Zswap, Zcopy, Zaxpy, Zscal, Zdscal int
	Cdotu, Cdotc, Scnrm2, Scasum, Icamax, Cswap, Ccopy, Caxpy, Cscal, Csscal int
}

// cxLevel1PerElement is the workload per element of each complex level 1
// routine of complex128 and complex64 (the front ends' in
// level1complex128.go): flops, and real parts read or written.
var cxLevel1PerElement = map[string]struct{ flops, parts float64 }{
	"Zdotu": {8, 4}, "Zdotc": {8, 4}, "Dznrm2": {4, 2}, "Dzasum": {2, 2}, "Izamax": {2, 2},
	"Zswap": {0, 8}, "Zcopy": {0, 4}, "Zaxpy": {8, 6}, "Zscal": {6, 4}, "Zdscal": {2, 4},
}

// cxLimitsFor returns the complex level 1 limits of the gates g32
// (complex64) and g64 (complex128).
func cxLimitsFor(g32, g64 gate) cxLevel1Limits {
	lim := func(name string, g gate, size float64) int {
		pe := cxLevel1PerElement[name]
		return level1Limit(g, pe.flops, pe.parts*size)
	}
	both := func(name string) (int, int) { return lim(name, g64, 8), lim(name, g32, 4) }
	var l cxLevel1Limits
	l.Zdotu, l.Cdotu = both("Zdotu")
	l.Zdotc, l.Cdotc = both("Zdotc")
	l.Dznrm2, l.Scnrm2 = both("Dznrm2")
	l.Dzasum, l.Scasum = both("Dzasum")
	l.Izamax, l.Icamax = both("Izamax")
	l.Zswap, l.Cswap = both("Zswap")
	l.Zcopy, l.Ccopy = both("Zcopy")
	l.Zaxpy, l.Caxpy = both("Zaxpy")
	l.Zscal, l.Cscal = both("Zscal")
	l.Zdscal, l.Csscal = both("Zdscal")
	return l
}
