package clblas

import (
	"gonum.org/v1/gonum/blas"
)

// Panic messages for bad arguments. They are part of gonum's contract
// (gonum/mat compares them verbatim), so they must stay byte-for-byte equal
// to the messages of gonum.org/v1/gonum/blas/gonum.
const (
	msgZeroIncX = "blas: zero x index increment"
	msgZeroIncY = "blas: zero y index increment"

	msgMLT0  = "blas: m < 0"
	msgNLT0  = "blas: n < 0"
	msgKLT0  = "blas: k < 0"
	msgKLLT0 = "blas: kL < 0"
	msgKULT0 = "blas: kU < 0"

	msgBadUplo      = "blas: illegal triangle"
	msgBadTranspose = "blas: illegal transpose"
	msgBadDiag      = "blas: illegal diagonal"
	msgBadSide      = "blas: illegal side"

	msgBadLdA = "blas: bad leading dimension of A"
	msgBadLdB = "blas: bad leading dimension of B"
	msgBadLdC = "blas: bad leading dimension of C"

	msgShortX  = "blas: insufficient length of x"
	msgShortY  = "blas: insufficient length of y"
	msgShortAP = "blas: insufficient length of ap"
	msgShortA  = "blas: insufficient length of a"
	msgShortB  = "blas: insufficient length of b"
	msgShortC  = "blas: insufficient length of c"
)

// vecShort reports whether a slice of length l is too short to hold n ≥ 1
// elements spaced inc ≠ 0 apart (the first element is at index 0 for inc > 0
// and at index (1-n)*inc for inc < 0).
func vecShort(l, n, inc int) bool {
	if inc > 0 {
		return l <= (n-1)*inc
	}
	return l <= (1-n)*inc
}

// badTrans reports whether t is not one of blas.NoTrans, blas.Trans and
// blas.ConjTrans.
func badTrans(t blas.Transpose) bool {
	return t != blas.NoTrans && t != blas.Trans && t != blas.ConjTrans
}

// badUplo reports whether ul is neither blas.Upper nor blas.Lower.
func badUplo(ul blas.Uplo) bool { return ul != blas.Upper && ul != blas.Lower }

// badDiag reports whether d is neither blas.NonUnit nor blas.Unit.
func badDiag(d blas.Diag) bool { return d != blas.NonUnit && d != blas.Unit }

// badSide reports whether s is neither blas.Left nor blas.Right.
func badSide(s blas.Side) bool { return s != blas.Left && s != blas.Right }
