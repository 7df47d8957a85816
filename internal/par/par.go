// Package par runs a loop's ranges on goroutines.
package par

import "sync"

// For splits [0, n) into at most workers contiguous ranges and runs fn on
// each, on its own goroutine when there is more than one, and waits for all.
func For(n, workers int, fn func(lo, hi int)) {
	workers = max(1, min(workers, n))
	if workers == 1 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(lo, hi)
		}()
	}
	wg.Wait()
}
