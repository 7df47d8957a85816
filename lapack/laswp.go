package cllapack

import (
	"fmt"

	"github.com/gocompute/opencl/cl"

	clblas "github.com/gocompute/opencl/blas"
)

// precIndex is 0 for float32 and 1 for float64: the index of T's laswp
// kernel.
func precIndex[T float32 | float64]() int {
	var z T
	if _, ok := any(z).(float64); ok {
		return 1
	}
	return 0
}

// pivots holds an LU factorization's pivots on the device, for laswp.
type pivots struct {
	host []int32 // each panel's part is written once and then left alone
	dev  *cl.Array[int32]
}

func (impl *Implementation) newPivots(n int) (*pivots, error) {
	dev, err := cl.NewArray[int32](impl.blas.Runtime().Context(), cl.MemReadWrite, n)
	if err != nil {
		return nil, fmt.Errorf("cllapack: pivots: %w", err)
	}
	return &pivots{host: make([]int32, n), dev: dev}, nil
}

func (p *pivots) release() error { return p.dev.Release() }

// upload enqueues the copy of ipiv[k:k+kb] to the device.
func (p *pivots) upload(q *cl.Queue, ipiv []int, k, kb int) error {
	for i := k; i < k+kb; i++ {
		p.host[i] = int32(ipiv[i])
	}
	ev, err := p.dev.Write(q, k, p.host[k:k+kb])
	if err != nil {
		return fmt.Errorf("cllapack: pivots: %w", err)
	}
	return ev.Release()
}

// laswpWG and laswpCols are laswp's work-group size and the columns each
// group permutes, and laswpMax the most interchanges a launch applies
// (LASWP_WG, LASWP_COLS, LASWP_MAX).
const (
	laswpWG   = 256
	laswpCols = 16
	laswpMax  = 128
)

// laswpRowCols is the columns each laswp_rows work-item moves
// (LASWP_RC).
const laswpRowCols = 64

// laswpDevice enqueues the interchanges of rows i and ipiv[i],
// i = k, …, k+kb−1 (uploaded to p), over the cols columns of d from c0, on
// the resident operations' queue, so that it runs in order with them: in
// one laswp launch per laswpMax interchanges (a loop around the kernel's
// barriers, inside it, was miscompiled by PoCL 3.1: the kernel wrote
// nothing), or with impl.laswpRows in one laswp_rows launch.
func laswpDevice[T float32 | float64](impl *Implementation, d *clblas.Matrix[T], p *pivots, c0, cols, k, kb int) error {
	if cols == 0 || kb == 0 {
		return nil
	}
	ev, err := laswpOn(impl, d, p, c0, cols, k, kb, nil)
	if err != nil {
		return err
	}
	return ev.Release()
}

// laswpOn is laswpDevice after the events of wait, returning the event of
// its last launch (cols and kb positive), which the caller releases.
func laswpOn[T float32 | float64](impl *Implementation, d *clblas.Matrix[T], p *pivots, c0, cols, k, kb int, wait []*cl.Event) (*cl.Event, error) {
	buf, off, err := d.Buffer()
	if err != nil {
		return nil, err
	}
	if impl.laswpRows {
		items := (cols + laswpRowCols - 1) / laswpRowCols
		ev, err := launchOn[T](impl, nil, wait, "laswp_rows", []int{items}, []int{1},
			buf, int64(off+c0), int32(d.Stride()), int32(cols), int32(k), int32(k+kb), p.dev)
		if err != nil {
			return nil, fmt.Errorf("cllapack: laswp: %w", err)
		}
		return ev, nil
	}
	groups := (cols + laswpCols - 1) / laswpCols
	var last *cl.Event
	// At most laswpMax interchanges a launch, in order.
	for k1 := k; k1 < k+kb; k1 += laswpMax {
		k2 := min(k+kb, k1+laswpMax)
		if last != nil {
			last.Release() // the queue keeps the launches in order
		}
		last, err = launchOn[T](impl, nil, wait, "laswp", []int{groups * laswpWG}, []int{laswpWG},
			buf, int64(off+c0), int32(d.Stride()), int32(cols), int32(k1), int32(k2), p.dev)
		if err != nil {
			return nil, fmt.Errorf("cllapack: laswp: %w", err)
		}
		wait = nil
	}
	return last, nil
}
