package main

import (
	"maps"
	"testing"

	"github.com/gocompute/opencl/internal/gemm"
)

// TestMergeTrans: tuned in several transpose combinations, the entry takes
// the tile with the best geometric mean over them (not the one best in the
// first combination alone), the first combination's switches, and another
// combination's switches where its best variant of that tile differs; a
// tile that did not run in every combination is not chosen.
func TestMergeTrans(t *testing.T) {
	cfg := func(mwg, mix, pipe int) gemm.TuneConfig {
		d := map[string]int{"MWG": mwg, "NWG": 64, "KWG": 8}
		if mix == 1 {
			d["ISSUE_MIX"] = 1
		}
		if pipe == 1 {
			d["PIPE_FRAG"] = 1
		}
		return gemm.TuneConfig{Kernel: "gemm_mma", Defines: d}
	}
	o := func(c gemm.TuneConfig, gf float64) outcome {
		return outcome{cfg: c, res: gemm.TuneResult{GFLOPS: gf, OK: true}}
	}
	outs := map[string][]outcome{
		// NN: tile 256 best (50), tile 128 with ISSUE_MIX next (47).
		"NN": {o(cfg(256, 0, 0), 50), o(cfg(128, 1, 0), 47), o(cfg(128, 0, 1), 46), o(cfg(64, 0, 0), 45)},
		// TN: tile 256 poor (30); tile 128 best with PIPE_FRAG (48); no 64.
		"TN": {o(cfg(128, 0, 1), 48), o(cfg(128, 1, 0), 45), o(cfg(256, 0, 0), 30)},
		// TT: tile 128 best with ISSUE_MIX, as NN.
		"TT": {o(cfg(128, 1, 0), 46), o(cfg(256, 1, 0), 44)},
	}
	m, ok := mergeTrans([]string{"NN", "TN", "TT"}, outs)
	if !ok {
		t.Fatal("no tile chosen")
	}
	// 128: (47·48·46)^(1/3) ≈ 47.0 beats 256: (50·30·44)^(1/3) ≈ 40.4.
	if m.cfg.Defines["MWG"] != 128 || m.cfg.Defines["ISSUE_MIX"] != 1 || m.cfg.Defines["PIPE_FRAG"] != 0 {
		t.Errorf("entry %v, want MWG 128 with NN's ISSUE_MIX", m.cfg)
	}
	want := map[string]map[string]int{"TN": {"ISSUE_MIX": 0, "PIPE_FRAG": 1}}
	if len(m.trans) != len(want) || !maps.Equal(m.trans["TN"], want["TN"]) {
		t.Errorf("trans %v, want %v", m.trans, want)
	}
	if wantGF := map[string]float64{"NN": 47, "TN": 48, "TT": 46}; !maps.Equal(m.gflops, wantGF) {
		t.Errorf("gflops %v, want %v", m.gflops, wantGF)
	}
	// A tile missing from one combination cannot be chosen.
	if _, ok := mergeTrans([]string{"NN", "TN"}, map[string][]outcome{"NN": {o(cfg(64, 0, 0), 45)}, "TN": {o(cfg(128, 0, 0), 40)}}); ok {
		t.Errorf("chose a tile that did not run in every combination")
	}
}
