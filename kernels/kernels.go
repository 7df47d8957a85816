// Package kernels holds the OpenCL C sources of gocompute/opencl, embedded
// into the binary so that nothing has to be found on disk at run time.
//
// Each routine family has one source file, parameterised by -D defines
// (PRECISION=32|64 selects float or double; tuning parameters are chosen by
// the caller from a tuning database). Sources are compiled at run time, for
// the device at hand, by package platform.
package kernels

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.cl
var files embed.FS

// GemmTuning is the GEMM tuning database (gemm_tuning.json): the measured
// best parameter sets per device, precision and shape bucket. Package
// clblas reads it; the tuner (cmd/tune) writes it.
//
//go:embed gemm_tuning.json
var GemmTuning []byte

// L12Tuning is the tuning database of the level 1 and 2 kernels
// (l12_tuning.json): their launch shape per device and precision. Package
// internal/l12tuning reads it; the tuner (cmd/tune -kernel level1) writes
// it.
//
//go:embed l12_tuning.json
var L12Tuning []byte

// FS is the embedded source tree, for callers that want to walk it.
var FS fs.FS = files

// Source returns the text of the named source file ("gemm.cl").
func Source(name string) (string, error) {
	b, err := files.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("kernels: no source %q (have %s)", name, strings.Join(Names(), ", "))
	}
	return string(b), nil
}

// MustSource is Source for names fixed at compile time; it panics if the
// file is not embedded, which is a build defect, not a run-time condition.
func MustSource(name string) string {
	s, err := Source(name)
	if err != nil {
		panic(err)
	}
	return s
}

// Names lists the embedded source files.
func Names() []string {
	ents, _ := files.ReadDir(".")
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}
