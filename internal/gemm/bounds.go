package gemm

import (
	"fmt"
	"sort"
)

// Bounds on what a tuning entry may ask for. A define is compiled into the
// kernel, so an entry sets how long the first GEMM of a process compiles
// and how much memory the compiler takes: gemm_cpu unrolls its whole
// CPU_MB×CPU_NB register block, gemm_tiled its per-work-item tile. An
// entry outside these bounds is an error when the database is loaded
// (Parse); the kernels then get their derived defaults. The bounds
// hold every entry cmd/tune can produce with room to spare.

// defineBounds lists, per kernel, the defines an entry may set and their
// inclusive ranges.
var defineBounds = map[string]map[string][2]int{
	KernelCPU: {
		"CPU_VEC": {1, 16}, "CPU_MB": {1, 64}, "CPU_NB": {1, 64}, "CPU_LOCAL": {1, 1024},
	},
	KernelTiled: {
		"MWG": {1, 512}, "NWG": {1, 512}, "KWG": {1, 128}, "MDIMC": {1, 64}, "NDIMC": {1, 64},
		"VWM": {1, 16}, "VWN": {1, 16}, "VWA": {1, 16}, "VWB": {1, 16},
		"PADA": {0, 16}, "PADB": {0, 16}, "DOUBLE_BUFFER": {0, 1},
	},
	KernelDirect: {
		"DM": {1, 16}, "DN": {1, 16}, "DMDIMC": {1, 64}, "DNDIMC": {1, 64}, "SPLIT_RAW": {0, 1},
	},
	KernelMMA: {
		"MWG": {16, 512}, "NWG": {16, 512}, "KWG": {4, 64}, "WM": {8, 256}, "WN": {8, 256},
		"STAGES": {1, 4}, "MMA_K": {0, 32}, "SPLIT_RAW": {0, 1}, "CP_VEC": {0, 1},
		"ISSUE_MIX": {0, 1}, "KM_SWZ": {0, 1}, "PIPE_FRAG": {0, 1}, "WARPS_K": {0, 8},
	},
}

const (
	// maxCPUBlock bounds CPU_MB·CPU_NB, gemm_cpu's register block.
	maxCPUBlock = 512
	// maxItemTile bounds gemm_tiled's (MWG/MDIMC)·(NWG/NDIMC), the
	// elements of C each work-item keeps.
	maxItemTile = 256
	// maxGroup bounds a work-group (MDIMC·NDIMC, DMDIMC·DNDIMC).
	maxGroup = 1024
)

// checkEntryBounds reports the first define of e outside its bounds, or
// an unknown kernel or define.
func checkEntryBounds(e Entry) error {
	bounds, ok := defineBounds[e.Kernel]
	if !ok {
		return fmt.Errorf("kernel %q (want gemm_cpu, gemm_tiled, gemm_direct or gemm_mma)", e.Kernel)
	}
	names := make([]string, 0, len(e.Defines))
	for name := range e.Defines {
		names = append(names, name)
	}
	sort.Strings(names) // the same entry reports the same define every time
	for _, name := range names {
		b, ok := bounds[name]
		if !ok {
			return fmt.Errorf("%s entry: unknown define %s", e.Kernel, name)
		}
		if v := e.Defines[name]; v < b[0] || v > b[1] {
			return fmt.Errorf("%s entry: %s = %d outside [%d, %d]", e.Kernel, name, v, b[0], b[1])
		}
	}
	d := e.Defines
	prod := func(a, b string, limit int, what string) error {
		if x, y := d[a], d[b]; x*y > limit {
			return fmt.Errorf("%s entry: %s·%s = %d exceeds %d (%s)", e.Kernel, a, b, x*y, limit, what)
		}
		return nil
	}
	switch e.Kernel {
	case KernelCPU:
		return prod("CPU_MB", "CPU_NB", maxCPUBlock, "the register block")
	case KernelDirect:
		return prod("DMDIMC", "DNDIMC", maxGroup, "the work-group")
	case KernelTiled:
		if err := prod("MDIMC", "NDIMC", maxGroup, "the work-group"); err != nil {
			return err
		}
		if d["MDIMC"] > 0 && d["NDIMC"] > 0 {
			if t := (d["MWG"] / d["MDIMC"]) * (d["NWG"] / d["NDIMC"]); t > maxItemTile {
				return fmt.Errorf("%s entry: (MWG/MDIMC)·(NWG/NDIMC) = %d exceeds %d (the work-item's tile)", e.Kernel, t, maxItemTile)
			}
		}
	}
	return nil
}
