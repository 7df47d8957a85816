package clblas

import (
	"fmt"
	"testing"

	"github.com/gocompute/opencl/internal/gemm"
)

// TestGemmMMASplitZ runs gemm_mma with split-K across work-group
// dimension 2 (GRID_Z=1, Config.SplitZ) on the emulated tensor cores, in
// both precisions and all four transposes, with and without 16-byte
// copies (aligned and unaligned operands: the float fallback is the
// unsplit FMA kernel). The shapes give slices of whole K tiles, a ragged
// last slice and, for k = 13 in three slices of 8, an empty one that must
// write zeros.
func TestGemmMMASplitZ(t *testing.T) {
	e := testEngine(t)
	for _, v := range []struct {
		prec, kwg, z int
		cpVec, raw   bool
	}{{64, 8, 3, false, false}, {32, 8, 3, false, false}, {64, 8, 2, true, false}, {32, 16, 2, true, true}} {
		prec := v.prec
		cfg := gemm.MMADefaults(gemm.Base(prec, 8), prec)
		cfg.MMAMWG, cfg.MMANWG, cfg.MMAKWG, cfg.WM, cfg.WN = 32, 32, v.kwg, 16, 16
		cfg.MMAEmulate, cfg.NoOpt, cfg.CPVec, cfg.SplitRaw = true, true, v.cpVec, v.raw
		cfg.NoRedo = prec == 32
		cfg.SplitZ = v.z
		shapes := [][3]int{{37, 70, 13}, {66, 33, 45}}
		name := fmt.Sprintf("f%d/%s", prec, cfg.Name())
		t.Run(name, func(t *testing.T) {
			if err := gemm.Valid(e.GemmDev(), prec, false, false, cfg); err != nil {
				t.Fatalf("gemm.Valid: %v", err)
			}
			switch {
			case prec == 64 && !e.Prof.FP64:
				t.Skip("the device has no fp64")
			case prec == 64 && cfg.CPVec:
				runCPVec[float64](t, e, name, cfg, shapes, 1e-12)
			case prec == 64:
				runGemmConfigAll[float64](t, e, name, cfg, shapes, 1e-12)
			case cfg.CPVec:
				runCPVec[float32](t, e, name, cfg, shapes, 1e-5)
			default:
				runGemmConfigAll[float32](t, e, name, cfg, shapes, 1e-5)
			}
		})
	}
}
