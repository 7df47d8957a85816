package clblas

import "testing"

// complexOnDevice are the complex128 routines whose calls go to the device
// under Always (the others still run gonum's code under every policy).
var complexOnDevice = map[string]bool{
	"Zaxpy": true, "Zcopy": true, "Zdotc": true, "Zdotu": true, "Zdscal": true,
	"Zscal": true, "Zswap": true, "Dzasum": true, "Dznrm2": true, "Izamax": true,
	"Zgemv": true, "Zgbmv": true, "Zgerc": true, "Zgeru": true, "Zhemv": true,
	"Zhbmv": true, "Zhpmv": true, "Zher": true, "Zher2": true, "Zhpr": true,
	"Zhpr2": true, "Ztrmv": true, "Ztbmv": true, "Ztpmv": true, "Ztrsv": true,
	"Ztbsv": true, "Ztpsv": true,
}

// checkComplexStats checks where the calls of routine ran under policy p:
// with Never, or for a routine not on the device yet, all on the CPU;
// with Always, on the device, but for those kept on the CPU for NaN or
// Inf in their operands (NonFinite), and none failed there.
func checkComplexStats(t *testing.T, impl *Implementation, p Policy, routine string) {
	t.Helper()
	st := impl.Stats()[routine]
	switch {
	case p == Always && complexOnDevice[routine]:
		if st.Device == 0 || st.CPU != st.NonFinite || st.Failed != 0 {
			t.Errorf("Stats()[%q] = %+v, want every call on the device (or kept for NaN/Inf), none failed", routine, st)
		}
	default:
		if st.CPU == 0 || st.Device != 0 || st.Failed != 0 {
			t.Errorf("Stats()[%q] = %+v, want only calls kept on the CPU", routine, st)
		}
	}
}
