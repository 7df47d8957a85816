package clblas

import "gonum.org/v1/gonum/blas"

// This file holds what the CPU path needs to give gonum's answers without
// gonum v0.17.0's known faults (see also gerNegInc64 and gerNegInc32). It is
// the front end's own (internal/engine has VecSpan for the device side).

// vecExtent returns the length of the shortest slice that holds n ≥ 1
// elements spaced inc ≠ 0 apart: the part of a vector operand a routine
// may touch.
//
// Handing gonum an output vector cut to its span keeps every write inside
// the operand: gonum v0.17.0's float32 gemv assembly, called with β = 0 and
// incY = 1, clears the whole slice it is given rather than its first lenY
// elements.
func vecExtent(n, inc int) int {
	if inc < 0 {
		inc = -inc
	}
	return 1 + (n-1)*inc
}

// gemvCPU64 is gonum's Dgemv, for the calls the gate keeps on the CPU
// before any check (gonum's code makes them).
func gemvCPU64(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	native.Dgemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
}

// gemvCPU32 is gonum's Sgemv, for the calls the gate keeps on the CPU
// before any check, with y cut to its span where the arguments give one
// that y holds (see vecExtent); otherwise gonum's checks panic.
func gemvCPU32(tA blas.Transpose, m, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) {
	lenY := m
	if tA != blas.NoTrans {
		lenY = n
	}
	if lenY > 0 && incY != 0 {
		if ext := vecExtent(lenY, incY); ext > 0 && ext <= len(y) {
			y = y[:ext]
		}
	}
	native.Sgemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
}
