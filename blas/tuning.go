package clblas

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/kernels"
	"github.com/gocompute/opencl/platform"
)

// GEMM kernel selection. The GEMM tuning database (kernels/gemm_tuning.json)
// holds measured parameter sets per device, precision and shape bucket; it is
// data, kept apart from the code that uses it: cmd/tune writes entries and
// gemmChoose reads them. The order of the choice, for a device profile, a
// precision and a shape:
//
//  1. gemmDerived: defaults derived from the device's queried limits (the
//     rule for devices the database does not know);
//  2. tunedGemm: the database's entry for this device, precision and shape,
//     when it has one (it replaces the derived choice);
//  3. mmaGemm: the tensor-core kernel (gemm_mma.cl) on NVIDIA devices of
//     compute capability ≥ 8.0, as the TensorMode allows;
//  4. skinnyRoute: GEMV-shaped calls (m or n == 1) go to the gemv kernels
//     and calls whose few work-groups leave the device idle while k is long
//     are split along K (gemm_skinny.cl).

// tuningDB is the parsed database.
type tuningDB struct {
	Schema  int            `json:"schema"`
	Devices []tuningDevice `json:"devices"`
}

type tuningDevice struct {
	Match   tuningMatch   `json:"match"`
	Entries []tuningEntry `json:"entries"`
}

// tuningMatch says which devices an entry list is for. Every non-empty
// field must match: vendor (the normalised vendor or a substring of the
// driver's vendor string, any case), name (the device name, exactly),
// platform (a substring of the platform name) and type ("GPU", "CPU").
type tuningMatch struct {
	Vendor   string `json:"vendor,omitempty"`
	Name     string `json:"name,omitempty"`
	Platform string `json:"platform,omitempty"`
	Type     string `json:"type,omitempty"`
}

// tuningEntry is one measured parameter set.
type tuningEntry struct {
	Precision int            `json:"precision"`
	Bucket    string         `json:"bucket,omitempty"` // GPU: large, medium, small, skinny, tiny-fallback, tensor
	Class     string         `json:"class,omitempty"`  // CPU: transpose class N, TT, NT
	Kernel    string         `json:"kernel"`
	Defines   map[string]int `json:"defines"`
	// Use, for gemm_mma entries: "default" (chosen unless GOCL_TENSOR=off
	// or WithTensorCores(TensorOff)) or "opt-in" (chosen only with
	// TensorTF32x3).
	Use string `json:"use,omitempty"`
	// Trans, for gemm_mma entries: per transpose combination ("NN", "NT",
	// "TN", "TT"), switches that replace the entry's own for that
	// combination. Only switches that leave the tile and the local memory
	// as they are may be given (mmaTransKeys), so the host's work sizes
	// and the tile choice stay the entry's.
	Trans map[string]map[string]int `json:"trans,omitempty"`
}

// mmaTransKeys are the gemm_mma switches a database entry may set per
// transpose combination.
var mmaTransKeys = []string{"ISSUE_MIX", "PIPE_FRAG"}

// withTrans applies an entry's per-transpose switches (tuningEntry.Trans)
// to cfg; combinations it does not name keep the entry's switches, and so
// do the switches it leaves out. It reports a key it does not know.
func withTrans(cfg gemmConfig, trans map[string]map[string]int) (gemmConfig, error) {
	for name, d := range trans {
		if len(name) != 2 || strings.Trim(name, "NT") != "" {
			return cfg, fmt.Errorf("clblas: tuning entry: transpose combination %q (want NN, NT, TN or TT)", name)
		}
		tA, tB := name[0] == 'T', name[1] == 'T'
		s := mmaSwitch{set: true, issueMix: cfg.issueMix, pipeFrag: cfg.pipeFrag}
		for key, v := range d {
			switch key {
			case "ISSUE_MIX":
				s.issueMix = v == 1
			case "PIPE_FRAG":
				s.pipeFrag = v == 1
			default:
				return cfg, fmt.Errorf("clblas: tuning entry: %s cannot be set per transpose combination (only %v)", key, mmaTransKeys)
			}
		}
		cfg.mmaTrans[l3Bool(tA)][l3Bool(tB)] = s
	}
	return cfg, nil
}

// Values of tuningEntry.Use.
const (
	tensorUseDefault = "default"
	tensorUseOptIn   = "opt-in"
)

var tuning struct {
	once sync.Once
	db   tuningDB
	err  error
}

// envTuning names a tuning database file (cmd/tune's output) that replaces
// the embedded one, for trying entries before they are committed.
const envTuning = "GOCL_GEMM_TUNING"

// loadTuning parses the database once (readTuning with GOCL_GEMM_TUNING).
// A database that cannot be read is logged once (slog), and the kernels
// get their derived defaults.
func loadTuning() (*tuningDB, error) {
	tuning.once.Do(func() {
		tuning.db, tuning.err = readTuning(os.Getenv(envTuning))
		if tuning.err != nil {
			slog.Warn("GEMM tuning database not used: kernels get the defaults derived from device limits", "err", tuning.err)
		}
	})
	return &tuning.db, tuning.err
}

// readTuning parses the tuning database in the file path, or the embedded
// kernels/gemm_tuning.json when path is empty.
func readTuning(path string) (tuningDB, error) {
	var db tuningDB
	src, name := kernels.GemmTuning, "gemm_tuning.json"
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return db, fmt.Errorf("clblas: %s: %w", envTuning, err)
		}
		src, name = b, path
	}
	if err := json.Unmarshal(src, &db); err != nil {
		return tuningDB{}, fmt.Errorf("clblas: %s: %w", name, err)
	}
	for _, d := range db.Devices {
		for _, e := range d.Entries {
			if _, err := withTrans(gemmConfig{}, e.Trans); err != nil {
				return tuningDB{}, fmt.Errorf("clblas: %s: %w", name, err)
			}
			if err := checkEntryBounds(e); err != nil {
				return tuningDB{}, fmt.Errorf("clblas: %s: %w", name, err)
			}
		}
	}
	return db, nil
}

func (m tuningMatch) matches(p platform.Profile) bool {
	if m.Vendor != "" && !strings.EqualFold(m.Vendor, string(p.Vendor)) &&
		!strings.Contains(strings.ToLower(p.VendorName), strings.ToLower(m.Vendor)) {
		return false
	}
	if m.Name != "" && m.Name != p.Name {
		return false
	}
	if m.Platform != "" && !strings.Contains(p.Platform, m.Platform) {
		return false
	}
	switch strings.ToUpper(m.Type) {
	case "GPU":
		return p.IsGPU()
	case "CPU":
		return p.IsCPU()
	}
	return true
}

// tunedEntries returns the database entries for device p and precision
// prec (nil when the device is not in the database). The first device
// whose match fits is used.
func tunedEntries(p platform.Profile, prec int) []tuningEntry {
	db, err := loadTuning()
	if err != nil {
		return nil
	}
	for _, d := range db.Devices {
		if !d.Match.matches(p) {
			continue
		}
		var out []tuningEntry
		for _, e := range d.Entries {
			if e.Precision == prec {
				out = append(out, e)
			}
		}
		return out
	}
	return nil
}

// TensorMode says when GEMM may run on tensor cores (kernels/gemm_mma.cl:
// NVIDIA devices of compute capability ≥ 8.0 only; elsewhere every mode is
// the FMA kernels of gemm.cl).
type TensorMode int

const (
	// TensorAuto (the default) runs DGEMM on the FP64 tensor cores, which
	// are exact FP64 FMAs (measured on the H200: 42–46 TFLOP/s against
	// 22.5 for the FMA kernel, full FP64 accuracy), and SGEMM by 3xTF32
	// where the tuning database's entry for the device says "default"
	// (the H200, where it measured faster than the FP32 FMA kernel and
	// more accurate); on other tensor-core devices SGEMM stays on the FMA
	// kernel.
	TensorAuto TensorMode = iota
	// TensorOff never uses tensor cores.
	TensorOff
	// TensorTF32x3 runs SGEMM on tensor cores on every device that has
	// them, with the 3xTF32 method (each operand split in two TF32 halves,
	// three products). Measured on the H200 it is more accurate than the
	// FMA kernel (relative Frobenius error 3.0e-7 against 8.1e-7 at
	// n = 2048).
	TensorTF32x3
)

// envTensor is the environment variable New reads when no WithTensorCores
// option is given.
const envTensor = "GOCL_TENSOR"

// String returns "auto", "off" or "tf32x3".
func (t TensorMode) String() string {
	switch t {
	case TensorAuto:
		return "auto"
	case TensorOff:
		return "off"
	case TensorTF32x3:
		return "tf32x3"
	}
	return fmt.Sprintf("TensorMode(%d)", int(t))
}

// ParseTensorMode parses a GOCL_TENSOR value: "auto" (or empty), "off",
// and "tf32x3" or "on" (every tensor-core path, 3xTF32 SGEMM included);
// any case, surrounding space ignored.
func ParseTensorMode(s string) (TensorMode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return TensorAuto, nil
	case "off":
		return TensorOff, nil
	case "on", "tf32x3":
		return TensorTF32x3, nil
	}
	return TensorAuto, fmt.Errorf("clblas: invalid %s value %q (want auto, off, on or tf32x3)", envTensor, s)
}

// tensorFromEnv is the mode GOCL_TENSOR asks for (TensorAuto when unset or
// invalid).
func tensorFromEnv() TensorMode {
	t, _ := ParseTensorMode(os.Getenv(envTensor))
	return t
}

// gemmChoose chooses the GEMM kernel, its parameters and its route for
// device p, precision prec (32 or 64), an m×n×k shape and a tensor-core
// mode. It is the one place where that choice is made.
func gemmChoose(p platform.Profile, prec, m, n, k int, mode TensorMode) gemmConfig {
	cfg := gemmDerived(p, prec, m, n)
	if t, ok := tunedGemm(p, prec, m, n, cfg); ok {
		cfg = t
	}
	if t, ok := mmaGemm(p, prec, m, n, mode, cfg); ok {
		cfg = t
	}
	return skinnyRoute(p, prec, cfg, m, n, k)
}

// gemmBase returns a configuration with every field of every kernel set to
// gemm.cl's and gemm_mma.cl's documented defaults for precision prec, the
// gemm_cpu vector width cpuVec, and no kernel chosen.
func gemmBase(prec, cpuVec int) gemmConfig {
	vw, kwg := 4, 16
	if prec == 64 {
		vw, kwg = 2, 8
	}
	cfg := gemmConfig{
		mwg: 128, nwg: 128, kwg: kwg, mdimc: 16, ndimc: 16,
		vwm: vw, vwn: vw, vwa: vw, vwb: vw, pada: vw, padb: vw,
		doubleBuffer: true,
		dm:           4, dn: 4, dmdimc: 16, dndimc: 16,
		cpuVec: cpuVec, cpuLocal: 8,
	}
	cfg.cpuBlock[0][0] = [2]int{8, 2 * cpuVec}
	cfg.cpuBlock[1][0] = [2]int{8, 2 * cpuVec}
	cfg.cpuBlock[1][1] = [2]int{2 * cpuVec, 8}
	cfg.cpuBlock[0][1] = [2]int{4, 4}
	return cfg
}

// tile is a gemm_tiled work-group tile: MWG×NWG of C on MDIMC×NDIMC
// work-items.
type tile struct{ mwg, nwg, mdimc, ndimc int }

// gemmDerived is the choice for a device the database does not know,
// derived from its queried limits (gemm.cl's header and the "selection"
// text of gemm_tuning.json):
//
//   - CPU devices get gemm_cpu, with CPU_VEC the device's preferred
//     (native) vector width of the precision; gemm_tiled gets small tiles
//     there, used only when a test forces that kernel.
//   - Other devices get gemm_tiled, with the largest of the tiles
//     128×128/16×16, 64×64/16×16, 32×32/8×8 whose work-group count fills
//     the device (fillsDevice; else the smallest); tiles whose work-group
//     does not fit the device's maximum (below 256 work-items: 64×64/8×8
//     and 32×32/8×8) or whose local memory does not fit (single-buffered
//     as a second try) are left out; with none left, gemm_direct, its
//     work-group shrunk to fit.
func gemmDerived(p platform.Profile, prec, m, n int) gemmConfig {
	cpuVec := 16
	pref := p.PreferredVectorFloat
	if prec == 64 {
		cpuVec, pref = 8, p.PreferredVectorDouble
	}
	if p.IsCPU() && (pref == 1 || pref == 2 || pref == 4 || pref == 8 || pref == 16) {
		cpuVec = pref
	}
	cfg := gemmBase(prec, cpuVec)
	maxWG := p.MaxWorkGroupSize
	if maxWG <= 0 {
		maxWG = 256
	}
	for cfg.dmdimc*cfg.dndimc > maxWG && cfg.dmdimc > 1 {
		if cfg.dndimc > cfg.dmdimc {
			cfg.dndimc /= 2
		} else {
			cfg.dmdimc /= 2
		}
	}
	if p.IsCPU() {
		cfg.mwg, cfg.nwg, cfg.mdimc, cfg.ndimc, cfg.kwg = 32, 32, 8, 8, 8
		cfg.kernel = gemmKernelCPU
		return cfg
	}
	tiles := []tile{{128, 128, 16, 16}, {64, 64, 16, 16}, {32, 32, 8, 8}}
	if maxWG < 256 {
		tiles = []tile{{64, 64, 8, 8}, {32, 32, 8, 8}}
	}
	var fit []gemmConfig
	for _, t := range tiles {
		c := cfg
		c.kernel = gemmKernelTiled
		c.mwg, c.nwg, c.mdimc, c.ndimc = t.mwg, t.nwg, t.mdimc, t.ndimc
		if c.mdimc*c.ndimc > maxWG {
			continue
		}
		if lm := p.LocalMemBytes; lm > 0 && c.localBytes(prec) > lm {
			c.doubleBuffer = false
			if c.localBytes(prec) > lm {
				continue
			}
		}
		fit = append(fit, c)
	}
	if len(fit) == 0 {
		cfg.kernel = gemmKernelDirect
		return cfg
	}
	return pickTile(fit, m, n, p.ComputeUnits)
}

// pickTile applies the database's GPU rule to candidate gemm_tiled
// configurations: the largest tile whose work-group count
// ceil(m/MWG)·ceil(n/NWG) fills the device (fillsDevice), else the
// smallest tile.
func pickTile(cands []gemmConfig, m, n, cus int) gemmConfig {
	best, smallest := -1, -1
	for i, c := range cands {
		t := c.mwg * c.nwg
		if smallest < 0 || t < cands[smallest].mwg*cands[smallest].nwg {
			smallest = i
		}
		if fillsDevice(l3CeilDiv(m, c.mwg)*l3CeilDiv(n, c.nwg), cus) &&
			(best < 0 || t > cands[best].mwg*cands[best].nwg) {
			best = i
		}
	}
	if best < 0 {
		best = smallest
	}
	return cands[best]
}

// fillsDevice reports whether wg work-groups make one nearly full wave on
// cus compute units: at least 7/8 of them. (On the H200's 132 CUs the
// large tiles' 128 work-groups at 2048² measured 45 TFLOP/s against 29 for
// the next tile down.)
func fillsDevice(wg, cus int) bool {
	return 8*wg >= 7*max(cus, 1)
}

// tunedGemm returns the database's choice for device p, precision prec and
// an m×n C, built on base (the derived choice, which supplies every field
// the entries leave out), and whether the database has one.
//
// GPUs: among the gemm_tiled entries, skinny excluded, the largest tile
// whose work-group count fills the device (fillsDevice), else the smallest;
// when min(m, n) ≤ 64 the "skinny" entry wins. A gemm_direct entry sets the
// direct kernel's fields (the fallback when gemm_tiled's 32-bit index
// arithmetic does not hold). CPUs: one gemm_cpu entry per transpose class.
// Entries that break the device's limits are skipped.
func tunedGemm(p platform.Profile, prec, m, n int, base gemmConfig) (gemmConfig, bool) {
	entries := tunedEntries(p, prec)
	if len(entries) == 0 {
		return gemmConfig{}, false
	}
	if p.IsCPU() {
		return cpuConfig(base, entries)
	}
	cfg := base
	var cands []gemmConfig
	var skinny *gemmConfig
	for _, e := range entries {
		switch e.Kernel {
		case gemmKernelDirect:
			d := directConfig(base, e.Defines)
			if d.dmdimc*d.dndimc <= maxWorkGroup(p) {
				cfg.dm, cfg.dn, cfg.dmdimc, cfg.dndimc = d.dm, d.dn, d.dmdimc, d.dndimc
			}
		case gemmKernelTiled:
			t := tiledConfig(base, e.Defines)
			if !tiledFitsDevice(p, prec, t) {
				// As for unknown devices: single-buffered, or not at all.
				t.doubleBuffer = false
				if !tiledFitsDevice(p, prec, t) {
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
	var chosen gemmConfig
	switch {
	case min(m, n) <= 64 && skinny != nil:
		chosen = *skinny
	case len(cands) > 0:
		chosen = pickTile(cands, m, n, p.ComputeUnits)
	case skinny != nil:
		chosen = *skinny
	default:
		return gemmConfig{}, false
	}
	chosen.dm, chosen.dn, chosen.dmdimc, chosen.dndimc = cfg.dm, cfg.dn, cfg.dmdimc, cfg.dndimc
	return chosen, true
}

// cpuConfig applies a CPU device's gemm_cpu entries (one per transpose
// class) to base.
func cpuConfig(base gemmConfig, entries []tuningEntry) (gemmConfig, bool) {
	cfg := base
	cfg.kernel = gemmKernelCPU
	found := false
	for _, e := range entries {
		if e.Kernel != gemmKernelCPU {
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
			cfg.cpuBlock[0][0], cfg.cpuBlock[1][0] = block, block
			cfg.cpuVecs[0][0], cfg.cpuVecs[1][0] = vec, vec
		case "TT": // vectors along m
			if mb%vec != 0 {
				continue
			}
			cfg.cpuBlock[1][1], cfg.cpuVecs[1][1] = block, vec
		case "NT":
			cfg.cpuBlock[0][1], cfg.cpuVecs[0][1] = block, vec
		default:
			continue
		}
		if l := d["CPU_LOCAL"]; l > 0 {
			cfg.cpuLocal = l
		}
		found = true
	}
	return cfg, found
}

// cpuRescale sets gemm_cpu's vector width to vec with gemm.cl's default
// blocks for it.
func cpuRescale(cfg gemmConfig, vec int) gemmConfig {
	b := gemmBase(64, vec) // only the CPU fields are used
	cfg.cpuVec, cfg.cpuBlock, cfg.cpuVecs = b.cpuVec, b.cpuBlock, [2][2]int{}
	return cfg
}

// maxWorkGroup is p's maximum work-group size (256 when unknown).
func maxWorkGroup(p platform.Profile) int {
	if p.MaxWorkGroupSize <= 0 {
		return 256
	}
	return p.MaxWorkGroupSize
}

// tiledFitsDevice reports whether gemm_tiled with cfg fits p's work-group
// size and local memory.
func tiledFitsDevice(p platform.Profile, prec int, cfg gemmConfig) bool {
	if cfg.mdimc*cfg.ndimc > maxWorkGroup(p) {
		return false
	}
	return p.LocalMemBytes <= 0 || cfg.localBytes(prec) <= p.LocalMemBytes
}

// tiledConfig fills base's gemm_tiled fields from a database entry.
func tiledConfig(base gemmConfig, d map[string]int) gemmConfig {
	cfg := base
	cfg.kernel = gemmKernelTiled
	set := func(dst *int, name string) {
		if v, ok := d[name]; ok && v > 0 {
			*dst = v
		}
	}
	set(&cfg.mwg, "MWG")
	set(&cfg.nwg, "NWG")
	set(&cfg.kwg, "KWG")
	set(&cfg.mdimc, "MDIMC")
	set(&cfg.ndimc, "NDIMC")
	set(&cfg.vwm, "VWM")
	set(&cfg.vwn, "VWN")
	set(&cfg.vwa, "VWA")
	set(&cfg.vwb, "VWB")
	set(&cfg.pada, "PADA")
	set(&cfg.padb, "PADB")
	if v, ok := d["DOUBLE_BUFFER"]; ok {
		cfg.doubleBuffer = v != 0
	}
	return cfg
}

// directConfig fills base's gemm_direct fields from a database entry.
func directConfig(base gemmConfig, d map[string]int) gemmConfig {
	cfg := base
	cfg.kernel = gemmKernelDirect
	for name, dst := range map[string]*int{"DM": &cfg.dm, "DN": &cfg.dn, "DMDIMC": &cfg.dmdimc, "DNDIMC": &cfg.dndimc} {
		if v, ok := d[name]; ok && v > 0 {
			*dst = v
		}
	}
	cfg.splitRaw = d["SPLIT_RAW"] == 1
	return cfg
}

// mmaDefaults returns gemm_mma.cl's default tile for precision prec (the
// sets measured best on the H200): double 128×64, K step 8, warp tile
// 64×32 (4 warps); float 128×256, K step 8, warp tile 64×64 (8 warps).
func mmaDefaults(base gemmConfig, prec int) gemmConfig {
	cfg := base
	cfg.kernel = gemmKernelMMA
	cfg.mmaMWG, cfg.mmaNWG, cfg.mmaKWG, cfg.wm, cfg.wn = 128, 64, 8, 64, 32
	if prec == 32 {
		cfg.mmaNWG, cfg.wn = 256, 64
	}
	cfg.stages = 3
	return cfg
}

// mmaConfig fills base's gemm_mma fields from a database entry.
func mmaConfig(base gemmConfig, prec int, d map[string]int) gemmConfig {
	cfg := mmaDefaults(base, prec)
	for name, dst := range map[string]*int{"MWG": &cfg.mmaMWG, "NWG": &cfg.mmaNWG, "KWG": &cfg.mmaKWG,
		"WM": &cfg.wm, "WN": &cfg.wn, "STAGES": &cfg.stages} {
		if v, ok := d[name]; ok && v > 0 {
			*dst = v
		}
	}
	cfg.splitRaw = d["SPLIT_RAW"] == 1
	cfg.cpVec = d["CP_VEC"] == 1
	cfg.mmaK = d["MMA_K"]
	cfg.issueMix = d["ISSUE_MIX"] == 1
	cfg.kmSwz = d["KM_SWZ"] == 1
	cfg.pipeFrag = d["PIPE_FRAG"] == 1
	return cfg
}

// tensorCapable reports whether p can run gemm_mma.cl natively: an NVIDIA
// device of compute capability ≥ 8.0 (mma.sync for f64 and tf32, cp.async).
func tensorCapable(p platform.Profile) bool {
	return p.Vendor == platform.VendorNVIDIA && p.ComputeCapability[0] >= 8
}

// mmaGemm returns the tensor-core choice for device p, precision prec and
// an m×n C under mode, built on base (whose gemm.cl fields stay as the
// fallback), and whether the tensor cores are to be used. The database's
// gemm_mma entry for the device is used when it has one, gemm_mma.cl's
// defaults otherwise. DGEMM is "default" everywhere; 3xTF32 SGEMM is
// "opt-in" unless the device's entry says "default" (the H200's does: with
// 16-byte copies it measured faster than the FMA kernel, and it is more
// accurate). Skinny shapes
// (min(m, n) ≤ 64) stay on the FMA kernels, which waste less of a tile.
func mmaGemm(p platform.Profile, prec, m, n int, mode TensorMode, base gemmConfig) (gemmConfig, bool) {
	if mode == TensorOff || !tensorCapable(p) || min(m, n) <= 64 {
		return gemmConfig{}, false
	}
	if prec == 64 && !p.FP64 {
		return gemmConfig{}, false
	}
	cfg := mmaDefaults(base, prec)
	use := tensorUseDefault
	if prec == 32 {
		use = tensorUseOptIn
	}
	for _, e := range tunedEntries(p, prec) {
		if e.Kernel == gemmKernelMMA {
			// readTuning has checked the per-transpose keys.
			cfg, _ = withTrans(mmaConfig(base, prec, e.Defines), e.Trans)
			if e.Use != "" {
				use = e.Use
			}
			break
		}
	}
	if use == tensorUseOptIn && mode != TensorTF32x3 {
		return gemmConfig{}, false
	}
	if cfg.mmaThreads() > maxWorkGroup(p) || (p.LocalMemBytes > 0 && cfg.mmaLocalBytes(prec) > p.LocalMemBytes) {
		return gemmConfig{}, false
	}
	// Too few work-groups to occupy half the device: the FMA kernel's
	// smaller tiles do better (H200, DGEMM 512³: 128×64 tensor tiles make 32
	// groups for 132 SMs and ran 6.6 TFLOP/s; 32×32 FMA tiles, 256 groups,
	// measured 10.3).
	if l3CeilDiv(m, cfg.mmaMWG)*l3CeilDiv(n, cfg.mmaNWG) < max(p.ComputeUnits, 1)/2 {
		return gemmConfig{}, false
	}
	return cfg, true
}

// mmaThreads is gemm_mma's work-group size: 32 work-items per warp tile.
func (cfg gemmConfig) mmaThreads() int {
	if cfg.wm <= 0 || cfg.wn <= 0 {
		return 0
	}
	return 32 * (cfg.mmaMWG / cfg.wm) * (cfg.mmaNWG / cfg.wn)
}

// mmaLocalBytes is the local memory gemm_mma needs (CP_ASYNC=1: STAGES
// k-major buffers of each operand, rows padded by 4 doubles or 8 floats).
// With CP_VEC=1 an operand whose rows run along k (A with TRANSA=0, B with
// TRANSB=1) is kept in a swizzled [m][k] / [n][k] tile of MWG·KWG / NWG·KWG
// elements, less than the k-major one, so this bound holds for every
// transpose combination (the fallback to CP_VEC=0 included).
func (cfg gemmConfig) mmaLocalBytes(prec int) int64 {
	pad := 4
	if prec == 32 {
		pad = 8
	}
	if cfg.cpVec && cfg.kmSwz {
		// KM_SWZ=1: every tile of CP_VEC=1 is swizzled, with no padding.
		pad = 0
	}
	stages := max(cfg.stages, 2)
	return int64(stages) * int64(cfg.mmaKWG) * int64(cfg.mmaMWG+pad+cfg.mmaNWG+pad) * int64(prec/8)
}

// allTunedConfigs lists every configuration the database and the derived
// defaults can choose for precision prec, whatever device it is for: the
// gemm_tiled, gemm_direct and gemm_cpu sets of every device entry, the
// gemm_mma sets, and the derived defaults of an unknown GPU and an unknown
// CPU. Each is returned with its kernel set; tests run every one of them
// on the available device.
func allTunedConfigs(prec int) []gemmConfig {
	db, err := loadTuning()
	if err != nil {
		return nil
	}
	base := gemmBase(prec, 16/(prec/32))
	var out []gemmConfig
	for _, d := range db.Devices {
		// As tunedGemm builds them: the device's gemm_direct fields ride
		// along in every gemm_tiled configuration (one program serves
		// both kernels).
		dev := base
		hasDirect := false
		var cpuEntries []tuningEntry
		for _, e := range d.Entries {
			if e.Precision == prec && e.Kernel == gemmKernelDirect {
				dev, hasDirect = directConfig(dev, e.Defines), true
			}
		}
		var tiled []gemmConfig
		for _, e := range d.Entries {
			if e.Precision != prec {
				continue
			}
			switch e.Kernel {
			case gemmKernelTiled:
				tiled = append(tiled, tiledConfig(dev, e.Defines))
			case gemmKernelMMA:
				cfg, _ := withTrans(mmaConfig(base, prec, e.Defines), e.Trans)
				out = append(out, cfg)
			case gemmKernelCPU:
				cpuEntries = append(cpuEntries, e)
			}
		}
		out = append(out, tiled...)
		if hasDirect {
			direct := dev
			if len(tiled) > 0 {
				direct = tiled[0]
			}
			direct.kernel = gemmKernelDirect
			out = append(out, direct)
		}
		if cfg, ok := cpuConfig(base, cpuEntries); ok {
			out = append(out, cfg)
		}
	}
	// The derived defaults: every tile an unknown GPU may get (large
	// enough shapes pick the largest, small ones the smallest) and its
	// gemm_direct fallback; an unknown CPU's gemm_cpu with an AVX2-like
	// vector width; gemm_mma.cl's defaults.
	gpu := platform.Profile{Type: cl.DeviceTypeGPU, MaxWorkGroupSize: 1024, LocalMemBytes: 48 << 10, ComputeUnits: 64}
	small := gpu
	small.MaxWorkGroupSize = 128
	for _, p := range []platform.Profile{gpu, small} {
		for _, mn := range []int{64, 512, 4096} {
			out = append(out, gemmDerived(p, prec, mn, mn))
		}
	}
	direct := gemmDerived(gpu, prec, 4096, 4096)
	direct.kernel = gemmKernelDirect
	out = append(out, direct)
	cpu := platform.Profile{Type: cl.DeviceTypeCPU, PreferredVectorFloat: 8, PreferredVectorDouble: 4}
	out = append(out, gemmDerived(cpu, prec, 1, 1))
	out = append(out, mmaDefaults(base, prec))
	return dedupeConfigs(out)
}

// dedupeConfigs drops repeated configurations, keeping the first.
func dedupeConfigs(cfgs []gemmConfig) []gemmConfig {
	var out []gemmConfig
	seen := map[string]bool{}
	for _, c := range cfgs {
		key := c.kernel + " " + strings.Join(c.defines(false, false, false), " ") + fmt.Sprint(c.mmaTrans)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, c)
	}
	return out
}

func init() {
	// gemm_mma.cl defines its own types, like gemm.cl.
	standalone[mmaFile] = true
}
