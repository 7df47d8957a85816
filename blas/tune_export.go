package clblas

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/kernels"
	"github.com/gocompute/opencl/platform"
)

// The tuner's hooks (cmd/tune): run one GEMM parameter set on the device
// with the library's own launch code, check it against gonum and time it,
// and write measured sets into the tuning database's format.

// TuneConfig is one candidate parameter set for a GEMM kernel: the kernel
// ("gemm_tiled", "gemm_direct", "gemm_cpu" or "gemm_mma") and its -D
// defines, as in kernels/gemm_tuning.json (PRECISION, TRANSA, TRANSB and
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

// ErrInvalidConfig is wrapped by the errors of TuneCheck: the candidate
// breaks a rule of the kernel source or a limit of the device.
var ErrInvalidConfig = errors.New("clblas: invalid GEMM parameter set")

// config turns t into a gemmConfig for device p, precision prec and an
// m×n×k GEMM, on top of the library's own choice (routes cleared).
func (t TuneConfig) config(db *tuningDB, p platform.Profile, prec, m, n, k int) gemmConfig {
	base := gemmChoose(db, p, prec, m, n, k, TensorOff)
	base.splitK, base.kslice = 0, 0
	switch t.Kernel {
	case gemmKernelTiled:
		return tiledConfig(base, t.Defines)
	case gemmKernelDirect:
		return directConfig(base, t.Defines)
	case gemmKernelCPU:
		cfg := base
		cfg.kernel = gemmKernelCPU
		if v := t.Defines["CPU_VEC"]; v > 0 {
			cfg = cpuRescale(cfg, v)
		}
		mb, nb := t.Defines["CPU_MB"], t.Defines["CPU_NB"]
		if mb > 0 && nb > 0 {
			for i := range cfg.cpuBlock {
				for j := range cfg.cpuBlock[i] {
					cfg.cpuBlock[i][j] = [2]int{mb, nb}
				}
			}
		}
		if l := t.Defines["CPU_LOCAL"]; l > 0 {
			cfg.cpuLocal = l
		}
		return cfg
	case gemmKernelMMA:
		return mmaConfig(base, prec, t.Defines)
	}
	base.kernel = t.Kernel
	return base
}

// TuneCheck reports whether candidate t is valid for precision prec and
// the transposes tA, tB on impl's device: the #error rules of the kernel
// source (gemm.cl's header, gemm_mma.cl's header) and the device's limits
// (work-group size, local memory, fp64, tensor cores).
func TuneCheck(impl *Implementation, prec int, tA, tB blas.Transpose, t TuneConfig) error {
	e, err := tuneEngine(impl, prec)
	if err != nil {
		return err
	}
	return gemmValid(e.prof, prec, tA != blas.NoTrans, tB != blas.NoTrans, t.config(e.tuning, e.prof, prec, 64, 64, 64))
}

// gemmValid checks cfg's kernel against its source's rules and p's limits.
func gemmValid(p platform.Profile, prec int, tA, tB bool, cfg gemmConfig) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidConfig, fmt.Sprintf(format, args...))
	}
	cfg = cfg.forTrans(tA, tB)
	maxWG := maxWorkGroup(p)
	vw := func(v int) bool {
		return v == 1 || v == 2 || v == 4 || v == 8 || (v == 16 && cfg.kernel == gemmKernelCPU)
	}
	switch cfg.kernel {
	case gemmKernelTiled:
		if cfg.mwg <= 0 || cfg.nwg <= 0 || cfg.kwg <= 0 || cfg.mdimc <= 0 || cfg.ndimc <= 0 {
			return bad("non-positive tile")
		}
		if !vw(cfg.vwm) || !vw(cfg.vwn) || !vw(cfg.vwa) || !vw(cfg.vwb) {
			return bad("vector widths must be 1, 2, 4 or 8")
		}
		nt := cfg.mdimc * cfg.ndimc
		switch {
		case cfg.mwg%(cfg.mdimc*cfg.vwm) != 0:
			return bad("MWG %% (MDIMC·VWM) != 0")
		case cfg.nwg%(cfg.ndimc*cfg.vwn) != 0:
			return bad("NWG %% (NDIMC·VWN) != 0")
		case (cfg.mwg*cfg.kwg)%(nt*cfg.vwa) != 0:
			return bad("MWG·KWG %% (MDIMC·NDIMC·VWA) != 0")
		case (cfg.nwg*cfg.kwg)%(nt*cfg.vwb) != 0:
			return bad("NWG·KWG %% (MDIMC·NDIMC·VWB) != 0")
		case !tA && cfg.kwg%cfg.vwa != 0, tA && cfg.mwg%cfg.vwa != 0:
			return bad("the contiguous side of the A tile is not a multiple of VWA")
		case tB && cfg.kwg%cfg.vwb != 0, !tB && cfg.nwg%cfg.vwb != 0:
			return bad("the contiguous side of the B tile is not a multiple of VWB")
		case cfg.pada%cfg.vwm != 0 || (tA && cfg.pada%cfg.vwa != 0):
			return bad("PADA must be a multiple of VWM (and of VWA when TRANSA=1)")
		case cfg.padb%cfg.vwn != 0 || (!tB && cfg.padb%cfg.vwb != 0):
			return bad("PADB must be a multiple of VWN (and of VWB when TRANSB=0)")
		case nt > maxWG:
			return bad("%d work-items > the device's %d", nt, maxWG)
		case p.LocalMemBytes > 0 && cfg.localBytes(prec) > p.LocalMemBytes:
			return bad("%d bytes of local memory > the device's %d", cfg.localBytes(prec), p.LocalMemBytes)
		}
	case gemmKernelDirect:
		if cfg.dm <= 0 || cfg.dn <= 0 || cfg.dmdimc <= 0 || cfg.dndimc <= 0 {
			return bad("non-positive direct block")
		}
		if cfg.dmdimc*cfg.dndimc > maxWG {
			return bad("%d work-items > the device's %d", cfg.dmdimc*cfg.dndimc, maxWG)
		}
	case gemmKernelCPU:
		cb := cfg.cpuBlock[l3Bool(tA)][l3Bool(tB)]
		vec := cfg.cpuVecFor(tA, tB)
		switch {
		case !vw(vec):
			return bad("CPU_VEC must be 1, 2, 4, 8 or 16")
		case cb[0] <= 0 || cb[1] <= 0:
			return bad("non-positive CPU block")
		case !tB && cb[1]%vec != 0:
			return bad("CPU_NB %% CPU_VEC != 0 with TRANSB=0")
		case tA && tB && cb[0]%vec != 0:
			return bad("CPU_MB %% CPU_VEC != 0 with TRANSA=TRANSB=1")
		case cfg.cpuLocal > maxWG:
			return bad("work-group %d > the device's %d", cfg.cpuLocal, maxWG)
		}
	case gemmKernelMMA:
		kmma := max(cfg.mmaK, 4)
		if prec == 32 {
			kmma = 8
		}
		nt := cfg.mmaThreads()
		switch {
		case !cfg.mmaEmulate && !tensorCapable(p):
			return bad("gemm_mma needs an NVIDIA device of compute capability >= 8.0")
		case cfg.wm <= 0 || cfg.wn <= 0 || cfg.wm%16 != 0 || cfg.wn%8 != 0:
			return bad("WM %% 16 and WN %% 8 must be 0")
		case cfg.mmaMWG%cfg.wm != 0 || cfg.mmaNWG%cfg.wn != 0 || cfg.mmaKWG <= 0 || cfg.mmaKWG%kmma != 0:
			return bad("MWG %% WM, NWG %% WN, KWG %% %d must be 0", kmma)
		case (cfg.mmaMWG*cfg.mmaKWG)%nt != 0 || (cfg.mmaNWG*cfg.mmaKWG)%nt != 0:
			return bad("MWG·KWG and NWG·KWG must be multiples of the thread count %d", nt)
		case cfg.stages != 0 && (cfg.stages < 2 || cfg.stages > 5):
			return bad("STAGES must be 2..5")
		case cfg.splitRaw && prec != 32:
			return bad("SPLIT_RAW is for the float (3xTF32) kernel")
		case cfg.mmaK != 0 && (prec != 64 || cfg.mmaK != 4 && cfg.mmaK != 8 && cfg.mmaK != 16):
			return bad("MMA_K (4, 8 or 16) is for the double kernel")
		case cfg.cpVec && cfg.mmaKWG&(cfg.mmaKWG-1) != 0:
			return bad("CP_VEC=1 needs KWG a power of two (its swizzled [m][k] / [n][k] tiles)")
		case cfg.pipeFrag && prec != 64:
			return bad("PIPE_FRAG is for the double kernel")
		case cfg.kmSwz && !cfg.cpVec:
			return bad("KM_SWZ=1 needs CP_VEC=1")
		case cfg.kmSwz && (cfg.mmaMWG%(1024/prec) != 0 || cfg.mmaNWG%(1024/prec) != 0):
			return bad("KM_SWZ=1 needs MWG and NWG multiples of %d (128 bytes: its swizzled [k][m] / [k][n] tiles)", 1024/prec)
		case nt > maxWG:
			return bad("%d work-items > the device's %d", nt, maxWG)
		case p.LocalMemBytes > 0 && cfg.mmaLocalBytes(prec) > p.LocalMemBytes:
			return bad("%d bytes of local memory > the device's %d", cfg.mmaLocalBytes(prec), p.LocalMemBytes)
		}
	default:
		return bad("unknown kernel %q", cfg.kernel)
	}
	if prec == 64 && !p.FP64 {
		return bad("the device has no fp64")
	}
	return nil
}

func tuneEngine(impl *Implementation, prec int) (*engine, error) {
	if prec == 64 {
		return engineFor[float64](impl)
	}
	return engineFor[float32](impl)
}

// TuneResult is what TuneGemm measured for one candidate.
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

// GemmBench is one GEMM problem resident on a device, for the tuner:
// random A, B and C in [-0.5, 0.5], and gonum's result to check against.
type GemmBench[T float32 | float64] struct {
	e             *engine
	tA, tB        blas.Transpose
	m, n, k       int
	lda, ldb, ldc int
	a, b, c       []T
	want          []T
	amax, bmax    float64
	da, db, dc    *cl.Buffer
}

// NewGemmBench puts an m×n×k GEMM with transposes tA, tB (lds equal to the
// stored widths) on impl's device.
func NewGemmBench[T float32 | float64](impl *Implementation, tA, tB blas.Transpose, m, n, k int) (*GemmBench[T], error) {
	e, err := engineFor[T](impl)
	if err != nil {
		return nil, err
	}
	if m <= 0 || n <= 0 || k <= 0 {
		return nil, fmt.Errorf("clblas: NewGemmBench(%d, %d, %d): %w", m, n, k, ErrShape)
	}
	g := &GemmBench[T]{e: e, tA: tA, tB: tB, m: m, n: n, k: k}
	ar, ac := stored(tA, m, k)
	br, bc := stored(tB, k, n)
	g.lda, g.ldb, g.ldc = ac, bc, n
	rnd := rand.New(rand.NewPCG(uint64(m), uint64(n)<<20|uint64(k)))
	fill := func(n int) ([]T, float64) {
		x := make([]T, n)
		mx := 0.0
		for i := range x {
			x[i] = T(rnd.Float64() - 0.5)
			mx = math.Max(mx, math.Abs(float64(x[i])))
		}
		return x, mx
	}
	g.a, g.amax = fill(ar * ac)
	g.b, g.bmax = fill(br * bc)
	g.c, _ = fill(m * n)
	g.want = slices.Clone(g.c)
	switch w := any(g.want).(type) {
	case []float64:
		native.Dgemm(tA, tB, m, n, k, 1, any(g.a).([]float64), g.lda, any(g.b).([]float64), g.ldb, 0.5, w, g.ldc)
	case []float32:
		native.Sgemm(tA, tB, m, n, k, 1, any(g.a).([]float32), g.lda, any(g.b).([]float32), g.ldb, 0.5, w, g.ldc)
	}
	ctx := e.rt.Context()
	for _, p := range []struct {
		dst  **cl.Buffer
		data []T
	}{{&g.da, g.a}, {&g.db, g.b}, {&g.dc, g.c}} {
		buf, err := ctx.CreateBuffer(cl.MemReadWrite, len(p.data)*elemSize[T]())
		if err != nil {
			g.Close()
			return nil, fmt.Errorf("clblas: NewGemmBench: %w", err)
		}
		*p.dst = buf
		ev, err := cl.WriteBuffer(e.queue, buf, true, 0, p.data)
		if err != nil {
			g.Close()
			return nil, fmt.Errorf("clblas: NewGemmBench: %w", err)
		}
		ev.Release()
	}
	return g, nil
}

// Close releases the device buffers.
func (g *GemmBench[T]) Close() error {
	var errs []error
	for _, b := range []*cl.Buffer{g.da, g.db, g.dc} {
		if b != nil {
			errs = append(errs, b.Release())
		}
	}
	g.da, g.db, g.dc = nil, nil, nil
	return errors.Join(errs...)
}

// Run compiles and runs candidate t once (C = A·B + 0.5·C from the
// original C), checks the result against gonum, and, if it is right, times
// runs batches of back-to-back launches (C = A·B + 0.5·C again: the data
// stays resident); Times holds each batch's time per launch. A
// candidate the kernel source or the device rejects returns an error
// wrapping ErrInvalidConfig; a build or launch failure returns its error.
func (g *GemmBench[T]) Run(t TuneConfig, runs int) (TuneResult, error) {
	var res TuneResult
	prec := precisionOf[T]()
	tA, tB := g.tA != blas.NoTrans, g.tB != blas.NoTrans
	cfg := t.config(g.e.tuning, g.e.prof, prec, g.m, g.n, g.k)
	if err := gemmValid(g.e.prof, prec, tA, tB, cfg); err != nil {
		return res, err
	}
	launch := func(gl *gemmLauncher[T]) {
		gl.gemm(cfg, tA, tB, g.m, g.n, g.k, 1, g.da, 0, g.lda, g.db, 0, g.ldb, 0.5, g.dc, 0, g.ldc)
	}
	// Restore C, run once, read back.
	c := begin[T](g.e, "TuneGemm")
	if c.err == nil {
		ev, err := cl.WriteBuffer(c.e.queue, g.dc, false, 0, g.c)
		if err != nil {
			c.fail(err)
		} else {
			c.events = append(c.events, ev)
		}
	}
	launch(newGemmLauncher[T](c))
	got := download[T](c, g.dc, len(g.c))
	if err := c.finish(); err != nil {
		return res, err
	}
	maxErr := 0.0
	for i := range got {
		d := math.Abs(float64(got[i]) - float64(g.want[i]))
		if math.IsNaN(d) {
			maxErr = math.Inf(1)
			break
		}
		maxErr = math.Max(maxErr, d)
	}
	res.RelErr = maxErr / (math.Sqrt(float64(g.k)) * math.Max(g.amax*g.bmax, math.SmallestNonzeroFloat64))
	tol := 1e-4
	if prec == 64 {
		tol = 1e-12
	}
	res.OK = res.RelErr <= tol
	if !res.OK {
		return res, nil
	}
	// A run is a batch of back-to-back launches lasting about a
	// millisecond, timed as a whole: small problems are judged by their
	// throughput, as the library runs them, not by one launch's latency.
	batch := 1
	for r := -1; r < runs; r++ {
		c := begin[T](g.e, "TuneGemm")
		gl := newGemmLauncher[T](c)
		start := time.Now()
		for range batch {
			launch(gl)
		}
		if c.err == nil {
			c.fail(c.e.queue.Finish())
		}
		d := time.Since(start)
		if err := c.finish(); err != nil {
			return res, err
		}
		if r < 0 { // sizing run
			batch = int(min(64, max(1, time.Millisecond/max(d, time.Microsecond))))
			continue
		}
		res.Times = append(res.Times, d/time.Duration(batch))
	}
	if len(res.Times) > 0 {
		s := slices.Clone(res.Times)
		slices.Sort(s)
		res.Median = s[len(s)/2]
		res.GFLOPS = 2 * float64(g.m) * float64(g.n) * float64(g.k) / res.Median.Seconds() / 1e9
	}
	return res, nil
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

// mmaBucket is the bucket of the database's gemm_mma entries.
const mmaBucket = "tensor"

// MMATransSwitches returns the gemm_mma switches a tuning entry may set per
// transpose combination (TuneEntry.Trans): those that change neither the
// tile nor the local memory.
func MMATransSwitches() []string { return slices.Clone(mmaTransKeys) }

// UpdateTuning returns the tuning database db (gemm_tuning.json's format;
// nil: the embedded one) with entries written for device p: the device's
// entry list (the first whose match fits p, else a new one matching its
// vendor, name and type) keeps its other entries and gets each new entry
// in place of one with the same precision, kernel and bucket or class (a
// gemm_mma entry in place of the device's gemm_mma entry of its precision,
// bucket "tensor", whatever bucket it came with, keeping that entry's
// "use").
func UpdateTuning(db []byte, p platform.Profile, measured string, entries []TuneEntry) ([]byte, error) {
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
	idx := -1
	for i, d := range devices {
		raw, _ := json.Marshal(d["match"])
		var m tuningMatch
		if json.Unmarshal(raw, &m) == nil && m.matches(p) {
			idx = i
			break
		}
	}
	if idx < 0 {
		typ := "GPU"
		if p.IsCPU() {
			typ = "CPU"
		}
		devices = append(devices, map[string]any{
			"match":   tuningMatch{Vendor: string(p.Vendor), Name: p.Name, Type: typ},
			"entries": []any{},
		})
		idx = len(devices) - 1
	}
	dev := devices[idx]
	if measured != "" {
		dev["measured"] = measured
	}
	old, _ := dev["entries"].([]any)
	for _, ne := range entries {
		if ne.Config.Kernel == gemmKernelMMA {
			// A device has one gemm_mma entry per precision, which
			// mmaGemm takes whatever its shape bucket: cmd/tune's shape
			// label would add a second one that is never read.
			ne.Bucket = mmaBucket
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
			if _, err := withTrans(gemmConfig{}, ne.Trans); err != nil {
				return nil, err
			}
			e["trans"] = ne.Trans
		}
		replaced := false
		for i, o := range old {
			om, _ := o.(map[string]any)
			if om == nil {
				continue
			}
			prec, _ := om["precision"].(float64)
			if int(prec) == ne.Precision && om["kernel"] == ne.Config.Kernel &&
				str(om["bucket"]) == ne.Bucket && str(om["class"]) == ne.Class {
				if u, ok := om["use"]; ok {
					// Whether a gemm_mma entry runs by default is a
					// policy the tuner does not measure: kept.
					e["use"] = u
				}
				old[i], replaced = e, true
				break
			}
		}
		if !replaced {
			old = append(old, e)
		}
	}
	dev["entries"] = old
	raw, err := json.Marshal(devices)
	if err != nil {
		return nil, err
	}
	top["devices"] = raw
	// Keep the database's own key order for the known keys.
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
	if err := json.Unmarshal([]byte(b.String()), new(tuningDB)); err != nil {
		return nil, fmt.Errorf("clblas: updated tuning database does not parse: %w", err)
	}
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
