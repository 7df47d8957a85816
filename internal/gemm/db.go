package gemm

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/gocompute/opencl/internal/settings"
	"github.com/gocompute/opencl/kernels"
)

// DB is the parsed database.
type DB struct {
	Schema  int        `json:"schema"`
	Devices []DBDevice `json:"devices"`
}

type DBDevice struct {
	Match   Match   `json:"match"`
	Entries []Entry `json:"entries"`
}

// Match says which devices an entry list is for. Every non-empty
// field must match: vendor (the normalised vendor or a substring of the
// driver's vendor string, any case), name (the device name, exactly),
// compute capability (NVIDIA's "major.minor", exactly: "9.0" is every
// Hopper part, whatever its name), platform (a substring of the platform
// name), type ("GPU", "CPU") and the preferred float vector width the
// device reports (PoCL reports its CPU's SIMD width: 8 with AVX2, 16 with
// AVX-512, whose GEMM entries differ).
type Match struct {
	Vendor            string `json:"vendor,omitempty"`
	Name              string `json:"name,omitempty"`
	ComputeCapability string `json:"compute_capability,omitempty"`
	Platform          string `json:"platform,omitempty"`
	Type              string `json:"type,omitempty"`
	VectorFloat       int    `json:"preferred_vector_float,omitempty"`
}

// Entry is one measured parameter set.
type Entry struct {
	Precision int            `json:"precision"`
	Bucket    string         `json:"bucket,omitempty"` // GPU: large, medium, small, skinny, tiny-fallback, tensor
	Class     string         `json:"class,omitempty"`  // CPU: transpose class N (NN and TN), TT, NT, or NN or TN alone
	Kernel    string         `json:"kernel"`
	Defines   map[string]int `json:"defines"`
	// Use, for gemm_mma entries: "default" (chosen unless GOCL_TENSOR=off
	// or WithTensorCores(TensorOff)) or "opt-in" (chosen only with
	// TensorTF32x3).
	Use string `json:"use,omitempty"`
	// Trans, for gemm_mma entries: per transpose combination ("NN", "NT",
	// "TN", "TT"), switches that replace the entry's own for that
	// combination. Only switches that leave the tile and the local memory
	// as they are may be given (MMATransKeys), so the host's work sizes
	// and the tile choice stay the entry's.
	Trans map[string]map[string]int `json:"trans,omitempty"`
}

// MMATransKeys are the gemm_mma switches a database entry may set per
// transpose combination.
var MMATransKeys = []string{"ISSUE_MIX", "PIPE_FRAG"}

// WithTrans applies an entry's per-transpose switches (Entry.Trans)
// to cfg; combinations it does not name keep the entry's switches, and so
// do the switches it leaves out. It reports a key it does not know.
func WithTrans(cfg Config, trans map[string]map[string]int) (Config, error) {
	for name, d := range trans {
		if len(name) != 2 || strings.Trim(name, "NT") != "" {
			return cfg, fmt.Errorf("clblas: tuning entry: transpose combination %q (want NN, NT, TN or TT)", name)
		}
		tA, tB := name[0] == 'T', name[1] == 'T'
		s := MMASwitch{Set: true, IssueMix: cfg.IssueMix, PipeFrag: cfg.PipeFrag}
		for key, v := range d {
			switch key {
			case "ISSUE_MIX":
				s.IssueMix = v == 1
			case "PIPE_FRAG":
				s.PipeFrag = v == 1
			default:
				return cfg, fmt.Errorf("clblas: tuning entry: %s cannot be set per transpose combination (only %v)", key, MMATransKeys)
			}
		}
		cfg.MMATrans[boolInt(tA)][boolInt(tB)] = s
	}
	return cfg, nil
}

// Values of Entry.Use.
const (
	UseDefault = "default"
	UseOptIn   = "opt-in"
)

// envTuning names a tuning database file (cmd/tune's output) that replaces
// the embedded one, for trying entries before they are committed.
const envTuning = settings.GemmTuning

var builtin struct {
	once sync.Once
	db   *DB
}

// Builtin is the embedded kernels/gemm_tuning.json, parsed once. A
// test keeps it valid, so it does not fail; were it unreadable, GEMM would
// get the defaults derived from the device's limits.
func Builtin() *DB {
	builtin.once.Do(func() {
		db, err := Parse(kernels.GemmTuning, "gemm_tuning.json")
		if err != nil {
			db = &DB{}
		}
		builtin.db = db
	})
	return builtin.db
}

// Read parses the tuning database in the file path, or returns the
// embedded kernels/gemm_tuning.json when path is empty.
func Read(path string) (*DB, error) {
	if path == "" {
		return Builtin(), nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("clblas: %s: %w", envTuning, err)
	}
	return Parse(b, path)
}

// Parse parses and checks the database src, read from name.
func Parse(src []byte, name string) (*DB, error) {
	var db DB
	if err := json.Unmarshal(src, &db); err != nil {
		return nil, fmt.Errorf("clblas: %s: %w", name, err)
	}
	for _, d := range db.Devices {
		if err := d.Match.Check(); err != nil {
			return nil, fmt.Errorf("clblas: %s: %w", name, err)
		}
		for _, e := range d.Entries {
			if _, err := WithTrans(Config{}, e.Trans); err != nil {
				return nil, fmt.Errorf("clblas: %s: %w", name, err)
			}
			if err := checkEntryBounds(e); err != nil {
				return nil, fmt.Errorf("clblas: %s: %w", name, err)
			}
		}
	}
	return &db, nil
}

// Check reports a match that no device could meet because a field is
// malformed: a compute capability other than "major.minor", a vector
// width below zero.
func (m Match) Check() error {
	if m.VectorFloat < 0 {
		return fmt.Errorf("match: preferred_vector_float %d (want a width of at least 1)", m.VectorFloat)
	}
	if cc := m.ComputeCapability; cc != "" {
		var major, minor int
		if n, err := fmt.Sscanf(cc, "%d.%d", &major, &minor); err != nil || n != 2 || fmt.Sprintf("%d.%d", major, minor) != cc {
			return fmt.Errorf("match: compute_capability %q (want major.minor, such as \"9.0\")", cc)
		}
	}
	return nil
}

// ccString is p's compute capability as a match names it ("9.0"), or ""
// where the device reports none.
func (p Device) ccString() string {
	if p.ComputeCapability == [2]int{} {
		return ""
	}
	return fmt.Sprintf("%d.%d", p.ComputeCapability[0], p.ComputeCapability[1])
}

// Matches reports whether the entry list m keys is for device p.
func (m Match) Matches(p Device) bool {
	if m.Vendor != "" && !strings.EqualFold(m.Vendor, string(p.Vendor)) &&
		!strings.Contains(strings.ToLower(p.VendorName), strings.ToLower(m.Vendor)) {
		return false
	}
	if m.Name != "" && m.Name != p.Name {
		return false
	}
	if m.ComputeCapability != "" && m.ComputeCapability != p.ccString() {
		return false
	}
	if m.Platform != "" && !strings.Contains(p.Platform, m.Platform) {
		return false
	}
	if m.VectorFloat != 0 && m.VectorFloat != p.PreferredVectorFloat {
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

// Entries returns the database entries for device p and precision
// prec (nil when the device is not in the database). The first device
// whose match fits is used.
func Entries(db *DB, p Device, prec int) []Entry {
	if db == nil {
		return nil
	}
	for _, d := range db.Devices {
		if !d.Match.Matches(p) {
			continue
		}
		var out []Entry
		for _, e := range d.Entries {
			if e.Precision == prec {
				out = append(out, e)
			}
		}
		return out
	}
	return nil
}
