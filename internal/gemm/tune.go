package gemm

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gocompute/opencl/kernels"
)

// The tuner's hooks (cmd/tune): run one GEMM parameter set on the device
// with the library's own launch code, check it against gonum and time it,
// and write measured sets into the tuning database's format.

// TuneResult is what the tuner's benchmark (engine.GemmBench) measured
// for one candidate.
type TuneResult struct {
	// RelErr is max|C − C_gonum| / (√k·max|A|·max|B|); OK says whether it
	// is within the tolerance of the precision (1e-4 for float32, 1e-12
	// for float64) and free of NaN.
	RelErr float64
	OK     bool
	// Times holds the wall time per launch of each timed run (a batch of
	// back-to-back launches lasting about a millisecond, to completion;
	// data resident on the device, compilation excluded); Median is their
	// median and GFLOPS 2mnk / Median.
	Times  []time.Duration
	Median time.Duration
	GFLOPS float64
}

// TuneConfig is one candidate parameter set for a GEMM Kernel: the kernel
// ("gemm_tiled", "gemm_direct", "gemm_cpu" or "gemm_mma") and its -D
// Defines, as in kernels/gemm_tuning.json (PRECISION, TRANSA, TRANSB and
// VEC_ALIGNED are the host's). Defines left out keep the values the
// library would choose for the device.
type TuneConfig struct {
	Kernel  string
	Defines map[string]int
}

// String lists the kernel and its defines in a stable order.
func (t TuneConfig) String() string {
	keys := make([]string, 0, len(t.Defines))
	for k := range t.Defines {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := []string{t.Kernel}
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%d", k, t.Defines[k]))
	}
	return strings.Join(parts, " ")
}

// ErrInvalidConfig is wrapped by the errors of engine.TuneCheck: the candidate
// breaks a rule of the kernel source or a limit of the device.
var ErrInvalidConfig = errors.New("clblas: invalid GEMM parameter set")

// Config turns t into a Config for device p, precision prec and an
// m×n×k GEMM, on top of the library's own choice (routes cleared).
func (t TuneConfig) Config(db *DB, p Device, prec, m, n, k int) Config {
	base := Choose(db, p, prec, m, n, k, TensorOff)
	base.SplitK, base.KSlice = 0, 0
	switch t.Kernel {
	case KernelTiled:
		return TiledConfig(base, t.Defines)
	case KernelDirect:
		return DirectConfig(base, t.Defines)
	case KernelCPU:
		cfg := base
		cfg.Kernel = KernelCPU
		if v := t.Defines["CPU_VEC"]; v > 0 {
			cfg = CPURescale(cfg, v)
		}
		mb, nb := t.Defines["CPU_MB"], t.Defines["CPU_NB"]
		if mb > 0 && nb > 0 {
			for i := range cfg.CPUBlock {
				for j := range cfg.CPUBlock[i] {
					cfg.CPUBlock[i][j] = [2]int{mb, nb}
				}
			}
		}
		if l := t.Defines["CPU_LOCAL"]; l > 0 {
			cfg.CPULocal = l
		}
		return cfg
	case KernelMMA:
		return MMAConfig(base, prec, t.Defines)
	}
	base.Kernel = t.Kernel
	return base
}

// Valid checks cfg's kernel against its source's rules and p's limits.
func Valid(p Device, prec int, tA, tB bool, cfg Config) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidConfig, fmt.Sprintf(format, args...))
	}
	cfg = cfg.ForTrans(tA, tB)
	maxWG := MaxWorkGroup(p)
	vw := func(v int) bool {
		return v == 1 || v == 2 || v == 4 || v == 8 || (v == 16 && cfg.Kernel == KernelCPU)
	}
	switch cfg.Kernel {
	case KernelTiled:
		if cfg.MWG <= 0 || cfg.NWG <= 0 || cfg.KWG <= 0 || cfg.MDIMC <= 0 || cfg.NDIMC <= 0 {
			return bad("non-positive tile")
		}
		if !vw(cfg.VWM) || !vw(cfg.VWN) || !vw(cfg.VWA) || !vw(cfg.VWB) {
			return bad("vector widths must be 1, 2, 4 or 8")
		}
		nt := cfg.MDIMC * cfg.NDIMC
		switch {
		case cfg.MWG%(cfg.MDIMC*cfg.VWM) != 0:
			return bad("MWG %% (MDIMC·VWM) != 0")
		case cfg.NWG%(cfg.NDIMC*cfg.VWN) != 0:
			return bad("NWG %% (NDIMC·VWN) != 0")
		case (cfg.MWG*cfg.KWG)%(nt*cfg.VWA) != 0:
			return bad("MWG·KWG %% (MDIMC·NDIMC·VWA) != 0")
		case (cfg.NWG*cfg.KWG)%(nt*cfg.VWB) != 0:
			return bad("NWG·KWG %% (MDIMC·NDIMC·VWB) != 0")
		case !tA && cfg.KWG%cfg.VWA != 0, tA && cfg.MWG%cfg.VWA != 0:
			return bad("the contiguous side of the A tile is not a multiple of VWA")
		case tB && cfg.KWG%cfg.VWB != 0, !tB && cfg.NWG%cfg.VWB != 0:
			return bad("the contiguous side of the B tile is not a multiple of VWB")
		case cfg.PADA%cfg.VWM != 0 || (tA && cfg.PADA%cfg.VWA != 0):
			return bad("PADA must be a multiple of VWM (and of VWA when TRANSA=1)")
		case cfg.PADB%cfg.VWN != 0 || (!tB && cfg.PADB%cfg.VWB != 0):
			return bad("PADB must be a multiple of VWN (and of VWB when TRANSB=0)")
		case nt > maxWG:
			return bad("%d work-items > the device's %d", nt, maxWG)
		case p.LocalMemBytes > 0 && cfg.LocalBytes(prec) > p.LocalMemBytes:
			return bad("%d bytes of local memory > the device's %d", cfg.LocalBytes(prec), p.LocalMemBytes)
		}
	case KernelDirect:
		if cfg.DM <= 0 || cfg.DN <= 0 || cfg.DMDIMC <= 0 || cfg.DNDIMC <= 0 {
			return bad("non-positive direct block")
		}
		if cfg.DMDIMC*cfg.DNDIMC > maxWG {
			return bad("%d work-items > the device's %d", cfg.DMDIMC*cfg.DNDIMC, maxWG)
		}
	case KernelCPU:
		cb := cfg.CPUBlock[boolInt(tA)][boolInt(tB)]
		vec := cfg.CPUVecFor(tA, tB)
		switch {
		case !vw(vec):
			return bad("CPU_VEC must be 1, 2, 4, 8 or 16")
		case cb[0] <= 0 || cb[1] <= 0:
			return bad("non-positive CPU block")
		case !tB && cb[1]%vec != 0:
			return bad("CPU_NB %% CPU_VEC != 0 with TRANSB=0")
		case tA && tB && cb[0]%vec != 0:
			return bad("CPU_MB %% CPU_VEC != 0 with TRANSA=TRANSB=1")
		case cfg.CPULocal > maxWG:
			return bad("work-group %d > the device's %d", cfg.CPULocal, maxWG)
		}
	case KernelMMA:
		kmma := max(cfg.MMAK, 4)
		if prec == 32 {
			kmma = 8
		}
		nt := cfg.MMAThreads()
		switch {
		case !cfg.MMAEmulate && !TensorCapable(p):
			return bad("gemm_mma needs an NVIDIA device of compute capability >= 8.0")
		case cfg.WM <= 0 || cfg.WN <= 0 || cfg.WM%16 != 0 || cfg.WN%8 != 0:
			return bad("WM %% 16 and WN %% 8 must be 0")
		case cfg.MMAMWG%cfg.WM != 0 || cfg.MMANWG%cfg.WN != 0 || cfg.MMAKWG <= 0 || cfg.MMAKWG%kmma != 0:
			return bad("MWG %% WM, NWG %% WN, KWG %% %d must be 0", kmma)
		case (cfg.MMAMWG*cfg.MMAKWG)%nt != 0 || (cfg.MMANWG*cfg.MMAKWG)%nt != 0:
			return bad("MWG·KWG and NWG·KWG must be multiples of the thread count %d", nt)
		case cfg.Stages != 0 && (cfg.Stages < 2 || cfg.Stages > 5):
			return bad("STAGES must be 2..5")
		case cfg.SplitRaw && prec != 32:
			return bad("SPLIT_RAW is for the float (3xTF32) kernel")
		case cfg.MMAK != 0 && (prec != 64 || cfg.MMAK != 4 && cfg.MMAK != 8 && cfg.MMAK != 16):
			return bad("MMA_K (4, 8 or 16) is for the double kernel")
		case cfg.CPVec && cfg.MMAKWG&(cfg.MMAKWG-1) != 0:
			return bad("CP_VEC=1 needs KWG a power of two (its swizzled [m][k] / [n][k] tiles)")
		case cfg.PipeFrag && prec != 64:
			return bad("PIPE_FRAG is for the double kernel")
		case cfg.KMSwz && !cfg.CPVec:
			return bad("KM_SWZ=1 needs CP_VEC=1")
		case cfg.WarpsK < 0 || cfg.WarpsK > 1 && (cfg.MMAKWG/kmma)%cfg.WarpsK != 0:
			return bad("WARPS_K must divide KWG / %d (the K sub-steps of a K tile)", kmma)
		case cfg.WarpsK > 1 && cfg.PipeFrag:
			return bad("PIPE_FRAG needs WARPS_K = 1")
		case cfg.Z3M && (prec != 32 || !cfg.CPVec || tB || cfg.MMAKWG%16 != 0 || (cfg.MMAKWG/16)%max(cfg.WarpsK, 1) != 0 || cfg.WN%16 != 0):
			return bad("Z3M needs float, CP_VEC=1, B untransposed, KWG a multiple of 16 that WARPS_K divides by 16, and WN a multiple of 16")
		case cfg.KMSwz && (cfg.MMAMWG%(1024/prec) != 0 || cfg.MMANWG%(1024/prec) != 0):
			return bad("KM_SWZ=1 needs MWG and NWG multiples of %d (128 bytes: its swizzled [k][m] / [k][n] tiles)", 1024/prec)
		case nt > maxWG:
			return bad("%d work-items > the device's %d", nt, maxWG)
		case p.LocalMemBytes > 0 && cfg.MMALocalBytes(prec) > p.LocalMemBytes:
			return bad("%d bytes of local memory > the device's %d", cfg.MMALocalBytes(prec), p.LocalMemBytes)
		}
	default:
		return bad("unknown kernel %q", cfg.Kernel)
	}
	if prec == 64 && !p.FP64 {
		return bad("the device has no fp64")
	}
	return nil
}

// TuneEntry is one measured parameter set for the database: the winner of
// a precision and a shape bucket (GPUs) or transpose class (CPUs).
type TuneEntry struct {
	Precision int
	Bucket    string // GPU shape bucket ("large", "medium", ...), or ""
	Class     string // CPU transpose class ("N", "TT", "NT"), or ""
	Config    TuneConfig
	Local     []int
	GFLOPS    map[string]map[string]float64 // transposes → size → GFLOP/s
	Note      string
	// Trans (gemm_mma): per transpose combination ("TN"), switches that
	// replace Config's for that combination; only MMATransSwitches may
	// appear (the database's "trans" field).
	Trans map[string]map[string]int
}

// MMABucket is the bucket of the database's gemm_mma entries.
const MMABucket = "tensor"

// MMATransSwitches returns the gemm_mma switches a tuning entry may set per
// transpose combination (TuneEntry.Trans): those that change neither the
// tile nor the local memory.
func MMATransSwitches() []string { return slices.Clone(MMATransKeys) }

// UpdateTuning returns the tuning database db (gemm_tuning.json's format;
// nil: the embedded one) with entries written for device p: the device's
// entry list (the first whose match fits p, else a new one matching its
// vendor, name and type) keeps its other entries and gets each new entry
// in place of one with the same precision, kernel and bucket or class (a
// gemm_mma entry in place of the device's gemm_mma entry of its precision,
// bucket "tensor", whatever bucket it came with, keeping that entry's
// "use").
func UpdateTuning(db []byte, p Device, measured string, entries []TuneEntry) ([]byte, error) {
	if db == nil {
		db = kernels.GemmTuning
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(db, &top); err != nil {
		return nil, fmt.Errorf("clblas: tuning database: %w", err)
	}
	var devices []map[string]any
	if raw, ok := top["devices"]; ok {
		if err := json.Unmarshal(raw, &devices); err != nil {
			return nil, fmt.Errorf("clblas: tuning database devices: %w", err)
		}
	}
	devices, idx := deviceEntry(devices, p)
	dev := devices[idx]
	if measured != "" {
		dev["measured"] = measured
	}
	old, _ := dev["entries"].([]any)
	for _, ne := range entries {
		e, err := entryJSON(ne)
		if err != nil {
			return nil, err
		}
		old = putEntry(old, ne, e)
	}
	dev["entries"] = old
	raw, err := json.Marshal(devices)
	if err != nil {
		return nil, err
	}
	top["devices"] = raw
	out, err := marshalTop(top)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(out, new(DB)); err != nil {
		return nil, fmt.Errorf("clblas: updated tuning database does not parse: %w", err)
	}
	return out, nil
}

// deviceEntry returns devices with an entry list for p, and its index:
// the first whose match fits p, else a new one matching its vendor, name
// and type. Where the first that fits names no device (a family's list,
// such as compute capability 9.0's or every PoCL CPU's), p gets a list of
// its own just before it, starting as a copy of the family's entries, so
// that what one part measured does not replace what the others take.
func deviceEntry(devices []map[string]any, p Device) ([]map[string]any, int) {
	typ := "GPU"
	if p.IsCPU() {
		typ = "CPU"
	}
	own := func(entries []any) map[string]any {
		return map[string]any{"match": Match{Vendor: string(p.Vendor), Name: p.Name, Type: typ}, "entries": entries}
	}
	for i, d := range devices {
		raw, _ := json.Marshal(d["match"])
		var m Match
		if json.Unmarshal(raw, &m) != nil || !m.Matches(p) {
			continue
		}
		if m.Name != "" || p.Name == "" {
			return devices, i
		}
		var entries []any
		family, _ := json.Marshal(d["entries"])
		json.Unmarshal(family, &entries) // a deep copy
		dev := own(entries)
		dev["copied"] = "the entries not tuned for this device are copies of those matching " + string(raw)
		return slices.Insert(devices, i, dev), i
	}
	return append(devices, own([]any{})), len(devices)
}

// entryJSON is ne as the database writes an entry.
func entryJSON(ne TuneEntry) (map[string]any, error) {
	if ne.Config.Kernel == KernelMMA {
		// A device has one gemm_mma entry per precision, which MMA takes
		// whatever its shape bucket: cmd/tune's shape label would add a
		// second one that is never read.
		ne.Bucket = MMABucket
	}
	e := map[string]any{"precision": ne.Precision, "kernel": ne.Config.Kernel, "defines": ne.Config.Defines}
	if ne.Bucket != "" {
		e["bucket"] = ne.Bucket
	}
	if ne.Class != "" {
		e["class"] = ne.Class
	}
	if len(ne.Local) > 0 {
		e["local"] = ne.Local
	}
	if len(ne.GFLOPS) > 0 {
		e["gflops"] = ne.GFLOPS
	}
	if ne.Note != "" {
		e["note"] = ne.Note
	}
	if len(ne.Trans) > 0 {
		if _, err := WithTrans(Config{}, ne.Trans); err != nil {
			return nil, err
		}
		e["trans"] = ne.Trans
	}
	return e, nil
}

// putEntry puts e (written from ne) into the entry list old, in place of
// the entry of the same precision, kernel and bucket or class, if any.
func putEntry(old []any, ne TuneEntry, e map[string]any) []any {
	bucket := ne.Bucket
	if ne.Config.Kernel == KernelMMA {
		bucket = MMABucket
	}
	for i, o := range old {
		om, _ := o.(map[string]any)
		if om == nil {
			continue
		}
		prec, _ := om["precision"].(float64)
		if int(prec) == ne.Precision && om["kernel"] == ne.Config.Kernel &&
			str(om["bucket"]) == bucket && str(om["class"]) == ne.Class {
			if u, ok := om["use"]; ok {
				// Whether a gemm_mma entry runs by default is a policy
				// the tuner does not measure: kept.
				e["use"] = u
			}
			old[i] = e
			return old
		}
	}
	return append(old, e)
}

// marshalTop writes the database's top level, keeping its own key order
// for the known keys.
func marshalTop(top map[string]json.RawMessage) ([]byte, error) {
	var b strings.Builder
	b.WriteString("{\n")
	keys := []string{"schema", "source", "about", "selection", "devices"}
	for k := range top {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	first := true
	for _, k := range keys {
		v, ok := top[k]
		if !ok {
			continue
		}
		if !first {
			b.WriteString(",\n")
		}
		first = false
		out, err := indentJSON(v)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "  %q: %s", k, out)
	}
	b.WriteString("\n}\n")
	return []byte(b.String()), nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// indentJSON indents a JSON value by two spaces, nested one level.
func indentJSON(v json.RawMessage) (string, error) {
	var x any
	if err := json.Unmarshal(v, &x); err != nil {
		return "", err
	}
	out, err := json.MarshalIndent(x, "  ", "  ")
	return string(out), err
}
