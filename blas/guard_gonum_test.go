package clblas

import (
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestSgemvKeepsToY is issue 19's case: Sgemv(Trans, β = 0, incY = 1) on
// the CPU must leave y beyond its n elements alone (gonum v0.17.0 zeroes
// them).
func TestSgemvKeepsToY(t *testing.T) {
	impl, err := New(WithOffload(Never), withDevices(nil, nil, costModel{}))
	if err != nil {
		t.Fatal(err)
	}
	a := []float32{1, 2, 3, 4} // 2×2
	x := []float32{1, 1}
	y := []float32{7, 7, 7, 7}
	impl.Sgemv(blas.Trans, 2, 2, 1, a, 2, x, 1, 0, y, 1)
	if want := []float32{4, 6, 7, 7}; !slices.Equal(y, want) {
		t.Errorf("y = %v, want %v", y, want)
	}
}
