//go:build !purego

#include "textflag.h"

// func gather4(feat *int32, nan, max *float32, groups uintptr, x, out *float32)
//
// gather4 is the loop of columns.gather, four columns at a time
// (asm_amd64.go). MINPS gives the value when it is below max and max
// otherwise (also when the value is NaN); CMPPS marks the NaN values,
// which take nan instead.
TEXT ·gather4(SB), NOSPLIT, $0-48
	MOVQ feat+0(FP), SI
	MOVQ nan+8(FP), DI
	MOVQ max+16(FP), R8
	MOVQ groups+24(FP), CX
	MOVQ x+32(FP), R9
	MOVQ out+40(FP), R10
	TESTQ CX, CX
	JZ done

loop:
	MOVLQSX 0(SI), AX
	MOVSS (R9)(AX*4), X0
	MOVLQSX 4(SI), AX
	MOVSS (R9)(AX*4), X1
	MOVLQSX 8(SI), AX
	MOVSS (R9)(AX*4), X2
	MOVLQSX 12(SI), AX
	MOVSS (R9)(AX*4), X3
	UNPCKLPS X1, X0 // X0 = v0 v1
	UNPCKLPS X3, X2 // X2 = v2 v3
	MOVLHPS X2, X0  // X0 = v0 v1 v2 v3
	MOVAPS X0, X5
	CMPPS X5, X5, $3 // X5: all ones where the value is NaN
	MOVUPS (R8), X4
	MINPS X4, X0     // X0 = value < max ? value : max
	MOVUPS (DI), X6
	ANDPS X5, X6     // nan where NaN
	ANDNPS X0, X5    // the minimum elsewhere
	ORPS X6, X5
	MOVUPS X5, (R10)
	ADDQ $16, SI
	ADDQ $16, DI
	ADDQ $16, R8
	ADDQ $16, R10
	DECQ CX
	JNZ loop

done:
	RET
