package cllapack

import (
	"fmt"

	"gonum.org/v1/gonum/blas"

	clblas "github.com/gocompute/opencl/blas"
)

// condDeviceMin is the least order at which a condition estimate with
// impl.condDevice set solves on the device; a variable so that tests can
// take that path at small orders.
var condDeviceMin = 1024

// condDeviceFail, when set (tests), is called before the factor's upload
// (step "upload") and before each solve on the device ("solve"); an error
// it returns fails that step as the device would.
var condDeviceFail func(step string) error

// triOnDevice holds a condition estimate's triangular factor on the
// device, uploaded once, and a vector there, so that each of the
// estimate's solves (about ten; each reads all of the factor) is one
// resident Trsv with the vector moved each way, instead of a pass over
// the factor on the host.
type triOnDevice struct {
	impl *Implementation
	op   string // the estimate's routine, for the log
	h    *hostMatrix
	d    *clblas.Matrix[float64]
	x    *clblas.Vector[float64]
	// failed is set once a solve has failed: the rest run on the host.
	failed bool
}

// triDevice returns the n×n matrix in a (row stride lda) on the device for
// the solves of a condition estimate named op, or nil where they stay on
// the host: impl.condDevice off, an order below condDeviceMin, or a
// failure to upload (logged once as op's, the estimate then solves on the
// host).
func (impl *Implementation) triDevice(op string, n int, a []float64, lda int) *triOnDevice {
	if !impl.condDevice || n < condDeviceMin {
		return nil
	}
	t := &triOnDevice{impl: impl, op: op, h: impl.hostMatrix(n, n, a, lda)}
	var err error
	if condDeviceFail != nil {
		err = condDeviceFail("upload")
	}
	if err == nil {
		t.d, err = t.h.upload()
	}
	if err == nil {
		t.x, err = clblas.NewVector[float64](impl.blas, n)
	}
	if err != nil {
		impl.fellBack(op, fmt.Errorf("cllapack: %s: the factor on the device: %w", op, err))
		t.release(op)
		return nil
	}
	return t
}

// solve solves op(T)·x = b in place on the device, T the ul triangle of
// the factor with diagonal d and b a copy of x, and reports whether it
// did: after a failure (logged once as the estimate's routine's) it puts b
// back into x, and reports false for this and every later solve.
func (t *triOnDevice) solve(ul blas.Uplo, tr blas.Transpose, d blas.Diag, x, b []float64) bool {
	if t == nil || t.failed {
		return false
	}
	if err := t.trsv(ul, tr, d, x); err != nil {
		t.failed = true
		t.impl.fellBack(t.op, fmt.Errorf("cllapack: %s: a solve on the device: %w", t.op, err))
		copy(x, b)
		return false
	}
	return true
}

// trsv is solve's device work.
func (t *triOnDevice) trsv(ul blas.Uplo, tr blas.Transpose, d blas.Diag, x []float64) error {
	if condDeviceFail != nil {
		if err := condDeviceFail("solve"); err != nil {
			return err
		}
	}
	ev, err := t.x.Write(x)
	if err == nil {
		ev, err = clblas.Trsv(ul, tr, d, t.d, t.x, ev)
	}
	if err == nil {
		err = ev.Wait()
	}
	if err == nil {
		err = t.x.Read(x)
	}
	return err
}

// release frees the device copies (t may be nil); a failure is logged as
// op's (the estimate's answer does not depend on it).
func (t *triOnDevice) release(op string) {
	if t == nil {
		return
	}
	var errs [2]error
	if t.x != nil {
		errs[0] = t.x.Release()
	}
	errs[1] = putScratch(t.impl, t.d) // kept for the next call where impl.reuse asks
	for _, err := range errs {
		if err != nil {
			t.impl.fellBack(op, fmt.Errorf("cllapack: %s: releasing the device factor: %w", op, err))
		}
	}
	t.h.done()
}
