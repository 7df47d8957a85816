package clblas

import (
	"github.com/gocompute/opencl/internal/gemm"
	"github.com/gocompute/opencl/platform"
)

// The tuner's types, defined in internal/gemm.

// TuneConfig is one candidate parameter set for a GEMM kernel (see
// internal/gemm).
type TuneConfig = gemm.TuneConfig

// TuneEntry is one measured parameter set for the database.
type TuneEntry = gemm.TuneEntry

// ErrInvalidConfig is wrapped by the errors of TuneCheck.
var ErrInvalidConfig = gemm.ErrInvalidConfig

// MMATransSwitches returns the gemm_mma switches a tuning entry may set per
// transpose combination.
func MMATransSwitches() []string { return gemm.MMATransSwitches() }

// UpdateTuning returns the tuning database db with entries written for
// device p (see internal/gemm.UpdateTuning).
func UpdateTuning(db []byte, p platform.Profile, measured string, entries []TuneEntry) ([]byte, error) {
	return gemm.UpdateTuning(db, gemmDevice(p), measured, entries)
}
