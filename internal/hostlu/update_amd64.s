#include "textflag.h"

// func update8FMA(rows, cols int, c []float64, ldc int, l []float64, ldl int, u []float64, ldu int)
//
// For i < rows and j < cols (cols a multiple of 4):
//   c[i*ldc+j] = c[i*ldc+j] − l[i*ldl+p]·u[p*ldu+j] for p = 0, 1, …, 7 in turn,
// each step one fused multiply-add (VFNMADD231PD).
TEXT ·update8FMA(SB), NOSPLIT, $0-112
	MOVQ rows+0(FP), R8
	MOVQ cols+8(FP), R9
	MOVQ c_base+16(FP), DI
	MOVQ ldc+40(FP), R10
	MOVQ l_base+48(FP), SI
	MOVQ ldl+72(FP), R11
	MOVQ u_base+80(FP), DX
	MOVQ ldu+104(FP), R12
	SHLQ $3, R10 // strides in bytes
	SHLQ $3, R11
	SHLQ $3, R12
	TESTQ R8, R8
	JLE  done
	TESTQ R9, R9
	JLE  done

	// u's rows p and p+4 are at AX and BX plus R12 (ldu), R14 (2·ldu) and
	// R15 (3·ldu).
	LEAQ (R12)(R12*1), R14
	LEAQ (R14)(R12*1), R15

row:
	VBROADCASTSD (SI), Y0
	VBROADCASTSD 8(SI), Y1
	VBROADCASTSD 16(SI), Y2
	VBROADCASTSD 24(SI), Y3
	VBROADCASTSD 32(SI), Y4
	VBROADCASTSD 40(SI), Y5
	VBROADCASTSD 48(SI), Y6
	VBROADCASTSD 56(SI), Y7
	MOVQ DX, AX // u's row 0, at column j
	LEAQ (DX)(R12*4), BX // u's row 4, at column j
	MOVQ DI, CX // c's row i, at column j
	MOVQ R9, R13

col:
	VMOVUPD (CX), Y8
	VFNMADD231PD (AX), Y0, Y8
	VFNMADD231PD (AX)(R12*1), Y1, Y8
	VFNMADD231PD (AX)(R14*1), Y2, Y8
	VFNMADD231PD (AX)(R15*1), Y3, Y8
	VFNMADD231PD (BX), Y4, Y8
	VFNMADD231PD (BX)(R12*1), Y5, Y8
	VFNMADD231PD (BX)(R14*1), Y6, Y8
	VFNMADD231PD (BX)(R15*1), Y7, Y8
	VMOVUPD Y8, (CX)
	ADDQ $32, AX
	ADDQ $32, BX
	ADDQ $32, CX
	SUBQ $4, R13
	JG   col

	ADDQ R10, DI
	ADDQ R11, SI
	DECQ R8
	JG   row

done:
	VZEROUPPER
	RET

// func stripPassFMA(rows int, a []float64, lda int, u *[8]float64, mask *[2][8]uint64, jj int, r float64) int
//
// For i < rows, row i of the strip at a[i*lda : i*lda+8]:
//   l = row[jj]·r; row[c] −= l·u[c] where mask[0][c] is all ones (c > jj);
//   row[jj] = l (mask[1] selects lane jj);
// returns the first i of largest |row[jj+1]| after the update (−1 when every
// one is NaN). A row is read whole before it is written: an 8-byte store
// followed by a 32-byte load of the same bytes stalls.
TEXT ·stripPassFMA(SB), NOSPLIT, $0-80
	MOVQ rows+0(FP), R8
	MOVQ a_base+8(FP), DI
	MOVQ lda+32(FP), R10
	MOVQ u+40(FP), SI
	MOVQ mask+48(FP), DX
	MOVQ jj+56(FP), R9
	MOVSD r+64(FP), X15
	SHLQ $3, R10
	SHLQ $3, R9 // column jj's byte offset
	LEAQ 8(R9), R13 // column jj+1's
	VMOVUPD (SI), Y12
	VMOVUPD 32(SI), Y13
	VMOVDQU (DX), Y10
	VMOVDQU 32(DX), Y11
	VMOVDQU 64(DX), Y8
	VMOVDQU 96(DX), Y9
	MOVQ $0x7fffffffffffffff, AX
	MOVQ AX, X14 // |x| mask
	MOVQ $-1, R11 // the best row so far
	MOVQ $0xbff0000000000000, AX
	MOVQ AX, X7 // its magnitude: −1 before any
	XORQ R12, R12
	TESTQ R8, R8
	JLE  pdone

prow:
	VMOVSD (DI)(R9*1), X0
	VMULSD X15, X0, X0
	VBROADCASTSD X0, Y0
	VMOVUPD (DI), Y1
	VMOVUPD 32(DI), Y2
	VMOVAPD Y1, Y3
	VFNMADD231PD Y12, Y0, Y3
	VMOVAPD Y2, Y4
	VFNMADD231PD Y13, Y0, Y4
	VBLENDVPD Y10, Y3, Y1, Y1
	VBLENDVPD Y11, Y4, Y2, Y2
	VBLENDVPD Y8, Y0, Y1, Y1
	VBLENDVPD Y9, Y0, Y2, Y2
	VMOVUPD Y1, (DI)
	VMOVUPD Y2, 32(DI)
	VMOVSD (DI)(R13*1), X5
	VANDPD X14, X5, X5
	VUCOMISD X7, X5
	JBE  pnext // not larger, or NaN
	VMOVAPD X5, X7
	MOVQ R12, R11

pnext:
	ADDQ R10, DI
	INCQ R12
	CMPQ R12, R8
	JL   prow

pdone:
	VZEROUPPER
	MOVQ R11, ret+72(FP)
	RET
