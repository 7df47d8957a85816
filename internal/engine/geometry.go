package engine

// Geometry of strided vectors and row-major matrices in host slices.

// VecSpan is the number of elements a vector of n elements with increment
// inc spans: its elements are x[off + i*inc] with off = VecOff(n, inc), the
// same convention as gonum's.
func VecSpan(n, inc int) int {
	if inc < 0 {
		inc = -inc
	}
	return (n-1)*inc + 1
}

// VecOff is the index of element 0 of a vector: 0 for a positive
// increment, (n-1)·|inc| for a negative one.
func VecOff(n, inc int) int {
	if inc < 0 {
		return (n - 1) * -inc
	}
	return 0
}

// MatSpan is the number of elements a rows×cols matrix with leading
// dimension ld spans.
func MatSpan(rows, cols, ld int) int {
	if rows == 0 || cols == 0 {
		return 0
	}
	return (rows-1)*ld + cols
}

// ScatterVec copies the n strided elements of a vector from src (a staged
// copy of the vector's span) into dst; the gaps between elements are left
// alone, so concurrent users of the gaps are not disturbed.
func ScatterVec[T Real](dst, src []T, n, inc int) {
	if inc < 0 {
		inc = -inc
	}
	if inc == 1 {
		copy(dst[:n], src[:n])
		return
	}
	for i := 0; i < n; i++ {
		dst[i*inc] = src[i*inc]
	}
}

// ScatterMat copies the rows×cols elements of a matrix with leading
// dimension ld from src into dst, leaving the padding alone.
func ScatterMat[T Real](dst, src []T, rows, cols, ld int) {
	if ld == cols {
		copy(dst[:rows*cols], src[:rows*cols])
		return
	}
	for i := 0; i < rows; i++ {
		copy(dst[i*ld:i*ld+cols], src[i*ld:i*ld+cols])
	}
}

// Groups rounds n up to a multiple of the work-group size wg.
func Groups(n, wg int) int { return (n + wg - 1) / wg * wg }
