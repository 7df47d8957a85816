package clblas

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/blas"
)

// warmupOrder is the matrix order Warmup multiplies at: large enough to
// take the kernels that large products use, small enough to cost little
// once they are built.
const warmupOrder = 512

// Warmup builds, ahead of the first real call, the device programs that
// most calls use: GEMM in the four transpositions at a large size, GEMV,
// and the level 1 operations and reductions, for float32 and (where the
// device has it) float64. It does so by running each once on small
// device-resident data; programs come from the disk cache when an earlier
// process built them, so a warm cache makes Warmup quick. progress, if not
// nil, is called after each step with the steps done and the total.
//
// Routines and shapes Warmup does not cover are built on first use, as
// without it. A cancelled ctx stops Warmup between steps with ctx.Err().
// Without an OpenCL device there is nothing to build, and Warmup returns
// nil.
func (impl *Implementation) Warmup(ctx context.Context, progress func(done, total int)) error {
	if _, err := engineFor[float32](impl); errors.Is(err, ErrNoEngine) {
		return nil // no OpenCL device: nothing to build
	} else if err != nil {
		return err
	}
	var steps []func() error
	steps = append(steps, warmupSteps[float32](impl)...)
	if _, err := engineFor[float64](impl); err == nil {
		steps = append(steps, warmupSteps[float64](impl)...)
	} else if !errors.Is(err, ErrNoEngine) {
		return err
	}
	for i, step := range steps {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := step(); err != nil {
			return fmt.Errorf("clblas: Warmup: %w", err)
		}
		if progress != nil {
			progress(i+1, len(steps))
		}
	}
	return nil
}

// warmupSteps are the steps for precision T: the level 1 and 2 programs,
// then one GEMM per transposition.
func warmupSteps[T float32 | float64](impl *Implementation) []func() error {
	steps := []func() error{
		func() error { return warmupLevel12[T](impl) },
	}
	for _, tr := range [][2]blas.Transpose{{blas.NoTrans, blas.NoTrans}, {blas.Trans, blas.NoTrans}, {blas.NoTrans, blas.Trans}, {blas.Trans, blas.Trans}} {
		steps = append(steps, func() error { return warmupGemm[T](impl, tr[0], tr[1]) })
	}
	return steps
}

func warmupLevel12[T float32 | float64](impl *Implementation) error {
	const n = 64
	a, err := NewMatrix[T](impl, n, n)
	if err != nil {
		return err
	}
	defer a.Release()
	x, err := NewVector[T](impl, n)
	if err != nil {
		return err
	}
	defer x.Release()
	y, err := NewVector[T](impl, n)
	if err != nil {
		return err
	}
	defer y.Release()
	if _, err := Gemv(blas.NoTrans, 1, a, x, 0, y); err != nil {
		return err
	}
	if _, err := Axpy(1, x, y); err != nil {
		return err
	}
	d, err := Dot(x, y)
	if err != nil {
		return err
	}
	_, err = d.Value(context.Background())
	return err
}

func warmupGemm[T float32 | float64](impl *Implementation, tA, tB blas.Transpose) error {
	const n = warmupOrder
	var ms [3]*Matrix[T]
	for i := range ms {
		m, err := NewMatrix[T](impl, n, n)
		if err != nil {
			return err
		}
		defer m.Release()
		ms[i] = m
	}
	ev, err := Gemm(tA, tB, 1, ms[0], ms[1], 0, ms[2])
	if err != nil {
		return err
	}
	return ev.Wait()
}
