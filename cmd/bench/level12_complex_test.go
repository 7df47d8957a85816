package main

import (
	"testing"
	"time"

	clblas "github.com/gocompute/opencl/blas"
	"github.com/gocompute/opencl/platform/platformtest"
)

// TestLevel12ComplexSmoke runs every complex row of the level 1 and 2
// mode on small sizes with all columns (and the checks of the reductions),
// so that a broken row fails here rather than in the next GPU session.
func TestLevel12ComplexSmoke(t *testing.T) {
	platformtest.Device(t)
	impl, err := clblas.New(clblas.WithOffload(clblas.Always))
	if err != nil {
		platformtest.Unavailable(t, err.Error())
	}
	defer impl.Close()
	precs := []string{"c64", "c128"}
	if !impl.Runtime().Device().Profile().FP64 {
		precs = precs[:1]
	}
	b := &bencher{impl: impl, reps: 1, minTime: time.Millisecond}
	if err := level12Main(b, []string{"1", "2"}, precs, 1000, 24, nil, true, true, ""); err != nil {
		t.Fatal(err)
	}
}
