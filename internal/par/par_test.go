package par

import (
	"sync/atomic"
	"testing"
)

// TestFor: every index of [0, n) is visited exactly once, for worker counts
// below, at and above n, and n = 0 calls fn with an empty range at most.
func TestFor(t *testing.T) {
	for _, n := range []int{0, 1, 7, 100} {
		for _, workers := range []int{0, 1, 3, 7, 200} {
			hits := make([]atomic.Int32, n)
			For(n, workers, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					hits[i].Add(1)
				}
			})
			for i := range hits {
				if h := hits[i].Load(); h != 1 {
					t.Errorf("n %d workers %d: index %d visited %d times", n, workers, i, h)
				}
			}
		}
	}
}
