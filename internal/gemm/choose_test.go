package gemm

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Device profiles of the selection tests.
var (
	profH200 = Device{Name: "NVIDIA H200", Vendor: "nvidia", VendorName: "NVIDIA Corporation",
		Platform: "NVIDIA CUDA", GPU: true, ComputeUnits: 132, MaxWorkGroupSize: 1024,
		LocalMemBytes: 48 << 10, FP64: true, ComputeCapability: [2]int{9, 0}}
	profPoCL = Device{Name: "pthread-skylake-avx512", Vendor: "pocl", Platform: "Portable Computing Language",
		CPU: true, ComputeUnits: 2, MaxWorkGroupSize: 4096, LocalMemBytes: 2 << 20, FP64: true,
		// A width the database overrides: the entries must win. (Not 8:
		// PoCL's AVX2 devices, which have a list of their own.)
		PreferredVectorFloat: 4, PreferredVectorDouble: 2}
)

// TestTuningDatabase checks what the database chooses for the H200 and for
// PoCL, with the tensor cores off (the FMA kernels of gemm.cl).
func TestTuningDatabase(t *testing.T) {
	type tiledWant struct{ mwg, nwg, kwg, mdimc, ndimc int }
	cases := []struct {
		prec    int
		m, n, k int
		want    tiledWant
	}{
		{32, 8192, 8192, 8192, tiledWant{128, 256, 16, 16, 16}}, // large
		{32, 2048, 2048, 2048, tiledWant{128, 256, 16, 16, 16}}, // large: 128 groups ≈ one wave
		{32, 1024, 1024, 1024, tiledWant{64, 128, 16, 8, 16}},   // medium
		{32, 512, 512, 512, tiledWant{32, 32, 32, 8, 8}},        // small
		{32, 8192, 64, 8192, tiledWant{32, 32, 16, 8, 8}},       // skinny
		{64, 8192, 8192, 8192, tiledWant{128, 128, 8, 16, 16}},
		{64, 1024, 1024, 1024, tiledWant{128, 64, 16, 16, 16}},
		{64, 64, 8192, 8192, tiledWant{64, 64, 16, 16, 16}}, // skinny
	}
	for _, tc := range cases {
		cfg := Choose(Builtin(), profH200, tc.prec, tc.m, tc.n, tc.k, TensorOff)
		got := tiledWant{cfg.MWG, cfg.NWG, cfg.KWG, cfg.MDIMC, cfg.NDIMC}
		if cfg.Kernel != KernelTiled || got != tc.want || cfg.SplitK != 0 {
			t.Errorf("H200 prec %d %dx%dx%d: %s %+v splitK %d, want gemm_tiled %+v", tc.prec, tc.m, tc.n, tc.k, cfg.Kernel, got, cfg.SplitK, tc.want)
		}
		// The H200's direct fallback comes from the database too.
		if cfg.DM != 2 || cfg.DN != 4 {
			t.Errorf("H200 prec %d: direct fields %d×%d, want the database's 2×4", tc.prec, cfg.DM, cfg.DN)
		}
		checkGemmConfig(t, fmt.Sprintf("H200 %+v", tc), profH200, tc.prec, cfg)
	}
	// The unaligned "large" case keeps its double buffering off, the
	// medium one on.
	if cfg := Choose(Builtin(), profH200, 32, 4096, 4096, 4096, TensorOff); cfg.DoubleBuffer {
		t.Errorf("H200 large: DOUBLE_BUFFER=1, the database says 0")
	}

	for _, prec := range []int{32, 64} {
		vec := 16
		if prec == 64 {
			vec = 8
		}
		for _, sh := range [][3]int{{3, 3, 3}, {1000, 1000, 1000}} {
			cfg := Choose(Builtin(), profPoCL, prec, sh[0], sh[1], sh[2], TensorAuto)
			if cfg.Kernel != KernelCPU || cfg.CPUVecFor(false, false) != vec || cfg.CPUVecFor(true, true) != vec || cfg.CPUVecFor(false, true) != vec {
				t.Fatalf("PoCL prec %d %v: %s vec %d %v, want gemm_cpu vec %d", prec, sh, cfg.Kernel, cfg.CPUVec, cfg.CPUVecs, vec)
			}
			want := [2][2][2]int{{{8, 2 * vec}, {4, 4}}, {{8, 2 * vec}, {2 * vec, 8}}}
			if cfg.CPUBlock != want {
				t.Errorf("PoCL prec %d: blocks %v, want %v", prec, cfg.CPUBlock, want)
			}
			checkGemmConfig(t, "PoCL", profPoCL, prec, cfg)
		}
	}
}

// TestTuningUnknownDevices checks the defaults derived for devices the
// database does not know: they fit the device's limits.
func TestTuningUnknownDevices(t *testing.T) {
	gpu := Device{Name: "Some GPU", Vendor: "amd", GPU: true, ComputeUnits: 60,
		MaxWorkGroupSize: 1024, LocalMemBytes: 64 << 10, FP64: true}
	smallWG := gpu
	smallWG.MaxWorkGroupSize = 128
	smallLM := gpu
	smallLM.LocalMemBytes = 12 << 10
	tinyLM := gpu
	tinyLM.LocalMemBytes = 2 << 10
	wg32 := gpu
	wg32.MaxWorkGroupSize = 32
	cpu := Device{Name: "Some CPU", CPU: true, ComputeUnits: 8, MaxWorkGroupSize: 1024,
		LocalMemBytes: 32 << 10, PreferredVectorFloat: 8, PreferredVectorDouble: 4, FP64: true}
	cases := []struct {
		name    string
		prof    Device
		m, n, k int
		kernel  string
		mwg     int // gemm_tiled's MWG, when kernel is gemm_tiled
	}{
		{"large", gpu, 4096, 4096, 4096, KernelTiled, 128},
		{"medium", gpu, 640, 640, 640, KernelTiled, 64},
		{"small", gpu, 100, 100, 100, KernelTiled, 32},
		{"small wg", smallWG, 4096, 4096, 4096, KernelTiled, 64},
		{"small local memory", smallLM, 4096, 4096, 4096, KernelTiled, 64},
		{"tiny local memory", tinyLM, 4096, 4096, 4096, KernelDirect, 0},
		{"32 work-items", wg32, 4096, 4096, 4096, KernelDirect, 0},
		{"cpu", cpu, 512, 512, 512, KernelCPU, 0},
	}
	for _, tc := range cases {
		for _, prec := range []int{32, 64} {
			what := fmt.Sprintf("%s prec %d", tc.name, prec)
			cfg := Choose(Builtin(), tc.prof, prec, tc.m, tc.n, tc.k, TensorAuto)
			if cfg.Kernel != tc.kernel || (tc.mwg != 0 && cfg.MWG != tc.mwg) {
				t.Errorf("%s: %s MWG %d, want %s MWG %d", what, cfg.Kernel, cfg.MWG, tc.kernel, tc.mwg)
			}
			if cfg.Kernel == KernelDirect && cfg.DMDIMC*cfg.DNDIMC > tc.prof.MaxWorkGroupSize {
				t.Errorf("%s: gemm_direct work-group %d×%d > %d", what, cfg.DMDIMC, cfg.DNDIMC, tc.prof.MaxWorkGroupSize)
			}
			checkGemmConfig(t, what, tc.prof, prec, cfg)
		}
	}
	// CPU_VEC follows the device's vector width.
	// Its blocks keep twelve vectors of accumulators (six rows, or
	// columns for TT, of two vectors).
	if cfg := Choose(Builtin(), cpu, 32, 64, 64, 64, TensorAuto); cfg.CPUVec != 8 || cfg.CPUBlock[0][0] != [2]int{6, 16} {
		t.Errorf("unknown CPU float: vec %d blocks %v, want 8 and 6×16", cfg.CPUVec, cfg.CPUBlock)
	}
	if cfg := Choose(Builtin(), cpu, 64, 64, 64, 64, TensorAuto); cfg.CPUVec != 4 || cfg.CPUBlock[1][1] != [2]int{8, 6} {
		t.Errorf("unknown CPU double: vec %d blocks %v, want 4 and 8×6 (TT)", cfg.CPUVec, cfg.CPUBlock)
	}
}

// TestTensorChoice checks when Choose picks gemm_mma.
func TestTensorChoice(t *testing.T) {
	ampere := profH200
	ampere.Name = "NVIDIA A100-SXM4-80GB" // not in the database: gemm_mma.cl's defaults
	ampere.ComputeCapability = [2]int{8, 0}
	turing := profH200
	turing.Name = "Tesla T4"
	turing.ComputeCapability = [2]int{7, 5}
	amd := profH200
	amd.Name, amd.Vendor, amd.VendorName, amd.ComputeCapability = "AMD Instinct MI210", "amd", "Advanced Micro Devices, Inc.", [2]int{}
	cases := []struct {
		name string
		prof Device
		mode Tensor
		prec int
		mn   int
		mma  bool
	}{
		{"H200 dgemm auto", profH200, TensorAuto, 64, 4096, true},
		{"H200 dgemm medium", profH200, TensorAuto, 64, 1024, true},
		{"H200 dgemm skinny", profH200, TensorAuto, 64, 64, false},
		{"H200 dgemm off", profH200, TensorOff, 64, 4096, false},
		{"H200 sgemm auto", profH200, TensorAuto, 32, 4096, true},
		{"A100 sgemm auto", ampere, TensorAuto, 32, 4096, false}, // 3xTF32 opt-in where unmeasured
		{"H200 sgemm tf32x3", profH200, TensorTF32x3, 32, 4096, true},
		{"H200 sgemm off", profH200, TensorOff, 32, 4096, false},
		{"A100 dgemm", ampere, TensorAuto, 64, 4096, true},
		{"T4 dgemm", turing, TensorAuto, 64, 4096, false},
		{"T4 sgemm tf32x3", turing, TensorTF32x3, 32, 4096, false},
		{"AMD dgemm", amd, TensorAuto, 64, 4096, false},
		{"AMD sgemm tf32x3", amd, TensorTF32x3, 32, 4096, false},
	}
	for _, tc := range cases {
		cfg := Choose(Builtin(), tc.prof, tc.prec, tc.mn, tc.mn, tc.mn, tc.mode)
		if got := cfg.Kernel == KernelMMA; got != tc.mma {
			t.Errorf("%s: kernel %s, want gemm_mma %v", tc.name, cfg.Kernel, tc.mma)
		}
		if cfg.Kernel != KernelMMA {
			checkGemmConfig(t, tc.name, tc.prof, tc.prec, cfg)
			continue
		}
		// The H200's entries: 16-byte copies in both precisions, DGEMM's
		// spread between the mma.sync (ISSUE_MIX), 3xTF32's not; 3xTF32's
		// tiles unpadded (KM_SWZ), DGEMM's padded.
		if tc.prof.Name == profH200.Name && (!cfg.CPVec || cfg.IssueMix != (tc.prec == 64) || cfg.KMSwz != (tc.prec == 32)) {
			t.Errorf("%s: CP_VEC %v ISSUE_MIX %v KM_SWZ %v, want CP_VEC, ISSUE_MIX for DGEMM only, KM_SWZ for 3xTF32 only", tc.name, cfg.CPVec, cfg.IssueMix, cfg.KMSwz)
		}
		want := [5]int{128, 64, 8, 64, 32}
		if tc.prec == 32 {
			want = [5]int{128, 64, 32, 64, 32}
		}
		if got := [5]int{cfg.MMAMWG, cfg.MMANWG, cfg.MMAKWG, cfg.WM, cfg.WN}; got != want {
			t.Errorf("%s: gemm_mma tile %v, want %v", tc.name, got, want)
		}
		global, local := cfg.Work(false, false, 1000, 1000)
		wantLocal := 128
		if local[0] != wantLocal || global[0] != ceilDiv(1000, want[1])*wantLocal || global[1] != ceilDiv(1000, 128) {
			t.Errorf("%s: work sizes %v %v", tc.name, global, local)
		}
		if cfg.MMALocalBytes(tc.prec) > tc.prof.LocalMemBytes {
			t.Errorf("%s: %d bytes of local memory", tc.name, cfg.MMALocalBytes(tc.prec))
		}
	}

	// GOCL_TENSOR's words, as New parses them.
	for _, env := range []struct {
		val        string
		mma32, mma bool
	}{{"", true, true}, {"auto", true, true}, {"off", false, false}, {"OFF", false, false}, {"on", true, true}, {"tf32x3", true, true}} {
		mode, err := ParseTensor(env.val)
		if err != nil {
			t.Errorf("GOCL_TENSOR=%q: %v", env.val, err)
		}
		if got := Choose(Builtin(), profH200, 64, 4096, 4096, 4096, mode).Kernel == KernelMMA; got != env.mma {
			t.Errorf("GOCL_TENSOR=%q: DGEMM on gemm_mma %v, want %v", env.val, got, env.mma)
		}
		if got := Choose(Builtin(), profH200, 32, 4096, 4096, 4096, mode).Kernel == KernelMMA; got != env.mma32 {
			t.Errorf("GOCL_TENSOR=%q: SGEMM on gemm_mma %v, want %v", env.val, got, env.mma32)
		}
	}
	if _, err := ParseTensor("bogus"); err == nil {
		t.Errorf("ParseTensor(bogus): no error")
	}
}

// TestSkinnyChoice checks the GEMV and split-K routes.
func TestSkinnyChoice(t *testing.T) {
	for _, prof := range []Device{profH200, profPoCL} {
		for _, sh := range [][3]int{{1, 300, 200}, {300, 1, 200}, {1, 1, 5}} {
			if cfg := Choose(Builtin(), prof, 64, sh[0], sh[1], sh[2], TensorAuto); cfg.Kernel != KernelGEMV {
				t.Errorf("%s %v: %s, want the gemv route", prof.Name, sh, cfg.Kernel)
			}
		}
	}
	for _, prec := range []int{32, 64} {
		// gemm_tiled and gemm_mma split K in one launch (SplitZ): every
		// slice of kc = ceil(k/(Z·step))·step non-empty, at least
		// SplitKMinK long, together covering k.
		cfg := Choose(Builtin(), profH200, prec, 64, 48, 5000, TensorAuto)
		if cfg.SplitZ < 2 || cfg.SplitK != 0 {
			t.Fatalf("H200 prec %d 64×48×5000: no split-K in one launch (%+v)", prec, cfg)
		}
		step := cfg.KWG
		if cfg.Kernel == KernelMMA {
			step = cfg.MMAKWG
		}
		kc := ceilDiv(5000, cfg.SplitZ*step) * step
		if kc < SplitKMinK || (cfg.SplitZ-1)*kc >= 5000 || cfg.SplitZ*kc < 5000 {
			t.Errorf("H200 prec %d: %d slices of %d for k = 5000", prec, cfg.SplitZ, kc)
		}
		// Long enough K: the slices reach about twice the compute units
		// (slices rounded up to whole K steps may leave a few fewer).
		cfg = Choose(Builtin(), profH200, prec, 64, 64, 100000, TensorAuto)
		if wg := cfg.WorkGroups(64, 64) * cfg.SplitZ; 8*wg < 7*2*profH200.ComputeUnits {
			t.Errorf("H200 prec %d 64×64×100000: %d slices × %d groups < 2×CUs", prec, cfg.SplitZ, cfg.WorkGroups(64, 64))
		}
		// The other kernels split K into launches of their own.
		cfg = WithSplitK(Choose(Builtin(), profPoCL, prec, 64, 48, 5000, TensorAuto), 5000, 4)
		if cfg.SplitK < 4 || cfg.KSlice%16 != 0 || (cfg.SplitK-1)*cfg.KSlice >= 5000 || cfg.SplitK*cfg.KSlice < 5000 {
			t.Errorf("PoCL prec %d: %d slices of %d for k = 5000", prec, cfg.SplitK, cfg.KSlice)
		}
		// No split when the device is full or K is short.
		for _, sh := range [][3]int{{4096, 4096, 100000}, {64, 48, 100}, {64, 48, 5000}} {
			prof := profH200
			if sh == [3]int{64, 48, 5000} {
				prof = profPoCL // two CUs: the CPU kernel's groups fill them
			}
			if cfg := Choose(Builtin(), prof, prec, sh[0], sh[1], sh[2], TensorAuto); cfg.SplitK != 0 || cfg.SplitZ != 0 {
				t.Errorf("%s prec %d %v: split-K %d / %d, want none", prof.Name, prec, sh, cfg.SplitK, cfg.SplitZ)
			}
		}
	}
}

// TestGemmMMAKValid: MMA_K is read from the database, passed as a define
// only when it is not 4, and refused for float, for values other than 4, 8
// and 16, and when KWG is not a multiple of it.
func TestGemmMMAKValid(t *testing.T) {
	if cfg := MMAConfig(Base(64, 8), 64, map[string]int{"MMA_K": 8}); cfg.MMAK != 8 ||
		!slices.Contains(cfg.Defines(false, false, false), "MMA_K=8") {
		t.Errorf("MMAConfig/defines: MMA_K=8 lost: %d %v", cfg.MMAK, cfg.Defines(false, false, false))
	}
	if d := MMADefaults(Base(64, 8), 64).Defines(false, false, false); slices.ContainsFunc(d, func(s string) bool { return strings.HasPrefix(s, "MMA_K") }) {
		t.Errorf("defines %v: MMA_K without a setting", d)
	}
	big := profH200
	big.LocalMemBytes = 1 << 20
	for _, tc := range []struct {
		prec, mmaK, kwg int
		ok              bool
	}{
		{64, 4, 8, true}, {64, 8, 8, true}, {64, 16, 16, true},
		{64, 16, 8, false}, {64, 12, 24, false}, {32, 8, 8, false},
	} {
		cfg := MMADefaults(Base(tc.prec, 8), tc.prec)
		cfg.MMAK, cfg.MMAKWG = tc.mmaK, tc.kwg
		if err := Valid(big, tc.prec, false, false, cfg); (err == nil) != tc.ok {
			t.Errorf("prec %d MMA_K %d KWG %d: Valid %v, want ok %v", tc.prec, tc.mmaK, tc.kwg, err, tc.ok)
		}
	}
}

// TestGemmMMASwitchesValid: the database keys ISSUE_MIX, KM_SWZ and
// PIPE_FRAG reach the defines, and Valid turns away the combinations
// the kernel rejects with #error: PIPE_FRAG for float, KM_SWZ without
// CP_VEC, KM_SWZ with tile widths that are not multiples of 128 bytes.
func TestGemmMMASwitchesValid(t *testing.T) {
	cfg := MMAConfig(Base(64, 8), 64, map[string]int{"CP_VEC": 1, "ISSUE_MIX": 1, "KM_SWZ": 1, "PIPE_FRAG": 1})
	for _, want := range []string{"ISSUE_MIX=1", "KM_SWZ=1", "PIPE_FRAG=1"} {
		if d := cfg.Defines(false, false, false); !slices.Contains(d, want) {
			t.Errorf("defines %v: %s lost", d, want)
		}
	}
	big := profH200
	big.LocalMemBytes = 1 << 20
	for _, tc := range []struct {
		name    string
		prec    int
		set     func(*Config)
		wantErr string // "" when valid
	}{
		{"double PIPE_FRAG", 64, func(c *Config) { c.PipeFrag = true }, ""},
		{"float PIPE_FRAG", 32, func(c *Config) { c.PipeFrag = true }, "PIPE_FRAG is for the double kernel"},
		{"KM_SWZ with CP_VEC", 64, func(c *Config) { c.CPVec, c.KMSwz = true, true }, ""},
		{"KM_SWZ alone", 64, func(c *Config) { c.KMSwz = true }, "KM_SWZ=1 needs CP_VEC=1"},
		{"KM_SWZ, float, 16-wide tile", 32, func(c *Config) {
			c.CPVec, c.KMSwz, c.MMAMWG, c.MMANWG, c.MMAKWG, c.WM, c.WN = true, true, 32, 16, 16, 16, 16
		}, "KM_SWZ=1 needs MWG and NWG multiples of 32"},
		{"CP_VEC, float, 16-wide tile", 32, func(c *Config) {
			c.CPVec, c.MMAMWG, c.MMANWG, c.MMAKWG, c.WM, c.WN = true, 32, 16, 16, 16, 16
		}, ""},
	} {
		cfg := MMADefaults(Base(tc.prec, 8), tc.prec)
		tc.set(&cfg)
		err := Valid(big, tc.prec, false, false, cfg)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: Valid %v, want valid", tc.name, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: Valid %v, want an error with %q", tc.name, err, tc.wantErr)
		}
	}
}

// TestReadTuning: GOCL_GEMM_TUNING's file replaces the embedded database;
// a missing or malformed file is an error naming the variable or the file
// (New then fails, naming the variable).
func TestReadTuning(t *testing.T) {
	embedded, err := Read("")
	if err != nil || len(embedded.Devices) == 0 {
		t.Fatalf("embedded database: %d devices, %v", len(embedded.Devices), err)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "db.json")
	if err := os.WriteFile(good, []byte(`{"schema": 1, "devices": [{"match": {"name": "X"}, "entries": []}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := Read(good)
	if err != nil || len(db.Devices) != 1 || db.Devices[0].Match.Name != "X" {
		t.Errorf("file database: %+v, %v", db, err)
	}
	if _, err := Read(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), envTuning) {
		t.Errorf("missing file: %v, want an error naming %s", err, envTuning)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"devices": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("malformed file: %v, want an error naming it", err)
	}
}

// TestMMATransSwitches: a gemm_mma entry's per-transpose switches
// (Entry.Trans) reach that combination's defines and validity check
// only, leave the tile alone, and a database with a key that may not be
// set per combination, or a bad combination name, is refused on reading.
func TestMMATransSwitches(t *testing.T) {
	base := MMAConfig(Base(64, 8), 64, map[string]int{"MWG": 128, "NWG": 64, "KWG": 8, "WM": 64, "WN": 32, "STAGES": 3, "CP_VEC": 1, "ISSUE_MIX": 1})
	cfg, err := WithTrans(base, map[string]map[string]int{"TN": {"ISSUE_MIX": 0, "PIPE_FRAG": 1}, "TT": {"PIPE_FRAG": 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tA, tB    bool
		mix, pipe bool
	}{
		{false, false, true, false}, {false, true, true, false}, // the entry's own
		{true, false, false, true}, // TN: both replaced
		{true, true, true, true},   // TT: ISSUE_MIX kept from the entry
	} {
		d := cfg.Defines(tc.tA, tc.tB, false)
		if slices.Contains(d, "ISSUE_MIX=1") != tc.mix || slices.Contains(d, "PIPE_FRAG=1") != tc.pipe {
			t.Errorf("TRANSA %v TRANSB %v: defines %v, want ISSUE_MIX %v PIPE_FRAG %v", tc.tA, tc.tB, d, tc.mix, tc.pipe)
		}
		if !slices.Contains(d, "MWG=128") || !slices.Contains(d, "NWG=64") {
			t.Errorf("TRANSA %v TRANSB %v: defines %v lost the tile", tc.tA, tc.tB, d)
		}
	}
	// PIPE_FRAG is for double: the float check sees the combination's own.
	f32 := MMADefaults(Base(32, 8), 32)
	f32, err = WithTrans(f32, map[string]map[string]int{"NT": {"PIPE_FRAG": 1}})
	if err != nil {
		t.Fatal(err)
	}
	big := profH200
	big.LocalMemBytes = 1 << 20
	if err := Valid(big, 32, false, false, f32); err != nil {
		t.Errorf("float NN: %v, want valid", err)
	}
	if err := Valid(big, 32, false, true, f32); err == nil || !strings.Contains(err.Error(), "PIPE_FRAG") {
		t.Errorf("float NT with PIPE_FRAG: %v, want an error naming PIPE_FRAG", err)
	}
	// The H200's DGEMM entry: TN fetches its fragments ahead, the other
	// combinations spread their copies.
	h := Choose(Builtin(), profH200, 64, 4096, 4096, 4096, TensorAuto)
	if tn, nn := h.ForTrans(true, false), h.ForTrans(false, false); !tn.PipeFrag || tn.IssueMix || nn.PipeFrag || !nn.IssueMix {
		t.Errorf("H200 DGEMM: TN PIPE_FRAG %v ISSUE_MIX %v, NN PIPE_FRAG %v ISSUE_MIX %v; want TN 1 0, NN 0 1", tn.PipeFrag, tn.IssueMix, nn.PipeFrag, nn.IssueMix)
	}
	dir := t.TempDir()
	for name, trans := range map[string]string{
		"key":  `{"TN": {"MWG": 64}}`,
		"comb": `{"TX": {"PIPE_FRAG": 1}}`,
	} {
		path := filepath.Join(dir, name+".json")
		db := `{"schema": 1, "devices": [{"match": {"name": "X"}, "entries": [{"precision": 64, "kernel": "gemm_mma", "defines": {}, "trans": ` + trans + `}]}]}`
		if err := os.WriteFile(path, []byte(db), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(path); err == nil {
			t.Errorf("database with trans %s: read without error", trans)
		}
	}
}

// TestWithoutCPVec: a call that CP_VEC=1 cannot copy runs a program that
// fits where the CP_VEC=1 one did. With KM_SWZ=1 CP_VEC=1's tiles are all
// unpadded, so 4 stages of a 128×64×8 double tile take exactly 48 KiB; the
// padded CP_VEC=0 tiles would take 49 664 bytes, and the fallback runs 3
// stages. Float falls back to the FMA kernel.
func TestWithoutCPVec(t *testing.T) {
	cfg := MMAConfig(Base(64, 8), 64, map[string]int{"MWG": 128, "NWG": 64, "KWG": 8, "WM": 64, "WN": 32, "STAGES": 4, "CP_VEC": 1, "KM_SWZ": 1})
	if padded := cfg.withKMSwz(false); padded.MMALocalBytes(64) <= 48<<10 {
		t.Errorf("CP_VEC=1 without KM_SWZ, 4 Stages: %d bytes, want over 48 KiB (padded k-major tiles)", padded.MMALocalBytes(64))
	}
	if got := cfg.MMALocalBytes(64); got != 48<<10 {
		t.Errorf("CP_VEC=1 128x64x8, 4 Stages: %d bytes of local memory, want %d", got, 48<<10)
	}
	fb := cfg.WithoutCPVec(64)
	if fb.CPVec || fb.Kernel != KernelMMA || fb.Stages != 3 || fb.MMALocalBytes(64) > 48<<10 {
		t.Errorf("double fallback %s: %d bytes, want CP_VEC=0 with 3 stages within 48 KiB", fb.Name(), fb.MMALocalBytes(64))
	}
	three := cfg
	three.Stages = 3
	if fb := three.WithoutCPVec(64); fb.Stages != 3 {
		t.Errorf("3 stages fit padded too, yet the fallback has %d", fb.Stages)
	}
	f := MMAConfig(Base(32, 8), 32, map[string]int{"MWG": 128, "NWG": 128, "KWG": 16, "WM": 64, "WN": 64, "STAGES": 3, "CP_VEC": 1, "KM_SWZ": 1})
	if got := f.MMALocalBytes(32); got != 48<<10 {
		t.Errorf("CP_VEC=1 float 128x128x16, 3 Stages: %d bytes, want %d", got, 48<<10)
	}
	if fb := f.WithoutCPVec(32); fb.Kernel != KernelTiled {
		t.Errorf("float fallback %s, want the FMA kernel", fb.Name())
	}
}

// withKMSwz is cfg with KM_SWZ set to on.
func (cfg Config) withKMSwz(on bool) Config {
	cfg.KMSwz = on
	return cfg
}

// TestTensorNeedsWorkGroups: the tensor-core kernel's large tiles are not
// chosen when they would leave most of the device idle.
func TestTensorNeedsWorkGroups(t *testing.T) {
	for _, tc := range []struct {
		n   int
		mma bool
	}{{512, false}, {768, true}, {1024, true}, {8192, true}} {
		cfg := Choose(Builtin(), profH200, 64, tc.n, tc.n, tc.n, TensorAuto)
		if got := cfg.Kernel == KernelMMA; got != tc.mma {
			t.Errorf("H200 DGEMM n=%d: kernel %s, want tensor cores %v", tc.n, cfg.Kernel, tc.mma)
		}
	}
}

// TestGemmParams checks gemmParams' choices on the test device and on
// made-up device profiles, and that every configuration it returns meets
// gemm.cl's constraints and the device's limits.
func TestGemmParams(t *testing.T) {
	gpu := Device{GPU: true, MaxWorkGroupSize: 1024, LocalMemBytes: 48 << 10, FP64: true}
	small := gpu
	small.MaxWorkGroupSize = 128
	tiny := gpu
	tiny.LocalMemBytes = 8 << 10
	none := gpu
	none.LocalMemBytes = 1 << 10
	cpu := Device{CPU: true, MaxWorkGroupSize: 4096, LocalMemBytes: 2 << 20}
	cases := []struct {
		name    string
		prof    Device
		m, n, k int
		want    string
	}{
		{"cpu small", cpu, 3, 3, 3, KernelCPU},
		{"cpu large", cpu, 4096, 4096, 4096, KernelCPU},
		// gemm_direct is a fallback only: a 32×32 gemm_tiled tile was
		// faster at every size measured (gemm_tuning.json).
		{"gpu small", gpu, 100, 100, 100, KernelTiled},
		{"gpu thin", gpu, 8, 100000, 4096, KernelTiled},
		{"gpu large", gpu, 1024, 1024, 1024, KernelTiled},
		{"gpu edge", gpu, 256, 256, 256, KernelTiled},
		{"small wg large", small, 1024, 1024, 1024, KernelTiled},
		{"tiny local mem", tiny, 1024, 1024, 1024, KernelTiled},
		{"no local mem", none, 1024, 1024, 1024, KernelDirect},
	}
	for _, tc := range cases {
		for _, prec := range []int{32, 64} {
			cfg := Choose(Builtin(), tc.prof, prec, tc.m, tc.n, tc.k, TensorAuto)
			if cfg.Kernel != tc.want {
				t.Errorf("%s, prec %d: kernel %s, want %s", tc.name, prec, cfg.Kernel, tc.want)
			}
			checkGemmConfig(t, fmt.Sprintf("%s prec %d", tc.name, prec), tc.prof, prec, cfg)
		}
	}
}

// checkGemmConfig checks cfg against the constraints gemm.cl states (its
// #error checks and the device limits).
func checkGemmConfig(t *testing.T, what string, prof Device, prec int, cfg Config) {
	t.Helper()
	vw := func(v int) bool { return v == 1 || v == 2 || v == 4 || v == 8 }
	if !vw(cfg.VWM) || !vw(cfg.VWN) || !vw(cfg.VWA) || !vw(cfg.VWB) {
		t.Errorf("%s: vector widths %+v", what, cfg)
	}
	nt := cfg.MDIMC * cfg.NDIMC
	for _, tA := range []bool{false, true} {
		for _, tB := range []bool{false, true} {
			ok := cfg.MWG%(cfg.MDIMC*cfg.VWM) == 0 && cfg.NWG%(cfg.NDIMC*cfg.VWN) == 0 &&
				(cfg.MWG*cfg.KWG)%(nt*cfg.VWA) == 0 && (cfg.NWG*cfg.KWG)%(nt*cfg.VWB) == 0 &&
				cfg.PADA%cfg.VWM == 0 && cfg.PADB%cfg.VWN == 0
			if tA {
				ok = ok && cfg.MWG%cfg.VWA == 0 && cfg.PADA%cfg.VWA == 0
			} else {
				ok = ok && cfg.KWG%cfg.VWA == 0
			}
			if tB {
				ok = ok && cfg.KWG%cfg.VWB == 0
			} else {
				ok = ok && cfg.NWG%cfg.VWB == 0 && cfg.PADB%cfg.VWB == 0
			}
			cb := cfg.CPUBlock[boolInt(tA)][boolInt(tB)]
			if !tB {
				ok = ok && cb[1]%cfg.CPUVecFor(tA, tB) == 0
			}
			if tA && tB {
				ok = ok && cb[0]%cfg.CPUVecFor(tA, tB) == 0
			}
			if !ok {
				t.Errorf("%s: tA=%v tB=%v: %+v breaks gemm.cl's constraints", what, tA, tB, cfg)
			}
		}
	}
	if cfg.Kernel == KernelTiled {
		if nt > prof.MaxWorkGroupSize {
			t.Errorf("%s: %d work-items per group > %d", what, nt, prof.MaxWorkGroupSize)
		}
		if cfg.LocalBytes(prec) > prof.LocalMemBytes {
			t.Errorf("%s: %d bytes of local memory > %d", what, cfg.LocalBytes(prec), prof.LocalMemBytes)
		}
	}
	if cfg.Kernel == KernelDirect && cfg.DMDIMC*cfg.DNDIMC > prof.MaxWorkGroupSize {
		t.Errorf("%s: direct: %d work-items per group > %d", what, cfg.DMDIMC*cfg.DNDIMC, prof.MaxWorkGroupSize)
	}
}

// TestComputeCapabilityMatch: the Hopper entries (compute_capability
// "9.0") are the H200's and every other part of that capability's,
// whatever its name, and no other architecture's; a malformed capability
// is refused on reading, by both databases' parsers.
func TestComputeCapabilityMatch(t *testing.T) {
	h100 := profH200
	h100.Name = "NVIDIA H100 80GB HBM3"
	ampere := profH200
	ampere.Name = "NVIDIA A100-SXM4-80GB"
	ampere.ComputeCapability = [2]int{8, 0}
	noCC := profH200
	noCC.ComputeCapability = [2]int{}
	for _, tc := range []struct {
		p    Device
		want bool
	}{{profH200, true}, {h100, true}, {ampere, false}, {noCC, false}} {
		es := Entries(Builtin(), tc.p, 32)
		tensor := slices.ContainsFunc(es, func(e Entry) bool { return e.Kernel == KernelMMA && e.Use == UseDefault })
		if tensor != tc.want {
			t.Errorf("%s cc %v: the database's default 3xTF32 entry %v, want %v", tc.p.Name, tc.p.ComputeCapability, tensor, tc.want)
		}
		if _, on := MMA(Builtin(), tc.p, 32, 4096, 4096, TensorAuto, Config{}); on != tc.want && tc.p.ComputeCapability[0] >= 8 {
			t.Errorf("%s: SGEMM 4096 on the tensor cores %v, want %v", tc.p.Name, on, tc.want)
		}
	}
	for _, cc := range []string{"9", "9.x", "09.0", "9.0.1", " 9.0"} {
		src := fmt.Sprintf(`{"schema": 1, "devices": [{"match": {"compute_capability": %q}, "entries": []}]}`, cc)
		if _, err := Parse([]byte(src), "db.json"); err == nil || !strings.Contains(err.Error(), "compute_capability") {
			t.Errorf("compute_capability %q: %v, want an error naming the field", cc, err)
		}
	}
}

// TestVectorWidthMatch checks that PoCL's AVX2 devices (float vectors of
// 8) take their own list, whose NT blocks differ, that other PoCL CPUs
// keep the list measured with AVX-512, and that a negative width is an
// error when the database is read.
func TestVectorWidthMatch(t *testing.T) {
	avx2, avx512 := profPoCL, profPoCL
	avx2.Name, avx2.PreferredVectorFloat, avx2.PreferredVectorDouble = "pthread-haswell-AMD EPYC", 8, 4
	avx512.PreferredVectorFloat, avx512.PreferredVectorDouble = 16, 8
	for _, tc := range []struct {
		p     Device
		prec  int
		block [2]int // NT's CPU_MB, CPU_NB
		vec   int
	}{{avx2, 64, [2]int{2, 4}, 4}, {avx2, 32, [2]int{2, 4}, 8}, {avx512, 64, [2]int{4, 4}, 8}, {avx512, 32, [2]int{4, 4}, 16}} {
		cfg := Choose(Builtin(), tc.p, tc.prec, 1000, 1000, 1000, TensorAuto)
		if got := cfg.CPUBlock[0][1]; got != tc.block || cfg.CPUVecFor(false, true) != tc.vec {
			t.Errorf("%s (float vectors of %d) prec %d: NT blocks %v vec %d, want %v vec %d",
				tc.p.Name, tc.p.PreferredVectorFloat, tc.prec, got, cfg.CPUVecFor(false, true), tc.block, tc.vec)
		}
		checkGemmConfig(t, tc.p.Name, tc.p, tc.prec, cfg)
	}
	src := `{"schema": 1, "devices": [{"match": {"preferred_vector_float": -8}, "entries": []}]}`
	if _, err := Parse([]byte(src), "db.json"); err == nil || !strings.Contains(err.Error(), "preferred_vector_float") {
		t.Errorf("preferred_vector_float -8: %v, want an error naming the field", err)
	}
}

// TestCPUClassNN checks that a gemm_cpu entry of class NN or TN sets the
// blocks of that transpose combination alone, over the N entry's for both,
// wherever it stands in the list; and the AVX2 list's NN, TN and TT
// blocks, which keep their accumulators within AVX2's 16 registers.
func TestCPUClassNN(t *testing.T) {
	cpu := func(class string, vec, mb, nb int) Entry {
		return Entry{Kernel: KernelCPU, Class: class, Defines: map[string]int{"CPU_VEC": vec, "CPU_MB": mb, "CPU_NB": nb}}
	}
	n, nn, tn := cpu("N", 8, 8, 16), cpu("NN", 4, 6, 8), cpu("TN", 2, 3, 4)
	for _, list := range [][]Entry{{n, nn, tn}, {nn, tn, n}, {tn, n, nn}} {
		cfg, ok := CPUConfig(Base(64, 8), list)
		if !ok {
			t.Fatalf("%v: no entry applied", list)
		}
		if cfg.CPUBlock[0][0] != [2]int{6, 8} || cfg.CPUVecFor(false, false) != 4 {
			t.Errorf("classes %s, %s, %s: NN blocks %v vec %d, want [6 8] vec 4", list[0].Class, list[1].Class, list[2].Class,
				cfg.CPUBlock[0][0], cfg.CPUVecFor(false, false))
		}
		if cfg.CPUBlock[1][0] != [2]int{3, 4} || cfg.CPUVecFor(true, false) != 2 {
			t.Errorf("classes %s, %s, %s: TN blocks %v vec %d, want [3 4] vec 2", list[0].Class, list[1].Class, list[2].Class,
				cfg.CPUBlock[1][0], cfg.CPUVecFor(true, false))
		}
	}
	cfg, _ := CPUConfig(Base(64, 8), []Entry{n, nn})
	if cfg.CPUBlock[1][0] != [2]int{8, 16} {
		t.Errorf("without a TN entry TN blocks %v, want N's [8 16]", cfg.CPUBlock[1][0])
	}
	avx2 := profPoCL
	avx2.Name, avx2.PreferredVectorFloat, avx2.PreferredVectorDouble = "pthread-haswell-AMD EPYC", 8, 4
	for _, tc := range []struct {
		prec       int
		nn, tn, tt [2]int // blocks: twelve vector accumulators or fewer
	}{{32, [2]int{6, 16}, [2]int{6, 16}, [2]int{16, 6}}, {64, [2]int{6, 8}, [2]int{6, 8}, [2]int{8, 6}}} {
		cfg := Choose(Builtin(), avx2, tc.prec, 1000, 1000, 1000, TensorAuto)
		if cfg.CPUBlock[0][0] != tc.nn || cfg.CPUBlock[1][0] != tc.tn || cfg.CPUBlock[1][1] != tc.tt {
			t.Errorf("AVX2 prec %d: NN blocks %v, TN %v and TT %v, want %v, %v and %v", tc.prec,
				cfg.CPUBlock[0][0], cfg.CPUBlock[1][0], cfg.CPUBlock[1][1], tc.nn, tc.tn, tc.tt)
		}
		checkGemmConfig(t, avx2.Name, avx2, tc.prec, cfg)
	}
}
