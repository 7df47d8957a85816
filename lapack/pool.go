package cllapack

import (
	"errors"

	clblas "github.com/gocompute/opencl/blas"
)

// poolKey is the shape and element size of a pooled matrix.
type poolKey struct{ rows, cols, es int }

// poolPerShape bounds the matrices kept per shape: one per call running
// at once is the common case. poolBytes bounds the bytes kept in all, so
// that a program factorising many shapes does not hold them all.
const (
	poolPerShape = 2
	poolBytes    = 256 << 20
)

// newScratch returns a rows×cols device matrix with unspecified contents:
// one kept by putScratch when impl.reuse is set and one of that shape is
// free, else a new one. On a CPU device creating a buffer of a few
// megabytes costs more than a factorization's upload, read back and GEMMs
// of that size, so the matrices of calls from Go slices are kept for the
// next call.
func newScratch[T float32 | float64](impl *Implementation, rows, cols int) (*clblas.Matrix[T], error) {
	if impl.reuse {
		var z T
		key := poolKey{rows, cols, esOf(z)}
		impl.pmu.Lock()
		if l := impl.pool[key]; len(l) > 0 {
			m := l[len(l)-1].(*clblas.Matrix[T])
			impl.pool[key] = l[:len(l)-1]
			impl.pbytes -= rows * cols * key.es
			impl.pmu.Unlock()
			return m, nil
		}
		impl.pmu.Unlock()
	}
	pad := rowPad[T](impl, cols)
	if pad == 0 {
		return clblas.NewMatrix[T](impl.blas, rows, cols)
	}
	m, err := clblas.NewMatrix[T](impl.blas, rows, cols+pad)
	if err != nil {
		return nil, err
	}
	// The view is the matrix: releasing it releases the storage.
	v, err := m.View(0, 0, rows, cols)
	if err != nil {
		return nil, errors.Join(err, m.Release())
	}
	return v, nil
}

// rowPad is how many elements longer newScratch makes each row of a
// matrix cols wide: on CPU devices (impl.padRows), a cache line where a
// row is a whole number of 4 KiB pages, since then an element and the
// ones below it fall in the same few sets of the CPU's caches and evict
// each other (BENCHMARKS.md, "LU's row interchanges and triangular solves
// by runs of columns"); otherwise none.
func rowPad[T float32 | float64](impl *Implementation, cols int) int {
	var z T
	es := esOf(z)
	if !impl.padRows || cols*es%4096 != 0 {
		return 0
	}
	return 64 / es
}

// putScratch gives back a matrix from newScratch (nil: nothing to do),
// once no command queued on it is left to run on another queue: it keeps
// it for the next call when impl.reuse is set, else releases it.
func putScratch[T float32 | float64](impl *Implementation, m *clblas.Matrix[T]) error {
	if m == nil {
		return nil
	}
	if impl.reuse {
		rows, cols := m.Dims()
		var z T
		key := poolKey{rows, cols, esOf(z)}
		impl.pmu.Lock()
		size := rows * cols * key.es
		if !impl.pclosed && len(impl.pool[key]) < poolPerShape && impl.pbytes+size <= poolBytes {
			if impl.pool == nil {
				impl.pool = make(map[poolKey][]any)
			}
			impl.pool[key] = append(impl.pool[key], m)
			impl.pbytes += size
			impl.pmu.Unlock()
			return nil
		}
		impl.pmu.Unlock()
	}
	return m.Release()
}

// newMatrixFrom is clblas.NewMatrixFromStrided on a matrix from
// newScratch; it returns once the copy is done.
func newMatrixFrom(impl *Implementation, rows, cols, lda int, a []float64) (*clblas.Matrix[float64], error) {
	if !impl.reuse {
		return clblas.NewMatrixFromStrided(impl.blas, rows, cols, lda, a)
	}
	d, err := newScratch[float64](impl, rows, cols)
	if err != nil {
		return nil, err
	}
	ev, err := d.WriteStrided(a, lda)
	if err == nil {
		err = ev.Wait()
	}
	if err != nil {
		d.Release()
		return nil, err
	}
	return d, nil
}

// closePool releases the pooled matrices; later ones are released at once.
func (impl *Implementation) closePool() error {
	impl.pmu.Lock()
	defer impl.pmu.Unlock()
	impl.pclosed = true
	var first error
	for key, l := range impl.pool {
		for _, m := range l {
			var err error
			switch m := m.(type) {
			case *clblas.Matrix[float64]:
				err = m.Release()
			case *clblas.Matrix[float32]:
				err = m.Release()
			}
			if err != nil && first == nil {
				first = err
			}
		}
		delete(impl.pool, key)
	}
	impl.pbytes = 0
	return first
}

func esOf[T float32 | float64](T) int {
	var z T
	switch any(z).(type) {
	case float32:
		return 4
	}
	return 8
}
