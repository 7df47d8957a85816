package platform

import "time"

// SetSlowBuildAfter sets the first-run notice's delay and returns the
// function that restores it.
func SetSlowBuildAfter(d time.Duration) (restore func()) {
	old := slowBuildAfter
	slowBuildAfter = d
	return func() { slowBuildAfter = old }
}
