package gemm

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gocompute/opencl/kernels"
)

// TestSelectionText: the database's "selection" prose states the rules as
// the code has them (Selection renders the numbers from the constants).
func TestSelectionText(t *testing.T) {
	var db struct {
		Selection map[string]string `json:"selection"`
	}
	if err := json.Unmarshal(kernels.GemmTuning, &db); err != nil {
		t.Fatal(err)
	}
	skinny, phrases := Selection()
	if got := db.Selection["skinny"]; got != skinny {
		t.Errorf("gemm_tuning.json selection.skinny:\n%s\nwant (from the code):\n%s", got, skinny)
	}
	for key, want := range phrases {
		for _, p := range want {
			if !strings.Contains(db.Selection[key], p) {
				t.Errorf("gemm_tuning.json selection.%s does not say %q", key, p)
			}
		}
	}
}
