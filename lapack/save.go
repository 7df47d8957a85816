package cllapack

import (
	"sync"

	"gonum.org/v1/gonum/blas"
)

// saved is a copy of a rows×cols matrix of a caller's slice, taken in the
// background while the device works, so that a device failure after the
// result has started to land in the slice can still be finished on the CPU
// from the original data.
type saved struct {
	rows, cols int
	data       []float64
	done       chan struct{}
	nonFinite  bool // saveCheckedAsync: the copy holds NaN or Inf (set before done closes)
}

// saveAsync starts copying the rows×cols matrix a (row stride lda). The
// caller must not write to a until wait has returned.
func saveAsync(rows, cols int, a []float64, lda int) *saved {
	s := &saved{rows: rows, cols: cols, data: savedBuf(rows * cols), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		packRows(s.data, cols, a, lda, rows, cols)
	}()
	return s
}

// saveCheckedAsync is saveAsync that also looks, once the copy is taken
// and on the same goroutine, for NaN and Inf in it; finite tells.
func saveCheckedAsync(rows, cols int, a []float64, lda int) *saved {
	s := &saved{rows: rows, cols: cols, data: savedBuf(rows * cols), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		packRows(s.data, cols, a, lda, rows, cols)
		s.nonFinite = !allFinite(rows, cols, s.data, cols)
	}()
	return s
}

// finite waits for the copy of saveCheckedAsync and reports whether it
// holds only finite elements.
func (s *saved) finite() bool {
	s.wait()
	return !s.nonFinite
}

// A nil *saved is a call that keeps no copy, its matrix staged (see
// hostMatrix.keep): wait, restore and free do nothing.

// wait blocks until the copy is complete.
func (s *saved) wait() {
	if s != nil {
		<-s.done
	}
}

// restore writes the copy back into a (row stride lda).
func (s *saved) restore(a []float64, lda int) {
	if s == nil {
		return
	}
	s.wait()
	packRows(a, lda, s.data, s.cols, s.rows, s.cols)
}

// restoreBand writes the bw diagonals next to the main one of the copy's
// strict triangle opposite ul (lower for blas.Upper) back into the square
// matrix a (row stride lda): the part of the triangle a Cholesky
// factorization must leave as it was that the device's updates overwrite.
func (s *saved) restoreBand(ul blas.Uplo, a []float64, lda, bw int) {
	s.wait()
	for i := range s.rows {
		lo, hi := max(i-bw, 0), min(i, s.cols)
		if ul == blas.Lower {
			lo, hi = min(i+1, s.cols), min(i+1+bw, s.cols)
		}
		copy(a[i*lda+lo:i*lda+hi], s.data[i*s.cols+lo:i*s.cols+hi])
	}
}

// savedBufs holds the copies given back by free: a fresh copy of a large
// matrix costs page faults and garbage collections on every call.
var savedBufs sync.Pool

// savedBuf returns a slice of n elements with unspecified contents.
func savedBuf(n int) []float64 {
	if p, ok := savedBufs.Get().(*[]float64); ok {
		if cap(*p) >= n {
			return (*p)[:n]
		}
		savedBufs.Put(p)
	}
	return make([]float64, n)
}

// free gives the copy back once it is complete; s must not be used after.
func (s *saved) free() {
	if s == nil {
		return
	}
	s.wait()
	d := s.data
	s.data = nil
	savedBufs.Put(&d)
}
