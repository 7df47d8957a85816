package kernels

import (
	"fmt"
	"sort"
	"strings"
)

// Common is the file of the types and helpers most programs share. A
// program that is not standalone is built with it first.
const Common = "common.cl"

// programs names, for every program (called by its main file), the files
// it is built from, in order. gemm.cl and gemm_mma.cl are standalone: they
// define their own types, which common.cl's would clash with.
var programs = map[string][]string{
	"bandmv.cl":         {Common, "bandmv.cl"},
	"complex.cl":        {Common, "complex.cl"},
	"complex_level2.cl": {Common, "complex_level2.cl"},
	"gemm.cl":           {"gemm.cl"},
	"gemm_mma.cl":       {"gemm_mma.cl"},
	"gemm_skinny.cl":    {Common, "gemm_skinny.cl"},
	"gemv.cl":           {Common, "level1.cl", "gemv.cl"},
	"lapack.cl":         {Common, "lapack.cl"},
	"level1.cl":         {Common, "level1.cl"},
	"level2.cl":         {Common, "level2.cl"},
	"level3.cl":         {Common, "level3.cl"},
	"scalar.cl":         {Common, "scalar.cl"},
	"symv.cl":           {Common, "symv.cl"},
	"symv_stream.cl":    {Common, "level1.cl", "symv_stream.cl"},
	"trsv.cl":           {Common, "trsv.cl"},
	"zlevel3.cl":        {Common, "zlevel3.cl"},
}

// Program returns the sources the program name ("level1.cl") is built
// from, in the order they are compiled.
func Program(name string) ([]string, error) {
	files, ok := programs[name]
	if !ok {
		return nil, fmt.Errorf("kernels: no program %q (have %s)", name, strings.Join(Programs(), ", "))
	}
	srcs := make([]string, len(files))
	for i, f := range files {
		s, err := Source(f)
		if err != nil {
			return nil, err
		}
		srcs[i] = s
	}
	return srcs, nil
}

// MustProgram is Program for names fixed at compile time; it panics if the
// program is unknown, which is a build defect, not a run-time condition.
func MustProgram(name string) []string {
	srcs, err := Program(name)
	if err != nil {
		panic(err)
	}
	return srcs
}

// Programs lists the programs, sorted.
func Programs() []string {
	out := make([]string, 0, len(programs))
	for name := range programs {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
