package clblas

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// envDeviceComplete turns on the device-complete guard of a partial test
// run (scripts/oclgrind.sh sets it): with the shared implementation's
// offload policy Always, every call counted by Stats must have run on the
// device. checkEveryRoutineRan, which needs the whole suite, cannot say
// that of a run limited with -run.
const envDeviceComplete = "GOCL_TEST_DEVICE_COMPLETE"

// checkDeviceComplete reports, when GOCL_TEST_DEVICE_COMPLETE=1, the
// routines of the shared implementation that finished a call on the CPU
// (a failed device call) or were kept there, and a run in which no call
// reached the device at all. It prints the totals either way, for the CI
// log.
func checkDeviceComplete() error {
	if os.Getenv(envDeviceComplete) != "1" {
		return nil
	}
	if shared.impl == nil {
		return fmt.Errorf("%s=1: no test used the shared implementation", envDeviceComplete)
	}
	return deviceComplete(shared.impl.Stats(), os.Stdout)
}

// deviceComplete is checkDeviceComplete's verdict on a Stats map; it
// prints one summary line to w.
func deviceComplete(stats map[string]RoutineStats, w interface{ WriteString(string) (int, error) }) error {
	var device, cpu, failed, nonFinite int64
	var bad []string
	for name, s := range stats {
		device += s.Device
		cpu += s.CPU
		failed += s.Failed
		nonFinite += s.NonFinite
		if s.CPU > s.NonFinite || s.Failed > 0 {
			bad = append(bad, fmt.Sprintf("%s (%d on the CPU, %d failed on the device)", name, s.CPU-s.NonFinite, s.Failed))
		}
	}
	slices.Sort(bad)
	w.WriteString(fmt.Sprintf("device-complete guard: %d routines, %d device calls, %d kept on the CPU (%d of them for NaN or Inf, by design), %d fallbacks after a device failure\n",
		len(stats), device, cpu, nonFinite, failed))
	switch {
	case len(bad) > 0:
		return fmt.Errorf("calls that did not finish on the device: %s", strings.Join(bad, ", "))
	case device == 0:
		return fmt.Errorf("no call reached the device")
	}
	return nil
}

// TestDeviceCompleteNonFinite: a GEMM with a NaN in B, which the drop-in
// sends to gonum, counts as a CPU call in Stats and not against the guard;
// a finite one counts as a device call.
func TestDeviceCompleteNonFinite(t *testing.T) {
	impl, _ := privateImpl(t, nil)
	const n = 8
	a, b, c := make([]float32, n*n), make([]float32, n*n), make([]float32, n*n)
	for i := range a {
		a[i], b[i] = 1, 2
	}
	impl.Sgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, b, n, 0, c, n)
	b[5] = float32(math.NaN())
	impl.Sgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, b, n, 0, c, n)
	st := impl.Stats()["Sgemm"]
	if st.Device != 1 || st.CPU != 1 || st.NonFinite != 1 {
		t.Fatalf("Stats %+v, want one call on the device and one on the CPU for its NaN", st)
	}
	var log strings.Builder
	if err := deviceComplete(map[string]RoutineStats{"Sgemm": st}, &log); err != nil {
		t.Errorf("the guard refused the NaN call: %v", err)
	}
}

// TestDeviceCompleteGuard checks the guard's verdicts: it passes only when
// every counted call ran on the device and at least one did.
func TestDeviceCompleteGuard(t *testing.T) {
	cases := []struct {
		stats map[string]RoutineStats
		ok    bool
	}{
		{map[string]RoutineStats{"Dgemm": {Device: 3}, "Sdot": {Device: 1}}, true},
		{map[string]RoutineStats{"Dgemm": {Device: 3, Failed: 1}}, false},
		{map[string]RoutineStats{"Dgemm": {Device: 3}, "Dscal": {CPU: 1}}, false},
		{map[string]RoutineStats{"Dgemm": {Device: 3, CPU: 1, NonFinite: 1}}, true},
		{map[string]RoutineStats{"Dgemm": {Device: 3, CPU: 2, NonFinite: 1}}, false},
		{map[string]RoutineStats{}, false},
		{map[string]RoutineStats{"Dgemm": {}}, false},
	}
	for _, tc := range cases {
		var log strings.Builder
		err := deviceComplete(tc.stats, &log)
		if (err == nil) != tc.ok {
			t.Errorf("%v: err = %v, want ok = %v", tc.stats, err, tc.ok)
		}
		if !strings.HasPrefix(log.String(), "device-complete guard: ") {
			t.Errorf("%v: summary %q", tc.stats, log.String())
		}
	}
}
