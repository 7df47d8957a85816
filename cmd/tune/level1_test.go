package main

import (
	"testing"

	"github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/platform"
)

// TestLevel1Entry: a measured shape becomes an entry with its groups per
// compute unit, the rates rounded and the copy's rate; the medians and
// the score follow the rates.
func TestLevel1Entry(t *testing.T) {
	tu := &l1Tuner{cfg: l1Config{ops: []string{"axpy", "dot"}, n: 1 << 20, runs: 3}, prec: 64,
		e: &engine.Engine{Prof: platform.Profile{ComputeUnits: 4}}, copyRate: map[string]float64{"axpy": 100, "dot": 50}}
	rs := []l1Result{
		{sh: engine.L1Shape{Local: 128, Vec: 2, Unroll: 4, Groups: 32, EwGroups: 8, Block: true}, rates: map[string]float64{"axpy": 90, "dot": 10}},
		{rates: map[string]float64{"axpy": 50, "dot": 40}},
		{rates: map[string]float64{"axpy": 70, "dot": 25}},
	}
	m := tu.median(rs)
	if m.rates["axpy"] != 70 || m.rates["dot"] != 25 || m.sh != rs[0].sh {
		t.Fatalf("median = %+v", m)
	}
	if want := 0.5916; m.score < want-1e-3 || m.score > want+1e-3 { // √(0.7·0.5)
		t.Errorf("score = %v, want %v", m.score, want)
	}
	e := tu.entry(m)
	if e.Precision != 64 || e.Local != 128 || e.Vec != 2 || e.Unroll != 4 || e.Groups != 8 || e.EwGroups != 2 || !e.Block || e.Cover {
		t.Errorf("entry = %+v", e)
	}
	if e.GBps["axpy"] != 70 || e.GBps["roofline"] != 100 {
		t.Errorf("entry rates = %v", e.GBps)
	}
	if err := e.Check(); err != nil {
		t.Error(err)
	}
	m.sh.Cover, m.sh.EwGroups = true, 0
	if e := tu.entry(m); !e.Cover || e.EwGroups != 0 || e.Check() != nil {
		t.Errorf("covering entry = %+v", e)
	}
}
