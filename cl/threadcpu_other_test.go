//go:build !linux

package cl

import "time"

// threadCPU is not available here.
func threadCPU() (time.Duration, bool) { return 0, false }
