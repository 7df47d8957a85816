package engine

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/blas"
)

// Bounding the copy of C that an in-place level 3 call keeps. On a device
// that shares the host's memory the kernels update the caller's C itself;
// when they also read it (β ≠ 0; trmm and trsm's B) the call keeps a copy
// to put back should it fail, so that the CPU finish starts from what it
// was given. That copy is bounded by keepMaxBytes: a larger GEMM is run in
// row slabs of C that each keep at most that much, and a failure reports
// how many rows are done (errRowsDone) so the CPU finishes only the rest;
// the other routines, whose rows are not independent, fail before they
// write anything (errKeepTooLarge) and run on the CPU.

// keepMaxBytes bounds the kept copy of one call (a variable so that tests
// can make it small).
var KeepMaxBytes = 256 << 20

// errKeepTooLarge fails an in-place call whose kept copy would exceed
// keepMaxBytes.
var ErrKeepTooLarge = errors.New("clblas: output too large to update in place with a bounded copy")

// errRowsDone is a GEMM failure after the first rows of C were finished
// on the device; rows [rows, m) are as they were given.
type errRowsDone struct {
	rows int
	err  error
}

func (e *errRowsDone) Error() string {
	return fmt.Sprintf("%v (the first %d rows of C are done)", e.err, e.rows)
}

func (e *errRowsDone) Unwrap() error { return e.err }

// rowsDone is the number of rows of C a failed device GEMM finished.
func RowsDone(err error) int {
	var p *errRowsDone
	if errors.As(err, &p) {
		return p.rows
	}
	return 0
}

// opRow is the offset of row i of op(A) in A stored with leading
// dimension ld: row i of A, or column i when t transposes.
func OpRow(t blas.Transpose, i, ld int) int {
	if t == blas.NoTrans {
		return i * ld
	}
	return i
}

// keepTooLarge reports whether an in-place call that reads its rows×cols
// output would keep a copy larger than keepMaxBytes.
func keepTooLarge[T Real](c *Call, rows, cols int, reads bool) bool {
	return reads && c.E.HostShared() && rows*cols*ElemSize[T]() > KeepMaxBytes
}

// gemmKeepSlabs runs an in-place GEMM whose kept copy would exceed
// keepMaxBytes as GEMMs on row slabs of C within the bound.
func gemmKeepSlabs[T Real](e *Engine, name string, tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, cc []T, ldc int) error {
	rows := max(1, KeepMaxBytes/(n*ElemSize[T]()))
	for i0 := 0; i0 < m; i0 += rows {
		mi := min(rows, m-i0)
		if err := gemmSlices(e, name, tA, tB, mi, n, k, alpha, a[OpRow(tA, i0, lda):], lda, b, ldb, beta, cc[i0*ldc:], ldc); err != nil {
			return &errRowsDone{rows: i0, err: err}
		}
	}
	return nil
}
