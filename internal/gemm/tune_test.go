package gemm

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
)

// TestUpdateTuning checks that the tuner's output is a database the
// library reads: a new device gets its own entry list, an entry of a
// known device replaces the one of the same precision, kernel and bucket.
func TestUpdateTuning(t *testing.T) {
	gpu := Device{Name: "Test GPU 9000", Vendor: "amd", GPU: true,
		ComputeUnits: 4, MaxWorkGroupSize: 256, LocalMemBytes: 64 << 10}
	large := TuneEntry{Precision: 32, Bucket: "large", Config: TuneConfig{Kernel: KernelTiled,
		Defines: map[string]int{"MWG": 64, "NWG": 64, "KWG": 32, "MDIMC": 16, "NDIMC": 16, "VWM": 2, "VWN": 2, "VWA": 2, "VWB": 2, "PADA": 2, "PADB": 2, "DOUBLE_BUFFER": 1}},
		Local: []int{16, 16}, GFLOPS: map[string]map[string]float64{"NN": {"4096": 1234.5}}}
	out, err := UpdateTuning(nil, gpu, "today", []TuneEntry{large})
	if err != nil {
		t.Fatalf("UpdateTuning: %v", err)
	}
	var db DB
	if err := json.Unmarshal(out, &db); err != nil {
		t.Fatalf("the output does not parse: %v", err)
	}
	orig := Builtin()
	if len(db.Devices) != len(orig.Devices)+1 {
		t.Fatalf("%d devices, want %d", len(db.Devices), len(orig.Devices)+1)
	}
	dev := db.Devices[len(db.Devices)-1]
	if !dev.Match.Matches(gpu) || len(dev.Entries) != 1 || dev.Entries[0].Defines["KWG"] != 32 {
		t.Fatalf("new device: %+v", dev)
	}
	// The H200 takes compute capability 9.0's list: it gets its own
	// before it, a copy with the large float entry replaced, and the
	// family's list stays as it was for the other parts.
	out, err = UpdateTuning(nil, profH200, "", []TuneEntry{large})
	if err != nil {
		t.Fatalf("UpdateTuning: %v", err)
	}
	db = DB{}
	if err := json.Unmarshal(out, &db); err != nil {
		t.Fatalf("the output does not parse: %v", err)
	}
	if len(db.Devices) != len(orig.Devices)+1 || db.Devices[0].Match.Name != profH200.Name ||
		len(db.Devices[0].Entries) != len(orig.Devices[0].Entries) || !reflect.DeepEqual(db.Devices[1], orig.Devices[0]) {
		t.Fatalf("the H200's list: %+v first of %d lists; want its own, a copy of the family's, before it", db.Devices[0].Match, len(db.Devices))
	}
	large32 := func(d DBDevice) Entry {
		for _, e := range d.Entries {
			if e.Precision == 32 && e.Bucket == "large" {
				return e
			}
		}
		return Entry{}
	}
	if e := large32(db.Devices[0]); e.Defines["MWG"] != 64 || e.Defines["KWG"] != 32 {
		t.Errorf("the H200's large float entry was not replaced: %v", e.Defines)
	}
	// Tuned again, the H200's own list is updated in place.
	again, err := UpdateTuning(out, profH200, "", []TuneEntry{large})
	if err != nil {
		t.Fatalf("UpdateTuning: %v", err)
	}
	db2 := DB{}
	if err := json.Unmarshal(again, &db2); err != nil || len(db2.Devices) != len(db.Devices) {
		t.Fatalf("a second update: %d lists, %v; want %d", len(db2.Devices), err, len(db.Devices))
	}
	// The other keys of the database survive.
	var top map[string]json.RawMessage
	json.Unmarshal(out, &top)
	for _, k := range []string{"schema", "source", "about", "selection", "devices"} {
		if _, ok := top[k]; !ok {
			t.Errorf("key %q lost", k)
		}
	}
}

// TestUpdateTuningTrans: a gemm_mma entry replaces the device's one of its
// precision (bucket "tensor", whatever bucket it came with), keeping its
// "use"; its
// per-combination switches are written as the database's "trans" field,
// read back as such, and a switch that may not be set per combination is
// refused.
func TestUpdateTuningTrans(t *testing.T) {
	// cmd/tune labels entries by its shape; a gemm_mma entry still replaces
	// the device's one gemm_mma entry of its precision.
	mma := TuneEntry{Precision: 64, Bucket: "large", Config: TuneConfig{Kernel: KernelMMA,
		Defines: map[string]int{"MWG": 128, "NWG": 64, "KWG": 8, "WM": 64, "WN": 32, "STAGES": 3, "CP_VEC": 1, "ISSUE_MIX": 1}},
		Trans: map[string]map[string]int{"TN": {"ISSUE_MIX": 0, "PIPE_FRAG": 1}}}
	out, err := UpdateTuning(nil, profH200, "", []TuneEntry{mma})
	if err != nil {
		t.Fatalf("UpdateTuning: %v", err)
	}
	var db DB
	if err := json.Unmarshal(out, &db); err != nil {
		t.Fatalf("the output does not parse: %v", err)
	}
	found, n := false, 0
	for _, e := range db.Devices[0].Entries {
		if e.Kernel == KernelMMA && e.Precision == 64 {
			n++
			found = e.Bucket == "tensor" && e.Trans["TN"]["PIPE_FRAG"] == 1 && e.Trans["TN"]["ISSUE_MIX"] == 0 && len(e.Trans) == 1
		}
	}
	if n != 1 {
		t.Errorf("%d DGEMM gemm_mma entries, want 1 (the one replaced)", n)
	}
	if !found {
		t.Errorf("the DGEMM gemm_mma entry lost its trans field")
	}
	// The float entry keeps its "use": 3xTF32 stays the H200's default.
	f32 := TuneEntry{Precision: 32, Bucket: "large", Config: TuneConfig{Kernel: KernelMMA,
		Defines: map[string]int{"MWG": 128, "NWG": 128, "KWG": 16, "WM": 64, "WN": 64, "STAGES": 2, "CP_VEC": 1}}}
	if out, err = UpdateTuning(nil, profH200, "", []TuneEntry{f32}); err != nil {
		t.Fatalf("UpdateTuning: %v", err)
	}
	db = DB{}
	if err := json.Unmarshal(out, &db); err != nil {
		t.Fatalf("the output does not parse: %v", err)
	}
	for _, e := range db.Devices[0].Entries {
		if e.Kernel == KernelMMA && e.Precision == 32 && (e.Use != UseDefault || e.Defines["MWG"] != 128 || e.Defines["NWG"] != 128) {
			t.Errorf("replaced float gemm_mma entry: use %q, defines %v; want use default and the new tile", e.Use, e.Defines)
		}
	}
	if got := MMATransSwitches(); !slices.Equal(got, []string{"ISSUE_MIX", "PIPE_FRAG"}) {
		t.Errorf("MMATransSwitches() = %v", got)
	}
	mma.Trans = map[string]map[string]int{"TN": {"STAGES": 4}}
	if _, err := UpdateTuning(nil, profH200, "", []TuneEntry{mma}); err == nil {
		t.Errorf("UpdateTuning took STAGES per transpose combination")
	}
}
