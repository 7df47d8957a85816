package clblas

import (
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
)

// The device kernels follow IEEE arithmetic: every product is formed, so
// 0·Inf and 0·NaN give NaN. gonum (like the reference BLAS) skips the
// products of zero multipliers, so where an operand holds NaN or ±Inf the
// two can differ: a = [0 1] times b = [Inf 2]ᵀ is 2 in gonum, NaN on the
// device. The drop-in must give gonum's answer, so a level 3 call whose
// scalars or multiplied operands are not all finite runs on the CPU; only
// the parts gonum reads count (none when α = 0, one triangle of a
// symmetric or triangular A). The check reads the operands once, O(n²)
// beside the call's O(n³), and only for calls on their way to the device.
// Level 1 and 2 calls go to the CPU when a scalar (α, β, a rotation) is
// not finite: the kernels group α·(A·x) where gonum forms (α·x)·A, and
// with α = ±Inf the two differ.

// offloadIf is offload for a call that may go to the device only when
// ok() holds; ok is evaluated only when the policy would send it there,
// and a call it keeps on the CPU counts as a CPU call (and as nonFinite).
func (impl *Implementation) offloadIf(routine string, w workload, ok func() bool) bool {
	return impl.weigh(routine, w, ok)
}

// scanAside starts scan on its own goroutine when beside is set and
// returns the channel its answer arrives on; otherwise it returns nil.
func scanAside(beside bool, scan func() bool) <-chan bool {
	if !beside {
		return nil
	}
	done := make(chan bool, 1)
	go func() { done <- scan() }()
	return done
}

// nonFiniteAfter moves a call that offloadIf counted on the device to the
// CPU's non-finite count: its scan, run beside the device call, found a
// NaN or an Inf, and gonum redid the call.
func (impl *Implementation) nonFiniteAfter(routine string) {
	c := impl.counted(routine)
	c.device.Add(-1)
	c.cpu.Add(1)
	c.nonFinite.Add(1)
}

// gemmSkipsNone reports whether gonum's GEMM forms every product for these
// transposes: with op(B) = Bᵀ and A not transposed it takes dot products
// of rows. The other three loops skip the zeros of α·op(A), and only
// there can a NaN or Inf of B meet a skipped zero, so only B is checked
// (a non-finite element of A is never skipped, and gives what the device
// gives).
func gemmSkipsNone(tA, tB blas.Transpose) bool {
	return tA == blas.NoTrans && tB != blas.NoTrans
}

// finite reports whether every v is finite.
func finite[T float32 | float64](vs ...T) bool {
	for _, v := range vs {
		if v-v != 0 { // NaN or ±Inf
			return false
		}
	}
	return true
}

// opFinite reports whether op(X), r×c, is finite, where X is stored
// row-major in x with leading dimension ld (r×c for NoTrans, c×r
// otherwise).
func opFinite[T float32 | float64](t blas.Transpose, x []T, r, c, ld int) bool {
	if t != blas.NoTrans {
		r, c = c, r
	}
	return matFinite(x, r, c, ld)
}

// triFinite reports whether the ul triangle of the n×n matrix stored in x
// with leading dimension ld is finite: the part a symmetric or triangular
// routine reads (without the diagonal when unit).
func triFinite[T float32 | float64](x []T, n, ld int, ul blas.Uplo, unit bool) bool {
	skip := 0
	if unit {
		skip = 1
	}
	for i := range n {
		lo, hi := i+skip, n // the row's part of the upper triangle
		if ul == blas.Lower {
			lo, hi = 0, i+1-skip
		}
		for _, v := range x[i*ld+lo : i*ld+max(lo, hi)] {
			if v-v != 0 {
				return false
			}
		}
	}
	return true
}

// finiteSerial is the number of elements below which matFinite scans on
// the calling goroutine.
const finiteSerial = 1 << 16

// matFinite reports whether the rows×cols matrix stored in x with leading
// dimension ld is finite. Large matrices are scanned by several goroutines,
// so that the scan stays small beside the device call it guards.
func matFinite[T float32 | float64](x []T, rows, cols, ld int) bool {
	if rows <= 0 || cols <= 0 {
		return true
	}
	rowsFinite := func(i0, i1 int, stop *atomic.Bool) bool {
		for i := i0; i < i1; i++ {
			if stop != nil && stop.Load() {
				return false
			}
			for _, v := range x[i*ld : i*ld+cols] {
				if v-v != 0 {
					return false
				}
			}
		}
		return true
	}
	workers := min(runtime.GOMAXPROCS(0), rows, rows*cols/finiteSerial)
	if workers <= 1 {
		return rowsFinite(0, rows, nil)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	per := (rows + workers - 1) / workers
	for i0 := 0; i0 < rows; i0 += per {
		wg.Add(1)
		go func(i0, i1 int) {
			defer wg.Done()
			if !rowsFinite(i0, i1, &stop) {
				stop.Store(true)
			}
		}(i0, min(i0+per, rows))
	}
	wg.Wait()
	return !stop.Load()
}
