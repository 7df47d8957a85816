package main

import (
	"path/filepath"
	"testing"
	"time"

	clblas "github.com/gocompute/opencl/blas"
	"github.com/gocompute/opencl/internal/clblast"
	"github.com/gocompute/opencl/platform/platformtest"
)

// TestMeasureSmoke runs the benchmark's measurement on a tiny shape in
// both precisions and all columns, so a broken bench fails CI rather than
// the next GPU session.
func TestMeasureSmoke(t *testing.T) {
	b := testBencher(t)
	s := shape{33, 17, 9}
	var rows []row
	for _, r := range []row{measure[float32](b, "NT", s, true, true), measure[float64](b, "TN", s, true, true)} {
		if r.resident <= 0 || r.slices <= 0 || r.gn <= 0 {
			t.Errorf("a column was not measured: %+v", r)
		}
		if clblast.Available && r.clblast <= 0 {
			t.Errorf("CLBlast is linked but was not measured: %+v", r)
		}
		r.trans, r.shape = "NN", shape{33, 33, 33}
		rows = append(rows, r)
	}
	rows[0].prec, rows[1].prec = 32, 64
	if err := chart(rows, filepath.Join(t.TempDir(), "c.png"), "test"); err != nil {
		t.Fatal(err)
	}
}

// TestSplitWithoutGonum: -split with -gonum-max 0 reports the split and
// times no gonum (it once ran gonum on a 0×0 problem and panicked), with
// plain Go slices and with -pinned.
func TestSplitWithoutGonum(t *testing.T) {
	impl := testBencher(t).impl
	for _, pinned := range []bool{false, true} {
		b := &bencher{impl: impl, reps: 1, minTime: time.Millisecond, split: 1, gonumRef: map[string]float64{}, pinned: pinned}
		r := measure[float64](b, "NN", shape{40, 30, 20}, true, false)
		if r.split == "" || r.resident <= 0 || r.slices <= 0 {
			t.Errorf("pinned %v: no split report: %+v", pinned, r)
		}
	}
}

// TestXferReport runs the -xfer measurements on small blocks.
func TestXferReport(t *testing.T) {
	platformtest.Device(t)
	impl, err := clblas.New()
	if err != nil {
		platformtest.Unavailable(t, err.Error())
	}
	defer impl.Close()
	if err := xferReport(impl.Runtime(), 1); err != nil {
		t.Fatal(err)
	}
}

// TestDuplexReport runs the -duplex measurements on small blocks, alone
// and after a GEMM benchmark in the same process (-duplex-after's order).
func TestDuplexReport(t *testing.T) {
	platformtest.Device(t)
	impl, err := clblas.New()
	if err != nil {
		platformtest.Unavailable(t, err.Error())
	}
	defer impl.Close()
	if err := duplexReport(impl.Runtime(), 1); err != nil {
		t.Fatal(err)
	}
	b := &bencher{impl: impl, reps: 1, gonumRef: map[string]float64{}, pinned: true, split: 1}
	measure[float64](b, "NN", shape{64, 64, 64}, true, false)
	if err := duplexReport(impl.Runtime(), 1); err != nil {
		t.Fatal(err)
	}
}

// testBencher is a bencher of one quick repetition on an Implementation
// with the device forced, closed when the test ends; it skips the test
// where no device is found (or fails it, where one is required).
func testBencher(t *testing.T) *bencher {
	t.Helper()
	platformtest.Device(t)
	impl, err := clblas.New(clblas.WithOffload(clblas.Always))
	if err != nil {
		platformtest.Unavailable(t, err.Error())
	}
	t.Cleanup(func() { impl.Close() })
	return &bencher{impl: impl, reps: 1, minTime: time.Millisecond}
}
