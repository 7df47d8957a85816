package clblas

import "gonum.org/v1/gonum/blas"

//go:generate go run gen_complex64.go

var (
	_ blas.Complex128 = (*Implementation)(nil)
	_ blas.Complex64  = (*Implementation)(nil)
)
