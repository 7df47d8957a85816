package clblas
