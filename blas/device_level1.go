package clblas

import "gonum.org/v1/gonum/blas"

var _ = blas.NoTrans

// Level 1 device routines. Not yet on the device: each returns
// errNotImplemented, so the front end finishes the call on the CPU.

func (dev clDevice64) Ddot(n int, x []float64, incX int, y []float64, incY int) (float64, error) {
	return 0, errNotImplemented
}

func (dev clDevice64) Dnrm2(n int, x []float64, incX int) (float64, error) {
	return 0, errNotImplemented
}

func (dev clDevice64) Dasum(n int, x []float64, incX int) (float64, error) {
	return 0, errNotImplemented
}

func (dev clDevice64) Idamax(n int, x []float64, incX int) (int, error) {
	return -1, errNotImplemented
}

func (dev clDevice64) Dswap(n int, x []float64, incX int, y []float64, incY int) error {
	return errNotImplemented
}

func (dev clDevice64) Dcopy(n int, x []float64, incX int, y []float64, incY int) error {
	return errNotImplemented
}

func (dev clDevice64) Daxpy(n int, alpha float64, x []float64, incX int, y []float64, incY int) error {
	return errNotImplemented
}

func (dev clDevice64) Drot(n int, x []float64, incX int, y []float64, incY int, c float64, s float64) error {
	return errNotImplemented
}

func (dev clDevice64) Drotm(n int, x []float64, incX int, y []float64, incY int, p blas.DrotmParams) error {
	return errNotImplemented
}

func (dev clDevice64) Dscal(n int, alpha float64, x []float64, incX int) error {
	return errNotImplemented
}

func (dev clDevice32) Sdsdot(n int, alpha float32, x []float32, incX int, y []float32, incY int) (float32, error) {
	return 0, errNotImplemented
}

func (dev clDevice32) Dsdot(n int, x []float32, incX int, y []float32, incY int) (float64, error) {
	return 0, errNotImplemented
}

func (dev clDevice32) Sdot(n int, x []float32, incX int, y []float32, incY int) (float32, error) {
	return 0, errNotImplemented
}

func (dev clDevice32) Snrm2(n int, x []float32, incX int) (float32, error) {
	return 0, errNotImplemented
}

func (dev clDevice32) Sasum(n int, x []float32, incX int) (float32, error) {
	return 0, errNotImplemented
}

func (dev clDevice32) Isamax(n int, x []float32, incX int) (int, error) {
	return -1, errNotImplemented
}

func (dev clDevice32) Sswap(n int, x []float32, incX int, y []float32, incY int) error {
	return errNotImplemented
}

func (dev clDevice32) Scopy(n int, x []float32, incX int, y []float32, incY int) error {
	return errNotImplemented
}

func (dev clDevice32) Saxpy(n int, alpha float32, x []float32, incX int, y []float32, incY int) error {
	return errNotImplemented
}

func (dev clDevice32) Srot(n int, x []float32, incX int, y []float32, incY int, c float32, s float32) error {
	return errNotImplemented
}

func (dev clDevice32) Srotm(n int, x []float32, incX int, y []float32, incY int, p blas.SrotmParams) error {
	return errNotImplemented
}

func (dev clDevice32) Sscal(n int, alpha float32, x []float32, incX int) error {
	return errNotImplemented
}
