package l12tuning

import (
	"strings"
	"testing"

	"github.com/gocompute/opencl/internal/gemm"
	"github.com/gocompute/opencl/kernels"
)

// TestBuiltin: the embedded database parses and checks.
func TestBuiltin(t *testing.T) {
	if _, err := Parse(kernels.L12Tuning, "l12_tuning.json"); err != nil {
		t.Fatal(err)
	}
}

func dbWith(entries string) []byte {
	return []byte(`{"schema": 1, "devices": [{"match": {"vendor": "nvidia", "name": "NVIDIA H200", "type": "GPU"}, "entries": [` + entries + `]}]}`)
}

const good = `{"precision": 32, "local": 256, "vec": 4, "unroll": 2, "groups_per_cu": 8}`

// TestParseRejects: every invalid field is an error at load.
func TestParseRejects(t *testing.T) {
	if _, err := Parse(dbWith(good), "t"); err != nil {
		t.Fatalf("a good entry: %v", err)
	}
	for _, bad := range []string{
		`{"precision": 16, "local": 256, "vec": 4, "unroll": 2, "groups_per_cu": 8}`,
		`{"precision": 32, "local": 96, "vec": 4, "unroll": 2, "groups_per_cu": 8}`,
		`{"precision": 32, "local": 2048, "vec": 4, "unroll": 2, "groups_per_cu": 8}`,
		`{"precision": 32, "local": 256, "vec": 3, "unroll": 2, "groups_per_cu": 8}`,
		`{"precision": 32, "local": 256, "vec": 32, "unroll": 2, "groups_per_cu": 8}`,
		`{"precision": 32, "local": 256, "vec": 4, "unroll": 0, "groups_per_cu": 8}`,
		`{"precision": 32, "local": 256, "vec": 4, "unroll": 17, "groups_per_cu": 8}`,
		`{"precision": 32, "local": 256, "vec": 4, "unroll": 2, "groups_per_cu": 0}`,
		`{"precision": 32, "local": 256, "vec": 4, "unroll": 2, "groups_per_cu": 8, "elementwise_groups_per_cu": -1}`,
		`{"precision": 32, "local": 256, "vec": 4, "unroll": 2, "groups_per_cu": 8, "elementwise_groups_per_cu": 4, "cover": true}`,
		`{"precision": 32, "local": 256, "vec": 4, "unroll": 2, "groups_per_cu": 8, "unknown": 1}`,
		`{"precision": 64, "local": 256, "vec": 4, "unroll": 2, "groups_per_cu": 8, "nrm2_double": true}`,
		`{"precision": 64, "local": 256, "vec": 4, "unroll": 2, "groups_per_cu": 8, "read_apart_min": -1}`,
		`{"precision": 64, "local": 256, "vec": 4, "unroll": 2, "groups_per_cu": 8, "read_apart": true}`,
		good + `,` + good,
	} {
		if _, err := Parse(dbWith(bad), "t"); err == nil {
			t.Errorf("Parse accepted %s", bad)
		}
	}
	if _, err := Parse([]byte(`{"schema": 2, "devices": []}`), "t"); err == nil {
		t.Errorf("Parse accepted schema 2")
	}
	cc := []byte(`{"schema": 1, "devices": [{"match": {"compute_capability": "9"}, "entries": [` + good + `]}]}`)
	if _, err := Parse(cc, "t"); err == nil || !strings.Contains(err.Error(), "compute_capability") {
		t.Errorf("a compute capability without its minor: %v, want an error naming the field", err)
	}
}

// TestLookupUpdate: an entry goes in for a new device, replaces the one
// of its precision, and is found for that device only.
func TestLookupUpdate(t *testing.T) {
	h200 := gemm.Device{Name: "NVIDIA H200", Vendor: "nvidia", VendorName: "NVIDIA Corporation", GPU: true}
	other := gemm.Device{Name: "NVIDIA H100", Vendor: "nvidia", GPU: true}
	e32 := Entry{Precision: 32, Local: 512, Vec: 8, Unroll: 4, Groups: 4, Cover: true, Block: true}
	out, err := Update([]byte(`{"schema": 1, "devices": []}`), h200, "today", []Entry{e32})
	if err != nil {
		t.Fatal(err)
	}
	db, err := Parse(out, "updated")
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := Lookup(db, h200, 32); !ok || got.Local != 512 || !got.Cover || !got.Block || got.Unroll != 4 {
		t.Errorf("Lookup(H200, 32) = %+v, %v", got, ok)
	}
	if _, ok := Lookup(db, h200, 64); ok {
		t.Errorf("Lookup(H200, 64) found an entry")
	}
	if _, ok := Lookup(db, other, 32); ok {
		t.Errorf("Lookup(H100, 32) found the H200's entry")
	}
	e32.Local = 128
	e64 := Entry{Precision: 64, Local: 256, Vec: 2, Unroll: 2, Groups: 8, EwGroups: 16}
	out, err = Update(out, h200, "", []Entry{e32, e64})
	if err != nil {
		t.Fatal(err)
	}
	db, _ = Parse(out, "updated")
	if len(db.Devices) != 1 || len(db.Devices[0].Entries) != 2 || db.Devices[0].Measured != "today" {
		t.Fatalf("after the second update: %s", out)
	}
	if got, _ := Lookup(db, h200, 32); got.Local != 128 {
		t.Errorf("the float32 entry was not replaced: %+v", got)
	}
	if got, _ := Lookup(db, h200, 64); got.EwGroups != 16 {
		t.Errorf("the float64 entry: %+v", got)
	}
	if !strings.Contains(string(out), "\n        {\"precision\":64") {
		t.Errorf("entries are not one per line:\n%s", out)
	}
	// Into the embedded database (nil): its devices are kept.
	out, err = Update(nil, other, "", []Entry{e64})
	if err != nil {
		t.Fatal(err)
	}
	if db, _ = Parse(out, "updated"); len(db.Devices) != len(Builtin().Devices)+1 {
		t.Errorf("updating the embedded database: %d devices, want %d", len(db.Devices), len(Builtin().Devices)+1)
	}
	if _, err := Update(out, h200, "", []Entry{{Precision: 32, Local: 100, Vec: 1, Unroll: 1, Groups: 1}}); err == nil {
		t.Errorf("Update took an invalid entry")
	}
}
