package gemm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gocompute/opencl/kernels"
)

// TestTuningBounds: entries that would cost too much to compile (issue 19,
// item 6: CPU_MB = CPU_NB = 256 compiled for 91 s in 690 MB) or that name
// unknown kernels or defines are refused when the database is read; the
// embedded database passes.
func TestTuningBounds(t *testing.T) {
	if _, err := Parse(kernels.GemmTuning, "gemm_tuning.json"); err != nil {
		t.Fatalf("embedded database: %v", err)
	}
	for _, c := range []struct{ kernel, defines, want string }{
		{"gemm_cpu", `"CPU_VEC": 8, "CPU_MB": 256, "CPU_NB": 256`, "CPU_MB = 256"},
		{"gemm_cpu", `"CPU_VEC": 8, "CPU_MB": 64, "CPU_NB": 64`, "CPU_MB·CPU_NB"},
		{"gemm_cpu", `"CPU_VEC": 0, "CPU_MB": 8, "CPU_NB": 8`, "CPU_VEC = 0"},
		{"gemm_tiled", `"MWG": 512, "NWG": 512, "MDIMC": 8, "NDIMC": 8`, "work-item's tile"},
		{"gemm_tiled", `"MDIMC": 64, "NDIMC": 64`, "work-group"},
		{"gemm_tiled", `"MWG": 1024`, "MWG = 1024"},
		{"gemm_tiled", `"MWGG": 64`, "unknown define MWGG"},
		{"gemm_direct", `"DM": -1`, "DM = -1"},
		{"gemm_mma", `"STAGES": 9`, "STAGES = 9"},
		{"gemm_huge", `"X": 1`, `kernel "gemm_huge"`},
	} {
		path := filepath.Join(t.TempDir(), "tuning.json")
		db := `{"schema": 1, "devices": [{"match": {"type": "CPU"}, "entries": [{"precision": 64, "class": "N", "kernel": "` +
			c.kernel + `", "defines": {` + c.defines + `}}]}]}`
		if err := os.WriteFile(path, []byte(db), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Read(path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s {%s}: error %v, want one naming %q", c.kernel, c.defines, err, c.want)
		}
	}
	// Within bounds: read without error.
	path := filepath.Join(t.TempDir(), "tuning.json")
	ok := `{"schema": 1, "devices": [{"match": {"type": "CPU"}, "entries": [{"precision": 64, "class": "N", "kernel": "gemm_cpu", "defines": {"CPU_VEC": 8, "CPU_MB": 16, "CPU_NB": 32}}]}]}`
	if err := os.WriteFile(path, []byte(ok), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(path); err != nil {
		t.Errorf("an entry within bounds: %v", err)
	}
}
