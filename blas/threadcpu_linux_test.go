package clblas

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time the calling OS thread has used: the host
// cost of what a benchmark does on its own thread, driver calls included,
// without the driver's own threads and without the time spent waiting for
// a CPU on a busy machine. ok is false where it cannot be read.
func threadCPU() (d time.Duration, ok bool) {
	const rusageThread = 1 // RUSAGE_THREAD
	var ru syscall.Rusage
	if syscall.Getrusage(rusageThread, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
