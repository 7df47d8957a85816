package engine

import (
	"fmt"
	"sync/atomic"
)

// l1Shapes holds an engine's level 1 shapes, float32's and float64's:
// chosen once (L1ShapeFor) at the first call that needs one, or set by the
// tuner (SetL1Shape).
type l1Shapes struct{ p [2]atomic.Pointer[L1Shape] }

func l1Index(prec int) int {
	if prec == 64 {
		return 1
	}
	return 0
}

// L1Shape is the level 1 shape of e's device in precision prec (32 or
// 64): the one SetL1Shape set, else L1ShapeFor's.
func (e *Engine) L1Shape(prec int) L1Shape {
	p := &e.l1.p[l1Index(prec)]
	if s := p.Load(); s != nil {
		return *s
	}
	s := L1ShapeFor(e.Prof, prec)
	p.CompareAndSwap(nil, &s)
	return *p.Load()
}

// SetL1Shape makes s the level 1 shape of precision prec (32 or 64) for
// the calls that start from now on, without a tuning database entry (the
// tuner tries shapes so); s must be valid on the device. The calls in
// flight keep the shape they started with.
func (e *Engine) SetL1Shape(prec int, s L1Shape) error {
	if prec != 32 && prec != 64 {
		return fmt.Errorf("clblas: level 1 shape: precision %d (want 32 or 64)", prec)
	}
	if err := s.Valid(e.Prof); err != nil {
		return fmt.Errorf("clblas: %w", err)
	}
	e.l1.p[l1Index(prec)].Store(&s)
	return nil
}
