package clblas

import "fmt"

// Device-resident level 2 operations, and vector views of matrices.

// Row returns row i of m as a vector view (increment 1) sharing m's
// storage.
func (m *Matrix[T]) Row(i int) (*Vector[T], error) {
	if err := m.storage().check(); err != nil {
		return nil, err
	}
	if i < 0 || i >= m.rows {
		return nil, fmt.Errorf("clblas: Row(%d) of a %d×%d matrix: %w", i, m.rows, m.cols, ErrShape)
	}
	return &Vector[T]{st: m.st, off: m.off + i*m.stride, n: m.cols, inc: 1}, nil
}

// Col returns column j of m as a vector view (increment Stride) sharing
// m's storage.
func (m *Matrix[T]) Col(j int) (*Vector[T], error) {
	if err := m.storage().check(); err != nil {
		return nil, err
	}
	if j < 0 || j >= m.cols {
		return nil, fmt.Errorf("clblas: Col(%d) of a %d×%d matrix: %w", j, m.rows, m.cols, ErrShape)
	}
	return &Vector[T]{st: m.st, off: m.off + j, n: m.rows, inc: m.stride}, nil
}

// storage is the matrix's storage, or nil for a nil matrix.
func (m *Matrix[T]) storage() *storage {
	if m == nil {
		return nil
	}
	return m.st
}
