//go:build !amd64

package hostlu

// haveFMA is false: update8 runs in Go.
var haveFMA = false

func update8FMA(rows, cols int, c []float64, ldc int, l []float64, ldl int, u []float64, ldu int) {
	panic("hostlu: update8FMA without amd64")
}

func stripPassFMA(rows int, a []float64, lda int, u *[strip]float64, mask *[2][strip]uint64, jj int, r float64) int {
	panic("hostlu: stripPassFMA without amd64")
}
