package platform

import (
	"sync/atomic"
	"time"
)

// slowBuildAfter is how long a runtime may spend building programs before
// it says, once, that it is compiling: longer than loading a device's
// programs from the disk cache takes, shorter than compiling them does.
var slowBuildAfter = time.Second

// firstRun is a runtime's state for the first-run notice.
type firstRun struct {
	noticed  atomic.Bool
	building atomic.Int64 // nanoseconds spent in builds so far
}

// slowBuildNotice arms the first-run notice for one build and returns the
// function to call when the build ends. Once the runtime's builds have
// taken slowBuildAfter in all, one Info line says what is going on, for
// which device and where the programs are kept, so that the first calls
// on a new device do not look like a hang; the line comes while the build
// runs, not after. Later processes load the programs from the disk cache
// and stay under the threshold.
func (r *Runtime) slowBuildNotice() (end func()) {
	f := &r.first
	if f.noticed.Load() {
		return func() {}
	}
	start := time.Now()
	left := max(slowBuildAfter-time.Duration(f.building.Load()), 0)
	t := time.AfterFunc(left, func() {
		if !f.noticed.CompareAndSwap(false, true) {
			return
		}
		cache := "none (programs are kept in memory only)"
		switch {
		case r.cache != nil:
			cache = r.cache.dir
		case r.dev.profile.cachesKernels():
			cache = "the driver's own (" + r.dev.profile.Platform + ")"
		}
		r.log.Info("gocl: compiling OpenCL kernels for this device; later runs load them from the cache",
			"device", r.dev.String(), "cache", cache)
	})
	return func() {
		t.Stop()
		f.building.Add(int64(time.Since(start)))
	}
}
