package cl

import (
	"runtime"
	"testing"
)

// startThreadCPU locks the benchmark to its OS thread and returns a
// function, to call after the loop, that reports the thread's CPU time per
// iteration as "thread-ns/op" where it can be read: the host cost on the
// calling thread, without the driver's threads, and without the wait for
// a CPU that dominates wall time on a machine shared with other work.
func startThreadCPU(b *testing.B) (stop func()) {
	runtime.LockOSThread()
	t0, ok0 := threadCPU()
	return func() {
		t1, ok1 := threadCPU()
		runtime.UnlockOSThread()
		if ok0 && ok1 && b.N > 0 {
			b.ReportMetric(float64((t1-t0).Nanoseconds())/float64(b.N), "thread-ns/op")
		}
	}
}
