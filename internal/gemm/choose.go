package gemm

import (
	"fmt"
	"strings"
)

// Choose chooses the GEMM kernel, its parameters and its route for
// device p, precision prec (32 or 64), an m×n×k shape and a tensor-core
// mode. It is the one place where that choice is made.
func Choose(db *DB, p Device, prec, m, n, k int, mode Tensor) Config {
	cfg := Derived(p, prec, m, n)
	if t, ok := Tuned(db, p, prec, m, n, cfg); ok {
		cfg = t
	}
	if t, ok := MMA(db, p, prec, m, n, mode, cfg); ok {
		cfg = t
	}
	return SkinnyRoute(p, prec, cfg, m, n, k)
}

// Base returns a configuration with every field of every kernel set to
// gemm.cl's and gemm_mma.cl's documented defaults for precision prec, the
// gemm_cpu vector width cpuVec, and no kernel chosen. gemm_cpu's blocks
// are six rows (TT: columns) of two vectors: twelve accumulators, within
// the 16 vector registers of AVX2 and SSE (BENCHMARKS.md, "gemm_cpu's
// loop in registers").
func Base(prec, cpuVec int) Config {
	vw, kwg := 4, 16
	if prec == 64 {
		vw, kwg = 2, 8
	}
	cfg := Config{
		MWG: 128, NWG: 128, KWG: kwg, MDIMC: 16, NDIMC: 16,
		VWM: vw, VWN: vw, VWA: vw, VWB: vw, PADA: vw, PADB: vw,
		DoubleBuffer: true,
		DM:           4, DN: 4, DMDIMC: 16, DNDIMC: 16,
		CPUVec: cpuVec, CPULocal: 8,
	}
	cfg.CPUBlock[0][0] = [2]int{6, 2 * cpuVec}
	cfg.CPUBlock[1][0] = [2]int{6, 2 * cpuVec}
	cfg.CPUBlock[1][1] = [2]int{2 * cpuVec, 6}
	cfg.CPUBlock[0][1] = [2]int{4, 4}
	return cfg
}

// tile is a gemm_tiled work-group tile: MWG×NWG of C on MDIMC×NDIMC
// Work-items.
type tile struct{ MWG, NWG, MDIMC, NDIMC int }

// Derived is the choice for a device the database does not know,
// derived from its queried limits (gemm.cl's header and the "selection"
// text of gemm_tuning.json):
//
//   - CPU devices get gemm_cpu, with CPU_VEC the device's preferred
//     (native) vector width of the precision; gemm_tiled gets small tiles
//     there, used only when a test forces that kernel.
//   - Other devices get gemm_tiled, with the largest of the tiles
//     128×128/16×16, 64×64/16×16, 32×32/8×8 whose work-group count fills
//     the device (FillsDevice; else the smallest); tiles whose work-group
//     does not fit the device's maximum (below 256 work-items: 64×64/8×8
//     and 32×32/8×8) or whose local memory does not fit (single-buffered
//     as a second try) are left out; with none left, gemm_direct, its
//     work-group shrunk to fit.
func Derived(p Device, prec, m, n int) Config {
	cpuVec := 16
	pref := p.PreferredVectorFloat
	if prec == 64 {
		cpuVec, pref = 8, p.PreferredVectorDouble
	}
	if p.IsCPU() && (pref == 1 || pref == 2 || pref == 4 || pref == 8 || pref == 16) {
		cpuVec = pref
	}
	cfg := Base(prec, cpuVec)
	maxWG := p.MaxWorkGroupSize
	if maxWG <= 0 {
		maxWG = 256
	}
	for cfg.DMDIMC*cfg.DNDIMC > maxWG && cfg.DMDIMC > 1 {
		if cfg.DNDIMC > cfg.DMDIMC {
			cfg.DNDIMC /= 2
		} else {
			cfg.DMDIMC /= 2
		}
	}
	if p.IsCPU() {
		cfg.MWG, cfg.NWG, cfg.MDIMC, cfg.NDIMC, cfg.KWG = 32, 32, 8, 8, 8
		cfg.Kernel = KernelCPU
		return cfg
	}
	tiles := []tile{{128, 128, 16, 16}, {64, 64, 16, 16}, {32, 32, 8, 8}}
	if maxWG < 256 {
		tiles = []tile{{64, 64, 8, 8}, {32, 32, 8, 8}}
	}
	var fit []Config
	for _, t := range tiles {
		c := cfg
		c.Kernel = KernelTiled
		c.MWG, c.NWG, c.MDIMC, c.NDIMC = t.MWG, t.NWG, t.MDIMC, t.NDIMC
		if c.MDIMC*c.NDIMC > maxWG {
			continue
		}
		if lm := p.LocalMemBytes; lm > 0 && c.LocalBytes(prec) > lm {
			c.DoubleBuffer = false
			if c.LocalBytes(prec) > lm {
				continue
			}
		}
		fit = append(fit, c)
	}
	if len(fit) == 0 {
		cfg.Kernel = KernelDirect
		return cfg
	}
	return PickTile(fit, m, n, p.ComputeUnits)
}

// PickTile applies the database's GPU rule to candidate gemm_tiled
// configurations: the largest tile whose work-group count
// ceil(m/MWG)·ceil(n/NWG) fills the device (FillsDevice), else the
// smallest tile.
func PickTile(cands []Config, m, n, cus int) Config {
	best, smallest := -1, -1
	for i, c := range cands {
		t := c.MWG * c.NWG
		if smallest < 0 || t < cands[smallest].MWG*cands[smallest].NWG {
			smallest = i
		}
		if FillsDevice(ceilDiv(m, c.MWG)*ceilDiv(n, c.NWG), cus) &&
			(best < 0 || t > cands[best].MWG*cands[best].NWG) {
			best = i
		}
	}
	if best < 0 {
		best = smallest
	}
	return cands[best]
}

// FillsDevice reports whether wg work-groups make one nearly full wave on
// cus compute units: at least 7/8 of them (a nearly full wave of a larger
// tile beats a fuller one of a smaller tile: BENCHMARKS.md, "Figures behind the code's choices").
func FillsDevice(wg, cus int) bool {
	return fillDen*wg >= fillNum*max(cus, 1)
}

// Tuned returns the database's choice for device p, precision prec and
// an m×n C, built on base (the derived choice, which supplies every field
// the entries leave out), and whether the database has one.
//
// GPUs: among the gemm_tiled entries, skinny excluded, the largest tile
// whose work-group count fills the device (FillsDevice), else the smallest;
// when min(m, n) ≤ 64 the "skinny" entry wins. A gemm_direct entry sets the
// direct kernel's fields (the fallback when gemm_tiled's 32-bit index
// arithmetic does not hold). CPUs: one gemm_cpu entry per transpose class.
// Entries that break the device's limits are skipped.
func Tuned(db *DB, p Device, prec, m, n int, base Config) (Config, bool) {
	entries := Entries(db, p, prec)
	if len(entries) == 0 {
		return Config{}, false
	}
	if p.IsCPU() {
		return CPUConfig(base, entries)
	}
	cfg := base
	var cands []Config
	var skinny *Config
	for _, e := range entries {
		switch e.Kernel {
		case KernelDirect:
			d := DirectConfig(base, e.Defines)
			if d.DMDIMC*d.DNDIMC <= MaxWorkGroup(p) {
				cfg.DM, cfg.DN, cfg.DMDIMC, cfg.DNDIMC = d.DM, d.DN, d.DMDIMC, d.DNDIMC
			}
		case KernelTiled:
			t := TiledConfig(base, e.Defines)
			if !TiledFitsDevice(p, prec, t) {
				// As for unknown devices: single-buffered, or not at all.
				t.DoubleBuffer = false
				if !TiledFitsDevice(p, prec, t) {
					continue
				}
			}
			if e.Bucket == "skinny" {
				skinny = &t
				continue
			}
			cands = append(cands, t)
		}
	}
	var chosen Config
	switch {
	case min(m, n) <= SkinnyMN && skinny != nil:
		chosen = *skinny
	case len(cands) > 0:
		chosen = PickTile(cands, m, n, p.ComputeUnits)
	case skinny != nil:
		chosen = *skinny
	default:
		return Config{}, false
	}
	chosen.DM, chosen.DN, chosen.DMDIMC, chosen.DNDIMC = cfg.DM, cfg.DN, cfg.DMDIMC, cfg.DNDIMC
	return chosen, true
}

// CPUConfig applies a CPU device's gemm_cpu entries (one per transpose
// class) to base. The classes NN and TN, one transpose combination of N's
// two each, take precedence over N wherever they stand in the list.
func CPUConfig(base Config, entries []Entry) (Config, bool) {
	cfg := base
	cfg.Kernel = KernelCPU
	found := false
	ordered := make([]Entry, 0, len(entries))
	for _, narrow := range []bool{false, true} {
		for _, e := range entries {
			if (e.Class == "NN" || e.Class == "TN") == narrow {
				ordered = append(ordered, e)
			}
		}
	}
	for _, e := range ordered {
		if e.Kernel != KernelCPU {
			continue
		}
		d := e.Defines
		vec, mb, nb := d["CPU_VEC"], d["CPU_MB"], d["CPU_NB"]
		if vec <= 0 || mb <= 0 || nb <= 0 {
			continue
		}
		// Each transpose combination is its own program: every class
		// has its own vector width.
		block := [2]int{mb, nb}
		switch e.Class {
		case "N": // TRANSB=0: vectors along n
			if nb%vec != 0 {
				continue
			}
			cfg.CPUBlock[0][0], cfg.CPUBlock[1][0] = block, block
			cfg.CPUVecs[0][0], cfg.CPUVecs[1][0] = vec, vec
		case "NN", "TN": // one of N's combinations
			if nb%vec != 0 {
				continue
			}
			ta := boolInt(e.Class == "TN")
			cfg.CPUBlock[ta][0], cfg.CPUVecs[ta][0] = block, vec
		case "TT": // vectors along m
			if mb%vec != 0 {
				continue
			}
			cfg.CPUBlock[1][1], cfg.CPUVecs[1][1] = block, vec
		case "NT":
			cfg.CPUBlock[0][1], cfg.CPUVecs[0][1] = block, vec
		default:
			continue
		}
		if l := d["CPU_LOCAL"]; l > 0 {
			cfg.CPULocal = l
		}
		found = true
	}
	return cfg, found
}

// CPURescale sets gemm_cpu's vector width to vec with gemm.cl's default
// blocks for it.
func CPURescale(cfg Config, vec int) Config {
	b := Base(64, vec) // only the CPU fields are used
	cfg.CPUVec, cfg.CPUBlock, cfg.CPUVecs = b.CPUVec, b.CPUBlock, [2][2]int{}
	return cfg
}

// MaxWorkGroup is p's maximum work-group size (256 when unknown).
func MaxWorkGroup(p Device) int {
	if p.MaxWorkGroupSize <= 0 {
		return 256
	}
	return p.MaxWorkGroupSize
}

// TiledFitsDevice reports whether gemm_tiled with cfg fits p's work-group
// size and local memory.
func TiledFitsDevice(p Device, prec int, cfg Config) bool {
	if cfg.MDIMC*cfg.NDIMC > MaxWorkGroup(p) {
		return false
	}
	return p.LocalMemBytes <= 0 || cfg.LocalBytes(prec) <= p.LocalMemBytes
}

// TiledConfig fills base's gemm_tiled fields from a database entry.
func TiledConfig(base Config, d map[string]int) Config {
	cfg := base
	cfg.Kernel = KernelTiled
	set := func(dst *int, name string) {
		if v, ok := d[name]; ok && v > 0 {
			*dst = v
		}
	}
	set(&cfg.MWG, "MWG")
	set(&cfg.NWG, "NWG")
	set(&cfg.KWG, "KWG")
	set(&cfg.MDIMC, "MDIMC")
	set(&cfg.NDIMC, "NDIMC")
	set(&cfg.VWM, "VWM")
	set(&cfg.VWN, "VWN")
	set(&cfg.VWA, "VWA")
	set(&cfg.VWB, "VWB")
	set(&cfg.PADA, "PADA")
	set(&cfg.PADB, "PADB")
	if v, ok := d["DOUBLE_BUFFER"]; ok {
		cfg.DoubleBuffer = v != 0
	}
	return cfg
}

// DirectConfig fills base's gemm_direct fields from a database entry.
func DirectConfig(base Config, d map[string]int) Config {
	cfg := base
	cfg.Kernel = KernelDirect
	for name, dst := range map[string]*int{"DM": &cfg.DM, "DN": &cfg.DN, "DMDIMC": &cfg.DMDIMC, "DNDIMC": &cfg.DNDIMC} {
		if v, ok := d[name]; ok && v > 0 {
			*dst = v
		}
	}
	cfg.SplitRaw = d["SPLIT_RAW"] == 1
	return cfg
}

// MMADefaults returns gemm_mma.cl's default tile for precision prec (the
// sets measured best on the H200): double 128×64, K step 8, warp tile
// 64×32 (4 warps); float 128×256, K step 8, warp tile 64×64 (8 warps).
func MMADefaults(base Config, prec int) Config {
	cfg := base
	cfg.Kernel = KernelMMA
	cfg.MMAMWG, cfg.MMANWG, cfg.MMAKWG, cfg.WM, cfg.WN = 128, 64, 8, 64, 32
	if prec == 32 {
		cfg.MMANWG, cfg.WN = 256, 64
	}
	cfg.Stages = 3
	return cfg
}

// MMAConfig fills base's gemm_mma fields from a database entry.
func MMAConfig(base Config, prec int, d map[string]int) Config {
	cfg := MMADefaults(base, prec)
	for name, dst := range map[string]*int{"MWG": &cfg.MMAMWG, "NWG": &cfg.MMANWG, "KWG": &cfg.MMAKWG,
		"WM": &cfg.WM, "WN": &cfg.WN, "STAGES": &cfg.Stages} {
		if v, ok := d[name]; ok && v > 0 {
			*dst = v
		}
	}
	cfg.SplitRaw = d["SPLIT_RAW"] == 1
	cfg.CPVec = d["CP_VEC"] == 1
	cfg.MMAK = d["MMA_K"]
	cfg.IssueMix = d["ISSUE_MIX"] == 1
	cfg.KMSwz = d["KM_SWZ"] == 1
	cfg.PipeFrag = d["PIPE_FRAG"] == 1
	cfg.WarpsK = d["WARPS_K"]
	return cfg
}

// TensorCapable reports whether p can run gemm_mma.cl natively: an NVIDIA
// device of compute capability ≥ 8.0 (mma.sync for f64 and tf32, cp.async).
func TensorCapable(p Device) bool {
	return p.Vendor == VendorNVIDIA && p.ComputeCapability[0] >= 8
}

// MMA returns the tensor-core choice for device p, precision prec and
// an m×n C under mode, built on base (whose gemm.cl fields stay as the
// fallback), and whether the tensor cores are to be used. The database's
// gemm_mma entry for the device is used when it has one, gemm_mma.cl's
// defaults otherwise. DGEMM is "default" everywhere; 3xTF32 SGEMM is
// "opt-in" unless the device's entry says "default" (the H200's does: with
// 16-byte copies it measured faster than the FMA kernel, and it is more
// accurate). Skinny shapes
// (min(m, n) ≤ 64) stay on the FMA kernels, which waste less of a tile.
func MMA(db *DB, p Device, prec, m, n int, mode Tensor, base Config) (Config, bool) {
	if mode == TensorOff || !TensorCapable(p) || min(m, n) <= SkinnyMN {
		return Config{}, false
	}
	if prec == 64 && !p.FP64 {
		return Config{}, false
	}
	cfg := MMADefaults(base, prec)
	use := UseDefault
	if prec == 32 {
		use = UseOptIn
	}
	for _, e := range Entries(db, p, prec) {
		if e.Kernel == KernelMMA {
			// Read has checked the per-transpose keys.
			cfg, _ = WithTrans(MMAConfig(base, prec, e.Defines), e.Trans)
			if e.Use != "" {
				use = e.Use
			}
			break
		}
	}
	if use == UseOptIn && mode != TensorTF32x3 {
		return Config{}, false
	}
	if cfg.MMAThreads() > MaxWorkGroup(p) || (p.LocalMemBytes > 0 && cfg.MMALocalBytes(prec) > p.LocalMemBytes) {
		return Config{}, false
	}
	// Too few work-groups to occupy half the device: the FMA kernel's
	// smaller tiles keep more of it busy (BENCHMARKS.md, "Figures behind the code's choices"),
	// unless the small tensor-core tile does (mma_small.go).
	if half := max(p.ComputeUnits, 1) / 2; cfg.WorkGroups(m, n) < half {
		small, ok := MMASmall(p, prec, cfg)
		if !ok || small.WorkGroups(m, n) < half {
			return Config{}, false
		}
		cfg = small
	}
	return cfg, true
}

// MMAThreads is gemm_mma's work-group size: 32 work-items per warp tile
// and K group.
func (cfg Config) MMAThreads() int {
	if cfg.WM <= 0 || cfg.WN <= 0 {
		return 0
	}
	return 32 * (cfg.MMAMWG / cfg.WM) * (cfg.MMANWG / cfg.WN) * max(cfg.WarpsK, 1)
}

// MMALocalBytes is the local memory gemm_mma needs (CP_ASYNC=1: STAGES
// k-major buffers of each operand, rows padded by 4 doubles or 8 floats).
// With CP_VEC=1 an operand whose rows run along k (A with TRANSA=0, B with
// TRANSB=1) is kept in a swizzled [m][k] / [n][k] tile of MWG·KWG / NWG·KWG
// elements, less than the k-major one, so this bound holds for every
// transpose combination (the fallback to CP_VEC=0 included).
func (cfg Config) MMALocalBytes(prec int) int64 {
	pad := 4
	if prec == 32 {
		pad = 8
	}
	if cfg.CPVec && cfg.KMSwz {
		// KM_SWZ=1: every tile of CP_VEC=1 is swizzled, with no padding.
		pad = 0
	}
	stages := max(cfg.Stages, 2)
	return int64(stages) * int64(cfg.MMAKWG) * int64(cfg.MMAMWG+pad+cfg.MMANWG+pad) * int64(prec/8)
}

// AllTuned lists every configuration the database and the derived
// defaults can choose for precision prec, whatever device it is for: the
// gemm_tiled, gemm_direct and gemm_cpu sets of every device entry, the
// gemm_mma sets, and the derived defaults of an unknown GPU and an unknown
// CPU. Each is returned with its kernel set; tests run every one of them
// on the available device.
func AllTuned(prec int) []Config {
	db := Builtin()
	base := Base(prec, 16/(prec/32))
	var out []Config
	for _, d := range db.Devices {
		// As Tuned builds them: the device's gemm_direct fields ride
		// along in every gemm_tiled configuration (one program serves
		// both kernels).
		dev := base
		hasDirect := false
		var cpuEntries []Entry
		for _, e := range d.Entries {
			if e.Precision == prec && e.Kernel == KernelDirect {
				dev, hasDirect = DirectConfig(dev, e.Defines), true
			}
		}
		var tiled []Config
		for _, e := range d.Entries {
			if e.Precision != prec {
				continue
			}
			switch e.Kernel {
			case KernelTiled:
				tiled = append(tiled, TiledConfig(dev, e.Defines))
			case KernelMMA:
				cfg, _ := WithTrans(MMAConfig(base, prec, e.Defines), e.Trans)
				out = append(out, cfg)
			case KernelCPU:
				cpuEntries = append(cpuEntries, e)
			}
		}
		out = append(out, tiled...)
		if hasDirect {
			direct := dev
			if len(tiled) > 0 {
				direct = tiled[0]
			}
			direct.Kernel = KernelDirect
			out = append(out, direct)
		}
		if cfg, ok := CPUConfig(base, cpuEntries); ok {
			out = append(out, cfg)
		}
	}
	// The derived defaults: every tile an unknown GPU may get (large
	// enough shapes pick the largest, small ones the smallest) and its
	// gemm_direct fallback; an unknown CPU's gemm_cpu with an AVX2-like
	// vector width; gemm_mma.cl's defaults.
	gpu := Device{GPU: true, MaxWorkGroupSize: 1024, LocalMemBytes: 48 << 10, ComputeUnits: 64}
	small := gpu
	small.MaxWorkGroupSize = 128
	for _, p := range []Device{gpu, small} {
		for _, mn := range []int{64, 512, 4096} {
			out = append(out, Derived(p, prec, mn, mn))
		}
	}
	direct := Derived(gpu, prec, 4096, 4096)
	direct.Kernel = KernelDirect
	out = append(out, direct)
	cpu := Device{CPU: true, PreferredVectorFloat: 8, PreferredVectorDouble: 4}
	out = append(out, Derived(cpu, prec, 1, 1))
	out = append(out, MMADefaults(base, prec))
	return Dedupe(out)
}

// Dedupe drops repeated configurations, keeping the first.
func Dedupe(cfgs []Config) []Config {
	var out []Config
	seen := map[string]bool{}
	for _, c := range cfgs {
		key := c.Kernel + " " + strings.Join(c.Defines(false, false, false), " ") + fmt.Sprint(c.MMATrans)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, c)
	}
	return out
}
