package platform

import "time"

// slowBuildAfter is how long a build runs before the runtime says, once,
// that it is compiling: long enough that cached loads never trigger it.
var slowBuildAfter = time.Second

// slowBuildNotice arms the first-run notice for one build and returns the
// function that disarms it. If the build is still running after
// slowBuildAfter, one Info line (per runtime) says what is going on, for
// which device and where the result is kept, so that the first call on a
// new device does not look like a hang. Calls that follow are fast: the
// programs come from memory, and in later processes from the disk cache.
func (r *Runtime) slowBuildNotice() (stop func()) {
	if r.slowNoticed.Load() {
		return func() {}
	}
	t := time.AfterFunc(slowBuildAfter, func() {
		if !r.slowNoticed.CompareAndSwap(false, true) {
			return
		}
		cache := "none (programs are kept in memory only)"
		if r.cache != nil {
			cache = r.cache.dir
		}
		r.log.Info("gocl: compiling OpenCL kernels for this device; later runs load them from the cache",
			"device", r.dev.String(), "cache", cache)
	})
	return func() { t.Stop() }
}
