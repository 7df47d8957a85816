// Package l12tuning is the tuning database of the level 1 and 2 kernels
// (kernels/l12_tuning.json): per device and precision, the launch shape
// of kernels/level1.cl and of the GEMV kernels that share it. It parses
// and checks the database, finds a device's entry and writes cmd/tune's
// results into it; it makes no OpenCL call (the engine turns an entry
// into its launch shape).
package l12tuning

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/gocompute/opencl/internal/gemm"
	"github.com/gocompute/opencl/kernels"
)

// DB is the parsed database.
type DB struct {
	Schema  int      `json:"schema"`
	About   string   `json:"about,omitempty"`
	Devices []Device `json:"devices"`
}

// Device is the entry list of the devices Match fits (keyed as the GEMM
// database keys them: vendor, name, platform, type).
type Device struct {
	Match    gemm.Match `json:"match"`
	Measured string     `json:"measured,omitempty"`
	Entries  []Entry    `json:"entries"`
}

// Entry is the measured shape of one precision.
//
// Groups are counted per compute unit, so that an entry stays right on a
// part of the device (a MIG slice reports fewer units).
type Entry struct {
	Precision int `json:"precision"`
	Local     int `json:"local"`  // work-group size, a power of two
	Vec       int `json:"vec"`    // L1_VW: elements per vector load, 1 to 16
	Unroll    int `json:"unroll"` // L1_UNROLL: vector loads in flight, 1 to 16
	// Groups per compute unit of a reduction's first pass and of the
	// level 2 kernels' grids.
	Groups int `json:"groups_per_cu"`
	// EwGroups per compute unit of the element-wise kernels (0: Groups).
	EwGroups int `json:"elementwise_groups_per_cu,omitempty"`
	// Cover: the element-wise grid covers the vector (each work-item
	// does Unroll vectors once, no grid stride); EwGroups is then unused.
	Cover bool `json:"cover,omitempty"`
	// Block: each work-group takes one run of consecutive vectors, the
	// vectors split evenly over the groups (L1_BLOCK), instead of
	// grid-strided ones.
	Block bool `json:"block,omitempty"`
	// Idx32: the unit-stride loops index in 32 bits (L1_IDX32).
	Idx32 bool `json:"idx32,omitempty"`
	// Nrm2D: float nrm2 sums its squares in double (L1_NRM2_D; where the
	// device has fp64, else the kernel keeps its float sums).
	Nrm2D bool `json:"nrm2_double,omitempty"`
	// LeanNrm2: nrm2 spends fewer instructions per element
	// (L1_LEAN_NRM2); LeanIamax: so does iamax (L1_LEAN_IAMAX).
	LeanNrm2  bool `json:"lean_nrm2,omitempty"`
	LeanIamax bool `json:"lean_iamax,omitempty"`
	// OnePass: the reductions run as one launch whose last work-group
	// merges the partials (the _one kernels) instead of two.
	OnePass bool `json:"one_pass,omitempty"`
	// FinWide: a two-pass reduction's second pass runs as one group of
	// as many work-items as there are partials (the next power of two,
	// at most the device's limit) instead of Local.
	FinWide bool `json:"fin_wide,omitempty"`
	// OneLaunchL2: the transposed GEMV and band products (gemv_t_part,
	// gbmv_t_part, zgemv_t_part) add up their partial sums in the same
	// launch, their last work-group of each column piece, instead of a
	// second launch (gemv_t_fin); on CPU devices gemv_t_rows, band_t_rows
	// and sym_rows, in their last work-item, instead of gemv_t_sum or
	// band_t_sum.
	OneLaunchL2 bool `json:"one_launch_l2,omitempty"`
	// ReadApartMin: a resident reduction whose operands hold at least
	// this many bytes reads its result back on a queue of its own, so
	// that the next kernel need not wait for the copy (0: never; the
	// marker and cross-queue wait cost the host more per call, which only
	// a kernel long enough hides).
	ReadApartMin int `json:"read_apart_min,omitempty"`

	GBps map[string]float64 `json:"gbps,omitempty"` // measured rates by routine (documentation)
	Note string             `json:"note,omitempty"`
}

// Limits of an entry's fields.
const (
	MaxLocal  = 1024
	MaxVec    = 16
	MaxUnroll = 16
	MaxGroups = 256 // per compute unit
)

// Check reports an entry that no device could use.
func (e Entry) Check() error {
	switch {
	case e.Precision != 32 && e.Precision != 64:
		return fmt.Errorf("precision %d (want 32 or 64)", e.Precision)
	case e.Local < 1 || e.Local > MaxLocal || e.Local&(e.Local-1) != 0:
		return fmt.Errorf("local %d (want a power of two up to %d)", e.Local, MaxLocal)
	case e.Vec < 1 || e.Vec > MaxVec || e.Vec&(e.Vec-1) != 0:
		return fmt.Errorf("vec %d (want 1, 2, 4, 8 or 16)", e.Vec)
	case e.Unroll < 1 || e.Unroll > MaxUnroll:
		return fmt.Errorf("unroll %d (want 1 to %d)", e.Unroll, MaxUnroll)
	case e.Groups < 1 || e.Groups > MaxGroups:
		return fmt.Errorf("groups_per_cu %d (want 1 to %d)", e.Groups, MaxGroups)
	case e.EwGroups < 0 || e.EwGroups > MaxGroups:
		return fmt.Errorf("elementwise_groups_per_cu %d (want 0 to %d)", e.EwGroups, MaxGroups)
	case e.Nrm2D && e.Precision != 32:
		return fmt.Errorf("nrm2_double for precision %d (it is for float)", e.Precision)
	case e.ReadApartMin < 0:
		return fmt.Errorf("read_apart_min %d (want 0 or more bytes)", e.ReadApartMin)
	case e.Cover && e.EwGroups != 0:
		return fmt.Errorf("elementwise_groups_per_cu %d with cover (a covering grid has no group count)", e.EwGroups)
	}
	return nil
}

// Parse parses and checks the database src, read from name: an unknown
// field, an entry Check rejects or two entries of one precision for one
// device are errors.
func Parse(src []byte, name string) (*DB, error) {
	var db DB
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&db); err != nil {
		return nil, fmt.Errorf("clblas: %s: %w", name, err)
	}
	if db.Schema != 1 {
		return nil, fmt.Errorf("clblas: %s: schema %d (want 1)", name, db.Schema)
	}
	for i, d := range db.Devices {
		if err := d.Match.Check(); err != nil {
			return nil, fmt.Errorf("clblas: %s: device %d: %w", name, i, err)
		}
		seen := map[int]bool{}
		for _, e := range d.Entries {
			if err := e.Check(); err != nil {
				return nil, fmt.Errorf("clblas: %s: device %d (%+v): %w", name, i, d.Match, err)
			}
			if seen[e.Precision] {
				return nil, fmt.Errorf("clblas: %s: device %d (%+v): two entries for precision %d", name, i, d.Match, e.Precision)
			}
			seen[e.Precision] = true
		}
	}
	return &db, nil
}

var builtin struct {
	once sync.Once
	db   *DB
	err  error
}

// Builtin is the embedded kernels/l12_tuning.json, parsed once. A test
// keeps it valid; were it not, Builtin would be empty and every device
// would take the derived shapes.
func Builtin() *DB {
	builtin.once.Do(func() {
		builtin.db, builtin.err = Parse(kernels.L12Tuning, "l12_tuning.json")
		if builtin.err != nil {
			builtin.db = &DB{Schema: 1}
		}
	})
	return builtin.db
}

// Lookup returns the entry of the first device of db that fits p, in
// precision prec.
func Lookup(db *DB, p gemm.Device, prec int) (Entry, bool) {
	if db == nil {
		return Entry{}, false
	}
	for _, d := range db.Devices {
		if !d.Match.Matches(p) {
			continue
		}
		for _, e := range d.Entries {
			if e.Precision == prec {
				return e, true
			}
		}
		return Entry{}, false
	}
	return Entry{}, false
}

// Update puts entries into the database src (nil: the embedded one) for
// device p: into the first device whose match fits p, replacing its entry
// of the same precision, or into a new device matched by vendor, name and
// type. measured, if not empty, replaces the device's note of when and
// where it was measured.
func Update(src []byte, p gemm.Device, measured string, entries []Entry) ([]byte, error) {
	if src == nil {
		src = kernels.L12Tuning
	}
	db, err := Parse(src, "tuning database")
	if err != nil {
		return nil, err
	}
	idx := -1
	for i, d := range db.Devices {
		if d.Match.Matches(p) {
			idx = i
			break
		}
	}
	if idx < 0 {
		typ := "GPU"
		if p.IsCPU() {
			typ = "CPU"
		}
		db.Devices = append(db.Devices, Device{Match: gemm.Match{Vendor: p.Vendor, Name: p.Name, Type: typ}})
		idx = len(db.Devices) - 1
	}
	d := &db.Devices[idx]
	if measured != "" {
		d.Measured = measured
	}
next:
	for _, ne := range entries {
		if err := ne.Check(); err != nil {
			return nil, fmt.Errorf("clblas: new tuning entry: %w", err)
		}
		for i := range d.Entries {
			if d.Entries[i].Precision == ne.Precision {
				d.Entries[i] = ne
				continue next
			}
		}
		d.Entries = append(d.Entries, ne)
	}
	out, err := Format(db)
	if err != nil {
		return nil, err
	}
	if _, err := Parse(out, "updated tuning database"); err != nil {
		return nil, err
	}
	return out, nil
}

// Format writes db as the file keeps it: a device per block, an entry
// per line.
func Format(db *DB) ([]byte, error) {
	var b bytes.Buffer
	about, _ := json.Marshal(db.About)
	fmt.Fprintf(&b, "{\n  \"schema\": %d,\n  \"about\": %s,\n  \"devices\": [", db.Schema, about)
	for i, d := range db.Devices {
		if i > 0 {
			b.WriteString(",")
		}
		m, err := json.Marshal(d.Match)
		if err != nil {
			return nil, err
		}
		ms, _ := json.Marshal(d.Measured)
		fmt.Fprintf(&b, "\n    {\n      \"match\": %s,\n      \"measured\": %s,\n      \"entries\": [", m, ms)
		for j, e := range d.Entries {
			if j > 0 {
				b.WriteString(",")
			}
			ej, err := json.Marshal(e)
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(&b, "\n        %s", ej)
		}
		b.WriteString("\n      ]\n    }")
	}
	b.WriteString("\n  ]\n}\n")
	return b.Bytes(), nil
}
