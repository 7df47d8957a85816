package hostlu

import "golang.org/x/sys/cpu"

// haveFMA is whether update8FMA may run: AVX2 and FMA, with the OS saving
// the YMM registers (cpu.X86.HasAVX checks that).
var haveFMA = cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasFMA

// update8FMA is update8's loop over whole groups of four columns in
// AVX2 (update_amd64.s); cols must be a multiple of 4.
//
//go:noescape
func update8FMA(rows, cols int, c []float64, ldc int, l []float64, ldl int, u []float64, ldu int)

// stripPassFMA is stripPass's loop in AVX2 (update_amd64.s) for a pivot
// scaled by its reciprocal r and a column jj < strip−1: rows rows of the
// strip from a (row stride lda), u the pivot row's strip, mask[0] all
// ones over the columns right of jj and mask[1] over column jj. It returns the first row of largest
// magnitude in column jj+1 after the update, −1 if all are NaN.
//
//go:noescape
func stripPassFMA(rows int, a []float64, lda int, u *[strip]float64, mask *[2][strip]uint64, jj int, r float64) int
