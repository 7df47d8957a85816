//go:build !darwin && !windows

package cl

// The ICD loader's versioned name first: the unversioned one exists only
// where the development package is installed.
var defaultLibraries = []string{"libOpenCL.so.1", "libOpenCL.so"}
