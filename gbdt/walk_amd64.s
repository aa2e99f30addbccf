//go:build !purego

#include "textflag.h"

// func walk4(col *uint32, thr *float32, x *float32, stride, d, groups uintptr, leaves *float64, ns uintptr, out *float64)
//
// walk4 is walkRows for groups×4 rows, four side by side (walk_amd64.go).
// A step of a walk at split i over a row at R: c = col[i]; then
// i = 2i+1, plus 1 when thr[i] < R[c] (UCOMISS sets the carry flag
// exactly then, the values and thresholds being numbers, never NaN).
TEXT ·walk4(SB), NOSPLIT, $0-72
	MOVQ col+0(FP), SI
	MOVQ thr+8(FP), DI
	MOVQ x+16(FP), R9
	MOVQ groups+40(FP), AX
	TESTQ AX, AX
	JZ done

group:
	MOVQ stride+24(FP), AX
	LEAQ (R9)(AX*1), R10 // the group's rows: R9, R10, R11, R12
	LEAQ (R10)(AX*1), R11
	LEAQ (R11)(AX*1), R12
	XORQ BX, BX // their walks' splits
	XORQ CX, CX
	XORQ DX, DX
	XORQ R8, R8
	MOVQ d+32(FP), R13

level:
	MOVL (SI)(BX*4), AX
	MOVSS (DI)(BX*4), X0
	UCOMISS (R9)(AX*4), X0
	LEAQ 1(BX)(BX*1), BX
	ADCQ $0, BX

	MOVL (SI)(CX*4), AX
	MOVSS (DI)(CX*4), X1
	UCOMISS (R10)(AX*4), X1
	LEAQ 1(CX)(CX*1), CX
	ADCQ $0, CX

	MOVL (SI)(DX*4), AX
	MOVSS (DI)(DX*4), X2
	UCOMISS (R11)(AX*4), X2
	LEAQ 1(DX)(DX*1), DX
	ADCQ $0, DX

	MOVL (SI)(R8*4), AX
	MOVSS (DI)(R8*4), X3
	UCOMISS (R12)(AX*4), X3
	LEAQ 1(R8)(R8*1), R8
	ADCQ $0, R8

	DECQ R13
	JNZ level

	// out[k+j] += leaves[i_j − ns]
	MOVQ ns+56(FP), AX
	SUBQ AX, BX
	SUBQ AX, CX
	SUBQ AX, DX
	SUBQ AX, R8
	MOVQ leaves+48(FP), AX
	MOVQ out+64(FP), R13
	MOVSD (R13), X0
	ADDSD (AX)(BX*8), X0
	MOVSD X0, (R13)
	MOVSD 8(R13), X1
	ADDSD (AX)(CX*8), X1
	MOVSD X1, 8(R13)
	MOVSD 16(R13), X2
	ADDSD (AX)(DX*8), X2
	MOVSD X2, 16(R13)
	MOVSD 24(R13), X3
	ADDSD (AX)(R8*8), X3
	MOVSD X3, 24(R13)
	ADDQ $32, R13
	MOVQ R13, out+64(FP)

	MOVQ stride+24(FP), AX
	LEAQ (R12)(AX*1), R9
	DECQ groups+40(FP)
	JNZ group

done:
	RET
