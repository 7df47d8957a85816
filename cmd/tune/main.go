// Command tune searches GEMM kernel parameters for one OpenCL device and
// writes the winners into the tuning database's format
// (kernels/gemm_tuning.json); with -kernel level1, it searches the launch
// shape of the level 1 and GEMV kernels instead and writes
// kernels/l12_tuning.json's format (level1.go says how).
//
//	go run ./cmd/tune -prec 32 -shapes large=4096,medium=1024,small=512,skinny=8192x64x8192
//	go run ./cmd/tune -device pocl -prec 64 -kernel cpu -space small -out /tmp/tuning.json
//	go run ./cmd/tune -kernel level1 -prec 32,64 -budget 240s -out /tmp/l12.json
//
// For each shape (a GPU bucket, labelled "name=MxNxK") or, with -kernel
// cpu, each transpose class (N, TT, NT), every candidate of the parameter
// space that the kernel source's rules and the device's limits allow is
// compiled, run once and checked against gonum (mismatches are rejected and
// reported), then timed: the median of -runs launches on device-resident
// data. The best candidate of each shape or class becomes an entry of the
// device (matched as the library matches it; a new device gets a
// vendor/name/type match), replacing an entry of the same precision,
// kernel and bucket or class; other entries and devices are kept. The
// database read is -db (default: the one built into the library); the
// result goes to -out, or standard output.
//
// With -kernel mma, -trans may list several combinations (-trans NN,TN,NT,TT):
// each is tuned, and the entry takes the tile with the best geometric mean
// over them, the first combination's switches, and, in its "trans" field,
// the switches (ISSUE_MIX, PIPE_FRAG) of each other combination whose best
// variant of that tile has other ones.
//
// Parameter spaces (-space full; "small" is a quick subset):
//
//	tiled:  MWG, NWG ∈ {32,64,128,256}, KWG ∈ {8,16,32}, MDIMC, NDIMC ∈ {8,16,32},
//	        VWM = VWN = VWA = VWB = PADA = PADB ∈ {1,2,4}, DOUBLE_BUFFER ∈ {0,1}
//	cpu:    CPU_VEC ∈ {4,8,16}, CPU_MB ∈ {2,4,6,8,16,32}, CPU_NB ∈ {4,8,12,16,24,32,64}
//	direct: DM, DN ∈ {1,2,4,8}, DMDIMC, DNDIMC ∈ {8,16}
//	mma:    MWG, NWG ∈ {64,128,256}, KWG ∈ {4,8,16,32}, WM, WN ∈ {32,64}, STAGES ∈ {2,3,4,5},
//	        CP_VEC ∈ {0,1} (16-byte cp.async copies; the library falls back to
//	        CP_VEC=0 for unaligned calls, the tuner's are aligned when the stored
//	        widths are multiples of 2 doubles / 4 floats), and for float
//	        SPLIT_RAW ∈ {0,1} (3xTF32's small parts unrounded); for double MMA_K ∈
//	        {4,8,16} (the k of each f64 mma.sync), ISSUE_MIX ∈ {0,1} (a K tile's
//	        copies spread between the mma.sync of the step before), KM_SWZ ∈
//	        {0,1} with CP_VEC=1 (k-major tiles unpadded and swizzled), for double
//	        PIPE_FRAG ∈ {0,1} (fragments loaded a K sub-step ahead)
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"maps"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/internal/gemm"
	"github.com/gocompute/opencl/internal/gemm/profile"
	"github.com/gocompute/opencl/internal/l12tuning"
	"github.com/gocompute/opencl/platform"
)

// shape is one tuning problem: a bucket label and its m×n×k.
type shape struct {
	label   string
	m, n, k int
}

func (s shape) size() string {
	if s.m == s.n && s.n == s.k {
		return strconv.Itoa(s.m)
	}
	return fmt.Sprintf("%dx%dx%d", s.m, s.n, s.k)
}

func parseShapes(spec string) ([]shape, error) {
	var out []shape
	for _, f := range strings.Split(spec, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		label, dims, ok := strings.Cut(f, "=")
		if !ok {
			label, dims = "", f
		}
		parts := strings.Split(dims, "x")
		var v []int
		for _, p := range parts {
			x, err := strconv.Atoi(p)
			if err != nil || x <= 0 {
				return nil, fmt.Errorf("bad shape %q (want [label=]N or [label=]MxNxK)", f)
			}
			v = append(v, x)
		}
		var s shape
		switch len(v) {
		case 1:
			s = shape{label, v[0], v[0], v[0]}
		case 3:
			s = shape{label, v[0], v[1], v[2]}
		default:
			return nil, fmt.Errorf("bad shape %q (want [label=]N or [label=]MxNxK)", f)
		}
		if s.label == "" {
			s.label = "n" + s.size()
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no shapes")
	}
	return out, nil
}

// product returns every combination of the values of each name.
func product(names []string, values [][]int, add func(map[string]int)) {
	idx := make([]int, len(names))
	for {
		d := map[string]int{}
		for i, n := range names {
			d[n] = values[i][idx[i]]
		}
		add(d)
		i := len(idx) - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < len(values[i]) {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return
		}
	}
}

// candidates lists the parameter space of a kernel.
func candidates(kernel string, prec int, small bool) []gemm.TuneConfig {
	var out []gemm.TuneConfig
	add := func(d map[string]int) { out = append(out, gemm.TuneConfig{Kernel: "gemm_" + kernel, Defines: d}) }
	switch kernel {
	case "tiled":
		tiles, kwg, dims, vws, dbs := []int{32, 64, 128, 256}, []int{8, 16, 32}, []int{8, 16, 32}, []int{1, 2, 4}, []int{0, 1}
		if small {
			tiles, kwg, dims, vws, dbs = []int{32, 64}, []int{8, 16}, []int{8}, []int{2, 4}, []int{1}
		}
		product([]string{"MWG", "NWG", "KWG", "MDIMC", "NDIMC", "VW", "DOUBLE_BUFFER"},
			[][]int{tiles, tiles, kwg, dims, dims, vws, dbs}, func(d map[string]int) {
				vw := d["VW"]
				delete(d, "VW")
				for _, k := range []string{"VWM", "VWN", "VWA", "VWB", "PADA", "PADB"} {
					d[k] = vw
				}
				add(d)
			})
	case "cpu":
		// Blocks of 6 rows, and of 12 or 24 columns (three vectors of 4
		// or 8): shapes whose accumulators fit AVX2's 16 vector
		// registers, as the AVX2 list's NN blocks do (BENCHMARKS.md,
		// "PoCL 3.1 on an AVX2 machine: GEMM's N blocks").
		vec, mb, nb := []int{4, 8, 16}, []int{2, 4, 6, 8, 16, 32}, []int{4, 8, 12, 16, 24, 32, 64}
		if small {
			vec, mb, nb = []int{8, 16}, []int{4, 8}, []int{16, 32}
		}
		product([]string{"CPU_VEC", "CPU_MB", "CPU_NB"}, [][]int{vec, mb, nb}, add)
	case "direct":
		b, d := []int{1, 2, 4, 8}, []int{8, 16}
		if small {
			b = []int{2, 4}
		}
		product([]string{"DM", "DN", "DMDIMC", "DNDIMC"}, [][]int{b, b, d, d}, add)
	case "mma":
		t, k, w, st, raw, mk, pipe := []int{64, 128, 256}, []int{4, 8, 16, 32}, []int{32, 64}, []int{2, 3, 4, 5}, []int{0}, []int{4, 8, 16}, []int{0, 1}
		if prec == 32 {
			raw, mk, pipe = []int{0, 1}, []int{4}, []int{0}
		}
		if small {
			t, k, st = []int{128}, []int{8, 16}, []int{3}
		}
		product([]string{"MWG", "NWG", "KWG", "WM", "WN", "STAGES", "CP_VEC", "SPLIT_RAW", "MMA_K", "ISSUE_MIX", "KM_SWZ", "PIPE_FRAG"}, [][]int{t, t, k, w, w, st, {0, 1}, raw, mk, {0, 1}, {0, 1}, pipe}, func(d map[string]int) {
			if d["KM_SWZ"] == 1 && d["CP_VEC"] == 0 {
				return
			}
			// A switch at its default stays out of the defines.
			for key, def := range switchDefaults {
				if d[key] == def {
					delete(d, key)
				}
			}
			add(d)
		})
	}
	return out
}

// parseWhere parses -where: KEY=v1|v2,… into the allowed values by key.
func parseWhere(s string) (map[string][]int, error) {
	keep := map[string][]int{}
	for _, part := range strings.Split(s, ",") {
		key, vals, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || key == "" {
			return nil, fmt.Errorf("bad term %q (want KEY=v1|v2)", part)
		}
		for _, v := range strings.Split(vals, "|") {
			n, err := strconv.Atoi(v)
			if err != nil {
				return nil, fmt.Errorf("bad value %q of %s", v, key)
			}
			keep[key] = append(keep[key], n)
		}
	}
	return keep, nil
}

// switchDefaults are the values of gemm_mma's switches that a candidate
// leaves out of its defines when it takes them (the kernel's defaults).
var switchDefaults = map[string]int{"CP_VEC": 0, "SPLIT_RAW": 0, "ISSUE_MIX": 0, "KM_SWZ": 0, "PIPE_FRAG": 0, "MMA_K": 4}

// filterCandidates keeps the candidates whose defines take allowed values.
// A switch a candidate leaves out has its default value (CP_VEC=1 drops
// the candidates without 16-byte copies); any other key a candidate does
// not define does not restrict it.
func filterCandidates(cands []gemm.TuneConfig, keep map[string][]int) []gemm.TuneConfig {
	var out []gemm.TuneConfig
next:
	for _, c := range cands {
		for key, vals := range keep {
			v, ok := c.Defines[key]
			if !ok {
				v, ok = switchDefaults[key]
			}
			if ok && !slices.Contains(vals, v) {
				continue next
			}
		}
		out = append(out, c)
	}
	return out
}

// transpose classes of the CPU kernel and the combination each is tuned on.
var cpuClasses = []struct{ class, trans string }{{"N", "NN"}, {"TT", "TT"}, {"NT", "NT"}}

func parseTrans(s string) (blas.Transpose, blas.Transpose, error) {
	if len(s) != 2 {
		return 0, 0, fmt.Errorf("bad transpose combination %q (want NN, NT, TN or TT)", s)
	}
	t := func(c byte) (blas.Transpose, error) {
		switch c {
		case 'N', 'n':
			return blas.NoTrans, nil
		case 'T', 't':
			return blas.Trans, nil
		}
		return 0, fmt.Errorf("bad transpose combination %q", s)
	}
	a, err := t(s[0])
	if err != nil {
		return 0, 0, err
	}
	b, err := t(s[1])
	return a, b, err
}

// progress counts candidates on standard error: a progress bar on a
// terminal, or (-bar=false, the default elsewhere) one line per tenth.
type progress interface {
	Add(int) error
	Finish() error
}

type lines struct {
	w          io.Writer
	what       string
	done, tot  int
	lastTenths int
}

func (l *lines) Add(n int) error {
	l.done += n
	if t := l.done * 10 / max(l.tot, 1); t != l.lastTenths || l.done == l.tot {
		l.lastTenths = t
		fmt.Fprintf(l.w, "%s: %d/%d\n", l.what, l.done, l.tot)
	}
	return nil
}

func (l *lines) Finish() error { return nil }

func newProgress(bar bool, total int, what string) progress {
	if !bar {
		return &lines{w: os.Stderr, what: what, tot: total}
	}
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(os.Stderr) }),
	)
}

// outcome is one timed candidate.
type outcome struct {
	cfg gemm.TuneConfig
	res gemm.TuneResult
}

type tuner struct {
	eng    *engine.Engine
	prec   int
	runs   int
	bar    bool
	limit  int
	report io.Writer

	verbose  bool      // a line per candidate
	deadline time.Time // zero: none (-budget)
}

// tune runs every valid candidate on one shape and transpose combination
// and returns the timed ones, best first.
func (t *tuner) tune(cands []gemm.TuneConfig, sh shape, trans string) ([]outcome, error) {
	tA, tB, err := parseTrans(trans)
	if err != nil {
		return nil, err
	}
	var valid []gemm.TuneConfig
	invalid := 0
	for _, c := range cands {
		if err := engine.TuneCheck(t.eng, t.prec, tA, tB, c); err != nil {
			invalid++
			continue
		}
		valid = append(valid, c)
	}
	if t.limit > 0 && len(valid) > t.limit {
		valid = valid[:t.limit]
	}
	fmt.Fprintf(t.report, "%s %s %s: %d candidates, %d break the kernel's rules or the device's limits, %d to run\n",
		sh.label, sh.size(), trans, len(cands), invalid, len(valid))
	run := func(c gemm.TuneConfig, g interface {
		Run(gemm.TuneConfig, int) (gemm.TuneResult, error)
	}) (gemm.TuneResult, error) {
		return g.Run(c, t.runs)
	}
	var bench interface {
		Run(gemm.TuneConfig, int) (gemm.TuneResult, error)
		Close() error
	}
	if t.prec == 64 {
		bench, err = engine.NewGemmBench[float64](t.eng, tA, tB, sh.m, sh.n, sh.k)
	} else {
		bench, err = engine.NewGemmBench[float32](t.eng, tA, tB, sh.m, sh.n, sh.k)
	}
	if err != nil {
		return nil, err
	}
	defer bench.Close()
	bar := newProgress(t.bar, len(valid), fmt.Sprintf("%s %s", sh.label, trans))
	var out []outcome
	var rejected, failed []string
	for i, c := range valid {
		if !t.deadline.IsZero() && time.Now().After(t.deadline) {
			fmt.Fprintf(t.report, "  -budget spent: stopped after %d of %d candidates\n", i, len(valid))
			break
		}
		res, err := run(c, bench)
		bar.Add(1)
		if t.verbose && err == nil {
			fmt.Fprintf(t.report, "  %8.1f GFLOP/s ok=%v %v\n", res.GFLOPS, res.OK, c)
		}
		switch {
		case err != nil:
			failed = append(failed, fmt.Sprintf("%v: %v", c, firstLine(err.Error())))
		case !res.OK:
			rejected = append(rejected, fmt.Sprintf("%v: relative error %.3g", c, res.RelErr))
		default:
			out = append(out, outcome{c, res})
		}
	}
	bar.Finish()
	for _, r := range rejected {
		fmt.Fprintf(t.report, "  REJECTED (wrong result) %s\n", r)
	}
	for _, f := range failed {
		fmt.Fprintf(t.report, "  FAILED %s\n", f)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].res.Median < out[j].res.Median })
	for i, o := range out {
		if i == 5 {
			break
		}
		fmt.Fprintf(t.report, "  #%d %8.1f GFLOP/s (median %v, err %.2g) %v\n", i+1, o.res.GFLOPS, o.res.Median.Round(time.Microsecond), o.res.RelErr, o.cfg)
	}
	return out, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// localOf is the work-group shape the database records for a candidate.
func localOf(c gemm.TuneConfig) []int {
	d := c.Defines
	switch c.Kernel {
	case "gemm_tiled":
		return []int{d["NDIMC"], d["MDIMC"]}
	case "gemm_direct":
		return []int{d["DNDIMC"], d["DMDIMC"]}
	case "gemm_mma":
		if d["WM"] > 0 && d["WN"] > 0 {
			return []int{32 * (d["MWG"] / d["WM"]) * (d["NWG"] / d["WN"]), 1}
		}
	}
	return nil
}

func main() {
	deviceSpec := flag.String("device", "", "device to tune (a GOCL_DEVICE spec: vendor, type, P:D or a name substring; default: the default device)")
	precFlag := flag.String("prec", "32", "precision: 32 or 64 (-kernel level1: a list, 32,64)")
	kernel := flag.String("kernel", "auto", "kernel to tune: tiled, cpu, direct, mma (auto: cpu on CPU devices, tiled elsewhere), or level1 (level2: the same) for the level 1 and GEMV launch shape (level1.go)")
	l1n := flag.Int("n", 0, "-kernel level1: vector length (0: 2^26 on GPUs, 2^22 on CPUs)")
	l1m := flag.Int("m", 0, "-kernel level1: GEMV's matrix order (0: 8192 on GPUs, 2048 on CPUs; -1: no GEMV)")
	l1ops := flag.String("ops", "axpy,copy,scal,swap,dot,nrm2,asum,iamax,gemv-n,gemv-t", "-kernel level1: the routines timed and scored ("+strings.Join(engine.L1Ops, ",")+")")
	shapesFlag := flag.String("shapes", "", "shapes [label=]N or [label=]MxNxK, comma-separated (default: large=4096,medium=1024,small=512,skinny=8192x64x8192 on GPUs, 1024 on CPUs)")
	transFlag := flag.String("trans", "NN", "transpose combination to tune on (GPU kernels; the CPU kernel tunes its classes N, TT, NT); for -kernel mma a list (NN,TN,...) chooses one tile for all and per-combination switches")
	space := flag.String("space", "full", "parameter space: full or small")
	runs := flag.Int("runs", 5, "timed launches per candidate (the median counts)")
	limit := flag.Int("max", 0, "run at most this many valid candidates per shape (0: all)")
	dbPath := flag.String("db", "", "tuning database to update (default: the one built into the library; -kernel level1: kernels/l12_tuning.json's)")
	outPath := flag.String("out", "", "write the updated database here (default: standard output)")
	useBar := flag.Bool("bar", isTerminal(os.Stderr), "show a progress bar (default: when standard error is a terminal; false: a line per tenth)")
	budget := flag.Duration("budget", 0, "stop running candidates after this long and keep the best so far (0: no limit)")
	verbose := flag.Bool("v", false, "print every candidate's result as it is measured")
	where := flag.String("where", "", "keep only candidates whose defines take these values, e.g. MWG=32|64,MDIMC=8|16 (applied to the -space)")
	flag.Parse()

	var precs []int
	for _, f := range strings.Split(*precFlag, ",") {
		p, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || (p != 32 && p != 64) {
			log.Fatalf("tune: -prec %q: want 32, 64 or (-kernel level1) 32,64", *precFlag)
		}
		precs = append(precs, p)
	}
	isL1 := *kernel == "level1" || *kernel == "level2"
	if len(precs) != 1 && !isL1 {
		log.Fatalf("tune: several precisions are for -kernel level1")
	}
	prec := &precs[0]
	var dev *platform.Device
	var err error
	if *deviceSpec != "" {
		dev, err = platform.Select(*deviceSpec)
	} else {
		dev, err = platform.Default()
	}
	if err != nil {
		log.Fatalf("tune: %v", err)
	}
	prof := dev.Profile()
	e, err := engine.OpenEnv(dev)
	if err != nil {
		log.Fatalf("tune: %v", err)
	}
	defer e.Close()

	if isL1 {
		n, m := level1Defaults(prof, *l1n, *l1m)
		var ops []string
		for _, op := range strings.Split(*l1ops, ",") {
			op = strings.ToLower(strings.TrimSpace(op))
			if !slices.Contains(engine.L1Ops, op) {
				log.Fatalf("tune: -ops: no routine %q (have %s)", op, strings.Join(engine.L1Ops, ","))
			}
			if m > 0 || !strings.HasPrefix(op, "gemv") {
				ops = append(ops, op)
			}
		}
		cfg := l1Config{precs: precs, n: n, m: m, ops: ops, runs: *runs, budget: *budget, verbose: *verbose, report: os.Stderr,
			reopen: func() (*engine.Engine, error) { return engine.OpenEnv(dev) }}
		start := time.Now()
		entries, err := tuneLevel1(e, cfg)
		if err != nil {
			log.Fatalf("tune: %v", err)
		}
		var src []byte
		if *dbPath != "" {
			if src, err = os.ReadFile(*dbPath); err != nil {
				log.Fatalf("tune: %v", err)
			}
		}
		measured := fmt.Sprintf("%s, cmd/tune -kernel level1, %s %s, %d CUs", time.Now().Format("2006-01-02"), prof.Platform, prof.DriverVersion, prof.ComputeUnits)
		res, err := l12tuning.Update(src, profile.Device(prof), measured, entries)
		if err != nil {
			log.Fatalf("tune: %v", err)
		}
		fmt.Fprintf(os.Stderr, "done in %v\n", time.Since(start).Round(time.Second))
		writeOut(*outPath, res)
		return
	}

	k := *kernel
	if k == "auto" {
		k = "tiled"
		if prof.IsCPU() {
			k = "cpu"
		}
	}
	cands := candidates(k, *prec, *space == "small")
	if len(cands) == 0 {
		log.Fatalf("tune: unknown kernel %q (want tiled, cpu, direct or mma)", k)
	}
	if *where != "" {
		keep, err := parseWhere(*where)
		if err != nil {
			log.Fatalf("tune: -where: %v", err)
		}
		cands = filterCandidates(cands, keep)
		if len(cands) == 0 {
			log.Fatalf("tune: -where %s leaves no candidate", *where)
		}
	}
	spec := *shapesFlag
	if spec == "" {
		spec = "large=4096,medium=1024,small=512,skinny=8192x64x8192"
		if prof.IsCPU() {
			spec = "1024"
		}
	}
	shapes, err := parseShapes(spec)
	if err != nil {
		log.Fatalf("tune: %v", err)
	}
	var db []byte
	if *dbPath != "" {
		if db, err = os.ReadFile(*dbPath); err != nil {
			log.Fatalf("tune: %v", err)
		}
	}

	t := &tuner{eng: e, prec: *prec, runs: *runs, bar: *useBar, limit: *limit, report: os.Stderr, verbose: *verbose}
	if *budget > 0 {
		t.deadline = time.Now().Add(*budget)
	}
	fmt.Fprintf(t.report, "tuning gemm_%s, float%d, on %s (%s), %d candidates in the %s space\n",
		k, *prec, prof.Name, prof.Platform, len(cands), *space)
	start := time.Now()
	var entries []gemm.TuneEntry
	type job struct {
		sh           shape
		trans, class string
	}
	var jobs []job
	combos := strings.Split(strings.ToUpper(strings.ReplaceAll(*transFlag, " ", "")), ",")
	if len(combos) > 1 && k != "mma" {
		log.Fatalf("tune: several -trans combinations are for -kernel mma (its switches may differ per combination)")
	}
	for _, sh := range shapes {
		switch {
		case k == "cpu":
			for _, c := range cpuClasses {
				jobs = append(jobs, job{sh, c.trans, c.class})
			}
		case len(combos) > 1:
			e, ok := t.tuneCombos(cands, sh, combos, *space)
			if ok {
				entries = append(entries, e)
			}
		default:
			jobs = append(jobs, job{sh, combos[0], ""})
		}
	}
	for _, j := range jobs {
		out, err := t.tune(cands, j.sh, j.trans)
		if err != nil {
			log.Fatalf("tune: %v", err)
		}
		if len(out) == 0 {
			fmt.Fprintf(t.report, "  no valid candidate for %s %s\n", j.sh.label, j.trans)
			continue
		}
		best := out[0]
		e := gemm.TuneEntry{
			Precision: *prec, Config: best.cfg, Local: localOf(best.cfg),
			GFLOPS: map[string]map[string]float64{j.trans: {j.sh.size(): float64(int(best.res.GFLOPS*10)) / 10}},
			Note:   fmt.Sprintf("cmd/tune, %s space, median of %d runs, relative error %.2g", *space, *runs, best.res.RelErr),
		}
		if k == "cpu" {
			e.Class = j.class
		} else {
			e.Bucket = j.sh.label
		}
		entries = append(entries, e)
	}
	measured := fmt.Sprintf("%s, cmd/tune, %s %s, %d CUs", time.Now().Format("2006-01-02"), prof.Platform, prof.DriverVersion, prof.ComputeUnits)
	res, err := gemm.UpdateTuning(db, profile.Device(prof), measured, entries)
	if err != nil {
		log.Fatalf("tune: %v", err)
	}
	fmt.Fprintf(t.report, "done in %v\n", time.Since(start).Round(time.Second))
	writeOut(*outPath, res)
}

// writeOut writes the updated database to path, or standard output.
func writeOut(path string, res []byte) {
	if path == "" {
		os.Stdout.Write(res)
		return
	}
	if err := os.WriteFile(path, res, 0o644); err != nil {
		log.Fatalf("tune: %v", err)
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", path)
}

// tuneCombos tunes gemm_mma on one shape in several transpose combinations
// and makes one entry of them (mergeTrans): the tile best over all the
// combinations, with the switches each combination does best with.
func (t *tuner) tuneCombos(cands []gemm.TuneConfig, sh shape, combos []string, space string) (gemm.TuneEntry, bool) {
	outs := map[string][]outcome{}
	for _, c := range combos {
		out, err := t.tune(cands, sh, c)
		if err != nil {
			log.Fatalf("tune: %v", err)
		}
		outs[c] = out
	}
	m, ok := mergeTrans(combos, outs)
	if !ok {
		fmt.Fprintf(t.report, "  no tile ran in every combination of %v for %s\n", combos, sh.label)
		return gemm.TuneEntry{}, false
	}
	gf := map[string]map[string]float64{}
	for c, v := range m.gflops {
		gf[c] = map[string]float64{sh.size(): float64(int(v*10)) / 10}
	}
	fmt.Fprintf(t.report, "  %v: %v, per combination %v, GFLOP/s %v\n", combos, m.cfg, m.trans, m.gflops)
	return gemm.TuneEntry{
		Precision: t.prec, Bucket: sh.label, Config: m.cfg, Local: localOf(m.cfg), GFLOPS: gf, Trans: m.trans,
		Note: fmt.Sprintf("cmd/tune, %s space, median of %d runs, transpose combinations %s: the tile with the best geometric mean, switches per combination", space, t.runs, strings.Join(combos, ",")),
	}, true
}

// merged is mergeTrans's choice.
type merged struct {
	cfg    gemm.TuneConfig           // the tile, with the first combination's switches
	trans  map[string]map[string]int // other combinations' switches, where they differ
	gflops map[string]float64        // each combination's rate with its switches
}

// mergeTrans chooses, from one shape's outcomes in several transpose
// combinations (combos; outs[c] best first), the gemm_mma tile that does
// best over all of them: for each tile (a candidate's defines less the
// per-combination switches, gemm.MMATransSwitches) that ran in every
// combination, the geometric mean of each combination's best variant. The
// entry takes the first combination's best variant; another combination
// whose best variant has other switches gets them in trans. ok is false
// when no tile ran in every combination.
func mergeTrans(combos []string, outs map[string][]outcome) (merged, bool) {
	switches := gemm.MMATransSwitches()
	tileOf := func(c gemm.TuneConfig) string {
		d := maps.Clone(c.Defines)
		for _, k := range switches {
			delete(d, k)
		}
		return gemm.TuneConfig{Kernel: c.Kernel, Defines: d}.String()
	}
	switchesOf := func(c gemm.TuneConfig) map[string]int {
		m := map[string]int{}
		for _, k := range switches {
			m[k] = c.Defines[k] // absent: the kernel's default, 0
		}
		return m
	}
	best := map[string]map[string]outcome{} // combination → tile → best variant
	for _, c := range combos {
		best[c] = map[string]outcome{}
		for _, o := range outs[c] {
			if _, seen := best[c][tileOf(o.cfg)]; !seen {
				best[c][tileOf(o.cfg)] = o
			}
		}
	}
	var tile string
	score := 0.0
	for _, o := range outs[combos[0]] {
		key := tileOf(o.cfg)
		logSum, all := 0.0, true
		for _, c := range combos {
			b, ok := best[c][key]
			if !ok || b.res.GFLOPS <= 0 {
				all = false
				break
			}
			logSum += math.Log(b.res.GFLOPS)
		}
		if g := math.Exp(logSum / float64(len(combos))); all && g > score {
			tile, score = key, g
		}
	}
	if tile == "" {
		return merged{}, false
	}
	m := merged{cfg: best[combos[0]][tile].cfg, trans: map[string]map[string]int{}, gflops: map[string]float64{}}
	base := switchesOf(m.cfg)
	for _, c := range combos {
		b := best[c][tile]
		m.gflops[c] = b.res.GFLOPS
		if sw := switchesOf(b.cfg); !maps.Equal(sw, base) {
			m.trans[c] = sw
		}
	}
	return m, true
}
