package main

import (
	"fmt"
	"strings"

	"github.com/gocompute/opencl/internal/engine"
)

// The stream ceilings of the level 1 mode: rows READ and WRITE time a
// kernel that only loads (asum's first pass: one add per element, a
// partial per work-group) and one that only stores (scal with alpha = 0),
// over vectors of the same length, in an engine of their own on the same
// device, alternating with the copy like every row. From them, each
// element-wise routine gets the rate it would have if its loads ran at
// READ's rate and its stores at WRITE's, one after the other
// (ceilingNotes): no kernel that must move those bytes is expected to pass
// it, so it bounds what 1.05× CLBlast can ask of the routine.

// ceilings holds the engine and benches of the READ and WRITE rows.
type ceilings struct {
	e   *engine.Engine
	b32 *engine.L1Bench[float32]
	b64 *engine.L1Bench[float64]
}

// newCeilings opens the engine of the READ and WRITE rows for vectors of
// n elements.
func newCeilings(b *bencher) (*ceilings, error) {
	e, err := engine.OpenEnv(b.impl.Runtime().Device())
	if err != nil {
		return nil, err
	}
	return &ceilings{e: e}, nil
}

// close releases the benches and the engine.
func (c *ceilings) close() {
	if c.b32 != nil {
		c.b32.Close()
	}
	if c.b64 != nil {
		c.b64.Close()
	}
	c.e.Close()
}

// ops are the READ and WRITE rows of precision T over n elements.
func ceilingOps[T float32 | float64](c *ceilings, n int) ([]l12op, error) {
	var run func(op string, batch int) error
	var bytes func(op string) float64
	if _, ok := any(T(0)).(float64); ok {
		if c.b64 == nil {
			bb, err := engine.NewL1Bench[float64](c.e, n, 0)
			if err != nil {
				return nil, err
			}
			c.b64 = bb
		}
		run, bytes = c.b64.Run, c.b64.Bytes
	} else {
		if c.b32 == nil {
			bb, err := engine.NewL1Bench[float32](c.e, n, 0)
			if err != nil {
				return nil, err
			}
			c.b32 = bb
		}
		run, bytes = c.b32.Run, c.b32.Bytes
	}
	p := prefix[T]()
	var ops []l12op
	for _, k := range []string{"read", "write"} {
		ops = append(ops, l12op{name: p + strings.ToUpper(k), level: 1, size: "", bytes: bytes(k),
			ours: func(batch int) error { return run(k, batch) }, free: func() {}})
	}
	return ops, nil
}

// ceilingNotes prints, for the element-wise routines among rows, their
// rate at the READ and WRITE rows' rates of the same precision, against
// ours and CLBlast's and 1.05× CLBlast's.
func ceilingNotes(rows []l12row) {
	rate := map[string]float64{}
	for _, r := range rows {
		rate[r.name] = r.ours
	}
	// loads and stores per element of each routine
	traffic := map[string][2]float64{"AXPY": {2, 1}, "COPY": {1, 1}, "SCAL": {1, 1}, "SWAP": {2, 2}, "ROT": {2, 2}}
	for _, r := range rows {
		p, op := r.name[:1], r.name[1:]
		t, ok := traffic[op]
		rd, wr := rate[p+"READ"], rate[p+"WRITE"]
		if !ok || rd == 0 || wr == 0 {
			continue
		}
		bound := (t[0] + t[1]) / (t[0]/rd + t[1]/wr)
		line := fmt.Sprintf("  %s at the stream ceilings (read %s, write %s GB/s): %s GB/s; ours %s (%.0f%%)",
			r.name, gf(rd), gf(wr), gf(bound), gf(r.ours), 100*r.ours/bound)
		if r.theirs > 0 {
			line += fmt.Sprintf(", CLBlast %s (%.0f%%), 1.05× CLBlast %s (%.0f%% of the ceiling)",
				gf(r.theirs), 100*r.theirs/bound, gf(1.05*r.theirs), 100*1.05*r.theirs/bound)
		}
		fmt.Println(line)
	}
}

// withCeilings appends the READ and WRITE rows of precision T to the
// level 1 ops (opening *c on first use), of the same size.
func withCeilings[T float32 | float64](b *bencher, c **ceilings, ops []l12op, n int) ([]l12op, error) {
	if *c == nil {
		cc, err := newCeilings(b)
		if err != nil {
			return nil, err
		}
		*c = cc
	}
	more, err := ceilingOps[T](*c, n)
	if err != nil {
		return nil, err
	}
	for i := range more {
		more[i].size = ops[0].size
	}
	return append(ops, more...), nil
}

// isCeiling reports whether row name is a READ or WRITE row.
func isCeiling(name string) bool {
	return strings.HasSuffix(name, "READ") || strings.HasSuffix(name, "WRITE")
}
